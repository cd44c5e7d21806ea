"""bench/spark_bins.py emulates Spark's binned areas: checked against a plain loop."""

import numpy as np
import pytest

import metrics
from bench.spark_bins import render, spark_areas


def _spark_loop(y, s, num_bins):
    """Spark's BinaryClassificationMetrics written plainly: one distinct score at a time."""
    pairs = sorted({v: None for v in s}, reverse=True)
    counts = [(v, int(sum(y[s == v])), int(sum(1 - y[s == v]))) for v in pairs]
    grouping = len(counts) // num_bins
    if grouping >= 2:
        counts = [
            (chunk[-1][0], sum(c[1] for c in chunk), sum(c[2] for c in chunk))
            for chunk in (counts[i : i + grouping] for i in range(0, len(counts), grouping))
        ]
    P, N = sum(c[1] for c in counts), sum(c[2] for c in counts)
    tp = fp = 0
    roc, pr = [(0.0, 0.0)], []
    for _, p, n in counts:
        tp, fp = tp + p, fp + n
        roc.append((fp / N, tp / P))
        pr.append((tp / P, tp / (tp + fp)))
    roc.append((1.0, 1.0))
    pr = [(0.0, pr[0][1]), *pr]
    return _area(roc), _area(pr)


def _area(pts):
    return sum((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in zip(pts, pts[1:], strict=False))


@pytest.mark.parametrize(
    ("n", "decimals", "bins"), [(300, None, 1000), (300, None, 7), (500, 2, 9)]
)
def test_spark_areas_equal_the_plain_loop(n, decimals, bins):
    rng = np.random.default_rng(n + bins)
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.random(n) if decimals is None else np.round(rng.random(n), decimals)
    assert spark_areas(y, s, bins) == pytest.approx(_spark_loop(y, s, bins), abs=1e-12)


def test_without_bins_the_roc_area_is_the_exact_auc():
    rng = np.random.default_rng(3)
    y, s = (rng.random(400) < 0.3).astype(int), np.round(rng.random(400), 1)
    assert spark_areas(y, s)[0] == pytest.approx(metrics.roc_auc_score(y, s), abs=1e-12)


def test_render_reports_the_errors():
    row = dict(n=10, scores="continuous", distinct=10, auc=0.8, ap=0.7, spark_roc=0.81,
               spark_pr=0.69, ours_s=0.1, sklearn_auc=0.8, sklearn_s=0.2)  # fmt: skip
    text = render([row])
    assert "| 10 | continuous | 10 | 0.8000000000 | 0.8100000000 | 1.00e-02 |" in text
