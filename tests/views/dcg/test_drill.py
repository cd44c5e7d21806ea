"""DCG & NDCG page: the selected sample (opening on the worst, a link naming one) and its
step tables."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.conftest import APP, metric, numbered_selectbox, svg_charts
from tests.views.dcg.helpers import PAGE, open_graded, open_page, open_tab, steps_table, worst_row
from views.dcg.panel import TAB_KEY, TABS


def test_multilabel_sample_flags_rows_without_relevant_items():
    at = open_page("digit_properties")
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score()
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s))
    n_empty = int((y.sum(axis=1) == 0).sum())
    assert n_empty > 0
    assert any(
        f"{n_empty} of {ds.n_samples} samples have **no relevant" in w.value for w in at.warning
    )
    open_tab(at, "Every sample")
    per = next(d.value for d in at.dataframe if "no relevant item" in d.value.columns)
    # worst first, the samples without a relevant item last (here past the 200 rows shown)
    assert len(per) == 200 and not per["no relevant item"].any()
    assert per["NDCG"].is_monotonic_increasing
    assert per["NDCG"].iloc[0] == pytest.approx(metrics.ndcg_per_sample(y, s)[y.sum(1) > 0].min())
    first_empty = ds.sample_ids[int(np.flatnonzero(y.sum(axis=1) == 0)[0])]
    assert any(f"table: {first_empty}," in w.value for w in at.warning)


def test_drill_down_opens_on_the_worst_sample():
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    worst = worst_row(y, s)
    assert worst != 0  # row 0 was the old default
    at = open_page("diabetes_ranking")
    assert numbered_selectbox(at, "dcg_sample").value == worst
    assert metric(at, "DCG of this sample") == fmt(metrics.dcg_per_sample(y, s)[worst])
    assert metric(at, "NDCG of this sample") == fmt(metrics.ndcg_per_sample(y, s)[worst])
    assert at.session_state[TAB_KEY] == TABS[0] and at.query_params["tab"] == "derivation"
    assert not any("NDCG" in d.value.columns for d in at.dataframe)  # in its closed tab
    open_tab(at, "Every sample")
    assert at.query_params["tab"] == "every"
    table = next(d.value for d in at.dataframe if "NDCG" in d.value.columns)
    assert table["sample"].iloc[0] == ds.sample_ids[worst]  # the table's first row
    assert at.query_params["sample"] == ds.sample_ids[worst]
    assert next(h for h in at.subheader if h.proto.anchor == "dcg_worst_first")
    assert any("(#dcg_worst_first)" in c.value for c in at.caption)


def test_a_link_that_names_a_sample_still_opens_it():
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = AppTest.from_file(APP, default_timeout=30)  # open_page's own "sample" is the dataset
    at.query_params["ds"] = "diabetes_ranking"
    at.query_params["sample"] = ds.sample_ids[7]
    at.run()
    at.selectbox(key="dataset_picker").set_value("diabetes_ranking").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert numbered_selectbox(at, "dcg_sample").value == 7
    assert metric(at, "DCG of this sample") == fmt(metrics.dcg_per_sample(y, s)[7])


def test_step_tables_of_many_items_draw_their_top_positions(deferred_downloads):
    """Past STEP_ROWS items the selected sample's step tables (redrawn on every move)
    draw the first positions, every position of the top k when k is larger: the last
    running sum drawn is then the sample's DCG from metrics. Their CSVs, built on the
    click only, hold every position."""
    import io

    from views.dcg.derivation import STEP_ROWS

    y, s, at = open_graded(50, 40)
    row = numbered_selectbox(at, "dcg_sample").value
    want = metrics.dcg_steps(y[row], s[row])
    t = steps_table(at)
    assert len(t) == STEP_ROWS == 30
    np.testing.assert_allclose(t["running sum"], want["running_sum"][:STEP_ROWS], rtol=1e-12)
    assert any("The first 30 of 40 positions are shown" in c.value for c in at.caption)
    assert any("The first 30 of 40 positions are drawn" in c.value for c in at.caption)
    # the chart of a long list is SVG: its contributions are the sample's, position by position
    (chart,) = svg_charts(at)
    drawn = re.findall(r'<rect class="bar" data-series="1" data-value="([^"]+)"', chart)
    np.testing.assert_array_equal([float(v) for v in drawn], want["contribution"][:STEP_ROWS])
    assert not at.get("plotly_chart")
    assert metric(at, "DCG of this sample") == fmt(metrics.dcg_per_sample(y, s)[row])
    csv = pd.read_csv(io.StringIO(deferred_downloads("dcg_dl_steps")))
    assert csv["position"].tolist() == list(range(1, 41))
    np.testing.assert_allclose(csv["running sum"], want["running_sum"], rtol=1e-12)
    ideal = pd.read_csv(io.StringIO(deferred_downloads("dcg_dl_ideal")))
    assert len(ideal) == 40
    assert ideal["running sum"].iloc[-1] == pytest.approx(
        metrics.dcg_per_sample(y, y)[row], rel=1e-12
    )
    for k in (3, 35):
        at.number_input(key="dcg_k").set_value(k).run()
        assert not at.exception
        assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=k))
        t = steps_table(at)
        assert len(t) == max(k, STEP_ROWS)
        row_dcg = metrics.dcg_per_sample(y, s, k=k)[row]
        assert t["running sum"].iloc[-1] == pytest.approx(row_dcg, rel=1e-12, abs=1e-12)
        assert metric(at, "DCG of this sample") == fmt(row_dcg)
        (chart,) = svg_charts(at)
        assert f"k = {k} cut" in chart
