"""ROC & PR curves: one operating point drives the curves, the confusion matrix and
every rate; AUC four ways; the ROC point by point; log loss and calibration."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from explorer import state, widgets
from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from metrics import curves as mc
from metrics.classification import confusion_matrix, log_loss
from metrics.curves import OPTIMIZERS

T = "curves_threshold"  # the operating point: a non-widget key both threshold widgets follow
MAX_POINTS = 4000  # vertices drawn per curve at most (see metrics.curves.reduce_curve)
MAX_ROWS = 200  # rows shown of a long table; the CSV holds them all
#: Per-sample tables: log-loss terms span 1e-16 to ~37, so 4 significant digits.
ROW_COLUMNS = {
    "log_loss_term": st.column_config.NumberColumn(
        "log_loss_term", format="%.4g", help="-log of the probability given to the true class"
    )
}
PAIR_GRID_LIMIT = 2500  # n+ x n- pairs drawn as a full grid; beyond, a uniform sample
PAIR_SAMPLE = 2000

OPT_LABELS = {
    "max_fbeta": "max F-beta",
    "youden": "Youden's J (max TPR - FPR)",
    "min_cost": "min expected cost",
    "recall_at_least": "recall at least x",
    "precision_at_least": "precision at least x",
}
SHORT = {
    "max_fbeta": "max F-beta",
    "youden": "Youden J",
    "min_cost": "min cost",
    "recall_at_least": "recall >= x",
    "precision_at_least": "precision >= x",
}
NORMALIZE = {
    "true": "over the actual class (rows)",
    "pred": "over the predicted class (columns)",
    "all": "over all samples",
}


# ------------------------------------------------------------------ cached computations
@widgets.cache_by_dataset
def _curves(ds, model: str) -> dict:
    y, s, w = ds.y_true, ds.score(model), ds.sample_weight
    fpr, tpr, thr = metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    keep = mc.reduce_curve(fpr, tpr, max_points=MAX_POINTS)
    p, r, pt = metrics.precision_recall_curve(y, s, sample_weight=w)
    pr_thr = list(pt) + [math.inf]
    pkeep = mc.reduce_curve(r, p, max_points=MAX_POINTS)
    return {
        "model": model,
        "fpr": fpr[keep],
        "tpr": tpr[keep],
        "thresholds": thr[keep],
        "n_roc": int(fpr.shape[0]),
        "recall": r[pkeep],
        "precision": p[pkeep],
        "pr_thresholds": [pr_thr[i] for i in pkeep],
        "n_pr": int(p.shape[0]),
        "auc": metrics.roc_auc_score(y, s, sample_weight=w),
        "ap": metrics.average_precision_score(y, s, sample_weight=w),
        "pr_trapezoid": metrics.auc(r, p),
        "trapezoid": metrics.auc(fpr, tpr),
    }


# The large per-dataset results live in st.cache_resource (keyed on the fingerprint, shared,
# never mutated): st.cache_data would unpickle tens of MB on every rerun.
_by_fingerprint = st.cache_resource(max_entries=4, hash_funcs={Dataset: lambda d: d.fingerprint})


@_by_fingerprint
def _counts(ds, model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TP and FP at +inf and at every distinct score: the one sort every optimizer and
    the threshold table are read from."""
    return mc.threshold_counts(ds.y_true, ds.score(model), sample_weight=ds.sample_weight)


@widgets.cache_by_dataset
def _optima(ds, model, beta, cost_fp, cost_fn, min_recall, min_precision) -> pd.DataFrame:
    return mc.optimal_thresholds_from_counts(
        _counts(ds, model),
        beta=beta,
        cost_fp=cost_fp,
        cost_fn=cost_fn,
        min_recall=min_recall,
        min_precision=min_precision,
    )


@widgets.cache_by_dataset
def _four_ways_at_100(ds, model) -> dict:
    return mc.auc_four_ways(ds.y_true, ds.score(model), n_bins=100, sample_weight=ds.sample_weight)


@widgets.cache_by_dataset
def _four_ways(ds, model, n_bins) -> dict:
    """auc_four_ways at ``n_bins``: only its histogram part depends on the bins, so the
    sorting ways are reused from n_bins = 100 and the histogram is recomputed as
    auc_four_ways does it."""
    out = dict(_four_ways_at_100(ds, model))
    if n_bins == 100 or out["histogram_message"]:  # the message is about the scores' range
        return out
    hist = metrics.auc_histogram(ds.y_true, ds.score(model), n_bins=n_bins)
    return {**out, "histogram": hist, "histogram_error": hist - out["exact"]}


def _threshold_table(ds, model, drop) -> pd.DataFrame:
    return mc.threshold_table_from_counts(_counts(ds, model), drop_intermediate=drop)


@widgets.cache_by_dataset
def _threshold_head(ds, model, drop) -> tuple[pd.DataFrame, int]:
    """The first MAX_ROWS rows and the length (the CSV builds the whole table on click)."""
    table = mc.threshold_table_from_counts(
        _counts(ds, model), drop_intermediate=drop, max_rows=MAX_ROWS
    )
    return table, table.attrs["n_rows"]


def _rank_table(ds, model) -> pd.DataFrame:
    return mc.auc_rank_table(ds.y_true, ds.score(model))


@widgets.cache_by_dataset
def _rank_head(ds, model) -> tuple[pd.DataFrame, int]:
    table = _rank_table(ds, model)
    return table.head(MAX_ROWS), len(table)


@widgets.cache_by_dataset
def _calibration(ds, model, n_bins) -> pd.DataFrame:
    return mc.calibration_bins(
        ds.y_true, ds.score(model), n_bins=n_bins, sample_weight=ds.sample_weight
    )


# Figures are cached as objects (st.cache_resource: an unpickled plotly figure costs about
# as much as a new one); st.plotly_chart only reads them.
@_by_fingerprint
def _calibration_figure(ds, model, n_bins):
    return charts.calibration_figure(_calibration(ds, model, n_bins))


@_by_fingerprint
def _histogram_figure(ds, model, n_bins):
    return charts.histogram_auc_figure(ds.score(model), ds.y_true, n_bins)


@widgets.cache_by_dataset
def _rates(ds, model, t, beta) -> dict:
    return mc.rates_at_threshold(
        ds.y_true, ds.score(model), t, beta=beta, sample_weight=ds.sample_weight
    )


@_by_fingerprint
def _strip_histogram(ds, model, t):
    samples = _samples(ds, model)
    return charts.strip_histogram_figure(samples["pos_scores"], samples["neg_scores"], t)


@_by_fingerprint
def _curve_figures(ds, model, t, beta, cost_fp, cost_fn, min_recall, min_precision):
    """The ROC and PR figures: every model's (reduced) curves, the operating point of
    ``model`` at ``t`` and its candidate markers."""
    curves = {m: _curves(ds, m) for m in ds.model_names}
    rates = _rates(ds, model, t, beta)
    optima = _optima(ds, model, beta, cost_fp, cost_fn, min_recall, min_precision)
    candidates = optima.assign(label=[SHORT[k] for k in optima.index]).rename(
        columns={"tpr": "recall"}
    )
    candidates["tpr"] = candidates["recall"]
    roc_fig = charts.roc_figure(
        [
            {
                "model": m,
                "fpr": c["fpr"],
                "tpr": c["tpr"],
                "thresholds": c["thresholds"],
                "auc": c["auc"],
            }
            for m, c in curves.items()
        ],
        {"fpr": rates["fpr"], "tpr": rates["tpr"], "threshold": t},
        candidates,
    )
    pr_fig = charts.pr_figure(
        [
            {
                "model": m,
                "recall": c["recall"],
                "precision": c["precision"],
                "thresholds": c["pr_thresholds"],
                "ap": c["ap"],
            }
            for m, c in curves.items()
        ],
        (rates["tp"] + rates["fn"]) / (rates["tp"] + rates["fn"] + rates["fp"] + rates["tn"]),
        {"recall": rates["recall"], "precision": rates["precision"], "threshold": t},
        candidates,
    )
    return roc_fig, pr_fig


@widgets.cache_by_dataset
def _pairs(ds, model, max_pairs) -> pd.DataFrame:
    return metrics.auc_pairs(ds.y_true, ds.score(model), max_pairs=max_pairs)


@_by_fingerprint
def _samples(ds, model) -> dict:
    """The threshold-free per-sample columns and the orders the page lists samples in.

    ``base``: per_sample_outcomes without the threshold columns, in sample order;
    ``worst``: sample indices, worst log-loss term first; ``pos``/``neg``: the
    positives/negatives, highest score first, and ``pos_key``/``neg_key`` their
    negated scores (ascending), so the samples predicted positive at t are a prefix;
    ``pos_scores``/``neg_scores``: their scores ascending (the strip's histograms).
    """
    base = mc.per_sample_outcomes(ds.y_true, ds.score(model), None, sample_weight=ds.sample_weight)
    worst = base.sort_values(
        ["log_loss_term", "score"], ascending=[False, False], na_position="last"
    ).index.to_numpy()
    key = -base["score"].to_numpy()
    by_score = np.argsort(key, kind="stable")
    positive = base["label"].to_numpy()[by_score] == 1
    pos, neg = by_score[positive], by_score[~positive]
    return {
        "base": base,
        "worst": worst,
        "pos": pos,
        "neg": neg,
        "pos_key": key[pos],
        "neg_key": key[neg],
        "pos_scores": -key[pos][::-1],
        "neg_scores": -key[neg][::-1],
    }


def _rows(ds, samples: dict, idx: np.ndarray, t: float) -> pd.DataFrame:
    """The per-sample table of the samples ``idx`` (in that order) at threshold ``t``."""
    df = samples["base"].iloc[idx].reset_index(drop=True)
    df.insert(0, "id", [ds.sample_ids[i] for i in idx])
    if len(df):
        df.insert(4, "prediction", mc.predict_at_threshold(df["score"], t))
        df.insert(5, "outcome", mc.threshold_outcomes(df["label"], df["score"], t))
    else:
        df.insert(4, "prediction", np.zeros(0, dtype=np.int64))
        df.insert(5, "outcome", np.zeros(0, dtype=str))
    return df


def _cell(samples: dict, cell: str, t: float) -> np.ndarray:
    """The samples of one confusion-matrix cell at ``t``, highest score first."""
    side = "pos" if cell in ("TP", "FN") else "neg"
    k = int(np.searchsorted(samples[f"{side}_key"], -t, side="right"))  # scores >= t
    return samples[side][:k] if cell in ("TP", "FP") else samples[side][k:]


def _rows_csv(ds, samples: dict, idx: np.ndarray, t: float):
    return lambda: _rows(ds, samples, idx, t).to_csv(index=False).encode()


@widgets.cache_by_dataset
def _log_loss(ds, model) -> tuple[float, float]:
    y, s, w = ds.y_true.astype(int), ds.score(model), ds.sample_weight
    return (
        log_loss(y, s, sample_weight=w, labels=[0, 1]),
        log_loss(y, s, sample_weight=w, labels=[0, 1], normalize=False),
    )


@widgets.cache_by_dataset
def _score_range(ds) -> tuple[float, float]:
    """The threshold widgets' range: from min(0, lowest score) to max(1, highest score),
    nudged just above the highest score, so the right end predicts nothing positive
    (the +inf threshold of the curves and the candidates). When the highest score is
    the largest float, no float lies above it: the range ends at that score."""
    lows = [float(s.min()) for s in ds.scores.values()]
    high = max(float(s.max()) for s in ds.scores.values())
    above = math.nextafter(high, math.inf)
    return min(0.0, *lows), (1.0 if high < 1.0 else above if math.isfinite(above) else high)


def _slider_step(lo: float, hi: float) -> float | None:
    """The threshold slider's step, always a float: 0.01 on a range of at most 1, else
    the power of ten nearest below a hundredth of the range (1.0 for logits up to 150,
    1e306 for scores up to 1e308). None when ``hi - lo`` overflows float64 (scores of
    -1e308 and 1e308): no slider spans that range, the page steps through the distinct
    scores instead."""
    span = hi - lo
    if not math.isfinite(span):
        return None
    if span <= 1:
        return 0.01
    return 10.0 ** math.floor(math.log10(span / 100))


@widgets.cache_by_dataset
def _box_format(ds) -> str:
    """The number box's format: four decimals for scores of ordinary size; six
    significant digits when every non-zero score is below 1e-3 (four decimals would
    show 0.0000) or some score reaches 1e9 (four decimals would show dozens of digits)."""
    sizes = np.concatenate([np.abs(s).ravel() for s in ds.scores.values()])
    nonzero = sizes[sizes > 0]
    if nonzero.size and (nonzero.max() < 1e-3 or nonzero.max() >= 1e9):
        return "%.6g"
    return "%.4f"


@_by_fingerprint
def _distinct_scores(ds, model: str) -> np.ndarray:
    """The model's distinct scores, ascending: the stops of the fallback threshold control."""
    return np.unique(ds.score(model))


def _index_of(stops: np.ndarray, t: float) -> int:
    """The stop giving the same predictions as threshold ``t``: the lowest distinct score
    >= t, or ``len(stops)`` (above every score) when there is none."""
    return int(np.searchsorted(stops, t, side="left"))


# ------------------------------------------------------------------ callbacks
# Callbacks only record what moved the threshold; the script settles it once, by
# priority (a click or button, then the slider, then the number box). When the script
# re-seeds the other widget, a rerun already in flight still carries that widget's old
# value and Streamlit reports it as a change; the priority keeps the fresher source.
PENDING = "curves_pending"
PRIORITY = ("click", "curves_threshold_slider", "curves_threshold_number")


def _record(source: str, value) -> None:
    if value is not None and math.isfinite(value):
        st.session_state.setdefault(PENDING, {})[source] = float(value)


def _set_threshold(value) -> None:
    _record("click", value)


def _from_widget(key: str) -> None:
    _record(key, st.session_state[key])


def _from_index(key: str, stops: np.ndarray, top: float) -> None:
    """The fallback control moved: its position i is the i-th distinct score (or ``top``,
    above them all); it counts as the slider."""
    i = int(st.session_state[key])
    _record("curves_threshold_slider", float(stops[i]) if i < len(stops) else top)


def _from_chart(key: str) -> None:
    _record("click", charts.threshold_from_selection(st.session_state.get(key)))


def _on_cell_click() -> None:
    cell = charts.cell_from_selection(st.session_state.get("curves_cm_chart"))
    if cell is not None:
        st.session_state["curves_cm_cell"] = cell


def _settle_threshold() -> None:
    pending = st.session_state.pop(PENDING, {})
    for source in PRIORITY:
        if source in pending:
            st.session_state[T] = pending[source]
            return


def _count(v: float) -> str:
    """Counts print as integers; weighted counts keep their decimals."""
    return str(int(v)) if float(v).is_integer() else fmt(v)


def _csv(df: pd.DataFrame):
    return lambda: df.to_csv(index=False).encode()


def _choice(key: str, param: str, options, default):
    """Seed a choice widget from the URL: one of ``options``, else ``default``."""
    return state.bind_param(key, param, default, check=state.member(options))


def _number(key: str, param: str, default, lo, hi):
    """Seed a number widget from the URL, of the type of ``default``, within [lo, hi]."""
    kind = type(default)
    check = (state.int_in if kind is int else state.float_in)(lo, hi, clamp=False)
    return state.bind_param(key, param, default, lambda v: kind(float(v)), check)


# ------------------------------------------------------------------ page
st.title("ROC & PR curves")
ds = state.active()
widgets.require_kind(ds, ("binary",), "balanced")

models = ds.model_names
if len(models) > 1:
    _choice("curves_model", "model", models, models[0])
    model = st.selectbox(
        "Model",
        models,
        key="curves_model",
        help="Every number below is for this model; the curves show all models.",
    )
    state.write_param("model", model)
else:
    model = models[0]
y, s, w = ds.y_true, ds.score(model), ds.sample_weight
st.caption(
    f"Dataset **{ds.name}**: {ds.n_samples:,} samples, model **{model}**"
    + (", weighted by `sample_weight`" if w is not None else "")
    + (f". {ds.description}" if ds.description else "")
)

try:
    curves = {m: _curves(ds, m) for m in models}
except metrics.MetricInputError as exc:
    st.error(str(exc))
    state.stop_page()
cur = curves[model]

# ---- the operating point: one threshold in session state, two widgets in sync
lo, hi = _score_range(ds)
step = _slider_step(lo, hi)
stops = _distinct_scores(ds, model) if step is None else None
INDEX = "curves_threshold_index"  # the fallback control's key (a range no slider spans)
_settle_threshold()
t = state.bind_param(T, "t", 0.5 if lo <= 0.5 <= hi else lo, float)
if not isinstance(t, int | float) or not math.isfinite(t):
    t = 0.5
t = min(max(float(t), lo), hi)
st.session_state[T] = t
# re-seed a widget only when another control moved the threshold: writing an unchanged
# value would reset a slider the user is still dragging (its next value is in flight)
for key in ("curves_threshold_slider", "curves_threshold_number"):
    if st.session_state.get(key) != t:
        state.seed_widget(key, t)
if stops is not None and st.session_state.get(INDEX) != _index_of(stops, t):
    state.seed_widget(INDEX, _index_of(stops, t))
_number("curves_beta", "beta", 1.0, 0.0, 100.0)

c_slider, c_number, c_beta = st.columns([5, 2, 1.3])
if step is not None:
    c_slider.slider(
        "Threshold",
        min_value=lo,
        max_value=hi,
        step=step,
        format="%.4g" if max(-lo, hi) >= 1e9 else None,  # not 309 digits of 1e308
        key="curves_threshold_slider",
        on_change=_from_widget,
        args=("curves_threshold_slider",),
        help="A sample is predicted positive when its score is >= the threshold.",
    )
else:
    top = len(stops) if hi > stops[-1] else len(stops) - 1
    c_slider.slider(
        f"Threshold: the i-th of the {len(stops):,} distinct scores, lowest first",
        min_value=0,
        max_value=max(top, 1),
        step=1,
        key=INDEX,
        on_change=_from_index,
        args=(INDEX, stops, hi),
        help="A sample is predicted positive when its score is >= the threshold.",
    )
    c_slider.caption(
        f"The scores span {stops[0]:.4g} to {stops[-1]:.4g}, a range wider than the largest "
        "float, so this slider steps through the distinct scores (position i is the i-th "
        f"lowest score{'; the last, above every score' if top == len(stops) else ''}). "
        "Type any threshold in the box."
    )
c_number.number_input(
    "Threshold (exact)",
    min_value=lo,
    max_value=hi,
    step=0.001 if step is not None and step <= 1 else (step or 1e306),
    format=_box_format(ds),
    key="curves_threshold_number",
    on_change=_from_widget,
    args=("curves_threshold_number",),
)
beta = c_beta.number_input(
    "β (F-beta)",
    min_value=0.0,
    max_value=100.0,
    step=0.5,
    key="curves_beta",
    help="β > 1 weighs recall more, β < 1 precision more; β = 1 is F1.",
)
state.write_param("t", t)
state.write_param("beta", beta)
st.markdown(
    f"**Prediction = positive when score ≥ {t:.4g}.** Move the slider, type a value, "
    "or click any point of either curve (or a candidate marker) to move the operating point."
)

rates = _rates(ds, model, t, beta)
try:
    ll, ll_sum = _log_loss(ds, model)
    ll_error = ""
except metrics.MetricInputError as exc:
    ll, ll_sum, ll_error = math.nan, math.nan, str(exc)

# ---- 1. headline numbers
cols = st.columns(7)
cols[0].metric("ROC AUC", fmt(cur["auc"]))
cols[1].metric("Average precision", fmt(cur["ap"]))
cols[2].metric(
    "Log loss",
    fmt(ll) if ll_error == "" else "n/a",
    help="Needs scores that are probabilities in [0, 1]." if ll_error else None,
)
cols[3].metric("Precision", fmt(rates["precision"]))
cols[4].metric("Recall", fmt(rates["recall"]))
cols[5].metric("F1", fmt(rates["f1"]))
cols[6].metric("Accuracy", fmt(rates["accuracy"]))
cols = st.columns(4)
cols[0].metric("F-beta", fmt(rates["fbeta"]), help=f"β = {beta:g}")
cols[1].metric("Error rate", fmt(rates["error_rate"]))
cols[2].metric("TPR", fmt(rates["tpr"]))
cols[3].metric("FPR", fmt(rates["fpr"]))

# ---- "Optimize for": candidate operating points
with st.expander("Optimize for: candidate thresholds", expanded=True):
    _choice("curves_optimize", "opt", OPTIMIZERS, "max_fbeta")
    _number("curves_cost_fp", "cfp", 1.0, 0.0, 1e9)
    _number("curves_cost_fn", "cfn", 1.0, 0.0, 1e9)
    _number("curves_min_recall", "minr", 0.9, 0.0, 1.0)
    _number("curves_min_precision", "minp", 0.9, 0.0, 1.0)
    o1, o2, o3, o4, o5 = st.columns([2.2, 1, 1, 1, 1])
    goal = o1.radio("Optimize for", OPTIMIZERS, format_func=OPT_LABELS.get, key="curves_optimize")
    cost_fp = o2.number_input("Cost of a FP", min_value=0.0, step=1.0, key="curves_cost_fp")
    cost_fn = o3.number_input("Cost of a FN", min_value=0.0, step=1.0, key="curves_cost_fn")
    min_recall = o4.number_input(
        "Recall at least", min_value=0.0, max_value=1.0, step=0.05, key="curves_min_recall"
    )
    min_precision = o5.number_input(
        "Precision at least", min_value=0.0, max_value=1.0, step=0.05, key="curves_min_precision"
    )
    for _key, param, value in (
        ("optimize", "opt", goal),
        ("cost_fp", "cfp", cost_fp),
        ("cost_fn", "cfn", cost_fn),
        ("min_recall", "minr", min_recall),
        ("min_precision", "minp", min_precision),
    ):
        state.write_param(param, value)
    optima = _optima(ds, model, beta, cost_fp, cost_fn, min_recall, min_precision)
    best = optima.loc[goal]
    if math.isfinite(best["threshold"]):
        o1.button(
            f"Move the threshold to {best['threshold']:.4g} ({SHORT[goal]})",
            key="curves_apply_optimum",
            on_click=_set_threshold,
            args=(float(best["threshold"]),),
            type="primary",
        )
    elif best["threshold"] == math.inf and hi <= float(s.max()):  # hi is the largest float
        o1.button(
            f"{SHORT[goal]}: predict nothing positive, which needs a threshold above the "
            f"highest score {hi:.4g}; no float lies above it",
            key="curves_apply_optimum",
            disabled=True,
        )
    elif best["threshold"] == math.inf:  # predict nothing: the slider's right end
        o1.button(
            f"Move the threshold to {hi:.4g}, above every score ({SHORT[goal]}: +inf, "
            "predict nothing positive)",
            key="curves_apply_optimum",
            on_click=_set_threshold,
            args=(hi,),
            type="primary",
        )
    else:
        o1.button("No threshold meets the constraint", key="curves_apply_optimum", disabled=True)
    table = optima.assign(
        criterion=[OPT_LABELS[k] for k in optima.index],
        value=optima["value"],
    )[["criterion", "threshold", "value", "precision", "tpr", "fpr", "tp", "fp", "fn", "tn"]]
    table = table.rename(columns={"tpr": "recall (TPR)", "fpr": "FPR"})
    st.dataframe(table, hide_index=True, width="stretch", key="curves_optima_table")
    st.caption(
        "Candidates are +inf (predict nothing positive) and the distinct scores; ties go "
        f"to the highest threshold. Value = F-beta (β = {beta:g}), J = TPR - FPR, "
        f"cost = {cost_fp:g}·FP + {cost_fn:g}·FN, or the precision (recall) reached under "
        "the constraint. Each is a labelled marker on the curves: click it, or press the button."
    )
    st.download_button(
        "Download the candidates (CSV)", _csv(table), "candidates.csv", key="curves_dl_optima"
    )

# ---- 2. the picture: ROC and PR curves
roc_fig, pr_fig = _curve_figures(ds, model, t, beta, cost_fp, cost_fn, min_recall, min_precision)
left, right = st.columns(2)
with left:
    st.plotly_chart(
        roc_fig,
        key="curves_roc_chart",
        on_select=lambda: _from_chart("curves_roc_chart"),
        selection_mode="points",
        width="stretch",
    )
with right:
    st.plotly_chart(
        pr_fig,
        key="curves_pr_chart",
        on_select=lambda: _from_chart("curves_pr_chart"),
        selection_mode="points",
        width="stretch",
    )
st.caption(
    " · ".join(
        f"{m}: drew {len(c['fpr']):,} of {c['n_roc']:,} ROC vertices and "
        f"{len(c['recall']):,} of {c['n_pr']:,} PR vertices"
        for m, c in curves.items()
    )
    + ". The curves have one vertex per distinct score; only collinear points are left out"
    f" (and, past {MAX_POINTS:,} vertices, those within one pixel column of a kept one). "
    "All numbers are computed on the exact curves. Hover a vertex to read its threshold."
)

# ---- 3. how it is computed: the confusion matrix and the formulas
st.header("At the operating point: the confusion matrix")
norm = _choice("curves_cm_normalize", "norm", tuple(NORMALIZE), "true")
norm = st.radio(
    "Normalize the rates",
    tuple(NORMALIZE),
    format_func=NORMALIZE.get,
    key="curves_cm_normalize",
    horizontal=True,
)
state.write_param("norm", norm)
# the matrix of the four (weighted) counts of rates_at_threshold: one pseudo-sample per
# cell weighted by its count, so a million samples are not counted a second time
cm_args = ([1, 1, 0, 0], [1, 0, 1, 0])
cm_w = [rates["tp"], rates["fn"], rates["fp"], rates["tn"]]
counts = confusion_matrix(*cm_args, labels=[1, 0], sample_weight=cm_w)
cm_rates = confusion_matrix(*cm_args, labels=[1, 0], sample_weight=cm_w, normalize=norm)
cols = st.columns(4)
for col, name in zip(cols, ("TP", "FP", "FN", "TN"), strict=True):
    col.metric(name, _count(rates[name.lower()]), help=charts.OUTCOME_NAMES[name])
c_cm, c_table = st.columns([1, 1])
with c_cm:
    st.plotly_chart(
        charts.confusion_figure(counts, cm_rates, norm),
        key="curves_cm_chart",
        on_select=_on_cell_click,
        selection_mode="points",
    )
    st.caption("Click a cell to list its samples below.")
with c_table:
    cm_table = pd.DataFrame(
        {
            "predicted 1 (positive)": [
                f"TP {_count(counts[0, 0])} ({cm_rates[0, 0]:.1%})",
                f"FP {_count(counts[1, 0])} ({cm_rates[1, 0]:.1%})",
            ],
            "predicted 0 (negative)": [
                f"FN {_count(counts[0, 1])} ({cm_rates[0, 1]:.1%})",
                f"TN {_count(counts[1, 1])} ({cm_rates[1, 1]:.1%})",
            ],
        },
        index=["actual 1 (positive)", "actual 0 (negative)"],
    )
    st.table(cm_table)
    st.caption(f"Counts, and in brackets the rate normalized {NORMALIZE[norm]}.")
c_formulas, c_formulas2 = st.columns(2)
with c_formulas:
    tp, fp, fn, tn = (_count(rates[k]) for k in ("tp", "fp", "fn", "tn"))
    b2 = f"{beta:g}^2"
    st.latex(
        rf"\text{{Precision}} = \frac{{TP}}{{TP + FP}} = \frac{{{tp}}}{{{tp} + {fp}}}"
        rf" = {fmt(rates['precision'])}"
    )
    st.latex(
        rf"\text{{Recall (TPR)}} = \frac{{TP}}{{TP + FN}} = \frac{{{tp}}}{{{tp} + {fn}}}"
        rf" = {fmt(rates['recall'])}"
    )
    st.latex(
        rf"\begin{{aligned}} F_1 &= \frac{{2\,TP}}{{2\,TP + FP + FN}} \\ &= \frac{{2 \cdot {tp}}}"
        rf"{{2 \cdot {tp} + {fp} + {fn}}} = {fmt(rates['f1'])} \end{{aligned}}"
    )
    st.latex(
        rf"\text{{FPR}} = \frac{{FP}}{{FP + TN}} = \frac{{{fp}}}{{{fp} + {tn}}}"
        rf" = {fmt(rates['fpr'])}"
    )
with c_formulas2:
    st.latex(
        rf"\begin{{aligned}} F_\beta &= \frac{{(1+\beta^2)\,TP}}{{(1+\beta^2)\,TP + \beta^2 FN"
        rf" + FP}} \\ &= \frac{{(1+{b2}) \cdot {tp}}}{{(1+{b2}) \cdot {tp} + {b2} \cdot {fn}"
        rf" + {fp}}} = {fmt(rates['fbeta'])} \end{{aligned}}"
    )
    n_total = _count(rates["tp"] + rates["fp"] + rates["fn"] + rates["tn"])
    st.latex(
        rf"\text{{Accuracy}} = \frac{{TP + TN}}{{N}} = \frac{{{tp} + {tn}}}{{{n_total}}}"
        rf" = {fmt(rates['accuracy'])}"
    )
    st.latex(
        rf"\text{{Error rate}} = \frac{{FP + FN}}{{N}} = \frac{{{fp} + {fn}}}{{{n_total}}}"
        rf" = {fmt(rates['error_rate'])}"
    )
    st.caption(
        "N = TP + FP + FN + TN" + (" (total sample_weight)." if w is not None else " (samples).")
    )

samples = _samples(ds, model)
state.bind_param("curves_cm_cell", None, "TP", check=state.member(("TP", "FP", "FN", "TN")))
cell = st.selectbox(
    "List the samples of one cell",
    ("TP", "FP", "FN", "TN"),
    format_func=charts.OUTCOME_NAMES.get,
    key="curves_cm_cell",
)
in_cell = _cell(samples, cell, t)
st.caption(
    f"{len(in_cell):,} samples are {cell} at threshold {t:.4g}"
    + (
        f"; the {MAX_ROWS} highest-scoring are shown, the CSV has all."
        if len(in_cell) > MAX_ROWS
        else "."
    )
)
st.dataframe(
    _rows(ds, samples, in_cell[:MAX_ROWS], t),
    hide_index=True,
    width="stretch",
    key="curves_cell_table",
    column_config=ROW_COLUMNS,
)
st.download_button(
    f"Download the {cell} samples (CSV)",
    _rows_csv(ds, samples, in_cell, t),
    f"{cell}.csv",
    key="curves_dl_cell",
)

# ---- the sample strip
st.header("The samples along the score axis")
STRIP_MARKERS = 3000  # strip_figure's max_markers: beyond, histograms per outcome
if ds.n_samples <= STRIP_MARKERS:
    # worst first, as the per-sample table (the order in which tied markers stack)
    strip = samples["worst"]
    strip_fig = charts.strip_figure(
        s[strip],
        y[strip],
        mc.threshold_outcomes(y, s, t)[strip],
        t,
        ids=[ds.sample_ids[i] for i in strip],
        max_markers=STRIP_MARKERS,
    )
else:  # stacked histograms per outcome, counted from the sorted scores
    strip_fig = _strip_histogram(ds, model, t)
st.plotly_chart(strip_fig, key="curves_strip_chart")
st.caption(
    "One marker per sample, coloured by its outcome at the threshold (dotted line); samples "
    "with the same label and score stack upwards, so a column of markers is a tie."
    if ds.n_samples <= STRIP_MARKERS
    else f"{ds.n_samples:,} samples are too many markers: stacked histograms per outcome."
)

# ---- AUC four ways
st.header("AUC four ways")
n_bins = _number("curves_n_bins", "bins", 100, 1, 100_000)
try:
    four = _four_ways(ds, model, int(st.session_state["curves_n_bins"]))
except metrics.MetricInputError as exc:
    st.error(str(exc))
    four = None
if four is not None:
    cols = st.columns(5)
    cols[0].metric("AUC: trapezoids", fmt(four["trapezoid"]))
    cols[1].metric("AUC: all pairs", fmt(four["pairwise"]))
    cols[2].metric("AUC: rank sum", fmt(four["rank"]))
    cols[3].metric(
        "AUC: histogram",
        fmt(four["histogram"]) if not four["histogram_message"] else "n/a",
        delta=None if four["histogram_message"] else f"error {four['histogram_error']:+.2e}",
        delta_color="off",
        delta_arrow="off",
    )
    cols[4].metric("Gini", fmt(four["gini"]), help="Gini = 2 AUC - 1")
    if w is not None:
        st.info(
            "This dataset has sample_weight. The trapezoids are taken under the weighted ROC "
            f"curve (= ROC AUC {fmt(cur['auc'])}); the pair, rank-sum and histogram ways count "
            f"samples as seed 002 does, so they equal the unweighted AUC {fmt(four['exact'])}."
        )
    tab_trap, tab_pairs, tab_rank, tab_hist = st.tabs(
        ["Trapezoids", "All pairs", "Rank sum (Mann-Whitney)", "Histogram (O(n))"]
    )
    with tab_trap:
        st.latex(
            r"\text{AUC} = \sum_i (\text{FPR}_i - \text{FPR}_{i-1})"
            rf"\,\frac{{\text{{TPR}}_i + \text{{TPR}}_{{i-1}}}}{{2}} = {fmt(four['trapezoid'])}"
        )
        st.markdown(
            "One trapezoid per step of the ROC curve (the table in *The ROC curve point by "
            "point* below lists the vertices). A block of tied scores holding positives and "
            "negatives is one diagonal step: its trapezoid gives every tied pair half credit."
        )
    with tab_pairs:
        n_pairs = int((y == 1).sum()) * int((y == 0).sum())
        full = n_pairs <= PAIR_GRID_LIMIT
        pairs = _pairs(ds, model, None if full else PAIR_SAMPLE)
        outcome_counts = pairs["outcome"].value_counts()
        wins, ties = int(outcome_counts.get("win", 0)), int(outcome_counts.get("tie", 0))
        if full:
            st.latex(
                r"\text{AUC} = \frac{\#\text{wins} + \tfrac12\,\#\text{ties}}{n_+ \cdot n_-}"
                rf" = \frac{{{wins} + \tfrac12 \cdot {ties}}}{{{n_pairs}}}"
                rf" = {fmt(four['pairwise'])}"
            )
            st.plotly_chart(charts.pairs_grid_figure(pairs), key="curves_pairs_chart")
            st.caption(f"All {n_pairs:,} positive/negative pairs: win 1, tie 0.5, loss 0.")
        else:
            st.latex(
                r"\text{AUC} = \frac{\#\text{wins} + \tfrac12\,\#\text{ties}}{n_+ \cdot n_-}"
                rf" = {fmt(four['pairwise'])}"
            )
            st.caption(
                f"There are {n_pairs:,} positive/negative pairs: too many to list. The value "
                "above counts every one of them exactly (from the sorted scores). The table "
                f"is a **uniform random sample** of {PAIR_SAMPLE:,} pairs (seed 0): "
                f"{wins:,} wins and {ties:,} ties in the sample."
            )
        st.dataframe(pairs.head(MAX_ROWS), hide_index=True, key="curves_pairs_table")
        st.download_button(
            "Download the pairs (CSV)", _csv(pairs), "pairs.csv", key="curves_dl_pairs"
        )
    with tab_rank:
        ranks, n_ranks = _rank_head(ds, model)
        a = ranks.attrs
        st.latex(
            r"\text{AUC} = \frac{\sum_{i \in \text{pos}} \text{rank}_i - \frac{n_+(n_+ + 1)}{2}}"
            rf"{{n_+ \cdot n_-}} = \frac{{{a['rank_sum']:g} - \frac{{{a['n_pos']} \cdot "
            rf"{a['n_pos'] + 1}}}{{2}}}}{{{a['n_pos']} \cdot {a['n_neg']}}} = {fmt(a['auc'])}"
        )
        st.caption(
            "Ranks ascend from the lowest score (rank 1); tied scores share the mean of their "
            "positions (the mid-rank), which gives a tied pair half credit."
            + (f" Showing the {MAX_ROWS} lowest of {n_ranks:,} rows." if n_ranks > MAX_ROWS else "")
        )
        st.dataframe(ranks, hide_index=True, key="curves_rank_table")
        st.download_button(
            "Download the ranks (CSV)",
            lambda: _rank_table(ds, model).to_csv(index=False).encode(),
            "ranks.csv",
            key="curves_dl_ranks",
        )
    with tab_hist:
        st.number_input(
            "Number of bins", min_value=1, max_value=100_000, step=10, key="curves_n_bins"
        )
        state.write_param("bins", st.session_state["curves_n_bins"])
        if four["histogram_message"]:
            st.warning(four["histogram_message"])
        else:
            st.markdown(
                f"Scores fall in {st.session_state['curves_n_bins']} equal-width bins; a positive "
                "beats every negative of a lower bin and ties (1/2) those of its own bin. "
                f"Histogram AUC {fmt(four['histogram'])} against the exact "
                f"{fmt(four['exact'])}: error {four['histogram_error']:+.3e}. More bins, "
                "smaller error; it is exact once no bin mixes distinct positive and "
                "negative scores."
            )
            st.plotly_chart(
                _histogram_figure(ds, model, int(st.session_state["curves_n_bins"])),
                key="curves_hist_chart",
            )

st.subheader("Average precision versus the area under the PR curve")
cols = st.columns(3)
cols[0].metric("AP (step sum)", fmt(cur["ap"]))
cols[1].metric("PR area (trapezoids)", fmt(cur["pr_trapezoid"]))
st.markdown(
    r"Average precision is a step sum, $\text{AP} = \sum_n (R_n - R_{n-1})\,P_n$: each gain "
    "in recall is paid at the precision reached at that threshold. The trapezoid rule "
    "instead draws straight lines between the PR points, but precision does not change "
    "linearly between two thresholds: a straight segment between two PR points is a "
    "classifier no threshold gives (Davis & Goadrich, 2006). The step sum only uses "
    "precisions some threshold reaches, which is why scikit-learn's "
    "`average_precision_score` uses it; the two areas differ most where the curve has "
    "few, far-apart points."
)

# ---- the ROC curve point by point (seed 002)
st.header("The ROC curve point by point")
state.bind_param("curves_drop_intermediate", "drop", False, lambda v: v.lower() == "true")
drop = st.toggle(
    "drop_intermediate (drop the collinear points of straight runs)", key="curves_drop_intermediate"
)
state.write_param("drop", drop)
steps, n_steps = _threshold_head(ds, model, drop)
st.markdown(
    "Lower the threshold one distinct score at a time: each row turns the samples at that "
    "score positive. **Tied scores make one diagonal step**: a block of tied samples holding "
    "positives and negatives moves the curve up and right at once (column `n_tied`)."
    + (
        " This is seed 002's example: (0, 0.5), (0, 1), (0.25, 1), (0.5, 1), (0.75, 1), (1, 1)."
        if ds.name == "seed002_roc6"
        else ""
    )
)
st.caption(
    f"{n_steps:,} thresholds (the first, +inf, predicts nothing positive)."
    + (f" Showing the first {MAX_ROWS}; the CSV has all." if n_steps > MAX_ROWS else "")
)
st.dataframe(steps, hide_index=True, width="stretch", key="curves_steps_table")
st.download_button(
    "Download the threshold table (CSV)",
    lambda: _threshold_table(ds, model, drop).to_csv(index=False).encode(),
    "roc_points.csv",
    key="curves_dl_steps",
)

# ---- log loss and calibration
st.header("Log loss and calibration")
if ll_error:
    st.warning(f"Log loss and calibration need probabilities: {ll_error}")
else:
    total = rates["tp"] + rates["fp"] + rates["fn"] + rates["tn"]
    st.latex(
        r"\text{Log loss} = -\frac{1}{N}\sum_i \big[y_i \log p_i + (1 - y_i)\log(1 - p_i)\big]"
        rf" = \frac{{{ll_sum:.4f}}}{{{_count(total)}}} = {fmt(ll)}"
    )
    st.caption(
        "Each sample's term is in the per-sample table below (column log_loss_term, worst "
        "first); a confident wrong prediction costs the most (p clipped at 2.2e-16: 36.04)."
        + (
            " With sample_weight, N is the total weight and each term is weighted."
            if w is not None
            else ""
        )
    )
    cal_bins = _number("curves_calib_bins", "cbins", 10, 2, 50)
    c_cal, c_tab = st.columns([1.1, 1])
    with c_tab:
        st.slider("Calibration bins", min_value=2, max_value=50, key="curves_calib_bins")
        state.write_param("cbins", st.session_state["curves_calib_bins"])
        cal = _calibration(ds, model, int(st.session_state["curves_calib_bins"]))
        st.dataframe(cal, hide_index=True, key="curves_calib_table")
        st.download_button(
            "Download the bins (CSV)", _csv(cal), "calibration.csv", key="curves_dl_cal"
        )
    with c_cal:
        st.plotly_chart(
            _calibration_figure(ds, model, int(st.session_state["curves_calib_bins"])),
            key="curves_calib_chart",
        )
        st.caption(
            "Points on the diagonal are calibrated: among samples predicted near p, a "
            "fraction p is positive. The bars count the samples in each bin."
        )

# ---- 4. per-sample breakdown
st.header("Every sample")
worst = samples["worst"]
st.caption(
    f"{len(worst):,} samples, worst log-loss term first (click a column header to sort)."
    + (f" Showing the worst {MAX_ROWS}; the CSV has all." if len(worst) > MAX_ROWS else "")
)
st.dataframe(
    _rows(ds, samples, worst[:MAX_ROWS], t),
    hide_index=True,
    width="stretch",
    key="curves_sample_table",
    column_config=ROW_COLUMNS,
)
st.download_button(
    "Download every sample (CSV)",
    _rows_csv(ds, samples, worst, t),
    f"{ds.name}_{model}_samples.csv",
    key="curves_dl_samples",
)
