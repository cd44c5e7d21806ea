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
from explorer.formatting import headline_value, literal
from explorer.i18n import Phrase
from explorer.pages import slices
from explorer.ui import cache, classroom, language, navigation, slice_filter, widgets, work
from explorer.ui.derivations import show as show_derivations
from explorer.ui.language import t
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
    what = Phrase(
        "${metric} with ${n:,} resamples of ${rows:,} rows",
        metric=Phrase(settings.metric),
        n=slices.N_RESAMPLES,
        rows=ds.n_samples,
    )
    seconds = slices.seconds(ds, settings)
    refused = budget.too_long(seconds, what, budget.limits().per_run)
    if refused:
        st.info(
            t("${why}. Pick a metric at the threshold, or a smaller dataset.", why=t(refused)),
            icon=":material/hourglass_empty:",
        )
        return
    try:
        grouping = cache.slices.grouping(ds, settings)
        group, settings = controls.per_group(ds, settings, grouping.labels)
        values = cache.slices.values(ds, settings)
    except slicing.GroupingError as exc:
        st.warning(literal(t(exc.args[0])))
        return
    except metrics.MetricInputError as exc:
        widgets.cannot_score(ds, exc, "The metric needs two labels", "The metric refuses: ")
        return
    _headline(values, settings)
    shown = not classroom.held_back("Each group's value, its interval and the tests")
    body = _Body(settings, values, grouping, shown)
    try:
        frame = _resampled(ds, settings, seconds, body)
    except work.Spent as exc:
        st.info(
            t("${why} The Slices page waits meanwhile.", why=t(exc.args[0])),
            icon=":material/hourglass_empty:",
        )
        return
    except metrics.MetricInputError as exc:  # the values passed; a resample may not
        widgets.cannot_score(ds, exc, "The metric needs two labels", "The metric refuses: ")
        return
    if shown:
        with body.final():
            _groups(ds, settings, frame, grouping, group)
        _derived(ds, settings, grouping.labels.index(group), group)
        _worst(ds, settings, frame.test, seconds)
        if ds.kind == "binary":
            _rates(ds, settings)
    if not classroom.derivations_hidden():
        with st.expander(t("How the gap and the corrected p-value are computed")):
            show_derivations(
                [
                    slices.gap_derivation(frame, grouping.labels, settings.metric),
                    slices.holm_derivation(frame, grouping.labels),
                ]
            )


#: Estimated seconds of resampling from which the page keeps room for a progress line.
PROGRESS_FROM = 1.0


def _with_line(seconds: float, compute, report):
    """``compute()``; past :data:`PROGRESS_FROM` estimated seconds, with a line that
    ``report(line)`` moves at its checkpoints (drawn by the first one: a cached value
    draws nothing), gone once it returns or stops."""
    if seconds < PROGRESS_FROM:
        return compute()
    line = st.empty()
    try:
        with work.progress(report(line)):
            return compute()
    finally:
        line.empty()


class _Body:
    """The groups' section while their intervals are resampled: each group's value (the
    frame's, to the bit), drawn at the first checkpoint of the work in a place the
    frame's section then takes. Made there, not before: the previous run's section
    stays on screen (greyed) until the values replace it, and a cached frame, which
    reaches no checkpoint, draws its section once."""

    def __init__(self, settings, values, grouping, shown: bool):
        self.place = None
        self.draw = (lambda: _values(settings, values, grouping)) if shown else None

    def report(self, then):
        """``then``, after drawing the values once, at the first checkpoint."""

        def report(seconds: float) -> None:
            if self.draw is not None:
                self.place = st.empty()
                with self.place.container():
                    self.draw()
                self.draw = None
            then(seconds)

        return report

    def final(self):
        """Where the frame's section goes: in place of the values, if they were drawn;
        else in one container, so that the next run's values replace the whole section
        (drawn element by element, its chart would stay below them, greyed, until that
        run ends)."""
        return st.container() if self.place is None else self.place.container()


def _resampled(ds: Dataset, settings: slices.Settings, seconds: float, body: _Body):
    """The frame, with a progress bar and the groups' values while its resamples run."""
    return _with_line(
        seconds,
        lambda: cache.slices.frame(ds, settings),
        lambda line: body.report(work.bar_report(line, seconds)),
    )


def _headline(frame, settings: slices.Settings) -> None:
    c1, c2, c3 = st.columns(3)
    overall = t("${metric}, all rows", metric=t(settings.metric))
    classroom.headline(c1, overall, headline_value(frame.overall))
    gap = frame.difference() if np.isfinite(frame.value).any() else float("nan")
    classroom.headline(c2, t("Gap: best − worst group"), headline_value(gap))
    widgets.metric(c3, t("Groups"), f"{frame.groups.size:,}")
    classroom.reveal_button()


def _open(conditions, settings: slices.Settings, kind: str, key: str, label: str, where) -> None:
    """A button that opens the model's page filtered to ``conditions``."""
    opens = t("Opens ${page} on this slice.", page=t(registry.page(MODEL_PAGE[kind]).title))
    if where.button(label, key=key, help=opens):
        _open_now(conditions, settings, kind)


def _open_now(conditions, settings: slices.Settings, kind: str) -> None:
    """Open the model's page filtered to ``conditions``, on the model the Slices page
    shows (every model page reads ``?model=``)."""
    slice_filter.set_filter(conditions)
    navigation.open_page(MODEL_PAGE[kind], model=settings.model)


def _chart(settings, frame, grouping) -> None:
    """Each group's value and its interval (none yet: its value alone)."""
    labels = [grouping.labels[int(c)] for c in frame.groups.tolist()]
    title = t("${metric} (95% interval)") if frame.n_resamples else "${metric}"
    widgets.svg_chart(
        charts.groups(
            labels,
            frame.value,
            frame.low,
            frame.high,
            frame.overall,
            t(settings.metric),
            (t("all rows: ${value}"), title),
            language.current(),
        )
    )


def _values(settings, values, grouping) -> None:
    """Each group's value while its intervals and tests are being resampled."""
    st.subheader(t("Each group"))
    _chart(settings, values, grouping)
    st.caption(
        t(
            "Each group's interval and test follow once its ${n:,} resamples are drawn.",
            n=slices.N_RESAMPLES,
        )
    )
    table = _shown(slices.table(settings, values, grouping.labels))
    widgets.table(table, missing=t("no value"), hide_index=True)


def _groups(ds, settings, frame, grouping, group: str) -> None:
    """Each group's chart and table; a click on a row, or the button of the group picked
    in the "Group" box, opens the model's page on that group."""
    st.subheader(t("Each group"))
    _chart(settings, frame, grouping)
    page = t(registry.page(MODEL_PAGE[ds.kind]).title)
    st.caption(t("A click on a row opens the ${page} page on that group.", page=page))
    codes = frame.groups.tolist()
    widgets.table(
        _shown(slices.table(settings, frame, grouping.labels)),
        missing=t("no value"),
        keyboard='picking the group in the "Group" box and pressing the button under the table',
        hide_index=True,
        key="sl_table",
        on_select=lambda: _clicked_row(codes),
        selection_mode="single-row",
    )
    for note in frame.notes.values():
        st.caption(literal(t(str(note))))
    st.caption(t(slices.p_caption(frame.test, ds.n_samples)))
    clicked = st.session_state.pop(CLICKED, None)
    if clicked is not None:
        _open_now(grouping.conditions[clicked], settings, ds.kind)
    label = t("Open ${page} on ${group}", page=page, group=literal(group))
    code = grouping.labels.index(group)
    _open(grouping.conditions[code], settings, ds.kind, "sl_open_group", label, st)


#: Session key of the group whose row of the table was clicked, until the run opens it.
CLICKED = "sl_clicked_group"


def _clicked_row(codes: list[int]) -> None:
    """The table's row selection changed: keep the clicked row's group for the run."""
    rows = st.session_state["sl_table"]["selection"]["rows"]
    if rows:
        st.session_state[CLICKED] = int(codes[rows[0]])


def _derived(ds, settings, code: int, group: str) -> None:
    """The picked group's value, derived term by term from its own rows."""
    title = t(
        "How the ${metric} of ${group} is computed",
        metric=literal(t(settings.metric)),
        group=literal(group),
    )
    with st.expander(title):
        line = cache.slices.derivation(ds, settings, code)
        show_derivations([line], formulas=True, warn_undefined=True)


def _searched(ds: Dataset, settings: slices.Settings, seconds: float):
    """The worst slices, with a line of the seconds spent while the search runs (it has
    no estimate of its own: ``seconds`` is the frame's and the search's together)."""
    words = "Searching every attribute and pair of attributes: ${seconds:.0f} s so far"
    return _with_line(
        seconds,
        lambda: cache.slices.worst(ds, settings),
        lambda line: work.elapsed_report(line, words),
    )


def _worst(ds, settings, test: str, seconds: float) -> None:
    st.subheader(t("The worst slices, found for you"))
    try:
        table, conditions, tested = _searched(ds, settings, seconds)
    except work.Spent as exc:
        st.info(
            t("${why} The search waits meanwhile.", why=t(exc.args[0])),
            icon=":material/hourglass_empty:",
        )
        return
    st.markdown(
        prose.fill("slices", "worst", min_count=slices.min_count(ds.n_samples), tested=tested)
    )
    if table.empty:
        st.info(t("No slice is worse than the rest of the data."), icon=":material/info:")
        return
    widgets.table(_shown(table), missing=t("no value"), hide_index=True, key="sl_worst_table")
    # the same metric on the same rows: the groups' test
    st.caption(t(slices.p_caption(test, ds.n_samples)))
    cols = st.columns(2)
    for i, cond in enumerate(conditions):
        text = literal(slicing.describe_slice(cond))
        _open(cond, settings, ds.kind, f"sl_open_worst_{i}", f"{i + 1}. {text}", cols[i % 2])


def _rates(ds, settings) -> None:
    if settings.group_thresholds:
        st.subheader(t("Rates per group at each group's threshold"))
    else:
        st.subheader(t("Rates per group at the threshold ${t:fmt}", t=settings.threshold))
    st.markdown(prose.section("slices", "rates"))
    table, gaps = cache.slices.rates(ds, settings)
    cols = st.columns(len(gaps))
    for col, (label, value) in zip(cols, gaps.items(), strict=True):
        widgets.metric(col, t(label), headline_value(value))
    widgets.table(_shown(table), missing=t("no value"), hide_index=True, key="sl_rates_table")
    rows = [table.iloc[i] for i in range(len(table))]
    lines = [slices.rate_derivation(r, rate) for rate in ("TPR", "FPR") for r in rows[:2]]
    with st.expander(t("The rates of the first groups, from their counts")):
        show_derivations(lines, wait_for_reveal=False)


def _shown(table):
    """A table with its column names in the visitor's language (the page model's English
    names stay for its tests and downloads); the groups' labels are the data's."""
    return table.rename(columns=t)
