"""Refusals in the visitor's language: a reader's, a link's, the slice filter's and a
metric's message is a phrase whose English is the message as written (byte for byte)
and whose Chinese is the catalogue's, the visitor's names kept."""

from __future__ import annotations

import math

import numpy as np
import pytest

import metrics
from explorer import intervals, io, metric_refusals, slicing
from explorer.i18n import Phrase, translate
from explorer.links import decode_dataset
from tests.views import untranslated


def zh(text: str, **fields) -> str:
    return Phrase(text, **fields).translated("zh")


def _refusal(read, *args) -> str:
    with pytest.raises((io.DataError, slicing.GroupingError)) as caught:
        read(*args)
    assert str(caught.value) == caught.value.args[0]  # the English is the phrase
    return caught.value.args[0]


@pytest.mark.parametrize(
    ("name", "data", "english", "kept"),
    [
        (
            "bad.csv",
            b"y_true,y_score\n0,0.1\n1,n/a\n",
            "bad.csv, line 3, column \"y_score\": 'n/a' is not a number.",
            ["bad.csv", '"y_score"', "'n/a'"],
        ),
        (
            "r.csv",
            b"y_true,y_score\n1,0.5,3\n",
            "r.csv, line 2 has 3 fields but the header (line 1) has 2 (an extra ',' or a "
            "decimal comma?).",
            ["r.csv", "','"],
        ),
        (
            "pic.csv",
            b"\x89PNG\r\n\x1a\n" + bytes(40),
            "pic.csv is not a text CSV file: it looks like a PNG image.",
            ["pic.csv", "CSV", "PNG"],
        ),
        (
            "w.csv",
            b"y_true,y_score,sample_weight\n1,0.5,-1\n0,0.2,1\n",
            "w.csv, line 2, column \"sample_weight\": '-1' is negative (expected a weight >= 0).",
            ["w.csv", '"sample_weight"', "'-1'"],
        ),
        (
            "book.xlsx",
            b"PK",
            "book.xlsx: files of type '.xlsx' are not read; expected .csv, .tsv, .txt, .parquet, "
            ".pq.",
            ["book.xlsx", "'.xlsx'", ".parquet"],
        ),
    ],
)
def test_a_readers_refusal_is_its_english_and_reads_in_chinese(name, data, english, kept):
    why = _refusal(io.read_upload, name, data)
    assert why == english
    chinese = translate(why, "zh")
    assert chinese != english and all(text in chinese for text in kept)
    assert untranslated.english_left([chinese], {name}) == []


def test_a_cell_refusal_is_filled_from_the_catalogue():
    why = _refusal(io.read_upload, "bad.csv", b"y_true,y_score\n0,0.1\n1,n/a\n")
    cell = zh(
        '${label}, ${where}, column "${col}"',
        label="bad.csv",
        where=zh("line ${n}", n=3),
        col="y_score",
    )
    assert translate(why, "zh") == zh(
        "${cell}: ${why}.", cell=cell, why=zh("${raw} is not a number", raw="'n/a'")
    )


def test_a_damaged_link_and_a_slice_filter_refusal_read_in_chinese():
    link = _refusal(decode_dataset, "not-a-dataset")
    assert (
        link == "the link's data parameter is damaged (not a packed dataset); ask for a fresh link."
    )
    assert translate(link, "zh") == zh(
        "the link's data parameter is damaged (${why}); ask for a fresh link.",
        why=zh("not a packed dataset"),
    )
    cuts = _refusal(slicing.parse_cuts, "40, 18")
    assert cuts == "cut points must increase: 18 follows 40."
    assert translate(cuts, "zh") == zh(
        "cut points must increase: ${p} follows ${q}.", p="18", q="40"
    )


def test_a_metric_refusal_of_a_common_shape_reads_in_chinese_in_an_interval_line():
    with pytest.raises(metrics.MetricInputError) as caught:
        metrics.roc_auc_score(np.zeros(6), np.linspace(0, 1, 6))
    message = str(caught.value)
    why = metric_refusals.phrase(message)
    assert why == message and isinstance(why, Phrase)
    assert untranslated.english_left([translate(why, "zh")], {"y_true"}) == []
    line = intervals.Interval(
        math.nan, math.nan, math.nan, metric_refusals.phrase(message.rstrip("."))
    ).text()
    assert line == f"95% CI: none ({message.rstrip('.')})"
    assert "ROC AUC 无定义" in translate(line, "zh")
    assert (
        metric_refusals.phrase("k must be >= 1; got 0.") == "k must be >= 1; got 0."
    )  # as written
