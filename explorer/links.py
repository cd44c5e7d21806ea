"""Shareable links: a small dataset travels inside the URL.

``encode_dataset`` packs a Dataset as zlib-compressed JSON in URL-safe
base64 (the ``data`` query parameter); ``decode_dataset`` unpacks and
re-validates it, refusing a damaged or hand-edited link with a DataError.
Bundled samples travel by name instead (``ds=<name>``). Pure functions.

Numbers travel exactly (format version 2). The packed bytes are a compact
JSON header, then, after a newline, a binary section. Each array of the
header is either a JSON list (a whole number up to 2**53 as an integer, any
other float as the shortest decimal that reads back as the same float64,
Python's ``repr``) or the string ``"f8"``: its values are the next
8 x size bytes of the binary section, little-endian float64 stored byte
plane by byte plane (all first bytes, then all second bytes...), which
compresses full-precision floats better than their decimals. Each array
takes whichever form compresses smaller. Every score, label and weight
comes back bit for bit, -0.0 and subnormals included. Version 1 links
(a JSON list of numbers rounded to 12 significant digits) still open.

:func:`float_text` writes a page setting to the URL just as exactly, and
:func:`whatif_text` / :func:`parse_whatif` a what-if edit of one sample's
scores (Label ranking's ``wi=``).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import threading
import zlib

import numpy as np

from explorer.datasets import KINDS, MAX_GRADE, RANKING_KINDS, Dataset, RowIds
from explorer.i18n import Phrase
from explorer.io.errors import DataError, quote
from explorer.io.limits import MAX_FILE_NAME_CHARS, MAX_TEXT_CHARS

__all__ = [
    "INLINE_MAX_CHARS",
    "decode_dataset",
    "encode_dataset",
    "fits_in_link",
    "float_text",
    "parse_whatif",
    "whatif_text",
]

INLINE_MAX_CHARS = 6000
#: Most numbers (labels and every model's scores) a dataset may carry in a link.
INLINE_MAX_VALUES = 20_000
#: Longest dataset name a link may carry: two file names joined (a labels + scores
#: pair) and a suffix such as " (edited)".
MAX_NAME_CHARS = 2 * MAX_FILE_NAME_CHARS + 40
VERSION = 2
_VERSIONS = (1, 2)  # the link formats decode_dataset reads
_MAX_DECOMPRESSED = 2_000_000
_EXACT_INT = 2**53  # every whole number up to this magnitude is a float64
_PACKED = "f8"  # an array stored in the binary section


def float_text(value: float, pretty: str = "g") -> str:
    """``value`` as URL text that reads back (``float()``) as the very same float.

    The ``pretty`` format is used when it is exact (``400`` rather than
    ``400.0``, ``0.50`` for ``".2f"``), else the shortest exact decimal.

    Examples
    --------
    >>> float_text(400.0), float_text(0.5, ".2f"), float_text(123456.789012345)
    ('400', '0.50', '123456.789012345')
    >>> float_text(0.1 + 0.2), float_text(-0.0)
    ('0.30000000000000004', '-0')
    """
    value = float(value)
    text = format(value, pretty)
    try:
        back = float(text)
    except ValueError:  # a format float() does not read back (e.g. with ",")
        return repr(value)
    if back == value and math.copysign(1.0, back) == math.copysign(1.0, value):
        return text
    return repr(value)


def whatif_text(sample: int, row: np.ndarray, original: np.ndarray) -> str:
    """The ``wi=`` parameter of a what-if edit: ``<sample>:<label>=<score>,...``.

    Only the labels whose score differs from ``original`` are written, exactly.

    Examples
    --------
    >>> whatif_text(1, np.array([0.1 + 0.2, 0.5, 2.0]), np.array([0.3, 0.5, 1.0]))
    '1:0=0.30000000000000004,2=2'
    """
    row, original = np.asarray(row, dtype=np.float64), np.asarray(original, dtype=np.float64)
    changed = np.flatnonzero((row != original) | (np.signbit(row) != np.signbit(original)))
    return f"{int(sample)}:" + ",".join(f"{j}={float_text(row[j])}" for j in changed)


def parse_whatif(text: str, n_samples: int, n_labels: int) -> tuple[int, dict[int, float]]:
    """Read a ``wi=`` parameter: (sample, {label column: score}); ValueError says what is wrong.

    Examples
    --------
    >>> parse_whatif("1:0=0.30000000000000004,2=2", 3, 3)
    (1, {0: 0.30000000000000004, 2: 2.0})
    >>> parse_whatif("1:5=0.5", 3, 3)
    Traceback (most recent call last):
    ...
    ValueError: label column 5 does not exist (there are 3)
    """
    head, sep, cells = str(text).partition(":")
    if not sep or not head.isdecimal() or not cells:
        raise ValueError("it is not of the form <sample>:<label>=<score>,...")
    sample = int(head)
    if sample >= n_samples:
        raise ValueError(f"sample {sample} does not exist (there are {n_samples})")
    out: dict[int, float] = {}
    for cell in cells.split(","):
        col, sep, raw = cell.partition("=")
        if not sep or not col.isdecimal():
            raise ValueError(f"{cell!r} is not of the form <label>=<score>")
        j = int(col)
        if j >= n_labels:
            raise ValueError(f"label column {j} does not exist (there are {n_labels})")
        if j in out:
            raise ValueError(f"label column {j} is given twice")
        try:
            value = float(raw)
        except ValueError:
            raise ValueError(f"{raw!r} is not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"{raw!r} is not a finite number")
        out[j] = value
    return sample, out


# ---------------------------------------------------------------- encoding
def _shuffle(flat: np.ndarray) -> bytes:
    """Little-endian float64 bytes, byte plane by byte plane."""
    return flat.astype("<f8").view(np.uint8).reshape(-1, 8).T.tobytes()


def _unshuffle(raw: bytes) -> np.ndarray:
    planes = np.frombuffer(raw, dtype=np.uint8).reshape(8, -1)
    return np.ascontiguousarray(planes.T).view("<f8").ravel().astype(np.float64)


def _numbers(a: np.ndarray, blob: list[bytes]) -> list | str:
    """The values of ``a``, flattened and exact: a JSON list, or ``"f8"`` (bytes in ``blob``)."""
    flat = np.asarray(a, dtype=np.float64).ravel()
    if not np.isfinite(flat).all():
        raise ValueError("a value is not finite: the dataset cannot travel in a link")
    whole = (flat == np.trunc(flat)) & (np.abs(flat) <= _EXACT_INT)
    whole &= ~((flat == 0) & np.signbit(flat))  # -0.0 stays a float: "-0.0"
    numbers = [int(v) if w else v for v, w in zip(flat.tolist(), whole.tolist(), strict=True)]
    if whole.all():
        return numbers
    packed = _shuffle(flat)
    as_text = json.dumps(numbers, separators=(",", ":")).encode()
    if len(zlib.compress(packed, 6)) < len(zlib.compress(as_text, 6)):
        blob.append(packed)
        return _PACKED
    return numbers


_CACHE_SIZE = 16
_cache: dict[tuple, str] = {}  # the latest tokens: pages ask on every rerun
_cache_lock = threading.Lock()


def encode_dataset(ds: Dataset) -> str:
    """Pack ``ds`` into a URL-safe string; every float comes back bit for bit.

    Raises ValueError when a value is not finite (such a dataset has no link).
    The latest tokens are remembered (by content), since every rerun asks again.

    Examples
    --------
    >>> ds = Dataset("mine", "binary", np.array([0, 1]), {"m": np.array([0.3, 0.1 + 0.2])})
    >>> decode_dataset(encode_dataset(ds)).scores["m"].tolist()
    [0.3, 0.30000000000000004]
    """
    key = (ds.cache_key, ds.name, ds.sample_ids, ds.label_names)
    with _cache_lock:
        token = _cache.get(key)
    if token is None:
        token = _encode(ds)
        with _cache_lock:
            if len(_cache) >= _CACHE_SIZE:
                _cache.pop(next(iter(_cache)))
            _cache[key] = token
    return token


def _encode(ds: Dataset) -> str:
    blob: list[bytes] = []  # filled in the order the decoder reads: y, scores, weights
    payload = {"v": VERSION, "name": ds.name, "kind": ds.kind, "shape": list(ds.y_true.shape)}
    payload["y"] = _numbers(ds.y_true, blob)
    payload["s"] = {m: _numbers(s, blob) for m, s in ds.scores.items()}
    payload["w"] = None if ds.sample_weight is None else _numbers(ds.sample_weight, blob)
    # the default names ("0", "1"...; "label_0"...) are left out: Dataset gives them back
    n_labels = ds.y_true.shape[1] if ds.y_true.ndim == 2 else 0
    default_labels = tuple(f"label_{j}" for j in range(n_labels))
    payload["labels"] = [] if ds.label_names == default_labels else list(ds.label_names)
    payload["ids"] = [] if RowIds(ds.n_samples) == ds.sample_ids else list(ds.sample_ids)
    if ds.retrieved is not None:  # 0/1 per slot, row by row; absent: all retrieved
        payload["r"] = ds.retrieved.ravel().astype(int).tolist()
    if ds.item_ids is not None:  # each slot's document id, row by row
        payload["items"] = ds.item_ids.ravel().tolist()
    if ds.attributes:  # [name, "n" or "t", values]; absent in links made before them
        payload["a"] = [_attribute(name, v) for name, v in ds.attributes]
    head = json.dumps(payload, separators=(",", ":"), allow_nan=False).encode()
    raw = head + b"\n" + b"".join(blob) if blob else head
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def _attribute(name: str, values: np.ndarray) -> list:
    """An attribute in a payload: text as it is, numbers exact (JSON writes the shortest
    decimal that reads back as the same float64), None for a missing one."""
    if values.dtype != np.float64:
        return [name, "t", values.tolist()]
    return [name, "n", [None if math.isnan(v) else v for v in values.tolist()]]


def fits_in_link(ds: Dataset) -> bool:
    """Whether ``ds`` is small enough (and finite) to travel inline in a URL."""
    if ds.y_true.size * (1 + len(ds.scores)) > INLINE_MAX_VALUES:
        return False
    try:
        return len(encode_dataset(ds)) <= INLINE_MAX_CHARS
    except ValueError:  # a value that is not finite
        return False


# ---------------------------------------------------------------- decoding
class _Damaged(Exception):
    """Why a payload is refused (the DataError's message says it)."""


def _refuse_constant(name: str):
    raise _Damaged(Phrase("a value is not a finite number"))


class _Reader:
    """The arrays of one payload, each checked: finite, the right count, real numbers."""

    def __init__(self, version: int, blob: bytes) -> None:
        self.version, self.blob, self.at = version, blob, 0

    def array(self, values, size: int, what: str) -> np.ndarray:
        if values == _PACKED and type(values) is str and self.version >= 2:
            end = self.at + 8 * size
            if end > len(self.blob):
                raise _Damaged(Phrase("${what} are cut short", what=_named(what)))
            a = _unshuffle(self.blob[self.at : end])
            self.at = end
        else:
            if type(values) is not list or len(values) != size:
                raise _Damaged(
                    Phrase("${what} do not hold ${n} numbers", what=_named(what), n=size)
                )
            if not all(type(v) is float or type(v) is int for v in values):
                raise _Damaged(
                    Phrase("${what} hold a value that is not a number", what=_named(what))
                )
            try:
                a = np.array(values, dtype=np.float64)
            except OverflowError:  # a whole number beyond float64
                raise _Damaged(Phrase("a value is not a finite number")) from None
        if not np.isfinite(a).all():
            raise _Damaged(Phrase("a value is not a finite number"))
        return a

    def done(self) -> None:
        if self.at != len(self.blob):
            raise _Damaged(Phrase("unexpected bytes after the data"))


def _named(what) -> Phrase:
    """The part of a payload a message names ("the labels"), translatable."""
    return what if isinstance(what, Phrase) else Phrase(what)


def _shown(value) -> str:
    """A value of the payload for a message: a text quoted short, anything else as repr."""
    if isinstance(value, str):
        return quote(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _strings(values, what: str) -> tuple[str, ...]:
    """A list of names or ids, as uploads give them: each a text, not empty, at most
    ``MAX_TEXT_CHARS`` long, all different."""
    if type(values) is not list or not all(type(v) is str for v in values):
        raise _Damaged(Phrase("${what} must be a list of text", what=_named(what)))
    _names(values, what)
    return tuple(values)


def _names(values, what: str) -> None:
    for v in values:
        if not v:
            raise _Damaged(Phrase("${what} must not be empty", what=_named(what)))
        if len(v) > MAX_TEXT_CHARS:
            raise _Damaged(
                Phrase(
                    "${what} hold ${v}, longer than ${n} characters",
                    what=_named(what),
                    v=quote(v),
                    n=MAX_TEXT_CHARS,
                )
            )
    if len(set(values)) != len(values):
        raise _Damaged(Phrase("${what} must be different from each other", what=_named(what)))


def _header(payload) -> tuple[int, str, str, tuple[int, ...]]:
    """The format version, kind, name and shape of an unpacked payload, or _Damaged."""
    if type(payload) is not dict:
        raise _Damaged(Phrase("not a packed dataset"))
    version = payload.get("v")
    if type(version) is not int or version not in _VERSIONS:
        raise _Damaged(Phrase("unknown format version ${v}", v=_shown(version)))
    kind = payload.get("kind")
    if type(kind) is not str or kind not in KINDS:
        raise _Damaged(Phrase("unknown kind ${v}", v=_shown(kind)))
    name = payload.get("name")
    if type(name) is not str or not name.strip():
        raise _Damaged(Phrase("the dataset has no name"))
    if len(name) > MAX_NAME_CHARS:
        raise _Damaged(
            Phrase(
                "the name ${name} is longer than ${n} characters",
                name=quote(name),
                n=MAX_NAME_CHARS,
            )
        )
    shape = payload.get("shape")
    ndim = 2 if kind in ("multilabel", "graded", "multiclass") else 1
    if (
        type(shape) is not list
        or len(shape) != ndim
        or not all(type(d) is int and d >= 1 for d in shape)
    ):
        raise _Damaged(
            Phrase(
                "a ${kind} dataset needs a shape of ${n} positive whole number(s)",
                kind=kind,
                n=ndim,
            )
        )
    if math.prod(shape) > _MAX_DECOMPRESSED:
        raise _Damaged(Phrase("the shape is too large"))
    return version, kind, name, tuple(shape)


def _check_values(kind: str, y: np.ndarray, weight: np.ndarray | None) -> None:
    """The labels a ``kind`` allows and weights >= 0 (one > 0), or _Damaged."""
    if kind in ("binary", "multilabel", "multiclass") and not np.isin(y, (0, 1)).all():
        raise _Damaged(Phrase("labels must be 0 or 1"))
    if kind == "multiclass" and not (y.sum(axis=1) == 1).all():
        raise _Damaged(Phrase("each sample needs exactly one class"))
    if kind == "graded" and (y < 0).any():
        raise _Damaged(Phrase("relevance grades must be >= 0"))
    if kind == "graded" and (y > MAX_GRADE).any():
        raise _Damaged(Phrase("a relevance grade is above 2**53 - 1"))
    if weight is not None and ((weight < 0).any() or not (weight > 0).any()):
        raise _Damaged(Phrase("sample weights must be >= 0, and one at least > 0"))


def _dataset(payload, blob: bytes) -> Dataset:
    """Check an unpacked payload (format 1 or 2) and build its Dataset, or _Damaged."""
    version, kind, name, shape = _header(payload)
    size, ndim = math.prod(shape), len(shape)
    read = _Reader(version, blob)
    y = read.array(payload.get("y"), size, "the labels").reshape(shape)
    models = payload.get("s")
    if type(models) is not dict or not models:
        raise _Damaged(Phrase("no model scores"))
    if size * (1 + len(models)) > INLINE_MAX_VALUES:
        raise _Damaged(f"more than {INLINE_MAX_VALUES:,} numbers")
    _names(list(models), "the model names")
    scores = {
        m: read.array(v, size, Phrase("the scores of ${m}", m=quote(m))).reshape(shape)
        for m, v in models.items()
    }
    w = payload.get("w")
    weight = None if w is None else read.array(w, shape[0], "the sample weights")
    read.done()
    _check_values(kind, y, weight)
    labels = _strings(payload.get("labels", []), "the label names")
    classes = kind == "binary" and len(labels) == 2  # the names of text labels
    if (ndim == 1 and labels and not classes) or (ndim == 2 and labels and len(labels) != shape[1]):
        raise _Damaged(Phrase("the label names do not match the labels"))
    ids = _strings(payload.get("ids", []), "the sample ids")
    if ids and len(ids) != shape[0]:
        raise _Damaged(Phrase("the sample ids do not match the samples"))
    retrieved, items = _ranking_extras(payload, kind, shape)
    attributes = _attributes(payload.get("a", []), shape[0])
    return Dataset(
        name=name,
        kind=kind,
        y_true=y,
        scores=scores,
        sample_weight=weight,
        label_names=labels,
        sample_ids=ids,
        description="opened from a shared link",
        source="link",
        retrieved=retrieved,
        item_ids=items,
        attributes=attributes,
    )


def _attributes(entries, n: int) -> tuple:
    """The attributes of a payload (none when absent), each checked, or _Damaged."""
    if type(entries) is not list:
        raise _Damaged(Phrase("the attributes must be a list"))
    out = []
    for entry in entries:
        if type(entry) is not list or len(entry) != 3 or entry[1] not in ("n", "t"):
            raise _Damaged(Phrase("an attribute is not of the form [name, kind, values]"))
        name, kind, values = entry
        if type(values) is not list or len(values) != n:
            raise _Damaged(f"an attribute does not hold {n} values")
        if kind == "t":
            if not all(type(v) is str and len(v) <= MAX_TEXT_CHARS for v in values):
                raise _Damaged(f"an attribute's texts must be at most {MAX_TEXT_CHARS} long")
            out.append((name, np.array(values, dtype=object)))
            continue
        if not all(v is None or type(v) is float or type(v) is int for v in values):
            raise _Damaged(Phrase("an attribute holds a value that is not a number"))
        try:
            a = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
        except OverflowError:
            raise _Damaged(Phrase("an attribute's value is not a finite number")) from None
        if np.isinf(a).any():
            raise _Damaged(Phrase("an attribute's value is not a finite number"))
        out.append((name, a))
    _strings([name for name, _ in out], "the attribute names")
    return tuple(out)


def _ranking_extras(payload, kind: str, shape: tuple[int, ...]):
    """The ``retrieved`` mask and ``item_ids`` of a payload (None when absent, as in
    links made before a Dataset carried them), or _Damaged."""
    size = math.prod(shape)
    r, items = payload.get("r"), payload.get("items")
    if (r is not None or items is not None) and kind not in RANKING_KINDS:
        raise _Damaged(f"a {kind} dataset has no retrieved items or document ids")
    retrieved = None
    if r is not None:
        if type(r) is not list or len(r) != size or not all(v in (0, 1) for v in r):
            raise _Damaged(f"the retrieved marks do not hold {size} values of 0 or 1")
        if not all(type(v) is int for v in r):
            raise _Damaged(Phrase("the retrieved marks hold a value that is not 0 or 1"))
        retrieved = np.array(r, dtype=bool).reshape(shape)
    ids = None
    if items is not None:
        if type(items) is not list or len(items) != size:
            raise _Damaged(f"the document ids do not hold {size} texts")
        if not all(type(v) is str and len(v) <= MAX_TEXT_CHARS for v in items):
            raise _Damaged(f"the document ids must be texts of at most {MAX_TEXT_CHARS} characters")
        ids = np.array(items, dtype=object).reshape(shape)
    return retrieved, ids


def decode_dataset(token: str) -> Dataset:
    """Unpack a ``data=`` link parameter (format 1 or 2), refusing anything damaged.

    Every refusal is a DataError that says what is wrong, never another exception.

    Examples
    --------
    >>> decode_dataset("not-a-dataset")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.io.DataError: the link's data parameter is damaged (not a packed dataset); ...
    """
    damaged = "the link's data parameter is damaged (${why}); ask for a fresh link."
    try:
        if not isinstance(token, str):
            raise _Damaged(Phrase("not a packed dataset"))
        try:
            packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            obj = zlib.decompressobj()
            raw = obj.decompress(packed, _MAX_DECOMPRESSED)
            if obj.unconsumed_tail:
                raise _Damaged(Phrase("too large"))
            head, _, blob = raw.partition(b"\n")
            payload = json.loads(head, parse_constant=_refuse_constant)
        except (binascii.Error, zlib.error, ValueError, RecursionError):
            raise _Damaged(Phrase("not a packed dataset")) from None
        return _dataset(payload, blob)
    except _Damaged as exc:
        raise DataError(Phrase(damaged, why=exc.args[0])) from None
    except (KeyError, TypeError, ValueError, OverflowError, MemoryError) as exc:
        # a payload the checks above let through but Dataset refuses
        raise DataError(Phrase(damaged, why=type(exc).__name__)) from None
