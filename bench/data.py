"""Seeded benchmark data: binary vectors, multilabel and graded matrices, regression.

Every array is drawn from :func:`numpy.random.default_rng` with a fixed seed
per (kind, size, ties), so two runs time the same numbers.

Scores are informative (positives score higher on average) so that the
metrics take realistic values. "Continuous" scores are Beta draws in (0, 1)
with no ties in practice; "tied" scores are the same draws floored to one
decimal, ``np.floor(s * 10) / 10``: ten distinct values, like
``rng.integers(0, 10, size) / 10`` but informative, so a 100-label row holds
about ten tie blocks of ten labels each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Matrix sizes of the full run (rows, labels).
MATRIX_SIZES = ((1_000, 20), (10_000, 50), (100_000, 100))
#: Binary and regression sizes of the full run.
VECTOR_SIZES = (10_000, 1_000_000, 10_000_000)
#: Sizes of ``--quick``.
QUICK_MATRIX_SIZES = ((1_000, 20), (2_000, 50))
QUICK_VECTOR_SIZES = (10_000, 200_000)

#: Fraction of positive labels in a multilabel matrix, of relevant items in a graded one.
POSITIVE_RATE = 0.1
#: Fraction of positives in a binary vector.
BINARY_POSITIVE_RATE = 0.3
#: The cut-off used by every @k metric.
K = 10


@dataclass
class BenchData:
    """One benchmark input.

    Parameters
    ----------
    kind : {"binary", "multilabel", "graded", "regression"}
    ties : bool
        Whether the scores are heavily tied (one decimal).
    y_true : ndarray
        int64 labels or grades (float64 targets for regression).
    y_score : ndarray
        float64 scores (predictions for regression).
    loop_rows : int or None
        When set, comparators whose cost is a Python loop over rows are timed
        on the first ``loop_rows`` rows and extrapolated linearly.
    cache : dict
        Per-dataset inputs prepared for the comparison libraries (tensors,
        ranx Qrels/Run), built once.
    """

    kind: str
    ties: bool
    y_true: np.ndarray
    y_score: np.ndarray
    loop_rows: int | None = None
    cache: dict = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        """Number of rows (samples or queries)."""
        return int(self.y_true.shape[0])

    @property
    def n_labels(self) -> int:
        """Number of columns (1 for a vector)."""
        return int(self.y_true.shape[1]) if self.y_true.ndim == 2 else 1

    @property
    def is_matrix(self) -> bool:
        """True for multilabel and graded matrices."""
        return self.y_true.ndim == 2

    @property
    def name(self) -> str:
        """A short unique name, e.g. ``multilabel 100,000 x 100 tied``."""
        size = f"{self.n:,} x {self.n_labels}" if self.is_matrix else f"{self.n:,}"
        if self.kind == "regression":
            return f"regression {size}"
        return f"{self.kind} {size} {'tied' if self.ties else 'continuous'}"

    @property
    def y_pred(self) -> np.ndarray:
        """Hard predictions ``y_score >= 0.5`` as int64 (classification metrics)."""
        if "y_pred" not in self.cache:
            self.cache["y_pred"] = (self.y_score >= 0.5).astype(np.int64)
        return self.cache["y_pred"]

    @property
    def input_bytes(self) -> int:
        """Size of one input array (the float64 score matrix or vector)."""
        return int(self.y_score.nbytes)

    def head(self, rows: int) -> BenchData:
        """The first ``rows`` rows, as a new BenchData (views, no copy)."""
        return BenchData(self.kind, self.ties, self.y_true[:rows], self.y_score[:rows])


def _scores(rng: np.random.Generator, positive: np.ndarray, ties: bool) -> np.ndarray:
    """Beta(3, 2) scores for positives, Beta(2, 3) for negatives; floored to 0.1 if tied."""
    a = np.where(positive, 3.0, 2.0)
    s = rng.beta(a, 5.0 - a)
    if ties:
        s = np.floor(s * 10) / 10
    return s


def _seed(kind: str, n: int, n_labels: int, ties: bool) -> int:
    """A fixed seed per (kind, size, ties)."""
    kinds = {"binary": 1, "multilabel": 2, "graded": 3, "regression": 4}
    return kinds[kind] * 1_000_003 + n * 101 + n_labels * 7 + int(ties)


def make_binary(n: int, *, ties: bool) -> BenchData:
    """A binary vector of ``n`` samples, 30% positives.

    Examples
    --------
    >>> d = make_binary(1000, ties=True)
    >>> d.name, sorted(set(d.y_true.tolist())), len(set(d.y_score.tolist())) <= 10
    ('binary 1,000 tied', [0, 1], True)
    """
    rng = np.random.default_rng(_seed("binary", n, 1, ties))
    y = (rng.random(n) < BINARY_POSITIVE_RATE).astype(np.int64)
    y[:2] = (0, 1)  # both classes, whatever n
    return BenchData("binary", ties, y, _scores(rng, y.astype(bool), ties))


def make_multilabel(n: int, n_labels: int, *, ties: bool) -> BenchData:
    """A 0/1 label matrix, about 10% positives, every row and column holding both classes.

    Examples
    --------
    >>> d = make_multilabel(200, 5, ties=False)
    >>> d.y_true.shape, bool((d.y_true.sum(axis=1) > 0).all())
    ((200, 5), True)
    """
    rng = np.random.default_rng(_seed("multilabel", n, n_labels, ties))
    y = (rng.random((n, n_labels)) < POSITIVE_RATE).astype(np.int64)
    empty = y.sum(axis=1) == 0
    y[empty, rng.integers(0, n_labels, size=int(empty.sum()))] = 1
    y[0, :] = 0  # every column needs a negative and a positive (ROC AUC per column)
    y[0, 0] = 1
    y[1, :] = 1
    return BenchData("multilabel", ties, y, _scores(rng, y.astype(bool), ties))


def make_graded(n: int, n_labels: int, *, ties: bool) -> BenchData:
    """A graded relevance matrix (grades 0-3, about 10% relevant, >= 1 relevant per row).

    Examples
    --------
    >>> d = make_graded(200, 5, ties=True)
    >>> int(d.y_true.max()) <= 3, bool((d.y_true.max(axis=1) > 0).all())
    (True, True)
    """
    rng = np.random.default_rng(_seed("graded", n, n_labels, ties))
    relevant = rng.random((n, n_labels)) < POSITIVE_RATE
    empty = ~relevant.any(axis=1)
    relevant[empty, rng.integers(0, n_labels, size=int(empty.sum()))] = True
    y = np.where(relevant, rng.integers(1, 4, size=(n, n_labels)), 0).astype(np.int64)
    return BenchData("graded", ties, y, _scores(rng, relevant, ties))


def make_regression(n: int) -> BenchData:
    """Positive targets (Gamma) and multiplicative-noise predictions, both > 0.

    Examples
    --------
    >>> d = make_regression(100)
    >>> bool((d.y_true > 0).all() and (d.y_score > 0).all())
    True
    """
    rng = np.random.default_rng(_seed("regression", n, 1, False))
    y = rng.gamma(2.0, 2.0, size=n) + 0.1
    pred = y * np.exp(rng.normal(0.0, 0.3, size=n))
    return BenchData("regression", False, y, pred)


def dataset_makers(
    matrix_sizes=MATRIX_SIZES, vector_sizes=VECTOR_SIZES, *, loop_rows: int | None = None
) -> list[BenchData]:
    """Makers of every benchmark input: binary, then matrices, then regression.

    Parameters
    ----------
    matrix_sizes, vector_sizes : sequence
        The sizes to build.
    loop_rows : int or None
        Applied to the *continuous* variant of the largest matrix size only:
        there, Python-loop comparators are timed on ``loop_rows`` rows and
        extrapolated. The tied matrices, where the targets are, are always
        timed in full.

    Returns
    -------
    list of callables
        Each returns one :class:`BenchData` when called, so only one large
        input lives in memory at a time.
    """
    makers = []
    largest = max(n for n, _ in matrix_sizes) if matrix_sizes else 0
    for n in vector_sizes:
        for ties in (False, True):
            makers.append(lambda n=n, ties=ties: make_binary(n, ties=ties))
    for n, n_labels in matrix_sizes:
        for make in (make_multilabel, make_graded):
            for ties in (False, True):
                rows = loop_rows if (n == largest and not ties and loop_rows) else None

                def build(make=make, n=n, n_labels=n_labels, ties=ties, rows=rows):
                    d = make(n, n_labels, ties=ties)
                    d.loop_rows = rows if rows and rows < n else None
                    return d

                makers.append(build)
    for n in vector_sizes:
        makers.append(lambda n=n: make_regression(n))
    return makers
