"""The DCG & NDCG page's selected sample: the picker (:func:`views.dcg.controls.sample`)
and its gain and contribution per position, the k cut and the tie groups.

Layout only: the numbers come from :mod:`explorer.pages.dcg`."""

from __future__ import annotations

import streamlit as st

from explorer.charts import dcg as charts
from explorer.formatting import literal
from explorer.pages import dcg
from explorer.ui import language, widgets
from explorer.ui.language import t
from views import prose
from views.dcg.derivation import STEP_ROWS, empty_rule


def chart(ds, row: int, one: dcg.SampleSteps, controls) -> None:
    """The selected sample's chart and its caption; ``controls``:
    :class:`views.dcg.controls.Controls`."""
    settings = controls.settings
    args = {
        "k": settings.k,
        "item_names": ds.item_names(row),
        "gain_label": "2^rel - 1" if settings.exponential else t("relevance"),
        "title": t("Sample ${id}: gain and contribution per position", id=ds.sample_ids[row]),
        "max_positions": STEP_ROWS,
        "lang": language.current(),
    }
    if ds.n_labels > charts.UPRIGHT_TICKS:  # a long list, redrawn on each k: SVG, not plotly
        widgets.svg_chart(charts.steps_svg(one.steps, **args))
    else:
        widgets.plotly_chart(st, charts.steps_figure(one.steps, **args), key="dcg_steps_chart")
    st.caption(steps_caption(charts.n_tie_groups(one.steps), settings, ds.n_labels))


def steps_caption(n_groups: int, settings: dcg.Settings, n_items: int) -> str:
    """The caption under the selected sample's chart (drawn up to :data:`STEP_ROWS`
    positions, or one past k when k is larger: :func:`explorer.charts.dcg.drawn_positions`).

    Examples
    --------
    >>> steps_caption(0, dcg.Settings("m", k=3), 100).split(". ")[-1]
    'The first 30 of 100 positions are drawn (all in the CSV).'
    >>> steps_caption(0, dcg.Settings("m", k=45), 100).split(". ")[-1]
    'The first 46 of 100 positions are drawn (all in the CSV).'
    """
    k = settings.k
    drawn = charts.drawn_positions(n_items, k, STEP_ROWS)
    return (
        t(
            "Bars: the gain each position uses and its contribution (gain x discount); black "
            "dashes: the item's own gain; green line: the discount, right axis. "
        )
        + (
            t("Shaded: ${n} tie group(s), whose items share the group's mean gain. ", n=n_groups)
            if n_groups and not settings.ignore_ties
            else (
                t("Shaded: ${n} tie group(s), ranked one by one. ", n=n_groups) if n_groups else ""
            )
        )
        + (t("The dashed red line is the k cut.") if k is not None and k < n_items else "")
        + (
            t(
                " The first ${drawn} of ${n} positions are drawn (all in the CSV).",
                drawn=drawn,
                n=n_items,
            )
            if drawn < n_items
            else ""
        )
    )


def no_relevant_text(empty: tuple[str, ...], n_samples: int, settings: dcg.Settings) -> str:
    """The warning about the samples with no relevant item, naming the first 20
    (escaped: they are the data's ids)."""
    rule = empty_rule(settings)
    effect = t("pulls up") if settings.empty_scores_one else t("pulls down")
    text = prose.fill(
        "dcg", "no-relevant", n_empty=len(empty), n_samples=n_samples, effect=effect, **rule
    )
    named = ", ".join(literal(e) for e in empty[:20])
    return text + " " + named + (" ..." if len(empty) > 20 else "") + t(".")
