"""The DCG & NDCG page model (explorer.pages.dcg) and its caches, without AppTest."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import metrics
from explorer.charts import dcg as charts
from explorer.datasets import Dataset
from explorer.formatting import table_number
from explorer.pages import dcg, dcg_examples
from explorer.pages.dcg import Settings
from explorer.samples import load_sample
from explorer.ui import cache
from metrics import dcg_tie_bounds_per_sample, exponential_gain
from tests.conftest import graded_case, weights

SEED = load_sample("seed001_dcg")  # relevance a=10, b=0, c=0, d=1, e=5 in both rows
L2 = math.log2


def graded(seed: int = 0, n: int = 30, m: int = 6, *, weighted: bool = False) -> Dataset:
    """A tied graded dataset with ids, label names and (optionally) sample weights."""
    y, s = graded_case(seed, n=n, m=m)
    rng = np.random.default_rng(seed)
    return Dataset(
        "tied",
        "graded",
        y,
        {"m": s, "other": rng.random(s.shape)},
        sample_weight=weights(seed, n) if weighted else None,
        label_names=tuple(f"L{j}" for j in range(m)),
        sample_ids=tuple(f"q{i}" for i in range(n)),
    )


SETTINGS = [
    Settings("m"),
    Settings("m", k=2, log_base=10.0),
    Settings("m", k=3, ignore_ties=True),
    Settings("m", k=1, log_base=math.e, exponential=True),
    Settings("other", k=4, log_base=3.5, ignore_ties=True, exponential=True),
]


# ------------------------------------------------------------------ settings from a link
def test_link_values_parse_and_refuse():
    assert [dcg.parse_k(v) for v in ("1", " 7 ", "all", "ALL", "none", "")] == [
        1,
        7,
        None,
        None,
        None,
        None,
    ]
    for bad in ("0", "-2", "2.5", "x"):
        with pytest.raises(ValueError):
            dcg.parse_k(bad)
    assert [dcg.parse_base_choice(v) for v in ("2", "e", "10", "3.5", "1e3")] == [
        "2",
        "e",
        "10",
        "other",
        "other",
    ]
    with pytest.raises(ValueError):
        dcg.parse_base_choice("ten")
    assert [dcg.parse_bool(v) for v in ("1", "TRUE", "yes", " on ", "0", "no", "")] == [
        True,
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert dcg.parse_gain("exponential") == dcg.parse_gain("2^rel - 1") == "2^rel - 1"
    assert dcg.parse_gain("linear") == "as given (scikit-learn)"
    with pytest.raises(ValueError):
        dcg.parse_gain("log")
    assert dcg.BASE_VALUES["e"] == math.e


# ------------------------------------------------------------------ every sample
@pytest.mark.parametrize("settings", SETTINGS, ids=str)
@pytest.mark.parametrize("weighted", [False, True])
def test_per_sample_table_and_headline_equal_metrics(settings, weighted):
    ds = graded(1, weighted=weighted)
    y = exponential_gain(ds.y_true) if settings.exponential else ds.y_true
    s, w = ds.score(settings.model), ds.sample_weight
    k, b, ties = settings.k, settings.log_base, settings.ignore_ties
    table = dcg.per_sample_table(ds, settings)
    assert table["row"].tolist() == list(range(ds.n_samples))
    assert table["sample"].tolist() == list(ds.sample_ids)
    kw = {"k": k, "ignore_ties": ties}
    np.testing.assert_allclose(table["DCG"], metrics.dcg_per_sample(y, s, log_base=b, **kw))
    np.testing.assert_allclose(table["ideal DCG"], metrics.dcg_per_sample(y, y, k=k, log_base=b))
    np.testing.assert_allclose(table["NDCG"], metrics.ndcg_per_sample(y, s, **kw), atol=1e-12)
    low, high = dcg_tie_bounds_per_sample(y, s, k=k, log_base=b)
    np.testing.assert_allclose(table["pessimistic DCG"], low)
    np.testing.assert_allclose(table["optimistic DCG"], high)
    assert table["no relevant item"].tolist() == (y.sum(axis=1) == 0).tolist()
    assert ("weight" in table) is weighted
    if weighted:
        np.testing.assert_array_equal(table["weight"], w)

    head = dcg.headline(ds, table)
    want = metrics.dcg_score(y, s, log_base=b, sample_weight=w, **kw)
    assert head.dcg == pytest.approx(want, rel=1e-12)
    assert head.ndcg == pytest.approx(metrics.ndcg_score(y, s, sample_weight=w, **kw), rel=1e-12)
    assert head.no_relevant == ("q0",)  # graded_case's row 0 has no relevant item


def test_per_sample_table_reuses_a_given_sort():
    ds, settings = graded(2), Settings("other", k=3)
    ranked = dcg.ranking(ds, "other")
    pd.testing.assert_frame_equal(
        dcg.per_sample_table(ds, settings, ranked), dcg.per_sample_table(ds, settings)
    )
    # the sort of another model gives that model's numbers: the sort is what is used
    other = dcg.per_sample_table(ds, settings, dcg.ranking(ds, "m"))
    pd.testing.assert_frame_equal(other, dcg.per_sample_table(ds, Settings("m", k=3)))


def test_log_base_one_is_refused():
    with pytest.raises(metrics.MetricInputError, match="log_base must not be 1"):
        dcg.per_sample_table(SEED, Settings("model", log_base=1.0))


def test_worst_first_sorts_ndcg_then_dcg_and_puts_empty_samples_last():
    ds = load_sample("digit_properties")
    table = dcg.per_sample_table(ds, Settings("model", k=2))
    worst = dcg.worst_first(table)
    assert sorted(worst["row"]) == list(range(ds.n_samples))
    empty = ds.y_true.sum(axis=1) == 0
    assert worst["no relevant item"].tolist() == sorted(empty.tolist())
    order = np.lexsort((table["DCG"], table["NDCG"], table["no relevant item"]))
    assert worst["row"].tolist() == order.tolist()  # lexsort is stable too
    scored = worst[~worst["no relevant item"]]
    assert scored["NDCG"].is_monotonic_increasing
    ndcg = metrics.ndcg_per_sample(ds.y_true, ds.score(), k=2)
    assert worst["NDCG"].iloc[0] == ndcg[~empty].min()
    assert dcg.headline(ds, table).no_relevant == tuple(np.array(ds.sample_ids)[empty])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [None, 1, 2])
def test_worst_row_is_the_first_row_of_worst_first(seed, k):
    """Ties of NDCG (and of DCG) among the lowest, samples with no relevant item, and a
    dataset where no sample has one: the same row as the sorted table's first."""
    ds = graded(seed, n=40, m=4)
    table = dcg.per_sample_table(ds, Settings("m", k=k))
    assert dcg.worst_row(table) == int(dcg.worst_first(table)["row"].iloc[0])
    ndcg = metrics.ndcg_per_sample(ds.y_true, ds.score("m"), k=k)
    has_gain = ds.y_true.sum(axis=1) > 0
    assert ndcg[dcg.worst_row(table)] == ndcg[has_gain].min()
    none = Dataset("none", "graded", np.zeros((5, 3), int), {"m": np.eye(5, 3)})
    table = dcg.per_sample_table(none, Settings("m", k=k))
    assert dcg.worst_row(table) == int(dcg.worst_first(table)["row"].iloc[0]) == 0


# ------------------------------------------------------------------ scikit-learn's examples
def test_seed_examples_are_scikit_learns_numbers():
    # row 0 orders e, d, c, b, a: 5/log2(2) + 1/log2(3) + 10/log2(6)
    full = 5 + 1 / L2(3) + 10 / L2(6)
    ex = dcg_examples.seed_examples(SEED)
    assert [(e.printed, e.row, e.k, e.ignore_ties) for e in ex] == list(dcg_examples.SEED_EXAMPLES)
    assert ex[0].value == pytest.approx(full) and round(ex[0].value, 3) == 9.499
    assert ex[1].value == pytest.approx(5 + 1 / L2(3)) and round(ex[1].value, 3) == 5.631
    assert ex[2].value == pytest.approx(7.5)  # a and e tie at the top: (10 + 5) / 2
    assert ex[3].value == pytest.approx(5.0)  # ignore_ties: e (higher column) first
    assert (ex[3].optimistic, ex[3].averaged) == pytest.approx((10.0, 7.5))
    assert [names for names in ex[0].steps["item"]] == [4, 3, 2, 1, 0]
    assert ex[3].steps["item"].iloc[0] == 4
    for e in ex:
        assert e.steps["running_sum"].iloc[-1] == pytest.approx(e.value)


def test_averaging_text_and_steps_view_of_seed_row_1():
    steps = metrics.dcg_steps(SEED.y_true[1], SEED.score()[1], k=1)
    assert dcg.averaging_text(steps) == [
        "(10 + 5) / 2 = 7.5",
        '"',
        "(0 + 0 + 1) / 3 = 0.3333",
        '"',
        '"',
    ]
    view = dcg.steps_view(steps, SEED.label_names, SEED.y_true[1], averaged=True)
    assert list(view.columns) == [
        "position",
        "item",
        "score",
        "grade",
        "gain",
        "tie group",
        "tie size",
        "gain used",
        "averaging",
        "discount",
        "contribution",
        "running sum",
        "in top k",
    ]
    assert view["item"].tolist() == ["a", "e", "b", "c", "d"]
    assert view["grade"].tolist() == [10, 5, 0, 0, 1]
    assert view["gain used"].tolist() == pytest.approx([7.5, 7.5, 1 / 3, 1 / 3, 1 / 3])
    assert view["in top k"].tolist() == ["yes", "no", "no", "no", "no"]
    assert view["running sum"].iloc[-1] == 7.5
    plain = dcg.steps_view(steps, SEED.label_names, SEED.y_true[1], averaged=False)
    assert "averaging" not in plain and len(plain.columns) == 12


def test_tie_groups_of_seed_row_1():
    steps = metrics.dcg_steps(SEED.y_true[1], SEED.score()[1])
    top, rest = dcg.tie_groups(steps, SEED.label_names)
    assert (top.group, top.first, top.last, top.items) == (0, 1, 2, ("a", "e"))
    assert top.averaging == "(10 + 5) / 2 = 7.5" and top.score == 1.0
    assert top.discounts == pytest.approx((1.0, 1 / L2(3)))
    assert top.total == pytest.approx(7.5 * (1 + 1 / L2(3)))
    assert (rest.first, rest.last, rest.items, rest.after_k) == (3, 5, ("b", "c", "d"), 0)
    assert rest.mean_gain == pytest.approx(1 / 3)
    assert rest.total == pytest.approx((1 / L2(4) + 1 / L2(5) + 1 / L2(6)) / 3)
    cut = dcg.tie_groups(metrics.dcg_steps(SEED.y_true[1], SEED.score()[1], k=3), "abcde")
    assert [g.after_k for g in cut] == [0, 2]
    assert dcg.tie_groups(metrics.dcg_steps(SEED.y_true[0], SEED.score()[0]), "abcde") == []


# ------------------------------------------------------------------ one sample
@pytest.mark.parametrize("settings", SETTINGS, ids=str)
def test_sample_steps_end_at_the_tables_numbers(settings):
    ds = graded(3)
    table = dcg.per_sample_table(ds, settings)
    y = exponential_gain(ds.y_true) if settings.exponential else ds.y_true
    for row in (0, 4, 17):
        one = dcg.sample_steps(ds, settings, row, table)
        np.testing.assert_array_equal(one.gains, y[row])
        assert one.steps["running_sum"].iloc[-1] == pytest.approx(one.dcg, abs=1e-12)
        assert one.ideal["running_sum"].iloc[-1] == pytest.approx(one.ideal_dcg, abs=1e-12)
        assert (one.dcg, one.ideal_dcg, one.ndcg) == tuple(
            table.loc[row, ["DCG", "ideal DCG", "NDCG"]]
        )
        assert one.ideal["relevance"].is_monotonic_decreasing
        assert one.steps["in_top_k"].sum() == (settings.k or ds.n_labels)
    assert dcg.sample_steps(ds, settings, 0, table).ideal_dcg == 0


def _brute_force(gains, scores, k, base):
    """Pessimistic, mean and optimistic DCG over every order of the tied items."""
    groups = [np.flatnonzero(scores == v) for v in sorted(set(scores), reverse=True)]
    disc = [1 / math.log(p + 2, base) if k is None or p < k else 0 for p in range(len(gains))]
    dcgs = [
        sum(gains[j] * d for j, d in zip([j for g in perm for j in g], disc, strict=True))
        for perm in itertools.product(*(itertools.permutations(g) for g in groups))
    ]
    return min(dcgs), float(np.mean(dcgs)), max(dcgs)


@pytest.mark.parametrize("settings", SETTINGS, ids=str)
def test_tie_comparison_brackets_the_averaged_dcg(settings):
    ds = graded(4, n=12, m=5)
    table = dcg.per_sample_table(ds, settings)
    for row in range(ds.n_samples):
        one = dcg.sample_steps(ds, settings, row, table)
        ties = dcg.tie_comparison(ds, settings, row, table, one.gains)
        assert list(ties.dcg) == [
            "pessimistic",
            "tie-averaged",
            "ignore_ties",
            "input order",
            "optimistic",
        ]
        scores = ds.score(settings.model)[row]
        low, mean, high = _brute_force(one.gains, scores, settings.k, settings.log_base)
        assert (ties.dcg["pessimistic"], ties.dcg["optimistic"]) == pytest.approx((low, high))
        assert ties.dcg["tie-averaged"] == pytest.approx(mean)
        ignored = metrics.dcg_per_sample(
            one.gains[None],
            scores[None],
            k=settings.k,
            log_base=settings.log_base,
            ignore_ties=True,
        )[0]
        assert ties.dcg["ignore_ties"] == pytest.approx(ignored)
        # LightGBM's stable sort: tied items in the input order, lower column first
        first = sorted(range(len(scores)), key=lambda j: -scores[j])
        disc = [
            1 / math.log(p + 2, settings.log_base) if settings.k is None or p < settings.k else 0
            for p in range(len(first))
        ]
        stable = sum(one.gains[j] * d for j, d in zip(first, disc, strict=True))
        assert ties.dcg["input order"] == pytest.approx(stable)
        assert ties.input_order["item"].tolist()[: len(first)] == first
        assert ties.has_ties == (len(set(scores)) < len(scores))
        assert ties.averaged["running_sum"].iloc[-1] == pytest.approx(mean)
        assert ties.ignored["running_sum"].iloc[-1] == pytest.approx(ignored)
        assert set(ties.orders["item"]) == set(ds.label_names)
        moved = ties.moved
        assert (moved["position (averaged table)"] != moved["position (ignore_ties)"]).all()


def test_tie_comparison_of_seed_row_1_at_k_1():
    settings = Settings("model", k=1)
    table = dcg.per_sample_table(SEED, settings)
    ties = dcg.tie_comparison(SEED, settings, 1, table, SEED.y_true[1])
    assert ties.dcg == pytest.approx(
        {
            "pessimistic": 5.0,
            "tie-averaged": 7.5,
            "ignore_ties": 5.0,
            "input order": 10.0,  # a (column 0) before e: LightGBM's order
            "optimistic": 10.0,
        }
    )
    assert ties.moved["position (input order)"].tolist() == [1, 3, 5, 2]
    assert ties.moved["item"].tolist() == ["a", "b", "d", "e"]
    assert ties.orders["contribution_optimistic"].sum() == 10.0
    none = dcg.tie_comparison(SEED, settings, 0, table, SEED.y_true[0])
    assert not none.has_ties and none.moved.empty


# ------------------------------------------------------------------ the step tables' styler
def test_steps_styler_shades_tie_groups_and_greys_out_after_k():
    steps = metrics.dcg_steps(SEED.y_true[1], SEED.score()[1], k=1)
    view = dcg.steps_view(steps, SEED.label_names, SEED.y_true[1], averaged=True)
    html = charts.steps_styler(view).to_html()
    assert charts.TIE_CSS[0].split(": ")[1] in html  # row 1 (first tie group, inside k)
    assert "color: #9a9a9a" in html  # rows after k
    plain = charts.steps_styler(view, ties=False).to_html()
    assert charts.TIE_CSS[0].split(": ")[1] not in plain
    # gain used: up to four decimals, no zeros padded (7.5, not 7.5000); a whole one as such
    assert ">7.5</td>" in html and "7.5000" not in html
    assert f">{table_number(view['discount'].iloc[0])}</td>" in html


# ------------------------------------------------------------------ caches
def test_cached_functions_return_the_page_models_values():
    ds, settings = graded(5), Settings("m", k=2, ignore_ties=True)
    assert cache.dcg.ranking(ds, "m") is cache.dcg.ranking(ds, "m")  # shared, not copied
    table = cache.dcg.per_sample_table(ds, settings)
    pd.testing.assert_frame_equal(table, dcg.per_sample_table(ds, settings))
    pd.testing.assert_frame_equal(
        cache.dcg.worst_first(ds, settings), dcg.worst_first(dcg.per_sample_table(ds, settings))
    )
    other = cache.dcg.per_sample_table(ds, Settings("m", k=2))  # keyed by every setting
    assert not np.allclose(other["DCG"], table["DCG"])
    renamed = Dataset("renamed", "graded", ds.y_true, dict(ds.scores), sample_ids=ds.sample_ids)
    assert cache.dcg.per_sample_table(renamed, settings)["sample"].tolist() == list(ds.sample_ids)


# ------------------------------------------------------------------ the LightGBM / XGBoost preset
def _lightgbm(ds: Dataset, k: int) -> Settings:
    return Settings(
        ds.model_names[0], k=k, ignore_ties=True, exponential=True, preset=dcg.PRESETS[1]
    )


def test_lightgbm_preset_equals_lightgbms_own_ndcg_on_its_example():
    import json
    from pathlib import Path

    from explorer.io.ltr import read_ranking

    folder = Path(__file__).parents[2] / "data" / "lightgbm"
    expected = json.loads((folder / "eval.json").read_text())["ndcg"]["test"]
    ds = read_ranking(folder / "rank.test", folder / "rank.test.pred", folder / "rank.test.query")
    for k in (1, 3, 5):
        head = dcg.headline(ds, dcg.per_sample_table(ds, _lightgbm(ds, k)))
        assert head.ndcg == pytest.approx(expected[f"ndcg@{k}"], abs=1e-12)


def test_lightgbm_preset_equals_lightgbm_on_tied_scores_and_empty_queries():
    """LightGBM's own ndcg@k of given scores (init_score, a round that adds nothing) on
    queries of 2 to 8 documents, scores with many ties and two queries with no relevant
    document: the preset's ties in input order and NDCG 1 for an empty query."""
    lgb = pytest.importorskip("lightgbm")
    from explorer.io.uploads import read_upload

    rng = np.random.default_rng(3)
    sizes = rng.integers(2, 9, size=25)
    y = rng.integers(0, 4, size=sizes.sum())
    y[: sizes[0] + sizes[1]] = 0  # the first two queries have no relevant document
    s = rng.integers(0, 4, size=sizes.sum()) / 4.0
    train = lgb.Dataset(rng.random((len(y), 3)), y, group=sizes, init_score=s)
    params = {"objective": "lambdarank", "metric": "ndcg", "ndcg_eval_at": [1, 3, 5]}
    params |= {"learning_rate": 1e-300, "verbose": -1, "num_threads": 1, "min_data_in_leaf": 1}
    result: dict = {}
    lgb.train(
        params,
        train,
        1,
        valid_sets=[train],
        valid_names=["t"],
        callbacks=[lgb.record_evaluation(result)],
    )
    qid = np.repeat(np.arange(len(sizes)), sizes)
    rows = [f"{q},d{i},{g},{float(v)!r}" for i, (q, g, v) in enumerate(zip(qid, y, s, strict=True))]
    ds = read_upload("t.csv", "\n".join(["qid,doc,label,score", *rows]).encode())
    for k in (1, 3, 5):
        table = dcg.per_sample_table(ds, _lightgbm(ds, k))
        want = float(result["t"][f"ndcg@{k}"][-1])
        assert dcg.headline(ds, table).ndcg == pytest.approx(want, abs=1e-12)
        assert table["NDCG"].iloc[:2].tolist() == [1.0, 1.0]
        # scikit-learn's order of ignored ties gives another number on these scores
        sk = Settings(ds.model_names[0], k=k, ignore_ties=True, exponential=True)
        assert dcg.headline(ds, dcg.per_sample_table(ds, sk)).ndcg != pytest.approx(want)
    # the step table lists the tied documents in the order used: the file's
    steps = dcg.sample_steps(ds, _lightgbm(ds, 5), 2, table).steps
    kept = ds.retrieved[2]
    by_file = sorted(np.flatnonzero(kept), key=lambda j: -ds.score()[2][j])
    assert steps["item"].tolist()[: len(by_file)] == by_file
