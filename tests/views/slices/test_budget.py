"""The Slices page on the session's computing budget: its resamples stop at checkpoints,
and a session that spent its minute gets a sentence, never a traceback."""

from __future__ import annotations

import time

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score
from streamlit.testing.v1 import AppTest

import metrics.slices as metric_slices
from explorer import budget
from explorer.datasets import Dataset
from explorer.registry import script
from explorer.ui import work
from tests.conftest import open_upload, rendered

PAGE = script("slices")


def _upload(n: int = 3_000, seed: int = 8) -> Dataset:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    site = np.array([f"s{i:02d}" for i in range(20)], dtype=object)[rng.integers(0, 20, n)]
    score = y + rng.normal(size=n)
    return Dataset("sites", "binary", y, {"m": score}, source="upload", attributes={"site": site})


def _opened(ds: Dataset, **state) -> AppTest:
    at = open_upload(PAGE, ds, **state)
    assert not at.exception
    return at


def test_the_groups_resamples_pass_checkpoints_and_show_each_groups_auc(monkeypatch):
    ds = _upload()
    monkeypatch.setattr(metric_slices, "GROUPS_PER_STEP", 4)  # 20 groups: 5 steps
    before = work.CHECKPOINTS[0]
    at = _opened(ds)
    # 5 steps of the frame's resamples, and one per grouping searched (site alone)
    assert work.CHECKPOINTS[0] - before >= 6
    groups = at.dataframe[0].value.set_index("group")
    site, y, s = ds.attribute("site"), ds.y_true, ds.scores["m"]
    for label in ("s00", "s07", "s19"):
        rows = site == label
        assert groups.loc[label, "ROC AUC"] == pytest.approx(
            roc_auc_score(y[rows], s[rows]), abs=1e-12
        )


def test_a_session_that_spent_its_minute_gets_a_notice_not_a_traceback(monkeypatch):
    monkeypatch.setattr(budget, "limits", lambda: budget.HOSTED)
    ledger = budget.Ledger(budget.HOSTED.session_per_minute)
    ledger.charge(time.monotonic(), 45.0)  # 45 s of the last minute's 30 used
    at = _opened(_upload(seed=9), **{work.LEDGER_KEY: ledger})
    notices = [rendered(i.value) for i in at.info]
    assert notices and notices[0].startswith(
        "This session has used its computing time for this minute"
    )
    assert notices[0].endswith("The Slices page waits meanwhile.")
    assert not at.dataframe  # no frame: no interval, no test
    # the values cost no resample: the headline shows them, as metrics computes them
    ds = _upload(seed=9)
    assert at.main.metric[0].value == f"{roc_auc_score(ds.y_true, ds.scores['m']):.4f}"


def test_a_long_frame_reports_its_progress_at_each_checkpoint_and_leaves_no_bar(monkeypatch):
    from views.slices import panel

    monkeypatch.setattr(panel, "PROGRESS_FROM", 0.0)  # this small frame counts as long
    monkeypatch.setattr(metric_slices, "GROUPS_PER_STEP", 4)
    reported, real = [], work.bar_report

    def recorded(bar, estimate):
        report = real(bar, estimate)
        return lambda seconds: reported.append(seconds) or report(seconds)

    monkeypatch.setattr(work, "bar_report", recorded)
    at = _opened(_upload(seed=10))
    assert len(reported) >= 5 and reported == sorted(reported)  # 20 groups, 4 a step
    assert not at.main.get("progress")  # the line is gone once the frame is drawn
    # the groups' values drawn meanwhile gave way to the frame's table, intervals in
    assert at.dataframe[0].value["rows"].sum() == 3_000
    assert "95% low" in at.dataframe[0].value.columns
    assert not [c for c in at.caption if "follow once its" in c.value]


def test_each_groups_value_shows_while_its_resamples_run_and_stays_when_they_stop(monkeypatch):
    from views.slices import panel

    monkeypatch.setattr(panel, "PROGRESS_FROM", 0.0)  # this small frame counts as long
    monkeypatch.setattr(metric_slices, "GROUPS_PER_STEP", 4)
    calls, real = [], work.checkpoint

    def stopped_at_the_third():
        calls.append(1)
        real()
        if len(calls) == 3:
            raise work.Spent(20.0)  # the session's minute spent in the middle of the frame

    monkeypatch.setattr(work, "checkpoint", stopped_at_the_third)
    ds = _upload(seed=12)
    at = _opened(ds)
    notices = [rendered(i.value) for i in at.info]
    assert notices and notices[0].endswith("The Slices page waits meanwhile.")
    assert len(at.dataframe) == 1 and not at.main.get("progress")
    table = at.dataframe[0].value.set_index("group")
    assert list(table.columns) == ["rows", "ROC AUC", "− overall", "rest"]  # no interval yet
    site, y, s = ds.attribute("site"), ds.y_true, ds.scores["m"]
    for label in ("s00", "s07", "s19"):
        rows = site == label
        assert table.loc[label, "ROC AUC"] == pytest.approx(
            roc_auc_score(y[rows], s[rows]), abs=1e-12
        )
        assert table.loc[label, "rest"] == pytest.approx(
            roc_auc_score(y[~rows], s[~rows]), abs=1e-12
        )
    captions = [c.value for c in at.caption]
    assert "Each group's interval and test follow once its 1,000 resamples are drawn." in captions


def test_a_long_search_says_how_long_it_has_run_and_leaves_no_line(monkeypatch):
    from views.slices import panel

    monkeypatch.setattr(panel, "PROGRESS_FROM", 0.0)  # this small search counts as long
    monkeypatch.setattr(work, "REDRAW_SECONDS", 0.0)  # every checkpoint writes its line
    written, real = [], work.elapsed_report

    def recorded(where, words):
        report = real(where, words)
        return lambda seconds: written.append(seconds) or report(seconds)

    monkeypatch.setattr(work, "elapsed_report", recorded)
    ds = _upload(seed=11)
    at = _opened(ds)
    assert len(written) >= 1 and written == sorted(written)  # the search's one grouping
    captions = [c.value for c in at.caption]
    assert not any(c.startswith("Searching every attribute") for c in captions)
    assert at.dataframe[1].value["rows"].min() >= 30  # the worst slices, drawn


def test_moves_in_a_row_with_every_frame_long_end_on_the_frames_numbers(monkeypatch):
    """Every frame counted as long: each move draws the values first, then the frame in
    their place; metric, attribute, a pair, a threshold step and a group's own threshold
    in a row end each on one groups' table with its intervals, equal to metrics."""
    from views.slices import panel

    monkeypatch.setattr(panel, "PROGRESS_FROM", 0.0)
    rng = np.random.default_rng(113)  # not the labels' generator: shifts apart from them
    one = _upload(seed=13)
    shifts = np.array(["day", "night"], dtype=object)[rng.integers(0, 2, 3_000)]
    ds = Dataset(
        "sites", "binary", one.y_true, one.scores, source="upload",
        attributes={"site": one.attribute("site"), "shift": shifts},
    )  # fmt: skip
    at = _opened(ds)
    shift, y, s = ds.attribute("shift"), ds.y_true, ds.scores["m"]
    moves = [
        lambda: at.selectbox(key="sl_metric").set_value("Recall (TPR) at the threshold"),
        lambda: at.selectbox(key="sl_by").set_value("shift"),
        lambda: at.selectbox(key="sl_by2").set_value("site"),
        lambda: at.number_input(key="sl_t").increment(),
        lambda: at.selectbox(key="sl_metric").set_value("ROC AUC"),
        lambda: at.selectbox(key="sl_by2").set_value("(none)"),
        lambda: at.number_input(key="sl_gt").set_value(0.3),
    ]
    for move in moves:
        move().run()
        assert not at.exception
        tables = [d.value for d in at.dataframe if {"group", "rows"} <= set(d.value.columns)]
        assert len(tables) == 1  # the frame's table in place of the values', not beside it
        assert "95% low" in tables[0].columns
        assert not [c for c in at.caption if "follow once its" in c.value]
    groups = tables[0].set_index("group")
    for label in ("day", "night"):
        rows = shift == label
        assert groups.loc[label, "ROC AUC"] == pytest.approx(
            roc_auc_score(y[rows], s[rows]), abs=1e-12
        )
    # the group's own threshold reached its rates
    rates = next(d.value for d in at.dataframe if "threshold" in d.value.columns)
    picked = at.selectbox(key="sl_group").value
    assert rates.set_index("group").loc[picked, "threshold"] == 0.3


def test_a_frame_refused_after_its_values_leaves_a_sentence_not_a_traceback(monkeypatch):
    import metrics
    from explorer.pages import slices

    real = slices.frame

    def refused(ds, settings, g=None, checkpoint=budget.no_checkpoint, resampled=True):
        if resampled:
            raise metrics.MetricInputError("y_true has one class in a resample.")
        return real(ds, settings, g, checkpoint, resampled)

    monkeypatch.setattr(slices, "frame", refused)
    at = _opened(_upload(seed=14))
    assert not at.exception
    said = [rendered(w.value) for w in (*at.warning, *at.info, *at.error)]
    assert any("y_true has one class in a resample." in text for text in said), said
    assert at.main.metric[0].label == "ROC AUC, all rows"  # the values stay
