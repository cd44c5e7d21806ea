"""The pages' 95% intervals computed a block of resamples at a time, against one call of
the metrics a resample (the way the pages had them, kept as the tests' references).

``python -m bench.intervals`` times, with ``time.process_time`` (the best of
``--repeats``), on the bundled samples the pages open with and on a larger table of
each kind: ``explorer.intervals.multiclass``, ``multilabel`` and ``curves_headlines``
against ``explorer.intervals.joint_intervals`` over the page's own numbers (the
references of tests/explorer/pages/test_*_resamples.py), checks that both give the same
interval texts, and prints a Markdown table with the ratio of the two in this run. On
the curves page the reference is the part that changed (log loss and the rates at the
threshold); the page's function also computes ROC AUC and AP, as before.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
import warnings

import numpy as np

from explorer import intervals
from explorer.datasets import Dataset
from explorer.pages import multilabel
from explorer.samples import load_sample


def _best(call, repeats: int) -> tuple[float, dict]:
    best, got = float("inf"), {}
    for _ in range(repeats):
        start = time.process_time()
        got = call()
        best = min(best, time.process_time() - start)
    return best, got


def _tiled(ds: Dataset, times: int) -> Dataset:
    """``ds`` with its rows repeated ``times`` times (a larger table of the same kind)."""
    scores = {
        m: np.tile(ds.score(m), (times, 1) if ds.score(m).ndim == 2 else times)
        for m in ds.model_names
    }
    y = np.tile(ds.y_true, (times, 1) if ds.y_true.ndim == 2 else times)
    return dataclasses.replace(ds, name=f"{ds.name} x{times}", y_true=y, scores=scores)


def cases(scale: int):
    """(page, data, the page's intervals, the one-call-a-resample reference) to time."""
    from tests.explorer.pages import test_curves_resamples as curves_ref
    from tests.explorer.pages import test_multiclass_resamples as multiclass_ref
    from tests.explorer.pages import test_multilabel_resamples as multilabel_ref

    for ds in (load_sample("iris"), _tiled(load_sample("iris"), scale)):
        model = ds.model_names[0]
        yield (
            "Multiclass",
            ds,
            (
                lambda ds=ds, model=model: intervals.multiclass(ds, model, 2),
                lambda ds=ds, model=model: multiclass_ref._one_call_a_resample(ds, model, 2),
            ),
        )
    for ds in (load_sample("digit_properties"), _tiled(load_sample("digit_properties"), scale)):
        pred, _ = multilabel.prediction(ds, ds.model_names[0], "threshold", 0.5, (), None)
        yield (
            "Multilabel",
            ds,
            (
                lambda ds=ds, pred=pred: intervals.multilabel(ds, pred, "nan"),
                lambda ds=ds, pred=pred: multilabel_ref._one_call_a_resample(
                    ds, pred.astype(np.int8), "nan"
                ),
            ),
        )
    for ds in (load_sample("imbalanced"), _tiled(load_sample("imbalanced"), scale)):
        model = ds.model_names[0]
        yield (
            "ROC & PR curves",
            ds,
            (
                lambda ds=ds, model=model: intervals.curves_headlines(ds, model, 0.3, beta=2.0),
                lambda ds=ds, model=model: curves_ref._one_call_a_resample(ds, model, 0.3, 2.0),
            ),
        )


def run(scale: int = 10, repeats: int = 3) -> list[str]:
    """The table's rows: page, rows, the two CPU times, their ratio, equal texts."""
    rows = [
        "| page | rows | blocks of resamples (s) | one call a resample (s) | ratio | same texts |",
        "|---|---:|---:|---:|---:|---|",
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for page, ds, (blocks, reference) in cases(scale):
            fast, got = _best(blocks, repeats)
            slow, want = _best(reference, 1)
            same = all(got[label].text() == want[label].text() for label in want)
            times = f"{fast:.3f} | {slow:.2f} | {slow / fast:.0f}x"
            rows.append(f"| {page} | {ds.n_samples:,} | {times} | {same} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.intervals", description=__doc__)
    p.add_argument("--scale", type=int, default=10, help="the larger tables: rows x this")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    print("\n".join(run(args.scale, args.repeats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
