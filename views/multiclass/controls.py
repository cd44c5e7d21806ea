"""Every control of the Multiclass classification page, each bound to the address.

:func:`show` draws the row at the top (model, k, the confusion matrix's
normalization) and returns its :class:`Settings`; the pickers whose default comes
from the numbers (the worst confusion-matrix cell, the class of lowest F1, the worst
sample) are drawn where their section is: :func:`cell`, :func:`curve`, :func:`sample`.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from explorer.i18n import translate
from explorer.pages import multiclass
from explorer.ui import bound, language, url
from explorer.ui.language import t


@dataclass(frozen=True)
class Settings:
    """What the top row sets: the scored model, the k of top-k accuracy and what the
    confusion matrix shows (a key of :data:`explorer.pages.multiclass.NORMALIZE`)."""

    model: str
    k: int
    norm: str


def show(ds) -> Settings:
    """The model, k and the confusion matrix's normalization, in one row."""
    K = ds.n_labels
    # a format_func may be called outside the script run (AppTest): the language is fixed now
    lang = language.current()
    c_model, c_k, c_norm = st.columns([1, 1, 2])
    model = bound.selectbox(
        c_model,
        t("Model"),
        ds.model_names,
        key="mc_model",
        param="model",
        help=t("The dataset's probability matrices, one per model."),
    )
    k = bound.number(
        c_k,
        t("k (top-k accuracy)"),
        key="mc_k",
        param="k",
        default=min(2, K),
        parse=int,
        check=url.int_in(1, K),
        to_url=lambda v: str(int(v)),
        min_value=1,
        max_value=K,
        step=1,
        help=t("A sample counts as right when its true class is among its k most probable."),
    )
    norm = bound.radio(
        c_norm,
        t("Confusion matrix shows"),
        multiclass.NORMALIZE,
        key="mc_norm",
        param="norm",
        format_func=lambda n: translate(multiclass.NORMALIZE[n][1], lang),
        horizontal=True,
        help=t(
            "Counts; or each cell divided by its row's total (the diagonal is recall), by "
            "its column's total (precision) or by all samples."
        ),
    )
    return Settings(model, int(k), norm)


def cell(where, names: list, worst: tuple[int, int]) -> tuple[str, str]:
    """The confusion-matrix cell to list: its true and its predicted class (the worst
    off-diagonal cell by default; a click on the matrix sets both)."""
    true = bound.selectbox(
        where, t("True class"), names, key="mc_cell_true", param="ct", default=names[worst[0]]
    )
    pred = bound.selectbox(
        where, t("Predicted class"), names, key="mc_cell_pred", param="cp", default=names[worst[1]]
    )
    return true, pred


def curve(names: list, lowest_f1: str) -> tuple[str, str]:
    """The class drawn against the rest (the class of lowest F1 by default) and the
    average of the one-vs-rest areas (a key of :data:`explorer.pages.multiclass.AVERAGES`)."""
    c_class, c_avg = st.columns([1, 2])
    chosen = bound.selectbox(
        c_class,
        t("Class (vs the rest)"),
        names,
        key="mc_class",
        param="class",
        default=lowest_f1,
        help=t("Default: the class of lowest F1."),
    )
    average = bound.radio(
        c_avg,
        t("Average"),
        multiclass.AVERAGES,
        key="mc_avg",
        param="avg",
        horizontal=True,
        help=t("How the K one-vs-rest AUCs (and APs) become one number."),
    )
    return chosen, average


def sample(ids: list[str]) -> str:
    """The sample to inspect, by id, among the worst ``ids`` (the worst by default).

    A select box of ids rather than :func:`explorer.ui.bound.sample`: its key holds the
    id that the link's ``?sample=`` names."""
    return bound.selectbox(
        st,
        t("Inspect a sample"),
        ids,
        key="mc_sample",
        param="sample",
        help=t("Default: the worst."),
    )
