"""The Slices panel: the controls, the headline (the metric on all rows, the gap between
groups), each group's value with its interval and test, the worst slices found, the
rates per group for binary data, and how the numbers are derived."""

from __future__ import annotations

import numpy as np
import streamlit as st

import metrics
from explorer import budget, registry, slicing
from explorer.charts import slices as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt, literal
from explorer.pages import slices
from explorer.ui import cache, classroom, slice_filter, widgets
from explorer.ui.derivations import show as show_derivations
from views import prose
from views.slices import controls

#: The page a group opens, by the data's kind.
MODEL_PAGE = {
    "binary": "curves",
    "regression": "regression",
    "multiclass": "multiclass",
    "multilabel": "label_ranking",
    "graded": "dcg",
}


@st.fragment
def panel(ds: Dataset) -> None:
    classroom.track_view()  # a move here hides revealed numbers again
    settings = controls.show(ds)
    refused = budget.too_long(
        slices.seconds(ds, settings),
        f"{settings.metric} with {slices.N_RESAMPLES:,} resamples of {ds.n_samples:,} rows",
        budget.limits().per_run,
    )
    if refused:
        st.info(
            f"{refused}. Pick a metric at the threshold, or a smaller dataset.",
            icon=":material/hourglass_empty:",
        )
        return
    try:
        grouping = cache.slices.grouping(ds, settings)
        group, settings = controls.per_group(ds, settings, grouping.labels)
        frame = cache.slices.frame(ds, settings)
    except slicing.GroupingError as exc:
        st.warning(literal(str(exc)))
        return
    except metrics.MetricInputError as exc:
        widgets.cannot_score(ds, exc, "The metric needs two labels", "The metric refuses: ")
        return
    _headline(frame, settings)
    if not classroom.held_back("Each group's value, its interval and the tests"):
        _groups(ds, settings, frame, grouping)
        _derived(ds, settings, grouping.labels.index(group), group)
        _worst(ds, settings, frame.test)
        if ds.kind == "binary":
            _rates(ds, settings)
    if not classroom.derivations_hidden():
        with st.expander("How the gap and the corrected p-value are computed"):
            show_derivations(
                [
                    slices.gap_derivation(frame, grouping.labels, settings.metric),
                    slices.holm_derivation(frame, grouping.labels),
                ]
            )


def _headline(frame, settings: slices.Settings) -> None:
    c1, c2, c3 = st.columns(3)
    classroom.headline(c1, f"{settings.metric}, all rows", fmt(frame.overall))
    gap = frame.difference() if np.isfinite(frame.value).any() else float("nan")
    classroom.headline(c2, "Gap: best − worst group", fmt(gap))
    widgets.metric(c3, "Groups", f"{frame.groups.size:,}")
    classroom.reveal_button()


def _open(conditions, kind: str, key: str, label: str, where) -> None:
    """A button that opens the model's page filtered to ``conditions``."""
    slug = MODEL_PAGE[kind]
    if where.button(label, key=key, help=f"Opens {registry.page(slug).title} on this slice."):
        slice_filter.set_filter(conditions)
        st.switch_page(registry.script(slug))


def _groups(ds, settings, frame, grouping) -> None:
    st.subheader("Each group")
    labels = [grouping.labels[int(c)] for c in frame.groups.tolist()]
    widgets.plotly_chart(
        st,
        charts.groups(labels, frame.value, frame.low, frame.high, frame.overall, settings.metric),
        key="sl_chart",
    )
    table = slices.table(ds, settings, frame)
    widgets.dataframe(st, table, hide_index=True, key="sl_table")
    for note in frame.notes.values():
        st.caption(literal(str(note)))
    st.caption(slices.p_caption(frame.test, ds.n_samples))
    st.caption(f"Open the {registry.page(MODEL_PAGE[ds.kind]).title} page on a group:")
    cols = st.columns(4)
    for i, c in enumerate(frame.groups.tolist()):
        _open(grouping.conditions[int(c)], ds.kind, f"sl_open_{i}", literal(labels[i]), cols[i % 4])


def _derived(ds, settings, code: int, group: str) -> None:
    """The picked group's value, derived term by term from its own rows."""
    with st.expander(f"How the {literal(settings.metric)} of {literal(group)} is computed"):
        line = cache.slices.derivation(ds, settings, code)
        show_derivations([line], formulas=True, warn_undefined=True)


def _worst(ds, settings, test: str) -> None:
    st.subheader("The worst slices, found for you")
    table, conditions, tested = cache.slices.worst(ds, settings)
    st.markdown(
        prose.fill("slices", "worst", min_count=slices.min_count(ds.n_samples), tested=tested)
    )
    if table.empty:
        st.info("No slice is worse than the rest of the data.", icon=":material/info:")
        return
    widgets.dataframe(st, table, hide_index=True, key="sl_worst_table")
    # the same metric on the same rows: the groups' test
    st.caption(slices.p_caption(test, ds.n_samples))
    cols = st.columns(2)
    for i, cond in enumerate(conditions):
        text = literal(slicing.describe_slice(cond))
        _open(cond, ds.kind, f"sl_open_worst_{i}", f"{i + 1}. {text}", cols[i % 2])


def _rates(ds, settings) -> None:
    if settings.group_thresholds:
        st.subheader("Rates per group at each group's threshold")
    else:
        st.subheader(f"Rates per group at the threshold {fmt(settings.threshold)}")
    st.markdown(prose.section("slices", "rates"))
    table, gaps = cache.slices.rates(ds, settings)
    cols = st.columns(len(gaps))
    for col, (label, value) in zip(cols, gaps.items(), strict=True):
        widgets.metric(col, label, fmt(value))
    widgets.dataframe(st, table, hide_index=True, key="sl_rates_table")
    rows = [table.iloc[i] for i in range(len(table))]
    lines = [slices.rate_derivation(r, rate) for rate in ("TPR", "FPR") for r in rows[:2]]
    with st.expander("The rates of the first groups, from their counts"):
        show_derivations(lines, wait_for_reveal=False)
