"""The Dataset value every page reads.

A :class:`Dataset` is immutable: readers (``explorer.io``) build one, pages
only read it. Its arrays are read-only numpy arrays. The bundled samples are
in :mod:`explorer.samples`. This module imports nothing of the explorer but
:mod:`explorer.i18n` (its summary's words are phrases), which imports only
:mod:`explorer.formatting`, so every other module may import it.

Task kinds
----------
binary
    ``y_true`` of shape (n,) in {0, 1}; each score array of shape (n,).
multilabel
    ``y_true`` of shape (n, L) in {0, 1}; each score array of shape (n, L).
graded
    ``y_true`` of shape (n, L) of non-negative relevance grades.
regression
    ``y_true`` of shape (n,); each prediction array of shape (n,).
multiclass
    ``y_true`` of shape (n, K), one-hot: each row holds one 1, in the column of the
    sample's class (``label_names`` are the class names); each score array of shape
    (n, K), one probability (or score) per class.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from explorer.i18n import Phrase

KINDS = ("binary", "multilabel", "graded", "regression", "multiclass")
KIND_LABELS = {
    "binary": "binary classification",
    "multilabel": "multilabel (0/1 label matrix)",
    "graded": "graded relevance (ranking)",
    "regression": "regression",
    "multiclass": "multiclass (one class per sample)",
}

#: Sources of datasets every session shares: the bundled samples ("sample", also the
#: default) and the host's big data ("host"). Any other source ("upload", "edit",
#: "link") belongs to the session that made it (:attr:`Dataset.session_owned`).
SHARED_SOURCES = ("sample", "host")


#: The largest relevance grade a graded dataset may hold: 2**53 - 1, the largest integer
#: below which float64 (what every page computes with, and the browser's numbers) holds
#: every integer exactly. Above it, 2**53 + 1 is read as 2**53, and two different
#: grades could compare equal.
MAX_GRADE = 2**53 - 1
GRADE_LIMIT = Phrase(
    "is a relevance grade above 2**53 - 1 = ${max:,}, the largest size float64 (what "
    "every page computes with) holds exactly: 2**53 + 1 would read as 2**53. Give grades "
    "of at most that size",
    max=MAX_GRADE,
)


def _frozen(a: np.ndarray, dtype=np.float64) -> np.ndarray:
    a = np.array(a, dtype=dtype, copy=True)
    a.setflags(write=False)
    return a


#: The kinds whose rows are ranked lists, the only ones a ``retrieved`` mask or
#: ``item_ids`` may go with.
RANKING_KINDS = ("multilabel", "graded")


def _retrieved(mask, shape: tuple[int, ...]) -> np.ndarray | None:
    """The frozen ``retrieved`` mask, or None when it marks every item retrieved."""
    a = np.asarray(mask)
    if a.dtype != np.bool_:
        raise ValueError(f"retrieved must be a boolean array; got dtype {a.dtype}")
    if a.shape != shape:
        raise ValueError(f"retrieved has shape {a.shape}, y_true {shape}")
    # all True means what None means: one representation keeps the cache keys equal
    return None if a.all() else _frozen(a, np.bool_)


def _attributes(pairs, n: int) -> tuple[tuple[str, np.ndarray], ...]:
    """The frozen ``attributes``: (name, values) pairs, each values array of length ``n``,
    float64 (NaN: missing) or text (``""``: missing)."""
    items = pairs.items() if hasattr(pairs, "items") else pairs
    out: list[tuple[str, np.ndarray]] = []
    for pair in items:
        name, values = pair
        if type(name) is not str or not name:
            raise ValueError(f"an attribute name must be a non-empty text; got {name!r}")
        if any(name == seen for seen, _ in out):
            raise ValueError(f"attribute {name!r} is given twice")
        a = np.asarray(values)
        if a.shape != (n,):
            raise ValueError(f"attribute {name!r} has shape {a.shape}, expected ({n},)")
        if a.dtype.kind in "biuf":
            a = _frozen(a)
            if np.isinf(a).any():
                raise ValueError(f"attribute {name!r} holds an infinite value")
        elif _all_text(a):
            a = _frozen(a, object)
        else:
            raise ValueError(f"attribute {name!r} must hold numbers or texts, not a mix")
        out.append((name, a))
    return tuple(out)


def _all_text(a: np.ndarray) -> bool:
    """Every element is a ``str``: pandas' C-level type inference (a million ids in
    about 15 ms where a generator of ``type(v) is str`` took 100-200 ms, and a TREC
    read of ten runs builds a dozen datasets of a million ids each)."""
    return pd.api.types.infer_dtype(a.ravel(), skipna=False) in ("string", "empty")


def _item_ids(ids, shape: tuple[int, ...]) -> np.ndarray:
    """The frozen ``item_ids`` array: text, y_true's shape."""
    a = np.asarray(ids, dtype=object)
    if a.shape != shape:
        raise ValueError(f"item_ids has shape {a.shape}, y_true {shape}")
    if not _all_text(a):
        raise ValueError("item_ids must all be text (str)")
    return _frozen(a, object)


class RowIds(Sequence):
    """The sample ids of a dataset that names none: row ``i`` is ``str(i)``, made when read.

    A tuple of the strings would hold about 57 bytes an id: 127 MB of a 2,000,000-row
    upload whose numbers take 48, and building it held the interpreter 0.24 s. This
    holds one number. It reads as that tuple does (indexing, slices, ``index``, ``in``,
    iteration) and equals any sequence of the same strings.

    Examples
    --------
    >>> ids = RowIds(4)
    >>> ids[1], ids[-1], ids[1:3], len(ids), ids.index("2"), "4" in ids, "01" in ids
    ('1', '3', ('1', '2'), 4, 2, False, False)
    >>> ids == ("0", "1", "2", "3"), ids == RowIds(3), list(ids)
    (True, False, ['0', '1', '2', '3'])
    """

    __slots__ = ("_n", "_hash")

    def __init__(self, n: int) -> None:
        self._n = int(n)
        self._hash: int | None = None

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(map(str, range(self._n)[i]))
        return str(range(self._n)[i])  # an IndexError as a tuple's past the end

    def __iter__(self):
        return map(str, range(self._n))

    def _row(self, value: object) -> int | None:
        """The row named ``value``, or None (only the canonical "12", not "012")."""
        if not isinstance(value, str) or not value.isdecimal() or not value.isascii():
            return None
        row = int(value)
        return row if row < self._n and str(row) == value else None

    def __contains__(self, value: object) -> bool:
        return self._row(value) is not None

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        row = self._row(value)
        if row is None or not range(self._n)[start:stop].count(row):
            raise ValueError(f"{value!r} is not in the sample ids")
        return row

    def count(self, value: object) -> int:
        return int(self._row(value) is not None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RowIds):
            return self._n == other._n
        if isinstance(other, (tuple, list)):
            return len(other) == self._n and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        # equal to a tuple of the same strings, so hashed as that tuple (once)
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __repr__(self) -> str:
        return f"RowIds({self._n})"

    def __reduce__(self):
        return (RowIds, (self._n,))


@dataclass(frozen=True)
class Dataset:
    """What the user is looking at: labels, one or more models' scores, metadata.

    Parameters
    ----------
    name : str
        Shown in the picker; unique within a session.
    kind : {"binary", "multilabel", "graded", "regression", "multiclass"}
    y_true : ndarray
        Labels, relevance grades or regression targets.
    scores : dict of str to ndarray
        One array per model, each shaped like ``y_true``; insertion order is
        the model order (the first is the default model).
    sample_weight : ndarray or None
    label_names : tuple of str
        Column names for matrix kinds; empty for 1-D kinds.
    sample_ids : sequence of str
        One id per sample (a tuple); empty: the row numbers as :class:`RowIds` ("0", "1", ...).
    description : str
        One line saying what the dataset teaches.
    source : str
        Where it came from: ``"sample"`` (the default), ``"host"``, ``"upload"``,
        ``"edit"`` or ``"link"``; see :attr:`session_owned`.
    title : str
        What people read for it (a bundled sample's gallery title); the pages show
        :attr:`shown_name`, which falls back to ``name``.
    retrieved : ndarray of bool or None
        Ranking kinds only (multilabel, graded): which items each query retrieved,
        the scores' shape. An item marked False (a judged document the run never
        retrieved, a padding slot) counts among the relevant items and never sits
        in a top K; every retrieval and DCG metric takes it as ``retrieved=``.
        None (the default, and what a mask of all True becomes): every item retrieved.
    item_ids : ndarray of str (object) or None
        Ranking kinds only: each slot's document id, y_true's shape (each query
        has its own documents); ``""`` for a padding slot that holds no document.
        None: the items are named by ``label_names`` (the column).
    attributes : tuple of (str, ndarray) pairs
        What else is known of each sample (each query for the ranking kinds): one
        (name, values) pair per attribute, values of length ``n_samples``, float64
        (NaN marks a missing value) or text (``""`` marks one). A mapping is accepted
        and kept as pairs. A tuple of pairs rather than a DataFrame keeps the frozen
        Dataset free of pandas and its arrays read-only. Part of ``fingerprint``
        (slices of them change numbers); empty: none. ``explorer.slicing`` groups
        samples by them.

    Examples
    --------
    >>> import numpy as np
    >>> d = Dataset("toy", "binary", np.array([0, 1]), {"model": np.array([0.2, 0.7])})
    >>> d.n_samples, d.model_names, d.sample_ids, tuple(d.sample_ids)
    (2, ('model',), RowIds(2), ('0', '1'))
    """

    name: str
    kind: str
    y_true: np.ndarray
    scores: dict[str, np.ndarray]
    sample_weight: np.ndarray | None = None
    label_names: tuple[str, ...] = ()
    sample_ids: Sequence[str] = ()
    description: str = ""
    source: str = field(default="sample", compare=False)
    title: str = field(default="", compare=False)
    retrieved: np.ndarray | None = None
    item_ids: np.ndarray | None = None
    attributes: tuple[tuple[str, np.ndarray], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}; got {self.kind!r}")
        if not self.scores:
            raise ValueError("a dataset needs at least one score column")
        y = _frozen(self.y_true)
        object.__setattr__(self, "y_true", y)
        object.__setattr__(self, "scores", {str(k): _frozen(v) for k, v in self.scores.items()})
        for model, s in self.scores.items():
            if s.shape != y.shape:
                raise ValueError(f"scores of {model!r} have shape {s.shape}, y_true {y.shape}")
        if self.kind == "multiclass" and (
            y.ndim != 2 or not (np.isin(y, (0, 1)).all() and (y.sum(axis=1) == 1).all())
        ):
            raise ValueError("multiclass y_true must be one-hot: one 1 per row, the rest 0")
        if self.sample_weight is not None:
            object.__setattr__(self, "sample_weight", _frozen(self.sample_weight))
        if not self.sample_ids:
            object.__setattr__(self, "sample_ids", RowIds(y.shape[0]))
        if y.ndim == 2 and not self.label_names:
            names = tuple(f"label_{j}" for j in range(y.shape[1]))
            object.__setattr__(self, "label_names", names)
        for what in ("retrieved", "item_ids"):
            if getattr(self, what) is not None and self.kind not in RANKING_KINDS:
                raise ValueError(f"{what} goes with a ranking kind {RANKING_KINDS} only")
        if self.retrieved is not None:
            object.__setattr__(self, "retrieved", _retrieved(self.retrieved, y.shape))
        if self.item_ids is not None:
            object.__setattr__(self, "item_ids", _item_ids(self.item_ids, y.shape))
        object.__setattr__(self, "attributes", _attributes(self.attributes, y.shape[0]))

    @property
    def shown_name(self) -> str:
        """The name the pages show: the title when there is one, else ``name``.

        Examples
        --------
        >>> import numpy as np
        >>> y, s = np.array([0, 1]), {"m": np.array([0.2, 0.7])}
        >>> Dataset("toy", "binary", y, s).shown_name
        'toy'
        >>> Dataset("roc6", "binary", y, s, title="Revision sheet: ROC").shown_name
        'Revision sheet: ROC'
        """
        return self.title or self.name

    @cached_property
    def fingerprint(self) -> str:
        """A content hash, computed once per Dataset: the key of cached computations.

        Pages cache pure computations on it instead of re-hashing big arrays on
        every rerun.
        """
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{self.kind}|{self.y_true.shape}|{self.label_names}".encode())
        for a in (self.y_true, *self.scores.values()):
            h.update(np.ascontiguousarray(a).tobytes())
        h.update(repr(tuple(self.scores)).encode())
        if self.sample_weight is not None:
            h.update(np.ascontiguousarray(self.sample_weight).tobytes())
        if self.retrieved is not None:  # it changes the numbers: part of the content
            h.update(b"retrieved")
            h.update(np.packbits(self.retrieved).tobytes())
        for name, values in self.attributes:  # groups of samples are made of them
            h.update(b"\x1eattribute\x1f" + name.encode("utf-8", "surrogatepass"))
            if values.dtype == np.float64:
                h.update(b"n" + values.tobytes())
            else:
                texts = values.tolist()
                h.update(b"t" + np.fromiter(map(len, texts), np.int64, len(texts)).tobytes())
                h.update("\x1f".join(texts).encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    @cached_property
    def cache_key(self) -> str:
        """The key of every cached computation on this Dataset (see explorer.ui.cache).

        It covers all a cached value can show: the content (``fingerprint``) and the
        name, sample ids, label names and description. Two uploads of the same
        numbers under other names or ids get different keys, so one visitor's names
        never reach another's page.

        Examples
        --------
        >>> import numpy as np
        >>> a = Dataset("mine", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.7])})
        >>> b = Dataset("yours", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.7])})
        >>> a.fingerprint == b.fingerprint, a.cache_key == b.cache_key
        (True, False)
        """
        h = hashlib.blake2b(digest_size=16)
        h.update(self.fingerprint.encode())
        # each part followed by a separator, in one join: a loop of two updates an id took
        # 0.31 s of CPU for 2,000,000 ids, the join 0.19 s (the same bytes, the same digest)
        rows = isinstance(self.sample_ids, RowIds)  # then their count says all
        ids = ("\x1erows",) if rows else self.sample_ids
        parts = (self.name, self.description, *self.label_names, *ids)
        h.update(("\x1f".join(map(str, parts)) + "\x1f").encode("utf-8", "surrogatepass"))
        h.update(f"|{len(self.label_names)}|{len(self.sample_ids)}".encode())
        if self.item_ids is not None:  # the document ids a page shows
            items = self.item_ids.ravel().tolist()
            h.update(b"items")  # one join (a run holds millions of ids), and each length
            h.update(np.fromiter(map(len, items), np.int64, len(items)).tobytes())
            h.update("\x1f".join(items).encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    @property
    def session_owned(self) -> bool:
        """Whether the dataset belongs to one session: any source but :data:`SHARED_SOURCES`.

        An upload, an edit or a ``?data=`` link's dataset lives in its visitor's
        session, and so do the computations on it (``explorer.ui.session_cache``);
        a bundled sample or the host's big data is shared by every session.

        Examples
        --------
        >>> import numpy as np
        >>> y, s = np.array([0, 1]), {"m": np.array([0.2, 0.7])}
        >>> Dataset("t", "binary", y, s).session_owned
        False
        >>> Dataset("t", "binary", y, s, source="upload").session_owned
        True
        """
        return self.source not in SHARED_SOURCES

    @property
    def n_samples(self) -> int:
        return int(self.y_true.shape[0])

    @property
    def n_labels(self) -> int:
        return int(self.y_true.shape[1]) if self.y_true.ndim == 2 else 1

    @property
    def model_names(self) -> tuple[str, ...]:
        return tuple(self.scores)

    @property
    def attribute_names(self) -> tuple[str, ...]:
        """The names of :attr:`attributes`, in their order."""
        return tuple(name for name, _ in self.attributes)

    def attribute(self, name: str) -> np.ndarray:
        """The values of attribute ``name`` (KeyError when there is none).

        Examples
        --------
        >>> d = Dataset("t", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.7])},
        ...             attributes={"site": np.array(["A", "B"], dtype=object)})
        >>> d.attribute_names, d.attribute("site").tolist()
        (('site',), ['A', 'B'])
        """
        for own, values in self.attributes:
            if own == name:
                return values
        raise KeyError(name)

    def score(self, model: str | None = None) -> np.ndarray:
        """The score array of ``model`` (the first model by default)."""
        return self.scores[model or self.model_names[0]]

    def item_names(self, row: int) -> list[str]:
        """The names of row ``row``'s items, by column: its documents' ids when the
        dataset carries them (each query its own), else the label names.

        Examples
        --------
        >>> y = np.array([[1, 0], [0, 1]])
        >>> ids = np.array([["d7", "d2"], ["d9", ""]], dtype=object)
        >>> Dataset("t", "graded", y, {"m": y * 1.0}, item_ids=ids).item_names(1)
        ['d9', '']
        >>> Dataset("t", "graded", y, {"m": y * 1.0}).item_names(1)
        ['label_0', 'label_1']
        """
        if self.item_ids is None:
            return list(self.label_names)
        return self.item_ids[row].tolist()

    @property
    def is_matrix(self) -> bool:
        return self.kind in ("multilabel", "graded", "multiclass")


def _tied_count(scores: np.ndarray) -> int:
    """How many scores share their value with another score of the same row (or vector)."""
    s = np.sort(scores.reshape(1, -1) if scores.ndim == 1 else scores, axis=1)
    eq = s[:, 1:] == s[:, :-1]
    tied = np.zeros(s.shape, dtype=bool)
    tied[:, 1:] |= eq
    tied[:, :-1] |= eq
    return int(tied.sum())


def attributes_text(ds: Dataset) -> str:
    """The attributes a dataset carries, for its summary: each name, numbers or text, and
    how many different values (of the samples, or of the queries for ranking kinds).

    Examples
    --------
    >>> d = Dataset("t", "binary", np.array([0, 1, 1]), {"m": np.array([0.2, 0.7, 0.1])},
    ...             attributes={"site": np.array(["A", "B", "A"], dtype=object),
    ...                         "age": np.array([30.0, 41.5, np.nan])})
    >>> attributes_text(d)
    'site (text, 2 values), age (numbers, 2 values, 1 missing)'
    """
    if not ds.attributes:
        return Phrase("none")
    text = None
    for name, values in ds.attributes:
        numeric = values.dtype == np.float64
        missing = np.isnan(values) if numeric else values == ""
        n = len(np.unique(values[~missing]))
        gone = int(missing.sum())
        kind = Phrase("numbers" if numeric else "text")
        counted = Phrase("${n:,} value" if n == 1 else "${n:,} values", n=n)
        fields = {"name": name, "kind": kind, "values": counted, "gone": gone}
        part = Phrase(
            "${name} (${kind}, ${values}, ${gone:,} missing)"
            if gone
            else "${name} (${kind}, ${values})",
            **fields,
        )
        text = part if text is None else Phrase("${a}, ${b}", a=text, b=part)
    return text


def describe(ds: Dataset):
    """The Data page's validation summary as a two-column table (what, value).

    Examples
    --------
    >>> d = Dataset("t", "multilabel", np.array([[1, 0], [1, 1]]), {"m": np.ones((2, 2))})
    >>> describe(d).set_index("what")["value"]["rows with every label true"]
    '1'
    """
    import pandas as pd

    rows = [
        ("name", ds.name),
        ("task kind", Phrase(KIND_LABELS[ds.kind])),
        ("shape", " x ".join(str(n) for n in ds.y_true.shape)),
        ("models", ", ".join(ds.model_names)),
        ("sample_weight", Phrase("none" if ds.sample_weight is None else "given")),
    ]
    y = ds.y_true
    if ds.kind == "binary":
        rows.append(("positives", Phrase("${n} of ${total}", n=int(y.sum()), total=ds.n_samples)))
    elif ds.kind == "multiclass":
        per_class = ", ".join(
            f"{n}: {int(c)}" for n, c in zip(ds.label_names, y.sum(axis=0), strict=True)
        )
        rows.append(("samples per class", per_class))
    elif ds.kind in ("multilabel", "graded"):
        rel = y > 0
        per_label = ", ".join(
            f"{n}: {int(c)}" for n, c in zip(ds.label_names, rel.sum(axis=0), strict=True)
        )
        rows.append(("positives per label", per_label))
        rows.append(("rows with no true label", str(int((~rel.any(axis=1)).sum()))))
        rows.append(("rows with every label true", str(int(rel.all(axis=1).sum()))))
    rows.append(("attributes", attributes_text(ds)))
    if ds.kind != "regression":
        for model, s in ds.scores.items():
            tied = Phrase("${n:,} of ${total:,}", n=_tied_count(s), total=s.size)
            rows.append((Phrase("tied scores (${model})", model=model), tied))
    # object cells: a Phrase stays one (a str column would make it plain text)
    return pd.DataFrame(rows, columns=["what", "value"], dtype=object)
