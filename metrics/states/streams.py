"""``merge_states``: a stream of states of any family merged in a balanced tree.

Binary states go to :func:`metrics.states.binary_stream.merge_binary_stream`
(the same tree, each merge freeing its inputs), the other families to
:func:`metrics.states._common.merge_states`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from metrics._validation import MetricInputError
from metrics.states import _common
from metrics.states.binary import BinaryState
from metrics.states.binary_stream import merge_binary_stream

__all__ = ["merge_states"]


def merge_states(states: Iterable):
    """The merge of a stream of states (at least one, of one family), in a balanced tree.

    As :func:`metrics.states._common.merge_states` (a binary counter: about
    log2(chunks) merges per sample, O(log n) states held), except that a
    stream of binary states is merged by
    :func:`~metrics.states.binary_stream.merge_binary_stream`, which frees
    each merge's inputs. Raises :class:`MetricInputError` on an empty stream.

    Parameters
    ----------
    states : iterable
        States of one family (BinaryState, RankingState, ...); one or more.

    Returns
    -------
    state
        The state of every chunk together.

    Examples
    --------
    >>> from metrics.states import BinaryState, RegressionState, merge_states
    >>> parts = (RegressionState.from_chunk([1.0, 2.0], [1.5, 2.0]),
    ...          RegressionState.from_chunk([3.0], [2.0]))
    >>> merge_states(parts).finalize()["mean_absolute_error"]
    0.5
    >>> merge_states([BinaryState.from_chunk([0, 1], [0.2, 0.7])]).table_size
    2
    """
    states = iter(states)
    first = next(states, None)
    if first is None:
        raise MetricInputError("merge_states needs at least one state; got none.")
    binary = isinstance(first, BinaryState)
    chained = itertools.chain([first], states)
    del first  # the stream's first table is the counter's to free
    if binary:
        return merge_binary_stream(chained)
    return _common.merge_states(chained)
