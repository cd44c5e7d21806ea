"""One mergeable state per group: exact per-group metrics of data too large for memory.

A chunk's rows are split by their group and each part becomes a state of the
family (:class:`~metrics.states.BinaryState`, ...); two dicts of per-group
states merge group by group (a group seen in one chunk only is kept as is).
After the last chunk, ``{g: state.finalize() for g, state in merged.items()}``
equals :func:`metrics.metric_frame`'s values on the whole data (1e-12), in
memory bounded by the states, whatever the chunking.
"""

from __future__ import annotations

import numpy as np

from metrics._validation import encode_groups

__all__ = ["GroupStates", "group_states", "merge_group_states"]


def group_states(state_class, y_true, y_score, groups, *, sample_weight=None, **options) -> dict:
    """The state of each group's rows of one chunk.

    Parameters
    ----------
    state_class : type
        A state family of :mod:`metrics.states` (``BinaryState``, ``RankingState``, ...).
    y_true, y_score : array-like
        One chunk's rows.
    groups : array-like of shape (n_rows,)
        Each row's group (no missing value).
    sample_weight : array-like of shape (n_rows,) or None
    **options
        Passed on to ``state_class.from_chunk`` (e.g. ``k`` of a ranking state).

    Returns
    -------
    dict
        Group value -> state of that group's rows in this chunk.

    Raises
    ------
    MetricInputError
        ``groups`` of another length than the chunk, or with a missing value.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics.states import RegressionState
    >>> from metrics.states.groups import group_states, merge_group_states
    >>> a = group_states(RegressionState, [1.0, 2.0, 3.0], [1.0, 2.5, 3.0], ["x", "y", "x"])
    >>> b = group_states(RegressionState, [4.0], [5.0], ["y"])
    >>> merged = merge_group_states(a, b)
    >>> {g: s.finalize()["mean_absolute_error"] for g, s in sorted(merged.items())}
    {'x': 0.0, 'y': 0.75}
    """
    n = np.shape(y_true)[0] if np.ndim(y_true) else 0
    labels, codes = encode_groups(groups, "groups", n)
    order = np.argsort(codes, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=labels.shape[0]))))
    yt, ys = np.asarray(y_true), np.asarray(y_score)
    w = None if sample_weight is None else np.asarray(sample_weight)
    out = {}
    for code, label in enumerate(labels.tolist()):
        rows = order[bounds[code] : bounds[code + 1]]
        weight = None if w is None else w[rows]
        out[label] = state_class.from_chunk(yt[rows], ys[rows], sample_weight=weight, **options)
    return out


def merge_group_states(a: dict, b: dict) -> dict:
    """Two dicts of per-group states merged group by group.

    Parameters
    ----------
    a, b : dict
        Group value -> state (of one family), e.g. two chunks' :func:`group_states`.

    Returns
    -------
    dict
        Group value -> the merged state; a group in one dict only keeps its state.

    Examples
    --------
    >>> from metrics.states import RegressionState
    >>> one = {"x": RegressionState.from_chunk([1.0], [2.0])}
    >>> sorted(merge_group_states(one, {"y": RegressionState.from_chunk([0.0], [0.0])}))
    ['x', 'y']
    """
    out = dict(a)
    for label, state in b.items():
        out[label] = out[label].merge(state) if label in out else state
    return out


class GroupStates(dict):
    """Group value -> state, mergeable as one state: :func:`metrics.states.merge_states`
    merges a stream of them (one per chunk) group by group.

    Examples
    --------
    >>> from metrics.states import RegressionState, merge_states
    >>> a = GroupStates(group_states(RegressionState, [1.0, 2.0], [1.0, 3.0], ["x", "y"]))
    >>> b = GroupStates(group_states(RegressionState, [0.0], [2.0], ["x"]))
    >>> {g: s.finalize()["mean_absolute_error"] for g, s in merge_states([a, b]).items()}
    {'x': 1.0, 'y': 1.0}
    """

    def merge(self, other: dict) -> GroupStates:
        """This dict and ``other`` merged group by group (:func:`merge_group_states`)."""
        return GroupStates(merge_group_states(self, other))
