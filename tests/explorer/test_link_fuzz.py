"""Link fuzz: hostile ``?data=`` tokens through explorer.links.decode_dataset.

Every case (tests/fuzz.py: zlib bombs, deep nesting, wrong types and shapes,
2-D labels for 1-D kinds, label/id count mismatches, one class, bad weights,
empty payloads, names of bundled samples, absurd numbers) decodes to a valid
Dataset or raises a DataError of at most ``MAX_MESSAGE_CHARS`` characters.
``FUZZ_CASES=20000`` runs more.
"""

from __future__ import annotations

import pytest

from explorer.io import DataError
from explorer.io.errors import MAX_MESSAGE_CHARS
from explorer.links import decode_dataset
from tests.explorer.test_upload_fuzz import check_dataset
from tests.fuzz import link_case, n_cases

SEED = 19
CASES = n_cases(1000, "FUZZ_LINKS")


def test_link_fuzz_every_token_is_a_dataset_or_a_short_refusal():
    outcomes = {"dataset": 0, "refused": 0}
    for i in range(CASES):
        what, token = link_case(SEED, i)
        try:
            ds = decode_dataset(token)
        except DataError as exc:
            message = str(exc)
            assert 0 < len(message) <= MAX_MESSAGE_CHARS, (i, what, message[:400])
            outcomes["refused"] += 1
        except Exception as exc:  # what the fuzz is looking for
            pytest.fail(
                f"link_case({SEED}, {i}) [{what}] raised {type(exc).__name__}: {exc!s:.300}"
            )
        else:
            check_dataset(ds)
            assert ds.source == "link" and ds.name.strip()
            outcomes["dataset"] += 1
    assert sum(outcomes.values()) == CASES >= 1000
    assert outcomes["dataset"] >= CASES // 10 and outcomes["refused"] >= CASES // 2, outcomes
