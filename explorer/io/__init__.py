"""Readers that turn what users bring into a :class:`~explorer.datasets.Dataset`.

Every reader either returns a Dataset or raises :class:`DataError` whose
message names the file, the line (or row), the column, the value and what was
expected, e.g. ``scores.csv, line 15, column "cat": 'n/a' is not a number``.
Lines are counted as a text editor counts them: the header is line 1 and blank
lines count. Parquet and ``.npy`` files have no lines; their messages say
``row 1`` for the first data row.

Formats (``shared/design/data-formats.md``)
-------------------------------------------
one table (:func:`read_table`)
    CSV, TSV, text with a sniffed delimiter, or Parquet; one row per sample:
    ``y_true`` plus ``y_score`` / ``score_<model>`` (binary) or ``y_pred`` /
    ``pred_<model>`` (regression), optional ``sample_weight`` and ``id``; the names
    people write (``label``, ``target``, ... and ``score``, ``prob``, ``prediction``,
    ...) are read too, with a note in the description (:mod:`explorer.io.table`).
labels + scores pair (:func:`read_matrix_pair`)
    two n_samples x n_labels matrices (CSV/TSV/text with a header row of label
    names, Parquet, or ``.npy``): multilabel (all 0/1) or graded relevance.
long "tidy" table (:func:`read_long_table`)
    columns ``sample``, ``label``, ``y_true``, ``y_score`` (+ ``model``),
    one row per (sample, label) pair, pivoted to matrices.
TREC qrels + run (:func:`read_trec`)
    pivoted to a graded matrix; see that function for how unjudged and
    unretrieved documents are placed.
learning to rank (:func:`read_ranking`)
    SVMlight / LETOR (``label qid:Q index:value ...``) with a score file, a
    table with a query column (``qid``, ``query``), or either with a LightGBM
    ``.query`` / ``.group`` file; one query per row, padded with slots marked
    not retrieved (``Dataset.retrieved``), documents in ``Dataset.item_ids``.
    A table with a query column uploaded alone is read so too.

Uploads go through :func:`read_upload`, :func:`read_pair_upload`,
:func:`read_trec_upload` and :func:`read_ranking_upload`, which also enforce
:data:`MAX_UPLOAD_BYTES`.
Every reader enforces :data:`MAX_ROWS`, :data:`MAX_COLUMNS` and
:data:`MAX_CELLS`; :func:`limits_text` states them for the upload widgets.

Nothing read here is unpickled, evaluated or executed: ``.npy`` files are
loaded with ``allow_pickle=False``.

Parsing is vectorized: a text table (or TREC file) is read once by pyarrow's
strict CSV reader with numeric column types; only when that fast read meets a
problem is the file re-read as text by pandas (and its lines scanned with
numpy) to name the bad cell or line. No Python loop runs over rows, except
Python's csv module locating a line in a file with quoted fields, on that
error path only.

Modules
-------
Imports point one way, from the entry points down to the shared parts:

========================  ====================================================
``uploads``               the upload entry points (size and type, then a reader)
``table``                 one row per sample: binary or regression
``multiclass``            one row per sample, a probability column per class
``matrix``                a labels + scores pair: multilabel or graded
``long``                  a long table, pivoted to a labels + scores pair
``trec``                  TREC qrels + run, pivoted to a graded matrix
``ltr``                   learning-to-rank files: SVMlight or a qid table
``svmlight``              SVMlight / LETOR lines, score files, query files
``qid_table``             a table with a query column, pivoted by query
``groups``                query blocks of rows, padded to a matrix
``models``                several score files of one labels file: a model each
``dispatch``              the format of a file by name (else content); opening
                          a table format with its reader
``text``, ``parquet``     the table formats: CSV/TSV/text, Parquet
``npy``                   ``.npy`` arrays (``.npz`` refused), header checked
``validation``            checks and message parts the readers share
``limits``                the size limits and their checks
``errors``                :class:`DataError`; imports nothing
========================  ====================================================

The public names below are loaded on first use, so ``from explorer.io import
DataError`` (or ``import explorer.io.errors``) does not import pandas, pyarrow
or any reader.

Examples
--------
>>> import explorer.io
>>> explorer.io.read_table.__module__, explorer.io.read_trec.__module__
('explorer.io.table', 'explorer.io.trec')
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from explorer.io.errors import DataError
    from explorer.io.limits import (
        MAX_CELLS,
        MAX_COLUMNS,
        MAX_MODELS,
        MAX_ROWS,
        MAX_UPLOAD_BYTES,
        limits_text,
    )
    from explorer.io.long import read_long_table
    from explorer.io.ltr import read_ranking
    from explorer.io.matrix import read_matrix_pair
    from explorer.io.multiclass import read_multiclass
    from explorer.io.table import read_table
    from explorer.io.trec import read_trec
    from explorer.io.uploads import (
        read_pair_upload,
        read_ranking_upload,
        read_trec_upload,
        read_upload,
    )

__all__ = [
    "MAX_CELLS",
    "MAX_COLUMNS",
    "MAX_MODELS",
    "MAX_ROWS",
    "MAX_UPLOAD_BYTES",
    "DataError",
    "limits_text",
    "read_long_table",
    "read_matrix_pair",
    "read_multiclass",
    "read_pair_upload",
    "read_ranking",
    "read_ranking_upload",
    "read_table",
    "read_trec",
    "read_trec_upload",
    "read_upload",
]

#: Where each public name lives (module of this package).
_HOME = {
    "DataError": "errors",
    "MAX_CELLS": "limits",
    "MAX_COLUMNS": "limits",
    "MAX_MODELS": "limits",
    "MAX_ROWS": "limits",
    "MAX_UPLOAD_BYTES": "limits",
    "limits_text": "limits",
    "read_long_table": "long",
    "read_matrix_pair": "matrix",
    "read_multiclass": "multiclass",
    "read_pair_upload": "uploads",
    "read_ranking": "ltr",
    "read_ranking_upload": "uploads",
    "read_table": "table",
    "read_trec": "trec",
    "read_trec_upload": "uploads",
    "read_upload": "uploads",
    "TABLE_EXTENSIONS": "dispatch",
    "MATRIX_EXTENSIONS": "dispatch",
}


def __getattr__(name: str):
    """Import the module holding ``name`` on first use (not cached: a limit a test
    lowers in :mod:`explorer.io.limits` shows here too)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
