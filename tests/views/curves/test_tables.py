"""The ROC & PR curves page's per-sample tables: the samples of a cell, every sample,
the strip along the score axis, and their pages."""

from __future__ import annotations

import json

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from tests.conftest import APP
from tests.views.curves.drive import (
    metric,
    open_page,
    open_tab,
    open_with,
)


def test_long_tables_list_the_right_rows():
    """Past the strip's 3000 markers and the tables' 200 rows: the cell list is the cell's
    highest-scoring samples, the per-sample table the worst log-loss terms, the strip's
    histograms count every sample of each outcome, and n_bins redoes the histogram way."""
    rng = np.random.default_rng(3)
    n = 5000
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 2)  # many ties
    ds = Dataset("ties5000", "binary", y, {"m": s})
    at = open_with(ds, AppTest.from_file(APP, default_timeout=60))
    full = metrics.per_sample_outcomes(y, s, 0.5)
    full.insert(0, "id", list(ds.sample_ids))
    open_tab(at, "Samples of a cell")
    for cell in ("FP", "TN", "TP", "FN"):
        at.selectbox(key="curves_cm_cell").set_value(cell).run()
        assert not at.exception
        shown = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
        want = full[full["outcome"] == cell]
        want = want.iloc[np.argsort(-want["score"].to_numpy(), kind="stable")]
        assert any(f"{len(want):,} samples are {cell}" in c.value for c in at.caption)
        assert shown["id"].tolist() == want["id"].head(200).tolist(), cell
        assert shown.columns.tolist() == full.columns.tolist()
        assert shown["rank"].tolist() == want["rank"].head(200).tolist()
    worst = full.sort_values(
        ["log_loss_term", "score"], ascending=[False, False], na_position="last"
    ).head(200)
    open_tab(at, "Every sample")
    table = [d.value for d in at.dataframe if "log_loss_term" in d.value.columns][-1]
    assert table["id"].tolist() == worst["id"].tolist()
    assert table["outcome"].tolist() == worst["outcome"].tolist()
    np.testing.assert_array_equal(table["log_loss_term"], worst["log_loss_term"])
    open_tab(at, "Along the score axis")
    strip = next(
        json.loads(c.proto.spec)
        for c in at.get("plotly_chart")
        if "samples" in json.dumps(json.loads(c.proto.spec)["layout"].get("yaxis", {}))
    )
    totals = {tr["name"].split(" ")[0]: tr["y"] for tr in strip["data"] if tr["type"] == "bar"}
    assert set(totals) == {"TP", "FN", "FP", "TN"}
    for outcome, counts in totals.items():
        counts = charts_counts(counts)
        assert counts.sum() == (full["outcome"] == outcome).sum(), outcome
    open_tab(at, "AUC four ways")
    at.number_input(key="curves_n_bins").set_value(7).run()
    assert not at.exception
    four = metrics.auc_four_ways(y, s, n_bins=7)
    assert metric(at, "AUC: histogram") == fmt(four["histogram"])
    assert metric(at, "AUC: rank sum") == fmt(four["rank"])
    delta = next(m for m in at.metric if m.label == "AUC: histogram").proto.delta
    assert delta == f"error {four['histogram_error']:+.2e}"


def charts_counts(y) -> np.ndarray:
    """Bar heights from a figure's JSON (plain list, or plotly's typed-array dict)."""
    if isinstance(y, dict):
        import base64

        return np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"])
    return np.asarray(y)


def test_long_tables_are_paged_and_the_page_is_in_the_url():
    """Every sample, 200 rows a page: page 3 lists the 401st to 600th worst samples; the
    page is in the URL (spage), and a link with it opens that page."""
    rng = np.random.default_rng(9)
    n = 650
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.random(n), 3)
    ds = Dataset("paged", "binary", y, {"m": s})
    at = open_with(ds, AppTest.from_file(APP, default_timeout=60))
    open_tab(at, "Every sample")
    at.number_input(key="curves_sample_page").set_value(3).run()
    assert not at.exception
    full = metrics.per_sample_outcomes(y, s, 0.5)
    full.insert(0, "id", list(ds.sample_ids))
    worst = full.sort_values(
        ["log_loss_term", "score"], ascending=[False, False], na_position="last"
    )
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert table["id"].tolist() == worst["id"].iloc[400:600].tolist()
    assert any("Showing rows 401 to 600" in c.value for c in at.caption)
    assert at.query_params["spage"] in ("3", ["3"])
    at.number_input(key="curves_sample_page").set_value(4).run()
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert table["id"].tolist() == worst["id"].iloc[600:].tolist()  # the last 50
    # a link to page 2 of the sample list opens page 2
    at = open_page("breast_cancer", {"ttab": "every", "spage": "2"})
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert at.number_input(key="curves_sample_page").value == 2 and len(table) == 28  # 228
