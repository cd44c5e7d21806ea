"""Upload fuzz: hostile files through the readers the Data page calls.

Every case (tests/fuzz.py: random bytes, truncated and bit-flipped CSV,
Parquet and .npy, .npy headers claiming huge shapes, encodings, ragged rows,
duplicate and empty header cells, huge cells, formula cells, nested Parquet,
Parquet bombs, TREC garbage, compressed files) must end in a valid Dataset or
a DataError of at most ``MAX_MESSAGE_CHARS`` characters: never another
exception, never a MemoryError. ``FUZZ_CASES=20000`` runs more.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.datasets import KINDS, Dataset
from explorer.io import DataError, read_pair_upload, read_trec_upload, read_upload
from explorer.io.errors import MAX_MESSAGE_CHARS
from explorer.io.limits import MAX_TEXT_CHARS
from tests.fuzz import MUTATIONS, Case, n_cases, upload_case

SEED = 19
CASES = n_cases(1000, "FUZZ_UPLOADS")


def read_case(case: Case) -> Dataset:
    """The case through the entry point its uploader calls on the Data page."""
    if case.entry == "one":
        return read_upload(*case.files[0])
    if case.entry == "pair":
        return read_pair_upload(*case.files[0], *case.files[1])
    return read_trec_upload(*case.files[0], *case.files[1])


def check_dataset(ds: Dataset) -> None:
    """What every page may rely on in an accepted upload."""
    assert ds.kind in KINDS
    assert ds.n_samples >= 1
    assert np.isfinite(ds.y_true).all()
    for s in ds.scores.values():
        assert s.shape == ds.y_true.shape and np.isfinite(s).all()
    if ds.sample_weight is not None:
        assert (ds.sample_weight >= 0).all() and (ds.sample_weight > 0).any()
    if ds.kind == "binary" or ds.kind == "multilabel":
        assert np.isin(ds.y_true, (0, 1)).all()
    assert len(ds.sample_ids) == ds.n_samples == len(set(ds.sample_ids))
    assert len(set(ds.label_names)) == len(ds.label_names)
    for text in (*ds.sample_ids, *ds.label_names, *ds.model_names):
        assert len(text) <= MAX_TEXT_CHARS


def run_cases(seed: int, count: int) -> dict[str, int]:
    """Run ``count`` cases; a failure names the case to replay: upload_case(seed, i)."""
    outcomes = {"dataset": 0, "refused": 0}
    for i in range(count):
        case = upload_case(seed, i)
        try:
            ds = read_case(case)
        except DataError as exc:
            message = str(exc)
            assert 0 < len(message) <= MAX_MESSAGE_CHARS, (i, case.what, message[:400])
            outcomes["refused"] += 1
        except Exception as exc:  # what the fuzz is looking for
            pytest.fail(
                f"upload_case({seed}, {i}) [{case.what}, {[n for n, _ in case.files]}] raised "
                f"{type(exc).__name__}: {str(exc)[:300]}"
            )
        else:
            check_dataset(ds)
            outcomes["dataset"] += 1
    return outcomes


def test_upload_fuzz_every_case_is_a_dataset_or_a_short_refusal():
    outcomes = run_cases(SEED, CASES)
    assert sum(outcomes.values()) == CASES >= 1000
    # the mix holds both: valid files are read, hostile ones refused
    assert outcomes["dataset"] >= CASES // 10 and outcomes["refused"] >= CASES // 2


def test_every_mutation_is_drawn():
    assert {upload_case(SEED, i).what.split()[0] for i in range(len(MUTATIONS))} == set(MUTATIONS)


def test_a_parquet_footer_with_a_column_path_that_is_not_utf8_is_refused():
    """Found by the 10,000-upload run (FUZZ_UPLOADS=10000, the Data page's seed 1919):
    a bit flipped in a column's path in the footer reached pyarrow's UTF-8 decoding on
    the first column read and raised UnicodeDecodeError, not a refusal."""
    case = upload_case(1919, 7699)
    assert case.what.startswith("bitflip") and case.files[0][0].endswith(".parquet")
    with pytest.raises(DataError, match=r"is not a readable Parquet file \('utf-8' codec"):
        read_case(case)
