"""A dataset typed live (explorer.new_table): blank rows at the end and wholly empty
model columns dropped, names given on Apply, only unusable cells refused."""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from explorer import new_table
from explorer.io import DataError


def _typed(values: list[list], n_rows: int = 6, n_models: int = 3):
    df = new_table.blank_table(n_rows, n_models)
    for i, row in enumerate(values):
        df.iloc[i, 1 : 1 + len(row)] = row
    return df


def test_trailing_blank_rows_and_empty_models_are_dropped():
    df = _typed([[0, 0.3, np.nan, 0.7], [1, 0.2, np.nan, 0.8], [1, 0.9, np.nan, 0.6]])
    df.loc[1, "id"] = "b"
    ds = new_table.dataset_from_new_table(df, kind="binary", name="t", model_names="weak, x, good")
    assert ds.n_samples == 3
    assert list(ds.scores) == ["weak", "good"]
    np.testing.assert_array_equal(ds.scores["good"], [0.7, 0.8, 0.6])
    np.testing.assert_array_equal(ds.y_true, [0, 1, 1])
    assert ds.sample_ids == ("0", "b", "2")


def test_regression_models_keep_their_column_names_when_none_typed():
    df = _typed([[3.5, 3.0], [1.0, 2.0]], n_models=1)
    ds = new_table.dataset_from_new_table(df, kind="regression", name="t")
    assert list(ds.scores) == ["model_1"]
    np.testing.assert_array_equal(ds.y_true, [3.5, 1.0])


@pytest.mark.parametrize(
    ("values", "names", "message"),
    [
        ([[0, 0.3], [1, np.nan]], "", 'row 1, column "model_1": is empty'),
        ([[0, 0.3], [np.nan, 0.4]], "", 'row 1, column "y_true": is empty'),
        ([[0, 0.3], [2, 0.4]], "", 'row 1, column "y_true": 2 is not 0 or 1'),
        ([[0], [1]], "", 'one model at least (column "model_1")'),
        ([], "", "is empty"),
        ([[0, 0.3, 0.4]], "a, a", "'a' twice"),
    ],
)
def test_what_cannot_be_scored_is_refused_where_the_grid_shows_it(values, names, message):
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        new_table.dataset_from_new_table(_typed(values), kind="binary", name="t", model_names=names)


def test_matrices_typed_with_label_names():
    labels, scores = new_table.blank_matrices(4, 3)
    labels.iloc[0], scores.iloc[0] = [1, 0, 1], [0.9, 0.2, 0.4]
    labels.iloc[1], scores.iloc[1] = [0, 1, 0], [0.1, 0.8, 0.3]
    ds = new_table.dataset_from_new_matrices(
        labels, scores, kind="multilabel", name="t", label_names="human, cat"
    )
    assert ds.label_names == ("human", "cat", "label_3")
    assert ds.y_true.tolist() == [[1, 0, 1], [0, 1, 0]]
    assert ds.score().tolist() == [[0.9, 0.2, 0.4], [0.1, 0.8, 0.3]]


def test_matrices_with_a_missing_score_are_refused():
    labels, scores = new_table.blank_matrices(2, 2)
    labels.iloc[0], scores.iloc[0] = [1, 0], [0.9, np.nan]
    with pytest.raises(DataError, match='row 0, column "label_2": is empty'):
        new_table.dataset_from_new_matrices(labels, scores, kind="multilabel", name="t")


def test_the_entry_grid_names_its_columns_by_kind():
    binary = new_table.entry_data("binary", 4, 2)
    assert [c["label"] for c in binary["columns"]] == [
        "id",
        "true label",
        "score of model_1",
        "score of model_2",
    ]
    assert [c["numeric"] for c in binary["columns"]] == [False, True, True, True]
    regression = new_table.entry_data("regression", 4, 1)
    assert [c["label"] for c in regression["columns"]][1:] == [
        "true value",
        "prediction of model_1",
    ]
    assert regression["names_label"].startswith("Model names")
    multi = new_table.entry_data("multilabel", 3, 2)
    assert multi["groups"] == [{"head": "Labels (0/1)", "span": 2}, {"head": "Scores", "span": 2}]
    assert [c["label"] for c in multi["columns"]] == [
        "label_1 label",
        "label_2 label",
        "label_1 score",
        "label_2 score",
    ]
    assert multi["names_label"].startswith("Label names")


def test_an_entry_of_text_cells_reads_as_typed():
    sent = {
        "cells": [["1", "0", " 0.9 ", "0.2"], ["0", "1", "0.1", "0.8"], ["", "", "", ""]],
        "names": "cat, dog",
    }
    ds = new_table.dataset_from_entry(sent, kind="multilabel", n_columns=2, name="t")
    assert ds.label_names == ("cat", "dog")
    assert ds.y_true.tolist() == [[1, 0], [0, 1]]
    assert ds.score().tolist() == [[0.9, 0.2], [0.1, 0.8]]
    sent = {"cells": [["a", "0", "0.3"], ["", "1", "0.45"], ["c", "1", "abc"]], "names": ""}
    with pytest.raises(DataError, match="row 2, column \"model_1\": 'abc' is not a finite"):
        new_table.dataset_from_entry(sent, kind="binary", n_columns=1, name="t")
    sent["cells"] = sent["cells"][:2]
    ds = new_table.dataset_from_entry(sent, kind="binary", n_columns=1, name="t")
    assert ds.sample_ids == ("a", "1") and ds.scores["model_1"].tolist() == [0.3, 0.45]


@pytest.mark.parametrize(
    "sent",
    [
        None,
        {"cells": "0,0.3"},
        {"cells": [["", "0", 0.3]]},
        {"cells": [["", "0"]]},
        {"cells": [["", "0", "1" * 2000]]},
        {"cells": [["", "0", "0.3"]] * (new_table.MAX_TYPED_ROWS + 1)},
    ],
)
def test_an_entry_not_of_the_grid_shape_is_refused(sent):
    with pytest.raises(DataError, match="came back unreadable"):
        new_table.dataset_from_entry(sent, kind="binary", n_columns=1, name="t")


def test_a_block_pasted_into_the_grid_splits_as_a_spreadsheet_copies_it():
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run the component's JavaScript")
    js = Path(__file__).resolve().parents[2] / "views" / "data" / "static" / "table_entry.js"
    pasted = ["0\t0.3\r\n1\t0.2\r\n", "a\t\t0.5\nb", "0.25"]
    run = subprocess.run(
        [node, "--input-type=module", "-e",
         f"import {{pastedRows}} from {json.dumps(js.as_uri())};"
         f"console.log(JSON.stringify({json.dumps(pasted)}.map(pastedRows)));"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [
        [["0", "0.3"], ["1", "0.2"]],
        [["a", "", "0.5"], ["b"]],
        [["0.25"]],
    ]
