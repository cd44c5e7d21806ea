"""TREC qrels and runs read as trec_eval reads them, and its report.

A run line is ``qid Q0 docid rank score tag [anything]``: trec_eval reads the
first six fields and ignores the rest (its own test run ``results.trunc``
has nine). A qrels line is ``qid iter docid rel``; a negative ``rel`` marks
a pooled but unjudged document (not counted as judged). Each evaluated
query (in the run and in the qrels) is a row of :class:`TrecMatrices`: its
retrieved documents in trec_eval's order (score descending, ties by docid
descending), then its judged documents the run did not retrieve, then
padding (neither retrieved nor judged). The app's reader is
``explorer.io.trec``, which names bad lines for the Data page.

Examples
--------
>>> m = read_trec_files(b"1 0 a 1\\n1 0 b 0\\n1 0 c 1\\n", b"1 Q0 b 1 2.0 x\\n1 Q0 a 2 1.0 x\\n")
>>> m.y_true.tolist(), m.retrieved.tolist()
([[0.0, 1.0, 1.0]], [[True, True, False]])
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from metrics._validation import MetricInputError
from metrics.trec import CUTOFFS, RECALL_LEVELS, trec_aggregate, trec_measures

if TYPE_CHECKING:  # the annotations' DataFrame; pandas itself is imported where used
    import pandas as pd

__all__ = ["DEFAULT_MEASURES", "TrecMatrices", "read_trec_files", "trec_report"]

#: trec_eval's default report (no ``-m``), in its order.
DEFAULT_MEASURES = (
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    *(f"iprec_at_recall_{r:.2f}" for r in RECALL_LEVELS),
    *(f"P_{k}" for k in CUTOFFS),
)


@dataclass(frozen=True)
class TrecMatrices:
    """The evaluated queries of a run as matrices for :func:`metrics.trec.trec_measures`.

    Examples
    --------
    >>> m = read_trec_files(b"7 0 a 1\\n8 0 b 1\\n", b"7 Q0 a 1 1.0 bm25\\n")
    >>> m.qids, m.runid, m.missing_qids, m.missing_rel
    (('7',), 'bm25', ('8',), 1)
    """

    qids: tuple[str, ...]
    y_true: np.ndarray
    y_score: np.ndarray
    retrieved: np.ndarray
    judged: np.ndarray
    runid: str
    missing_qids: tuple[str, ...]  # judged queries the run lacks (trec_eval -c counts them)
    missing_rel: int  # their relevant documents


def _fields(data, n: int, what: str, label: str) -> pd.DataFrame:
    """The first ``n`` whitespace-separated fields of every non-blank line."""
    import pandas as pd

    if isinstance(data, str | Path):
        label = str(data)
        data = Path(data).read_bytes()
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data.read()
    lines = pd.Series(io.StringIO(text).read().splitlines())
    lines = lines[lines.str.strip() != ""].reset_index(drop=True)
    parts = lines.str.split(n=n, expand=True)
    if lines.empty or parts.shape[1] < n or parts.iloc[:, n - 1].isna().any():
        short = (
            0 if lines.empty or parts.shape[1] < n else int(parts.iloc[:, n - 1].isna().argmax())
        )
        raise MetricInputError(
            f"{label}: line {short + 1} has fewer than {n} fields; a TREC {what} line has {n}."
        )
    return parts.iloc[:, :n]


def _number(column: pd.Series, label: str, field: str) -> np.ndarray:
    import pandas as pd

    v = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isfinite(v)
    if bad.any():
        i = int(np.argmax(bad))
        raise MetricInputError(f"{label}: the {field} {column.iloc[i]!r} is not a finite number.")
    return v


def read_trec_files(qrels, run, *, qrels_label="qrels", run_label="run") -> TrecMatrices:
    """Read TREC qrels and a run (paths, bytes or text files) into :class:`TrecMatrices`.

    Parameters
    ----------
    qrels, run : path, bytes or text file
        ``qid iter docid rel`` and ``qid Q0 docid rank score tag`` lines
        (fields after the sixth ignored, as trec_eval ignores them).
    qrels_label, run_label : str
        Names for the messages of bytes sources.

    Returns
    -------
    TrecMatrices

    Raises
    ------
    MetricInputError
        A line with too few fields, a non-numeric score or rel, or no query in common.

    Examples
    --------
    A run line with extra fields, as trec_eval's own ``results.trunc``:

    >>> m = read_trec_files(b"1 0 a 1\\n", b"1 Q0 a 1 2.0 run extra fields\\n")
    >>> m.y_true.tolist(), m.runid
    ([[1.0]], 'run')
    """
    import pandas as pd

    q = _fields(qrels, 4, "qrels", qrels_label)
    r = _fields(run, 6, "run", run_label)
    judged = pd.DataFrame({"qid": q[0], "docid": q[2], "rel": _number(q[3], qrels_label, "rel")})
    ranked = pd.DataFrame({"qid": r[0], "docid": r[2], "score": _number(r[4], run_label, "score")})
    judged = judged.drop_duplicates(["qid", "docid"], keep="last")
    ranked = ranked.drop_duplicates(["qid", "docid"], keep="first")
    qids = np.sort(pd.unique(ranked["qid"][ranked["qid"].isin(judged["qid"])]))
    if not len(qids):
        raise MetricInputError(f"no query of {run_label} has a judgment in {qrels_label}.")
    missing = np.sort(pd.unique(judged["qid"][~judged["qid"].isin(ranked["qid"])]))
    missing_rel = int(((judged["rel"] > 0) & judged["qid"].isin(missing)).sum())
    both = pd.merge(ranked[ranked["qid"].isin(qids)], judged[judged["qid"].isin(qids)], how="outer")
    both["ret"] = both["score"].notna()
    both = both.sort_values(
        ["qid", "ret", "score", "docid"], ascending=[True, False, False, False], kind="stable"
    )
    row = np.searchsorted(qids, both["qid"].to_numpy())
    col = both.groupby("qid", sort=False).cumcount().to_numpy()
    shape = (len(qids), int(col.max()) + 1)
    rel = both["rel"].to_numpy(dtype=np.float64, na_value=np.nan)
    y_true, y_score = np.zeros(shape), np.zeros(shape)
    retrieved, is_judged = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
    y_true[row, col] = np.where(rel > 0, rel, 0.0)
    y_score[row, col] = both["score"].fillna(0.0).to_numpy()
    retrieved[row, col] = both["ret"].to_numpy()
    is_judged[row, col] = rel >= 0  # NaN (not in the qrels) and negative: not judged
    return TrecMatrices(
        qids=tuple(qids.astype(str).tolist()),
        y_true=y_true,
        y_score=y_score,
        retrieved=retrieved,
        judged=is_judged,
        runid=str(r[5].iloc[0]),
        missing_qids=tuple(missing.astype(str).tolist()),
        missing_rel=missing_rel,
    )


def _chosen(measures, available) -> list[str]:
    """Measure names or families (``P`` for every ``P_k``; ``all_trec`` for every one)."""
    if not measures:
        return list(DEFAULT_MEASURES)
    out: list[str] = []
    for m in measures:
        if m == "all_trec":
            found = list(available)
        else:
            found = [a for a in available if a == m or a.startswith(f"{m}_") and a[len(m) + 1 :]]
            found = [a for a in found if a == m or a[len(m) + 1 : len(m) + 2].isdigit()]
        if not found:
            raise MetricInputError(f"unknown measure {m!r}; known: {', '.join(available)}.")
        out += [a for a in found if a not in out]
    return out


def _value(name: str, value: float) -> str:
    if name in ("num_ret", "num_rel", "num_rel_ret", "num_q"):
        return str(int(round(value)))
    return f"{value:.4f}"


def trec_report(
    m: TrecMatrices, *, measures=(), per_query=False, complete=False, depth=None
) -> list[str]:
    """trec_eval's report lines, ``measure\\tqid\\tvalue`` (name padded to 22 characters).

    Parameters
    ----------
    m : TrecMatrices
        From :func:`read_trec_files`.
    measures : sequence of str
        Measure names or families (``P``: every ``P_k``; ``all_trec``: every
        measure); empty: trec_eval's default set.
    per_query : bool
        trec_eval's ``-q``: the lines of every query before the ``all`` lines
        (gm_map has ``all`` lines only).
    complete : bool
        ``-c``: judged queries missing from the run count as 0.
    depth : int, optional
        ``-M``: only the top ``depth`` documents of each query count.

    Returns
    -------
    list of str

    Examples
    --------
    >>> m = read_trec_files(b"1 0 a 1\\n1 0 c 1\\n", b"1 Q0 a 1 2.0 x\\n1 Q0 b 2 1.0 x\\n")
    >>> for line in trec_report(m, measures=["map", "P_5"]):
    ...     print(line.split())
    ['runid', 'all', 'x']
    ['num_q', 'all', '1']
    ['map', 'all', '0.5000']
    ['P_5', 'all', '0.2000']
    """
    values = trec_measures(m.y_true, m.y_score, retrieved=m.retrieved, judged=m.judged, depth=depth)
    names = _chosen(measures, list(values))
    chosen = {n: values[n] for n in names}
    lines = []
    if per_query:
        for i, qid in enumerate(m.qids):
            lines += [
                f"{n:<22}\t{qid}\t{_value(n, v[i])}" for n, v in chosen.items() if n != "gm_map"
            ]
    n_missing = len(m.missing_qids) if complete else 0
    agg = trec_aggregate(chosen, n_missing=n_missing, missing_rel=m.missing_rel if complete else 0)
    lines.append(f"{'runid':<22}\tall\t{m.runid}")
    lines.append(f"{'num_q':<22}\tall\t{agg['num_q']}")
    lines += [f"{n:<22}\tall\t{_value(n, agg[n])}" for n in names]
    return lines
