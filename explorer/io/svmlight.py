"""SVMlight / LETOR files with their scores: learning-to-rank data as LightGBM and
XGBoost read it.

A line is ``label [qid:Q] index:value ... [# comment]`` (MSLR-WEB10K, Yahoo,
LETOR, LightGBM's and XGBoost's ranking examples). The label is the relevance
grade; the features are not read (they made the scores, which come beside the
file). The queries come from the ``qid:`` fields or from a LightGBM ``.query`` /
``.group`` file (one count of rows per query, in order). A LETOR comment
``docid = X`` names the document. The scores are a score file: one number per
line, a line per data line (LightGBM's ``predict`` output, XGBoost's
``predict`` saved with ``np.savetxt``).

Each line is matched by one regular expression over the whole column of lines
(pandas' vectorized string methods); a refusal names the file and the line.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.io import limits
from explorer.io.dispatch import _source
from explorer.io.errors import DataError, quote
from explorer.io.groups import (
    Blocks,
    blocks_of_counts,
    blocks_of_qids,
    check_grades,
    pivot,
    ranking_dataset,
)
from explorer.io.limits import _check_lines
from explorer.io.text import _text_bytes
from explorer.io.validation import _not_a_number, line, located

#: label, optional qid, the features, optional comment.
_LINE = (
    r"^\s*(?P<label>[^\s#]+)(?:\s+qid:(?P<qid>[^\s#]*))?"
    r"(?P<features>[^#]*)(?:#(?P<comment>.*))?$"
)
#: The features: ``index:value`` pairs separated by whitespace.
_FEATURES = r"(?:\s+[^\s:#]+:[^\s#]+)*\s*"
#: A first data line that is SVMlight: a number, then qid: or an index:value pair.
_SNIFF = r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s+(?:qid:\S+|[^\s:#]+:[^\s#]+)"
_DOCID = r"docid\s*=\s*(\S+)"


def _lines(data: bytes, label: str, what: str) -> pd.Series:
    """The lines of a text file (index: the 0-based line number), without line ends."""
    text = _text_bytes(data, label, what).decode("utf-8")
    lines = pd.Series(text.split("\n"), dtype=object).str.rstrip("\r")
    return lines


def looks_like_svmlight(data: bytes) -> bool:
    """Whether the first line that is not blank or a comment reads as SVMlight.

    Examples
    --------
    >>> looks_like_svmlight(b"# MSLR\\n2 qid:1 1:0.5 2:3\\n")
    True
    >>> looks_like_svmlight(b"y_true,y_score\\n1,0.5\\n")
    False
    """
    head = data[:65536].decode("utf-8", errors="replace").split("\n")
    for text in head:
        if text.strip() and not text.lstrip().startswith("#"):
            return re.match(_SNIFF, text) is not None
    return False


class SvmlightFile:
    """The data lines of an SVMlight file: grades, qids (or None), document ids, lines."""

    def __init__(self, data: bytes, label: str) -> None:
        self.label = label
        lines = _lines(data, label, "SVMlight")
        content = lines.str.replace(r"#.*$", "", regex=True).str.strip()
        keep = (content != "").to_numpy()
        if not keep.any():
            raise DataError(
                Phrase(
                    "${label} has no data lines (expected 'label qid:Q index:value ...').",
                    label=label,
                )
            )
        _check_lines(label, int(keep.sum()))
        self.line_no = np.flatnonzero(keep) + 1
        parts = lines[keep].str.extract(_LINE)
        self._check_features(parts["features"])
        self.raw_label = parts["label"].reset_index(drop=True)
        self.y = self._grades()
        self.qids = self._qids(parts["qid"].reset_index(drop=True))
        docids = parts["comment"].str.extract(_DOCID)[0].reset_index(drop=True)
        self.doc_ids = None if docids.isna().any() else docids.to_numpy(dtype=object)

    def where(self, i: int) -> str:
        return line(self.line_no[i])

    def _check_features(self, features: pd.Series) -> None:
        bad = ~features.fillna("").str.fullmatch(_FEATURES).to_numpy()
        if bad.any():
            i = int(np.argmax(bad))
            token = next(t for t in features.iloc[i].split() if ":" not in t or t.startswith(":"))
            raise DataError(
                Phrase(
                    "${at}: ${token} is not a feature (an SVMlight line is 'label qid:Q "
                    "index:value ...'; the features are not read, but each is index:value).",
                    at=located(self.label, self.where(i)),
                    token=quote(token),
                )
            )

    def _grades(self) -> np.ndarray:
        y = pd.to_numeric(self.raw_label, errors="coerce").to_numpy(dtype=np.float64)
        bad = ~np.isfinite(y)
        if bad.any():
            i = int(np.argmax(bad))
            raise DataError(
                Phrase(
                    "${at}: ${why} (an SVMlight line starts with the relevance label).",
                    at=located(self.label, self.where(i)),
                    why=_not_a_number(self.raw_label.iloc[i]),
                )
            )
        check_grades(
            y, lambda i: located(self.label, self.where(i)), self.raw_label.iloc.__getitem__
        )
        return y

    def _qids(self, qids: pd.Series) -> pd.Series | None:
        has = qids.notna().to_numpy()
        if not has.any():
            return None
        if not has.all():
            i = int(np.argmax(~has))
            j = int(np.argmax(has))
            raise DataError(
                Phrase(
                    "${at} has no qid: but line ${j} has one (every line names its query, or "
                    "none does and a .query file gives the queries).",
                    at=located(self.label, self.where(i)),
                    j=self.line_no[j],
                )
            )
        empty = (qids == "").to_numpy()
        if empty.any():
            raise DataError(
                Phrase(
                    "${at}: qid: is empty (expected a query id).",
                    at=located(self.label, self.where(int(np.argmax(empty)))),
                )
            )
        long = (qids.str.len() > limits.MAX_TEXT_CHARS).to_numpy()
        if long.any():
            i = int(np.argmax(long))
            limits._check_text(
                Phrase("${at}, qid", at=located(self.label, self.where(i))), qids.iloc[i]
            )
        return qids


def read_numbers_file(data: bytes, label: str, what: str) -> tuple[np.ndarray, np.ndarray]:
    """A file of one number per line (scores, or a query file's counts): the numbers and
    their line numbers. Blank lines at the end are skipped; any other line holds a number.

    Examples
    --------
    >>> read_numbers_file(b"0.5\\n-1e3\\n\\n", "p.txt", "score")[0].tolist()
    [0.5, -1000.0]
    >>> try:
    ...     read_numbers_file(b"0.5\\n\\n2\\n", "p.txt", "score")
    ... except DataError as exc:
    ...     print(exc)
    p.txt, line 2 is empty (expected one score per line).
    """
    lines = _lines(data, label, what).str.strip()
    filled = np.flatnonzero((lines != "").to_numpy())
    if not filled.size:
        raise DataError(
            Phrase("${label} is empty (expected one ${what} per line).", label=label, what=what)
        )
    lines = lines.iloc[: filled[-1] + 1]
    _check_lines(label, len(lines))
    values = pd.to_numeric(lines, errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.argmax(bad))
        raw = lines.iloc[i]
        if raw == "":
            raise DataError(
                Phrase(
                    "${at} is empty (expected one ${what} per line).",
                    at=located(label, line(i + 1)),
                    what=Phrase(what),
                )
            )
        more = Phrase(" (one per line: this file has several columns)")
        raise DataError(
            Phrase(
                "${at}: ${why}${more}.",
                at=located(label, line(i + 1)),
                why=_not_a_number(raw),
                more=more if len(raw.split()) > 1 else "",
            )
        )
    return values, np.arange(1, len(values) + 1)


def read_query_file(data: bytes, label: str, n_rows: int, data_label: str) -> Blocks:
    """A LightGBM ``.query`` / ``.group`` file: rows per query, adding up to ``n_rows``.

    Examples
    --------
    >>> read_query_file(b"2\\n1\\n", "d.query", 3, "d.txt").sizes.tolist()
    [2, 1]
    """
    counts, _ = read_numbers_file(data, label, "count")
    bad = (counts < 1) | (counts != np.round(counts))
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(
            Phrase(
                "${at}: ${count} is not a count of rows (expected a whole number >= 1: the rows "
                "of one query).",
                at=located(label, line(i + 1)),
                count=f"{counts[i]:g}",
            )
        )
    return blocks_of_counts(counts.astype(np.int64), n_rows, label, data_label)


def read_scores_file(data: bytes, label: str, n_rows: int, data_label: str, where) -> np.ndarray:
    """One score per data row, in order; a file of another length is refused by line.

    ``where(i)`` says where data row ``i`` of ``data_label`` is (``"line 7"``).
    """
    scores, _ = read_numbers_file(data, label, "score")
    if len(scores) < n_rows:
        raise DataError(
            Phrase(
                "${at} has no score: ${label} ends at line ${n:,} but ${data} has ${rows:,} "
                "data rows (one score per data row, in order).",
                at=located(data_label, where(len(scores))),
                label=label,
                n=len(scores),
                data=data_label,
                rows=n_rows,
            )
        )
    if len(scores) > n_rows:
        raise DataError(
            Phrase(
                "${at}: a score beyond the ${rows:,} data rows of ${data} (one score per data "
                "row, in order).",
                at=located(label, line(n_rows + 1)),
                rows=n_rows,
                data=data_label,
            )
        )
    return scores


def read_svmlight(
    source,
    scores=None,
    *,
    query=None,
    name: str | None = None,
    data_name: str | None = None,
    scores_name: str | None = None,
    query_name: str | None = None,
) -> Dataset:
    """Read an SVMlight / LETOR file and its scores into a query-by-document matrix.

    Parameters
    ----------
    source : path, bytes or file-like
        ``label [qid:Q] index:value ... [# comment]`` lines. The label is the
        relevance grade (>= 0); features are not read; ``# docid = X`` names the
        document. Blank lines and ``#`` lines are skipped.
    scores : path, bytes or file-like
        One score per data line, in order (LightGBM's or XGBoost's predictions).
        The model is named after this file (``pred.txt`` gives ``pred``). Required:
        None is refused with a sentence saying so.
    query : path, bytes or file-like, optional
        A LightGBM ``.query`` / ``.group`` file: the rows of each query, one count per
        line. Needed when the lines have no ``qid:``; refused when they have one.
    name, data_name, scores_name, query_name : str, optional
        The dataset name (default: the data file's name) and the files' names.

    Returns
    -------
    Dataset
        ``kind="graded"``, one row per query in the file's order, each query's
        documents in the file's order; shorter queries padded with slots not
        retrieved. ``item_ids`` are the LETOR docids, else each document's row
        number within its query.

    Raises
    ------
    DataError
        A line that is not SVMlight, a bad label, a query whose lines are not
        together, a query file whose counts do not add up to the lines, or a score
        file of another length (each naming the file and line).

    Examples
    --------
    >>> data = b"2 qid:7 1:0.1\\n0 qid:7 1:0.3\\n1 qid:9 1:0.2 # docid = d3\\n"
    >>> ds = read_svmlight(data, b"0.9\\n0.2\\n0.4\\n", data_name="a.txt",
    ...                    scores_name="lgbm.txt")
    >>> ds.sample_ids, ds.model_names, ds.y_true.tolist()
    (('7', '9'), ('lgbm',), [[2.0, 0.0], [1.0, 0.0]])
    """
    data, label = _source(source, data_name, "data")
    if scores is None:
        raise DataError(
            Phrase(
                "${label} is an SVMlight file: it holds the relevance labels and features, not "
                "a model's scores. Add the score file beside it (one score per line, as "
                "LightGBM's and XGBoost's predict write them).",
                label=label,
            )
        )
    s_data, s_label = _source(scores, scores_name, "scores")
    f = SvmlightFile(data, label)
    n = len(f.y)
    extra = []
    if query is not None:
        q_data, q_label = _source(query, query_name, "query")
        if f.qids is not None:
            raise DataError(
                Phrase(
                    "${label} names its queries (qid:) and ${file} counts them: give one of "
                    "the two.",
                    label=label,
                    file=q_label,
                )
            )
        blocks = read_query_file(q_data, q_label, n, label)
        extra.append(f"queries from {q_label}, numbered 1, 2, ... in order")
    elif f.qids is None:
        raise DataError(
            Phrase(
                "${label} has no qid: fields: add the query file (.query or .group, one count of "
                "rows per query) that LightGBM reads beside it.",
                label=label,
            )
        )
    else:
        blocks = blocks_of_qids(f.qids, f.where, label)
    score = read_scores_file(s_data, s_label, n, label, f.where)
    model = Path(s_label).stem or "model"
    p = pivot(blocks, label, f.y, {model: score}, f.doc_ids)
    extra.append(f"scores from {s_label}")
    if f.doc_ids is None:
        extra.append("documents named by their row within the query")
    return ranking_dataset(name or label, label, blocks, p, extra)
