"""Every sample of the Label ranking page, worst first: the contributions chart, the
per-sample table and the rank table of the page of samples shown, each with its CSV of
every sample."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from explorer import downloads
from explorer.charts import ranking as charts
from explorer.pages import label_ranking, label_ranking_ranks
from explorer.ui import bound, language, widgets
from explorer.ui.language import t
from views import prose
from views.label_ranking.controls import Settings
from views.label_ranking.drill import Shown
from views.label_ranking.headline import TABLE_ANCHOR

RANK_ROWS = 50  # rows of the colored rank table (every cell is styled: the costly part)


def contributions_chart(ds, settings: Settings, shown: Shown, rows: pd.DataFrame) -> frozenset:
    """The bars of the page's samples (``rows`` of the worst-first order), the opened
    one highlighted; returns the samples drawn."""
    ids, n = list(ds.sample_ids), ds.n_samples
    samples = rows["sample"].tolist()
    scales = label_ranking.effect_scales(shown.res.contrib)  # ×10⁻ⁿ units at thousands
    widgets.plotly_chart(
        st,
        charts.contributions_figure(
            rows,
            settings.sort_by,
            [ids[s] for s in samples],
            selected=shown.i,
            metric_name=settings.metric,
            scale=scales[settings.sort_by],
            lang=language.current(),
        ),
        key="lr_contrib_chart",
    )
    shown_text = t("the worst ${n}", n=len(rows)) if n > bound.PAGE_ROWS else t("all ${n}", n=n)
    st.caption(
        prose.fill(
            "label_ranking",
            "contributions-chart",
            shown=shown_text,
            n=n,
            page_no=settings.page_no,
            n_pages=settings.n_pages,
            metric=settings.metric,
        )
    )
    return frozenset(samples)


def contributions_table(ds, settings: Settings, shown: Shown, order: pd.DataFrame) -> None:
    """The per-sample breakdown of the page's samples; a click on a row opens it in the
    drill-down; every sample in the CSV."""
    ids, contrib = list(ds.sample_ids), shown.res.contrib
    rows = settings.page_of(order)
    scales = label_ranking.effect_scales(contrib)
    st.header(t("Every sample's contribution"), anchor=TABLE_ANCHOR)
    table = label_ranking.contributions_table(rows, ids, scales)
    numeric = [c for c in table.columns if "moves" in c or c in ("LRAP", "ranking loss")]
    table = table.assign(note=table["note"].map(lambda v: t(v) if v else v))
    table = table.rename(columns=_column)
    num = st.column_config.NumberColumn()
    widgets.dataframe(
        st,
        table,
        hide_index=True,
        key="lr_contrib_table",
        on_select=partial(open_from_table, rows["sample"].tolist()),
        keyboard='the "Sample" box',
        selection_mode="single-row",
        column_config={_column(c): num for c in numeric},
    )
    st.caption(_contributions_caption(ds.n_samples, len(table), settings, scales))
    st.download_button(
        t("Download all samples (CSV)"),
        lambda: downloads.csv_text(label_ranking.all_contributions(contrib, order, ids)),
        file_name=f"label_ranking_contributions_{settings.model}.csv",
        mime="text/csv",
        key="lr_contrib_csv",
        on_click="ignore",
    )


def _column(name: str) -> str:
    """A column of the per-sample table in the page's language, its unit (``×10⁻⁴``) kept."""
    words, times, unit = name.partition(" ×")
    return t(words) + times + unit


def _contributions_caption(n: int, n_shown: int, settings: Settings, scales: dict) -> str:
    page = settings.n_pages > 1
    return (
        t(
            "Worst first by ${metric}; ${shown} of ${n} samples shown",
            metric=settings.metric,
            shown=n_shown,
            n=n,
        )
        + (
            t(" (page ${page} of ${pages})", page=settings.page_no, pages=settings.n_pages)
            if page
            else ""
        )
        + t(
            ". Click a row to open it above. *moves mean* = the mean over all samples minus "
            "the mean without this one"
        )
        + "".join(
            t(
                "; **${unit}** in a column name: the change in the mean in units of ${power} "
                "(-3.7 there is a change of ${example})",
                unit=u,
                power=u[1:],
                example=f"{-3.7 / f:.3g}",
            )
            for f, u in sorted(set(scales.values()))
            if u
        )
        + t(".")
    )


def open_from_table(samples: list[int]) -> None:
    """Open the sample of the clicked row of the per-sample table in the drill-down."""
    rows = st.session_state["lr_contrib_table"]["selection"]["rows"]
    if rows:
        st.session_state["lr_sample"] = samples[rows[0]]


def rank_table(ds, settings: Settings, shown: Shown, rows: pd.DataFrame) -> None:
    """Every label's rank in the first :data:`RANK_ROWS` samples of the page (the
    what-if scores in place of the opened sample's); every sample in the CSV. Rows with
    their own items (a run, query groups) list those items by id instead of label columns."""
    ids, n = list(ds.sample_ids), ds.n_samples
    page_samples = rows["sample"].tolist()
    rank_samples = page_samples[:RANK_ROWS]
    st.header(t("The rank table"))
    index = [f"{s} ({ids[s]})" if ids[s] != str(s) else str(s) for s in rank_samples]
    draw = _ranked_items if _by_item(ds) else _label_ranks
    styler, section, csv = draw(ds, settings, shown, rank_samples, index)
    widgets.dataframe(st, styler, key="lr_rank_table")
    st.caption(
        prose.fill(
            "label_ranking",
            section,
            true_mark=charts.TRUE_MARK,
            tie_mark=charts.TIE_MARK,
            n_rows=len(rank_samples),
            n=n,
            metric=settings.metric,
        )
        + (
            t(
                " (the first ${n} of the ${m} on this page; the download holds every sample).",
                n=len(rank_samples),
                m=len(page_samples),
            )
            if len(rank_samples) < len(page_samples)
            else t(".")
        )
    )
    st.download_button(
        t("Download the rank table (CSV)"),
        csv,
        file_name=f"label_ranks_{settings.model}.csv",
        mime="text/csv",
        key="lr_ranks_csv",
        on_click="ignore",
    )


def _by_item(ds) -> bool:
    """Whether each row has its own items (a run, query groups): no shared label columns."""
    return ds.retrieved is not None or ds.item_ids is not None


def _label_ranks(ds, settings: Settings, shown: Shown, rank_samples: list, index: list):
    """The rank table by label column: its styler, caption section and CSV maker."""
    scores, n = ds.score(settings.model), ds.n_samples
    ranks = label_ranking_ranks.rank_table(scores, rank_samples, shown.i, shown.edit)
    styler = charts.rank_table_styler(
        ranks.rank, ds.y_true[rank_samples], ranks.tie_size, index, list(ds.label_names)
    )

    def csv() -> str:
        every = label_ranking_ranks.scores_of(scores, np.arange(n), shown.i, shown.edit)
        frame = label_ranking_ranks.rank_frame(every, ds.y_true, ds.sample_ids, ds.label_names)
        return downloads.csv_text(frame)

    return styler, "rank-table", csv


def _ranked_items(ds, settings: Settings, shown: Shown, rank_samples: list, index: list):
    """The rank table of rows with their own items: each row's items best first, by id,
    its padding slots left out (the CSV: one line per sample and item)."""
    scores, n = ds.score(settings.model), ds.n_samples
    items = label_ranking_ranks.ranked_items(
        ds, label_ranking_ranks.scores_of(scores, rank_samples, shown.i, shown.edit), rank_samples
    )
    styler = charts.ranked_items_styler(items.ids, items.rank, items.is_true, items.tie_size, index)

    def csv() -> str:
        every = np.arange(n)
        shown_scores = label_ranking_ranks.scores_of(scores, every, shown.i, shown.edit)
        every_item = label_ranking_ranks.ranked_items(ds, shown_scores, every)
        return downloads.csv_text(label_ranking_ranks.ranked_frame(every_item, ds.sample_ids))

    return styler, "rank-table-items", csv
