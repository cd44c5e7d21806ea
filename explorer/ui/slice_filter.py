"""The slice filter: ``?slice=hospital:B`` (or two conditions, ``hospital:B;age:[20, 40)``),
an app-wide URL setting like ``present=1``.

Every page but Data and Slices computes on the samples (queries, for graded ranking)
of the slice: :func:`active` gives the page its dataset, the slice's rows taken
(:func:`explorer.slicing.subset`, cached). The filter is read once per session from
the link, checked against the dataset on every run (an unknown attribute or group: a
notice, and the filter dropped), shown in the sidebar with a "Clear" button, and
written back into the URL; a page's headline area says what it shows (:func:`note`).
A change of dataset drops it (:func:`explorer.ui.session.reset_page_settings`).
"""

from __future__ import annotations

import streamlit as st

from explorer import slicing
from explorer.datasets import Dataset
from explorer.formatting import literal
from explorer.ui import cache, session
from explorer.ui.language import t
from explorer.ui.sidebar import link_notice

SLICE, PARAM = session.SLICE, session.SLICE_PARAM


def conditions() -> tuple[slicing.Condition, ...]:
    """The filter's conditions (empty: no filter); read from ``?slice=`` once per session."""
    ss = st.session_state
    if SLICE not in ss:
        ss[SLICE] = ()
        raw = st.query_params.get(PARAM)
        if raw:
            try:
                ss[SLICE] = slicing.parse_slice(raw)
            except slicing.GroupingError as exc:
                link_notice(t("The slice filter is left out: ${why}", why=t(exc.args[0])))
    return ss[SLICE]


def set_filter(chosen) -> None:
    """Filter every page to the slice ``chosen`` (conditions; empty: no filter)."""
    st.session_state[SLICE] = tuple(tuple(c) for c in chosen)
    _write()


def clear() -> None:
    """Drop the filter (the sidebar's "Clear" button)."""
    set_filter(())


def _write() -> None:
    chosen = st.session_state.get(SLICE) or ()
    if chosen:
        st.query_params[PARAM] = slicing.slice_text(chosen)
    else:
        st.query_params.pop(PARAM, None)


def sidebar(ds: Dataset) -> None:
    """Check the filter against ``ds`` (the active dataset, whole), say what it is in the
    sidebar with a "Clear" button, and write it into the URL. Call after the picker."""
    chosen = conditions()
    if chosen:
        try:
            slicing.slice_mask(ds, chosen)
        except slicing.GroupingError as exc:
            link_notice(t("The slice filter is left out: ${why}", why=t(exc.args[0])))
            st.session_state[SLICE] = chosen = ()
    if chosen:
        described = literal(slicing.describe_slice(chosen))
        st.sidebar.markdown(t("**Slice:** ${slice}", slice=described))
        st.sidebar.button(
            t("Clear the slice"),
            key="slice_clear",
            on_click=clear,
            help=t("Every page shows the whole dataset again."),
        )
    _write()


def active() -> Dataset:
    """The dataset a page computes on: the active one, or the rows of the slice."""
    ds = session.active()
    chosen = st.session_state.get(SLICE) or ()
    if not chosen:
        return ds
    try:
        return cache.slices.subset(ds, chosen)
    except slicing.GroupingError:  # the sidebar said why and dropped it
        return ds


def note_text(part: Dataset, whole: Dataset, chosen) -> str:
    """What a page's headline area says of a slice (Markdown, names escaped).

    Examples
    --------
    >>> import numpy as np
    >>> whole = Dataset("t", "binary", np.zeros(5000), {"m": np.zeros(5000)})
    >>> part = Dataset("t", "binary", np.zeros(412), {"m": np.zeros(412)})
    >>> note_text(part, whole, [("hospital", "B")])
    'On 412 of 5,000 samples: hospital = B'
    """
    noun = slicing.unit(whole)
    plural = "queries" if noun == "query" else "samples"
    described = literal(slicing.describe_slice(chosen))
    return t(
        "On ${n:,} of ${total:,} ${units}: ${slice}",
        n=part.n_samples,
        total=whole.n_samples,
        units=t(plural),
        slice=described,
    )


def note(ds: Dataset) -> None:
    """Under a page's title: on how many samples of how many, and which slice, the page
    computes (nothing without a filter). ``ds`` is what :func:`active` gave the page."""
    chosen = st.session_state.get(SLICE) or ()
    whole = session.active()
    if chosen and ds is not whole:
        st.info(note_text(ds, whole, chosen), icon=":material/filter_alt:")


def whole_note(page: str) -> None:
    """On a page that shows the whole dataset (Data, Slices) while a filter is on."""
    chosen = st.session_state.get(SLICE) or ()
    if chosen:
        st.caption(
            t(
                "${page} shows every sample; the slice ${slice} applies to the other pages.",
                page=t(page),
                slice=literal(slicing.describe_slice(chosen)),
            )
        )
