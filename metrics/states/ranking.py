"""The ranking state: weighted sums of per-row values (label ranking, DCG, retrieval).

Every ranking and retrieval metric of the package is a mean over rows of a
value that depends on that row alone (``*_per_sample``): coverage, LRAP,
ranking loss, DCG and NDCG (``sample_weight``-weighted means), P@K, R@K,
hit rate, AP@K, reciprocal rank and ERR (plain means over queries). The
state of a chunk keeps each metric's row sum, its rows and their weight;
states merge by adding. One exception: ERR with ``max_grade=None`` scales
every row by the top grade of the *whole* ``y_true``; each chunk uses its
own top grade, and chunks whose (non-zero) top grades differ cannot be
merged exactly, so the merged state leaves ERR out and
:meth:`RankingState.expected_reciprocal_rank` says to pass ``max_grade``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from metrics._dcg_kernel import check_log_base
from metrics._relevance import (
    check_denominator,
    check_max_grade,
    check_retrieved,
)
from metrics._validation import (
    MetricInputError,
    as_2d,
    check_k,
    check_nonnegative,
    check_same_shape,
)
from metrics.states._common import check_total_weight, chunk_weights
from metrics.states._ranking_rows import per_row_values

__all__ = ["RankingState"]

#: Weighted means (``sample_weight``), in the order :meth:`RankingState.finalize` lists them.
WEIGHTED = (
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "dcg_score",
    "ndcg_score",
)
#: Plain means over queries (the retrieval functions take no ``sample_weight``).
PER_QUERY = (
    "precision_at_k",
    "recall_at_k",
    "hit_rate_at_k",
    "mean_average_precision_at_k",
    "mean_reciprocal_rank",
    "expected_reciprocal_rank",
)


@dataclass(frozen=True)
class RankingState:
    """Mergeable state of a ranker: per-metric sums of per-row values.

    Build one per chunk of rows (samples or queries) with :meth:`from_chunk`;
    the options are fixed there and must agree when states merge.

    Attributes
    ----------
    k : int or None
        The cut-off of DCG, NDCG, MRR and ERR (None: every item) and of the
        @K metrics (None: they are left out).
    log_base : float
        The DCG discount's base.
    ignore_ties : bool
        DCG and NDCG's tie handling, as in :func:`metrics.dcg_score`.
    denominator : str
        AP@K's denominator, as in :func:`metrics.average_precision_at_k`.
    max_grade : float or None
        ERR's top grade (None: the largest grade seen).
    n_labels : int
        Columns of every chunk.
    n_rows : int
        Rows seen.
    weight : float
        Their total ``sample_weight`` (``n_rows`` without weights).
    sums : mapping of str to float
        Each metric's weighted (``WEIGHTED``) or plain (``PER_QUERY``) row sum.
        Label ranking metrics need 0/1 ``y_true`` (graded chunks leave them
        out), coverage, ranking loss, DCG and NDCG two columns or more.
    err_top : float
        The top grade ERR's sum used; NaN when chunks disagreed.

    Examples
    --------
    >>> from metrics.states import RankingState
    >>> a = RankingState.from_chunk([[1, 0, 0]], [[0.2, 0.9, 0.1]], k=2)
    >>> b = RankingState.from_chunk([[0, 0, 1]], [[0.1, 0.2, 0.9]], k=2)
    >>> out = a.merge(b).finalize()
    >>> out["label_ranking_average_precision_score"], out["precision_at_k"]
    (0.75, 0.5)
    """

    k: int | None = None
    log_base: float = 2.0
    ignore_ties: bool = False
    denominator: str = "min_m_k"
    max_grade: float | None = None
    n_labels: int = 0
    n_rows: int = 0
    weight: float = 0.0
    sums: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    err_top: float = 0.0

    @classmethod
    def from_chunk(
        cls,
        y_true,
        y_score,
        *,
        sample_weight=None,
        k=None,
        log_base=2,
        ignore_ties=False,
        denominator="min_m_k",
        max_grade=None,
        retrieved=None,
    ) -> RankingState:
        """The state of one chunk of rows.

        Parameters
        ----------
        y_true : array-like of shape (n_rows, n_labels)
            Relevance, ``>= 0`` (0/1 for the label ranking metrics).
        y_score : array-like of shape (n_rows, n_labels)
            Finite scores.
        sample_weight : array-like of shape (n_rows,), optional
            Weights of the label ranking metrics, DCG and NDCG (the
            retrieval metrics average queries plainly, as in memory).
        k : int or None, default None
            Cut-off (see the class attributes).
        log_base : float, default 2
        ignore_ties : bool, default False
        denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        max_grade : float or None, default None
        retrieved : array-like of bool, shape (n_rows, n_labels), optional
            The items each row retrieved, as the retrieval and DCG metrics read
            it (the others count as relevant but never rank). The label ranking
            metrics, which have no such notion, are then left out of the state.

        Returns
        -------
        RankingState

        Raises
        ------
        MetricInputError
            Bad shapes, values, weights or options (named as in memory).

        Examples
        --------
        >>> from metrics.states import RankingState
        >>> s = RankingState.from_chunk([[1, 0], [0, 1]], [[0.9, 0.1], [0.8, 0.2]])
        >>> s.sums["coverage_error"], s.n_rows
        (3.0, 2)
        >>> s = RankingState.from_chunk([[1, 1]], [[0.9, 0.1]], k=2, retrieved=[[1, 0]])
        >>> s.sums["recall_at_k"], "coverage_error" in s.sums
        (0.5, False)
        """
        k = check_k(k, allow_none=True)
        log_base = check_log_base(log_base)
        if not isinstance(ignore_ties, bool | np.bool_):
            raise MetricInputError(f"ignore_ties must be True or False; got {ignore_ties!r}.")
        denominator = check_denominator(denominator)
        yt = as_2d(y_true, "y_true")
        ys = as_2d(y_score, "y_score")
        check_same_shape(yt, ys, "y_true", "y_score")
        check_nonnegative(yt, "y_true")
        top = check_max_grade(max_grade, yt)
        mask = check_retrieved(retrieved, ys)
        w = chunk_weights(sample_weight, yt.shape[0])
        n, m = yt.shape

        def weighted(values: np.ndarray) -> float:
            return float(values.sum() if w is None else np.dot(w, values))

        rows = per_row_values(
            yt, ys, mask, k=k, max_grade=top, denominator=denominator, log_base=log_base,
            ignore_ties=bool(ignore_ties),
        )  # fmt: skip
        sums = {
            name: weighted(v) if name in WEIGHTED else float(v.sum()) for name, v in rows.items()
        }
        return cls(
            k=k,
            log_base=log_base,
            ignore_ties=bool(ignore_ties),
            denominator=denominator,
            max_grade=None if max_grade is None else float(max_grade),
            n_labels=m,
            n_rows=n,
            weight=float(n) if w is None else float(w.sum()),
            sums=MappingProxyType(sums),
            err_top=top,
        )

    def _options(self) -> tuple:
        return (self.k, self.log_base, self.ignore_ties, self.denominator, self.max_grade)

    def merge(self, other: RankingState) -> RankingState:
        """The state of both chunks' rows together.

        A metric missing from either state (say, LRAP of a graded chunk) is
        missing from the merge.

        Parameters
        ----------
        other : RankingState
            Built with the same options and the same number of labels.

        Returns
        -------
        RankingState

        Raises
        ------
        MetricInputError
            Different options or numbers of labels.

        Examples
        --------
        >>> from metrics.states import RankingState
        >>> a = RankingState.from_chunk([[1, 0]], [[0.9, 0.1]])
        >>> a.merge(RankingState.from_chunk([[0, 1]], [[0.9, 0.1]])).sums["coverage_error"]
        3.0
        """
        if not isinstance(other, RankingState):
            raise MetricInputError(
                f"a RankingState merges only with a RankingState; got {type(other).__name__}."
            )
        if self._options() != other._options():
            raise MetricInputError(
                "RankingStates merge only when built with the same k, log_base, ignore_ties, "
                f"denominator and max_grade; got {self._options()} and {other._options()}."
            )
        if self.n_labels != other.n_labels:
            raise MetricInputError(
                f"y_true has {self.n_labels} columns in one chunk and {other.n_labels} in "
                "another; every chunk needs the same labels."
            )
        sums = {
            name: self.sums[name] + other.sums[name] for name in self.sums if name in other.sums
        }
        a, b = self.err_top, other.err_top
        if a == 0 or b == 0 or a == b:
            top = max(a, b)  # a chunk whose top grade is 0 scores 0 under any top
        else:
            top = float("nan")  # NaN (an earlier conflict) stays NaN
        if np.isnan(top):
            sums.pop("expected_reciprocal_rank", None)
        return replace(
            self,
            n_rows=self.n_rows + other.n_rows,
            weight=self.weight + other.weight,
            sums=MappingProxyType(sums),
            err_top=top,
        )

    def expected_reciprocal_rank(self) -> float:
        """Mean ERR over the rows seen, as :func:`metrics.expected_reciprocal_rank`.

        Returns
        -------
        float

        Raises
        ------
        MetricInputError
            ``max_grade=None`` and chunks with different top grades.

        Examples
        --------
        >>> from metrics.states import RankingState
        >>> RankingState.from_chunk([[1, 2, 0]], [[0.5, 0.9, 0.1]]).expected_reciprocal_rank()
        0.78125
        """
        if "expected_reciprocal_rank" not in self.sums:
            raise MetricInputError(
                "ERR with max_grade=None scales every row by the top grade of the whole "
                "y_true, and the chunks had different top grades; build the states with "
                "max_grade= (the top of the grade scale) to merge them exactly."
            )
        return self.sums["expected_reciprocal_rank"] / self.n_rows

    def finalize(self) -> dict:
        """Every metric the state holds, keyed by the in-memory function's name.

        Returns
        -------
        dict
            ``WEIGHTED`` metrics divided by the total weight, ``PER_QUERY``
            metrics by the number of rows.

        Raises
        ------
        MetricInputError
            No row, or no weight for a weighted metric.

        Examples
        --------
        >>> from metrics.states import RankingState
        >>> out = RankingState.from_chunk([[1, 0, 1]], [[0.9, 0.5, 0.1]], k=2).finalize()
        >>> out["coverage_error"], out["precision_at_k"], out["mean_reciprocal_rank"]
        (3.0, 0.5, 1.0)
        """
        out = {}
        for name in WEIGHTED:
            if name in self.sums:
                check_total_weight(self.weight)
                out[name] = self.sums[name] / self.weight
        for name in PER_QUERY:
            if name in self.sums:
                out[name] = self.sums[name] / self.n_rows
        return out
