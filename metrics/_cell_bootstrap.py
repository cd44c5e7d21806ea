"""Bootstrap of the weight in a few cells: the resamples a binned or thresholded metric needs.

A metric that depends on the data only through the total weight of a few
cells (the four cells of a confusion matrix at a fixed threshold, the
(bin, class) cells of a reliability diagram) can be resampled cell by cell.
Without weights a nonparametric bootstrap of ``n`` rows draws the cell
counts from ``Multinomial(n; counts / n)`` exactly, whatever ``n``: one
``Generator.multinomial`` call for every resample, no per-row work. With
weights the rows differ within a cell, so rows are resampled
(:func:`metrics._resample.draw_counts`) and each resample's weights summed
per cell, in blocks of resamples that bound the memory.
"""

from __future__ import annotations

import numpy as np

from metrics._resample import draw_counts

#: Resample x row elements per block of the weighted bootstrap (64 MiB of float64).
_BLOCK_ELEMENTS = 1 << 23


def resampled_cell_weights(cells, n_cells: int, weights, n_resamples: int, rng):
    """Total weight per cell in each of ``n_resamples`` bootstrap resamples of the rows.

    Parameters
    ----------
    cells : ndarray of intp, shape (n,)
        The cell of each row, in ``[0, n_cells)``.
    n_cells : int
    weights : ndarray of shape (n,) or None
        None: every row weighs 1 (the exact multinomial path).
    n_resamples : int
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of float64, shape (n_resamples, n_cells)

    Examples
    --------
    >>> import numpy as np
    >>> out = resampled_cell_weights(np.array([0, 0, 1, 2]), 3, None, 4, np.random.default_rng(0))
    >>> out.shape, out.sum(axis=1).tolist()
    ((4, 3), [4.0, 4.0, 4.0, 4.0])
    """
    n = cells.shape[0]
    if weights is None:
        counts = np.bincount(cells, minlength=n_cells)
        return rng.multinomial(n, counts / n, size=n_resamples).astype(np.float64)
    order = np.argsort(cells, kind="stable")
    sorted_cells = cells[order]
    w = weights[order]
    present = np.unique(sorted_cells)
    starts = np.searchsorted(sorted_cells, present, side="left")
    out = np.zeros((n_resamples, n_cells))
    step = max(1, _BLOCK_ELEMENTS // max(n, 1))
    for lo in range(0, n_resamples, step):  # blocks of resamples, each vectorized over rows
        rows = min(step, n_resamples - lo)
        drawn = draw_counts(rng, rows, n)[:, order] * w
        out[lo : lo + rows, present] = np.add.reduceat(drawn, starts, axis=1)
    return out
