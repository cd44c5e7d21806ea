"""trec_eval's measure set (metrics.trec), its files and report (metrics.trec_files).

Oracles: trec_eval's own regression outputs (tests/data/trec_eval, from
usnistgov/trec_eval's test/ folder: out.test is the default report,
out.test.aq ``-m all_trec -q``, out.test.aqc adds ``-c`` on the truncated run
results.trunc, out.test.aqcM adds ``-M100``), pytrec_eval per query on
hypothesis-generated runs (ties included, as trec_eval breaks them by docid),
and slow loop references written here for RBP, judged@k, bpref and infAP.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics import MetricInputError, read_trec_files, trec_measures, trec_report
from metrics.cli import main

DATA = Path(__file__).parent.parent / "data" / "trec_eval"


def _lines(lines) -> dict[tuple[str, str], str]:
    out = {}
    for line in lines:
        name, qid, value = (x.strip() for x in line.split("\t"))
        out[name, qid] = value
    return out


def test_default_report_is_trec_eval_s_byte_for_byte(capsys):
    assert main(["trec", str(DATA / "qrels.test"), str(DATA / "results.test")]) == 0
    assert capsys.readouterr().out == (DATA / "out.test").read_text()


@pytest.mark.parametrize(
    "run, expected, options",
    [
        ("results.test", "out.test.aq", {}),
        ("results.trunc", "out.test.aqc", {"complete": True}),
        ("results.trunc", "out.test.aqcM", {"complete": True, "depth": 100}),
    ],
)
def test_every_shared_measure_equals_trec_eval_s_own_outputs(run, expected, options):
    m = read_trec_files(DATA / "qrels.test", DATA / run)
    ours = _lines(trec_report(m, measures=["all_trec"], per_query=True, **options))
    theirs = _lines((DATA / expected).read_text().splitlines())
    assert ours["runid", "all"] == theirs["runid", "all"] == "STANDARD"
    shared = [key for key in ours if key in theirs and key[0] != "runid"]
    # every measure of ours but RBP and judged_k (not trec_eval's) is in its output
    assert {name for name, _ in ours} - {name for name, _ in shared} - {"runid"} == {
        "RBP",
        "judged_5",
        "judged_10",
        "judged_20",
    }
    for key in shared:
        assert float(ours[key]) == pytest.approx(float(theirs[key]), abs=1e-4), key
    assert theirs["num_q", "all"] == ours["num_q", "all"] == "3"


def test_results_trunc_past_its_depth():
    """Query 301 retrieved 6 documents of 474 relevant: P_1000 is 71/1000, recall_1000 71/474."""
    m = read_trec_files(DATA / "qrels.test", DATA / "results.test")
    out = trec_measures(m.y_true, m.y_score, retrieved=m.retrieved, judged=m.judged)
    i = m.qids.index("301")
    assert out["num_ret"][i] == 500 and out["num_rel"][i] == 474
    assert out["P_1000"][i] == out["num_rel_ret"][i] / 1000 == pytest.approx(0.071)
    assert out["recall_1000"][i] == pytest.approx(71 / 474)


PYTREC_MEASURES = {
    "map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "11pt_avg",
    "infAP",
    "ndcg",
    "ndcg_rel",
    "Rndcg",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "set_P",
    "set_recall",
    "set_F",
    "P.5,10",
    "recall.5,10",
    "ndcg_cut.5,10",
    "map_cut.5,10",
}


@st.composite
def trec_runs(draw):
    """Qrels and a run over a few queries: grades 0..3, tied scores, unretrieved judged docs."""
    n_q = draw(st.integers(1, 4))
    qrels, run = {}, {}
    for q in range(n_q):
        docs = [f"d{j:02d}" for j in range(draw(st.integers(2, 14)))]
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, unique=True))
        qrels[f"q{q}"] = {d: draw(st.integers(0, 3)) for d in judged}
        ret = draw(st.lists(st.sampled_from(docs), min_size=1, unique=True))
        run[f"q{q}"] = {d: float(draw(st.integers(0, 4))) for d in ret}
    return qrels, run


def _as_files(qrels, run) -> tuple[bytes, bytes]:
    q = "".join(f"{qid} 0 {d} {g}\n" for qid, docs in qrels.items() for d, g in docs.items())
    r = "".join(f"{qid} Q0 {d} 1 {s} tag\n" for qid, docs in run.items() for d, s in docs.items())
    return q.encode(), r.encode()


@settings(max_examples=30, deadline=None)
@given(trec_runs())
def test_matches_pytrec_eval_per_query(case):
    qrels, run = case
    theirs = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
    m = read_trec_files(*_as_files(qrels, run))
    ours = trec_measures(m.y_true, m.y_score, retrieved=m.retrieved, judged=m.judged)
    assert set(m.qids) == set(theirs)
    for i, qid in enumerate(m.qids):
        for name, value in theirs[qid].items():
            if _iprec_cut_offs_differ(ours["num_rel"][i]) and name.startswith(("iprec", "11pt")):
                continue
            assert ours[name][i] == pytest.approx(value, abs=1e-9), (qid, name)


def _iprec_cut_offs_differ(n_rel) -> bool:
    """Whether trec_eval 10's cut-offs (rounded) differ from pytrec_eval's trec_eval 9
    ones (``level * R + 0.9`` truncated) at some recall level, for R relevant documents."""
    levels = np.arange(11) / 10
    return bool((np.floor(levels * n_rel + 0.5) != np.floor(levels * n_rel + 0.9)).any())


def test_judged_at_k_is_p_at_k_with_every_judgment_relevant():
    """ir_measures' Judged@k: P@k with a relevance level below every judgment."""
    rng = np.random.default_rng(3)
    qrels = {f"q{i}": {f"d{j}": 1 for j in range(30) if rng.random() < 0.4} for i in range(6)}
    run = {f"q{i}": {f"d{j}": float(rng.random()) for j in range(25)} for i in range(6)}
    p = pytrec_eval.RelevanceEvaluator(qrels, {"P.5,10,20"}).evaluate(run)
    # as qrels every grade 0, so that nothing is relevant and only the judged mark counts
    m = read_trec_files(*_as_files({q: dict.fromkeys(d, 0) for q, d in qrels.items()}, run))
    ours = trec_measures(m.y_true, m.y_score, retrieved=m.retrieved, judged=m.judged)
    for i, qid in enumerate(m.qids):
        for k in (5, 10, 20):
            assert ours[f"judged_{k}"][i] == pytest.approx(p[qid][f"P_{k}"])


# ---------------------------------------------------------------------------
# slow references (one query at a time, as the definitions read)
# ---------------------------------------------------------------------------
def _ranked_rows(y, s, r, j):
    for t, sc, rr, jj in zip(y, s, r, j, strict=True):
        cols = sorted((c for c in range(len(t)) if rr[c]), key=lambda c: (-sc[c], c))
        n_rel = sum(1 for g in t if g > 0)
        n_nonrel = sum(1 for c in range(len(t)) if jj[c] and t[c] <= 0)
        yield [(t[c], jj[c]) for c in cols], n_rel, n_nonrel


def ref_rbp(y, s, r, j, p):
    return [
        (1 - p) * sum(p**i for i, (g, _) in enumerate(ranked) if g > 0)
        for ranked, _, _ in _ranked_rows(y, s, r, j)
    ]


def ref_judged(y, s, r, j, k):
    return [sum(1 for _, jj in ranked[:k] if jj) / k for ranked, _, _ in _ranked_rows(y, s, r, j)]


def ref_bpref(y, s, r, j):
    out = []
    for ranked, n_rel, n_nonrel in _ranked_rows(y, s, r, j):
        total, nonrel = 0.0, 0
        for g, jj in ranked:
            if g > 0:
                total += 1 - min(nonrel, n_rel) / min(n_nonrel, n_rel) if nonrel else 1.0
            elif jj:
                nonrel += 1
        out.append(total / n_rel if n_rel else 0.0)
    return out


def ref_inf_ap(y, s, r, j):
    out, e = [], 1e-5
    for ranked, n_rel, _ in _ranked_rows(y, s, r, j):
        total, rel, nonrel = 0.0, 0, 0
        for pos, (g, jj) in enumerate(ranked):
            if g > 0:
                rel += 1
                if pos == 0:
                    total += 1.0
                else:
                    total += 1 / (pos + 1) + (pos / (pos + 1)) * ((rel - 1 + nonrel) / pos) * (
                        (rel - 1 + e) / (rel - 1 + nonrel + 2 * e)
                    )
            elif jj:
                nonrel += 1
        out.append(total / n_rel if n_rel else 0.0)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_rbp_judged_bpref_and_inf_ap_match_the_slow_references(seed):
    rng = np.random.default_rng(seed)
    n, m = 20, 15
    y = rng.integers(0, 3, size=(n, m)) * (rng.random((n, m)) < 0.5)
    s = rng.integers(0, 5, size=(n, m)).astype(float)
    r = rng.random((n, m)) < 0.7
    j = (rng.random((n, m)) < 0.6) | (y > 0)  # a relevant document is always judged
    out = trec_measures(y, s, retrieved=r, judged=j, rbp_p=0.7)
    np.testing.assert_allclose(out["RBP"], ref_rbp(y, s, r, j, 0.7), atol=1e-12)
    for k in (5, 10, 20):
        np.testing.assert_allclose(out[f"judged_{k}"], ref_judged(y, s, r, j, k), atol=1e-12)
    np.testing.assert_allclose(out["bpref"], ref_bpref(y, s, r, j), atol=1e-12)
    np.testing.assert_allclose(out["infAP"], ref_inf_ap(y, s, r, j), atol=1e-12)


def test_cli_refusals_and_families(tmp_path, capsys):
    qrels, run = tmp_path / "q", tmp_path / "r"
    qrels.write_text("1 0 a 1\n1 0 b 0\n")
    run.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 x t\n")
    assert main(["trec", str(qrels), str(run)]) == 2
    assert "score 'x' is not a finite number" in capsys.readouterr().err
    run.write_text("1 Q0 a 1 0.5\n")
    assert main(["trec", str(qrels), str(run)]) == 2
    assert "line 1 has fewer than 6 fields" in capsys.readouterr().err
    run.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.7 t\n")
    assert main(["trec", str(qrels), str(run), "-m", "judged", "-m", "set_F", "-q"]) == 0
    lines = _lines(capsys.readouterr().out.splitlines())
    assert lines["judged_5", "1"] == "0.4000"  # 2 judged documents of the top 5
    assert lines["set_F", "all"] == "0.6667"  # P 1/2, R 1/1
    with pytest.raises(MetricInputError, match="unknown measure 'nope'"):
        trec_report(read_trec_files(qrels, run), measures=["nope"])
