"""DCG & NDCG page: AppTest of every control, the chart builders, and the new metrics helpers."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.charts import dcg as charts
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import (
    MetricInputError,
    dcg_tie_bounds_per_sample,
    dcg_tie_order_steps,
    exponential_gain,
)
from tests import conftest
from tests.conftest import APP, graded_case, metric, numbered_selectbox
from views.dcg.panel import TAB_KEY, TABS

PAGE = script("dcg")


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def open_page(sample: str) -> AppTest:
    return conftest.open_page(PAGE, sample)


def open_tab(at, tab: str) -> AppTest:
    """Open the panel's tab ``tab`` (only the open tab is drawn) and rerun."""
    at.session_state[TAB_KEY] = tab
    at.run()
    assert not at.exception
    return at


def steps_table(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "running sum" in d.value.columns)


def all_text(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [m.value for m in at.metric] + [str(x.value) for x in at.latex]
    return "\n".join(parts)


# ---------------------------------------------------------------------------
# AppTest
# ---------------------------------------------------------------------------
def test_default_view_matches_metrics_and_seed_numbers_appear():
    at = open_page("seed001_dcg")
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    assert at.title[0].value == "DCG & NDCG"
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s))
    text = all_text(at)
    # seed 001's four worked examples, as the page formats them
    for value in (
        metrics.dcg_score(y[:1], s[:1]),
        metrics.dcg_score(y[:1], s[:1], k=2),
        metrics.dcg_score(y[1:], s[1:], k=1),
        metrics.dcg_score(y[1:], s[1:], k=1, ignore_ties=True),
    ):
        assert f"**{fmt(value)}**" in text
    for literal in ("9.499", "5.631", "7.500", "5.000", "9.49..."):
        assert literal in text
    assert "(10 + 5) / 2 = 7.5" in text
    # the step table of sample 0 ends at the sample's DCG
    t = steps_table(at)
    np.testing.assert_allclose(
        t["running sum"], metrics.dcg_steps(y[0], s[0])["running_sum"], rtol=1e-12
    )
    assert metric(at, "DCG of this sample") == fmt(metrics.dcg_per_sample(y, s)[0])


def test_seed_example_buttons_set_sample_k_and_tie_mode():
    at = open_page("seed001_dcg")
    cases = [(9.499458, 0, None, False), (5.630930, 0, 2, False), (7.5, 1, 1, False)]
    cases.append((5.0, 1, 1, True))
    for example in (3, 1, 2, 0):
        expected, row, k, ties = cases[example]
        at.button(key=f"dcg_seed_example_{example}").click().run()
        assert not at.exception
        assert metric(at, "DCG of this sample") == fmt(expected)
        assert at.number_input(key="dcg_k").value == k
        assert at.toggle(key="dcg_ignore_ties").value is ties
        assert numbered_selectbox(at, "dcg_sample").value == row
        t = steps_table(at)
        assert t["running sum"].iloc[-1] == pytest.approx(expected, abs=1e-6)


def test_open_seed_button_from_another_dataset():
    at = open_page("diabetes_ranking")
    at.button(key="dcg_open_seed").click().run()
    assert not at.exception
    assert at.session_state["active_dataset"] == "seed001_dcg"
    assert metric(at, "DCG of this sample") == fmt(9.499458)


# k=None first: the page opens with k empty (all items); AppTest cannot empty a number input
SETTINGS = [(None, "e", False), (3, "2", False), (1, "10", True), (5, "2", True)]
SETTINGS.append((2, "other", False))


def test_controls_move_metrics_and_step_table():
    at = open_page("diabetes_ranking")
    at.selectbox(key="dcg_model").set_value("tree").run()
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score("tree")
    for k, base, ties in SETTINGS:
        if k is not None:
            at.number_input(key="dcg_k").set_value(k).run()
        assert at.number_input(key="dcg_k").value == k
        at.selectbox(key="dcg_log_base").set_value(base).run()
        if base == "other":
            at.number_input(key="dcg_log_base_other").set_value(3.5).run()
        at.toggle(key="dcg_ignore_ties").set_value(ties).run()
        numbered_selectbox(at, "dcg_sample").set_value(4).run()
        assert not at.exception
        b = {"2": 2, "10": 10, "e": math.e, "other": 3.5}[base]
        assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=k, log_base=b, ignore_ties=ties))
        assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=k, ignore_ties=ties))
        want = metrics.dcg_steps(y[4], s[4], k=k, log_base=b, ignore_ties=ties)
        t = steps_table(at)
        np.testing.assert_allclose(t["running sum"], want["running_sum"], rtol=1e-12)
        np.testing.assert_allclose(t["gain used"], want["mean_gain"], rtol=1e-12)
        row_dcg = metrics.dcg_per_sample(y, s, k=k, log_base=b, ignore_ties=ties)[4]
        assert metric(at, "DCG of this sample") == fmt(row_dcg)
        assert want["running_sum"].iloc[-1] == pytest.approx(row_dcg, rel=1e-12)
        # NDCG as the ratio of the two sums at any base equals ndcg_per_sample (base 2)
        ideal = metrics.dcg_per_sample(y, y, k=k, log_base=b)[4]
        ndcg = metrics.ndcg_per_sample(y, s, k=k, ignore_ties=ties)[4]
        assert row_dcg / ideal == pytest.approx(ndcg, rel=1e-12)
        assert metric(at, "NDCG of this sample") == fmt(ndcg)
        notes = [i.value for i in at.info]
        assert (base != "2") == any("does not depend on the log base" in n for n in notes)
        assert at.query_params["k"] in (
            ["all" if k is None else str(k)],
            "all" if k is None else str(k),
        )


def test_exponential_gain_and_url_params():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "diabetes_ranking", "k": "4", "gain": "exponential"})
    at.query_params["ignore_ties"] = "1"
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    ds = load_sample("diabetes_ranking")
    y, s = exponential_gain(ds.y_true), ds.score()
    assert at.radio(key="dcg_gain").value == "2^rel - 1"
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=4, ignore_ties=True))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=4, ignore_ties=True))
    at.radio(key="dcg_gain").set_value("as given (scikit-learn)").run()
    assert metric(at, "DCG") == fmt(metrics.dcg_score(ds.y_true, s, k=4, ignore_ties=True))


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


def _open_graded(n: int, m: int):
    """The page on a session dataset of ``n`` x ``m`` tied graded scores (bench.data):
    its labels, scores and the AppTest, the row picker patched for a big dataset."""
    from bench.app_timing import _patch_picker
    from bench.data import make_graded
    from explorer.datasets import Dataset

    d = make_graded(n, m, ties=True)
    ds = Dataset(d.name, "graded", d.y_true, scores={"model": d.y_score})
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    _patch_picker(at, ds.name)
    at.switch_page(PAGE).run()
    assert not at.exception
    return d.y_true, d.y_score, at


def test_large_dataset_row_picker_and_paged_table():
    """Over 1,000 samples: a row-number picker, a paged worst-first table, all rows in the CSV."""
    y, s, at = _open_graded(1500, 6)
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s))
    at.number_input(key="dcg_sample").set_value(1234).run()
    assert not at.exception
    assert metric(at, "DCG of this sample") == fmt(metrics.dcg_per_sample(y, s)[1234])
    at.number_input(key="dcg_k").set_value(2).run()
    at.toggle(key="dcg_ignore_ties").set_value(True).run()
    assert not at.exception
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=2, ignore_ties=True))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=2, ignore_ties=True))
    assert metric(at, "DCG of this sample") == fmt(
        metrics.dcg_per_sample(y, s, k=2, ignore_ties=True)[1234]
    )
    ndcg = metrics.ndcg_per_sample(y, s, k=2, ignore_ties=True)
    open_tab(at, "Every sample")
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=2, ignore_ties=True))
    per = next(df.value for df in at.dataframe if "pessimistic DCG" in df.value.columns)
    assert len(per) == 200
    assert per["NDCG"].iloc[0] == pytest.approx(np.sort(ndcg)[0])
    at.number_input(key="dcg_per_sample_start").set_value(1400).run()
    assert not at.exception
    per = next(df.value for df in at.dataframe if "pessimistic DCG" in df.value.columns)
    assert len(per) == 100
    assert per["NDCG"].iloc[-1] == pytest.approx(np.sort(ndcg)[-1])


def test_log_base_one_shows_error_not_traceback():
    at = open_page("seed001_dcg")
    at.selectbox(key="dcg_log_base").set_value("other").run()
    at.number_input(key="dcg_log_base_other").set_value(1.0).run()
    assert not at.exception
    assert "log_base must not be 1" in at.error[0].value


def test_wrong_kind_notice():
    at = open_page("balanced")
    assert not at.exception
    assert "graded relevance" in at.info[0].value
    assert not at.metric
    at.button(key="open_fitting_sample").click().run()
    assert at.session_state["active_dataset"] == "seed001_dcg"


# ---------------------------------------------------------------------------
# chart builders
# ---------------------------------------------------------------------------
def test_steps_figure_traces_ties_and_cut():
    steps = metrics.dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], k=1)
    fig = charts.steps_figure(steps, k=1, item_names=list("abcde"))
    names = [t.name for t in fig.data]
    assert names[0].startswith("gain used") and names[1].startswith("contribution")
    assert any(n.startswith("discount") for n in names)
    assert list(fig.data[0].y) == [7.5, 7.5, 1 / 3, 1 / 3, 1 / 3]
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert [(r.x0, r.x1) for r in rects] == [(0.5, 2.5), (2.5, 5.5)]
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == 1 and lines[0].x0 == 1.5
    assert charts.n_tie_groups(steps) == 2
    no_cut = charts.steps_figure(metrics.dcg_steps([3, 1], [0.2, 0.9]), k=None)
    assert not [s for s in no_cut.layout.shapes if s.type in ("line", "rect")]


def test_steps_figure_of_many_items_draws_the_top_positions_and_the_k_line():
    """max_positions caps the bars (one past a larger k, whose line stays between two
    bars); the values drawn are metrics' own, the labels upright past a dozen."""
    y, s = graded_case(5, n=1, m=40)
    names = [f"item {j}" for j in range(40)]
    for k, drawn in ((3, 30), (None, 30), (35, 36), (39, 40)):
        steps = metrics.dcg_steps(y[0], s[0], k=k)
        fig = charts.steps_figure(steps, k=k, item_names=names, max_positions=30)
        assert fig.data[0].x.tolist() == list(range(1, drawn + 1))
        np.testing.assert_array_equal(fig.data[1].y, steps["contribution"][:drawn])
        lines = [sh.x0 for sh in fig.layout.shapes if sh.type == "line"]
        assert lines == ([k + 0.5] if k is not None else [])
        first = names[int(steps["item"].iloc[0])]
        assert fig.layout.xaxis.ticktext[0] == f"1. {first}" and fig.layout.xaxis.tickangle == -90
    few = charts.steps_figure(metrics.dcg_steps(y[0][:5], s[0][:5]), k=None, max_positions=30)
    assert len(few.data[0].x) == 5 and few.layout.xaxis.tickangle is None


def test_steps_svg_of_many_items_draws_metrics_values_the_ties_and_the_k_line():
    """The SVG chart of a long list (drawn by the page past UPRIGHT_TICKS items): per
    drawn position the gain used and the contribution of metrics.dcg_steps, the own
    gain as a stroke, the discount line, a band per tie group, the k line."""
    y, s = graded_case(5, n=1, m=40)
    s = np.round(s, 1)  # tie groups
    names = [f"item {j}" for j in range(40)]
    for k, drawn in ((3, 30), (None, 30), (35, 36)):
        steps = metrics.dcg_steps(y[0], s[0], k=k)
        html = charts.steps_svg(steps, k=k, item_names=names, max_positions=30)
        bars = re.findall(r'<rect class="bar" data-series="(\d)" data-value="([^"]+)"', html)
        gains = [float(v) for g, v in bars if g == "0"]
        contributions = [float(v) for g, v in bars if g == "1"]
        np.testing.assert_allclose(gains, steps["mean_gain"][:drawn], rtol=0, atol=0)
        np.testing.assert_allclose(contributions, steps["contribution"][:drawn], rtol=0, atol=0)
        own = re.findall(r'class="tick-mark" data-series="2" data-value="([^"]+)"', html)
        np.testing.assert_array_equal([float(v) for v in own], steps["relevance"][:drawn])
        (points,) = re.findall(r'class="curve-line" points="([^"]+)"', html)
        assert len(points.split()) == drawn  # the discount line, a point per position
        curve = re.findall(r'class="curve" data-value="([^"]+)"', html)  # dots up to 30
        want = steps["discount"][:drawn] if drawn <= 30 else []
        np.testing.assert_array_equal([float(v) for v in curve], want)
        groups = charts.n_tie_groups(steps.iloc[:drawn])
        assert groups > 0 and html.count('class="band"') == groups
        assert html.count(f"k = {k} cut") == (k is not None)
        assert f"1. {names[int(steps['item'].iloc[0])]}" in html


def test_tie_bounds_and_distribution_figures():
    fig = charts.tie_bounds_figure(
        {"pessimistic": 5.0, "tie-averaged": 7.5, "ignore_ties": 5.0, "optimistic": 10.0}
    )
    assert [t.name for t in fig.data] == [
        "pessimistic",
        "tie-averaged",
        "ignore_ties",
        "optimistic",
    ]
    assert fig.layout.shapes[0].x0 == 5.0 and fig.layout.shapes[0].x1 == 10.0
    dist = charts.distribution_figure(pd.DataFrame({"DCG": [1.0, 2.0], "NDCG": [0.5, 1.0]}))
    assert [t.name for t in dist.data] == ["DCG", "NDCG"]
    # pre-binned: NDCG bins of 0.05, 0.5 falls in [0.5, 0.55), 1.0 in the last (closed) bin
    counts = list(dist.data[1].y)
    assert len(counts) == 20 and sum(counts) == 2 and counts[10] == 1 and counts[19] == 1
    assert list(dist.data[0].y).count(1) == 2 and sum(dist.data[0].y) == 2


# ---------------------------------------------------------------------------
# metrics helpers added for this page, against slow references
# ---------------------------------------------------------------------------
def _ref_order_dcg(gains, order, k, base):
    m = len(gains)
    k = m if k is None else min(k, m)
    return sum(gains[order[p]] / math.log(p + 2, base) for p in range(k))


def _ref_bounds(gains, scores, k, base):
    """Every permutation that keeps the score order: the min and max DCG (small rows only)."""
    values = sorted(set(scores), reverse=True)
    groups = [[j for j in range(len(scores)) if scores[j] == v] for v in values]
    dcgs = [
        _ref_order_dcg(gains, [j for g in perm for j in g], k, base)
        for perm in itertools.product(*(itertools.permutations(g) for g in groups))
    ]
    return min(dcgs), max(dcgs), float(np.mean(dcgs))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [None, 1, 2, 4])
def test_tie_bounds_match_brute_force(seed, k):
    y, s = graded_case(seed, n=12, m=5)
    for base in (2, 10):
        low, high = dcg_tie_bounds_per_sample(y, s, k=k, log_base=base)
        avg = metrics.dcg_per_sample(y, s, k=k, log_base=base)
        for i in range(len(y)):
            rlow, rhigh, rmean = _ref_bounds(list(y[i]), list(s[i]), k, base)
            assert low[i] == pytest.approx(rlow, abs=1e-9)
            assert high[i] == pytest.approx(rhigh, abs=1e-9)
            assert avg[i] == pytest.approx(rmean, abs=1e-9)  # McSherry & Najork's mean
        assert np.all(low <= avg + 1e-12) and np.all(avg <= high + 1e-12)
    nlow, nhigh = dcg_tie_bounds_per_sample(y, s, k=k, normalize=True)
    ndcg = metrics.ndcg_per_sample(y, s, k=k)
    assert np.all(nlow <= ndcg + 1e-12) and np.all(ndcg <= nhigh + 1e-12)
    assert nlow[0] == 0 and nhigh[0] == 0  # graded_case's row 0 has no relevant item


def test_tie_bounds_without_ties_collapse():
    y, s = graded_case(3, n=20, m=6, ties=False)
    low, high = dcg_tie_bounds_per_sample(y, s, k=3)
    np.testing.assert_allclose(low, high)
    np.testing.assert_allclose(low, metrics.dcg_per_sample(y, s, k=3))


@pytest.mark.parametrize("seed", range(4))
def test_tie_orders_columns_sum_to_each_dcg(seed):
    y, s = graded_case(seed, n=6, m=7)
    for i, k in itertools.product(range(6), (None, 3)):
        t = dcg_tie_order_steps(y[i], s[i], k=k)
        low, high = dcg_tie_bounds_per_sample(y[i : i + 1], s[i : i + 1], k=k)
        sums = {w: t[f"contribution_{w}"].sum() for w in ("averaged", "ignore_ties")}
        assert sums["averaged"] == pytest.approx(metrics.dcg_per_sample(y, s, k=k)[i])
        assert sums["ignore_ties"] == pytest.approx(
            metrics.dcg_per_sample(y, s, k=k, ignore_ties=True)[i]
        )
        assert t["contribution_pessimistic"].sum() == pytest.approx(low[0])
        assert t["contribution_optimistic"].sum() == pytest.approx(high[0])
        for w in ("averaged", "ignore_ties", "pessimistic", "optimistic"):
            assert sorted(t[f"position_{w}"]) == list(range(1, 8))
        assert not t.loc[t["tie_size"] == 1, "moved"].any()


def test_exponential_gain_values_and_refusals():
    y = np.array([[0, 1, 2, 3], [4, 0, 1, 10]])
    np.testing.assert_array_equal(exponential_gain(y), [[0, 1, 3, 7], [15, 0, 1, 1023]])
    with pytest.raises(MetricInputError, match="non-negative"):
        exponential_gain([[1, -1]])
    with pytest.raises(MetricInputError, match="overflows"):
        exponential_gain([[2000.0, 1.0]])
    # NDCG with the exponential gain: the ideal order is the same (monotone transform)
    g, s = graded_case(1, n=10, m=5)
    ref = metrics.dcg_per_sample(2.0**g - 1, s) / np.where(
        (ideal := metrics.dcg_per_sample(2.0**g - 1, 2.0**g - 1)) > 0, ideal, 1
    )
    np.testing.assert_allclose(metrics.ndcg_per_sample(exponential_gain(g), s), ref, atol=1e-12)


# ---------------------------------------------------------------------------
# issue 18.1: the headline derived on screen; issue 17.4: open on the worst sample
# ---------------------------------------------------------------------------
def read_derivation(at, name: str) -> dict:
    """The derivation line of headline ``name``: its terms, denominator, total and value."""
    text = next(m.value for m in at.markdown if m.value.startswith(f"{name} = ("))
    inner, after = text[len(name) + 4 :].split(") / ", 1)
    parts = after.split("  (")[0].split(" = ")
    return {
        "terms": [t for t in inner.split(" + ") if t != "…"],
        "omitted": "…" in inner.split(" + "),
        "denominator": parts[0],
        "total": parts[1].split(" / ")[0] if len(parts) == 3 else None,
        "value": parts[-1],
    }


def test_dcg_and_ndcg_are_written_as_means_of_the_rows():
    """The DCG 11.09 of seed 001's two rows is (9.499 + 12.67) / 2 on screen."""
    at = open_page("seed001_dcg")
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    for name, per_sample in (("DCG", metrics.dcg_per_sample), ("NDCG", metrics.ndcg_per_sample)):
        d = read_derivation(at, name)
        v = per_sample(y, s)
        assert d["terms"] == [fmt(x) for x in v] and d["denominator"] == "2", name
        assert d["value"] == metric(at, name) == fmt(v.mean()), name
    assert read_derivation(at, "DCG")["value"] == "11.09"


def test_derivation_of_many_weighted_rows_shows_head_tail_and_weights():
    from explorer.datasets import Dataset

    y, s = graded_case(4, n=30)
    w = np.arange(30) % 3 + 1.0
    ds = Dataset("weighted_graded", "graded", y, {"m": s}, sample_weight=w)
    at = AppTest.from_file(str(conftest.ROOT / PAGE), default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    for name, per_sample in (("DCG", metrics.dcg_per_sample), ("NDCG", metrics.ndcg_per_sample)):
        d = read_derivation(at, name)
        v = per_sample(y, s)
        assert d["omitted"] and d["denominator"] == f"{int(w.sum())}"
        assert d["terms"] == [f"{int(w[i])} × {fmt(v[i])}" for i in (0, 1, 2, 28, 29)]
        assert d["total"] == fmt(np.dot(w, v))
        want = {"DCG": metrics.dcg_score, "NDCG": metrics.ndcg_score}[name](y, s, sample_weight=w)
        assert d["value"] == metric(at, name) == fmt(want)


def test_open_7_5_makes_the_focused_row_the_first_number():
    """After "Open 7.5" the first number on the page is row 1's 7.500; the mean follows."""
    at = open_page("seed001_dcg")
    at.button(key="dcg_seed_example_2").click().run()
    assert not at.exception
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    assert at.metric[0].label == "DCG of row 1"
    assert at.metric[0].value == fmt(metrics.dcg_per_sample(y, s, k=1)[1]) == "7.500"
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=1)) == "6.250"
    d = read_derivation(at, "DCG")
    assert d["terms"] == ["5.000", "7.500"] and d["value"] == "6.250"
    # another k ends the focus: the headline is the first number again
    at.number_input(key="dcg_k").set_value(2).run()
    assert not at.exception
    assert at.metric[0].label == "DCG"
    assert not any(m.label == "DCG of row 1" for m in at.metric)


def _worst_row(y, s) -> int:
    dcg, ndcg = metrics.dcg_per_sample(y, s), metrics.ndcg_per_sample(y, s)
    no_relevant = metrics.dcg_per_sample(y, y) == 0
    return int(np.lexsort((np.arange(len(y)), dcg, ndcg, no_relevant))[0])


def test_drill_down_opens_on_the_worst_sample():
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    worst = _worst_row(y, s)
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
    assert next(h for h in at.subheader if h.proto.anchor == "dcg-worst-first")
    assert any("(#dcg-worst-first)" in c.value for c in at.caption)


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


def test_the_focus_travels_in_the_link():
    at = open_page("seed001_dcg")
    at.button(key="dcg_seed_example_2").click().run()
    assert at.query_params["focus"] == "2"
    link = {key: at.query_params[key] for key in at.query_params}
    fresh = AppTest.from_file(APP, default_timeout=30)
    for key, value in link.items():
        fresh.query_params[key] = value
    fresh.run()
    fresh.switch_page(PAGE).run()
    assert not fresh.exception
    assert (fresh.metric[0].label, fresh.metric[0].value) == ("DCG of row 1", "7.500")
    assert [(m.label, m.value) for m in fresh.metric] == [(m.label, m.value) for m in at.metric]
    at.toggle(key="dcg_ignore_ties").set_value(True).run()  # away from the example
    assert "focus" not in at.query_params and at.metric[0].label == "DCG"


def test_k_steps_in_the_panel_give_the_headline_the_url_and_a_link_that_reproduces():
    """k and what it changes are one st.fragment: each of several moves of k shows the
    DCG and NDCG of that k (metrics), the URL follows, and the last address opens the same
    numbers in a fresh session."""
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = open_page("diabetes_ranking")
    for k in (1, 2, 3, 5, 4):
        at.number_input(key="dcg_k").set_value(k).run()
        assert not at.exception
        assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=k))
        assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=k))
        assert at.query_params["k"] == str(k)
    again = conftest.open_page(PAGE, "diabetes_ranking", k="4")
    assert metric(again, "DCG") == fmt(metrics.dcg_score(y, s, k=4))
    assert metric(again, "NDCG") == fmt(metrics.ndcg_score(y, s, k=4))


def test_a_link_opens_a_tab_and_k_moves_keep_it_with_the_headline_of_metrics():
    """?tab= names a tab by its first word: a link opens it (only its content is drawn),
    moves of k keep it open with the headline and the table's worst row of metrics,
    the address keeps the tab; a tab the page does not have opens the derivation."""
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = conftest.open_page(PAGE, "diabetes_ranking", tab="every")
    assert at.session_state[TAB_KEY] == "Every sample"
    assert not at.latex and not any(m.label == "DCG of this sample" for m in at.metric)
    for k in (2, 5):
        at.number_input(key="dcg_k").set_value(k).run()
        assert not at.exception
        assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=k))
        assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=k))
        assert at.session_state[TAB_KEY] == "Every sample"
        assert at.query_params["tab"] == "every" and at.query_params["k"] == str(k)
        table = next(d.value for d in at.dataframe if "NDCG" in d.value.columns)
        worst = metrics.ndcg_per_sample(y, s, k=k).min()
        assert table["NDCG"].iloc[0] == pytest.approx(worst, abs=1e-12)
    ties = conftest.open_page(PAGE, "diabetes_ranking", tab="ties")
    assert ties.session_state[TAB_KEY] == "Ties"
    assert any(h.value == "What tied scores do" for h in ties.subheader)
    bad = conftest.open_page(PAGE, "diabetes_ranking", tab="<b>")
    assert bad.session_state[TAB_KEY] == TABS[0] and bad.query_params["tab"] == "derivation"


def test_step_tables_of_many_items_draw_their_top_positions(deferred_downloads):
    """Past STEP_ROWS items the selected sample's step tables (redrawn on every move)
    draw the first positions, every position of the top k when k is larger: the last
    running sum drawn is then the sample's DCG from metrics. Their CSVs, built on the
    click only, hold every position."""
    import io

    from views.dcg.derivation import STEP_ROWS

    y, s, at = _open_graded(50, 40)
    row = numbered_selectbox(at, "dcg_sample").value
    want = metrics.dcg_steps(y[row], s[row])
    t = steps_table(at)
    assert len(t) == STEP_ROWS == 30
    np.testing.assert_allclose(t["running sum"], want["running_sum"][:STEP_ROWS], rtol=1e-12)
    assert any("The first 30 of 40 positions are shown" in c.value for c in at.caption)
    assert any("The first 30 of 40 positions are drawn" in c.value for c in at.caption)
    # the chart of a long list is SVG: its contributions are the sample's, position by position
    (chart,) = [m.value for m in at.markdown if "me-svg-chart" in m.value]
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
        (chart,) = [m.value for m in at.markdown if "me-svg-chart" in m.value]
        assert f"k = {k} cut" in chart
