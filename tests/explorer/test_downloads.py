"""explorer.downloads.csv_text: formula cells neutralised (OWASP), numbers kept numbers."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest

from explorer.downloads import FORMULA_START, csv_text, neutralised
from explorer.editing import matrices_from_dataset, table_from_dataset
from explorer.io import read_pair_upload, read_upload


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize(
    "value",
    [
        "=1+1",
        "+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(A1:A9)",
        "\t=1",
        "\r=1",
        '=HYPERLINK("x")',
        "-",
        "+",
    ],
)
def test_every_formula_start_gets_a_leading_quote(value):
    assert neutralised(value) == "'" + value
    [header, row] = cells(csv_text(pd.DataFrame({"id": [value]})))
    assert header == ["id"] and row == ["'" + value]


@pytest.mark.parametrize("value", ["-1.5", "+2", "-0", "-1e-3", "-.5", "+3.", "1-2", "a=b", " =x"])
def test_plain_numbers_and_inner_signs_are_kept(value):
    assert neutralised(value) == value
    assert cells(csv_text(pd.DataFrame({"id": [value]})))[1] == [value]


def test_numeric_columns_are_written_as_numbers():
    df = pd.DataFrame({"y": [-1.5, 2.0, -0.0], "n": [-3, 4, 5], "b": [True, False, True]})
    assert csv_text(df) == df.to_csv(index=False, lineterminator="\r\n")
    assert cells(csv_text(df))[1] == ["-1.5", "-3", "True"]


def test_column_names_and_missing_cells():
    df = pd.DataFrame({"=evil": ["a", None], "@label": [np.nan, "-x"], "ok": [1.0, 2.0]})
    rows = cells(csv_text(df))
    assert rows[0] == ["'=evil", "'@label", "ok"]
    assert rows[1] == ["a", "", "1.0"] and rows[2] == ["", "'-x", "2.0"]


def test_the_data_pages_tables_of_an_upload_with_formula_ids_and_labels():
    """Ids, label and model names from an uploaded file reach the downloads neutralised."""
    ds = read_upload("f.csv", b'id,y_true,score_=m\n"=HYPERLINK(""u"")",1,-0.5\n-7,0,0.25\n')
    rows = cells(csv_text(table_from_dataset(ds)))
    assert rows == [
        ["id", "y_true", "score_=m"],
        ['\'=HYPERLINK("u")', "1.0", "-0.5"],
        ["-7", "0.0", "0.25"],
    ]
    pair = read_pair_upload("l.csv", b"@cat,dog\n1,0\n", "s.csv", b"@cat,dog\n-0.5,0.1\n")
    labels, scores = matrices_from_dataset(pair)
    assert cells(csv_text(scores))[:2] == [["'@cat", "dog"], ["-0.5", "0.1"]]
    assert cells(csv_text(labels.reset_index()))[0] == ["id", "'@cat", "dog"]


def test_the_quote_is_added_only_to_risky_text():
    values = [*FORMULA_START, "x", "", "-1", "+1e5"]
    out = cells(
        csv_text(pd.DataFrame({"v": [v + "z" if v in FORMULA_START else v for v in values]}))
    )
    flagged = [row[0].startswith("'") for row in out[1:]]
    assert flagged == [True] * len(FORMULA_START) + [False] * 4
