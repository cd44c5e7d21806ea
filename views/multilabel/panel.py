"""The Multilabel classification page's panel (views/multilabel.py), one st.fragment:
the threshold (or the per-label thresholds, or k), beta and zero_division, and all
they change: the headline, the per-label bars, the grid of the worst samples, how it
is computed, what the model got wrong and the per-sample table. Moving the threshold
reruns this panel only: the title, the introduction, the sidebar and the model and
rule pickers above it are not run or drawn again. The figures are cached per dataset
and setting (:mod:`explorer.ui.cache`).

Layout only: the numbers come from :mod:`explorer.pages.multilabel`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from explorer.formatting import fmt
from explorer.links import float_text
from explorer.pages import multilabel as ml
from explorer.pages import multilabel_derivation as derivation
from explorer.ui import bound, cache, classroom, url, widgets
from views import prose
from views.multilabel import parts

RULES = {
    "threshold": "one global threshold",
    "per_label": "a threshold per label",
    "top_k": "the top k labels of each sample",
}
ZERO_DIVISION = {
    "warn": '"warn" (gives 0, scikit-learn\'s default)',
    "0": "0",
    "1": "1",
    "nan": "NaN (left out of the averages)",
}

#: The tabs below the bars (key ``ml_tab``, URL ``?tab=`` by the first word in lower
#: case); the first derives the headline numbers.
TABS = ("Derivations of the headline", "Per-label tables", "Errors", "Every sample")
TAB_KEY, TAB_PARAM = "ml_tab", "tab"

HELP = {
    "Hamming loss": "The share of the N x L cells (sample, label) that are wrong. Lower is better.",
    "Subset accuracy": "The share of samples whose whole predicted label set is exactly right.",
    "Micro F1": "O-F1: F1 of the counts pooled over all labels (average='micro').",
    "Macro F1": "C-F1: the mean of the per-label F1 scores (average='macro').",
    "Jaccard (samples)": "|true ∩ predicted| / |true ∪ predicted| per sample, averaged "
    "(average='samples').",
}


@st.fragment
def panel(ds, model: str, rule: str, lo: float, hi: float) -> None:
    """The threshold and what it changes (see the module's docstring); ``lo``, ``hi``:
    the threshold's range for ``model``'s scores."""
    classroom.track_view()  # a move here hides revealed numbers again
    label_names = list(ds.label_names)
    threshold = st.slider(
        "Threshold",
        min_value=lo,
        max_value=hi,
        step=0.01,
        key="ml_threshold",
        help="A label is predicted when its score is >= the threshold. Used by the rule "
        "'one global threshold' and as the starting value of the per-label thresholds.",
        disabled=rule != "threshold",
    )
    thresholds: tuple[float, ...] = ()
    top_k = st.session_state["ml_top_k"]
    if rule == "per_label":
        base = ml.threshold_list(st.query_params.get("lt"), ds.n_labels, threshold)
        st.caption(prose.section("multilabel", "per_label_thresholds"))
        edited = st.data_editor(
            pd.DataFrame({"label": label_names, "threshold": list(base)}),
            key="ml_label_thresholds",
            hide_index=True,
            disabled=["label"],
            column_config={
                "threshold": st.column_config.NumberColumn(
                    "threshold", min_value=lo, max_value=hi, step=0.01, format="%.2f"
                )
            },
        )
        # an emptied cell (or a row gone) keeps its label's threshold of the address:
        # the link holds every threshold used, so it shows the same numbers
        typed = edited["threshold"].reindex(range(ds.n_labels)).astype(float).to_numpy()
        thresholds = tuple(
            float(x) if np.isfinite(x) else b for x, b in zip(typed, base, strict=True)
        )
        if not np.isfinite(typed).all():
            st.caption("An empty threshold keeps its label's previous value.")
        url.write_param("lt", ",".join(float_text(x) for x in thresholds))
    elif rule == "top_k":
        top_k = st.number_input(
            "k (labels predicted per sample)",
            min_value=1,
            max_value=ds.n_labels,
            step=1,
            key="ml_top_k",
            help="Every sample gets exactly k predicted labels, the k highest scores "
            "(ties: lower column first).",
        )

    c_beta, c_zd = st.columns([1, 2])
    beta = c_beta.number_input(
        "beta (F-beta)",
        min_value=0.0,
        max_value=10.0,
        step=0.5,
        key="ml_beta",
        help="beta > 1 favours recall, beta < 1 precision; beta = 1 is F1.",
    )
    zd_key = c_zd.radio(
        "zero_division: the value of a 0/0",
        list(ZERO_DIVISION),
        format_func=ZERO_DIVISION.get,
        key="ml_zero_division",
        horizontal=True,
        help="Precision of a label that is never predicted is 0/0, recall of a label that never "
        "occurs is 0/0; the same for a sample with no predicted or no true label.",
    )
    url.write_param("model", model)
    url.write_param("rule", rule)
    url.write_param("t", float_text(threshold, ".2f"))
    url.write_param("k", int(top_k))
    url.write_param("beta", float_text(beta))
    url.write_param("zd", zd_key)

    # ---------------------------------------------------------------- computation
    setting = ml.setting(model, rule, threshold, thresholds, int(top_k))
    try:
        pred, counts = cache.multilabel.prediction(ds, *setting)
        res = cache.multilabel.summary(ds, *setting, float(beta), zd_key)
    except metrics.MetricInputError as exc:
        widgets.cannot_score(ds, exc, "Multilabel scores treat one column as binary data")
        return

    avg = res["averages"]
    per_label = res["labels"].iloc[: ds.n_labels]
    n, L = ds.n_samples, ds.n_labels
    rule_text = {
        "threshold": f"score >= {threshold:.2f}",
        "per_label": "score >= the label's own threshold",
        "top_k": f"the top {int(top_k)} scores of each sample",
    }[rule]

    # ---------------------------------------------------------------- 1 headline
    HEADLINE = {
        "Hamming loss": res["hamming"],
        "Subset accuracy": res["subset"],
        "Micro F1": avg["micro"]["f1"],
        "Macro F1": avg["macro"]["f1"],
        "Jaccard (samples)": avg["samples"]["jaccard"],
    }
    ci = cache.multilabel.intervals(ds, *setting, zd_key) if classroom.intervals_on() else {}
    for col, (label, value) in zip(st.columns(5), HEADLINE.items(), strict=True):
        classroom.headline(col, label, fmt(value), interval=ci.get(label), help=HELP[label])
    classroom.reveal_button()
    st.caption(
        f"Model **{model}**, {n} samples x {L} labels, predicted when {rule_text}; "
        f"zero_division = {ZERO_DIVISION[zd_key]}"
        + ("; weighted by sample_weight." if ds.sample_weight is not None else ".")
    )
    parts.zero_division_notes(per_label, res, zd_key)

    # ---------------------------------------------------------------- 2 the picture
    st.subheader("Per label: precision, recall, F1")
    widgets.svg_chart(cache.multilabel.bars(ds, setting, float(beta), zd_key))

    # ---------------------------------------------------------------- 3 the tabs
    # lazy: only the open tab is computed and drawn (and redrawn on a move)
    tabs = bound.tabs(TABS, key=TAB_KEY, param=TAB_PARAM)  # a link opens a tab
    tab_derive, tab_tables, tab_wrong, tab_samples = tabs
    if tab_derive.open:
        with tab_derive:
            lines = derivation.derivations(counts, per_label, res, zd_key)
            parts.how_it_is_computed(ds, res, beta, lines)
    if tab_tables.open:
        with tab_tables:
            parts.label_tables(ds, res, beta)
    if tab_wrong.open:
        with tab_wrong:
            title = "The 30 worst samples: TP, FN (missed), FP (extra), TN"
            grid = cache.multilabel.grid(ds, setting, float(beta), zd_key, title)
            st.plotly_chart(grid, key="ml_outcome_grid")
            parts.inspect(ds, model, pred, res, rule, threshold, thresholds)
    if tab_samples.open:
        with tab_samples:
            sample_table(ds, res, setting, float(beta), zd_key)


def sample_table(ds, res: dict, setting: tuple, beta: float, zd_key: str) -> None:
    """The per-sample table, worst first: its top rows, every sample in the CSV."""
    n = ds.n_samples
    out = ml.sample_table(ds, res["worst"].head(ml.SHOWN_ROWS))
    st.caption(
        f"{n} samples, sorted by the number of wrong cells, then by Jaccard"
        + (f"; the worst {ml.SHOWN_ROWS} shown, all in the CSV." if n > ml.SHOWN_ROWS else ".")
    )
    st.dataframe(
        out,
        hide_index=True,
        width="stretch",
        column_config={
            c: st.column_config.NumberColumn(format="%.3f")
            for c in ("hamming", "precision", "recall", ml.FB, "jaccard")
        },
    )

    def samples_csv() -> bytes:
        """Every sample, worst first: built when the button is clicked."""
        pred, counts = cache.multilabel.prediction(ds, *setting)
        return ml.samples_csv(ds, pred, counts, beta, zd_key)

    st.download_button(
        "Per-sample table as CSV",
        samples_csv,
        file_name=f"{ds.name}.multilabel.samples.csv",
        key="ml_download_samples",
    )
