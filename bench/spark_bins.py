"""What Spark's binned curves lose: ``BinaryClassificationMetrics(numBins=1000)`` on paper.

Spark MLlib's ``BinaryClassificationEvaluator`` (areaUnderROC, areaUnderPR) sorts
the distinct scores in descending order with their positive and negative counts
and, when there are more distinct scores than ``numBins``, merges runs of
``grouping = n_distinct // numBins`` consecutive distinct scores into one point
(the run's last, lowest score; the run's counts summed). The ROC curve is then
(0, 0), one point per bin, (1, 1), and areaUnderROC its trapezoid area;
areaUnderPR is the trapezoid area of the PR curve from (0, precision of the
first point). :func:`spark_areas` does the same with numpy, on one partition
(Spark groups within each partition, so more partitions only add points).

``python -m bench.spark_bins --rows N`` compares those areas with the exact
``metrics.roc_auc_score`` and ``metrics.average_precision_score`` (the area
under the exact step curve) on a continuous and a tied score distribution, and
with scikit-learn's ``roc_auc_score`` on the same data; it writes the section
"Spark's binned curves" of ``bench/results.md``.

Examples
--------
>>> y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
>>> s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
>>> spark_areas(y, s, num_bins=1000)[0] == metrics.roc_auc_score(y, s)  # no binning
True
>>> round(spark_areas(y, s, num_bins=2)[0], 4)  # runs of 4 distinct scores: 2 points
0.75
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import metrics

HEADING = "## Spark's binned curves (numBins=1000), on paper"


def spark_areas(y_true, y_score, num_bins: int = 1000) -> tuple[float, float]:
    """areaUnderROC and areaUnderPR as Spark's ``BinaryClassificationMetrics`` computes them."""
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(y_score, dtype=float)
    values, inverse = np.unique(-s, return_inverse=True)  # descending scores
    pos = np.bincount(inverse, weights=y, minlength=values.size)
    neg = np.bincount(inverse, weights=~y, minlength=values.size)
    return spark_areas_of_counts(pos, neg, num_bins)


def spark_areas_of_counts(pos, neg, num_bins: int = 1000) -> tuple[float, float]:
    """:func:`spark_areas` from the positive and negative counts of each distinct score,
    highest score first (a binary state's table, reversed).

    Examples
    --------
    >>> spark_areas_of_counts(np.array([1, 0, 1]), np.array([0, 1, 1]))[0]  # no binning
    0.625
    """
    grouping = pos.size // num_bins if num_bins > 0 else 0
    if grouping >= 2:
        starts = np.arange(0, pos.size, grouping)
        pos, neg = np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
    tp, fp = np.cumsum(pos, dtype=np.float64), np.cumsum(neg, dtype=np.float64)
    tpr = np.concatenate(([0.0], tp / tp[-1], [1.0]))
    fpr = np.concatenate(([0.0], fp / fp[-1], [1.0]))
    roc = float(np.sum((fpr[1:] - fpr[:-1]) * (tpr[1:] + tpr[:-1]) / 2))
    precision = tp / (tp + fp)
    recall = np.concatenate(([0.0], tp / tp[-1]))
    precision = np.concatenate(([precision[0]], precision))
    pr = float(np.sum((recall[1:] - recall[:-1]) * (precision[1:] + precision[:-1]) / 2))
    return roc, pr


def _data(n: int, tied: bool, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1)
    return y, (np.round(s, 2) if tied else s)


def compare(n: int, tied: bool, sklearn: bool = True) -> dict:
    """Exact, Spark-binned and scikit-learn areas of one distribution of ``n`` rows."""
    y, s = _data(n, tied)
    t = time.perf_counter()
    auc, ap = metrics.roc_auc_score(y, s), metrics.average_precision_score(y, s)
    ours = time.perf_counter() - t
    spark_roc, spark_pr = spark_areas(y, s)
    row = {
        "n": n,
        "scores": "tied (2 decimals)" if tied else "continuous",
        "distinct": int(np.unique(s).size),
        "auc": auc,
        "ap": ap,
        "spark_roc": spark_roc,
        "spark_pr": spark_pr,
        "ours_s": ours,
    }
    if sklearn:
        from sklearn.metrics import roc_auc_score

        t = time.perf_counter()
        row["sklearn_auc"] = float(roc_auc_score(y, s))
        row["sklearn_s"] = time.perf_counter() - t
    return row


def render(rows: list[dict]) -> str:
    """The results section for :func:`compare`'s rows."""
    lines = [
        HEADING,
        "",
        "`python -m bench.spark_bins`: Spark's downsampled curve emulated in numpy "
        "(bench/spark_bins.py: runs of n_distinct // 1000 distinct scores merged into one "
        "point, trapezoids), against our exact values and scikit-learn's on the same rows. "
        "Spark's areaUnderPR is a trapezoid area, not average precision, even without bins.",
        "",
        "| rows | scores | distinct | exact ROC AUC | Spark ROC AUC | error | exact AP | "
        "Spark areaUnderPR | error | scikit-learn ROC AUC | ours s | scikit-learn s |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']:,} | {r['scores']} | {r['distinct']:,} | {r['auc']:.10f} | "
            f"{r['spark_roc']:.10f} | {r['spark_roc'] - r['auc']:.2e} | {r['ap']:.10f} | "
            f"{r['spark_pr']:.10f} | {r['spark_pr'] - r['ap']:.2e} | "
            f"{r.get('sklearn_auc', float('nan')):.10f} | {r['ours_s']:.2f} | "
            f"{r.get('sklearn_s', float('nan')):.2f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.spark_bins [--rows N] [--out FILE]``."""
    from bench.load import RESULTS, write_text_section

    p = argparse.ArgumentParser(prog="python -m bench.spark_bins")
    p.add_argument(
        "--rows",
        type=lambda x: [int(float(v)) for v in x.split(",")],
        default=[10_000_000],
        help="comma-separated sizes, e.g. 1e7,1e8",
    )
    p.add_argument("--out", default=str(RESULTS))
    args = p.parse_args(argv)
    rows = [compare(n, tied) for n in args.rows for tied in (False, True)]
    text = render(rows)
    print(text)
    write_text_section(text, HEADING, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
