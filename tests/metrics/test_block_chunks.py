"""The binary state's metrics read its table a chunk at a time: the same floats as whole arrays.

Each reference below is the whole-array computation the chunked kernels
replaced; the chunk is cut to a few rows so a table of a few hundred rows
crosses many chunk boundaries (ties, weights, empty chunks of one class).
"""

from __future__ import annotations

import numpy as np
import pytest

import metrics as M
from metrics import _block_chunks
from metrics.operating_point import rate
from metrics.states import BinaryState

EPS = float(np.finfo(np.float64).eps)


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    monkeypatch.setattr(_block_chunks, "CHUNK", 7)


def make_state(weighted: bool, seed: int = 0, n: int = 900) -> tuple:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.random(n) * 0.6 + 0.4 * y, 2 if seed % 2 else 4)  # ties, or few
    w = rng.integers(0, 4, n) * 0.37 if weighted else None
    return BinaryState.from_chunk(y, s, w), (y, s, w)


def whole_blocks(state: BinaryState):
    p, n, s = state.positive[::-1], state.negative[::-1], state.scores[::-1]
    return np.cumsum(n), np.cumsum(p), s


def ref_gain(fps, tps):
    total = float(fps[-1]) + float(tps[-1])
    x = np.concatenate(([0.0], (fps + tps) / total))
    return x, np.concatenate(([0.0], tps / tps[-1]))


def ref_ks(fps, tps, thr):
    d = np.abs(tps / tps[-1] - fps / fps[-1])
    i = int(np.argmax(d))
    return float(d[i]), float(thr[i])


def ref_net_benefit(fps, tps, thr, pt):
    k = np.count_nonzero(thr >= pt)
    tp, fp = (float(tps[k - 1]), float(fps[k - 1])) if k else (0.0, 0.0)
    return (tp - fp * (pt / (1.0 - pt))) / (float(tps[-1]) + float(fps[-1]))


def ref_recall_at_precision(fps, tps, thr, bound):
    tp, fp = np.concatenate(([0.0], tps)), np.concatenate(([0.0], fps))
    fn, tn = tp[-1] - tp, fp[-1] - fp
    ok = rate("precision", tp, fp, fn, tn) >= bound
    i = int(np.argmax(np.where(ok, rate("recall", tp, fp, fn, tn), -np.inf)))
    return (np.inf if i == 0 else float(thr[i - 1])), (tp[i], fp[i], fn[i], tn[i])


def ref_bins(state: BinaryState, n_bins: int = 10):
    ids = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], state.scores)
    total = state.positive + state.negative
    return [np.bincount(ids, w, n_bins) for w in (total, state.positive, state.scores * total)]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_threshold_metrics_equal_the_whole_array_computations(weighted, seed):
    state, _ = make_state(weighted, seed)
    assert state.table_size > 10 * _block_chunks.CHUNK
    fps, tps, thr = whole_blocks(state)
    assert state.ks_statistic() == ref_ks(fps, tps, thr)
    x, y = ref_gain(fps, tps)
    # inside a segment, at the end, at a point, at a chunk's last point and the next one
    c = _block_chunks.CHUNK  # x leads with the curve's (0, 0)
    for f in (0.1, 0.2537, 1.0, float(x[5]), float(x[c]), float(x[c + 1]), float(x[3 * c + 7])):
        assert state.lift_at(f) == np.interp(f, x, y) / f
    fractions = [0.1, 0.5, float(x[c]), 0.99]
    got = state.lift_at(fractions)
    assert got.tolist() == (np.interp(fractions, x, y) / fractions).tolist()
    for pt in (0.0, 0.3, 0.5, 0.99):
        assert state.net_benefit(pt) == ref_net_benefit(fps, tps, thr, pt)
    area = float(np.dot(np.diff(x), y[1:] + y[:-1]) / 2.0)  # one dot: another order of sums
    prevalence = float(tps[-1]) / (float(tps[-1]) + float(fps[-1]))
    want = (area - 0.5) / (0.5 - prevalence / 2.0)
    assert state.accuracy_ratio() == pytest.approx(want, rel=1e-13, abs=0)
    sums = ref_bins(state)
    ece = M.calibration.error_from_sums(sums[0], sums[0], sums[1], sums[2])
    # each bin's rows of a chunk summed as a slice, then added to the bin: another order
    assert state.calibration_error() == pytest.approx(ece, rel=1e-13, abs=0)


@pytest.mark.parametrize("seed", [0, 1])
def test_unweighted_scores_and_the_operating_point_equal_the_in_memory_functions(seed):
    state, (y, s, _) = make_state(False, seed)
    assert state.roc_auc_score() == M.roc_auc_score(y, s)
    assert state.average_precision_score() == M.average_precision_score(y, s)
    assert state.accuracy_ratio() == M.accuracy_ratio(y, s)  # the same chunks on both sides
    t_pos, t_neg = -np.log(np.clip(s, EPS, 1 - EPS)), -np.log(np.clip(1 - s, EPS, 1 - EPS))
    want = float(np.sum(np.where(y == 1, t_pos, t_neg))) / y.shape[0]
    assert state.log_loss() == pytest.approx(want, rel=1e-13)
    op = state.operating_point("recall", constraint=("precision", ">=", 0.8), n_resamples=50)
    threshold, counts = ref_recall_at_precision(*whole_blocks(state), 0.8)
    assert (op.threshold, tuple(op.counts.values())) == (threshold, counts)
    rows = M.operating_point(y, s, "recall", constraint=("precision", ">=", 0.8), n_resamples=50)
    assert op.threshold == rows.threshold


def test_descending_chunks_carry_float_sums_in_order():
    state, _ = make_state(True, 3)
    fps, tps, thr = whole_blocks(state)
    parts = list(_block_chunks.descending_chunks(state.scores, state.positive, state.negative))
    assert len(parts) > 10
    for got, want in zip(zip(*parts, strict=True), (fps, tps, thr), strict=True):
        assert np.concatenate(got).tolist() == want.tolist()
    totals = _block_chunks.descending_totals(state.positive, state.negative)
    assert totals == (fps[-1], tps[-1])
