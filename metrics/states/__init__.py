"""Mergeable states: exact metrics of data too large for memory, chunk by chunk.

The torchmetrics pattern (``update`` / ``merge`` / ``compute``) made exact:
for each family a frozen state is built from one chunk
(``State.from_chunk(y_true, y_score, ...)``), two states merge into the state
of both chunks (``a.merge(b)``, associative and commutative), and
``state.finalize()`` returns a dict keyed by the in-memory functions' names
whose values equal those functions on the concatenated data (1e-12
relative, whatever the chunking):

* :class:`BinaryState`: positive and negative weight per distinct score,
  from which the ROC and PR curves, ROC AUC, average precision, the log loss
  and the confusion matrix at any threshold follow exactly;
* :class:`RankingState`: weighted sums of per-row values (coverage, LRAP,
  ranking loss, DCG, NDCG, P@K, R@K, hit rate, MAP@K, MRR, ERR);
* :class:`MultilabelState`: per-label confusion counts and per-row sums;
* :class:`RegressionState`: sums of errors, and the weighted mean and
  squared deviations of ``y_true`` merged by Chan's parallel formula (R^2).

:func:`merge_states` reduces a stream of states in a balanced tree. The
command line ``python -m metrics evaluate DATA.parquet ...`` streams a
Parquet file through these states (:mod:`metrics.cli`).

Examples
--------
>>> import numpy as np
>>> from metrics import roc_auc_score
>>> from metrics.states import BinaryState, merge_states
>>> rng = np.random.default_rng(0)
>>> y, s = rng.integers(0, 2, 1000), rng.random(1000).round(2)
>>> chunks = (BinaryState.from_chunk(y[i:i + 100], s[i:i + 100]) for i in range(0, 1000, 100))
>>> state = merge_states(chunks)
>>> state.roc_auc_score() == roc_auc_score(y, s)
True
"""

from metrics.states.binary import BinaryState
from metrics.states.multilabel import MultilabelState
from metrics.states.ranking import RankingState
from metrics.states.regression import RegressionState
from metrics.states.streams import merge_states

__all__ = ["BinaryState", "MultilabelState", "RankingState", "RegressionState", "merge_states"]
