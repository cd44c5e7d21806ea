"""The controls of the Label ranking page above the drill-down: the model, the order of
the samples (worst first by which metric) and the page of that order shown, each bound
to the address (``?model=``, ``sort``, ``page``). The drill-down's own controls (the
sample, the tie rule, the what-if edit) are in :mod:`views.label_ranking.drill`."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from explorer.pages.label_ranking import SORT_LABELS
from explorer.ui import bound, language, url
from explorer.ui.language import t


@dataclass(frozen=True)
class Settings:
    """The model, the metric the samples are sorted by (worst first) and the page of
    :data:`explorer.ui.bound.PAGE_ROWS` samples shown (1 = the worst)."""

    model: str
    sort_by: str
    page_no: int = 1
    n_pages: int = 1

    @property
    def metric(self) -> str:
        """The sort's metric as the page names it."""
        return t(SORT_LABELS[self.sort_by])

    def page_of(self, order: pd.DataFrame) -> pd.DataFrame:
        """The rows of ``order`` (every sample, worst first) on the page shown."""
        start = (self.page_no - 1) * bound.PAGE_ROWS
        return order.iloc[start : start + bound.PAGE_ROWS]


def show(ds, table: bool = True) -> Settings:
    """Draw the model, sort and page controls in one row and return what they chose;
    the model alone when the per-sample table is not computed (``table`` False)."""
    models = list(ds.model_names)
    c_model, c_sort, c_page = st.columns(3)
    model = models[0]
    if len(models) > 1:
        model = bound.selectbox(c_model, t("Model"), models, key="lr_model", param="model")
    if not table:  # nothing to sort or page through
        return Settings(model, next(iter(SORT_LABELS)))
    sort_by = bound.selectbox(
        c_sort,
        t("Sort samples by (worst first)"),
        list(SORT_LABELS),
        key="lr_sort_by",
        param="sort",
        format_func=language.options(SORT_LABELS),
        help=t("Worst = moves that metric's mean the most in the wrong direction."),
    )
    n_pages = -(-ds.n_samples // bound.PAGE_ROWS)
    page_no = 1
    if n_pages > 1:  # a page number in the link (?page=), not bound.window's session row
        page_no = bound.number(
            c_page,
            t("Page of ${n} samples (1 = worst)", n=bound.PAGE_ROWS),
            key="lr_rank_page",
            param="page",
            default=1,
            check=url.int_in(1, n_pages, clamp=False),
            parse=int,
            min_value=1,
            max_value=n_pages,
            step=1,
        )
    return Settings(model, sort_by, int(page_no), n_pages)
