"""Helpers of the DCG & NDCG page's AppTest tests: open the page, a tab, read its tables
and texts."""

from __future__ import annotations

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

import metrics
from explorer.registry import script
from tests import conftest
from tests.conftest import APP
from views.dcg.panel import TAB_KEY

PAGE = script("dcg")


def open_page(sample: str) -> AppTest:
    return conftest.open_page(PAGE, sample)


def open_tab(at, tab: str) -> AppTest:
    """Open the panel's tab ``tab`` (only the open tab is drawn) and rerun."""
    at.session_state[TAB_KEY] = tab
    at.run()
    assert not at.exception
    return at


def steps_table(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "running sum" in d.value.columns)


def all_text(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [m.value for m in at.metric] + [str(x.value) for x in at.latex]
    return "\n".join(parts)


def open_graded(n: int, m: int):
    """The page on a session dataset of ``n`` x ``m`` tied graded scores (bench.data):
    its labels, scores and the AppTest, the row picker patched for a big dataset."""
    from bench.app_timing import _patch_picker
    from bench.data import make_graded
    from explorer.datasets import Dataset

    d = make_graded(n, m, ties=True)
    ds = Dataset(d.name, "graded", d.y_true, scores={"model": d.y_score})
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    _patch_picker(at, ds.name)
    at.switch_page(PAGE).run()
    assert not at.exception
    return d.y_true, d.y_score, at


def worst_row(y, s) -> int:
    dcg, ndcg = metrics.dcg_per_sample(y, s), metrics.ndcg_per_sample(y, s)
    no_relevant = metrics.dcg_per_sample(y, y) == 0
    return int(np.lexsort((np.arange(len(y)), dcg, ndcg, no_relevant))[0])
