"""Learning-to-rank files as they come: a data file, its scores, its query file.

:func:`read_ranking` reads the data file as SVMlight / LETOR when its first
data line reads so (:mod:`explorer.io.svmlight`), else as a table with a query
column (:mod:`explorer.io.qid_table`); a score file (one score per data row)
and a LightGBM ``.query`` / ``.group`` file (rows per query) may come beside it.
"""

from __future__ import annotations

from explorer.datasets import Dataset
from explorer.io.dispatch import _format, _open_frame, _source
from explorer.io.qid_table import qid_table_dataset
from explorer.io.svmlight import looks_like_svmlight, read_svmlight


def read_ranking(
    source,
    scores=None,
    query=None,
    *,
    name: str | None = None,
    data_name: str | None = None,
    scores_name: str | None = None,
    query_name: str | None = None,
) -> Dataset:
    """Read learning-to-rank data: SVMlight / LETOR or a query-grouped table.

    Parameters
    ----------
    source : path, bytes or file-like
        An SVMlight / LETOR file (``label qid:Q index:value ...``), or a CSV, TSV,
        text or Parquet table with a query column (``qid``, ``query``), a relevance
        column and score columns.
    scores : path, bytes or file-like, optional
        One score per data row (LightGBM's or XGBoost's predictions), a model named
        after the file; needed by an SVMlight file, optional beside a table.
    query : path, bytes or file-like, optional
        A LightGBM ``.query`` / ``.group`` file (rows per query, one count per line),
        when the data names no queries.
    name, data_name, scores_name, query_name : str, optional
        The dataset name and the files' names (for bytes sources).

    Returns
    -------
    Dataset
        ``kind="graded"``: one row per query (see :func:`explorer.io.groups.pivot`).

    Examples
    --------
    >>> ds = read_ranking(b"label,score\\n2,0.9\\n0,0.1\\n1,0.5\\n", query=b"2\\n1\\n",
    ...                   data_name="t.csv", query_name="t.query")
    >>> ds.sample_ids, ds.y_true.tolist()
    (('1', '2'), [[2.0, 0.0], [1.0, 0.0]])
    """
    data, label = _source(source, data_name, "data")
    s_pair = None if scores is None else _source(scores, scores_name, "scores")
    q_pair = None if query is None else _source(query, query_name, "query")
    if looks_like_svmlight(data):
        return read_svmlight(
            data,
            None if s_pair is None else s_pair[0],
            query=None if q_pair is None else q_pair[0],
            name=name,
            data_name=label,
            scores_name=None if s_pair is None else s_pair[1],
            query_name=None if q_pair is None else q_pair[1],
        )
    frame = _open_frame(data, label, _format(label, data))
    return qid_table_dataset(
        frame,
        name,
        query_file=None if q_pair is None else (q_pair[1], q_pair[0]),
        scores_file=None if s_pair is None else (s_pair[1], s_pair[0]),
    )
