"""Multilabel classification page: the new metrics helpers, the charts and the page (AppTest)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from streamlit.testing.v1 import AppTest

import metrics
from explorer.charts import multilabel as charts
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import (
    multilabel_label_table,
    multilabel_outcomes,
    multilabel_per_sample,
    threshold_predictions,
    top_k_predictions,
)
from tests import conftest
from tests.conftest import APP, metric, multilabel_case, numbered_selectbox, weights
from views.multilabel.panel import TAB_KEY, TABS

ZD = ["warn", 0, 1, np.nan]


# ---------------------------------------------------------------- slow references
def _slow_threshold(s, t):
    t = np.broadcast_to(np.asarray(t, dtype=float), (s.shape[1],))
    return np.array([[int(s[i, j] >= t[j]) for j in range(s.shape[1])] for i in range(len(s))])


def _slow_top_k(s, k):
    out = np.zeros(s.shape, dtype=int)
    for i, row in enumerate(s):
        # highest score first; among ties the lower column first
        ranked = sorted(range(len(row)), key=lambda j: (-row[j], j))
        for j in ranked[:k]:
            out[i, j] = 1
    return out


def _zd(value, zd):
    return (0.0 if zd == "warn" else float(zd)) if value is None else value


def _slow_per_sample(y, p, beta, zd):
    rows = []
    for t, q in zip(y, p, strict=True):
        tp = sum(a and b for a, b in zip(t, q, strict=True))
        fp = sum((not a) and b for a, b in zip(t, q, strict=True))
        fn = sum(a and (not b) for a, b in zip(t, q, strict=True))
        b2 = beta**2
        rows.append(
            {
                "tp": tp,
                "fp": fp,
                "fn": fn,
                "precision": _zd(tp / (tp + fp) if tp + fp else None, zd),
                "recall": _zd(tp / (tp + fn) if tp + fn else None, zd),
                "fbeta": _zd(
                    (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
                    if (1 + b2) * tp + b2 * fn + fp
                    else None,
                    zd,
                ),
                "jaccard": tp / (tp + fp + fn)
                if tp + fp + fn
                else (0.0 if zd == "warn" or np.isnan(float(zd)) else float(zd)),
            }
        )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- metrics helpers
@pytest.mark.parametrize("seed", range(4))
def test_threshold_predictions_match_slow_reference(seed):
    y, s = multilabel_case(seed)
    rng = np.random.default_rng(seed)
    per_label = rng.random(s.shape[1])
    for t in (0.5, 0.25, 0.0, 1.0, per_label):
        np.testing.assert_array_equal(threshold_predictions(s, t), _slow_threshold(s, t))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 3, 6, 9])
def test_top_k_predictions_match_slow_reference(seed, k):
    _, s = multilabel_case(seed)  # tied scores everywhere, row 2 all tied
    pred = top_k_predictions(s, k=k)
    np.testing.assert_array_equal(pred, _slow_top_k(s, k))
    assert (pred.sum(axis=1) == min(k, s.shape[1])).all()


def test_prediction_helpers_refuse_bad_input():
    with pytest.raises(metrics.MetricInputError, match="threshold has 2 entries"):
        threshold_predictions([[0.1, 0.2, 0.3]], [0.5, 0.5])
    with pytest.raises(metrics.MetricInputError, match="threshold contains NaN"):
        threshold_predictions([[0.1, 0.2]], [0.5, np.nan])
    with pytest.raises(metrics.MetricInputError, match="k must be an integer >= 1"):
        top_k_predictions([[0.1, 0.2]], k=0)
    with pytest.raises(metrics.MetricInputError, match="y_score must be 2-D"):
        top_k_predictions([0.1, 0.2], k=1)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("zd", ZD)
@pytest.mark.parametrize("beta", [1.0, 0.5])
@pytest.mark.parametrize("weighted", [False, True])
def test_label_table_matches_sklearn(seed, zd, beta, weighted):
    y, s = multilabel_case(seed)
    pred = threshold_predictions(s, 0.5)
    pred[:, 0] = 0  # a label never predicted: precision 0/0
    y[:, 1] = 0  # a label that never occurs: recall 0/0
    w = weights(seed, len(y)) if weighted else None
    t = multilabel_label_table(y, pred, beta=beta, sample_weight=w, zero_division=zd, summary=True)
    mcm = skm.multilabel_confusion_matrix(y, pred, sample_weight=w)
    L = y.shape[1]
    np.testing.assert_allclose(t["tp"][:L], mcm[:, 1, 1])
    np.testing.assert_allclose(t["fp"][:L], mcm[:, 0, 1])
    np.testing.assert_allclose(t["fn"][:L], mcm[:, 1, 0])
    np.testing.assert_allclose(t["tn"][:L], mcm[:, 0, 0])
    for avg, rows in ((None, slice(0, L)), ("macro", L), ("micro", L + 1)):
        p, r, f, _ = skm.precision_recall_fscore_support(
            y, pred, average=avg, sample_weight=w, zero_division=zd
        )
        fb = skm.fbeta_score(y, pred, beta=beta, average=avg, sample_weight=w, zero_division=zd)
        jac = skm.jaccard_score(
            y,
            pred,
            average=avg,
            sample_weight=w,
            zero_division=0.0 if zd == "warn" or (isinstance(zd, float) and np.isnan(zd)) else zd,
        )
        for col, want in (("precision", p), ("recall", r), ("f1", f), ("fbeta", fb)):
            np.testing.assert_allclose(t[col].to_numpy()[rows], want, equal_nan=True, atol=1e-12)
        np.testing.assert_allclose(t["jaccard"].to_numpy()[rows], jac, atol=1e-12)
    assert t["no_prediction"][0] and t["no_support"][1]
    assert t["label"].tolist()[L:] == ["macro (C-P, C-R, C-F1)", "micro (O-P, O-R, O-F1)"]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("zd", ZD)
@pytest.mark.parametrize("beta", [1.0, 2.0])
def test_per_sample_matches_slow_reference_and_averages(seed, zd, beta):
    y, s = multilabel_case(seed)
    pred = threshold_predictions(s, 0.6)
    pred[3] = 0  # an empty prediction
    t = multilabel_per_sample(y, pred, beta=beta, zero_division=zd, label_names=list("abcdef"))
    ref = _slow_per_sample(y, pred, beta, zd)
    for col in ref.columns:
        np.testing.assert_allclose(t[col], ref[col], equal_nan=True, atol=1e-12)
    w = weights(seed, len(y))
    assert np.average(t["hamming"], weights=w) == pytest.approx(
        skm.hamming_loss(y, pred, sample_weight=w), abs=1e-12
    )
    assert np.average(t["exact_match"], weights=w) == pytest.approx(
        skm.accuracy_score(y, pred, sample_weight=w), abs=1e-12
    )
    for col, fn in (("precision", skm.precision_score), ("recall", skm.recall_score)):
        keep = ~np.isnan(t[col].to_numpy())
        want = fn(y, pred, average="samples", zero_division=zd)
        assert np.mean(t[col][keep]) == pytest.approx(want, abs=1e-12)
    assert t.loc[3, "predicted_labels"] == "" and t.loc[3, "extra"] == ""
    row = 5
    names = [c for c, v in zip("abcdef", y[row] * (1 - pred[row]), strict=True) if v]
    assert t.loc[row, "missed"] == ", ".join(names)


def test_outcomes_name_every_cell():
    y, s = multilabel_case(1)
    pred = threshold_predictions(s, 0.5)
    out = multilabel_outcomes(y, pred)
    assert (out == "TP").sum() == ((y == 1) & (pred == 1)).sum()
    assert (out == "FN").sum() == ((y == 1) & (pred == 0)).sum()
    assert (out == "FP").sum() == ((y == 0) & (pred == 1)).sum()
    assert set(np.unique(out)) <= {"TP", "FP", "FN", "TN"}


# ---------------------------------------------------------------- charts
def svg_bars(html: str) -> list[tuple[int, float, str]]:
    """(series, value, hover text) of each bar of an SVG chart, in drawing order."""
    found = re.findall(
        r'<rect class="bar" data-series="(\d+)" data-value="([^"]+)"[^>]*><title>([^<]*)<',
        html,
    )
    return [(int(s), float(v), t) for s, v, t in found]


def test_label_scores_chart_has_bars_and_average_lines():
    y, s = multilabel_case(0)
    table = multilabel_label_table(y, threshold_predictions(s, 0.5), label_names=list("abcdef"))
    html = charts.label_scores_chart(table.iloc[:6], macro_f1=0.41, micro_f1=0.52)
    bars = svg_bars(html)
    assert len(bars) == 18
    for k, col in enumerate(("precision", "recall", "f1")):
        values = [v for s_, v, _ in bars if s_ == k]
        assert values == pytest.approx(table[col].iloc[:6].tolist(), nan_ok=True)
    assert [t for s_, _, t in bars if s_ == 2][0].startswith("a: F1 ")
    assert html.count('class="marker"') == 2
    assert "Macro F1 (C-F1) = 0.410" in html and "Micro F1 (O-F1) = 0.520" in html
    # a NaN average (every label 0/0 with zero_division=nan) draws no line
    html = charts.label_scores_chart(table.iloc[:6], macro_f1=math.nan, micro_f1=0.5)
    assert html.count('class="marker"') == 1 and "Macro F1" not in html


def test_many_labels_draw_the_lowest_f1_bars_only():
    """Past BARS_MAX labels the bars are the BARS_MAX lowest F1, lowest first; the
    average lines stay those of every label."""
    rng = np.random.default_rng(5)
    L = charts.BARS_MAX + 12
    y = (rng.random((300, L)) < 0.3).astype(int)
    s = rng.random((300, L)) * 0.6 + 0.4 * y
    names = [f"tag{j}" for j in range(L)]
    table = multilabel_label_table(y, threshold_predictions(s, 0.5), label_names=names)
    f1 = table["f1"].iloc[:L].to_numpy()
    html = charts.label_scores_chart(table.iloc[:L], macro_f1=0.41, micro_f1=0.52)
    f1_bars = [(v, t) for s_, v, t in svg_bars(html) if s_ == 2]
    assert [v for v, _ in f1_bars] == pytest.approx(sorted(f1)[: charts.BARS_MAX])
    worst = [names[j] for j in np.argsort(f1, kind="stable")[: charts.BARS_MAX]]
    assert [t.split(":")[0] for _, t in f1_bars] == worst
    assert f"lowest F1, of {L}" in html
    assert "Macro F1 (C-F1) = 0.410" in html and "Micro F1 (O-F1) = 0.520" in html


def test_outcome_grid_codes_cells():
    out = np.array([["TP", "FN"], ["FP", "TN"]])
    fig = charts.outcome_grid_figure(out, ["s1", "s2"], ["a", "b"], title="t")
    hm = fig.data[0]
    assert np.asarray(hm.z).tolist() == [[3, 2], [1, 0]]
    assert list(hm.y) == ["s1", "s2"] and list(hm.x) == ["a", "b"]


# ---------------------------------------------------------------- the page (AppTest)
def open_page(sample="digit_properties") -> AppTest:
    return conftest.open_page(script("multilabel"), sample)


def open_tab(at, tab: str) -> AppTest:
    """Open the panel's tab ``tab`` (only the open tab is drawn) and rerun."""
    at.session_state[TAB_KEY] = tab
    at.run()
    assert not at.exception
    return at


def expected(ds, pred, *, model=None, zd="warn", beta=1.0):
    y, w = ds.y_true, ds.sample_weight
    return {
        "Hamming loss": fmt(metrics.hamming_loss(y, pred, sample_weight=w)),
        "Subset accuracy": fmt(metrics.accuracy_score(y, pred, sample_weight=w)),
        "Micro F1": fmt(metrics.f1_score(y, pred, average="micro", zero_division=zd)),
        "Macro F1": fmt(metrics.f1_score(y, pred, average="macro", zero_division=zd)),
        "Jaccard (samples)": fmt(
            metrics.jaccard_score(
                y,
                pred,
                average="samples",
                zero_division="warn" if isinstance(zd, float) else zd,
            )
        ),
    }


def assert_metrics(at, want):
    assert not at.exception
    got = {m.label: m.value for m in at.metric}
    assert got == want


def test_default_view_and_headline_values():
    at = open_page()
    ds = load_sample("digit_properties")
    pred = threshold_predictions(ds.score(), 0.5)
    assert_metrics(at, expected(ds, pred))
    # the numbers a reader can check by hand
    assert metric(at, "Hamming loss") == "0.1033"
    assert at.query_params["t"] == "0.50" and at.query_params["rule"] == "threshold"
    # the first tab derives the headline: formulas only, no table is drawn on a move
    assert at.session_state[TAB_KEY] == TABS[0] and at.query_params["tab"] == "derivations"
    assert not at.dataframe
    # latex with live numbers
    assert any(metric(at, "Micro F1") in x.value for x in at.latex)
    # rows with no true label: zero_division is explained where it applies
    assert any("no true label" in i.value for i in at.info)
    # the bars (SVG): each label's F1 at this threshold; the grid of errors is in its tab
    (bars,) = [m.value for m in at.markdown if "me-svg-chart" in m.value]
    f1 = [v for s_, v, _ in svg_bars(bars) if s_ == 2]
    want = multilabel_label_table(ds.y_true, pred, label_names=list(ds.label_names))["f1"]
    assert f1 == pytest.approx(want.iloc[: ds.n_labels].tolist())
    assert not at.get("plotly_chart")
    open_tab(at, "Per-label tables")
    assert not at.latex and not at.get("plotly_chart")
    # the per-label step table ends with the micro line whose F1 is the headline
    labels = at.dataframe[0].value
    assert labels["label"].iloc[-1] == "micro (O-P, O-R, O-F1)"
    assert fmt(labels["F1"].iloc[-1]) == metric(at, "Micro F1")
    assert fmt(labels["F1"].iloc[-2]) == metric(at, "Macro F1")
    # averages side by side, both names
    avg = at.dataframe[1].value
    assert avg["scikit-learn"].tolist() == [
        'average="macro"',
        'average="micro"',
        'average="samples"',
        'average="weighted"',
    ]
    assert avg["F1"].iloc[2] == pytest.approx(metrics.f1_score(ds.y_true, pred, average="samples"))
    # seed 004's two readings
    seed = at.dataframe[2].value
    assert seed["value"].iloc[1] == pytest.approx(
        metrics.recall_score(ds.y_true, pred, average="macro")
    )
    assert seed["value"].iloc[3] == pytest.approx(
        metrics.recall_score(ds.y_true, pred, average="samples")
    )


def test_threshold_model_beta_and_zero_division_controls():
    at = open_page()
    ds = load_sample("digit_properties")
    at.slider(key="ml_threshold").set_value(0.3).run()
    pred = threshold_predictions(ds.score(), 0.3)
    assert_metrics(at, expected(ds, pred))
    assert at.query_params["t"] == "0.30"

    at.selectbox(key="ml_model").set_value("from_digit").run()
    pred = threshold_predictions(ds.score("from_digit"), 0.3)
    assert_metrics(at, expected(ds, pred))
    assert at.query_params["model"] == "from_digit"

    # a high threshold empties labels and samples: zero_division decides
    at.slider(key="ml_threshold").set_value(0.95).run()
    pred = threshold_predictions(ds.score("from_digit"), 0.95)
    for zd_key, zd in (("1", 1), ("nan", np.nan), ("0", 0), ("warn", "warn")):
        at.radio(key="ml_zero_division").set_value(zd_key).run()
        assert_metrics(at, expected(ds, pred, zd=zd))
        assert at.query_params["zd"] == zd_key
    assert any("never predicted" in i.value for i in at.info)

    at.number_input(key="ml_beta").set_value(2.0).run()
    assert not at.exception
    open_tab(at, "Per-label tables")
    avg = at.dataframe[1].value
    assert avg["F-beta"].iloc[0] == pytest.approx(
        metrics.fbeta_score(ds.y_true, pred, beta=2.0, average="macro")
    )
    assert at.query_params["beta"] == "2"


def test_top_k_rule():
    at = open_page()
    ds = load_sample("digit_properties")
    at.radio(key="ml_pred_rule").set_value("top_k").run()
    assert_metrics(at, expected(ds, top_k_predictions(ds.score(), k=1)))
    at.number_input(key="ml_top_k").set_value(3).run()
    assert_metrics(at, expected(ds, top_k_predictions(ds.score(), k=3)))
    assert at.query_params["k"] == "3" and at.query_params["rule"] == "top_k"


def test_per_label_thresholds_editor():
    at = open_page()
    ds = load_sample("digit_properties")
    at.radio(key="ml_pred_rule").set_value("per_label").run()
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), 0.5)))
    at.session_state["ml_label_thresholds"] = {
        "edited_rows": {1: {"threshold": 0.2}, 4: {"threshold": 0.7}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    t = [0.5, 0.2, 0.5, 0.5, 0.7]
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), t)))
    assert at.query_params["lt"] == "0.5,0.2,0.5,0.5,0.7"
    # an emptied cell keeps that label's threshold of the address: the link shows the same
    at.session_state["ml_label_thresholds"] = {
        "edited_rows": {1: {"threshold": None}, 4: {"threshold": 0.7}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), t)))
    assert at.query_params["lt"] == "0.5,0.2,0.5,0.5,0.7"
    assert any("empty threshold keeps" in c.value for c in at.caption)


def test_inspect_label_and_sample_list_the_errors():
    at = open_page()
    ds = load_sample("digit_properties")
    pred = threshold_predictions(ds.score(), 0.5)
    open_tab(at, "Errors")
    assert at.query_params["tab"] == "errors"
    assert len(at.get("plotly_chart")) == 1  # the grid of the worst samples (bars: SVG)
    at.selectbox(key="ml_inspect_label").set_value("prime").run()
    assert not at.exception
    j = ds.label_names.index("prime")
    wrong = at.dataframe[0].value
    n_wrong = int(((ds.y_true[:, j] == 1) != (pred[:, j] == 1)).sum())
    assert len(wrong) == n_wrong
    assert set(wrong["what"].str.split().str[0]) <= {"missed", "extra"}
    assert at.query_params["label"] == "prime"

    numbered_selectbox(at, "ml_inspect_sample").set_value("7").run()
    assert not at.exception
    steps = at.dataframe[1].value
    assert steps["outcome"].tolist() == multilabel_outcomes(ds.y_true, pred)[7].tolist()
    assert at.query_params["sample"] == "7"

    open_tab(at, "Every sample")
    per_sample = at.dataframe[0].value
    assert per_sample["wrong"].is_monotonic_decreasing
    assert len(per_sample) == min(200, ds.n_samples)
    assert at.download_button  # CSVs offered


def test_url_reproduces_the_view():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "digit_properties", "rule": "top_k", "k": "2", "zd": "1"})
    at.run()
    at.switch_page(script("multilabel")).run()
    assert not at.exception
    ds = load_sample("digit_properties")
    assert_metrics(at, expected(ds, top_k_predictions(ds.score(), k=2), zd=1))


def test_other_samples_render():
    for name in ("seed003_lrap", "digits"):
        at = open_page(name)
        ds = load_sample(name)
        assert_metrics(at, expected(ds, threshold_predictions(ds.score(), 0.5)))


def test_wrong_kind_notice():
    at = open_page("balanced")
    assert not at.metric
    assert "multilabel" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
    assert not at.exception
    ds = load_sample("digit_properties")
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), 0.5)))


def open_with(ds) -> AppTest:
    """Open the page alone on a session dataset (the sidebar picker cannot be driven then)."""
    page = str(Path(APP).parent / "views" / "multilabel.py")
    at = AppTest.from_file(page, default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    return at


def test_more_samples_than_kept_lists_the_true_worst_rows():
    """Past ALL_ROWS samples the page keeps only the worst rows (label names for those
    alone): they must be the first rows of the full per-sample table, names included."""
    from explorer.datasets import Dataset

    rng = np.random.default_rng(7)
    n, labels = 2600, ["a", "b", "c", "d", "e"]
    y = (rng.random((n, 5)) < 0.3).astype(int)
    s = np.round(np.clip(0.4 * y + 0.6 * rng.random((n, 5)), 0, 1), 2)
    ds = Dataset("wide", "multilabel", y, {"m": s}, label_names=tuple(labels))
    at = open_with(ds)
    pred = threshold_predictions(s, 0.5)
    assert_metrics(at, expected(ds, pred))
    full = multilabel_per_sample(y, pred, label_names=labels)
    full = full.sort_values(["wrong", "jaccard"], ascending=[False, True], kind="stable")
    shown = open_tab(at, "Every sample").dataframe[0].value
    assert len(shown) == 200
    assert shown["sample"].tolist() == [ds.sample_ids[i] for i in full.index[:200]]
    for col in ("true_labels", "predicted_labels", "missed", "extra", "wrong", "tp", "fn"):
        assert shown[col].tolist() == full[col].iloc[:200].tolist(), col
    np.testing.assert_allclose(shown["jaccard"], full["jaccard"].iloc[:200], rtol=0, atol=1e-12)
    # the label inspector: every wrong sample of label "c" is counted, 200 are listed
    open_tab(at, "Errors")
    at.selectbox(key="ml_inspect_label").set_value("c").run()
    assert not at.exception
    n_wrong = int((y[:, 2] != pred[:, 2]).sum())
    assert n_wrong > 200 and len(at.dataframe[0].value) == 200
    assert any(f"{n_wrong} wrong sample(s)" in m.value for m in at.markdown)
    wrong = at.dataframe[0].value
    first = np.flatnonzero(y[:, 2] != pred[:, 2])[:200]
    assert wrong["sample"].tolist() == [ds.sample_ids[i] for i in first]
    # the sample picker offers the 500 worst; the 300th's steps are its own outcomes
    picker = numbered_selectbox(at, "ml_inspect_sample")
    assert len(picker.options) == 500
    i = int(full.index[299])
    picker.set_value(ds.sample_ids[i]).run()
    assert not at.exception
    assert at.dataframe[1].value["outcome"].tolist() == multilabel_outcomes(y, pred)[i].tolist()
    # beta moves F-beta of the averages table (fbeta_score, not the F1 reused at beta 1)
    open_tab(at, "Per-label tables")
    at.number_input(key="ml_beta").set_value(2.0).run()
    avg = at.dataframe[1].value
    assert avg["F-beta"].iloc[2] == pytest.approx(
        metrics.fbeta_score(y, pred, beta=2.0, average="samples"), abs=1e-12
    )
    assert avg["F-beta"].iloc[2] != pytest.approx(avg["F1"].iloc[2], abs=1e-9)


def test_samples_csv_holds_every_sample_worst_first(deferred_downloads):
    """The per-sample CSV, built on the click, lists every sample in the table's order."""
    import io

    at = open_tab(open_page(), "Every sample")
    at.slider(key="ml_threshold").set_value(0.7).run()
    at.radio(key="ml_zero_division").set_value("1").run()
    ds = load_sample("digit_properties")
    pred = threshold_predictions(ds.score(), 0.7)
    csv = pd.read_csv(
        io.BytesIO(deferred_downloads("download_samples")),
        dtype={"sample": str},
        keep_default_na=False,
    )
    full = multilabel_per_sample(ds.y_true, pred, zero_division=1, label_names=ds.label_names)
    full = full.sort_values(["wrong", "jaccard"], ascending=[False, True], kind="stable")
    assert len(csv) == ds.n_samples
    assert csv["sample"].tolist() == [ds.sample_ids[i] for i in full.index]
    for col in ("missed", "extra", "wrong", "tp"):
        assert csv[col].tolist() == full[col].tolist(), col
    np.testing.assert_allclose(csv["jaccard"], full["jaccard"], rtol=0, atol=1e-12)
    shown = at.dataframe[0].value
    assert shown["sample"].tolist() == csv["sample"].tolist()[: len(shown)]


# ---------------------------------------------------------------- derivations (issue 18)
def latex_line(at, name: str) -> str:
    """The derivation line of ``name`` (it starts with ``\\text{name} =``)."""
    values = (x.value.strip("$\n") for x in at.latex)
    return next(v for v in values if v.startswith(rf"\text{{{name}}} = "))


def mean_parts(line: str) -> tuple[list[str], str, str | None]:
    """The shown terms, the denominator and (when terms are elided) the written total."""
    fracs = re.findall(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", line)
    terms = [t for t in fracs[0][0].split(" + ") if t != r"\dots"]
    return terms, fracs[0][1], fracs[1][0] if len(fracs) > 1 else None


def check_mean(at, name, values, headline):
    """The line's terms are ``values`` (head and tail), its total their sum, its end
    the headline's text."""
    line = latex_line(at, name)
    assert line.endswith(f"= {headline}")
    terms, denom, total = mean_parts(line)
    v = np.asarray(values, dtype=float)
    shown = v if len(v) <= 5 else np.r_[v[:3], v[-2:]]
    assert terms == [fmt(x) for x in shown]
    assert denom == f"{len(v):,}".replace(",", "{,}")
    if total is not None:
        assert total == fmt(v.sum())
    assert fmt(v.sum() / len(v)) == headline


def test_every_headline_is_derived_on_screen_from_the_inputs():
    at = open_page()
    ds = load_sample("digit_properties")
    y, pred = ds.y_true, threshold_predictions(ds.score(), 0.5)
    # macro: the mean of metrics' per-label F1 (all terms: 4 labels or fewer shown whole)
    per_label = skm.f1_score(y, pred, average=None, zero_division=0)
    assert np.allclose(per_label, metrics.f1_score(y, pred, average=None, zero_division=0))
    check_mean(at, "Macro F1", per_label, metric(at, "Macro F1"))
    check_mean(
        at,
        "Macro P",
        metrics.precision_score(y, pred, average=None, zero_division=0),
        fmt(metrics.precision_score(y, pred, average="macro", zero_division=0)),
    )
    # samples: the mean over the samples of metrics' per-sample Jaccard, head and tail
    rows = multilabel_per_sample(y, pred)
    assert len(rows) > 5
    check_mean(at, "Jaccard (samples)", rows["jaccard"], metric(at, "Jaccard (samples)"))
    check_mean(
        at,
        "Samples R",
        rows["recall"],
        fmt(metrics.recall_score(y, pred, average="samples", zero_division=0)),
    )
    # micro: the pooled counts plugged in
    tp = int((y.astype(bool) & pred.astype(bool)).sum())
    fp, fn = int(pred.sum()) - tp, int(y.sum()) - tp
    micro = latex_line(at, "Micro F1")
    assert rf"\frac{{2 \cdot {tp}}}{{2 \cdot {tp} + {fp} + {fn}}}" in micro
    assert micro.endswith(f"= {metric(at, 'Micro F1')}")
    assert fmt(2 * tp / (2 * tp + fp + fn)) == metric(at, "Micro F1")
    # weighted: each label's F1 times its support, over the total support
    support = y.sum(axis=0).astype(int)
    weighted = latex_line(at, "Weighted F1")
    terms, denom, _ = mean_parts(weighted)
    assert terms[0] == rf"{support[0]} \times {fmt(per_label[0])}"
    assert denom == str(support.sum())
    assert weighted.endswith(
        f"= {fmt(metrics.f1_score(y, pred, average='weighted', zero_division=0))}"
    )
    # Hamming loss and subset accuracy from their counts
    n, L = y.shape
    assert latex_line(at, "Hamming loss").endswith(
        rf"\frac{{{fp} + {fn}}}{{{n} \cdot {L}}} = {metric(at, 'Hamming loss')}"
    )
    exact = int((y == pred).all(axis=1).sum())
    assert latex_line(at, "Subset accuracy").endswith(
        rf"\frac{{{exact}}}{{{n}}} = {metric(at, 'Subset accuracy')}"
    )


def test_derivations_leave_out_nan_terms_as_the_averages_do():
    at = open_page()
    at.slider(key="ml_threshold").set_value(0.95).run()
    at.radio(key="ml_zero_division").set_value("nan").run()
    ds = load_sample("digit_properties")
    y, pred = ds.y_true, threshold_predictions(ds.score(), 0.95)
    per_label = metrics.precision_score(y, pred, average=None, zero_division=np.nan)
    kept = per_label[~np.isnan(per_label)]
    assert len(kept) < len(per_label)
    check_mean(
        at,
        "Macro P",
        kept,
        fmt(metrics.precision_score(y, pred, average="macro", zero_division=np.nan)),
    )
    assert any("0/0 = NaN left out" in c.value for c in at.caption)
    assert latex_line(at, "Macro F1").endswith(f"= {metric(at, 'Macro F1')}")


def test_threshold_steps_in_the_panel_give_the_headline_and_the_url():
    """The threshold and what it changes are one st.fragment: each of several moves shows
    the headline of that threshold (computed by metrics), the URL follows, and a fresh
    session given the last address shows the same numbers."""
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = conftest.open_page(script("multilabel"), "digit_properties")
    for t in (0.3, 0.42, 0.61, 0.77):
        at.slider(key="ml_threshold").set_value(t).run()
        assert not at.exception
        pred = threshold_predictions(s, t)
        assert metric(at, "Hamming loss") == fmt(metrics.hamming_loss(y, pred))
        assert metric(at, "Subset accuracy") == fmt(metrics.accuracy_score(y, pred))
        assert metric(at, "Micro F1") == fmt(metrics.f1_score(y, pred, average="micro"))
        assert metric(at, "Macro F1") == fmt(metrics.f1_score(y, pred, average="macro"))
        assert at.query_params["t"] == f"{t:.2f}"
    again = conftest.open_page(script("multilabel"), "digit_properties", t="0.77")
    assert metric(again, "Micro F1") == metric(at, "Micro F1")
    assert metric(again, "Macro F1") == metric(at, "Macro F1")


def test_a_link_opens_a_tab_and_a_move_keeps_the_headline_and_the_tab():
    """?tab= names a tab by its first word: the link opens it (only its content is
    drawn), a threshold move keeps it open, the headline follows metrics, the address
    keeps the tab; a tab the page does not have opens the derivations."""
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = conftest.open_page(script("multilabel"), "digit_properties", tab="every")
    assert at.session_state[TAB_KEY] == "Every sample"
    assert len(at.dataframe) == 1 and not at.latex
    for t in (0.35, 0.62):
        at.slider(key="ml_threshold").set_value(t).run()
        assert not at.exception
        pred = threshold_predictions(s, t)
        assert_metrics(at, expected(ds, pred))
        assert at.session_state[TAB_KEY] == "Every sample"
        assert at.query_params["tab"] == "every" and at.query_params["t"] == f"{t:.2f}"
        rows = multilabel_per_sample(y, pred, label_names=ds.label_names)
        assert at.dataframe[0].value["wrong"].iloc[0] == rows["wrong"].max()
    again = conftest.open_page(script("multilabel"), "digit_properties", tab="per-label")
    assert again.session_state[TAB_KEY] == "Per-label tables" and len(again.dataframe) == 3
    bad = conftest.open_page(script("multilabel"), "digit_properties", tab="<b>")
    assert bad.session_state[TAB_KEY] == TABS[0] and bad.query_params["tab"] == "derivations"
