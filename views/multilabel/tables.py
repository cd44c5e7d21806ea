"""The tables of the Multilabel classification page: per label (with the averages side
by side) and per sample, each with its CSV."""

from __future__ import annotations

import streamlit as st

from explorer import downloads
from explorer.pages import multilabel
from explorer.ui import cache, widgets
from explorer.ui.language import t
from views import prose
from views.multilabel import teach
from views.multilabel.controls import Settings


def _four_places() -> dict:
    """The column_config of the score columns: up to four decimals, whole numbers as
    integers (Streamlit's own format; a fixed four-decimal one wrote 1.0000)."""
    return {
        c: st.column_config.NumberColumn()
        for c in ("precision", "recall", "F1", multilabel.FB, "jaccard")
    }


def _table_and_csv(shown, csv, what: str, file_name: str, key: str) -> None:
    """A table of scores (up to four decimals) and the button that downloads ``csv``."""
    widgets.dataframe(st, shown, hide_index=True, width="stretch", column_config=_four_places())
    st.download_button(
        t("${what} as CSV", what=t(what)), downloads.csv_text(csv), file_name=file_name, key=key
    )


def label_tables(ds, res: dict, beta: float) -> None:
    """The per-label table, the averages side by side and the notes' naming read two ways."""
    st.markdown(prose.section("multilabel", "per_label_table"))
    shown_labels, on_screen = multilabel.label_tables(res["labels"])
    st.caption(
        t(
            "F-beta with beta = ${beta}. Counts are weighted when the data has sample_weight.",
            beta=f"{beta:g}",
        )
    )
    _table_and_csv(
        on_screen,
        shown_labels,
        "Per-label table",
        f"{ds.name}.multilabel.labels.csv",
        "ml_download_labels",
    )

    st.markdown(t("**The averages side by side** (precision, recall, F1, F-beta, Jaccard)."))
    avg = res["averages"]
    avg_table = multilabel.averages_table(avg)
    _table_and_csv(
        avg_table.assign(literature=avg_table["literature"].map(t)),
        avg_table,
        "Averages",
        f"{ds.name}.multilabel.averages.csv",
        "ml_download_averages",
    )

    teach.notes_naming(avg)


def sample_table(ds, settings: Settings, res: dict) -> None:
    """The per-sample table, worst first: its top rows, every sample in the CSV."""
    n = ds.n_samples
    out = multilabel.sample_table(ds, res["worst"].head(multilabel.SHOWN_ROWS))
    st.caption(
        t("${n} samples, sorted by the number of wrong cells, then by Jaccard", n=n)
        + (
            t("; the worst ${n} shown, all in the CSV.", n=multilabel.SHOWN_ROWS)
            if n > multilabel.SHOWN_ROWS
            else t(".")
        )
    )
    widgets.dataframe(
        st,
        out,
        hide_index=True,
        width="stretch",
        column_config={
            c: st.column_config.NumberColumn()
            for c in ("hamming", "precision", "recall", multilabel.FB, "jaccard")
        },
    )

    def samples_csv() -> bytes:
        """Every sample, worst first: built when the button is clicked."""
        pred, counts = cache.multilabel.prediction(ds, *settings.setting)
        return multilabel.samples_csv(ds, pred, counts, settings.beta, settings.zd_key)

    st.download_button(
        t("Per-sample table as CSV"),
        samples_csv,
        file_name=f"{ds.name}.multilabel.samples.csv",
        key="ml_download_samples",
    )
