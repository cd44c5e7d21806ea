"""The headline numbers of Home: the active dataset's numbers (exact over every row for
the host's big data), why one is undefined, and how they are computed."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.formatting import fmt, literal
from explorer.pages import home
from explorer.ui import cache, classroom
from explorer.ui.derivations import show as show_derivations
from explorer.ui.language import t


def show(ds: Dataset) -> None:
    """The numbers in a row (with intervals when they are on), a note for each one that
    cannot be computed, their derivation, and whose numbers they are."""
    # valid data some metric is undefined on (one class, one label column): that metric
    # shows n/a and a sentence says why; the others show their numbers
    # the host's big data: the headline is exact over every row (its merged states), and no
    # bootstrap interval of the sample applies to it
    exact = cache.big.exact_headline(ds)
    numbers = exact or cache.home.headline(ds)
    intervals = {} if exact else classroom.intervals(cache.home.intervals, ds)
    for col, number in zip(st.columns(len(numbers)), numbers, strict=True):
        value = "n/a" if number.value is None else fmt(number.value)
        interval = intervals.get(number.label) if number.value is not None else None
        classroom.headline(col, t(number.label), value, interval=interval, help=number.why)
    classroom.reveal_button()
    for number in numbers:
        if number.why is not None:
            st.info(
                t(
                    "**${label}** cannot be computed on this dataset: ${why}",
                    label=t(number.label),
                    why=number.why,
                ),
                icon=":material/info:",
            )
    values = {n.label: n.value for n in numbers}
    if not exact and None not in values.values():
        derivation(ds, values)
    if exact:
        st.caption(
            t(
                "Exact over all ${total:,} rows, for **${model}** (merged states of the whole "
                "file). The other pages show a uniform sample of ${n:,} of the ${total:,} rows.",
                total=ds.total_rows,
                model=literal(ds.model_names[0]),
                n=ds.n_samples,
            )
        )
    else:
        st.caption(
            t(
                "Computed for the first model, **${model}**, on all ${n} samples.",
                model=literal(ds.model_names[0]),
                n=ds.n_samples,
            )
        )


def derivation(ds: Dataset, values: dict) -> None:
    """How the numbers are computed: term by term for a binary dataset, else the page
    that derives them. (The exact numbers of big data, or an undefined one, are not
    derived here.)"""
    if ds.kind == "binary" and not classroom.derivations_hidden():
        with st.expander(t("How these numbers are computed, term by term"), expanded=True):
            lines = cache.curves.curve_lines(ds, ds.model_names[0])
            show_derivations([lines["ROC AUC"], lines["Average precision"]], hidden_note=False)
            st.latex(home.gini_latex(values["ROC AUC"], values["Gini"]))
    elif ds.kind in home.DERIVED_ON:
        st.caption(
            t(
                "Each of these numbers is derived term by term on the **${page}** page.",
                page=t(home.DERIVED_ON[ds.kind]),
            )
        )
