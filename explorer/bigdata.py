"""Parquet data too large to upload, named by the host: exact headlines, a stated sample.

The host (never a visitor) names Parquet files or folders in the environment
variable ``METRIC_EXPLORER_BIG_DATA`` (see ``docs/hosting.md``): entries
separated by ``;``, each a path or URL followed by ``key=value`` options,
separated by ``,``::

    METRIC_EXPLORER_BIG_DATA="/data/clicks.parquet,name=clicks,y_true=clicked,score=p"

Options: ``name`` (the picker's name; default the file's stem), ``kind``
(``binary`` by default, or ``multilabel``, ``graded``, ``regression``),
``y_true`` and ``score`` (columns; default ``y_true`` and ``y_score``; for
the matrix kinds one list column, or scalar columns joined by ``+``, one
per label), ``weight`` (a ``sample_weight`` column), ``sample`` (rows in
the sample, default 100,000, at most 1,000,000) and ``seed`` (default 0).
The path is anything ``pyarrow.dataset.dataset`` reads: a file, a folder
of files, or an ``s3://`` / ``gs://`` / ``file://`` URI.

:func:`load` reads the data once, by record batches (only the named
columns), and builds in the same pass

* the merged state of :mod:`metrics.states` over every row, from which
  :func:`exact_headline` gives the headline numbers exactly (equal to the
  in-memory functions on all rows), and
* a uniform random sample of rows without replacement (seeded), which
  becomes an ordinary :class:`~explorer.datasets.Dataset` for the per-sample
  pages; its description says it is a sample of N of M rows, and its
  sample ids are the rows' numbers in the file.

No Streamlit here; the cached form is declared in :mod:`explorer.ui.cache`
(section "Big data"). A visitor picks an entry by its name only; no path
from a URL or a widget ever reaches :func:`load`.

Examples
--------
>>> sources, problems = parse_config("/data/a.parquet,name=big a,sample=1000")
>>> sources[0].name, sources[0].path, sources[0].kind, sources[0].sample, problems
('big a', '/data/a.parquet', 'binary', 1000, [])
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np

import metrics
from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.io import DataError
from explorer.pages.home import Number

#: The kinds whose merged states metrics.states computes (no multiclass state yet).
BIG_KINDS = ("binary", "multilabel", "graded", "regression")

__all__ = [
    "ENV",
    "SampledDataset",
    "Source",
    "check_columns",
    "exact_curves",
    "exact_headline",
    "load",
    "parse_config",
    "signature",
    "sources",
]

LOG = logging.getLogger(__name__)
#: The environment variable that names the host's big Parquet data.
ENV = "METRIC_EXPLORER_BIG_DATA"
DEFAULT_SAMPLE = 100_000
MAX_SAMPLE = 1_000_000
#: The ``python -m metrics evaluate`` task of each Dataset kind.
TASK = {"binary": "binary", "multilabel": "multilabel", "graded": "ranking",
        "regression": "regression"}  # fmt: skip


class Source(NamedTuple):
    """One entry of :data:`ENV`: where the data is and which columns mean what."""

    name: str
    path: str
    kind: str = "binary"
    y_true: tuple[str, ...] = ("y_true",)
    score: tuple[str, ...] = ("y_score",)
    weight: str | None = None
    sample: int = DEFAULT_SAMPLE
    seed: int = 0


def _entry(text: str) -> Source:
    """One entry of the configuration (raises ValueError with the reason)."""
    fields = [f.strip() for f in text.split(",") if f.strip()]
    options: dict[str, str] = {}
    path = None
    for i, f in enumerate(fields):
        key, eq, value = f.partition("=")
        if not eq and i == 0:
            path = f
            continue
        if not eq:
            raise ValueError(f"{f!r} is not key=value")
        options[key.strip()] = value.strip()
    path = options.pop("path", path)
    if not path:
        raise ValueError("no path")
    name = options.pop("name", None) or Path(path.rstrip("/")).stem or path
    kind = options.pop("kind", "binary")
    if kind not in BIG_KINDS:
        raise ValueError(f"kind {kind!r} is not one of {', '.join(BIG_KINDS)}")
    y_true = tuple(options.pop("y_true", "y_true").split("+"))
    score = tuple(options.pop("score", "y_score").split("+"))
    if kind in ("binary", "regression") and (len(y_true) > 1 or len(score) > 1):
        raise ValueError(f"kind {kind!r} takes one y_true and one score column")
    weight = options.pop("weight", None) or None
    try:
        sample = int(options.pop("sample", DEFAULT_SAMPLE))
        seed = int(options.pop("seed", 0))
    except ValueError:
        raise ValueError("sample and seed must be whole numbers") from None
    if not 1 <= sample <= MAX_SAMPLE:
        raise ValueError(f"sample must be between 1 and {MAX_SAMPLE:,}")
    if options:
        raise ValueError(f"unknown option {next(iter(options))!r}")
    return Source(name, path, kind, y_true, score, weight, sample, seed)


def parse_config(text: str, *, taken: tuple[str, ...] = ()) -> tuple[list[Source], list[str]]:
    """The entries of a :data:`ENV` value, and a sentence for each entry refused.

    Parameters
    ----------
    text : str
        Entries separated by ``;`` (see the module's description).
    taken : tuple of str
        Names already in use (the bundled samples): an entry may not take one.

    Returns
    -------
    sources : list of Source
    problems : list of str

    Examples
    --------
    >>> ok, bad = parse_config("a.parquet; b.parquet,kind=cat; c.parquet,name=balanced",
    ...                        taken=("balanced",))
    >>> [s.name for s in ok]
    ['a']
    >>> print(bad[0])  # doctest: +NORMALIZE_WHITESPACE
    METRIC_EXPLORER_BIG_DATA entry 2 ('b.parquet,kind=cat'): kind 'cat' is not one of
    binary, multilabel, graded, regression.
    """
    sources: list[Source] = []
    problems: list[str] = []
    for i, part in enumerate((p.strip() for p in text.split(";")), start=1):
        if not part:
            continue
        try:
            source = _entry(part)
            if source.name in taken or any(s.name == source.name for s in sources):
                raise ValueError(f"the name {source.name!r} is already taken")
        except ValueError as exc:
            problems.append(f"{ENV} entry {i} ({part!r}): {exc}.")
            LOG.warning("%s", problems[-1])
        else:
            sources.append(source)
    return sources, problems


def sources(*, taken: tuple[str, ...] = ()) -> tuple[list[Source], list[str]]:
    """The host's entries, read from the environment now (see :func:`parse_config`)."""
    return parse_config(os.environ.get(ENV, ""), taken=taken)


def signature(source: Source) -> tuple:
    """What changes when the data changes: size and modification time of each local file.

    Part of the cache key of :func:`load` (a replaced file is read again). A URI
    that is not a local path has the empty signature.

    Examples
    --------
    >>> signature(Source("x", "s3://bucket/data"))
    ()
    """
    root = Path(source.path)
    if "://" in source.path or not root.exists():
        return ()
    files = sorted(root.rglob("*")) if root.is_dir() else [root]
    return tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files if f.is_file())


@dataclass(frozen=True)
class SampledDataset(Dataset):
    """A uniform sample of a host's big data, carrying the exact state of all its rows.

    Pages read it as any :class:`~explorer.datasets.Dataset` (the sample);
    :func:`exact_headline` and :func:`exact_curves` read ``exact``, the merged
    state of every row. ``total_rows`` is the number of rows in the data, and
    ``row_numbers`` the sample's rows in it (ascending).
    """

    total_rows: int = 0
    exact: object = field(default=None, compare=False, repr=False)
    data_signature: tuple = field(default=(), compare=False, repr=False)

    @cached_property
    def cache_key(self) -> str:
        """:attr:`Dataset.cache_key`, plus the data's signature and row count.

        The exact numbers come from every row, not only from the sample the
        fingerprint covers, so the key covers the data behind them too.
        """
        h = hashlib.blake2b(digest_size=16)
        h.update(Dataset.cache_key.func(self).encode())
        h.update(repr((self.total_rows, self.data_signature)).encode())
        return h.hexdigest()


def _open(source: Source):
    import pyarrow.dataset as pads

    try:
        data = pads.dataset(source.path, format="parquet")
    except (OSError, ValueError) as exc:
        raise DataError(f"The host's data {source.name!r} cannot be read: {exc}") from None
    columns = list(dict.fromkeys([*source.y_true, *source.score,
                                  *([source.weight] if source.weight else [])]))  # fmt: skip
    missing = [c for c in columns if c not in data.schema.names]
    if missing:
        raise DataError(
            f"The host's data {source.name!r} has no column {missing[0]!r} (its columns: "
            f"{', '.join(data.schema.names)}). The host names the columns in {ENV}."
        )
    return data, columns


def _batches(data, columns: list[str], task: str):
    """The record batches of ``columns``, one read ahead: pyarrow's scanner otherwise
    reads 16 batches and 4 files ahead and keeps every column chunk it pre-buffered (a
    10^8-row binary file: 2,086 MB of peak against 1,185, and 16.3 against 13.7 CPU s,
    measured). Batches of :func:`metrics.batch_rows`, as ``python -m metrics evaluate``
    reads them (about 2^21 values over the columns). Decoded without pyarrow's thread
    pool, which decoded and held many batches at once: a 5 x 10^6-row file of 20 grades
    and 20 scores peaked at 762 MB against 312, a 10^8-row binary one at 1,150-1,227 MB
    against 886-899, in the same time (measured, 2026-11-30)."""
    import pyarrow.dataset as pads

    first = next(iter(data.get_fragments()), None)
    if first is None:  # no file: no batch
        return iter(())
    return data.to_batches(
        columns=columns,
        batch_size=metrics.batch_rows(first.metadata, columns, task),
        use_threads=False,
        batch_readahead=1,
        fragment_readahead=1,
        fragment_scan_options=pads.ParquetFragmentScanOptions(pre_buffer=False),
    )


def check_columns(source: Source) -> None:
    """Raise :class:`~explorer.io.DataError` when the source cannot be opened or lacks a
    named column; reads the files' schemas only (``metric-explorer`` checks before it
    starts the server)."""
    _open(source)


def load(source: Source, data_signature: tuple = ()) -> SampledDataset:
    """Read the host's data once: the exact state of every row, and a uniform sample.

    Parameters
    ----------
    source : Source
        One of :func:`sources`.
    data_signature : tuple
        :func:`signature` of the source (kept with the result: part of its cache key).

    Returns
    -------
    SampledDataset
        ``min(source.sample, rows)`` rows drawn uniformly without replacement
        (``numpy.random.default_rng(source.seed)``), in file order.

    Raises
    ------
    DataError
        Unreadable data, a missing column, no rows, or values a metric refuses.

    Examples
    --------
    >>> import tempfile, numpy as np, pyarrow as pa, pyarrow.parquet as pq
    >>> path = tempfile.mkdtemp() + "/big.parquet"
    >>> y, p = np.arange(1000) % 2, np.linspace(0, 1, 1000)
    >>> pq.write_table(pa.table({"y_true": y, "y_score": p}), path, row_group_size=300)
    >>> ds = load(Source("big", path, sample=100))
    >>> ds.n_samples, ds.total_rows, ds.description[:45]
    (100, 1000, 'A uniform random sample of 100 of the 1,000 r')
    >>> exact_headline(ds)[0].value == metrics.roc_auc_score(y, p)
    True
    """
    import pyarrow as pa

    data, columns = _open(source)
    try:
        total = data.count_rows()
        if total == 0:
            raise DataError(f"The host's data {source.name!r} has no rows.")
        task, cols = TASK[source.kind], {"y_true": list(source.y_true), "score": list(source.score)}
        options = {}
        if source.kind == "graded":  # ERR's scale: the largest grade of all rows
            top = 0.0
            for batch in _batches(data, cols["y_true"], task):
                if batch.num_rows:
                    yt = metrics.batch_arrays(
                        batch, task, y_true=cols["y_true"], score=cols["y_true"]
                    )[0]
                    top = max(top, float(np.max(yt)))
            options = {"max_grade": top}
        elif source.kind == "multilabel":
            options = {"max_grade": 1.0}
        rng = np.random.default_rng(source.seed)
        rows = np.sort(rng.choice(total, size=min(source.sample, total), replace=False))
        pieces: list = []

        def states():
            offset = 0
            for batch in _batches(data, columns, task):
                if batch.num_rows == 0:
                    continue
                if source.kind == "binary":  # samples: dense blocks count them before a sort
                    arrays = metrics.batch_arrays(batch, task, **cols, weight=source.weight)
                    yield metrics.stream_chunk(*arrays)
                else:
                    yield metrics.batch_state(batch, task, **cols, weight=source.weight, **options)
                lo, hi = np.searchsorted(rows, [offset, offset + batch.num_rows])
                if hi > lo:
                    pieces.append(batch.take(pa.array(rows[lo:hi] - offset)))
                offset += batch.num_rows

        # the binary stream frees each merge's inputs (about 1.4x the table, not 4x)
        merge = metrics.merge_binary_stream if source.kind == "binary" else metrics.merge_states
        state = merge(states())
        batch = pa.Table.from_batches(pieces).combine_chunks().to_batches()[0]
        y, s, w = metrics.batch_arrays(batch, task, **cols, weight=source.weight)
        label_names = source.y_true if source.kind in ("multilabel", "graded") else ()
        label_names = label_names if len(label_names) > 1 else ()
    except (metrics.MetricInputError, OSError, ValueError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"The host's data {source.name!r} cannot be used: {exc}") from None
    n = len(rows)
    return SampledDataset(
        name=source.name,
        kind=source.kind,
        y_true=y,
        scores={source.score[0] if len(source.score) == 1 else "model": s},
        sample_weight=w,
        label_names=label_names,
        sample_ids=tuple(map(str, rows.tolist())),
        description=Phrase(  # a Phrase: shown in the visitor's language
            "A uniform random sample of ${n:,} of the ${total:,} rows (seed ${seed}); "
            "the headline numbers on Home are exact over all ${total:,} rows.",
            n=n,
            total=total,
            seed=source.seed,
        ),
        source="host",
        total_rows=total,
        exact=state,
        data_signature=data_signature,
    )


#: The exact headline of each kind: (label, key of the state's finalize()).
EXACT = {
    "binary": (("ROC AUC", "roc_auc_score"), ("Average precision", "average_precision_score"),
               ("Log loss", "log_loss")),
    "multilabel": (("Coverage error", "coverage_error"),
                   ("LRAP", "label_ranking_average_precision_score"),
                   ("Ranking loss", "label_ranking_loss")),
    "graded": (("DCG", "dcg_score"), ("NDCG", "ndcg_score"), ("MRR", "mean_reciprocal_rank")),
    "regression": (("MAE", "mean_absolute_error"), ("RMSE", "root_mean_squared_error"),
                   ("R²", "r2_score")),
}  # fmt: skip


def exact_headline(ds: Dataset) -> tuple[Number, ...] | None:
    """The headline numbers of a host's big data, exact over all its rows; else None.

    For a :class:`SampledDataset` the numbers come from the merged state of
    every row (equal to the in-memory functions on the whole data): binary
    ROC AUC, average precision and log loss (the numbers the ROC & PR page
    heads with), and the Home page's three for the other kinds. A number the
    data leaves undefined (one class; log loss of scores outside [0, 1]) has
    no value and says why. Any other Dataset gives None.

    Examples
    --------
    >>> import numpy as np
    >>> exact_headline(Dataset("t", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.7])}))
    """
    if not isinstance(ds, SampledDataset) or ds.exact is None:
        return None
    try:
        values = ds.exact.finalize()
        why = None
    except metrics.MetricInputError as exc:
        values, why = {}, str(exc)
    out = []
    for label, key in EXACT[ds.kind]:
        if key in values:
            out.append(Number(label, float(values[key])))
        elif key == "roc_auc_score":
            out.append(Number(label, None, why or "ROC AUC is undefined: y_true holds a "
                              "single class over all rows."))  # fmt: skip
        elif key == "log_loss":
            out.append(Number(label, None, why or "Log loss needs probabilities: some "
                              "scores lie outside [0, 1]."))  # fmt: skip
        else:
            out.append(Number(label, None, why or f"{label} is undefined on this data."))
    return tuple(out)


def exact_curves(ds: Dataset) -> dict | None:
    """A binary big data's ROC and PR curves over all rows, from its merged state; else None.

    Returns
    -------
    dict or None
        ``{"roc": (fpr, tpr, thresholds), "pr": (precision, recall, thresholds)}``,
        equal to :func:`metrics.roc_curve` (``drop_intermediate=True``) and
        :func:`metrics.precision_recall_curve` on all rows.
    """
    if not isinstance(ds, SampledDataset) or ds.kind != "binary" or ds.exact is None:
        return None
    return {"roc": ds.exact.roc_curve(), "pr": ds.exact.precision_recall_curve()}
