"""The data the operating-point component draws from (views/curves/operating_point.py).

The component moves the threshold in the browser, without a round trip to the
server: it holds the (weighted) confusion-matrix counts of the selected model at
every position of its slider (:func:`metrics.counts_at`), every model's ROC and
PR vertices (reduced for drawing, exact vertices kept) and the candidate markers,
and computes the rates from the counts as :func:`metrics.rates_at_threshold`
does. Everything here is plain JSON (lists, numbers, strings, ``None`` for
``+inf``); nothing imports streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

import metrics
from explorer.charts.curves import CANDIDATE_GLYPHS, MODEL_COLORS, candidate_marks

#: Most vertices the component draws per curve (the server's figures draw 4,000).
MAX_DRAWN = 2000
#: Most distinct scores the arrow keys step through (past it they step the slider's grid).
MAX_STOPS = 4000
#: Bins of the score distribution.
DIST_BINS = 50

__all__ = [
    "DIST_BINS",
    "MAX_DRAWN",
    "MAX_STOPS",
    "candidates",
    "curve_lines",
    "distribution",
    "positions",
    "stops",
    "vertex_counts",
]


def _json_float(v) -> float | None:
    """A float JSON can carry: ``None`` for +-inf and NaN (JSON has no such numbers)."""
    v = float(v)
    return v if math.isfinite(v) else None


def positions(lo: float, hi: float, step: float) -> tuple[list[float], list[str]]:
    """The slider's positions: ``lo``, ``lo + step``, ... up to ``hi``, and ``hi``
    itself last (the threshold above every score), with the text each shows.

    A position is ``lo + i * step``; when ``lo`` lies on the step's grid it is rounded
    to the step's decimals (0.3, not 0.30000000000000004) and its text has them, else
    its text has four significant digits.

    Examples
    --------
    >>> positions(0.0, 0.3, 0.1)
    ([0.0, 0.1, 0.2, 0.3], ['0.0', '0.1', '0.2', '0.3'])
    >>> positions(0.0, 1.0000000000000002, 0.5)[0]
    [0.0, 0.5, 1.0, 1.0000000000000002]
    >>> positions(-7.25, 4.2, 5.0)
    ([-7.25, -2.25, 2.75, 4.2], ['-7.25', '-2.25', '2.75', '4.2'])
    """
    n = int(math.floor((hi - lo) / step + 1e-9))
    decimals = max(0, -math.floor(math.log10(step)))
    on_grid = abs(lo / step - round(lo / step)) < 1e-9 and max(abs(lo), abs(hi)) < 1e9
    ts = [lo + i * step for i in range(n + 1)]
    if on_grid:
        ts = [round(t, decimals) for t in ts]
    ts = [min(t, hi) for t in ts]
    if ts[-1] < hi:
        ts.append(hi)
    return ts, [f"{t:.{decimals}f}" if on_grid else f"{t:.4g}" for t in ts]


def _line(x, y, thresholds, keep) -> dict:
    return {
        "x": np.round(np.asarray(x, dtype=float)[keep], 6).tolist(),
        "y": np.round(np.asarray(y, dtype=float)[keep], 6).tolist(),
        "t": [_json_float(t) for t in np.asarray(thresholds, dtype=float)[keep]],
    }


def curve_lines(curves: Sequence[Mapping], max_points: int = MAX_DRAWN) -> list[dict]:
    """Every model's ROC and PR vertices to draw, at most ``max_points`` each (the
    exact vertices the server's figures draw, fewer of them past ``max_points``: see
    :func:`metrics.reduce_curve`), with the threshold of each vertex (``None``: +inf).

    ``curves``: one mapping per model with ``model``, ``fpr``, ``tpr``,
    ``thresholds``, ``recall``, ``precision``, ``pr_thresholds``, ``auc`` and ``ap``
    (:func:`explorer.pages.curves.curves`).

    Examples
    --------
    >>> c = {"model": "m", "fpr": [0, 0, 1], "tpr": [0, 1, 1], "thresholds": [np.inf, 0.8, 0.2],
    ...      "recall": [1, 0.5, 0], "precision": [0.5, 1, 1],
    ...      "pr_thresholds": [0.2, 0.8, np.inf], "auc": 1.0, "ap": 1.0}
    >>> line = curve_lines([c])[0]
    >>> line["name"], line["color"], line["roc"]["t"], line["pr"]["y"]
    ('m', '#0072B2', [None, 0.8, 0.2], [0.5, 1.0, 1.0])

    No AUC or AP travels with a line: the legend names the models only (a number in
    it would give the answer away while "Predict, then reveal" hides it).
    """
    out = []
    for i, c in enumerate(curves):
        roc_keep = metrics.reduce_curve(c["fpr"], c["tpr"], max_points=max_points)
        r, p = np.asarray(c["recall"], dtype=float), np.asarray(c["precision"], dtype=float)
        pr_keep = np.arange(r.shape[0])
        if r.shape[0] > max_points:  # the drawn PR vertices are already step vertices
            pr_keep = metrics.reduce_curve(r, p, max_points=max_points)
        out.append(
            {
                "name": str(c["model"]),
                "color": MODEL_COLORS[i % len(MODEL_COLORS)],
                "roc": _line(c["fpr"], c["tpr"], c["thresholds"], roc_keep),
                "pr": _line(r, p, c["pr_thresholds"], pr_keep),
            }
        )
    return out


def candidates(points) -> list[dict]:
    """The "Optimize for" markers: one per distinct threshold
    (:func:`explorer.charts.curves.candidate_marks`), with its glyph and its point
    on both curves; ``points``: :func:`explorer.pages.curves.candidate_points`.

    Examples
    --------
    >>> import pandas as pd
    >>> pts = pd.DataFrame({"label": ["a", "b"], "threshold": [0.8, np.inf],
    ...                     "fpr": [0.0, 0.0], "tpr": [1.0, 0.0],
    ...                     "recall": [1.0, 0.0], "precision": [1.0, 0.0]})
    >>> [(c["label"], c["glyph"], c["t"], c["tpr"]) for c in candidates(pts)]
    [('a', '◆', 0.8, 1.0), ('b', '■', None, 0.0)]
    """
    out = []
    thresholds = points["threshold"].to_numpy(dtype=float)
    for i, mark in enumerate(candidate_marks(points)):
        row = points.iloc[int(np.flatnonzero(thresholds == mark["threshold"])[0])]
        out.append(
            {
                "label": mark["label"],
                "glyph": CANDIDATE_GLYPHS[i % len(CANDIDATE_GLYPHS)],
                "shape": mark["symbol"],
                "t": _json_float(mark["threshold"]),
                **{k: float(row[k]) for k in ("fpr", "tpr", "recall", "precision")},
            }
        )
    return out


_KEYS = ("tp", "fp", "fn", "tn")


def _cells(counts, ts) -> dict:
    """TP, FP, FN, TN at each of the finite ``ts`` (:func:`metrics.counts_at`), as lists."""
    return {k: c.tolist() for k, c in zip(_KEYS, metrics.counts_at(counts, ts), strict=True)}


def stops(counts, hi: float, max_stops: int = MAX_STOPS) -> dict | None:
    """The thresholds the arrow keys step through: every distinct score, lowest first,
    then ``hi`` (above every score), with the text each shows and the counts there;
    None past ``max_stops`` distinct scores (the keys then step the slider's grid).

    ``counts``: :func:`metrics.threshold_counts` (distinct scores descending after +inf).

    Examples
    --------
    >>> counts = metrics.threshold_counts([1, 0, 1, 0], [0.9, 0.7, 0.7, 0.1])
    >>> got = stops(counts, 1.0)
    >>> got["t"], got["labels"], got["tp"], got["fp"]
    ([0.1, 0.7, 0.9, 1.0], ['0.1', '0.7', '0.9', '1'], [2.0, 2.0, 1.0, 0.0], [2.0, 1.0, 0.0, 0.0])
    >>> stops(counts, 1.0, max_stops=2) is None
    True
    """
    scores = np.asarray(counts[0], dtype=float)[:0:-1]
    if scores.shape[0] > max_stops:
        return None
    ts = scores.tolist() + ([float(hi)] if hi > scores[-1] else [])
    return {"t": ts, "labels": [f"{t:.4g}" for t in ts], **_cells(counts, ts)}


def vertex_counts(line: dict, counts) -> dict:
    """The counts at each vertex of one model's drawn ROC or PR ``line``
    (:func:`curve_lines`), so a click on a vertex moves the matrix in the browser; the
    +inf vertex (``t`` None) predicts nothing positive.

    Examples
    --------
    >>> counts = metrics.threshold_counts([1, 0, 1, 0], [0.9, 0.7, 0.7, 0.1])
    >>> vertex_counts({"t": [None, 0.9, 0.7]}, counts)
    {'tp': [0.0, 1.0, 2.0], 'fp': [0.0, 0.0, 1.0], 'fn': [2.0, 1.0, 0.0], 'tn': [2.0, 2.0, 1.0]}
    """
    ts = np.array([np.nan if t is None else t for t in line["t"]], dtype=float)
    finite = np.isfinite(ts)
    tps, fps = np.asarray(counts[1], dtype=float), np.asarray(counts[2], dtype=float)
    # at +inf nothing is predicted positive: TP 0, FP 0, FN every positive, TN every negative
    out = {
        k: np.full(ts.shape[0], v) for k, v in zip(_KEYS, (0.0, 0.0, tps[-1], fps[-1]), strict=True)
    }
    for k, got in zip(_KEYS, metrics.counts_at(counts, ts[finite]), strict=True):
        out[k][finite] = got
    return {k: v.tolist() for k, v in out.items()}


def distribution(y, scores, weights, lo: float, hi: float, bins: int = DIST_BINS) -> dict:
    """The scores of each class in ``bins`` equal bins from ``lo`` to ``hi``: the
    (weighted) count of positives and of negatives per bin, for the distribution the
    threshold is dragged over. When every bin holds at most 12 unweighted samples,
    ``dots`` holds each class's scores, ascending (one marker each, at its score, so
    the threshold line parts them exactly as the counts do); else it is None (bars).

    Examples
    --------
    >>> got = distribution(np.array([1, 0, 1, 0]), np.array([0.9, 0.7, 0.6, 0.1]), None, 0, 1, 4)
    >>> got["pos"], got["neg"], got["dots"]
    ([0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 0.0], {'pos': [0.6, 0.9], 'neg': [0.1, 0.7]})
    """
    edges = np.linspace(lo, hi, bins + 1)
    s = np.asarray(scores, dtype=float)
    w = np.ones_like(s) if weights is None else np.asarray(weights, dtype=float)
    positive = np.asarray(y) == 1
    pos = np.histogram(s[positive], bins=edges, weights=w[positive])[0]
    neg = np.histogram(s[~positive], bins=edges, weights=w[~positive])[0]
    dots = None
    if weights is None and max(pos.max(initial=0), neg.max(initial=0)) <= 12:
        dots = {"pos": np.sort(s[positive]).tolist(), "neg": np.sort(s[~positive]).tolist()}
    return {
        "lo": float(lo),
        "hi": float(hi),
        "pos": pos.tolist(),
        "neg": neg.tolist(),
        "dots": dots,
    }
