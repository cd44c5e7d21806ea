""".npy arrays, loaded with ``allow_pickle=False`` after their header is checked.

A ``.npz`` archive is refused with a message saying to save each matrix as a
``.npy``. An array has no column names, so it serves only in a labels +
scores pair (:mod:`explorer.io.matrix`).
"""

from __future__ import annotations

import io as _io
import math
import tokenize

import numpy as np

from explorer.i18n import Phrase
from explorer.io.errors import DataError
from explorer.io.limits import _check_shape
from explorer.io.validation import _first_line

_PICKLED = (
    "${label} holds Python objects (pickled data), not numbers; the explorer never "
    "unpickles uploads. Save a numeric array: np.save(path, a.astype(float))."
)


def _check_npy_header(data: bytes, label: str) -> None:
    """Refuse a .npy header that does not parse, or whose shape the bytes cannot fill.

    ``np.load`` allocates the array the header claims before reading it: a 200-byte
    file claiming shape (10^6, 10^6) would ask for 7 TiB. A damaged header raises
    errors of the Python tokenizer. Both become a DataError here.
    """
    f = _io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"format version {version[0]}.{version[1]} (save with np.save)")
    except (SyntaxError, tokenize.TokenError):
        raise DataError(
            Phrase("${label} is not a readable .npy file (its header is damaged).", label=label)
        ) from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise DataError(_unreadable(label, exc)) from None
    if dtype.hasobject:  # refused before np.load, which would size the shape first
        raise DataError(Phrase(_PICKLED, label=label))
    claimed = math.prod(shape) * dtype.itemsize
    held = len(data) - f.tell()
    if claimed != held:
        raise DataError(
            Phrase(
                "${label} is damaged: its header says shape ${shape} of ${dtype} "
                "(${claimed:,} bytes), but the file holds ${held:,} bytes of data.",
                label=label,
                shape=tuple(shape),
                dtype=dtype,
                claimed=claimed,
                held=held,
            )
        )


def _unreadable(label: str, exc: BaseException) -> str:
    return Phrase(
        "${label} is not a readable .npy file (${why}).", label=label, why=_first_line(exc)
    )


def _read_npy(data: bytes, label: str) -> np.ndarray:
    if not data.startswith(b"\x93NUMPY"):
        raise DataError(
            Phrase(
                "${label} is not a .npy file: it does not start with the .npy header "
                "(save the array with np.save).",
                label=label,
            )
        )
    _check_npy_header(data, label)
    try:
        arr = np.load(_io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:
        if "pickle" in str(exc).lower():
            raise DataError(Phrase(_PICKLED, label=label)) from None
        raise DataError(_unreadable(label, exc)) from None
    except (OSError, EOFError, OverflowError) as exc:
        raise DataError(_unreadable(label, exc)) from None
    if hasattr(arr, "files"):
        arr.close()
        raise DataError(
            Phrase(
                "${label} is a .npz archive; save each matrix with np.save as a .npy.", label=label
            )
        )
    if arr.dtype.kind not in "biuf":
        raise DataError(
            Phrase(
                "${label} holds ${dtype} values; expected numbers (bool, integer or float).",
                label=label,
                dtype=arr.dtype,
            )
        )
    if arr.ndim != 2:
        hint = Phrase(" (for one label per sample use a.reshape(-1, 1))") if arr.ndim == 1 else ""
        raise DataError(
            Phrase(
                "${label} holds an array of shape ${shape}; expected a 2-D array "
                "(samples x labels)${hint}.",
                label=label,
                shape=arr.shape,
                hint=hint,
            )
        )
    _check_shape(label, *arr.shape)
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise DataError(
            Phrase("${label} holds an empty array of shape ${shape}.", label=label, shape=arr.shape)
        )
    return np.asarray(arr, dtype=np.float64)
