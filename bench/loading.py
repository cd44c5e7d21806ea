"""Upload-path timing: ``explorer.io`` against a bare ``pandas.read_csv`` of the same files.

Two files are generated in a temporary directory: a one-table binary CSV
(``y_true,y_score``) and a labels + scores CSV pair (a header row of label
names, one row per sample). The explorer reads them the way the Data page
does, from the uploaded bytes (:func:`explorer.io.read_upload`,
:func:`explorer.io.read_pair_upload`); the baseline is
``pandas.read_csv(path)`` of each file, nothing else.

The scores of the pair are written with one decimal (the tied scores of
the benchmark): a 100,000 x 100 matrix of full-precision floats is about
190 MB, over the 50 MB upload limit, so such a file cannot be uploaded.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from bench.data import make_binary, make_multilabel
from bench.timing import Budget, Timing, time_call


@dataclass(frozen=True)
class LoadResult:
    """One load timing."""

    what: str
    size_bytes: int
    explorer: Timing
    pandas: Timing

    @property
    def ratio(self) -> float:
        """explorer.io time over pandas.read_csv time (< 1: the explorer is faster)."""
        return self.explorer.seconds / self.pandas.seconds


def _write_binary_csv(path: Path, n: int) -> None:
    d = make_binary(n, ties=False)
    pd.DataFrame({"y_true": d.y_true, "y_score": d.y_score}).to_csv(path, index=False)


def _write_pair(labels: Path, scores: Path, n: int, n_labels: int) -> None:
    d = make_multilabel(n, n_labels, ties=True)
    names = ",".join(f"label_{j}" for j in range(n_labels))
    np.savetxt(labels, d.y_true, fmt="%d", delimiter=",", header=names, comments="")
    np.savetxt(scores, d.y_score, fmt="%.1f", delimiter=",", header=names, comments="")


def run_loading(binary_rows: int, pair_shape: tuple[int, int], budget: Budget) -> list[LoadResult]:
    """Time both loads; files are written to, and removed with, a temporary directory.

    Parameters
    ----------
    binary_rows : int
        Rows of the binary CSV (1,000,000 in the full run).
    pair_shape : (int, int)
        Shape of the labels + scores pair (100,000 x 100 in the full run).
    budget : Budget
        Repeat budget of each timed read.

    Returns
    -------
    list of LoadResult
    """
    from explorer import io as eio

    results = []
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        tmp = Path(tmp)
        binary = tmp / "binary.csv"
        _write_binary_csv(binary, binary_rows)
        data = binary.read_bytes()
        ds, t_ex = time_call(lambda: eio.read_upload("binary.csv", data), budget)
        assert ds.n_samples == binary_rows
        _, t_pd = time_call(lambda: pd.read_csv(binary), budget)
        results.append(LoadResult(f"binary CSV, {binary_rows:,} rows", len(data), t_ex, t_pd))
        print(f"   load {results[-1].what}: ratio {results[-1].ratio:.2f}", file=sys.stderr)

        n, n_labels = pair_shape
        labels, scores = tmp / "labels.csv", tmp / "scores.csv"
        _write_pair(labels, scores, n, n_labels)
        lb, sb = labels.read_bytes(), scores.read_bytes()
        ds, t_ex = time_call(
            lambda: eio.read_pair_upload("labels.csv", lb, "scores.csv", sb), budget
        )
        assert ds.y_true.shape == (n, n_labels)
        _, t_pd = time_call(lambda: (pd.read_csv(labels), pd.read_csv(scores)), budget)
        results.append(
            LoadResult(
                f"labels + scores CSV pair, {n:,} x {n_labels}", len(lb) + len(sb), t_ex, t_pd
            )
        )
        print(f"   load {results[-1].what}: ratio {results[-1].ratio:.2f}", file=sys.stderr)
    return results
