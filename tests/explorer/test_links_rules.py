"""A ``?data=`` link is held to the rules of an upload; the editor makes datasets that keep them."""

from __future__ import annotations

import pandas as pd
import pytest

from explorer.editing import dataset_from_matrices, dataset_from_table
from explorer.io import DataError
from explorer.links import decode_dataset, encode_dataset
from tests.fuzz import token

GOOD = {"v": 2, "name": "mine", "kind": "binary", "shape": [3], "y": [0, 1, 1],
        "s": {"m": [0.1, 0.9, 0.4]}, "w": None, "labels": [], "ids": []}  # fmt: skip


def refused(**changes) -> str:
    with pytest.raises(DataError) as info:
        decode_dataset(token({**GOOD, **changes}))
    message = str(info.value)
    assert message.startswith("the link's data parameter is damaged (") and len(message) <= 300
    return message


def test_the_good_payload_opens():
    ds = decode_dataset(token(GOOD))
    assert ds.name == "mine" and ds.sample_ids == ("0", "1", "2") and ds.source == "link"


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"ids": ["a", "a", "b"]}, "the sample ids must be different from each other"),
        ({"ids": ["a", "", "b"]}, "the sample ids must not be empty"),
        ({"ids": ["a", "b", "x" * 300]}, "the sample ids hold 'xxxx"),
        ({"s": {"": [0.1, 0.9, 0.4]}}, "the model names must not be empty"),
        ({"s": {"m" * 257: [0.1, 0.9, 0.4]}}, "the model names hold 'mmm"),
        ({"w": [0, 0, 0]}, "sample weights must be >= 0, and one at least > 0"),
        ({"w": [1, -1, 1]}, "sample weights must be >= 0"),
        ({"name": "n" * 600}, "the name 'nnnn"),
        ({"kind": "x" * 10_000}, "unknown kind 'xxxx"),
        ({"v": 10**400}, "unknown format version 1000000000"),
        ({"shape": [10_000], "y": [0] * 10_000, "s": {"a": [0.5] * 10_000, "b": [0.5] * 10_000}},
         "more than 20,000 numbers"),
        ({"kind": "graded", "shape": [1, 2], "y": [2**53, 0], "s": {"m": [0.1, 0.2]}},
         "a relevance grade is above 2**53 - 1"),
    ],
)  # fmt: skip
def test_a_link_is_refused_where_an_upload_would_be(changes, reason):
    assert reason in refused(**changes)


def test_edited_rows_get_unique_ids_and_a_typed_duplicate_is_refused():
    df = pd.DataFrame({"id": ["a", None, "1", None], "y_true": [0, 1, 1, 0], "score_m": [0.1] * 4})
    ds = dataset_from_table(df, kind="binary", name="e")
    assert ds.sample_ids == ("a", "1-2", "1", "3")
    assert decode_dataset(encode_dataset(ds)).sample_ids == ds.sample_ids  # its link opens
    df.loc[3, "id"] = "a"
    with pytest.raises(DataError, match=r'row 3, column "id": \'a\' repeats the id of row 0'):
        dataset_from_table(df, kind="binary", name="e")
    labels = pd.DataFrame({"x": [1, 0]}, index=["q", "q"])
    with pytest.raises(DataError, match="repeats the id of row 0"):
        dataset_from_matrices(labels, labels * 0.5, kind="multilabel", name="e")
