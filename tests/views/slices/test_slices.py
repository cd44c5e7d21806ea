"""The Slices page (AppTest): each group's value and count against the metric on its rows
alone, cut points and a second attribute from the controls and from a link, a group's
button opening the model page on that slice, "Predict, then reveal", data without
attributes."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import mean_absolute_error, roc_auc_score

from explorer.formatting import fmt, short
from explorer.pages import slices, slices_derivation
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import rendered
from tests.views.test_links_app import fresh_session, metrics_of, open_app, params

PAGE = script("slices")


def _frames(at):
    return [d.value for d in at.dataframe]


def test_each_groups_auc_and_count_are_its_rows_and_a_button_opens_the_curves_on_it():
    ds = load_sample("breast_cancer")
    at = open_app(PAGE, "breast_cancer", by="texture")
    groups = _frames(at)[0]
    texture, y, s = ds.attribute("texture"), ds.y_true, ds.scores["logreg"]
    assert groups["group"].tolist() == ["coarse", "smooth"]
    for _, row in groups.iterrows():
        rows = texture == row["group"]
        assert row["rows"] == rows.sum()
        assert row["ROC AUC"] == pytest.approx(roc_auc_score(y[rows], s[rows]), abs=1e-12)
        assert row["95% low"] <= row["ROC AUC"] <= row["95% high"]
    assert "p: the pooled Wald test (a normal approximation)." in [c.value for c in at.caption]
    shown = dict((label, value) for label, value, _ in metrics_of(at))
    assert float(shown["ROC AUC, all rows"]) == pytest.approx(roc_auc_score(y, s), abs=5e-5)
    values = [roc_auc_score(y[texture == g], s[texture == g]) for g in ("coarse", "smooth")]
    assert float(shown["Gap: best − worst group"]) == pytest.approx(
        max(values) - min(values), rel=1e-3
    )
    # the binary rates at the threshold: TPR of each group from its counts
    rates = _frames(at)[2]
    for _, row in rates.iterrows():
        rows = texture == row["group"]
        tp = np.sum((y[rows] == 1) & (s[rows] >= 0.5))
        assert row["TP"] == tp and row["TPR"] == pytest.approx(tp / np.sum(y[rows] == 1))
    # the "Group" box picks "smooth", its button opens ROC & PR on it, the filter in the link
    at.selectbox(key="sl_group").set_value("smooth").run()
    assert at.button(key="sl_open_group").label == "Open ROC & PR curves on smooth"
    at.button(key="sl_open_group").click().run()
    assert not at.exception
    assert params(at)["slice"] == "texture:smooth"
    assert any(
        rendered(i.value).startswith("On 110 of 228 samples: texture = smooth") for i in at.info
    )
    rows = texture == "smooth"
    curves = dict((label, value) for label, value, _ in metrics_of(at))
    assert float(curves["ROC AUC"]) == pytest.approx(roc_auc_score(y[rows], s[rows]), abs=5e-5)


def test_the_chart_draws_each_groups_value_and_interval_of_the_table():
    """The chart (SVG in the page's Markdown): one dot per group at the table's value,
    its hover naming the table's interval, the dashed line at the headline's value."""
    at = open_app(PAGE, "breast_cancer", by="radius")
    table = _frames(at)[0]
    chart = next(m.value for m in at.markdown if "me-svg-chart" in m.value)
    dots = re.findall(r'<circle class="value" data-value="([^"]+)"[^>]*><title>([^<]+)<', chart)
    assert [float(v) for v, _ in dots] == table["ROC AUC"].tolist()
    assert len(dots) == 4
    for (_, row), (_, hover) in zip(table.iterrows(), dots, strict=True):
        low, high = short(row["95% low"]), short(row["95% high"])
        assert hover == f"{row['group']}: {short(row['ROC AUC'])} (95% interval {low} to {high})"
    shown = dict((label, value) for label, value, _ in metrics_of(at))
    assert f"all rows: {shown['ROC AUC, all rows']}<" in chart
    # what a screen reader reads out: the same values and intervals, then the overall one
    alt = re.search(r'<svg [^>]*role="img" aria-label="([^"]*)"', chart).group(1)
    said = "; ".join(hover for _, hover in dots)
    assert alt == f"ROC AUC (95% interval). {said}. all rows: {shown['ROC AUC, all rows']}"


def test_cut_points_and_a_second_attribute_from_a_link_and_from_the_controls():
    ds = load_sample("diabetes")
    at = open_app(PAGE, "diabetes", metric="MAE", by="age", cuts="40, 60", by2="sex")
    groups = _frames(at)[0]
    age, sex = ds.attribute("age"), ds.attribute("sex")
    assert len(groups) == 6
    for _, row in groups.iterrows():
        bins, sexes = row["group"].split(" and ")
        lo, hi = (float(v) for v in bins.removeprefix("age in [").rstrip(")]").split(", "))
        rows = (age >= lo) & ((age < hi) if bins.endswith(")") else (age <= hi))
        rows &= sex == float(sexes.removeprefix("sex = "))
        assert row["rows"] == rows.sum()
        expected = mean_absolute_error(ds.y_true[rows], ds.scores["linear"][rows])
        assert row["MAE"] == pytest.approx(expected, abs=1e-9)
    # an MAE's p-values are a permutation test's: multiples of 1 / 1,000, said under the table
    assert np.allclose(groups["p"] * 1000, np.round(groups["p"] * 1000), atol=1e-9)
    captions = [rendered(c.value) for c in at.caption]
    assert sum(c.startswith("p: a permutation test: 999 seeded shuffles") for c in captions) == 2
    at.text_input(key="sl_cuts").set_value("50").run()
    assert params(at)["cuts"] == "50"
    assert len(_frames(at)[0]) == 4
    at.text_input(key="sl_cuts").set_value("50, 40").run()
    assert "must increase" in rendered(at.error[0].value)
    assert len(_frames(at)[0]) == 8  # the default quartiles, by two sexes


def test_predict_then_reveal_holds_the_groups_back_and_data_without_attributes_says_why():
    at = open_app(PAGE, "breast_cancer", reveal="0")
    assert [v for _, v, _ in metrics_of(at)][:2] == ["?", "?"]
    assert not _frames(at)
    at.button(key="sl_reveal").click().run()
    assert _frames(at) and metrics_of(at)[0][1] != "?"
    plain = open_app(PAGE, "balanced")
    assert "cannot be sliced" in rendered(plain.info[0].value)
    plain.button(key="sl_open_sample").click().run()
    assert params(plain)["ds"] == "breast_cancer" and _frames(plain)


def test_cut_points_read_as_written_no_default_in_the_link_and_a_fresh_link_agrees():
    ds = load_sample("breast_cancer")
    at = open_app(PAGE, "breast_cancer")
    radius = ds.attribute("radius")
    assert at.text_input(key="sl_cuts").value == "11.6075, 13.275, 16.0875"
    groups = _frames(at)[0]
    assert groups["group"].tolist()[1] == "[11.6075, 13.275)"
    want = np.digitize(radius, np.quantile(radius, [0.25, 0.5, 0.75]))  # the raw quartiles
    assert groups["rows"].tolist() == np.bincount(want).tolist()
    assert not {"model", "metric", "by", "by2", "cuts", "cuts2", "t"} & set(params(at))
    at.selectbox(key="sl_by2").set_value("texture").run()
    at.number_input(key="sl_t").set_value(0.3).run()
    at.selectbox(key="sl_metric").set_value("Recall (TPR) at the threshold").run()
    assert {k: params(at).get(k) for k in ("by", "by2", "t", "cuts")} == {
        "by": None,
        "by2": "texture",
        "t": "0.3",
        "cuts": None,
    }
    fresh = fresh_session(at, PAGE)
    for a, b in zip(_frames(at), _frames(fresh), strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert metrics_of(fresh) == metrics_of(at)
    at.selectbox(key="sl_by2").set_value("(none)").run()
    assert "by2" not in params(at)


def test_a_groups_own_threshold_moves_its_rates_and_the_gaps_and_travels_in_the_link():
    ds = load_sample("breast_cancer")
    y, s, texture = ds.y_true == 1, ds.scores["logreg"], ds.attribute("texture")
    at = open_app(PAGE, "breast_cancer", by="texture")
    at.selectbox(key="sl_group").set_value("smooth").run()
    assert at.number_input(key="sl_gt").value == 0.5
    at.number_input(key="sl_gt").set_value(0.3).run()
    assert params(at)["gt"] == "smooth:0.3" and params(at)["group"] == "smooth"
    rates = _frames(at)[2]
    tprs, fprs = [], []
    for _, row in rates.iterrows():
        t = 0.3 if row["group"] == "smooth" else 0.5
        rows = texture == row["group"]
        tp, fp = np.sum(y & rows & (s >= t)), np.sum(~y & rows & (s >= t))
        assert row["threshold"] == t and (row["TP"], row["FP"]) == (tp, fp)
        tprs.append(tp / np.sum(y & rows))
        fprs.append(fp / np.sum(~y & rows))
    shown = dict((label, value) for label, value, _ in metrics_of(at))
    assert float(shown["Equal opportunity difference (TPR)"]) == pytest.approx(
        max(tprs) - min(tprs), rel=1e-3
    )
    assert float(shown["False positive rate difference"]) == pytest.approx(
        max(fprs) - min(fprs), rel=1e-3
    )
    fresh = fresh_session(at, PAGE)
    assert fresh.number_input(key="sl_gt").value == 0.3
    pd.testing.assert_frame_equal(_frames(fresh)[2], rates)
    assert metrics_of(fresh) == metrics_of(at)
    # the picked group's value derived: ROC AUC on its rows, then its TPR at 0.3
    rows = texture == "smooth"
    auc = _frames(at)[0].set_index("group").loc["smooth", "ROC AUC"]
    assert auc == pytest.approx(roc_auc_score(y[rows], s[rows]), abs=1e-12)
    assert any(fmt(auc) in line.value for line in at.latex)
    at.selectbox(key="sl_metric").set_value("Recall (TPR) at the threshold").run()
    tpr = _frames(at)[0].set_index("group").loc["smooth", "Recall (TPR) at the threshold"]
    assert tpr == pytest.approx(np.sum(y & rows & (s >= 0.3)) / np.sum(y & rows), abs=1e-12)
    tp, fn = np.sum(y & rows & (s >= 0.3)), np.sum(y & rows & (s < 0.3))
    line = rf"\text{{Recall (TPR)}} = \frac{{{tp}}}{{{tp} + {fn}}} = "  # smooth's counts at 0.3
    (shown,) = [x.value.strip("$\n") for x in at.latex if line in x.value]
    assert shown.endswith(f"= {fmt(tpr)}")
    at.selectbox(key="sl_group").set_value("coarse").run()
    assert at.number_input(key="sl_gt").value == 0.5 and params(at)["gt"] == "smooth:0.3"
    at.selectbox(key="sl_group").set_value("smooth").run()
    assert at.number_input(key="sl_gt").value == 0.3
    # a hand-edited link: an unknown group, no number, a stray part; all left out
    bad = open_app(PAGE, "breast_cancer", by="texture", gt="smooth:nan;gone:0.2;[[[[", group="x")
    assert bad.selectbox(key="sl_group").value == "coarse"
    assert bad.number_input(key="sl_gt").value == 0.5 and "gt" not in params(bad)


def test_a_threshold_step_moves_the_rates_and_groups_nothing_again(monkeypatch):
    """ROC AUC reads no threshold: a step recomputes only the rates per group, on the
    groups already made (grouping 10^6 text values costs about 0.07 CPU s a call)."""
    ds = load_sample("breast_cancer")
    y, s, texture = ds.y_true == 1, ds.scores["logreg"], ds.attribute("texture")
    at = open_app(PAGE, "breast_cancer", by="texture")
    calls = []
    for name in ("grouping", "frame"):
        real = getattr(slices, name)
        monkeypatch.setattr(
            slices, name, lambda *a, real=real, name=name: calls.append(name) or real(*a)
        )
    real_derivation = slices_derivation.group_derivation
    monkeypatch.setattr(
        slices_derivation,
        "group_derivation",
        lambda *a: calls.append("derivation") or real_derivation(*a),
    )
    for t in (0.35, 0.65):
        at.number_input(key="sl_t").set_value(t).run()
        assert not at.exception
        rates = _frames(at)[2].set_index("group")
        for group in ("coarse", "smooth"):
            rows = texture == group
            assert rates.loc[group, "TP"] == np.sum(y & rows & (s >= t))
            assert rates.loc[group, "FP"] == np.sum(~y & rows & (s >= t))
    assert calls == []


def test_a_groups_button_opens_the_model_page_on_the_model_the_slices_page_shows():
    ds = load_sample("breast_cancer")
    texture, y = ds.attribute("texture"), ds.y_true
    at = open_app(PAGE, "breast_cancer", by="texture")
    at.selectbox(key="sl_model").set_value("tree").run()  # written to the link: ?model=tree
    at.button(key="sl_open_group").click().run()  # coarse (the first group), on the tree
    assert not at.exception
    assert params(at)["model"] == "tree" and params(at)["slice"] == "texture:coarse"
    rows = texture == "coarse"
    tree = roc_auc_score(y[rows], ds.scores["tree"][rows])
    assert tree != pytest.approx(roc_auc_score(y[rows], ds.scores["logreg"][rows]), abs=5e-5)
    curves = dict((label, value) for label, value, _ in metrics_of(at))
    assert float(curves["ROC AUC"]) == pytest.approx(tree, abs=5e-5)


def test_an_upload_of_one_class_slices_without_an_error_and_says_why_auc_is_undefined():
    from explorer.datasets import Dataset
    from tests.conftest import open_upload

    rng = np.random.default_rng(4)
    site = np.array(["A", "B"], dtype=object)[rng.integers(0, 2, 20)]
    ds = Dataset("ones", "binary", np.ones(20, dtype=int), {"m": rng.random(20)},
                 source="upload", attributes={"site": site})  # fmt: skip
    at = open_upload(PAGE, ds)
    assert not at.exception
    groups = _frames(at)[0]
    assert groups["rows"].tolist() == [int((site == "A").sum()), int((site == "B").sum())]
    assert groups["ROC AUC"].tolist() == ["—", "—"]  # no value, shown as a dash, never "None"
    assert "— : no value." in [c.value for c in at.caption]
    shown = dict((label, value) for label, value, _ in metrics_of(at))
    assert shown["ROC AUC, all rows"] == "n/a" and shown["Gap: best − worst group"] == "n/a"
    assert shown["False positive rate difference"] == "n/a"  # no negative in any group
    notes = [c.value for c in at.caption]
    assert any("holds one class only" in n for n in notes)
    # the picked group's derivation says why instead of stopping the page
    warned = [rendered(w.value) for w in at.warning]
    assert any(w.startswith("ROC AUC of A: undefined: ROC AUC is undefined") for w in warned)
