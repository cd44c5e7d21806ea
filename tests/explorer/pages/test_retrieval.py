"""The Top-K retrieval page model (explorer.pages.retrieval), without Streamlit: its
tables, curves, switchboard and drill-down against metrics and hand computation."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import retrieval, retrieval_query
from explorer.samples import load_sample
from explorer.ui import cache, url
from metrics import CONVENTION_METRICS, retrieval_curve, retrieval_means, retrieval_per_query
from tests.conftest import ROOT, graded_case

TOL = {"rtol": 0, "atol": 1e-12}


def full(ds, model, s: retrieval.Settings) -> pd.DataFrame:
    """The per-query table of every family in one call of metrics (the reference)."""
    kw = {n: v for n, v in vars(s).items() if n != "k"}
    return retrieval_per_query(ds.y_true, ds.score(model), k=s.k, **kw)


def graded(seed=4, n=25, m=8) -> Dataset:
    y, s = graded_case(seed, n=n, m=m)
    return Dataset("g", "graded", y, {"a": s, "b": np.round(s[:, ::-1] * 2) / 2})


# ---------------------------------------------------------------------------
# tables and curves
# ---------------------------------------------------------------------------
def test_seed002_tables_are_the_worked_example():
    ds = load_sample("seed002_map")
    per_query, curve = retrieval.tables(ds, "model", retrieval.Settings(k=5, max_grade=1.0))
    # relevant at positions 1, 3, 5 of 5: (1/1 + 2/3 + 3/5) / 3; at 2, 4: (1/2 + 2/4) / 2
    np.testing.assert_allclose(per_query["AP@K"], [(1 + 2 / 3 + 3 / 5) / 3, 0.5], **TOL)
    assert per_query["relevant"].tolist() == [3, 2]
    assert per_query["RR"].tolist() == [1.0, 0.5]
    np.testing.assert_allclose(per_query["P@K"], [3 / 5, 2 / 5], **TOL)
    numbers = retrieval.headline(per_query)
    assert numbers["MAP@K"] == pytest.approx(
        metrics.mean_average_precision_at_k(ds.y_true, ds.score(), k=5)
    )
    assert numbers["MRR"] == pytest.approx(0.75)
    assert numbers["NDCG@K"] == pytest.approx(metrics.ndcg_score(ds.y_true, ds.score(), k=5))
    assert curve["K"].tolist() == [1, 2, 3, 4, 5]
    # MAP@1: query 0 has its relevant item first (1/min(3, 1)), query 1 does not
    assert curve["MAP@K"].iloc[0] == pytest.approx(0.5)
    assert curve["MAP@K"].iloc[4] == pytest.approx(numbers["MAP@K"])


SETTINGS = [
    retrieval.Settings(k=3, max_grade=3.0),
    retrieval.Settings(k=5, denominator="hits", level=2, max_grade=4.0, ties="tie-averaged"),
    retrieval.Settings(k=8, denominator="k", gain="exponential", max_grade=3.0, ties="pessimistic"),
    retrieval.Settings(k=1, denominator="relevant", level=3, max_grade=3.5, ties="optimistic"),
]


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("empty", ["zero", "drop"])
def test_tables_by_family_equal_one_call_of_metrics(settings, empty):
    ds = graded()
    per_query, curve = retrieval.tables(ds, "b", settings, empty)
    ref = full(ds, "b", settings)
    assert list(per_query.columns) == [*CONVENTION_METRICS, "relevant"]
    for col in per_query.columns:
        np.testing.assert_allclose(per_query[col], ref[col], **TOL, err_msg=col)
    kw = {n: v for n, v in vars(settings).items() if n != "k"}
    c_ref = retrieval_curve(ds.y_true, ds.score("b"), k_max=ds.n_labels, empty=empty, **kw)
    assert list(curve.columns) == list(c_ref.columns)
    for col in curve.columns:
        np.testing.assert_allclose(curve[col], c_ref[col], **TOL, err_msg=col)
    means = retrieval_means(ref, empty=empty)
    got = retrieval.headline(per_query, empty)
    assert got == {label: pytest.approx(means[name]) for label, name in retrieval.HEADLINE}


def test_a_change_of_one_convention_recomputes_its_family_only(monkeypatch):
    """The cache of the page (explorer.ui.cache.retrieval): a family's curve is keyed
    without K and computed at the opening K, with the columns there; the columns at
    another K are computed apart."""
    ds = graded()
    col_calls, curve_calls = [], []
    for name, calls in (("family_columns", col_calls), ("family_curve", curve_calls)):
        func = getattr(retrieval, name)

        def counted(*args, func=func, calls=calls, **kwargs):
            calls.append(args[2])  # the family
            return func(*args, **kwargs)

        monkeypatch.setattr(retrieval, name, counted)
    for cached in (cache.retrieval.columns, cache.retrieval.curve, cache.retrieval.tables):
        cached.clear()
    s = retrieval.Settings(k=retrieval.opening_k(ds.n_labels), max_grade=3.0)

    def run(settings, empty="zero"):
        col_calls.clear()
        curve_calls.clear()
        per_query, _ = cache.retrieval.tables(ds, "a", settings, empty)
        pd.testing.assert_frame_equal(per_query, full(ds, "a", settings))
        return sorted(col_calls), sorted(curve_calls)

    assert run(s) == ([], ["dcg", "err", "rel"])  # the columns ride along with the curves
    assert run(replace(s, level=2)) == ([], ["rel"])
    assert run(replace(s, level=2, gain="exponential")) == ([], ["dcg"])
    assert run(replace(s, level=2, gain="exponential", max_grade=5.0)) == ([], ["err"])
    s = replace(s, level=2, gain="exponential", max_grade=5.0)
    assert run(replace(s, k=2)) == (["dcg", "err", "rel"], [])  # K: no curve again
    assert run(s) == ([], [])  # back at the curves' own K
    assert run(replace(s, k=2)) == ([], [])
    # away from the opening K a new convention computes its curve and its columns at K
    assert run(replace(s, k=2, denominator="k")) == (["rel"], ["rel"])
    assert run(s, "drop") == ([], ["dcg", "err", "rel"])  # which queries count moves
    assert run(replace(s, ties="optimistic")) == ([], ["dcg", "err", "rel"])


def test_family_curve_columns_equal_family_columns():
    ds = load_sample("diabetes_ranking")
    s = retrieval.Settings(k=3, level=2, max_grade=3.0, ties="tie-averaged")
    for fam in retrieval.FAMILY_SETTINGS:
        got = retrieval.family_curve(ds, "tree", fam, s.curve_conventions(fam, "drop"), 3)
        assert got.k == 3
        pd.testing.assert_frame_equal(
            got.columns, retrieval.family_columns(ds, "tree", fam, s.conventions(fam), 3)
        )


# ---------------------------------------------------------------------------
# presets and the switchboard
# ---------------------------------------------------------------------------
def test_presets_are_capped_to_the_data():
    assert retrieval.preset_values("multilabel notes AveP", 5, 3) == {
        "ap_denominator": "k",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
        "k": 5,
    }
    assert retrieval.preset_values("revision sheet AP@K", 20, 3)["k"] == 5
    assert retrieval.preset_values("custom", 5, 3) == {}
    s, empty = retrieval.preset_settings(retrieval.Settings(k=7, level=3), "trec_eval", 10, 3)
    assert (s.k, s.denominator, s.ties, s.level, empty) == (7, "relevant", "column", 1, "zero")
    s, _ = retrieval.preset_settings(retrieval.Settings(k=7), "scikit-learn", 10, 3)
    assert s.ties == "tie-averaged"


def test_levels_and_gains_follow_the_grade_scale():
    assert retrieval.levels(load_sample("diabetes_ranking")) == (1, 2, 3)
    assert retrieval.levels(load_sample("digits")) == (1,)
    y = np.array([[0, 1, 2, 3, 500, 1500], [7, 9, 11, 13, 20, 40]])
    ds = Dataset("clicks", "graded", y, {"m": np.zeros((2, 6))})
    # 11 distinct positive grades: 10 of them, spread, the first and the last kept
    assert retrieval.levels(ds) == (1, 2, 3, 7, 9, 13, 20, 40, 500, 1500)
    assert retrieval.grade_scale(ds) == (1500.0, 1500)
    assert list(retrieval.offered_gains(1500.0)) == ["linear"]
    assert list(retrieval.offered_gains(1023.0)) == ["linear", "exponential"]


def test_variants_change_one_switch_each():
    ds = load_sample("diabetes_ranking")
    s = retrieval.Settings(k=4, level=2, max_grade=3.0)
    rows = retrieval.variants(ds, s, "zero", levels=retrieval.levels(ds))
    switches = [r[0] for r in rows]
    assert switches.count("AP denominator") == 4 and switches.count("ties") == 4
    assert switches.count("NDCG gain") == 2 and switches.count("relevant from grade") == 3
    assert switches.count("preset") == 7 and rows[0] == ("your settings", "-", s, "zero")
    err = [(c, r.max_grade) for sw, c, r, _ in rows if sw == "ERR max grade"]
    assert err == [("3", 3.0), ("4", 4.0)]  # the data's, one more (the setting is the data's)
    empty = [(c, e, r) for sw, c, r, e in rows if sw == "no-relevant query"]
    assert empty == [
        ("score 0", "zero", s),
        ("drop from the mean", "drop", s),
        ("score 1 (LightGBM)", "one", s),
    ]
    (p004,) = [r for sw, c, r, _ in rows if c.startswith("multilabel notes")]
    assert p004 == replace(s, k=10, denominator="k", level=1)
    (lgb,) = [(r, e) for sw, c, r, e in rows if c.startswith("LightGBM")]
    assert lgb == (replace(s, gain="exponential", ties="column", level=1), "one")
    assert len(rows) == 1 + 4 + 4 + 2 + 3 + 2 + 3 + 7


def test_switchboard_rows_equal_the_metrics():
    ds = load_sample("diabetes_ranking")
    s = retrieval.Settings(k=4, level=2, max_grade=3.0, ties="tie-averaged")
    rows = retrieval.variants(ds, s, "drop", levels=retrieval.levels(ds))
    board = retrieval.switchboard(ds, "tree", rows)
    assert board["switch"].tolist() == [r[0] for r in rows]
    for i, (_, _, settings, empty) in enumerate(rows):
        means = retrieval_means(full(ds, "tree", settings), empty=empty)
        for label, name in retrieval.HEADLINE:
            assert board.loc[i, label] == pytest.approx(means[name], abs=1e-12), (i, label)
    k_row = board[board["convention"] == "K"].iloc[0]
    assert k_row["MAP@K"] != board.loc[0, "MAP@K"]
    base, _ = retrieval.tables(ds, "tree", s, "drop")
    pd.testing.assert_frame_equal(retrieval.switchboard(ds, "tree", rows, base=base), board)


# ---------------------------------------------------------------------------
# one query, step by step
# ---------------------------------------------------------------------------
def test_drill_down_of_seed002():
    ds = load_sample("seed002_map")
    s = retrieval.Settings(k=2, max_grade=1.0)
    steps = retrieval_query.steps_table(ds, "model", 0, s)
    assert retrieval_query.formula_terms(steps, "AP@K") == [(1.0, 1)]  # doc3 (relevant) is 3rd: cut
    assert retrieval_query.formula_terms(steps, "RR") == [(1.0, 1)]
    assert retrieval_query.formula_terms(steps, "DCG") == [(1.0, 1.0)]
    # M = 3 relevant items, K = 2, one hit in the top 2
    got = {d: retrieval_query.ap_denominator(steps, 3, d, 2) for d in retrieval.DENOMINATORS}
    assert got == {"min_m_k": 2.0, "relevant": 3.0, "k": 2.0, "hits": 1.0}
    assert retrieval_query.drill_total(steps, "AP@K") == (0.5, 0.5)  # 1/1 over min(3, 2)
    ap = metrics.average_precision_at_k(ds.y_true, ds.score(), k=2, denominator="min_m_k")
    assert retrieval_query.drill_total(steps, "AP@K")[0] == pytest.approx(ap[0])
    show = retrieval_query.step_display(steps, "AP@K")
    assert list(show.columns) == [
        "position",
        "item name",
        "score",
        "grade",
        "relevant",
        "tie_group",
        "in_top_k",
        *retrieval_query.STEP_COLUMNS["AP@K"],
    ]
    assert show["item name"].tolist() == ["doc1", "doc2", "doc3", "doc4", "doc5"]


@pytest.mark.parametrize("ties", ["column", "tie-averaged", "pessimistic"])
@pytest.mark.parametrize("denominator", list(retrieval.DENOMINATORS))
def test_each_query_steps_give_its_row_and_the_denominator_of_metrics(ties, denominator):
    ds = load_sample("diabetes_ranking")
    s = retrieval.Settings(k=4, denominator=denominator, level=2, max_grade=3.0, ties=ties)
    per_query, _ = retrieval.tables(ds, "tree", s)
    for q in range(ds.n_samples):
        steps = retrieval_query.steps_table(ds, "tree", q, s)
        n_rel = int(per_query["relevant"].iloc[q])
        for drill, col in retrieval_query.DRILL_METRIC.items():
            _, value = retrieval_query.drill_total(steps, drill)
            assert value == pytest.approx(per_query[col].iloc[q], abs=1e-12), (q, drill)
        terms = retrieval_query.formula_terms(steps, "AP@K")
        den = retrieval_query.ap_denominator(steps, n_rel, denominator, 4)
        if ties != "tie-averaged":  # a fixed order: the formula's terms and denominator
            ap = sum(h / p for h, p in terms) / den if den else 0.0
            assert ap == pytest.approx(per_query["AP@K"].iloc[q], abs=1e-12), q
            want = {"min_m_k": min(n_rel, 4), "relevant": n_rel, "k": 4, "hits": len(terms)}
            assert den == want[denominator]


def test_map_terms_and_empty_queries():
    ds = load_sample("diabetes_ranking")
    per_query, _ = retrieval.tables(ds, "model", retrieval.Settings(k=5, level=3, max_grade=3.0))
    n_empty = int((ds.y_true < 3).all(axis=1).sum())
    assert n_empty > 0 and retrieval.empty_queries(per_query) == n_empty
    assert len(retrieval_query.map_terms(per_query, "zero")) == ds.n_samples
    kept = retrieval_query.map_terms(per_query, "drop")
    assert len(kept) == ds.n_samples - n_empty
    assert kept.mean() == pytest.approx(retrieval.headline(per_query, "drop")["MAP@K"])


# ---------------------------------------------------------------------------
# per query, worst first; URL values
# ---------------------------------------------------------------------------
def test_worst_first_sorts_by_metric_then_query_id():
    ds = load_sample("diabetes_ranking")
    per_query, _ = retrieval.tables(ds, "tree", retrieval.Settings(k=3, max_grade=3.0))
    order = retrieval_query.worst_first(per_query, "AP@K", retrieval_query.id_rank(ds))
    rows = retrieval_query.worst_first_rows(ds, per_query, order)
    ref = per_query.assign(query=list(ds.sample_ids))
    ref = ref.sort_values(["AP@K", "query"], kind="stable").reset_index(drop=True)
    assert rows["query"].tolist() == ref["query"].tolist()
    np.testing.assert_array_equal(rows["AP@K"], ref["AP@K"])
    assert list(rows.columns) == ["query", *CONVENTION_METRICS, "relevant"]
    assert sorted(retrieval_query.id_rank(ds).tolist()) == list(range(ds.n_samples))


def test_url_parsers():
    assert retrieval.whole_in(1, 10)("10") == 10
    for bad in ("0", "11", "2.5", "five"):
        with pytest.raises(ValueError):
            retrieval.whole_in(1, 10)(bad)
    assert retrieval.grade_from(3.0)("3") == 3.0
    for bad in ("2.9", "inf", "nan"):
        with pytest.raises(ValueError):
            retrieval.grade_from(3.0)(bad)
    assert retrieval.at_least(3.0)(-1) == 3.0 and retrieval.at_least(3.0)(7) == 7.0
    with pytest.raises(ValueError):
        retrieval.at_least(3.0)(float("inf"))


# ---------------------------------------------------------------------------
# layering and the declared caches
# ---------------------------------------------------------------------------
def test_page_models_import_no_streamlit():
    code = (
        "import sys, explorer.pages.retrieval, explorer.pages.data, explorer.pages.home; "
        "sys.exit('streamlit' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_cached_tables_are_shared_and_equal_the_page_model():
    ds = load_sample("seed002_map")
    s = retrieval.Settings(k=3, max_grade=1.0)
    per_query, curve = cache.retrieval.tables(ds, "model", s, "zero")
    again = cache.retrieval.tables(ds, "model", s, "zero")
    assert again[0] is per_query
    ref_pq, ref_curve = retrieval.tables(ds, "model", s, "zero")
    pd.testing.assert_frame_equal(per_query, ref_pq)
    pd.testing.assert_frame_equal(curve, ref_curve)
    # K moves: the curves are kept, the columns computed at the new K
    moved, _ = cache.retrieval.tables(ds, "model", replace(s, k=5), "zero")
    np.testing.assert_allclose(moved["AP@K"], [(1 + 2 / 3 + 3 / 5) / 3, 0.5], **TOL)
    # AP@3: (1/1 + 2/3) / 3 and (1/2) / 2: query 1 is the worst
    assert cache.retrieval.worst_first(ds, "model", s, "AP@K", "zero").tolist() == [1, 0]
    # the curve's table and figure are keyed without K
    key = s.curve_key("zero")
    assert cache.retrieval.curve_table(ds, "model", key) is curve
    assert replace(s, k=5).curve_key("zero") == key
    # the same numbers under other ids are another key: their rows show their own ids
    other = Dataset("other", "graded", ds.y_true, dict(ds.scores), sample_ids=("x", "y"))
    assert cache.retrieval.levels(other) == cache.retrieval.levels(ds) == (1,)
    pq_other, _ = cache.retrieval.tables(other, "model", s, "zero")
    assert pq_other is not per_query
    rows = retrieval_query.worst_first_rows(other, pq_other, np.array([1, 0]))
    assert rows["query"].tolist() == ["y", "x"]


def test_variants_of_click_counts_offer_the_linear_gain_and_spread_levels():
    y = np.array([[0, 1, 2, 3, 500, 1500], [7, 9, 11, 13, 20, 40]])
    ds = Dataset("clicks", "graded", y, {"m": np.arange(12.0).reshape(2, 6)})
    s = retrieval.Settings(k=3, max_grade=2000.0)
    rows = retrieval.variants(ds, s, "zero", levels=retrieval.levels(ds))
    assert [c for sw, c, _, _ in rows if sw == "NDCG gain"] == ["linear"]
    levels = [r.level for sw, _, r, _ in rows if sw == "relevant from grade"]
    assert levels == [1, 2, 3, 7, 9, 13, 20, 40, 500, 1500]
    assert [c for sw, c, _, _ in rows if sw == "ERR max grade"] == ["1500", "1501", "2000"]
    board = retrieval.switchboard(ds, "m", rows)
    top = board[board["convention"] == "1500"].iloc[0]
    # relevant from grade 1500: one item, ranked first of query 0 (the highest score)
    ref = retrieval_means(full(ds, "m", replace(s, level=1500)))
    assert top["MAP@K"] == pytest.approx(ref["AP@K"]) and top["MRR"] == pytest.approx(ref["RR"])
    assert (top["MAP@K"], top["MRR"]) == (0.5, 0.5)  # query 1 has none: it scores 0


def test_derivations_keep_the_queries_the_means_keep():
    y = np.array([[0, 0, 0], [1, 0, 2], [0, 1, 0], [2, 2, 0]])
    s = np.array([[0.1, 0.2, 0.3], [0.3, 0.9, 0.1], [0.5, 0.4, 0.1], [0.2, 0.8, 0.5]])
    ds = Dataset("four", "graded", y, {"m": s})
    per_query, _ = retrieval.tables(ds, "m", retrieval.Settings(k=2))
    for empty, rows in (("zero", [0, 1, 2, 3]), ("drop", [1, 2, 3])):
        means = retrieval.headline(per_query, empty)
        d = retrieval.derivations(per_query, means, empty)
        assert list(d) == [label for label, _ in retrieval.HEADLINE]
        want = metrics.average_precision_at_k(y, s, k=2)[rows]
        assert d["MAP@K"].terms == tuple(fmt(v) for v in want)
        assert d["MAP@K"].count == len(rows) and d["MAP@K"].value == means["MAP@K"]
        assert d["MAP@K"].text().endswith(f"= {fmt(want.mean())}")


def test_known_query_accepts_what_state_member_of_the_ids_accepts():

    ds = Dataset(
        "ids", "graded", np.zeros((4, 2)), {"m": np.zeros((4, 2))}, sample_ids=("a", "b", "a", "7")
    )
    rows = retrieval_query.query_rows(ds)
    assert rows == {"a": 0, "b": 1, "7": 3}  # a repeated id is its first row, as ids.index
    check, member = retrieval_query.known_query(rows), url.member(ds.sample_ids)
    for value in ("a", "7", "c", 7, None, "", True):
        try:
            want = member(value)
        except ValueError:
            with pytest.raises(ValueError):
                check(value)
        else:
            assert check(value) == want


def test_worked_examples_of_the_revision_sheet_and_the_notes():
    ds = load_sample("seed002_map")
    t = retrieval_per_query(ds.y_true, ds.score(), k=5)
    assert [fmt(v) for v in t["AP@K"]] == ["0.7556", "0.5000"]
    assert fmt(retrieval_means(t)["AP@K"]) == "0.6278"
    y = [[1, 1, 0, 0, 1, 0, 0, 0, 0, 0]]
    s = [list(range(10, 0, -1))]
    assert retrieval_per_query(y, s, k=10, denominator="k")["AP@K"][0] == pytest.approx(0.26)
