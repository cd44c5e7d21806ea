"""The Label ranking page's controls and its tables of every sample (AppTest): the
model, the sort and the page, the contributions chart and table, the effects' scale."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.conftest import APP, metric, numbered_selectbox
from tests.views.label_ranking.helpers import (
    PAGE,
    _case,
    assert_headline,
    assert_sample,
    open_page,
    open_with,
    table,
)


def test_digit_properties_models_sort_and_empty_sample():
    ds = load_sample("digit_properties")
    at = open_page("digit_properties")
    at.selectbox(key="lr_model").set_value("from_digit").run()
    assert not at.exception
    assert at.query_params["model"] in ("from_digit", ["from_digit"])
    s = ds.score("from_digit")
    assert_headline(at, ds.y_true, s)
    contrib = metrics.label_ranking_contributions(ds.y_true, s)
    for by, label in (("coverage", "coverage"), ("ranking_loss", "ranking loss")):
        at.selectbox(key="lr_sort_by").set_value(by).run()
        assert not at.exception
        shown = table(at, "LRAP")
        worst = metrics.sort_worst_first(contrib, by)
        assert shown["sample"].tolist()[:10] == worst["sample"].tolist()[:10]
        assert shown[label].iloc[0] == pytest.approx(worst[by].iloc[0])
    empty = int(np.flatnonzero(ds.y_true.sum(axis=1) == 0)[0])
    numbered_selectbox(at, "lr_sample").set_value(empty).run()
    assert not at.exception
    assert metric(at, "Sample LRAP") == "1"
    assert metric(at, "Sample coverage") == "0"
    assert metric(at, "Sample ranking loss") == "0"
    assert any("no true label" in w.value for w in at.warning)
    assert_sample(at, ds.y_true[empty], s[empty])


def test_chart_json_has_one_bar_per_sample():
    at = open_page("seed003_lrap")
    figs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    titles = [f["layout"]["title"]["text"].replace("<br>", " ") for f in figs]  # wrapped
    contrib = next(f for f, t in zip(figs, titles, strict=True) if "moves the mean" in t)
    assert len(contrib["data"][0]["x"]) == 3


def test_effects_at_5000_samples_read_in_a_stated_scale():
    """At 5,000 rows an effect is ~1e-4: the table and the bars use a stated ×10⁻ⁿ unit."""
    from explorer.datasets import Dataset

    y, s, _ = _case(3, n=5000, m=6)
    at = open_with(Dataset("big", "multilabel", y, {"m": s}))
    contrib = metrics.label_ranking_contributions(y, s)
    worst = int(np.argmin(metrics.lrap_per_sample(y, s)))
    assert at.session_state["lr_sample"] == worst
    table = next(d.value for d in at.dataframe if "LRAP" in d.value.columns)
    for column, title in (("lrap", "LRAP"), ("coverage", "coverage"), ("ranking_loss", "loss")):
        effects = contrib[f"{column}_moves_mean"].to_numpy()
        exponent = int(np.floor(np.log10(np.abs(effects).max())))
        assert exponent <= -3  # four decimals would print 0.0000 or -0.0001 on most rows
        unit = "×10⁻" + "⁰¹²³⁴⁵⁶⁷⁸⁹"[-exponent]
        shown = table[f"{title} moves mean {unit}"].to_numpy()
        want = effects[table["sample"].to_numpy()] * 10.0**-exponent
        np.testing.assert_allclose(shown, want, rtol=1e-12)
        assert (np.abs(shown) >= 0.01).mean() > 0.9  # four decimals read, not -0.0001
        assert any(f"**{unit}**" in c.value for c in at.caption)
    lrap_exp = int(np.floor(np.log10(np.abs(contrib["lrap_moves_mean"]).max())))
    effect = contrib["lrap_moves_mean"].iloc[worst] * 10.0**-lrap_exp
    lrap_unit = "×10⁻" + "⁰¹²³⁴⁵⁶⁷⁸⁹"[-lrap_exp]
    assert any(
        f"moves the mean LRAP by {fmt(effect)} {lrap_unit}," in c.value for c in at.caption
    )  # the opened sample's effect in the table's unit
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    lrap_exp = int(np.floor(np.log10(np.abs(contrib["lrap_moves_mean"]).max())))
    assert fig["layout"]["yaxis"]["title"]["text"].endswith(f"(×10⁻{'⁰¹²³⁴⁵⁶⁷⁸⁹'[-lrap_exp]})")
    bars = fig["data"][0]["y"]  # plotly sends numpy arrays as base64 typed arrays
    bars = np.frombuffer(base64.b64decode(bars["bdata"]), dtype=bars["dtype"])
    assert 1 <= np.abs(bars).max() < 10  # no '-50µ' axis


def test_a_link_opens_a_page_of_the_worst_first_order_and_the_box_moves_it():
    """Past 200 samples the order is shown a page at a time: ``?page=2`` opens the second
    page (its rows are the next 200 worst), the box moves to the last one, and a page
    the data does not have opens the first."""
    from explorer.datasets import Dataset

    y, s, _ = _case(4, n=450)
    ds = Dataset("paged", "multilabel", y, {"m": s})
    worst = metrics.sort_worst_first(metrics.label_ranking_contributions(y, s), "lrap")
    for param, page_no in (("2", 2), ("9", 1)):
        at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=30)
        at.session_state["session_datasets"] = {ds.name: ds}
        at.session_state["active_dataset"] = ds.name
        at.query_params["page"] = param
        at.run()
        assert not at.exception
        assert at.number_input(key="lr_rank_page").value == page_no
        assert at.query_params["page"] == str(page_no)
        start = (page_no - 1) * 200
        want = worst["sample"].tolist()[start : start + 200]
        assert table(at, "LRAP")["sample"].tolist() == want
    at.number_input(key="lr_rank_page").set_value(3).run()
    assert not at.exception
    assert at.query_params["page"] == "3"
    assert table(at, "LRAP")["sample"].tolist() == worst["sample"].tolist()[400:]
    assert any("(page 3 of 3)" in c.value for c in at.caption)
