"""The small parts the ROC & PR curves page draws its texts and tables with: a section
of views/curves/text.md with its fields filled, a table with its CSV download, the CSV
built on click. The controls are in :mod:`views.curves.controls`."""

from __future__ import annotations

import streamlit as st

from explorer.ui import widgets
from explorer.ui.language import t
from views import prose


def text(name: str, **values) -> str:
    """Section ``name`` of views/curves/text.md with its fields ``${name:spec}`` filled
    from ``values`` (:func:`views.prose.fill`)."""
    return prose.fill("curves", name, **values)


def csv(build, *args, **kwargs):
    """A CSV download's data, built on click: of the table ``build(*args, **kwargs)``,
    or of ``build`` itself when it is a table."""
    return lambda: (
        (build(*args, **kwargs) if callable(build) else build).to_csv(index=False).encode()
    )


def table(df, key: str, download: tuple[str, object, str, str], missing="no value", **kwargs):
    """A table (an empty cell reads "—", ``missing`` says why), then its CSV download:
    (label, data, file name, key)."""
    widgets.table(df, missing=t(missing), hide_index=True, key=key, **kwargs)
    label, data, file, dl_key = download
    st.download_button(label, data, file, key=dl_key)
