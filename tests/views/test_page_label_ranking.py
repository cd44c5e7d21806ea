"""Label ranking page (issue 5): its metrics helpers, its charts and the page itself (AppTest)."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import streamlit as st
from sklearn import metrics as skm
from streamlit.testing.v1 import AppTest

import metrics
import metrics.explain.label_ranking
import metrics.label_ranking as lr
from explorer.charts import ranking as charts
from explorer.formatting import fmt, undash
from explorer.registry import script
from explorer.samples import load_sample
from metrics._ranks import max_rank
from tests import conftest
from tests.conftest import APP, metric, numbered_selectbox

PAGE = script("label_ranking")
SEED_Y = np.array([[1, 0, 0], [1, 0, 1], [1, 1, 0]])
SEED_S = np.array([[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]])


def _case(seed: int, n: int = 40, m: int = 6, levels: int = 3):
    """Random labels (some rows empty or full) and heavily tied scores."""
    rng = np.random.default_rng(seed)
    y = (rng.random((n, m)) < 0.4).astype(int)
    y[0] = 0
    y[1] = 1
    s = rng.integers(0, levels, (n, m)) / levels
    w = rng.random(n) + 0.1
    return y, s, w


# --------------------------------------------------------------------------- slow references
def _slow_rank_table(s):
    n, m = s.shape
    rank = np.zeros((n, m), int)
    group = np.zeros((n, m), int)
    size = np.zeros((n, m), int)
    for i in range(n):
        distinct = sorted(set(s[i]), reverse=True)
        for j in range(m):
            rank[i, j] = sum(s[i, k] >= s[i, j] for k in range(m))
            group[i, j] = distinct.index(s[i, j])
            size[i, j] = sum(s[i, k] == s[i, j] for k in range(m))
    return rank, group, size


def _slow_tie_broken(y, s, ties):
    """LRAP and coverage of each row after an explicit sort with a Python key."""
    lraps, covs = [], []
    for yi, si in zip(y, s, strict=True):
        m = len(yi)
        if ties == "optimistic":
            order = sorted(range(m), key=lambda j: (-si[j], -yi[j], j))
        else:
            order = sorted(range(m), key=lambda j: (-si[j], yi[j], j))
        seen, fr, deepest = 0, [], 0
        for pos, j in enumerate(order, start=1):
            if yi[j]:
                seen += 1
                fr.append(seen / pos)
                deepest = pos
        t = int(yi.sum())
        lraps.append(1.0 if t in (0, m) else float(np.mean(fr)))
        covs.append(float(deepest))
    return np.array(lraps), np.array(covs)


def _slow_moves(values, w):
    total = np.average(values, weights=w)
    out = []
    for i in range(len(values)):
        keep = np.arange(len(values)) != i
        out.append(total - np.average(values[keep], weights=w[keep]))
    return np.array(out)


# --------------------------------------------------------------------------- metrics helpers
@pytest.mark.parametrize("seed", range(4))
def test_label_rank_table_matches_slow_reference_and_max_rank(seed):
    _, s, _ = _case(seed)
    t = metrics.label_rank_table(s)
    rank, group, size = _slow_rank_table(s)
    np.testing.assert_array_equal(t.rank, rank)
    np.testing.assert_array_equal(t.rank, max_rank(s))
    np.testing.assert_array_equal(t.tie_group, group)
    np.testing.assert_array_equal(t.tie_size, size)


def test_label_rank_table_refuses_nan():
    with pytest.raises(metrics.MetricInputError, match="y_score"):
        metrics.label_rank_table([[0.1, np.nan]])


def test_best_coverage_is_mean_true_labels_and_a_perfect_rankings_coverage():
    y, _, w = _case(1)
    assert metrics.best_coverage_error(y) == pytest.approx(y.sum(axis=1).mean())
    assert metrics.best_coverage_error(y, sample_weight=w) == pytest.approx(
        skm.coverage_error(y, y + 0.0, sample_weight=w)
    )
    assert metrics.best_coverage_error(SEED_Y) == pytest.approx(5 / 3)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_contributions_match_per_sample_functions_and_leave_one_out(seed, weighted):
    y, s, w = _case(seed)
    w = w if weighted else None
    t = metrics.label_ranking_contributions(y, s, sample_weight=w)
    np.testing.assert_allclose(t["coverage"], metrics.coverage_per_sample(y, s))
    np.testing.assert_allclose(t["lrap"], metrics.lrap_per_sample(y, s))
    np.testing.assert_allclose(t["ranking_loss"], metrics.ranking_loss_per_sample(y, s))
    ww = np.ones(len(y)) if w is None else w
    for col in ("coverage", "lrap", "ranking_loss"):
        np.testing.assert_allclose(t[f"{col}_moves_mean"], _slow_moves(t[col].to_numpy(), ww))
    # every (true, false) pair with the false label scoring at least as high
    m = y.shape[1]
    slow = [
        sum(y[i, j] and not y[i, k] and s[i, k] >= s[i, j] for j in range(m) for k in range(m))
        for i in range(len(y))
    ]
    np.testing.assert_array_equal(t["n_misordered"], slow)
    assert t.loc[0, "note"] == "no true label" and t.loc[1, "note"] == "every label is true"
    assert np.average(t["lrap"], weights=ww) == pytest.approx(
        skm.label_ranking_average_precision_score(y, s, sample_weight=w)
    )


def test_contributions_of_seed003():
    t = metrics.label_ranking_contributions(SEED_Y, SEED_S)
    assert t["lrap"].round(4).tolist() == [0.5, 0.8333, 1.0]
    assert t["n_misordered"].tolist() == [1, 1, 0]
    # removing sample 0 (LRAP 0.5) would lift the mean from 0.7778 to 0.9167
    assert t.loc[0, "lrap_moves_mean"] == pytest.approx(7 / 9 - 11 / 12)


def test_contributions_of_a_lone_sample_have_nan_effect():
    t = metrics.label_ranking_contributions([[1, 0]], [[0.2, 0.5]])
    assert np.isnan(t.loc[0, "lrap_moves_mean"])
    assert metrics.sort_worst_first(t, "lrap")["sample"].tolist() == [0]


def test_sort_worst_first_orders_by_harm():
    y, s, _ = _case(2)
    t = metrics.label_ranking_contributions(y, s)
    for by, worst in (("lrap", t["lrap"].min()), ("coverage", t["coverage"].max())):
        assert metrics.sort_worst_first(t, by)[by].iloc[0] == worst
    assert (
        metrics.sort_worst_first(t, "ranking_loss")["ranking_loss"].iloc[0]
        == t["ranking_loss"].max()
    )
    with pytest.raises(metrics.MetricInputError, match="by must be one of"):
        metrics.sort_worst_first(t, "auc")


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", ["optimistic", "pessimistic"])
def test_tie_broken_per_sample_matches_explicit_sort(seed, ties):
    y, s, _ = _case(seed)
    got = metrics.tie_broken_per_sample(y, s, ties=ties)
    lrap, cov = _slow_tie_broken(y, s, ties)
    np.testing.assert_allclose(got.lrap, lrap)
    np.testing.assert_allclose(got.coverage, cov)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("levels", [1, 2, 7, 1000])
def test_tie_broken_counted_and_sorted_groups_match_explicit_sort(monkeypatch, seed, levels):
    """Tie groups counted by score code (few values) or found by one sort (many), across
    blocks of rows; negative and integer scores, rows with no or every label true."""
    rng = np.random.default_rng(seed)
    n, m = 90, 7
    y = (rng.random((n, m)) < 0.4).astype(int)
    y[0], y[1] = 0, 1
    s = rng.integers(-levels, levels, (n, m)) if levels > 1 else np.zeros((n, m), int)
    import metrics.explain.label_ranking as explain_lr  # where the tie-broken tables live

    chunks = [slice(0, 13), slice(13, 50), slice(50, n)]
    monkeypatch.setattr(explain_lr, "row_chunks", lambda a, b: chunks)
    for ties in ("optimistic", "pessimistic"):
        lrap, cov = _slow_tie_broken(y, s, ties)
        for yy in (y, y.astype(bool)):
            got = metrics.tie_broken_per_sample(yy, s, ties=ties)
            np.testing.assert_allclose(got.lrap, lrap, rtol=1e-12, atol=1e-12)
            np.testing.assert_array_equal(got.coverage, cov)
        values = lr._score_values(s.astype(float))
        for vals in (values, None):  # the counted path (when it applies) and the sorted one
            out = metrics.explain.label_ranking._broken_rows(y, s.astype(float), vals, (ties,))
            np.testing.assert_allclose(out[0], lrap, rtol=1e-12, atol=1e-12)
            np.testing.assert_array_equal(out[1], cov)


@pytest.mark.parametrize("seed", range(3))
def test_tie_rules_bracket_scikit_learn(seed):
    y, s, w = _case(seed)
    mx = metrics.tie_broken_per_sample(y, s, ties="max")
    opt = metrics.tie_broken_per_sample(y, s, ties="optimistic")
    pes = metrics.tie_broken_per_sample(y, s, ties="pessimistic")
    np.testing.assert_allclose(mx.lrap, metrics.lrap_per_sample(y, s))
    np.testing.assert_allclose(mx.coverage, metrics.coverage_per_sample(y, s))
    np.testing.assert_allclose(mx.coverage, pes.coverage)  # scikit-learn's coverage is pessimistic
    assert np.all(mx.lrap >= pes.lrap - 1e-12) and np.all(opt.lrap >= pes.lrap - 1e-12)
    assert np.all(opt.coverage <= mx.coverage)
    summary = metrics.tie_broken_summary(y, s, sample_weight=w)
    assert summary.loc["max", "lrap"] == pytest.approx(
        skm.label_ranking_average_precision_score(y, s, sample_weight=w)
    )
    assert summary.loc["max", "coverage"] == pytest.approx(
        skm.coverage_error(y, s, sample_weight=w)
    )
    assert summary.loc["optimistic", "lrap"] == pytest.approx(np.average(opt.lrap, weights=w))


def test_optimistic_lrap_can_fall_below_scikit_learns():
    # the docstring's example: max counts all three tied true labels in |L_ij|
    y, s = [[1, 1, 0, 0, 1, 1]], [[1, 0, 2, 1, 0, 0]]
    assert metrics.tie_broken_per_sample(y, s, ties="max").lrap[0] == pytest.approx(7 / 12)
    assert metrics.tie_broken_per_sample(y, s, ties="optimistic").lrap[0] == pytest.approx(
        (1 / 2 + 2 / 4 + 3 / 5 + 4 / 6) / 4
    )


def test_tie_rules_agree_without_ties():
    rng = np.random.default_rng(7)
    y = (rng.random((30, 5)) < 0.5).astype(int)
    s = rng.random((30, 5))
    rules = metrics.tie_broken_summary(y, s)
    assert rules["lrap"].nunique() == 1 and rules["coverage"].nunique() == 1


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ties", metrics.TIE_RULES)
def test_tie_broken_steps_end_at_the_sample_values(seed, ties):
    y, s, _ = _case(seed, n=12)
    per = metrics.tie_broken_per_sample(y, s, ties=ties)
    for i in range(len(y)):
        lt = metrics.lrap_steps_tie_broken(y[i], s[i], ties=ties)
        ct = metrics.coverage_steps_tie_broken(y[i], s[i], ties=ties)
        assert lt["running_value"].iloc[-1] == pytest.approx(per.lrap[i])
        assert ct["running_value"].iloc[-1] == per.coverage[i]
        assert sorted(lt["label"]) == list(range(y.shape[1]))
    pd.testing.assert_frame_equal(
        metrics.lrap_steps_tie_broken(y[2], s[2], ties="max"), metrics.lrap_steps(y[2], s[2])
    )


def test_tie_rule_is_validated():
    with pytest.raises(metrics.MetricInputError, match="ties must be one of"):
        metrics.tie_broken_per_sample(SEED_Y, SEED_S, ties="random")
    with pytest.raises(metrics.MetricInputError, match="ties must be one of"):
        metrics.lrap_steps_tie_broken(SEED_Y[0], SEED_S[0], ties="average")


# --------------------------------------------------------------------------- charts
def test_sample_ranking_figure_marks_true_labels_and_tie_groups():
    steps = metrics.lrap_steps([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.1])
    fig = charts.sample_ranking_figure(steps, ["a", "b", "c", "d"])
    bars = [t for t in fig.data if t.type == "bar"]
    assert [t.name for t in bars] == ["true label", "false"]
    assert list(bars[0].y) == ["a (#0)", "c (#2)"]
    assert list(bars[0].text) == ["rank 3", "rank 3"]
    assert len(fig.layout.shapes) == 1  # one tie group of three labels
    assert fig.layout.annotations[0].text == "tied: rank 3"


def svg_bars(html: str) -> list[tuple[int, float, float, str]]:
    """(series, value, x in percent, hover text) of each bar of an SVG chart."""
    found = re.findall(
        r'<rect class="bar" data-series="(\d+)" data-value="([^"]+)" x="([\d.]+)%"'
        r"[^>]*><title>([^<]*)</title>",
        html,
    )
    return [(int(s), float(v), float(x), t) for s, v, x, t in found]


def test_many_labels_are_drawn_by_position_with_names_on_hover():
    """Past NAMED_ROWS_MAX labels: one SVG bar per position, left to right, the bars'
    heights the scores in ranked order, true labels colored, names on hover, every tie
    group shaded."""
    m = charts.NAMED_ROWS_MAX + 10
    rng = np.random.default_rng(3)
    y = (rng.random(m) < 0.2).astype(int)
    s = rng.integers(0, 15, m) / 15  # ties
    steps = metrics.lrap_steps(y, s)
    names = [f"tag{j}" for j in range(m)]
    html = charts.sample_ranking_svg(steps, names)
    bars = svg_bars(html)
    assert len(bars) == m
    assert [x for _, _, x, _ in bars] == sorted(x for _, _, x, _ in bars)
    assert [v for _, v, _, _ in bars] == sorted(s, reverse=True)
    true_names = {names[j] for j in np.flatnonzero(y)}
    shown_true = {t.split(": ")[1].split(" (")[0] for _, _, _, t in bars if "(true)" in t}
    assert shown_true == true_names
    # each true label: its bar and a dot above it, in the true color
    assert html.count('class="mark"') == len(true_names)
    assert html.count(f'fill="{charts.TRUE_COLOR}"') == 2 * len(true_names)
    n_groups = int((steps.groupby("tie_group").size() > 1).sum())
    assert n_groups > 0 and html.count('class="band"') == n_groups
    assert f"The {m} labels by score" in html


def test_contributions_figure_colors_and_selection():
    t = metrics.sort_worst_first(metrics.label_ranking_contributions(SEED_Y, SEED_S), "lrap")
    fig = charts.contributions_figure(t, "lrap", ["0", "1", "2"], selected=1)
    (bar,) = fig.data
    assert list(bar.customdata) == [0, 1, 2]
    assert list(bar.marker.color) == [
        charts.WORSE_COLOR,
        charts.SELECTED_COLOR,
        charts.BETTER_COLOR,
    ]
    assert list(bar.text) == ["0.5", "0.8333", "1"]


def test_rank_table_styler_shows_marks_and_colors():
    t = metrics.label_rank_table([[0.5, 0.5, 0.9]])
    sty = charts.rank_table_styler(
        t.rank, np.array([[1, 0, 0]]), t.tie_size, ["0"], ["a", "b", "c"]
    )
    html = sty.to_html()
    assert "3 = \u25cf" in html and ">1<" in html.replace(" ", "")
    assert "background-color" in html


# --------------------------------------------------------------------------- the page (AppTest)
@pytest.fixture(autouse=True)
def _clear_caches():
    st.cache_data.clear()
    yield


def table(at, column):
    """The first st.dataframe holding ``column`` (its "—" cells read back as NaN)."""
    return undash(next(d.value for d in at.dataframe if column in d.value.columns))


def open_page(name, **params):
    return conftest.open_page(PAGE, name, **params)


def assert_headline(at, y, s, w=None):
    assert metric(at, "Coverage error") == fmt(metrics.coverage_error(y, s, sample_weight=w))
    assert metric(at, "Best coverage") == fmt(metrics.best_coverage_error(y, sample_weight=w))
    assert metric(at, "LRAP") == fmt(
        metrics.label_ranking_average_precision_score(y, s, sample_weight=w)
    )
    assert metric(at, "Ranking loss") == fmt(metrics.label_ranking_loss(y, s, sample_weight=w))


def assert_sample(at, y, s, ties="max"):
    per = metrics.tie_broken_per_sample(y[None, :], s[None, :], ties=ties)
    assert metric(at, "Sample LRAP") == fmt(per.lrap[0])
    assert metric(at, "Sample coverage") == fmt(per.coverage[0])
    assert metric(at, "Sample ranking loss") == fmt(metrics.ranking_loss_per_sample([y], [s])[0])
    lrap_t = table(at, "n_true_at_or_above")
    assert lrap_t["running_value"].iloc[-1] == pytest.approx(per.lrap[0])
    open_steps_tab(at, "Coverage")  # the step tabs are lazy: one table at a time
    assert not any("n_true_at_or_above" in d.value for d in at.dataframe)
    cov_t = next(
        d.value
        for d in at.dataframe
        if "running_value" in d.value and "fraction" not in d.value and "true_label" not in d.value
    )
    assert cov_t["running_value"].iloc[-1] == per.coverage[0]
    open_steps_tab(at, "Ranking loss")
    loss_t = table(at, "true_label")
    assert loss_t["running_value"].iloc[-1] == pytest.approx(
        metrics.ranking_loss_per_sample([y], [s])[0]
    )
    open_steps_tab(at, "LRAP")


def open_steps_tab(at, tab: str) -> None:
    """Open one of the drill-down's step tabs (only the open one is drawn)."""
    at.session_state["lr_steps_tab"] = tab
    at.run()
    assert not at.exception
    assert at.query_params["steps"] == tab.split()[0].lower()


def test_seed003_shows_05_0833_1_and_overall_07778():
    at = open_page("seed003_lrap")
    assert metric(at, "LRAP") == "0.7778"
    assert_headline(at, SEED_Y, SEED_S)
    contrib = table(at, "LRAP")
    assert sorted(contrib["LRAP"].round(4)) == [0.5, 0.8333, 1.0]
    shown = []
    for i in range(3):
        numbered_selectbox(at, "lr_sample").set_value(i).run()
        assert not at.exception
        assert_sample(at, SEED_Y[i], SEED_S[i])
        shown.append(metric(at, "Sample LRAP"))
        assert at.query_params["i"] in (str(i), [str(i)])
    assert shown == ["0.5000", "0.8333", "1.000"]
    # sample 1's walk-through: human 1/1, dog 2/3 (seed 003)
    numbered_selectbox(at, "lr_sample").set_value(1).run()
    lrap_t = table(at, "n_true_at_or_above")
    true_rows = lrap_t[lrap_t["is_true"]]
    assert true_rows[["label_name", "n_true_at_or_above", "rank"]].values.tolist() == [
        ["human", 1, 1],
        ["dog", 2, 3],
    ]
    assert any(r"\frac{1}{1} + \frac{2}{3}" in x.value and "0.8333" in x.value for x in at.latex)


def test_whatif_edit_tie_switch_and_reset():
    at = open_page("seed003_lrap", i="1")
    assert metric(at, "Sample LRAP") == "0.8333"
    # tie the true label "dog" with the false label "cat" at 0.2
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"dog": 0.2}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    s = SEED_S.copy()
    s[1, 2] = 0.2
    assert_headline(at, SEED_Y, s)
    assert_sample(at, SEED_Y[1], s[1])  # max rank: dog at rank 3, |L| = 2 -> 0.8333
    expected = {"max": ("0.8333", "3.000"), "optimistic": ("1.000", "2.000"),
                "pessimistic": ("0.8333", "3.000")}  # fmt: skip
    for ties, (lrap_txt, cov_txt) in expected.items():
        at.radio(key="lr_tie_mode").set_value(ties).run()
        assert not at.exception
        assert at.query_params["ties"] in (ties, [ties])
        assert (metric(at, "Sample LRAP"), metric(at, "Sample coverage")) == (lrap_txt, cov_txt)
        assert_sample(at, SEED_Y[1], s[1], ties=ties)
        assert_headline(at, SEED_Y, s)  # the headline stays scikit-learn's
    side = table(at, "tie rule")
    assert side["LRAP (this sample)"].round(4).tolist() == [0.8333, 1.0, 0.8333]
    assert side["LRAP (all samples)"].iloc[0] == pytest.approx(
        skm.label_ranking_average_precision_score(SEED_Y, s)
    )
    # the contributions table follows the edit
    contrib = table(at, "LRAP")
    assert contrib.set_index("sample").loc[1, "coverage"] == 3
    at.button(key="lr_whatif_reset").click().run()
    assert not at.exception
    assert metric(at, "LRAP") == "0.7778"
    assert metric(at, "Sample LRAP") == "0.8333"


def test_whatif_lifts_sample0_to_lrap_1():
    at = open_page("seed003_lrap")
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"human": 2.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    s = SEED_S.copy()
    s[0, 0] = 2.0
    assert metric(at, "Sample LRAP") == "1.000"
    assert metric(at, "LRAP") == fmt(metrics.label_ranking_average_precision_score(SEED_Y, s))
    assert metric(at, "LRAP") == fmt((1 + 5 / 6 + 1) / 3)


def open_with(ds) -> AppTest:
    """Open the page alone on a session dataset (the sidebar picker cannot be driven then)."""
    at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    return at


@pytest.mark.parametrize("weighted", [True, False])
def test_whatif_on_weighted_tied_data_equals_the_full_edited_matrix(weighted, deferred_downloads):
    """The one-row update shows the numbers of the whole edited matrix: headline, tie
    rules over all samples, every sample's moves-the-mean effects and the worst-first order."""
    from explorer.datasets import Dataset

    y, s, w = _case(5, n=30)
    w = w if weighted else None
    names = ("a", "b", "c", "d", "e", "f")
    at = open_with(Dataset("tied", "multilabel", y, {"m": s}, sample_weight=w, label_names=names))
    i = int(np.flatnonzero((y.sum(axis=1) > 0) & (y.sum(axis=1) < 6))[1])
    numbered_selectbox(at, "lr_sample").set_value(i).run()
    for new_row in (np.full(6, 0.25), np.array([0.9, 0.1, 0.9, 0.4, 0.0, 0.6])):
        at.session_state["lr_whatif_scores"] = {
            "edited_rows": {0: dict(zip(names, new_row.tolist(), strict=True))},
            "added_rows": [],
            "deleted_rows": [],
        }
        at.run()
        assert not at.exception
        edited = s.copy()
        edited[i] = new_row
        assert_headline(at, y, edited, w)
        assert metric(at, "LRAP") == fmt(
            skm.label_ranking_average_precision_score(y, edited, sample_weight=w)
        )
        assert_sample(at, y[i], edited[i])
        side = table(at, "tie rule")
        rules = metrics.tie_broken_summary(y, edited, sample_weight=w)
        np.testing.assert_allclose(side["LRAP (all samples)"], rules["lrap"], rtol=1e-12)
        np.testing.assert_allclose(side["coverage error (all)"], rules["coverage"], rtol=1e-12)
        full = metrics.sort_worst_first(
            metrics.label_ranking_contributions(y, edited, sample_weight=w), "lrap"
        )
        shown = table(at, "LRAP")
        assert shown["sample"].tolist() == full["sample"].tolist()
        for col, ref in (
            ("coverage moves mean", "coverage_moves_mean"),
            ("LRAP moves mean", "lrap_moves_mean"),
            ("loss moves mean", "ranking_loss_moves_mean"),
            ("LRAP", "lrap"),
            ("ranking loss", "ranking_loss"),
        ):
            np.testing.assert_allclose(shown[col], full[ref], rtol=1e-12, atol=1e-15)
        # the rank table and its download use the what-if row
        ranks = pd.read_csv(io.StringIO(deferred_downloads("ranks_csv")), dtype={"id": str})
        rank_cols = [f"rank_{c}" for c in names]
        np.testing.assert_array_equal(ranks[rank_cols].to_numpy(), max_rank(edited))
        every = pd.read_csv(io.StringIO(deferred_downloads("contrib_csv")), dtype={"id": str})
        assert every["sample"].tolist() == full["sample"].tolist()
        np.testing.assert_allclose(every["lrap_moves_mean"], full["lrap_moves_mean"], rtol=1e-12)


def test_digits_lrap_equals_mrr():
    ds = load_sample("digits")
    at = open_page("digits")
    assert_headline(at, ds.y_true, ds.score())
    assert metric(at, "MRR") == fmt(metrics.mean_reciprocal_rank(ds.y_true, ds.score()))
    assert metric(at, "MRR") == metric(at, "LRAP")
    assert any("LRAP equals the mean reciprocal rank" in s.value for s in at.success)


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
    assert metric(at, "Sample LRAP") == "1.000"
    assert metric(at, "Sample coverage") == "0"
    assert metric(at, "Sample ranking loss") == "0"
    assert any("no true label" in w.value for w in at.warning)
    assert_sample(at, ds.y_true[empty], s[empty])


def test_bad_whatif_value_is_refused_without_traceback():
    at = open_page("seed003_lrap")
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"cat": None}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert any("not used" in e.value and "NaN at column 1" in e.value for e in at.error)
    assert metric(at, "LRAP") == "0.7778"
    assert table(at, "LRAP")["LRAP"].round(4).tolist() == [0.5, 0.8333, 1.0]


def test_wrong_kind_offers_seed003():
    at = open_page("balanced")
    assert "multilabel" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
    assert not at.exception
    assert metric(at, "LRAP") == "0.7778"


def test_chart_json_has_one_bar_per_sample():
    at = open_page("seed003_lrap")
    figs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    titles = [f["layout"]["title"]["text"].replace("<br>", " ") for f in figs]  # wrapped
    contrib = next(f for f, t in zip(figs, titles, strict=True) if "moves the mean" in t)
    assert len(contrib["data"][0]["x"]) == 3


def test_rank_colors_equal_one_colorscale_sample_per_cell():
    """Colors are computed once per distinct rank: the same CSS as sampling every cell."""
    from plotly.colors import sample_colorscale

    rank = np.random.default_rng(3).integers(1, 8, (6, 7))
    frac = (rank - 1) / 6
    per_cell = np.array(sample_colorscale("Blues", list(1.0 - 0.85 * frac.ravel())), dtype=object)
    expected = "background-color: " + per_cell.reshape(rank.shape)
    expected = expected + "; color: " + np.where(frac < 0.5, "white", "black")
    np.testing.assert_array_equal(charts.rank_colors(rank, 7), expected)


# --------------------------------------------------------------------------- issue 18.1, 17.4
def read_derivation(at, name: str) -> dict:
    """The derivation line of headline ``name``: its terms, denominator and final number."""
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


PER_SAMPLE = {
    "LRAP": metrics.lrap_per_sample,
    "Coverage error": metrics.coverage_per_sample,
    "Ranking loss": metrics.ranking_loss_per_sample,
}


def test_every_headline_is_derived_on_screen_from_its_terms():
    """LRAP 0.7778 is written (0.5000 + 0.8333 + 1.000) / 3, and so are the other two."""
    at = conftest.open_page(PAGE, "seed003_lrap")
    lrap = read_derivation(at, "LRAP")
    assert lrap["terms"] == ["0.5000", "0.8333", "1.000"] and lrap["denominator"] == "3"
    assert lrap["value"] == metric(at, "LRAP") == "0.7778"
    for name, per_sample in PER_SAMPLE.items():
        d = read_derivation(at, name)
        values = per_sample(SEED_Y, SEED_S)
        assert d["terms"] == [fmt(v) for v in values], name
        assert d["value"] == metric(at, name) == fmt(sum(values) / 3), name


@pytest.mark.parametrize("weighted", [False, True])
def test_derivation_of_many_samples_shows_head_tail_count_and_weights(weighted):
    from explorer.datasets import Dataset

    y, s, w = _case(11, n=40)
    w = np.round(w * 4) if weighted else None  # integer weights read as "3 × 0.5000"
    at = open_with(Dataset("many", "multilabel", y, {"m": s}, sample_weight=w))
    for name, per_sample in PER_SAMPLE.items():
        d = read_derivation(at, name)
        v = per_sample(y, s)
        shown = [*range(3), 38, 39]
        if weighted:
            want = [f"{int(w[i])} × {fmt(v[i])}" for i in shown]
            assert d["denominator"] == f"{int(w.sum())}"
            assert d["total"] == fmt(np.dot(w, v))
            assert d["value"] == metric(at, name) == fmt(np.dot(w, v) / w.sum())
        else:
            want = [fmt(v[i]) for i in shown]
            assert d["denominator"] == "40" and d["total"] == fmt(v.sum())
            assert d["value"] == metric(at, name) == fmt(v.mean())
        assert d["omitted"] and d["terms"] == want, name


@pytest.mark.parametrize(
    ("sample", "params", "by"),
    [
        ("digit_properties", {}, "lrap"),
        ("seed003_lrap", {"sort": "coverage"}, "coverage"),
        ("seed003_lrap", {"sort": "ranking_loss"}, "ranking_loss"),
    ],
)
def test_drill_down_opens_on_the_worst_sample(sample, params, by):
    ds = load_sample(sample)
    y, s = ds.y_true, ds.score(ds.model_names[0])
    values = {
        "lrap": metrics.lrap_per_sample,
        "coverage": metrics.coverage_per_sample,
        "ranking_loss": metrics.ranking_loss_per_sample,
    }[by](y, s)
    worst = int(np.argmin(values) if by == "lrap" else np.argmax(values))
    at = conftest.open_page(PAGE, sample, **params)
    assert at.session_state["lr_sample"] == worst
    assert metric(at, "Sample LRAP") == fmt(metrics.lrap_per_sample(y, s)[worst])
    assert at.query_params["i"] == str(worst)
    if sample == "digit_properties":
        assert worst != 0  # row 0 was the old default
    top = next(d.value for d in at.dataframe if "LRAP moves mean" in " ".join(d.value.columns))
    assert int(top["sample"].iloc[0]) == worst  # the table's first row is the one opened
    assert next(h for h in at.header if h.proto.anchor == "lr-worst-first")
    assert any("(#lr-worst-first)" in c.value for c in at.caption)


def test_a_link_that_names_a_sample_still_opens_it():
    at = conftest.open_page(PAGE, "seed003_lrap", i="2")
    assert at.session_state["lr_sample"] == 2
    assert metric(at, "Sample LRAP") == fmt(metrics.lrap_per_sample(SEED_Y, SEED_S)[2])


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


def test_derivation_follows_a_whatif_edit():
    at = conftest.open_page(PAGE, "seed003_lrap")
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"human": 2.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    edited = SEED_S.astype(float).copy()
    edited[0, 0] = 2.0
    d = read_derivation(at, "LRAP")
    assert d["terms"] == [fmt(v) for v in metrics.lrap_per_sample(SEED_Y, edited)]
    assert d["terms"] == ["1.000", "0.8333", "1.000"]
    assert d["value"] == metric(at, "LRAP") == fmt(metrics.lrap_per_sample(SEED_Y, edited).mean())


def test_best_coverage_and_mrr_are_derived_too():
    ds = load_sample("digits")  # one true label per sample: MRR is shown
    y, s = ds.y_true, ds.score()
    at = conftest.open_page(PAGE, "digits")
    rr = metrics.reciprocal_rank(y, s)
    d = read_derivation(at, "MRR")
    assert d["terms"] == [fmt(v) for v in (*rr[:3], *rr[-2:])] and d["total"] == fmt(rr.sum())
    assert d["denominator"] == f"{len(rr):,}"
    assert d["value"] == metric(at, "MRR") == fmt(metrics.mean_reciprocal_rank(y, s))
    best = read_derivation(at, "Best coverage")
    assert best["terms"] == ["1.000"] * 5 and best["value"] == metric(at, "Best coverage")


def test_drill_down_steps_show_each_samples_numbers_and_the_url_follows():
    """The drill-down is an st.fragment: each step of the sample (a number box above 1,000
    samples) shows that sample's own numbers, the headline keeps every sample's means, the
    address follows, and a fresh session given that address opens the same sample."""
    from explorer.datasets import Dataset

    y, s, _ = _case(11, n=1500, m=6)
    ds = Dataset("big", "multilabel", y, {"m": s})
    at = open_with(ds)
    lrap, cov, loss = (
        metrics.lrap_per_sample(y, s),
        metrics.coverage_per_sample(y, s),
        metrics.ranking_loss_per_sample(y, s),
    )
    headline = fmt(metrics.label_ranking_average_precision_score(y, s))
    i = at.session_state["lr_sample"]
    for _ in range(4):
        i += 1
        at.number_input(key="lr_sample").increment().run()
        assert not at.exception
        assert at.session_state["lr_sample"] == i
        assert metric(at, "Sample LRAP") == fmt(lrap[i])
        assert metric(at, "Sample coverage") == fmt(cov[i])
        assert metric(at, "Sample ranking loss") == fmt(loss[i])
        assert metric(at, "LRAP") == headline
        assert metric(at, "Coverage error") == fmt(metrics.coverage_error(y, s))
        assert at.query_params["i"] == str(i)
    again = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=30)
    again.session_state["session_datasets"] = {ds.name: ds}
    again.session_state["active_dataset"] = ds.name
    again.query_params["i"] = str(i)
    again.run()
    assert again.session_state["lr_sample"] == i
    assert metric(again, "Sample LRAP") == fmt(lrap[i])
