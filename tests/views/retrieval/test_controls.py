"""Top-K retrieval page: K, the model, each convention and the presets move the metrics;
a link seeds them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import (
    CONVENTION_METRICS,
    retrieval_curve,
    retrieval_per_query,
)
from tests.conftest import APP, metric
from tests.views.retrieval.helpers import (
    PAGE,
    expected,
    expected_map,
    open_page,
    shown,
    shown_tables,
)


def test_k_model_and_each_convention_move_the_metrics():
    ds = load_sample("diabetes_ranking")
    at = open_page("diabetes_ranking")
    opts = {"k": 5, "denominator": "min_m_k", "level": 1, "gain": "linear", "ties": "column"}
    assert shown(at) == expected(ds, **opts)
    at.slider(key="ret_k").set_value(3).run()
    assert not at.exception
    opts["k"] = 3
    assert shown(at) == expected(ds, **opts)
    assert at.query_params["k"] == ["3"] or at.query_params["k"] == "3"
    at.selectbox(key="ret_model").set_value("tree").run()
    assert shown(at) == expected(ds, "tree", **opts)
    for key, widget, value, opt in [
        ("ap_denominator", "selectbox", "relevant", ("denominator", "relevant")),
        ("tie_mode", "selectbox", "tie-averaged", ("ties", "tie-averaged")),
        ("gain", "radio", "exponential", ("gain", "exponential")),
        ("rel_level", "number_input", 3, ("level", 3)),
        ("max_grade", "number_input", 5.0, ("max_grade", 5.0)),
        ("tie_mode", "selectbox", "optimistic", ("ties", "optimistic")),
    ]:
        getattr(at, widget)(key=f"ret_{key}").set_value(value).run()
        assert not at.exception, key
        opts[opt[0]] = opt[1]
        assert shown(at) == expected(ds, "tree", **opts), key
        assert at.session_state["ret_preset"] == "custom"
    before = shown(at)
    at.radio(key="ret_empty_query").set_value("drop").run()
    assert not at.exception
    assert shown(at) == expected(ds, "tree", empty="drop", **opts)
    assert before["MAP@K"] != shown(at)["MAP@K"]  # grade >= 3: one query is empty


def test_cached_columns_follow_every_control_and_come_back():
    """The page keeps its columns by family (P/R/hit rate/AP/RR, ERR, NDCG) and its
    curves apart from K: after each change, and after going back to settings met
    before, the whole shown per-query table and curve equal a fresh computation."""
    ds = load_sample("diabetes_ranking")
    at = open_page("diabetes_ranking")
    top = float(ds.y_true.max())
    opts = {"k": 5, "denominator": "min_m_k", "level": 1, "gain": "linear", "ties": "column"}
    opts["max_grade"] = top
    state = {"empty": "zero"}

    def check(label):
        assert not at.exception, label
        table, curve = shown_tables(at)
        ref = retrieval_per_query(ds.y_true, ds.score(), **opts)
        ref.index = list(ds.sample_ids)
        ref = ref.loc[table["query"].tolist()]
        for col in [*CONVENTION_METRICS, "relevant"]:
            np.testing.assert_allclose(table[col], ref[col], rtol=0, atol=1e-12, err_msg=label)
        no_k = {n: v for n, v in opts.items() if n != "k"}
        c_ref = retrieval_curve(
            ds.y_true, ds.score(), k_max=ds.n_labels, empty=state["empty"], **no_k
        )
        assert set(curve) == set(c_ref.columns.drop("K"))
        for name, y in curve.items():
            np.testing.assert_allclose(y, c_ref[name], rtol=0, atol=1e-12, err_msg=label)
        assert shown(at) == expected(ds, empty=state["empty"], **opts), label

    check("start")
    steps = [
        ("number_input", "rel_level", 2, "level"),  # P, R, hit rate, AP, RR only
        ("number_input", "max_grade", top + 1, "max_grade"),  # ERR only
        ("radio", "gain", "exponential", "gain"),  # NDCG only
        ("slider", "k", 3, "k"),  # every column at K = 3, the same curves
        ("selectbox", "tie_mode", "tie-averaged", "ties"),  # everything
        ("radio", "empty_query", "drop", None),  # the curves only
        (
            "number_input",
            "rel_level",
            3,
            "level",
        ),  # a query is empty: under "drop" every curve moves
        ("selectbox", "tie_mode", "column", "ties"),  # settings met before
        ("number_input", "rel_level", 2, "level"),
        ("slider", "k", 5, "k"),
        ("radio", "empty_query", "zero", None),
        ("number_input", "max_grade", top, "max_grade"),
        ("radio", "gain", "linear", "gain"),
    ]
    for widget, key, value, opt in steps:
        getattr(at, widget)(key=f"ret_{key}").set_value(value).run()
        if opt is None:
            state["empty"] = value
        else:
            opts[opt] = value
        check(f"{key} -> {value}")


def test_presets_set_the_conventions():
    ds = load_sample("seed002_map")
    at = open_page("seed002_map")
    at.selectbox(key="ret_preset").set_value("trec_eval").run()
    assert at.session_state["ret_ap_denominator"] == "relevant"
    assert shown(at) == expected(ds, k=5, denominator="relevant")
    at.selectbox(key="ret_preset").set_value("torchmetrics").run()
    assert shown(at) == expected(ds, k=5, denominator="hits")
    at.selectbox(key="ret_preset").set_value("multilabel notes AveP").run()
    assert at.session_state["ret_k"] == 5  # capped at the 5 items
    assert shown(at)["MAP@K"] == fmt(expected_map(ds, 5, "k"))
    at.selectbox(key="ret_preset").set_value("scikit-learn").run()
    assert at.session_state["ret_tie_mode"] == "tie-averaged"
    assert not at.exception


def test_url_params_seed_the_view():
    at = open_page("diabetes_ranking", k="2", ap_denominator="k", tie_mode="pessimistic")
    ds = load_sample("diabetes_ranking")
    assert shown(at) == expected(ds, k=2, denominator="k", ties="pessimistic")
    at = open_page("diabetes_ranking", k="999", tie_mode="bogus")
    assert at.session_state["ret_k"] == 5 and at.session_state["ret_tie_mode"] == "column"
    # a link's preset applies its conventions; a convention the link gives itself wins
    at = open_page("diabetes_ranking", preset="trec_eval")
    assert shown(at) == expected(ds, k=5, denominator="relevant", ties="column")
    assert at.session_state["ret_preset"] == "trec_eval"
    assert at.query_params["ap_denominator"] == "relevant"
    at = open_page("diabetes_ranking", preset="torchmetrics", tie_mode="pessimistic")
    assert shown(at) == expected(ds, k=5, denominator="hits", ties="pessimistic")


def test_multilabel_sample_and_wrong_kind():
    at = open_page("digits")
    ds = load_sample("digits")
    assert shown(at) == expected(ds, k=5)
    # one relevant item per row: recall@K equals the hit rate
    assert metric(at, "R@K") == metric(at, "Hit rate@K")
    at = open_page("balanced")
    assert not at.metric
    assert "graded relevance" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
    assert at.session_state["active_dataset"] == "seed002_map"


def test_trec_eval_s_test_files_uploaded_show_trec_eval_s_numbers_at_k_1000():
    """trec_eval's own qrels.test and results.test (depth 500; 474 relevant documents of
    query 301, 71 retrieved): at K = 1000, past the run's depth and the matrix's width,
    the headline is trec_eval's all-queries line of out.test.aq."""
    data = Path(__file__).parents[2] / "data" / "trec_eval"
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(script("data")).run()
    for key, name in (("data_upload_qrels", "qrels.test"), ("data_upload_run", "results.test")):
        at.file_uploader(key=key).set_value((name, (data / name).read_bytes(), "text/plain"))
    at.run()
    at.switch_page(PAGE).run()
    at.selectbox(key="ret_preset").set_value("trec_eval").run()
    at.slider(key="ret_k").set_value(1000).run()
    assert not at.exception and at.query_params["k"] == "1000"
    want = {"P@K": 0.0437, "R@K": 0.5997, "MAP@K": 0.1785, "NDCG@K": 0.4021, "MRR": 0.4064}
    got = shown(at)
    for label, value in want.items():
        assert float(got[label]) == pytest.approx(value, abs=5e-5), label
    assert any("did not retrieve" in i.value for i in at.info)
