"""Top-K retrieval page: the switchboard and the per-query table (paged, and the
switchboard on demand, on big data)."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.samples import load_sample
from metrics import (
    retrieval_per_query,
)
from tests.views.retrieval.helpers import expected, expected_map, open_big, open_page, shown


def test_switchboard_highlights_disagreements():
    at = open_page("seed002_map")
    board = at.dataframe[0].value
    assert board.loc[0, "convention"] == "-"
    row = board[(board["switch"] == "AP denominator") & (board["convention"] == "K")].iloc[0]
    ds = load_sample("seed002_map")
    assert row["MAP@K"] == pytest.approx(expected_map(ds, 5, "k"))
    assert row["MAP@K"] != board.loc[0, "MAP@K"]
    presets = board[board["switch"] == "preset"]["convention"].tolist()
    assert any(p.startswith("trec_eval") for p in presets)
    assert any(p.startswith("multilabel notes AveP") for p in presets)


def test_big_data_pages_the_per_query_table_and_computes_the_switchboard_on_demand():
    at, ds = open_big()
    assert shown(at) == expected(ds, k=5)
    # the per-query table: 200 rows, worst first, from a chosen row on
    opts = {"k": 5}
    table = retrieval_per_query(ds.y_true, ds.score(), **opts)
    table.insert(0, "query", list(ds.sample_ids))
    table = table.sort_values(["AP@K", "query"], kind="stable").reset_index(drop=True)
    shown_rows = at.dataframe[-1].value
    assert len(shown_rows) == 200
    assert shown_rows["query"].tolist() == table["query"][:200].tolist()
    assert f"of {ds.n_samples:,}" in " ".join(c.value for c in at.caption)
    at.number_input(key="ret_rows_from").set_value(9_900).run()
    assert not at.exception
    shown_rows = at.dataframe[-1].value
    assert shown_rows["query"].tolist() == table["query"][9_900:].tolist()  # the last 101
    np.testing.assert_allclose(shown_rows["AP@K"], table["AP@K"][9_900:])
    # the switchboard waits for its button, then shows real values
    n_frames = len(at.dataframe)
    assert any("switchboard is computed when you ask" in i.value for i in at.info)
    at.button(key="ret_compute_board").click().run()
    assert not at.exception
    assert len(at.dataframe) == n_frames + 1
    board = at.dataframe[0].value
    row = board[(board["switch"] == "AP denominator") & (board["convention"] == "M")].iloc[0]
    assert row["MAP@K"] == pytest.approx(
        metrics.mean_average_precision_at_k(ds.y_true, ds.score(), k=5, denominator="relevant")
    )
    # a change of settings asks again; the drill-down metric does not
    at.radio(key="ret_drill_metric").set_value("ERR").run()
    assert len(at.dataframe) == n_frames + 1
    at.slider(key="ret_k").set_value(3).run()
    assert not at.exception
    assert len(at.dataframe) == n_frames
    assert shown(at) == expected(ds, k=3)
