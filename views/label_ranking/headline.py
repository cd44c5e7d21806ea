"""The Label ranking page's headline: the three numbers (and the best coverage, and
the MRR when every sample has one true label), each written out as the mean of its
per-sample terms, and the way to the worst samples."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

import metrics
from explorer.formatting import fmt, literal
from explorer.pages import label_ranking
from explorer.ui import cache, classroom, navigation, widgets, work
from explorer.ui.language import t
from views import prose

#: The anchor of the per-sample table, worst first (linked from the headline).
TABLE_ANCHOR = "lr_worst_first"  # underscores: an id, not words to translate


def summary(ds, model_name: str) -> label_ranking.Summary:
    """The model's cached summary; the page stops with a notice when its labels and
    scores cannot be scored."""
    try:
        return cache.label_ranking.summary(ds, model_name)
    except work.Spent as exc:
        st.info(
            t("${why} The Label ranking page waits meanwhile.", why=t(exc.args[0])),
            icon=":material/hourglass_empty:",
        )
        navigation.stop_page()
    except metrics.MetricInputError as exc:
        widgets.cannot_score(
            ds,
            exc,
            t("Label ranking puts the labels of each sample in order"),
            t("These labels and scores cannot be scored: "),
        )
        navigation.stop_page()


def headline(ds, model_name: str, shown) -> None:
    """The headline metrics, their derivations, the caption and the jump to the table.

    ``shown``: the drill-down's :class:`views.label_ranking.drill.Shown` (the what-if
    summary when sample ``shown.i``'s scores are edited).
    """
    res, i, is_edited = shown.res, shown.i, shown.what_if is not None
    one_true = label_ranking.one_true_label(res.contrib)
    with_mrr = one_true and not is_edited
    edit = tuple(float(x) for x in shown.new_row) if is_edited else None
    ci = classroom.intervals(cache.label_ranking.intervals, ds, model_name, i, edit, with_mrr)
    numbers = _numbers(res)
    derived = list(label_ranking.derivations(res, ds.sample_weight).values())
    if with_mrr:
        mrr = cache.label_ranking.mrr(ds, model_name)
        numbers.append(_mrr_number(mrr))
        derived.append(label_ranking.mrr_derivation(ds, model_name, mrr))
    for col, (label, value, why) in zip(
        widgets.label_columns(t(n[0]) for n in numbers), numbers, strict=True
    ):
        classroom.headline(col, t(label), fmt(value), interval=ci.get(label), help=t(why))
    classroom.reveal_button()
    with st.container(key="lr_derivation"):
        if not classroom.derivations_hidden():
            for d in derived:
                st.markdown(t(replace(d, name=t(d.name)).text()))
    _captions(ds, model_name, shown)
    if one_true:
        st.success(prose.section("label_ranking", "one-true"))


def refused(ds, model_name: str, res: label_ranking.Summary) -> None:
    """The means alone, when the per-sample table is over the computing budget
    (``res.refused``), and a sentence that says what is left out and why."""
    numbers = _numbers(res)
    if (np.count_nonzero(ds.y_true, axis=1) == 1).all():  # LRAP equals MRR: show it too
        numbers.append(_mrr_number(cache.label_ranking.mrr(ds, model_name)))
    for col, (label, value, why) in zip(
        widgets.label_columns(t(n[0]) for n in numbers), numbers, strict=True
    ):
        classroom.headline(col, t(label), fmt(value), help=t(why))
    st.info(
        t(
            "${why}, so the per-sample table, its chart, the one-sample drill-down, the tie "
            "rules and the 95% intervals are not computed. The numbers above are exact, over "
            "all ${n:,} samples.",
            why=t(res.refused),
            n=ds.n_samples,
        ),
        icon=":material/hourglass_empty:",
    )


def _mrr_number(mrr: float) -> tuple[str, float, str]:
    return ("MRR", mrr, "Mean reciprocal rank: equals LRAP when every sample has one true label.")


def _numbers(res: label_ranking.Summary) -> list[tuple[str, float, str]]:
    """The headline numbers: (label, value, help)."""
    return [
        ("Coverage error", res.coverage, "Lower is better."),
        (
            "Best coverage",
            res.best_coverage,
            "The mean number of true labels: the coverage error of a perfect ranking.",
        ),
        ("LRAP", res.lrap, "Higher is better; 1 is perfect."),
        ("Ranking loss", res.loss, "Lower is better; 0 is perfect."),
    ]


def _captions(ds, model_name: str, shown) -> None:
    """What the derivations are, and of which model, samples and edit."""
    weighted = ds.sample_weight is not None
    mean = t("weighted mean (weight × value)" if weighted else "mean")
    st.caption(prose.fill("label_ranking", "derivation", mean=mean, anchor=TABLE_ANCHOR))
    caption = t("Model **${model}**, all ${n} samples", model=literal(model_name), n=ds.n_samples)
    if weighted:
        caption += t(", weighted by sample_weight")
    if shown.what_if is not None:
        base = shown.base
        caption += t(
            ". With the what-if scores of sample ${i}; before the edit: coverage error "
            "${coverage}, LRAP ${lrap}, ranking loss ${loss}",
            i=shown.i,
            coverage=fmt(base.coverage),
            lrap=fmt(base.lrap),
            loss=fmt(base.loss),
        )
    st.caption(caption + t("."))
