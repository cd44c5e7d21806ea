"""What the model got wrong (the Multilabel classification page's tab Errors): the grid
of the worst samples, one label's wrong samples and one sample label by label."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import multilabel
from explorer.ui import bound, cache, language, url, widgets
from explorer.ui.language import t
from views.multilabel.controls import Settings


def errors(ds, settings: Settings, pred, res: dict) -> None:
    """The tab's body: the grid, the label inspector and the sample inspector."""
    title = t("The 30 worst samples: TP, FN (missed), FP (extra), TN")
    grid = cache.multilabel.grid(
        ds, settings.setting, settings.beta, settings.zd_key, title, language.current()
    )
    widgets.plotly_chart(st, grid, key="ml_outcome_grid")
    st.subheader(t("What did it get wrong?"))
    label(ds, settings, pred, res)
    sample(ds, settings, pred, res)


def label(ds, settings: Settings, pred, res: dict) -> None:
    """One label (``?label=``): its counts and scores, and the samples it gets wrong."""
    label_names = res["labels"]["label"].iloc[: res["n_labels"]].tolist()
    lab = bound.selectbox(
        st, t("Inspect a label"), label_names, key="ml_inspect_label", param="label"
    )
    row = res["labels"].iloc[label_names.index(lab)]
    n_wrong, wrong_rows = multilabel.label_errors(ds, settings.model, pred, lab)
    st.markdown(
        t(
            "**${label}**: TP ${tp}, FP ${fp}, FN ${fn}, support ${support}; precision "
            "${precision}, recall ${recall}, F1 ${f1}. ${n} wrong sample(s)",
            label=literal(lab),
            tp=f"{row['tp']:g}",
            fp=f"{row['fp']:g}",
            fn=f"{row['fn']:g}",
            support=f"{row['support']:g}",
            precision=fmt(row["precision"]),
            recall=fmt(row["recall"]),
            f1=fmt(row["f1"]),
            n=n_wrong,
        )
        + (
            t(", the first ${n} shown.", n=multilabel.SHOWN_ROWS)
            if n_wrong > multilabel.SHOWN_ROWS
            else t(":")
        )
    )
    wrong_rows = wrong_rows.assign(what=wrong_rows["what"].map(t))
    widgets.dataframe(st, wrong_rows, hide_index=True, width="stretch", height=300)


def sample(ds, settings: Settings, pred, res: dict) -> None:
    """One sample (``?sample=`` its id), label by label: true, score, threshold,
    predicted, outcome."""
    worst = res["worst"]
    worst_ids, choices, wrong_count = multilabel.sample_choices(ds, worst)
    sid = _pick_sample(choices, worst_ids[0], wrong_count)
    i = int(worst.index[worst_ids.index(sid)])
    srow = worst.loc[i]
    steps = multilabel.sample_steps(
        ds, settings.model, pred, i, settings.rule, settings.threshold, settings.thresholds
    )
    st.markdown(
        t(
            "**Sample ${id}**: missed ${missed}; extra ${extra}. TP ${tp}, FP ${fp}, FN ${fn}: "
            "precision ${precision}, recall ${recall}, Jaccard ${jaccard}, ${wrong} of ${n} "
            "cells wrong.",
            id=literal(sid),
            missed=literal(srow["missed"]) if srow["missed"] else t("nothing"),
            extra=literal(srow["extra"]) if srow["extra"] else t("nothing"),
            tp=srow["tp"],
            fp=srow["fp"],
            fn=srow["fn"],
            precision=fmt(srow["precision"]),
            recall=fmt(srow["recall"]),
            jaccard=fmt(srow["jaccard"]),
            wrong=srow["wrong"],
            n=len(steps),
        )
        + (
            t(" It has no predicted label: its precision is 0/0, set by zero_division.")
            if srow["n_predicted"] == 0
            else ""
        )
        + (
            t(" It has no true label: its recall is 0/0, set by zero_division.")
            if srow["n_true"] == 0
            else ""
        )
    )
    widgets.dataframe(st, steps, hide_index=True, width="stretch")


def _pick_sample(choices: list[str], worst_id: str, wrong_count: dict) -> str:
    """The sample picker over ``choices`` (every sample, or the worst ones of a large
    dataset), keyed and linked by sample id; the worst sample by default.

    Not :func:`explorer.ui.bound.sample`, which picks a row of all the samples: this
    one offers the worst 500 of a large dataset, and keeps its choice by id while the
    threshold changes which samples those are.
    """
    url.bind_param("ml_inspect_sample", "sample", worst_id, str, url.member(choices))
    # the labels carry counts that follow the rule and the thresholds: a fresh widget when
    # they change (a stale label would come back from the browser as the option)
    sid = widgets.numbered_selectbox(
        st,
        t("Inspect a sample"),
        choices,
        lambda s: t("${sample} (${n} wrong)", sample=s, n=wrong_count[s]),
        key="ml_inspect_sample",
        default=worst_id,
        help=t("Default: the worst sample. The tab Every sample lists them worst first."),
    )
    url.write_param("sample", sid)
    return sid
