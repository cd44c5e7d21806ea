"""Small Streamlit helpers every page uses (with state and cache, the only explorer modules
that touches ``st``): the wrong-kind notice and a select box
whose labels carry numbers."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence

import streamlit as st

from explorer import state
from explorer.datasets import KIND_LABELS, Dataset
from explorer.formatting import MISSING, dash_missing
from explorer.samples import sample_title


def _switch(name: str) -> None:
    state.set_active(name)


def require_kind(ds: Dataset, kinds: Iterable[str], suggestion: str) -> None:
    """Stop the page, kindly, when the active dataset is of a kind it cannot show.

    Says what the page needs and offers a button that opens ``suggestion``
    (a bundled sample of a fitting kind).
    """
    kinds = tuple(kinds)
    if ds.kind in kinds:
        return
    wanted = " or ".join(KIND_LABELS[k] for k in kinds)
    st.info(
        f"This page shows {wanted} data; the active dataset **{ds.shown_name}** is "
        f"{KIND_LABELS[ds.kind]}. Pick another dataset in the sidebar, or open a sample.",
        icon="ℹ️",
    )
    st.button(
        f"Open the sample “{sample_title(suggestion)}”",
        key="open_fitting_sample",
        on_click=_switch,
        args=(suggestion,),
        type="primary",
    )
    state.stop_page()


def table(df, *, missing: str, container=None, **kwargs) -> None:
    """``st.dataframe`` of ``df`` with its empty cells as "—" (never "None"), and
    then, when there is one, a caption saying what the dash means (``missing``).

    ``kwargs`` go to ``st.dataframe``; ``container`` is where to draw (``st``).
    """
    where = st if container is None else container
    shown = dash_missing(df)
    where.dataframe(shown, **kwargs)
    if shown is not df:
        where.caption(f"{MISSING} : {missing}.")


def numbered_selectbox(
    container,
    label: str,
    options: Sequence,
    format_func: Callable[[object], str],
    *,
    key: str,
    default=None,
    **kwargs,
):
    """A select box whose option labels show numbers that change with the settings.

    The browser hands a select box's choice back as its label; once a setting
    changes the labels (``"1 (NDCG 0.7500)"`` becomes ``"1 (NDCG 0.5000)"``), the
    label it sends back is no longer an option and Streamlit returns the raw label
    string instead of the option. So the choice lives in the non-widget session key
    ``key``, and the widget's own key is ``key`` plus a digest of the labels: new
    labels make a fresh widget, seeded from ``key``; a pick writes the option back.

    Parameters
    ----------
    container
        Where to draw it (``st``, a column, ...).
    label, options, format_func
        As for ``st.selectbox``; ``options`` must be hashable.
    key
        The session key holding the chosen option (a value there that is not an
        option, of the same type, is replaced by ``default``).
    default
        The option chosen when ``key`` holds none; ``options[0]`` if None.
    **kwargs
        Passed to ``st.selectbox`` (``help``, ...).

    Returns
    -------
    object
        The chosen option (always one of ``options``).
    """
    options = list(options)
    labels = [str(format_func(o)) for o in options]
    position = {}
    for i, option in enumerate(options):
        position.setdefault(option, i)

    def _is_option(value) -> bool:
        try:
            i = position.get(value)
        except TypeError:  # unhashable
            return False
        return i is not None and type(options[i]) is type(value)

    fallback = default if _is_option(default) else options[0]
    ss = st.session_state
    if not _is_option(ss.get(key)):
        ss[key] = fallback
    digest = hashlib.blake2b("\x1f".join(labels).encode(), digest_size=6).hexdigest()
    widget_key = f"{key}__{digest}"
    current = ss[key]
    if widget_key not in ss or not _is_option(ss[widget_key]) or ss[widget_key] != current:
        ss[widget_key] = current

    def _write_back() -> None:
        picked = st.session_state.get(widget_key)
        if _is_option(picked):  # a stale label string is ignored
            st.session_state[key] = picked

    container.selectbox(
        label,
        options,
        key=widget_key,
        format_func=lambda o: labels[position[o]],
        on_change=_write_back,
        **kwargs,
    )
    return ss[key]
