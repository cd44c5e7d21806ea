"""The Multiclass headline on blocks of resamples against the page's own numbers,
computed one resample at a time (the slow reference: ``headline_numbers``)."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from explorer import intervals
from explorer.pages import multiclass
from explorer.pages.multiclass_resamples import headline_resamples
from explorer.samples import load_sample
from tests.conftest import weights
from tests.explorer.pages.same_intervals import assert_same_intervals


def _one_by_one(y, s, w, k, rows) -> dict[str, np.ndarray]:
    out: dict[str, list] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for drawn in rows:
            one = multiclass.headline_numbers(
                y[drawn], s[drawn], None if w is None else w[drawn], k=k
            )
            for key, value in one.items():
                out.setdefault(key, []).append(np.nan if value is None else value)
    return {key: np.array(values) for key, values in out.items()}


def _data(seed: int, n: int, K: int, kind: str):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, K, n)
    if kind == "logits":  # not probabilities: no log loss on any resample
        s = rng.normal(size=(n, K))
    else:  # probabilities rounded to tenths: ties in every class's column
        s = np.round(rng.dirichlet(np.ones(K), n), 1)
        s = s / s.sum(axis=1, keepdims=True)
        if kind == "one bad row":  # a resample that draws it has no log loss
            s[n // 2] *= 0.5
    return np.eye(K)[t], s


CASES = [
    (0, 6, 4, "probabilities"),  # few rows: resamples miss classes, one class only
    (1, 40, 5, "probabilities"),
    (2, 25, 3, "one bad row"),
    (3, 300, 6, "logits"),
]


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize(("seed", "n", "K", "kind"), CASES)
def test_each_resample_has_the_numbers_of_its_rows(seed, n, K, kind, weighted):
    y, s = _data(seed, n, K, kind)
    w = weights(seed, n) if weighted else None
    rows = np.random.default_rng(seed + 7).integers(0, n, size=(150, n))
    got = headline_resamples(y, s, w, k=2, rows=rows)
    want = _one_by_one(y, s, w, 2, rows)
    _assert_equal(got, want)
    # the cases reach the edges the page says in words
    if kind == "one bad row":
        assert np.isnan(got["log_loss"]).any() and not np.isnan(got["log_loss"]).all()
    if kind == "logits":
        assert np.isnan(got["log_loss"]).all()


def _assert_equal(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-12, atol=1e-15, err_msg=key)


def test_a_class_drawn_only_with_weight_0_still_counts_in_macro_f1():
    # macro F1 averages the classes present as labels (np.union1d), whatever their weight
    y, s = _data(9, 30, 4, "probabilities")
    w = weights(9, 30)
    w[y[:, 0] == 1] = 0.0
    rows = np.random.default_rng(9).integers(0, 30, size=(150, 30))
    got = headline_resamples(y, s, w, k=1, rows=rows)
    _assert_equal(got, _one_by_one(y, s, w, 1, rows))


def _one_call_a_resample(ds, model, k):
    """The intervals as the page had them: every number on every resample by one call
    of ``headline_numbers`` (``intervals.joint_intervals``)."""
    labels = {key: label.format(k=k) for key, label in multiclass.HEADLINE.items()}

    def numbers(y_true, y_score, sample_weight=None):
        got = multiclass.headline_numbers(y_true, y_score, sample_weight, k=k)
        return {labels[key]: got[key] for key in labels}

    return intervals.joint_intervals(numbers, ds.y_true, ds.score(model), weights=ds.sample_weight)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_the_pages_intervals_are_those_of_one_call_a_resample(weighted):
    ds = load_sample("iris")
    if weighted:
        ds = dataclasses.replace(ds, sample_weight=weights(5, ds.n_samples))
    model = ds.model_names[0]
    got = intervals.multiclass(ds, model, 2)
    want = _one_call_a_resample(ds, model, 2)
    assert_same_intervals(got, want)
