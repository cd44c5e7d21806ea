"""Label ranking over the computing budget: the exact means, and a sentence for the rest."""

from __future__ import annotations

import time

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics.explain.label_ranking as explain_lr
from explorer import budget
from explorer.datasets import Dataset
from explorer.ui import work
from tests.conftest import APP, metric, rendered
from tests.views.label_ranking.helpers import PAGE, assert_headline, table

N, M = 3_000, 20  # with a hosted limit set just under this size's estimate


def test_over_the_limit_the_means_show_and_a_sentence_says_what_is_left_out(monkeypatch):
    rng = np.random.default_rng(5)
    y = (rng.random((N, M)) < 0.2).astype(int)
    s = np.round(rng.random((N, M)), 2)
    ds = Dataset("big", "multilabel", y, {"model": s}, source="upload")
    just_under = budget.label_ranking_seconds(N, M) * 0.99
    monkeypatch.setattr(budget, "limits", lambda: budget.HOSTED._replace(per_run=just_under))
    at = AppTest.from_file(APP, default_timeout=30)  # the app: it ends a stopped page
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.switch_page(PAGE).run()
    assert not at.exception
    assert_headline(at, y, s)
    seconds = budget.label_ranking_seconds(N, M)
    notice = rendered(at.info[0].value)
    assert notice.startswith(
        f"The per-sample table of 3,000 samples x 20 labels would take about {seconds:,.0f} s "
        f"of computing; this server offers {just_under:g} s, so the per-sample table"
    )
    assert "exact, over all 3,000 samples" in notice
    assert not at.dataframe  # no table computed, none shown
    assert not at.main.selectbox and not at.main.number_input  # no order or page of a table
    assert metric(at, "LRAP")


def test_under_the_limit_the_table_runs_in_groups_with_checkpoints(monkeypatch):
    rng = np.random.default_rng(6)
    y = (rng.random((600, 10)) < 0.3).astype(int)
    ds = Dataset("small", "multilabel", y, {"model": rng.random((600, 10))}, source="upload")
    monkeypatch.setattr(explain_lr, "CHECKPOINT_CELLS", 1_000)  # 100 rows a group: 6 groups
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    before = work.CHECKPOINTS[0]
    at.switch_page(PAGE).run()
    assert not at.exception and not at.info
    # one before each of coverage, LRAP and loss, six groups of the table, six of the tie rules
    assert work.CHECKPOINTS[0] - before == 15
    assert len(table(at, "LRAP")) == 200  # the worst-first table's first page


def test_a_session_that_spent_its_minute_gets_a_notice_not_a_traceback(monkeypatch):
    ds = Dataset("tiny", "multilabel", np.eye(3, dtype=int), {"m": np.eye(3)}, source="upload")
    monkeypatch.setattr(budget, "limits", lambda: budget.HOSTED)
    ledger = budget.Ledger(budget.HOSTED.session_per_minute)
    ledger.charge(time.monotonic(), 45.0)  # 45 s of the last minute's 30 used
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.session_state[work.LEDGER_KEY] = ledger
    at.switch_page(PAGE).run()
    assert not at.exception and not at.main.metric
    notice = rendered(at.info[0].value)
    assert notice.startswith("This session has used its computing time for this minute")
    assert notice.endswith("The Label ranking page waits meanwhile.")
