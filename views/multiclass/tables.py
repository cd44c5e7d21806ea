"""The per-sample table of the Multiclass classification page: the worst rows on
screen, every row in the CSV (written when the download is clicked)."""

from __future__ import annotations

import streamlit as st

from explorer.pages import multiclass
from explorer.ui import widgets
from explorer.ui.language import t
from views.multiclass.controls import Settings
from views.multiclass.formats import four_decimals


def per_sample(ds, settings: Settings, table) -> None:
    """The worst :data:`explorer.pages.multiclass.SHOWN_ROWS` samples and the CSV of all."""
    model, k = settings.model, settings.k
    shown = multiclass.with_top_k_column(table.head(multiclass.SHOWN_ROWS), k)
    if len(table) > len(shown):
        note = t(
            "${n:,} samples; the worst ${shown} shown, all in the CSV.",
            n=ds.n_samples,
            shown=multiclass.SHOWN_ROWS,
        )
    else:
        note = t("${n:,} samples.", n=ds.n_samples)
    st.caption(note)
    on_screen = multiclass.for_screen(shown)
    widgets.dataframe(
        st,
        on_screen,
        hide_index=True,
        width="stretch",
        column_config=widgets.worded(
            on_screen.columns, four_decimals(("p_true", "p_predicted", "log_loss")), classes=True
        ),
    )
    st.download_button(
        t("Per-sample table as CSV"),
        lambda: multiclass.samples_csv(ds, model, k),
        file_name=f"{ds.name}.multiclass.samples.csv",
        key="mc_download_samples",
    )
