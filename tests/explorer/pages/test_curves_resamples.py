"""The rates at a threshold on blocks of resamples against ``metrics.rates_at_threshold``
on each resample's rows (the slow reference), and the page's intervals against one call
a resample."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import metrics
from explorer import intervals
from explorer.pages.curves import RATE_LABELS
from explorer.pages.curves_resamples import rates_resamples
from explorer.samples import load_sample
from tests.conftest import weights
from tests.explorer.pages.same_intervals import assert_same_intervals


@pytest.mark.parametrize("beta", [0.0, 0.5, 2.0, np.inf])
@pytest.mark.parametrize(
    ("seed", "n", "threshold"), [(0, 1, 0.5), (1, 6, 0.5), (2, 40, 0.0), (3, 40, 1.1)]
)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_each_resample_has_the_rates_of_its_rows(seed, n, threshold, beta, weighted):
    rng = np.random.default_rng(seed)
    y, s = (rng.random(n) < 0.4).astype(int), np.round(rng.random(n), 1)  # ties at the cut
    w = weights(seed, n) if weighted else None
    rows = rng.integers(0, n, size=(120, n))
    got = rates_resamples(y, s, threshold, beta, w, rows=rows)
    for r, drawn in enumerate(rows):
        one = metrics.rates_at_threshold(
            y[drawn], s[drawn], threshold, beta=beta, sample_weight=None if w is None else w[drawn]
        )
        for key, values in got.items():
            assert values[r] == pytest.approx(one[key], rel=1e-12, abs=1e-15), (key, r)


def _one_call_a_resample(ds, model, threshold, beta):
    """The intervals as the page had them: log loss through its metric on every resample,
    the rates through ``rates_at_threshold`` on every resample (``joint_intervals``)."""
    y, s, w = ds.y_true, ds.score(model), ds.sample_weight

    def log_loss(y, s, sample_weight=None):
        return metrics.log_loss(y, s, sample_weight=sample_weight, labels=[0, 1])

    def rates(y, s, sample_weight=None):
        at = metrics.rates_at_threshold(y, s, threshold, beta=beta, sample_weight=sample_weight)
        return {label: at[key] for label, key in RATE_LABELS.items()}

    out = {"Log loss": intervals.metric_interval(log_loss, y.astype(int), s, weights=w)}
    return {**out, **intervals.joint_intervals(rates, y, s, weights=w)}


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_the_pages_intervals_are_those_of_one_call_a_resample(weighted):
    ds = load_sample("imbalanced")
    if weighted:
        ds = dataclasses.replace(ds, sample_weight=weights(3, ds.n_samples))
    model = ds.model_names[0]
    got = intervals.curves_headlines(ds, model, 0.3, beta=2.0)
    want = _one_call_a_resample(ds, model, 0.3, 2.0)
    assert list(got) == ["ROC AUC", "Average precision", *want]
    assert_same_intervals(got, want)
