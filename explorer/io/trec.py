"""TREC qrels and a TREC run, pivoted to a graded relevance matrix."""

from __future__ import annotations

import csv
import dataclasses
import io as _io
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from explorer.datasets import MAX_GRADE, Dataset
from explorer.i18n import Phrase
from explorer.io import limits
from explorer.io.dispatch import _source
from explorer.io.errors import DataError, quote
from explorer.io.groups import no_room
from explorer.io.limits import _check_lines, _check_shape
from explorer.io.text import _scan_lines, _text_bytes
from explorer.io.validation import (
    _bad_cell,
    _count,
    _not_a_number,
    line,
    located,
    too_large_grade,
)

_QRELS_FIELDS = ("qid", "iter", "docid", "rel")
_RUN_FIELDS = ("qid", "Q0", "docid", "rank", "score", "tag")


class _TrecFile:
    """A TREC qrels or run file: a strict fast read, a text path that names bad lines."""

    def __init__(self, data: bytes, label: str, fields: tuple[str, ...], what: str) -> None:
        self.label, self.fields, self.what = label, fields, what
        data = _text_bytes(data, label, "TREC")
        if not data or data.isspace():
            raise DataError(
                Phrase(
                    "${label} is empty: expected TREC ${what} lines (${fields}).",
                    label=label,
                    what=what,
                    fields=" ".join(fields),
                )
            )
        self.data = data
        self._scanned: tuple[np.ndarray, np.ndarray] | None = None
        self._text_df: pd.DataFrame | None = None
        self.df = self._fast_read()
        if self.df is None:
            self.df = self._text()
        _check_lines(label, len(self.df))
        for field in ("qid", "docid", "tag"):  # the fields the pages show
            if field in fields:
                self._check_text(field)

    def _fast_read(self) -> pd.DataFrame | None:
        """pyarrow's reader for the usual one-space (or one-tab) separated file, else None."""
        import pyarrow as pa
        import pyarrow.csv as pacsv

        first = self.data[: self.data.find(b"\n")]
        sep = "\t" if b"\t" in first and b" " not in first.strip() else " "
        numeric = {"rel", "score"}
        types = {f: pa.float64() if f in numeric else pa.string() for f in self.fields}
        try:
            table = pacsv.read_csv(
                _io.BytesIO(self.data),
                read_options=pacsv.ReadOptions(column_names=list(self.fields)),
                parse_options=pacsv.ParseOptions(delimiter=sep, quote_char=False),
                convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
            )
        except (ValueError, OSError, pa.ArrowException):
            return None
        return table.to_pandas()

    def _scan(self) -> tuple[np.ndarray, np.ndarray]:
        if self._scanned is None:
            self._scanned = _scan_lines(self.data, None)
        return self._scanned

    def _text(self) -> pd.DataFrame:
        """Every field as text, after checking the field count of every line."""
        if self._text_df is None:
            lines, counts = self._scan()
            width = len(self.fields)
            # a run line may carry more fields: trec_eval reads the first six (its own
            # test run results.trunc has nine)
            extra = self.what == "run" and bool((counts > width).any())
            bad = np.flatnonzero((counts < width) if self.what == "run" else (counts != width))
            if bad.size:
                i = int(bad[0])
                got = int(counts[i])
                other = {4: "qrels", 6: "run"}.get(got)
                hint = (
                    Phrase(
                        " (that is the shape of a TREC ${other} line: are the two files swapped?)",
                        other=other,
                    )
                    if other and other != self.what
                    else ""
                )
                raise DataError(
                    Phrase(
                        "${at} has ${got} ${fields} but a TREC ${what} line has ${width}: "
                        "${names}${hint}.",
                        at=located(self.label, line(lines[i])),
                        got=got,
                        fields=Phrase("field") if got == 1 else Phrase("fields"),
                        what=self.what,
                        width=width,
                        names=" ".join(self.fields),
                        hint=hint,
                    )
                )
            if extra:
                self._text_df = self._first_fields(width)
                return self._text_df
            self._text_df = pd.read_csv(
                _io.BytesIO(self.data),
                sep=r"\s+",
                header=None,
                names=list(self.fields),
                dtype=str,
                na_filter=False,
                quoting=csv.QUOTE_NONE,
                encoding="utf-8",
            )
        return self._text_df

    def _first_fields(self, width: int) -> pd.DataFrame:
        """The first ``width`` whitespace-separated fields of every non-blank line, as text."""
        lines = pd.Series(self.data.decode("utf-8").splitlines())
        lines = lines[lines.str.strip() != ""].reset_index(drop=True)
        parts = lines.str.split(n=width, expand=True).iloc[:, :width]
        parts.columns = list(self.fields)
        return parts

    def _check_text(self, field: str) -> None:
        """Refuse an id or tag longer than ``MAX_TEXT_CHARS``, naming its line."""
        lengths = self.df[field].str.len().to_numpy(dtype=np.int64, na_value=0)
        long = lengths > limits.MAX_TEXT_CHARS
        if long.any():
            i = int(np.argmax(long))
            limits._check_text(self._field_at(i, field), self.df[field].iloc[i])

    def _field_at(self, i: int, field: str) -> str:
        """``run.txt, line 3, field 5 (score)``: where a message points."""
        return Phrase(
            "${at}, field ${j} (${field})",
            at=located(self.label, line(self.line(i))),
            j=self.fields.index(field) + 1,
            field=field,
        )

    def line(self, i: int) -> int:
        """The line number of record ``i``."""
        return int(self._scan()[0][i])

    def numbers(self, field: str) -> np.ndarray:
        v = self.df[field]
        if v.dtype == np.float64 and np.isfinite(v.to_numpy()).all():
            return v.to_numpy(dtype=np.float64)
        text = self._text()[field]
        v = pd.to_numeric(text, errors="coerce")
        v = np.asarray(v.to_numpy(dtype=np.float64, na_value=np.nan))
        bad = ~np.isfinite(v)
        if bad.any():
            i = int(np.argmax(bad))
            raise DataError(_bad_cell(self._field_at(i, field), _not_a_number(text.iloc[i])))
        return v

    def refuse_duplicates(self, verb: str) -> None:
        """Refuse a document listed twice for one query, naming both lines."""
        q, d = self.df["qid"], self.df["docid"]
        dup = pd.DataFrame({"q": q, "d": d}).duplicated().to_numpy()
        if dup.any():
            i = int(np.argmax(dup))
            j = int(np.argmax(((q == q.iloc[i]) & (d == d.iloc[i])).to_numpy()))
            raise DataError(
                Phrase(
                    "${at}: document ${doc} of query ${query} was already ${verb} on line "
                    "${j} (expected each document once per query).",
                    at=located(self.label, line(self.line(i))),
                    doc=quote(d.iloc[i]),
                    query=quote(q.iloc[i]),
                    verb=Phrase(verb),
                    j=self.line(j),
                )
            )


def read_trec(
    qrels,
    run,
    *,
    name: str | None = None,
    qrels_name: str | None = None,
    run_name: str | None = None,
) -> Dataset:
    """Pivot TREC qrels and a TREC run into a graded relevance matrix.

    Parameters
    ----------
    qrels : path, bytes or file-like
        Whitespace-separated ``qid iter docid rel`` lines (``iter`` is
        ignored). A negative ``rel`` (e.g. -2 for junk) counts as 0, as
        trec_eval treats it as not relevant.
    run : path, bytes or file-like
        Whitespace-separated ``qid Q0 docid rank score tag`` lines (fields
        after the sixth are ignored, as trec_eval ignores them). ``Q0``,
        ``rank`` and ``tag`` are not interpreted (trec_eval ranks by score
        too); the tag names the model when the whole file has one tag.
    name, qrels_name, run_name : str, optional
        The dataset name (default: the run file name) and the file names of
        bytes sources.

    Returns
    -------
    Dataset
        ``kind="graded"``; one row per query of the run that has at least
        one judgment in the qrels, in order of first appearance in the run
        (run queries without judgments are skipped, and judged queries the
        run lacks are not evaluated, as trec_eval without ``-c``). Columns
        are slots ``slot_1``, ``slot_2``, ...: each query has its own
        documents, named in ``item_ids``. Each row holds, left to right:

        1. the retrieved documents in trec_eval's order (score descending,
           ties by docid descending), with the run's score and the judged
           relevance (0 when unjudged). Since the metrics break score ties
           by column order, they rank these exactly as trec_eval does;
        2. the judged relevant documents (rel > 0) the run did not retrieve,
           grade descending, marked False in ``retrieved``;
        3. padding up to the width, no document (item id ``""``), relevance
           0, marked False in ``retrieved``.

        Slots 2 and 3 have the score ``min_score - step`` (``min_score``:
        the lowest score of the run on those queries; ``step``: 1, or
        ``|min_score| * 2**-40`` when larger), below every retrieved one.
        With the ``retrieved`` mask every metric counts an unretrieved
        relevant document in its denominators (recall, AP over all relevant,
        the ideal DCG) and never in a top k, for any k: trec_eval's numbers
        at every cut-off, past the run's depth too. The description says how
        many such documents were added.

    Raises
    ------
    DataError
        A line with too few or too many fields, a non-numeric rel or score,
        a document twice for one query, or no query in common (each naming
        the file and line).

    Examples
    --------
    >>> qrels = b"1 0 d1 1\\n1 0 d2 0\\n1 0 d9 2\\n"
    >>> run = b"1 Q0 d1 1 3.5 bm25\\n1 Q0 d2 2 2.0 bm25\\n1 Q0 d3 3 1.0 bm25\\n"
    >>> ds = read_trec(qrels, run, qrels_name="q.txt", run_name="r.txt")
    >>> ds.y_true.tolist(), ds.score("bm25").tolist()
    ([[1.0, 0.0, 0.0, 2.0]], [[3.5, 2.0, 1.0, 0.0]])
    >>> ds.retrieved.tolist(), ds.item_ids.tolist()
    ([[True, True, True, False]], [['d1', 'd2', 'd3', 'd9']])
    """
    q_data, q_label = _source(qrels, qrels_name, "qrels")
    r_data, r_label = _source(run, run_name, "run")
    q_file = _TrecFile(q_data, q_label, _QRELS_FIELDS, "qrels")
    r_file = _TrecFile(r_data, r_label, _RUN_FIELDS, "run")
    rel, score = q_file.numbers("rel"), r_file.numbers("score")
    _check_grades(q_file, rel)
    q_file.refuse_duplicates("judged")
    r_file.refuse_duplicates("retrieved")
    n_negative = int((rel < 0).sum())
    m = _match(q_file, r_file, np.maximum(rel, 0.0), score)
    _check_shape(f"{r_label} pivoted by query", m.n_q, m.width)
    y, s, seen, items = _matrices(m, r_file.df["docid"], q_file.df["docid"])
    if not np.isfinite(s).all():
        raise DataError(no_room(r_label))
    tags = pd.unique(r_file.df["tag"])
    model = str(tags[0]) if len(tags) == 1 else Path(r_label).stem
    return Dataset(
        name=name or r_label,
        kind="graded",
        y_true=y,
        scores={model: s},
        label_names=tuple(f"slot_{k + 1}" for k in range(m.width)),
        sample_ids=tuple(str(q) for q in m.q_names[m.queries]),
        description=_description(m, q_label, r_label, n_negative),
        source="upload",
        retrieved=seen,
        item_ids=items,
    )


def _check_grades(q_file: _TrecFile, rel: np.ndarray) -> None:
    """Refuse a relevance grade above :data:`MAX_GRADE`, naming its line."""
    huge = rel > MAX_GRADE
    if huge.any():
        i = int(np.argmax(huge))
        raw = q_file._text()["rel"].iloc[i]  # the text as written (an error path only)
        raise DataError(too_large_grade(q_file._field_at(i, "rel"), raw))


class _Match(NamedTuple):
    """The run's documents matched to the judgments, by query (see :func:`_match`)."""

    q_names: pd.Index  # every qid of either file
    queries: np.ndarray  # the rows: codes of the run's judged queries, in run order
    keep: np.ndarray  # the run lines of those queries
    r_row: np.ndarray  # the kept run lines' row, score and relevance (0 when unjudged)
    r_score: np.ndarray
    r_rel: np.ndarray
    n_unjudged: int
    u_row: np.ndarray  # the judged relevant documents the run did not retrieve: row, grade,
    u_rel: np.ndarray  # and their qrels lines
    u_line: np.ndarray
    retrieved: np.ndarray  # per row: documents retrieved, relevant ones added
    added: np.ndarray
    n_run_q: int  # queries of the run, and judged queries
    n_judged_q: int

    @property
    def n_q(self) -> int:
        return len(self.queries)

    @property
    def depth(self) -> int:
        return int(self.retrieved.max())

    @property
    def width(self) -> int:
        return int((self.retrieved + self.added).max())


def _match(q_file: _TrecFile, r_file: _TrecFile, rel: np.ndarray, score: np.ndarray) -> _Match:
    """Match the run's documents to the judgments (``rel``, negative ones as 0)."""
    judged, ranked = q_file.df, r_file.df
    nj = len(judged)
    q_codes, q_names = pd.factorize(pd.concat([judged["qid"], ranked["qid"]], ignore_index=True))
    d_codes, _ = pd.factorize(pd.concat([judged["docid"], ranked["docid"]], ignore_index=True))
    jq, rq, jd, rd = q_codes[:nj], q_codes[nj:], d_codes[:nj], d_codes[nj:]
    n_docs = int(d_codes.max()) + 1
    has_judgment = np.zeros(len(q_names), dtype=bool)
    has_judgment[jq] = True
    keep = has_judgment[rq]
    if not keep.any():
        raise DataError(
            Phrase(
                "none of the ${n:,} queries of ${run} has a judgment in ${qrels} (run qids such "
                "as ${r}, qrels qids such as ${q}).",
                n=len(pd.unique(rq)),
                run=r_file.label,
                qrels=q_file.label,
                r=quote(ranked["qid"].iloc[0]),
                q=quote(judged["qid"].iloc[0]),
            )
        )
    queries = pd.unique(rq[keep])  # in order of first appearance in the run
    row_of = np.full(len(q_names), -1, dtype=np.intp)
    row_of[queries] = np.arange(len(queries))
    r_row = row_of[rq[keep]]
    r_key = rq[keep].astype(np.int64) * n_docs + rd[keep]
    j_key = jq.astype(np.int64) * n_docs + jd
    at = pd.Index(j_key).get_indexer(r_key)
    j_row = row_of[jq]
    unretrieved = (j_row >= 0) & (rel > 0) & (pd.Index(r_key).get_indexer(j_key) < 0)
    return _Match(
        q_names=q_names,
        queries=queries,
        keep=keep,
        r_row=r_row,
        r_score=score[keep],
        r_rel=np.where(at >= 0, rel[at], 0.0),
        n_unjudged=int((at < 0).sum()),
        u_row=j_row[unretrieved],
        u_rel=rel[unretrieved],
        u_line=np.flatnonzero(unretrieved),
        retrieved=np.bincount(r_row, minlength=len(queries)),
        added=np.bincount(j_row[unretrieved], minlength=len(queries)),
        n_run_q=len(pd.unique(rq)),
        n_judged_q=int(has_judgment.sum()),
    )


def _run_order(m: _Match, kept: np.ndarray) -> np.ndarray:
    """The kept run lines in trec_eval's order: by row, score descending, ties by docid
    descending (``kept``: the kept lines' docids, object array).

    Each row's lines go into a row of a (queries x depth) matrix and are sorted there
    (``np.argsort`` along the rows: about four times faster than ``np.lexsort`` of a
    million lines by row and score); only the lines whose score ties another of their
    row are then sorted again by docid.
    """
    by_row = np.argsort(m.r_row, kind="stable")  # file order within each row
    rows = m.r_row[by_row]
    col = np.arange(len(by_row)) - (np.cumsum(m.retrieved) - m.retrieved)[rows]
    key = np.full((m.n_q, m.depth), np.inf)  # the padding sorts after every line
    key[rows, col] = -m.r_score[by_row]
    line = np.full((m.n_q, m.depth), -1, dtype=np.intp)
    line[rows, col] = by_row
    order = np.take_along_axis(line, np.argsort(key, axis=1, kind="stable"), axis=1).ravel()
    order = order[order >= 0]
    r_row_o, r_score_o = m.r_row[order], m.r_score[order]
    tied = (r_row_o[1:] == r_row_o[:-1]) & (r_score_o[1:] == r_score_o[:-1])
    if not tied.any():
        return order
    at = np.flatnonzero(np.concatenate(([False], tied)) | np.concatenate((tied, [False])))
    run = np.cumsum(np.concatenate(([True], ~tied)))[at]  # the tie each position is in
    doc_rank = pd.factorize(kept[order[at]], sort=True)[0]
    order[at] = order[at][np.lexsort((-doc_rank, run))]
    return order


def _matrices(m: _Match, docids: pd.Series, judged_docids: pd.Series) -> tuple:
    """The relevance and score matrices, the retrieved mask and the document ids: the
    retrieved documents in trec_eval's order, the unretrieved relevant documents, the
    padding (see :func:`read_trec`); ``docids`` and ``judged_docids`` are the docid
    columns of the run and of the qrels."""
    width, retrieved, added = m.width, m.retrieved, m.added
    low = float(m.r_score.min())
    step = max(1.0, abs(low) * 2.0**-40)
    y = np.zeros((m.n_q, width))
    s = np.full((m.n_q, width), low - step)
    items = np.full((m.n_q, width), "", dtype=object)
    kept = docids.to_numpy(dtype=object)[m.keep]
    order = _run_order(m, kept)
    r_row_o = m.r_row[order]
    col = np.arange(len(order)) - (np.cumsum(retrieved) - retrieved)[r_row_o]
    y[r_row_o, col] = m.r_rel[order]
    s[r_row_o, col] = m.r_score[order]
    items[r_row_o, col] = kept[order]
    u_order = np.lexsort((-m.u_rel, m.u_row))
    u_row = m.u_row[u_order]
    u_col = retrieved[u_row] + np.arange(len(u_row)) - (np.cumsum(added) - added)[u_row]
    y[u_row, u_col] = m.u_rel[u_order]
    items[u_row, u_col] = judged_docids.to_numpy(dtype=object)[m.u_line[u_order]]
    seen = np.arange(width)[None, :] < retrieved[:, None]
    return y, s, seen, items


def _description(m: _Match, q_label: str, r_label: str, n_negative: int) -> str:
    """What the pivot did: queries, depth, documents added, unjudged, skipped."""
    n_q, depth = m.n_q, m.depth
    notes = [
        f"TREC run {r_label} judged by {q_label}: {_count(n_q, 'query', 'queries')}, "
        f"run depth {depth:,}",
        f"added {_count(len(m.u_row), 'judged relevant document')} the run did not "
        "retrieve, marked unretrieved (they count in recall and the ideal DCG, and never "
        "enter a top k, for any k)",
        f"{_count(m.n_unjudged, 'retrieved document')} without a judgment count as relevance 0",
    ]
    if m.n_run_q > n_q:
        notes.append(
            f"{_count(m.n_run_q - n_q, 'run query', 'run queries')} without judgments skipped"
        )
    if m.n_judged_q > n_q:
        notes.append(
            f"{_count(m.n_judged_q - n_q, 'judged query', 'judged queries')} not in the run"
        )
    if n_negative:
        notes.append(f"{_count(n_negative, 'negative judgment')} counted as 0")
    notes.append("columns are slots; each query's documents are named by their ids")
    return "; ".join(notes) + "."


def _mask(ds: Dataset) -> np.ndarray:
    """The retrieved mask of ``ds``, all True when it holds none (every slot retrieved)."""
    return np.ones(ds.y_true.shape, bool) if ds.retrieved is None else ds.retrieved


def in_docid_order(ds: Dataset) -> Dataset:
    """``ds`` (one run, :func:`read_trec`) with each query's retrieved documents in
    descending docid order instead of the run's ranking: the layout every run of the
    same documents shares, so several runs make one dataset (:func:`read_trec_runs`).

    The metrics break score ties by column order, and trec_eval by docid descending:
    in this order every run's ties fall as trec_eval breaks them. The unretrieved
    relevant documents and the padding keep their places after them.

    Examples
    --------
    >>> qrels = b"1 0 d1 1\\n1 0 d9 2\\n"
    >>> run = b"1 Q0 d1 1 3.5 x\\n1 Q0 d3 2 2.0 x\\n1 Q0 d2 3 2.0 x\\n"
    >>> ds = in_docid_order(read_trec(qrels, run, qrels_name="q", run_name="r"))
    >>> ds.item_ids.tolist(), ds.score("x").tolist(), ds.retrieved.tolist()
    ([['d3', 'd2', 'd1', 'd9']], [[2.0, 2.0, 3.5, 1.0]], [[True, True, True, False]])
    """
    items, seen = ds.item_ids, _mask(ds)
    n_q, width = items.shape
    rank = pd.factorize(items.ravel(), sort=True)[0].reshape(n_q, width)
    col = np.broadcast_to(np.arange(width), (n_q, width))
    # retrieved first, by docid descending; the rest (relevant unretrieved, then
    # padding) in their column order after them
    key = np.where(seen, -rank, width + col)
    order = np.argsort(key, axis=1, kind="stable")

    def moved(a: np.ndarray) -> np.ndarray:
        return np.take_along_axis(a, order, axis=1)

    return dataclasses.replace(
        ds,
        y_true=moved(ds.y_true),
        scores={m: moved(s) for m, s in ds.scores.items()},
        retrieved=moved(seen),
        item_ids=moved(items),
    )


def same_queries(first: Dataset, other: Dataset, label: str, first_label: str) -> Dataset:
    """``other``'s rows in ``first``'s query order; refused when the runs evaluate
    other queries (each run is evaluated on the queries it has judgments for)."""
    if set(other.sample_ids) != set(first.sample_ids):
        extra = sorted(set(other.sample_ids) ^ set(first.sample_ids))[0]
        raise DataError(
            Phrase(
                "${label} and ${first} evaluate different queries (query ${extra} is "
                "in one only): runs opened together must answer the same judged queries.",
                label=label,
                first=first_label,
                extra=quote(extra),
            )
        )
    rows = pd.Index(other.sample_ids).get_indexer(list(first.sample_ids))
    return dataclasses.replace(
        other,
        y_true=other.y_true[rows],
        scores={m: s[rows] for m, s in other.scores.items()},
        retrieved=_mask(other)[rows],
        item_ids=other.item_ids[rows],
        sample_ids=first.sample_ids,
    )


def read_trec_runs(qrels_name: str, qrels: bytes, runs: list[tuple[str, bytes]]) -> Dataset:
    """Several TREC runs judged by one qrels file: one dataset, a model per run.

    Each run is named by its tag (by its file when two runs share a tag, or a run has
    several). The runs must retrieve the same documents for the same judged queries (a
    re-ranking of one candidate list, checkpoints of one model): the dataset holds one
    ``retrieved`` mask for every model. Each query's documents are laid out in
    :func:`in_docid_order`, so every run's score ties fall as trec_eval breaks them.

    Examples
    --------
    >>> qrels = b"1 0 d1 1\\n1 0 d2 0\\n"
    >>> a = b"1 Q0 d1 1 0.9 bm25\\n1 Q0 d2 2 0.1 bm25\\n"
    >>> b = b"1 Q0 d2 1 0.8 dense\\n1 Q0 d1 2 0.3 dense\\n"
    >>> ds = read_trec_runs("q.txt", qrels, [("a.run", a), ("b.run", b)])
    >>> ds.model_names, ds.item_ids.tolist(), ds.score("dense").tolist()
    (('bm25', 'dense'), [['d2', 'd1']], [[0.8, 0.3]])
    """
    from explorer.io.models import merged  # models imports nothing of TREC

    reads = [
        (name, read_trec(qrels, data, qrels_name=qrels_name, run_name=name)) for name, data in runs
    ]
    names = [ds.model_names[0] for _, ds in reads]
    if len(set(names)) < len(names):  # two runs of one tag: their files name them
        names = [Path(name).stem or name for name, _ in reads]
    first_name, first = reads[0][0], in_docid_order(reads[0][1])
    laid = [(first_name, first)]
    for name, ds in reads[1:]:
        ds = in_docid_order(same_queries(first, ds, name, first_name))
        _same_documents(first, ds, first_name, name)
        laid.append((name, ds))
    renamed = [
        (name, dataclasses.replace(ds, scores={model: ds.score()}))
        for (name, ds), model in zip(laid, names, strict=True)
    ]
    return merged(renamed, f"{qrels_name} + {len(runs)} runs")


def _padded(ds: Dataset, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The document ids and retrieved mask of ``ds``, padded with empty slots to ``width``
    (a padding slot holds no document and is not retrieved)."""
    n_q, w = ds.item_ids.shape
    items = np.full((n_q, width), "", dtype=object)
    seen = np.zeros((n_q, width), dtype=bool)
    items[:, :w], seen[:, :w] = ds.item_ids, _mask(ds)
    return items, seen


def _same_documents(first: Dataset, other: Dataset, first_name: str, name: str) -> None:
    """Refuse a run that retrieved other documents than the first for a query."""
    width = max(first.item_ids.shape[1], other.item_ids.shape[1])
    (a, seen_a), (b, seen_b) = _padded(first, width), _padded(other, width)
    differs = (a != b) | (seen_a != seen_b)
    if differs.any():
        row = int(np.flatnonzero(differs.any(axis=1))[0])
        raise DataError(
            Phrase(
                "${name} retrieved other documents than ${first} for query ${query}: runs "
                "opened together must rank the same documents (one dataset holds one "
                "retrieved set); open the runs one by one.",
                name=name,
                first=first_name,
                query=quote(first.sample_ids[row]),
            )
        )
