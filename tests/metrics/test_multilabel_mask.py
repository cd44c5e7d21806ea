"""The ``retrieved`` mask of the multilabel counts, averages, per-sample table and outcomes.

Oracle: a slow reference that loops over every cell: a cell not retrieved is not
predicted; a padding cell (not retrieved, not true) is skipped, so it counts in no TP,
FP, FN or TN; a label column with no other cell is no label. The scores follow from
those counts by their textbook definitions (zero_division 0).
"""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from metrics import MetricInputError

TOL = {"rtol": 0, "atol": 1e-12}


def _ragged_case(seed: int, n: int = 30, m: int = 6):
    """A multilabel case whose rows have different lengths (padding at the end), some
    unretrieved true labels among them, and a last column that is padding in every row."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=(n, m)).astype(bool)
    pred = rng.integers(0, 2, size=(n, m)).astype(bool)
    length = rng.integers(1, m, size=n)  # at most m - 1: the last column is padding
    retrieved = np.arange(m)[None, :] < length[:, None]
    y[~retrieved & (rng.random((n, m)) < 0.7)] = False  # most padding is not a label
    y[:, -1] = False
    return y, pred, retrieved


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def _slow(y, pred, retrieved, w):
    """Per-label (tp, fp, fn, tn) of the labels that exist, per-sample (tp, fp, fn,
    cells), by a loop over the cells."""
    n, m = y.shape
    labels, samples = {}, []
    for i in range(n):
        s_tp = s_fp = s_fn = cells = 0
        for j in range(m):
            t, p = bool(y[i, j]), bool(pred[i, j]) and bool(retrieved[i, j])
            if not retrieved[i, j] and not t:
                continue  # padding: no label
            cells += 1
            row = labels.setdefault(j, [0.0, 0.0, 0.0, 0.0])
            row[(0 if p else 2) if t else (1 if p else 3)] += w[i]
            s_tp += t and p
            s_fp += p and not t
            s_fn += t and not p
        samples.append((s_tp, s_fp, s_fn, cells))
    return labels, samples


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weighted", [False, True])
def test_masked_counts_equal_a_loop_over_the_real_cells(seed, weighted):
    y, pred, retrieved = _ragged_case(seed)
    n = y.shape[0]
    w = np.random.default_rng(seed + 10).uniform(0.5, 2, n) if weighted else np.ones(n)
    labels, samples = _slow(y, pred, retrieved, w)
    counts = metrics.multilabel_counts(
        y, pred, sample_weight=w if weighted else None, retrieved=retrieved
    )
    table = metrics.multilabel_label_table_from_counts(counts, zero_division=0, summary=True)
    kept = sorted(labels)
    assert kept == list(range(y.shape[1] - 1))  # the padding column is no label
    assert table["label"].tolist()[:-2] == [str(j) for j in kept]
    got = table.iloc[: len(kept)][["tp", "fp", "fn", "tn"]].to_numpy(float)
    np.testing.assert_allclose(got, [labels[j] for j in kept], **TOL)
    f1 = [_ratio(2 * tp, 2 * tp + fp + fn) for tp, fp, fn, _ in (labels[j] for j in kept)]
    a = metrics.multilabel_averages(counts, zero_division=0)
    assert a["macro"]["f1"] == pytest.approx(np.mean(f1), abs=1e-12)
    tp, fp, fn, _ = np.sum([labels[j] for j in kept], axis=0)
    assert a["micro"]["precision"] == pytest.approx(_ratio(tp, tp + fp), abs=1e-12)
    wrong = np.array([s[1] + s[2] for s in samples], float)
    cells = np.array([s[3] for s in samples], float)
    assert a["hamming_loss"] == pytest.approx(np.dot(wrong, w) / np.dot(cells, w), abs=1e-12)
    rec = [_ratio(s[0], s[0] + s[2]) for s in samples]
    assert a["samples"]["recall"] == pytest.approx(np.average(rec, weights=w), abs=1e-12)
    per = metrics.multilabel_per_sample(y, pred, zero_division=0, retrieved=retrieved)
    np.testing.assert_allclose(per["hamming"], wrong / cells, **TOL)
    assert per["fp"].tolist() == [s[1] for s in samples]


def test_masked_outcomes_name_padding_blank_and_unretrieved_labels_missed():
    y, pred, retrieved = _ragged_case(3, n=12)
    got = metrics.multilabel_outcomes(y, pred, retrieved=retrieved)
    for i, j in np.ndindex(y.shape):
        if not retrieved[i, j]:
            assert got[i, j] == ("FN" if y[i, j] else "")
        else:
            want = {(1, 1): "TP", (0, 1): "FP", (1, 0): "FN", (0, 0): "TN"}
            assert got[i, j] == want[int(y[i, j]), int(pred[i, j])]


def test_every_cell_retrieved_changes_nothing():
    y, pred, _ = _ragged_case(4)
    full = np.ones(y.shape, bool)
    plain = metrics.multilabel_averages(metrics.multilabel_counts(y, pred), zero_division=0)
    masked = metrics.multilabel_counts(y, pred, retrieved=full)
    assert metrics.multilabel_averages(masked, zero_division=0) == plain


def test_a_mask_of_another_shape_is_refused_by_name():
    y, pred, retrieved = _ragged_case(5)
    with pytest.raises(MetricInputError, match="retrieved"):
        metrics.multilabel_counts(y, pred, retrieved=retrieved[:, 1:])
    with pytest.raises(MetricInputError, match="retrieved.*2"):
        metrics.multilabel_per_sample(y, pred, retrieved=np.where(retrieved, 2, 0))
