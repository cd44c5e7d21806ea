"""The Top-K and DCG pages' models on trec_eval's own test collection, past the run's depth.

Oracle: trec_eval's expected output ``out.test.aq`` (``-m all_trec -q`` on
``results.test``, depth 500 per query, judged relevant documents it never retrieved),
copied unchanged into tests/data/trec_eval/.
"""

from __future__ import annotations

import pandas as pd
import pytest

from explorer import intervals
from explorer.io import read_trec
from explorer.pages import dcg, home, retrieval, retrieval_query
from tests.metrics.test_trec import DATA, _lines

#: trec_eval's measure of each per-query column (its map_cut divides by all relevant).
MEASURES = {"P@K": "P_{k}", "R@K": "recall_{k}", "NDCG@K": "ndcg_cut_{k}", "AP@K": "map_cut_{k}"}


@pytest.fixture(scope="module")
def run():
    return read_trec(DATA / "qrels.test", DATA / "results.test")


@pytest.fixture(scope="module")
def trec_eval():
    return _lines((DATA / "out.test.aq").read_text().splitlines())


def test_the_run_carries_its_mask_and_document_ids(run):
    assert run.sample_ids == ("301", "302", "303")
    assert run.retrieved.sum(axis=1).tolist() == [500, 500, 500]
    assert retrieval.max_k(run) == 1000  # trec_eval's depth, past the matrix's width
    # each query's retrieved slots are its run lines, best score first (trec_eval's order)
    lines = pd.read_csv(DATA / "results.test", sep=r"\s+", header=None, dtype={0: str})
    for row, qid in enumerate(run.sample_ids):
        mine = lines[lines[0] == qid].sort_values([4, 2], ascending=False)
        assert run.item_ids[row][run.retrieved[row]].tolist() == mine[2].tolist()


@pytest.mark.parametrize("k", [5, 30, 100, 500, 1000])
def test_per_query_and_means_equal_trec_eval_at_every_cut_off(run, trec_eval, k):
    settings = retrieval.Settings(k=k, denominator="relevant", ties="column")
    per_query, curve = retrieval.tables(run, "STANDARD", settings)
    for column, measure in MEASURES.items():
        name = measure.format(k=k)
        for row, qid in enumerate(run.sample_ids):
            want = float(trec_eval[name, qid])
            assert per_query[column][row] == pytest.approx(want, abs=5e-5), (name, qid)
        means = retrieval.headline(per_query)
        label = {"P@K": "P@K", "R@K": "R@K", "NDCG@K": "NDCG@K", "AP@K": "MAP@K"}[column]
        assert means[label] == pytest.approx(float(trec_eval[name, "all"]), abs=5e-5), name
    assert len(curve) == 1000  # the curve reaches trec_eval's depth too
    if k == 1000:  # trec_eval's uncut map and ndcg: every retrieved document
        for row, qid in enumerate(run.sample_ids):
            assert per_query["AP@K"][row] == pytest.approx(float(trec_eval["map", qid]), abs=5e-5)
            ndcg = float(trec_eval["ndcg", qid])
            assert per_query["NDCG@K"][row] == pytest.approx(ndcg, abs=5e-5)
            rr = float(trec_eval["recip_rank", qid])
            assert per_query["RR"][row] == pytest.approx(rr, abs=5e-5)


def test_the_step_table_names_documents_and_never_ranks_the_unretrieved(run):
    settings = retrieval.Settings(k=1000, denominator="relevant", max_grade=1.0)
    steps = retrieval_query.steps_table(run, "STANDARD", 0, settings)
    seen = steps["retrieved"].to_numpy()
    assert seen[:500].all() and not seen[500:].any()
    # the unretrieved relevant documents of 301 (474 relevant, 71 retrieved) are named
    gone = steps.loc[~steps["retrieved"] & (steps["grade"] > 0), "item name"]
    assert len(gone) == 474 - 71 and all(gone.str.len() > 0)
    assert (steps.loc[~steps["retrieved"], "relevant"] == 0).all()
    show = retrieval_query.step_display(steps.head(3), "AP@K")
    assert "retrieved" not in show.columns  # the first three were retrieved
    assert show["item name"].tolist() == steps["item name"].head(3).tolist()


@pytest.mark.parametrize("k", [10, 100, 1000])
def test_the_dcg_page_gives_trec_eval_s_ndcg(run, trec_eval, k):
    settings = dcg.Settings("STANDARD", k=k)  # ties averaged, in column (trec_eval) order
    table = dcg.per_sample_table(run, settings)
    for row, qid in enumerate(run.sample_ids):
        want = float(trec_eval[f"ndcg_cut_{k}", qid])
        assert table["NDCG"][row] == pytest.approx(want, abs=5e-5), qid
    one = dcg.sample_steps(run, settings, 0, table)
    assert one.steps["running_sum"].iloc[-1] == pytest.approx(table["DCG"][0])
    view = dcg.steps_view(one.steps, run.item_names(0), run.y_true[0], averaged=False)
    assert view["item"].tolist()[:500] == run.item_ids[0][:500].tolist()  # the run's order
    assert (view["retrieved"].iloc[500:] == "no").all()


def test_home_and_its_intervals_read_the_mask(run, trec_eval):
    got = {n.label: n.value for n in home.headline(run)}
    assert got["NDCG"] == pytest.approx(float(trec_eval["ndcg", "all"]), abs=5e-5)
    assert got["MRR"] == pytest.approx(float(trec_eval["recip_rank", "all"]), abs=5e-5)
    ci = intervals.home(run)
    assert ci["NDCG"].estimate == pytest.approx(got["NDCG"])
    assert ci["NDCG"].low <= got["NDCG"] <= ci["NDCG"].high
