"""The Label ranking page's drill-down, one st.fragment: the sample picker, the tie
rule, the what-if editor and the selected sample's numbers, ranking and tie rules (its
step tables: :mod:`views.label_ranking.derivation`). Moving the sample or the tie rule
reruns this panel only; the headline, the contributions chart and the tables above and
below stay as they are. The whole page reruns (``st.rerun(scope="app")``) only when a
move changes something drawn outside the panel: a what-if edit (the means, the
tables), the selected sample entering or leaving the contributions chart (its
highlight), or "Predict, then reveal" hiding the headline again.

Layout only: the numbers come from :mod:`explorer.pages.label_ranking`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from explorer import links
from explorer.charts import ranking as charts
from explorer.formatting import fmt, literal
from explorer.pages import label_ranking
from explorer.pages.label_ranking import TIE_LABELS
from explorer.ui import bound, cache, classroom, language, sidebar, url, widgets, work
from explorer.ui.language import refusal, t
from views import prose
from views.label_ranking import derivation
from views.label_ranking.controls import Settings

WHATIF_LINK = "lr_whatif_link"  # the link's what-if edit (?wi=): (dataset, model, sample, cells)


@dataclass(frozen=True)
class Shown:
    """The sample the drill-down opened and the numbers the page shows with it."""

    i: int  # the selected sample
    new_row: np.ndarray  # its scores as the what-if editor holds them
    what_if: label_ranking.Summary | None  # the summary with that row; None: unedited
    base: label_ranking.Summary  # the model's own summary

    @property
    def res(self) -> label_ranking.Summary:
        """The summary shown: the what-if one when the scores are edited."""
        return self.base if self.what_if is None else self.what_if

    @property
    def edit(self) -> np.ndarray | None:
        """The selected sample's edited scores, None when unedited."""
        return None if self.what_if is None else self.new_row


def outside(what_if, i: int, new_row, chart: frozenset) -> tuple:
    """What the page outside the drill-down shows of a move: the what-if edit, the
    highlighted bar of the contributions chart, whether the headline is shown."""
    edit = None if what_if is None else (i, tuple(float(x) for x in new_row))
    return edit, (i if i in chart else None), classroom.numbers_shown()


@st.fragment
def drill_down(ds, settings: Settings, base, drawn: dict) -> Shown:
    """The drill-down (see the module's docstring).

    ``drawn``: filled by the page after a whole run with ``chart`` (the samples the
    contributions chart shows) and ``outside`` (:func:`outside` of that run); a rerun
    of this panel alone compares against it.
    """
    classroom.track_view()  # a move here hides revealed numbers again
    c_sample, c_ties = st.columns([3, 2])
    i = bound.sample(
        c_sample,
        t("Sample"),
        ds.n_samples,
        partial(sample_label, base.contrib, list(ds.sample_ids), classroom.numbers_shown()),
        key="lr_sample",
        param="i",
        default=label_ranking.worst_sample(base.contrib, settings.sort_by),  # opens on it
        help=t("The worst sample first (by the sort above); URL: ?i="),
    )
    ties = bound.radio(
        c_ties,
        t("Ties in this sample's LRAP and coverage"),
        list(TIE_LABELS),
        key="lr_tie_mode",
        param="ties",
        format_func=language.options(TIE_LABELS),
        horizontal=True,
        help=prose.section("label_ranking", "help-ties"),
    )
    orig_row = np.asarray(ds.score(settings.model)[i])
    new_row = whatif_editor(ds, i, settings.model, orig_row)
    try:  # only sample i changes: its row is recomputed, the means and effects updated
        what_if = cache.label_ranking.what_if(
            ds, settings.model, i, tuple(float(x) for x in new_row)
        )
    except metrics.MetricInputError as exc:
        st.error(t("The edited scores are not used: ${why}", why=literal(refusal(exc))))
        what_if = None
    except work.Spent as exc:  # a ragged edit scores the whole matrix: the session's budget
        st.info(
            t("${why} The edited scores wait meanwhile.", why=t(exc.args[0])),
            icon=":material/hourglass_empty:",
        )
        what_if = None
    if "outside" in drawn and outside(what_if, i, new_row, drawn["chart"]) != drawn["outside"]:
        st.rerun(scope="app")  # the means, the chart's highlight or the headline change
    if what_if is not None:
        st.info(t("Showing the what-if scores: press **Reset** to go back."))
        # the editor's result, not a widget's value: the link carries it
        url.write_param("wi", links.whatif_text(i, new_row, orig_row))
    else:
        st.query_params.pop("wi", None)
    shown = Shown(i, new_row, what_if, base)
    # a ragged dataset's row cut to its items, as its per-sample numbers read it
    y_row, s_row, names = label_ranking.sample_items(
        ds, i, orig_row if what_if is None else new_row
    )
    one = label_ranking.sample_steps(y_row, s_row, ties)
    sample_section(one, shown, names, ties)
    return shown


def sample_label(contrib: pd.DataFrame, ids: list[str], numbers: bool, i: int) -> str:
    """The sample picker's label: the sample and, unless "Predict, then reveal" hides
    them (``numbers`` False), its three numbers."""
    row = contrib.iloc[i]
    who = t("sample ${i}", i=i) if ids[i] == str(i) else t("sample ${i} (id ${id})", i=i, id=ids[i])
    if not numbers:
        return who
    return t(
        "${who}: LRAP ${lrap}, coverage ${coverage}, loss ${loss}",
        who=who,
        lrap=fmt(row["lrap"]),
        coverage=fmt(row["coverage"]),
        loss=fmt(row["ranking_loss"]),
    )


# --------------------------------------------------------------------- what if?
def _reset_whatif() -> None:
    st.session_state.pop("lr_whatif_scores", None)
    st.session_state[WHATIF_LINK] = None
    st.session_state["lr_whatif_version"] = st.session_state.get("lr_whatif_version", 0) + 1


def _whatif_from_link(ds, sample: int, model_name: str, scores: np.ndarray) -> np.ndarray | None:
    """The scores of ``sample`` with the link's what-if edit (``?wi=``), else None.

    Read once per session; a malformed edit is ignored with a notice. Like an
    edit made in the editor, it is gone once another sample or model is opened.
    """
    if WHATIF_LINK not in st.session_state:
        raw, seed = st.query_params.get("wi"), None
        if raw:
            try:
                wanted, cells = links.parse_whatif(raw, ds.n_samples, ds.n_labels)
                if wanted != sample:
                    raise ValueError(
                        t(
                            "it edits sample ${wanted}, but sample ${i} is open",
                            wanted=wanted,
                            i=sample,
                        )
                    )
            except ValueError as exc:
                sidebar.link_notice(
                    t("The link's what-if edit (wi=${raw}) is ignored: ${why}.", raw=raw, why=exc)
                )
            else:
                seed = (ds.fingerprint, model_name, sample, cells)
        st.session_state[WHATIF_LINK] = seed
    seed = st.session_state[WHATIF_LINK]
    if seed is None:
        return None
    if seed[:3] != (ds.fingerprint, model_name, sample):
        st.session_state[WHATIF_LINK] = None
        return None
    return label_ranking.apply_cells(scores, seed[3])


def whatif_editor(ds, i: int, model_name: str, orig_row: np.ndarray) -> np.ndarray:
    """The what-if editor over the selected sample's scores; returns the row it holds."""
    names = label_ranking.item_names(ds, i)  # a query's own documents when named
    linked_row = _whatif_from_link(ds, i, model_name, orig_row)  # a link's edit starts it
    version = st.session_state.get("lr_whatif_version", 0)
    editor_df = pd.DataFrame(
        [orig_row if linked_row is None else linked_row],
        columns=names,
        index=[t("sample ${i}", i=i)],
    )
    editor_df.index.name = t("scores of") + " " * (version % 2)  # a reset gives a fresh editor
    # bold, not `code`: a backslash escape does not work inside code, a name may hold a `
    true_names = ", ".join(f"**{literal(names[j])}**" for j in np.flatnonzero(ds.y_true[i]))
    true_names = true_names or t("none")
    st.markdown(prose.section("label_ranking", "whatif") + f" {true_names}" + t("."))
    c_edit, c_reset = st.columns([5, 1])
    edited = c_edit.data_editor(
        editor_df, key="lr_whatif_scores", num_rows="fixed", width="stretch"
    )
    c_reset.button(
        t("Reset"),
        key="lr_whatif_reset",
        on_click=_reset_whatif,
        help=t("Back to the model's scores."),
    )
    return edited.to_numpy(dtype=np.float64, na_value=np.nan)[0]


# --------------------------------------------------------------------- the selected sample
def sample_section(one: label_ranking.SampleSteps, shown: Shown, names, ties: str) -> None:
    """The selected sample: its numbers, its ranking, the tie rules and the step tables."""
    contrib = shown.res.contrib
    row = contrib.iloc[shown.i]
    scales = label_ranking.effect_scales(contrib)  # the per-sample table's units
    lrap, coverage, loss = one.values
    d1, d2, d3 = st.columns(3)
    rule = t("Ties: ${rule}.", rule=t(TIE_LABELS[ties]))
    classroom.headline(d1, t("Sample LRAP"), fmt(lrap), help=rule)
    classroom.headline(d2, t("Sample coverage"), fmt(coverage), help=rule)
    classroom.headline(
        d3,
        t("Sample ranking loss"),
        fmt(loss),
        help=t("Ties count as mis-ordered pairs, as in scikit-learn."),
    )
    held = t("The sample's effect on the means, its ranking, tie rules and steps")
    if classroom.held_back(held):
        return
    effect = {
        c: label_ranking.effect_text(row[f"{c}_moves_mean"], scales[c])
        for c in ("lrap", "coverage", "ranking_loss")
    }
    st.caption(
        t(
            "Sample ${i} (${n_true} true of ${m} labels) moves the mean LRAP by ${lrap}, "
            "the coverage error by ${coverage} and the ranking loss by ${loss}.",
            i=shown.i,
            n_true=row["n_true"],
            m=len(names),
            lrap=effect["lrap"],
            coverage=effect["coverage"],
            loss=effect["ranking_loss"],
        )
    )
    lang = language.current()
    if len(names) > charts.NAMED_ROWS_MAX:  # redrawn on every step: SVG, not plotly
        widgets.svg_chart(charts.sample_ranking_svg(one.ranking, names, lang))
    else:
        widgets.plotly_chart(
            st, charts.sample_ranking_figure(one.ranking, names, lang), key="lr_sample_chart"
        )
    with st.container():
        st.markdown(t("**The tie rules side by side**"))
        side = label_ranking.tie_rules_table(one.ties, shown.res.ties)
        side = side.assign(**{"tie rule": side["tie rule"].map(t)})
        widgets.dataframe(
            st,
            side,
            hide_index=True,
            key="lr_tie_table",
            column_config={c: st.column_config.NumberColumn() for c in side.columns[1:]},
        )
        st.caption(prose.section("label_ranking", "tie-rules"))
    derivation.steps(one, row, names, ties, shown.i)
