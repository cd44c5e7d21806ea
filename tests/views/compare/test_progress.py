"""Compare two models on a long upload: the first numbers before the intervals, a
progress line while the bootstraps run, and what each "where" row shows."""

from __future__ import annotations

import time

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer import budget
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.ui import work
from tests.conftest import metric, open_upload, rendered
from views.compare import headline
from views.compare import intervals as page_intervals

PAGE = "views/compare/compare.py"


def _upload(n: int = 400) -> Dataset:
    rng = np.random.default_rng(3)
    y = (rng.random(n) < 0.4).astype(float)
    a = np.clip(0.4 * y + 0.6 * rng.random(n), 0.01, 0.99)
    b = np.clip(0.3 * y + 0.7 * rng.random(n), 0.01, 0.99)  # noisier
    ids = tuple(f"s{i}" for i in range(n))
    return Dataset("long", "binary", y, {"a": a, "b": b}, sample_ids=ids, source="upload")


def _open(ds: Dataset, **state) -> AppTest:
    return open_upload(PAGE, ds, **state)


def test_the_intervals_come_with_a_progress_line_and_the_rows_name_their_samples(monkeypatch):
    ds = _upload()
    monkeypatch.setattr(page_intervals, "PROGRESS_FROM", 0.0)  # a progress line at any size
    reports: list[float] = []
    real = work.progress

    def watched(report):
        return real(lambda s: (reports.append(s), report(s)))

    monkeypatch.setattr(work, "progress", watched)
    at = _open(ds)
    assert not at.exception
    y, a, b = ds.y_true, ds.score("a"), ds.score("b")
    assert metric(at, "ROC AUC of A") == fmt(metrics.roc_auc_score(y, a))
    assert metric(at, "average precision of B") == fmt(metrics.average_precision_score(y, b))
    assert len(reports) > 1  # the bar moved at the checkpoints between blocks
    (status,) = at.status
    assert status.label == "Intervals: resampled"
    words = " ".join(m.value for m in at.markdown)
    assert "95% interval of b - a" in words and headline.PENDING not in words
    # each "where" row: the sample's id, label and both scores, then the placements
    placements_a = metrics.auc_placements(y, a)
    placements_b = metrics.auc_placements(y, b)
    gain = placements_b - placements_a
    for frame, worst in (
        (at.dataframe[0].value, gain.argmin()),
        (at.dataframe[1].value, gain.argmax()),
    ):
        assert list(frame.columns) == [
            "row", "sample", "label", "A score", "B score", "A", "B", "B better by"
        ]  # fmt: skip
        first = frame.iloc[0]
        assert first["sample"] == f"s{worst}" and first["label"] == int(y[worst])
        assert (first["A score"], first["B score"]) == (a[worst], b[worst])
        assert first["B better by"] == pytest.approx(gain[worst])


def test_a_spent_session_keeps_the_first_numbers_and_says_the_intervals_wait(monkeypatch):
    ds = _upload()
    monkeypatch.setattr(budget, "limits", lambda: budget.HOSTED)
    ledger = budget.Ledger(budget.HOSTED.session_per_minute)
    ledger.charge(time.monotonic(), 45.0)  # 45 s of the last minute's 30 used
    at = _open(ds, **{work.LEDGER_KEY: ledger})
    assert not at.exception
    y, a, b = ds.y_true, ds.score("a"), ds.score("b")
    # the first numbers are there: the values, the differences and DeLong's interval
    assert metric(at, "ROC AUC: B - A") == fmt(
        metrics.roc_auc_score(y, b) - metrics.roc_auc_score(y, a)
    )
    assert metric(at, "average precision of A") == fmt(metrics.average_precision_score(y, a))
    assert metric(at, "log loss of B") == fmt(metrics.log_loss(y, b))
    notice = rendered(at.info[0].value)
    assert notice.startswith("This session has used its computing time for this minute")
    assert notice.endswith("The intervals wait until then; the numbers above need none.")
    captions = [c.value for c in at.caption]
    assert captions.count(headline.PENDING) == 2  # average precision and the log loss
    assert at.dataframe  # the "where" tables need no bootstrap
