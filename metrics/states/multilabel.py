"""The multilabel state: per-label confusion counts and per-row sums.

Micro, macro and weighted precision, recall, F1 and Jaccard depend on the
data only through each label's (weighted) true positives, predicted
positives and true positives + false negatives; Hamming loss, subset
accuracy and the ``average="samples"`` scores are weighted means of
per-row values. All of these add over chunks of rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics._averages import divide_or_warn, nanaverage
from metrics._label_ranking_kernel import binary_mask, label_matrix
from metrics._true_counts import column_counts, row_counts
from metrics._validation import MetricInputError, check_same_shape
from metrics.states._common import check_total_weight, chunk_weights

__all__ = ["MultilabelState"]

#: The scores :meth:`MultilabelState.finalize` gives for each average.
AVERAGED = ("precision_score", "recall_score", "f1_score", "jaccard_score")
AVERAGES = ("micro", "macro", "weighted", "samples")


def _row_scores(tp, pred, true) -> dict[str, np.ndarray]:
    """Each row's precision, recall, F1 and Jaccard (0 where 0/0, the "warn" default)."""
    return {
        "precision_score": divide_or_warn(tp, pred, 0.0),
        "recall_score": divide_or_warn(tp, true, 0.0),
        "f1_score": divide_or_warn(2 * tp, true + pred, 0.0),
        "jaccard_score": divide_or_warn(tp, true + pred - tp, 0.0),
    }


@dataclass(frozen=True, eq=False)
class MultilabelState:
    """Mergeable state of multilabel 0/1 predictions against 0/1 labels.

    Attributes
    ----------
    n_rows : int
        Rows seen.
    weight : float
        Their total weight.
    tp, pred, true : ndarray of shape (n_labels,)
        Weighted true positives, predicted positives and actual positives per label.
    wrong : float
        Weighted sum of the wrong cells per row (Hamming loss).
    exact : float
        Weighted number of rows right in every label (subset accuracy).
    samples : dict of str to float
        Weighted sums of each row's precision, recall, F1 and Jaccard.

    Examples
    --------
    >>> from metrics.states import MultilabelState
    >>> a = MultilabelState.from_chunk([[0, 1]], [[1, 1]])
    >>> b = MultilabelState.from_chunk([[1, 1]], [[1, 1]])
    >>> out = a.merge(b).finalize()
    >>> out["hamming_loss"], out["accuracy_score"], out["precision_score"]["micro"]
    (0.25, 0.5, 0.75)
    """

    n_rows: int
    weight: float
    tp: np.ndarray
    pred: np.ndarray
    true: np.ndarray
    wrong: float
    exact: float
    samples: dict

    @classmethod
    def from_chunk(cls, y_true, y_pred, sample_weight=None) -> MultilabelState:
        """The state of one chunk of rows.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_rows, n_labels)
            0/1 indicator matrices (labels and predictions), two columns or more.
        sample_weight : array-like of shape (n_rows,), optional
            Non-negative weights; a chunk may weigh zero in total.

        Returns
        -------
        MultilabelState

        Raises
        ------
        MetricInputError
            Values other than 0/1, different shapes, bad weights.

        Examples
        --------
        >>> from metrics.states import MultilabelState
        >>> MultilabelState.from_chunk([[1, 0], [1, 1]], [[1, 1], [0, 1]]).tp.tolist()
        [1.0, 1.0]
        """
        # one column is binary (BinaryState); integer and bool matrices stay as they are
        yt = binary_mask(label_matrix(y_true, 2), "y_true")
        yp = binary_mask(label_matrix(y_pred, 2), "y_pred")
        check_same_shape(yt, yp, "y_true", "y_pred")
        w = chunk_weights(sample_weight, yt.shape[0])
        both = yt & yp
        # counts of True, exact in float64 (a float sum of a bool matrix converts every cell)
        tp_row = row_counts(both).astype(np.float64)
        pred_row = row_counts(yp).astype(np.float64)
        true_row = row_counts(yt).astype(np.float64)
        wrong_row = pred_row + true_row - 2 * tp_row  # cells where exactly one is 1
        exact_row = (wrong_row == 0).astype(np.float64)
        rows = _row_scores(tp_row, pred_row, true_row)
        if w is None:
            tp, pred, true = (column_counts(a).astype(np.float64) for a in (both, yp, yt))

            def total(v):
                return float(v.sum())

            weight = float(yt.shape[0])
        else:
            tp, pred, true = w @ both, w @ yp, w @ yt

            def total(v):
                return float(np.dot(w, v))

            weight = float(w.sum())
        return cls(
            n_rows=int(yt.shape[0]),
            weight=weight,
            tp=tp,
            pred=pred,
            true=true,
            wrong=total(wrong_row),
            exact=total(exact_row),
            samples={name: total(v) for name, v in rows.items()},
        )

    def merge(self, other: MultilabelState) -> MultilabelState:
        """The state of both chunks' rows together.

        Parameters
        ----------
        other : MultilabelState
            With the same number of labels.

        Returns
        -------
        MultilabelState

        Examples
        --------
        >>> from metrics.states import MultilabelState
        >>> a = MultilabelState.from_chunk([[1, 0]], [[1, 1]])
        >>> a.merge(a).pred.tolist()
        [2.0, 2.0]
        """
        if not isinstance(other, MultilabelState):
            raise MetricInputError(
                f"a MultilabelState merges only with a MultilabelState; got {type(other).__name__}."
            )
        if self.tp.shape != other.tp.shape:
            raise MetricInputError(
                f"y_true has {self.tp.shape[0]} columns in one chunk and {other.tp.shape[0]} "
                "in another; every chunk needs the same labels."
            )
        return MultilabelState(
            n_rows=self.n_rows + other.n_rows,
            weight=self.weight + other.weight,
            tp=self.tp + other.tp,
            pred=self.pred + other.pred,
            true=self.true + other.true,
            wrong=self.wrong + other.wrong,
            exact=self.exact + other.exact,
            samples={k: v + other.samples[k] for k, v in self.samples.items()},
        )

    def finalize(self) -> dict:
        """Every multilabel metric, keyed by the in-memory function's name.

        ``hamming_loss`` and ``accuracy_score`` (subset accuracy) are
        floats; ``precision_score``, ``recall_score``, ``f1_score`` and
        ``jaccard_score`` map each average ("micro", "macro", "weighted",
        "samples") to the in-memory value with ``zero_division="warn"`` (0).

        Returns
        -------
        dict

        Raises
        ------
        MetricInputError
            No weight at all.

        Examples
        --------
        >>> from metrics.states import MultilabelState
        >>> out = MultilabelState.from_chunk([[1, 1, 0], [0, 1, 1]], [[1, 0, 0], [0, 1, 1]])
        >>> round(out.finalize()["jaccard_score"]["samples"], 4)
        0.75
        """
        check_total_weight(self.weight)
        n_labels = self.tp.shape[0]
        out = {
            "hamming_loss": self.wrong / (self.weight * n_labels),
            "accuracy_score": self.exact / self.weight,
        }
        tp, pred, true = self.tp, self.pred, self.true
        per_label = _row_scores(tp, pred, true)
        micro = _row_scores(*(np.array([a.sum()]) for a in (tp, pred, true)))
        for name in AVERAGED:
            if name == "jaccard_score":
                weighted = (
                    float(np.average(per_label[name], weights=true))
                    if true.any()
                    else (float(np.mean(per_label[name])))
                )
            else:
                weighted = nanaverage(per_label[name], true)
            out[name] = {
                "micro": float(micro[name][0]),
                "macro": float(np.mean(per_label[name])),
                "weighted": weighted,
                "samples": self.samples[name] / self.weight,
            }
        return out
