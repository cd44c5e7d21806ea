"""A table with a query column (XGBoost's ``qid``, a ``query`` column): ranking data.

One row per (query, document): a query column (``qid``, ``query``, ``query_id``),
the relevance grade (``y_true`` or a name :data:`~explorer.io.validation.Y_TRUE_ALIASES`
or :data:`GRADE_ALIASES` lists), the scores (``y_score``, ``score_<model>``, or one
column named like a score) and, optionally, the document (``doc``, ``docid``, ...).
The rows of a query are together, in groups of any size; they are pivoted by
:mod:`explorer.io.groups`. Such a table is always read as ranking, never as
regression, and its description says so. A table without a query column may take
its queries from a LightGBM ``.query`` file (:func:`qid_table_dataset`'s ``blocks``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.io.attributes import note, per_group
from explorer.io.errors import DataError, quote
from explorer.io.groups import blocks_of_qids, check_grades, pivot, ranking_dataset
from explorer.io.limits import _check_models
from explorer.io.svmlight import read_query_file, read_scores_file
from explorer.io.table import SCORE_ALIASES, _alias, alias_note
from explorer.io.validation import Y_TRUE_ALIASES, _Frame, _listed, located

#: Column names read as the query (any case).
QID_ALIASES = ("qid", "query", "query_id", "queryid", "qid_")
#: Column names read as the document (any case).
DOC_ALIASES = ("doc", "docid", "doc_id", "docno", "document", "document_id", "item", "item_id")
#: Further names of the relevance grade in learning-to-rank tables (any case).
GRADE_ALIASES = ("rel", "relevance", "grade")


def qid_column(columns: list[str]) -> str | None:
    """The query column of a table, or None (then it is not a query-grouped table).

    Examples
    --------
    >>> qid_column(["QID", "doc", "label", "score"]), qid_column(["y_true", "y_score"])
    ('QID', None)
    """
    found = [c for c in columns if c.strip().lower() in QID_ALIASES]
    return found[0] if len(found) == 1 else None


def _columns(
    frame: _Frame, qid: str | None, has_file: bool
) -> tuple[str, list[str], str | None, dict]:
    """The grade column, the score columns, the document column and the renamed ones."""
    label, cols = frame.label, [c for c in frame.columns if c != qid]
    mapping: dict[str, str] = {}
    y_col = (
        "y_true"
        if "y_true" in cols
        else _alias(label, cols, Y_TRUE_ALIASES + GRADE_ALIASES, "y_true")
    )
    if y_col is None:
        raise DataError(
            Phrase(
                '${label} has a query column but no relevance column ("y_true", label, '
                "relevance, rel, grade...); its columns are ${cols}.",
                label=label,
                cols=_listed(frame.columns),
            )
        )
    if y_col != "y_true":
        mapping[y_col] = "y_true"
    scores = [c for c in cols if c == "y_score" or c.startswith("score_")]
    if not scores:
        alias = _alias(label, [c for c in cols if c != y_col], SCORE_ALIASES, "y_score")
        if alias is None and has_file:
            return y_col, [], _alias(label, cols, DOC_ALIASES, "doc"), mapping
        if alias is None:
            raise DataError(
                Phrase(
                    '${label} has a query column but no score column ("y_score", '
                    '"score_<model>", score, prediction...); its columns are ${cols}.',
                    label=label,
                    cols=_listed(frame.columns),
                )
            )
        mapping[alias] = "y_score"
        scores = [alias]
    doc = _alias(label, cols, DOC_ALIASES, "doc")
    return y_col, scores, doc, mapping


def _check_docs_once(frame: _Frame, qids, docs) -> None:
    """Refuse a document twice in one query, naming both rows."""
    import pandas as pd

    dup = pd.DataFrame({"q": qids, "d": docs}).duplicated().to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        j = int(np.argmax(((qids == qids.iloc[i]) & (docs == docs.iloc[i])).to_numpy()))
        raise DataError(
            Phrase(
                "${at}: document ${doc} of query ${query} already appears on ${where} "
                "(expected each document once per query).",
                at=located(frame.label, frame.where(i)),
                doc=quote(docs.iloc[i]),
                query=quote(qids.iloc[i]),
                where=frame.where(j),
            )
        )


def qid_table_dataset(
    frame: _Frame,
    name: str | None,
    *,
    query_file: tuple[str, bytes] | None = None,
    scores_file: tuple[str, bytes] | None = None,
) -> Dataset:
    """The Dataset of a query-grouped table (see the module's docstring).

    Parameters
    ----------
    frame : _Frame
        The opened table.
    name : str or None
        The dataset name (default: the file name).
    query_file : (str, bytes), optional
        A LightGBM ``.query`` file's name and content: the queries, when the table
        has no query column.
    scores_file : (str, bytes), optional
        A score file's name and content (one score per row): one more model, named
        after the file.

    Examples
    --------
    >>> from explorer.io.dispatch import _open_frame
    >>> f = _open_frame(b"qid,doc,label,score\\n7,a,2,0.1\\n7,b,0,0.3\\n9,c,1,0.2\\n",
    ...                 "t.csv", "csv")
    >>> ds = qid_table_dataset(f, None)
    >>> ds.sample_ids, ds.y_true.tolist(), ds.score().tolist()
    (('7', '9'), [[2.0, 0.0], [1.0, 0.0]], [[0.1, 0.3], [0.2, -0.9]])
    """
    qid = qid_column(frame.columns)
    y_col, score_cols, doc, mapping = _columns(frame, qid, scores_file is not None)
    _check_models(frame.label, len(score_cols) + (scores_file is not None), "score columns")
    frame.load([y_col, *score_cols])
    y = frame.numbers(y_col)
    check_grades(y, lambda i: frame.cell(i, y_col), lambda i: frame.raw(i, y_col))
    notes = []
    if query_file is not None:
        if qid is not None:
            raise DataError(
                Phrase(
                    "${label} has a query column (${qid}) and ${file} counts the queries: give "
                    "one of the two.",
                    label=frame.label,
                    qid=quote(qid),
                    file=query_file[0],
                )
            )
        blocks = read_query_file(query_file[1], query_file[0], len(y), frame.label)
        notes.append(f"queries from {query_file[0]}, numbered 1, 2, ... in order")
    elif qid is None:
        raise DataError(
            Phrase(
                "${label} has no query column (qid, query, query_id): add one, or the "
                ".query file that counts the rows of each query.",
                label=frame.label,
            )
        )
    else:
        qids = frame.strings(qid)
        empty = (qids == "").to_numpy()
        if empty.any():
            i = int(np.argmax(empty))
            raise DataError(
                Phrase("${cell}: is empty (expected a query id).", cell=frame.cell(i, qid))
            )
        blocks = blocks_of_qids(qids, frame.where, frame.label)
    doc_ids = None
    if doc is not None:
        docs = frame.strings(doc)
        if qid is not None:
            _check_docs_once(frame, frame.strings(qid), docs)
        doc_ids = docs.to_numpy(dtype=object)
    arrays = {c: frame.numbers(c) for c in score_cols}
    if score_cols != ["y_score"] and all(c.startswith("score_") for c in score_cols):
        arrays = {(c.removeprefix("score_") or c): v for c, v in arrays.items()}
    elif score_cols and mapping.get(score_cols[0]) == "y_score":
        arrays = {"y_score": arrays[score_cols[0]]}
    if scores_file is not None:
        s_label, s_data = scores_file
        model = Path(s_label).stem or "model"
        arrays[model] = read_scores_file(s_data, s_label, len(y), frame.label, frame.where)
        notes.append(f"scores of {model} from {s_label}")
    p = pivot(blocks, frame.label, y, arrays, doc_ids)
    used = {qid, y_col, doc, *score_cols}
    codes = np.repeat(np.arange(len(blocks.sizes)), blocks.sizes)
    attributes, varying = per_group(
        frame, [c for c in frame.columns if c not in used], codes, len(blocks.sizes)
    )
    if attributes or varying:  # a query's topic is kept; a document's feature is not
        notes.append(note(attributes, varying).replace("of a sample", "of a query"))
    if mapping:
        notes.append(alias_note(mapping))
    if doc is None:
        notes.append("documents named by their row within the query")
    return ranking_dataset(name or frame.label, frame.label, blocks, p, notes, attributes)
