"""A dataset typed live (explorer.new_table): blank rows at the end and wholly empty
model columns dropped, names given on Apply, only unusable cells refused."""

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
