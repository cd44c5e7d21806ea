"""Small Streamlit helpers every page uses (the only explorer module besides state
that touches ``st``): the wrong-kind notice and dataset-keyed caching."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import streamlit as st

from explorer import state
from explorer.datasets import KIND_LABELS, Dataset


def cache_by_dataset(func: Callable) -> Callable:
    """``st.cache_data`` that hashes a Dataset argument by its fingerprint.

    The fingerprint is computed once per Dataset, so a rerun on a 100 MB
    dataset does not re-hash its arrays. Use on pure functions only.
    """
    return st.cache_data(max_entries=64, hash_funcs={Dataset: lambda d: d.fingerprint})(func)


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
        f"This page shows {wanted} data; the active dataset **{ds.name}** is "
        f"{KIND_LABELS[ds.kind]}. Pick another dataset in the sidebar, or open a sample.",
        icon="ℹ️",
    )
    st.button(
        f"Open the sample {suggestion!r}",
        key="open_fitting_sample",
        on_click=_switch,
        args=(suggestion,),
        type="primary",
    )
    st.stop()
