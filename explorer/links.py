"""Shareable links: a small dataset travels inside the URL.

``encode_dataset`` packs a Dataset as zlib-compressed JSON in URL-safe
base64 (the ``data`` query parameter); ``decode_dataset`` unpacks and
re-validates it, refusing a damaged or hand-edited link with a DataError.
Bundled samples travel by name instead (``ds=<name>``). Pure functions.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib

import numpy as np

from explorer.datasets import KINDS, Dataset
from explorer.io import DataError

__all__ = ["INLINE_MAX_CHARS", "decode_dataset", "encode_dataset", "fits_in_link"]

INLINE_MAX_CHARS = 6000
_MAX_DECOMPRESSED = 2_000_000


def _numbers(a: np.ndarray) -> list:
    return [float(f"{v:.12g}") for v in np.asarray(a, dtype=float).ravel()]


def encode_dataset(ds: Dataset) -> str:
    """Pack ``ds`` into a URL-safe string.

    Examples
    --------
    >>> ds = Dataset("mine", "binary", np.array([0, 1]), {"m": np.array([0.25, 0.5])})
    >>> decode_dataset(encode_dataset(ds)).scores["m"].tolist()
    [0.25, 0.5]
    """
    payload = {
        "v": 1,
        "name": ds.name,
        "kind": ds.kind,
        "shape": list(ds.y_true.shape),
        "y": _numbers(ds.y_true),
        "s": {m: _numbers(s) for m, s in ds.scores.items()},
        "w": None if ds.sample_weight is None else _numbers(ds.sample_weight),
        "labels": list(ds.label_names),
        "ids": list(ds.sample_ids),
    }
    raw = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def fits_in_link(ds: Dataset) -> bool:
    """Whether ``ds`` is small enough to travel inline in a URL."""
    if ds.y_true.size * (1 + len(ds.scores)) > 20_000:
        return False
    return len(encode_dataset(ds)) <= INLINE_MAX_CHARS


def decode_dataset(token: str) -> Dataset:
    """Unpack a ``data=`` link parameter, refusing anything damaged.

    Examples
    --------
    >>> decode_dataset("not-a-dataset")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.io.DataError: the link's data parameter is damaged (not a packed dataset); ...
    """
    damaged = "the link's data parameter is damaged ({}); ask for a fresh link."
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        obj = zlib.decompressobj()
        raw = obj.decompress(packed, _MAX_DECOMPRESSED)
        payload = json.loads(raw)
    except (binascii.Error, zlib.error, ValueError):
        raise DataError(damaged.format("not a packed dataset")) from None
    try:
        kind = payload["kind"]
        if kind not in KINDS:
            raise DataError(damaged.format(f"unknown kind {kind!r}"))
        shape = tuple(int(n) for n in payload["shape"])
        y = np.asarray(payload["y"], dtype=float).reshape(shape)
        scores = {
            str(m): np.asarray(v, dtype=float).reshape(shape) for m, v in payload["s"].items()
        }
        w = payload.get("w")
        weight = None if w is None else np.asarray(w, dtype=float).reshape(shape[0])
        arrays = [y, *scores.values()] + ([] if weight is None else [weight])
        if not all(np.isfinite(a).all() for a in arrays):
            raise DataError(damaged.format("a value is not a finite number"))
        if kind in ("binary", "multilabel") and not np.isin(y, (0, 1)).all():
            raise DataError(damaged.format("labels must be 0 or 1"))
        return Dataset(
            name=str(payload["name"]),
            kind=kind,
            y_true=y,
            scores=scores,
            sample_weight=weight,
            label_names=tuple(str(x) for x in payload.get("labels", ())),
            sample_ids=tuple(str(x) for x in payload.get("ids", ())),
            description="opened from a shared link",
            source="link",
        )
    except DataError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(damaged.format(type(exc).__name__)) from None
