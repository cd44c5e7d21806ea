"""Files opened from a terminal or a notebook: ``metric-explorer FILE`` and ``explorer.launch``.

The launcher (:mod:`explorer.launch`) writes a manifest, a JSON list of entries, and
starts the server with the manifest's path in the environment variable ``METRIC_EXPLORER_OPEN``.
Each entry names a dataset and the files it is read from::

    [{"name": "scores.csv", "format": "table", "files": ["/home/me/scores.csv"]},
     {"name": "bm25", "format": "trec", "files": ["/data/qrels.txt", "/data/bm25.run"]}]

``format`` is ``table`` (one file: a one-row-per-sample table or a long table),
``pair`` (labels, then scores) or ``trec`` (qrels, then run); an optional ``kind``
is passed to the reader. Every file is read by the Data page's upload readers
(:func:`explorer.io.read_upload`, :func:`~explorer.io.read_pair_upload`,
:func:`~explorer.io.read_trec_upload`), so an opened file meets the same limits,
refusals and notices as an upload. The dataset is shared by every session of that
server (``source="host"``): only the person who started it names its files, and a
visitor picks one by its name, never by a path.

A notebook's :func:`explorer.launch.launch` adds entries to a running server's manifest:
the server reads the manifest again whenever it changed (:func:`manifest_signature`
is part of the cache key in :mod:`explorer.ui.cache.opened`).

No Streamlit here.

Examples
--------
>>> parse_manifest('[{"name": "a", "format": "table", "files": ["/tmp/a.csv"]}]')
[Entry(name='a', format='table', files=('/tmp/a.csv',), kind=None)]
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import NamedTuple

from explorer.datasets import Dataset
from explorer.io import DataError

__all__ = [
    "ENV",
    "FORMATS",
    "Entry",
    "add_entry",
    "manifest_signature",
    "parse_manifest",
    "read",
    "read_manifest",
    "signature",
]

#: The environment variable naming the manifest of the files opened by the launcher.
ENV = "METRIC_EXPLORER_OPEN"
#: Each format's number of files (at least, for the formats of MORE_FILES).
FORMATS = {"table": 1, "pair": 2, "trec": 2, "ltr": 2}
#: The formats whose entry may name more files: a labels (qrels) file and several score
#: files (runs), one model each (``metric-explorer --models``).
MORE_FILES = {"pair", "trec"}
#: Learning-to-rank data (SVMlight / LETOR or a qid table), its score file and, when the
#: data names no queries, a LightGBM ``.query`` / ``.group`` file: 2 or 3 files.
LTR_FILES = (2, 3)


class Entry(NamedTuple):
    """One dataset of the manifest: its name in the picker, its format and files."""

    name: str
    format: str
    files: tuple[str, ...]
    kind: str | None = None


def _entry(item: object, i: int) -> Entry:
    if not isinstance(item, dict):
        raise DataError(f"{ENV} entry {i}: not an object.")
    name, fmt, files = item.get("name"), item.get("format"), item.get("files")
    if not isinstance(name, str) or not name:
        raise DataError(f"{ENV} entry {i}: no name.")
    if fmt not in FORMATS:
        raise DataError(f"{ENV} entry {i}: format {fmt!r} is not one of {', '.join(FORMATS)}.")
    exact = fmt not in MORE_FILES
    if fmt == "ltr" and isinstance(files, list) and len(files) not in LTR_FILES:
        raise DataError(f"{ENV} entry {i}: format 'ltr' takes 2 or 3 files.")
    if not isinstance(files, list) or not (
        len(files) == FORMATS[fmt] or (not exact and len(files) > FORMATS[fmt]) or fmt == "ltr"
    ):
        raise DataError(
            f"{ENV} entry {i}: format {fmt!r} takes {FORMATS[fmt]}{'' if exact else ' or more'} "
            "file(s)."
        )
    kind = item.get("kind")
    return Entry(name, fmt, tuple(str(f) for f in files), kind if isinstance(kind, str) else None)


def parse_manifest(text: str) -> list[Entry]:
    """The entries of a manifest's text (a later entry of the same name replaces one).

    Raises
    ------
    DataError
        The text is not a JSON list of entries.

    Examples
    --------
    >>> parse_manifest('[{"name": "a", "format": "pair", "files": ["y.npy"]}]')
    Traceback (most recent call last):
    ...
    explorer.io.DataError: METRIC_EXPLORER_OPEN entry 1: format 'pair' takes 2 or more file(s).
    """
    try:
        items = json.loads(text)
    except ValueError as exc:
        raise DataError(f"{ENV}: the manifest is not JSON ({exc}).") from None
    if not isinstance(items, list):
        raise DataError(f"{ENV}: the manifest is not a list.")
    entries = {}
    for i, item in enumerate(items, start=1):
        entry = _entry(item, i)
        entries.pop(entry.name, None)
        entries[entry.name] = entry
    return list(entries.values())


def read_manifest(path: str | os.PathLike, manifest_signature: tuple = ()) -> list[Entry]:
    """The entries of the manifest file at ``path`` (none when it does not exist yet).

    ``manifest_signature`` (:func:`manifest_signature`) is only a cache key."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise DataError(f"{ENV}: cannot read the manifest: {exc.strerror or exc}.") from None
    return parse_manifest(text)


def add_entry(path: str | os.PathLike, entry: Entry) -> None:
    """Add ``entry`` to the manifest at ``path`` (replacing one of the same name).

    The file is replaced whole (written beside it, then renamed), so a server reading
    it never sees half a manifest.

    Examples
    --------
    >>> import tempfile
    >>> manifest = Path(tempfile.mkdtemp()) / "open.json"
    >>> add_entry(manifest, Entry("a", "table", ("/tmp/a.csv",)))
    >>> add_entry(manifest, Entry("a", "table", ("/tmp/b.csv",)))
    >>> [e.files for e in read_manifest(manifest)]
    [('/tmp/b.csv',)]
    """
    entries = [e for e in read_manifest(path) if e.name != entry.name] + [entry]
    items = [
        {"name": e.name, "format": e.format, "files": list(e.files)}
        | ({"kind": e.kind} if e.kind else {})
        for e in entries
    ]
    tmp = Path(f"{path}.tmp")
    tmp.write_text(json.dumps(items, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def _stat(path: str | os.PathLike) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return (str(path), None, None)
    return (str(path), st.st_size, st.st_mtime_ns)


def manifest_signature(path: str | os.PathLike) -> tuple:
    """The manifest's size and modification time: a changed manifest is read again."""
    return _stat(path)


def signature(entry: Entry) -> tuple:
    """Each file's size and modification time: a replaced file is read again.

    Examples
    --------
    >>> signature(Entry("a", "table", ("/nonexistent/a.csv",)))
    (('/nonexistent/a.csv', None, None),)
    """
    return tuple(_stat(f) for f in entry.files)


def _bytes(path: str) -> tuple[str, bytes]:
    """The file's name (as the reader's messages name it) and its bytes."""
    p = Path(path)
    try:
        return p.name, p.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read {p.name}: {exc.strerror or exc}.") from None


def read(entry: Entry, data_signature: tuple = ()) -> Dataset:
    """Read an entry's files with the upload readers; the dataset takes the entry's name.

    Parameters
    ----------
    entry : Entry
    data_signature : tuple
        :func:`signature` of the entry (only a cache key: a replaced file is read again).

    Raises
    ------
    DataError
        The reader's refusal, word for word as the Data page shows it.

    Examples
    --------
    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "s.csv"
    >>> _ = f.write_text("y_true,y_score\\n0,0.2\\n1,0.9\\n")
    >>> ds = read(Entry("mine", "table", (str(f),)))
    >>> ds.name, ds.kind, ds.source, ds.y_true.tolist()
    ('mine', 'binary', 'host', [0.0, 1.0])
    """
    from explorer import io  # the readers import pandas and pyarrow: only when reading

    files = [_bytes(f) for f in entry.files]
    if entry.format == "table":
        ds = io.read_upload(*files[0], kind=entry.kind)
    elif entry.format == "pair":
        ds = io.read_pair_upload(*files[0], *files[1], kind=entry.kind, more_scores=files[2:])
    elif entry.format == "ltr":
        ds = io.read_ranking_upload(*files[0], files[1], files[2] if len(files) > 2 else None)
    else:
        ds = io.read_trec_upload(*files[0], *files[1], more_runs=files[2:])
    return dataclasses.replace(ds, name=entry.name, source="host")
