"""The upload entry points of the Data page: size and type first, then a reader.

Each also enforces :data:`~explorer.io.limits.MAX_UPLOAD_BYTES` and
:data:`~explorer.io.limits.MAX_FILE_NAME_CHARS` (a file name starts every message).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.io.attributes import attach
from explorer.io.dispatch import (
    MATRIX_EXTENSIONS,
    TABLE_EXTENSIONS,
    _check_extension,
    _format,
    _open_frame,
)
from explorer.io.errors import DataError
from explorer.io.limits import MAX_UPLOAD_BYTES, _check_file_name, _check_models, _check_size
from explorer.io.long import _long_dataset
from explorer.io.ltr import read_ranking
from explorer.io.matrix import read_matrix_pair
from explorer.io.models import merged
from explorer.io.multiclass import is_long_multiclass, long_multiclass_dataset
from explorer.io.qid_table import qid_column, qid_table_dataset
from explorer.io.svmlight import looks_like_svmlight
from explorer.io.table import _table_dataset
from explorer.io.trec import read_trec, read_trec_runs


def _side_checked(side: tuple[str, bytes] | None, max_bytes: int) -> None:
    """The size, name and type checks of a side file of attributes."""
    if side is not None:
        _check_file_name(side[0])
        _check_size(side[0], side[1], max_bytes)
        _check_extension(side[0], TABLE_EXTENSIONS)


def read_upload(
    name: str,
    data: bytes,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    kind: str | None = None,
    attributes: tuple[str, bytes] | None = None,
) -> Dataset:
    """Read one uploaded file holding everything: a one-row-per-sample or a long table.

    Parameters
    ----------
    name : str
        The uploaded file's name; its extension picks the format: ``.csv``,
        ``.tsv``, ``.txt`` (delimiter sniffed: comma, tab, semicolon, bar or
        whitespace), ``.parquet`` / ``.pq``. A ``.npy`` alone is refused: it
        needs a labels + scores pair (:func:`read_pair_upload`).
    data : bytes
        The file's content.
    max_bytes : int
        Size limit (default :data:`MAX_UPLOAD_BYTES`).
    kind : str or None
        Passed on; None infers it.
    attributes : (str, bytes), optional
        A side file of attributes keyed by sample (or query) id
        (:func:`explorer.io.attributes.read_side_file`); a table's own extra columns
        are attributes already.

    Returns
    -------
    Dataset
        A table with a query column (``qid``, ``query``) as ranking data via
        :func:`explorer.io.qid_table.qid_table_dataset` (unless ``kind`` asks for
        another kind); a long table (columns ``sample`` and ``label``) via
        :func:`read_long_table` (multiclass when ``y_true`` names each row's sample's
        class, :func:`explorer.io.multiclass.long_multiclass_dataset`), else a
        one-row-per-sample table via :func:`read_table`.

    Examples
    --------
    >>> read_upload("s.csv", b"y_true,score_a,score_b\\n0,0.1,0.3\\n1,0.8,0.2\\n").model_names
    ('a', 'b')
    >>> from explorer.io import DataError
    >>> try:
    ...     read_upload("big.csv", b"y_true,y_score\\n" * 10, max_bytes=100)
    ... except DataError as exc:
    ...     print(str(exc).split(". ")[0])
    big.csv is 150 bytes; the limit is 100 bytes per file
    """
    _check_file_name(name)
    _check_size(name, data, max_bytes)
    _check_extension(name, TABLE_EXTENSIONS)
    _side_checked(attributes, max_bytes)
    return attach(_read_one(name, data, kind), attributes)


def _read_one(name: str, data: bytes, kind: str | None) -> Dataset:
    """The reader of one file holding everything, by its columns."""
    if looks_like_svmlight(data):
        raise DataError(
            Phrase(
                "${name} is an SVMlight / LETOR file (label qid:Q index:value ...): it holds no "
                "scores. Upload it in the tab Learning to rank, with its score file.",
                name=name,
            )
        )
    frame = _open_frame(data, name, _format(name, data))
    if kind in (None, "graded") and qid_column(frame.columns) is not None:
        return qid_table_dataset(frame, name)
    if "sample" in frame.columns and "label" in frame.columns:
        if kind == "multiclass" or (kind is None and is_long_multiclass(frame)):
            return long_multiclass_dataset(frame, name)  # y_true: the sample's class
        return _long_dataset(frame, kind, name)
    return _table_dataset(frame, kind, name)


def read_pair_upload(
    labels_name: str,
    labels_bytes: bytes,
    scores_name: str,
    scores_bytes: bytes,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    kind: str | None = None,
    attributes: tuple[str, bytes] | None = None,
    more_scores: Sequence[tuple[str, bytes]] = (),
) -> Dataset:
    """Read an uploaded labels + scores pair (see :func:`read_matrix_pair`).

    Each file may be ``.csv``, ``.tsv``, ``.txt``, ``.parquet`` / ``.pq`` or
    ``.npy``. The model is named after the scores file (``bm25.csv`` gives
    model ``bm25``). ``attributes`` (name, bytes): a side file of the samples'
    attributes keyed by sample id (``0``, ``1``, ... when the pair names none).
    ``more_scores``: more score files of the same labels, (name, bytes) each, a
    model each (:func:`explorer.io.models.merged`), at most ``MAX_MODELS`` files.

    Examples
    --------
    >>> import io, numpy as np
    >>> buf = io.BytesIO()
    >>> np.save(buf, np.array([[0.9, 0.1], [0.2, 0.7]]))
    >>> ds = read_pair_upload("y.csv", b"cat,dog\\n1,0\\n0,2\\n", "bm25.npy", buf.getvalue())
    >>> ds.kind, ds.model_names, ds.label_names
    ('graded', ('bm25',), ('cat', 'dog'))
    >>> two = read_pair_upload("y.csv", b"cat,dog\\n1,0\\n0,2\\n", "bm25.npy", buf.getvalue(),
    ...                        more_scores=[("dense.csv", b"cat,dog\\n0.5,0.4\\n0.1,0.3\\n")])
    >>> two.name, two.model_names
    ('y.csv + 2 score files', ('bm25', 'dense'))
    """
    scores = [(scores_name, scores_bytes), *more_scores]
    _check_models(labels_name, len(scores), "score files beside it")
    for label, data in ((labels_name, labels_bytes), *scores):
        _check_file_name(label)
        _check_size(label, data, max_bytes)
        _check_extension(label, MATRIX_EXTENSIONS)
    _side_checked(attributes, max_bytes)
    reads = [
        (
            s_name,
            read_matrix_pair(
                labels_bytes,
                s_bytes,
                kind=kind,
                name=f"{labels_name} + {s_name}",
                labels_name=labels_name,
                scores_name=s_name,
                model=Path(s_name).stem or "model",
            ),
        )
        for s_name, s_bytes in scores
    ]
    return attach(_gathered(reads, f"{labels_name} + {len(reads)} score files"), attributes)


def _gathered(reads: list[tuple[str, Dataset]], name: str) -> Dataset:
    """The one read as it is, or several reads made one dataset of several models."""
    return reads[0][1] if len(reads) == 1 else merged(reads, name)


def read_trec_upload(
    qrels_name: str,
    qrels_bytes: bytes,
    run_name: str,
    run_bytes: bytes,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    attributes: tuple[str, bytes] | None = None,
    more_runs: Sequence[tuple[str, bytes]] = (),
) -> Dataset:
    """Read uploaded TREC qrels and run files (see :func:`read_trec`); any extension.
    ``attributes`` (name, bytes): a side file of the queries' attributes keyed by
    query id. ``more_runs``: more runs of the same documents, a model each
    (:func:`explorer.io.trec.read_trec_runs`), at most ``MAX_MODELS`` runs.

    Examples
    --------
    >>> ds = read_trec_upload("q.txt", b"7 0 a 1\\n", "r.txt", b"7 Q0 b 1 0.5 x\\n")
    >>> ds.y_true.tolist(), ds.n_samples
    ([[0.0, 1.0]], 1)
    """
    runs = [(run_name, run_bytes), *more_runs]
    _check_models(qrels_name, len(runs), "runs beside it")
    for label, data in ((qrels_name, qrels_bytes), *runs):
        _check_file_name(label)
        _check_size(label, data, max_bytes)
    _side_checked(attributes, max_bytes)
    if more_runs:
        return attach(read_trec_runs(qrels_name, qrels_bytes, runs), attributes)
    ds = read_trec(qrels_bytes, run_bytes, qrels_name=qrels_name, run_name=run_name)
    return attach(ds, attributes)


def read_ranking_upload(
    data_name: str,
    data_bytes: bytes,
    scores: tuple[str, bytes] | None = None,
    query: tuple[str, bytes] | None = None,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    attributes: tuple[str, bytes] | None = None,
    more_scores: Sequence[tuple[str, bytes]] = (),
) -> Dataset:
    """Read uploaded learning-to-rank files (see :func:`explorer.io.ltr.read_ranking`):
    the data (SVMlight / LETOR or a table with a query column), optionally a score file
    and a ``.query`` / ``.group`` file, each a (name, bytes) pair; any extension;
    ``attributes``: a side file of the queries' attributes keyed by query id;
    ``more_scores``: more score files of the same data, a model each (named by its file).

    Examples
    --------
    >>> ds = read_ranking_upload("a.txt", b"1 qid:3 1:0.5\\n0 qid:3 1:0.1\\n",
    ...                          ("pred.txt", b"0.2\\n0.7\\n"))
    >>> ds.sample_ids, ds.model_names, ds.score().tolist()
    (('3',), ('pred',), [[0.2, 0.7]])
    >>> read_ranking_upload("a.txt", b"1 qid:3 1:0.5\\n0 qid:3 1:0.1\\n", ("pred.txt",
    ...     b"0.2\\n0.7\\n"), more_scores=[("lgbm.txt", b"0.9\\n0.1\\n")]).model_names
    ('pred', 'lgbm')
    """
    all_scores = [*([scores] if scores is not None else []), *more_scores]
    _check_models(data_name, len(all_scores), "score files beside it")
    files = [(data_name, data_bytes), *all_scores, *([query] if query is not None else [])]
    for label, data in files:
        _check_file_name(label)
        _check_size(label, data, max_bytes)
    _side_checked(attributes, max_bytes)
    reads = [
        (
            s_name,
            read_ranking(
                data_bytes,
                s_bytes,
                None if query is None else query[1],
                data_name=data_name,
                scores_name=s_name,
                query_name=None if query is None else query[0],
            ),
        )
        for s_name, s_bytes in all_scores or [(None, None)]
    ]
    name = f"{data_name} + {len(reads)} score files" if len(reads) > 1 else None
    ds = _gathered(reads, name) if name else reads[0][1]
    return attach(ds, attributes)
