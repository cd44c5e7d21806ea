"""The Multilabel headline on blocks of resamples against ``metrics.multilabel_counts``
and ``multilabel_averages`` on each resample's rows (the slow reference)."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

import metrics
from explorer import intervals
from explorer.intervals import MULTILABEL_HEADLINE
from explorer.pages import multilabel
from explorer.pages.multilabel_resamples import KEYS, headline_resamples
from explorer.samples import load_sample
from tests.conftest import weights
from tests.explorer.pages.same_intervals import assert_same_intervals


def _numbers(y, pred, w, zd, ragged) -> list[float]:
    """The five numbers of one set of rows, as the page had them."""
    counts = metrics.multilabel_counts(
        y, pred > 0, sample_weight=w, retrieved=pred >= 0 if ragged else None
    )
    averages = metrics.multilabel_averages(counts, zero_division=zd)
    return [
        averages[key] if avg is None else averages[avg][key] for _, avg, key in MULTILABEL_HEADLINE
    ]


def _one_by_one(y, pred, w, zd, ragged, rows) -> dict[str, np.ndarray]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = [_numbers(y[r], pred[r], None if w is None else w[r], zd, ragged) for r in rows]
    return dict(zip(KEYS, np.array(values, dtype=np.float64).T, strict=True))


def _data(seed: int, n: int, L: int, ragged: bool):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, L)) < 0.3).astype(np.int8)
    pred = (rng.random((n, L)) < 0.4).astype(np.int8)
    if ragged:  # as the page codes them: a slot never retrieved and not true is -1
        pred[(rng.random((n, L)) < 0.3) & (y == 0)] = -1
        y[:, -1], pred[:, -1] = 0, -1  # a column of padding but for one true row
        y[0, -1], pred[0, -1] = 1, 1
    return y, pred


@pytest.mark.parametrize("zd", [0.0, 1.0, np.nan], ids=["zd0", "zd1", "zdnan"])
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize(
    ("seed", "n", "L", "ragged"),
    [(0, 5, 3, False), (1, 40, 6, False), (2, 12, 4, True), (3, 60, 5, True)],
)
def test_each_resample_has_the_numbers_of_its_rows(seed, n, L, ragged, weighted, zd):
    y, pred = _data(seed, n, L, ragged)
    w = weights(seed, n) if weighted else None
    rows = np.random.default_rng(seed + 7).integers(0, n, size=(150, n))
    got = headline_resamples(y, pred, w, zero_division=zd, ragged=ragged, rows=rows)
    want = _one_by_one(y, pred, w, zd, ragged, rows)
    for key in KEYS:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-12, atol=1e-15, err_msg=key)
    if ragged and not weighted and not np.isnan(zd):  # a resample without row 0: one label fewer
        assert not np.array_equal(
            got["macro_f1"],
            headline_resamples(y, pred, w, zero_division=zd, ragged=False, rows=rows)["macro_f1"],
        )


def _one_call_a_resample(ds, pred, zd_key):
    """The intervals as the page had them: the five numbers on every resample by one
    call of ``multilabel_counts`` and ``multilabel_averages`` (``joint_intervals``)."""
    zd = multilabel.ZD_VALUE[zd_key]

    def numbers(y_true, y_pred, sample_weight=None):
        values = _numbers(y_true, y_pred, sample_weight, zd, False)
        return dict(zip([label for label, _, _ in MULTILABEL_HEADLINE], values, strict=True))

    return intervals.joint_intervals(numbers, ds.y_true, pred, weights=ds.sample_weight)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_the_pages_intervals_are_those_of_one_call_a_resample(weighted):
    ds = load_sample("digit_properties")
    if weighted:
        ds = dataclasses.replace(ds, sample_weight=weights(5, ds.n_samples))
    pred, _ = multilabel.prediction(ds, ds.model_names[0], "threshold", 0.5, (), None)
    got = intervals.multilabel(ds, pred, "nan")
    want = _one_call_a_resample(ds, pred.astype(np.int8), "nan")
    assert_same_intervals(got, want)
