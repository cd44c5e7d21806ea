"""metrics.trec against ranx and ir_measures, where they define the measure.

Neither peer is a test dependency: tests/fixtures/trec_peers/make.py ran them (ranx
0.3.21, ir_measures 0.4.3 over pytrec-eval-terrier 0.5.11) on trec_eval's own test
collection and on a small hand-made one (edge.qrels, edge.run) and saved their values,
per query and averaged, in expected.json. Our values must equal theirs to 1e-4 per query,
except where a peer's convention differs: there the test computes the peer's convention
from ours (or by a slow reference) and pins that (docs/metrics-differences.md lists them).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from metrics import read_trec_files, trec_aggregate, trec_measures

FIXTURE = Path(__file__).parent.parent / "fixtures" / "trec_peers"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())

# where trec_eval 9's recall cut-offs (in pytrec_eval, under ir_measures) change the value
IPREC_DIFFERS = {
    "trec_eval": [("iprec_at_recall_0.10", "301"), ("iprec_at_recall_0.60", "302")],
    "edge": [
        ("iprec_at_recall_0.30", "q1"),
        ("iprec_at_recall_0.60", "q1"),
        ("iprec_at_recall_0.60", "q5"),
        ("iprec_at_recall_0.70", "q5"),
        ("iprec_at_recall_0.80", "q1"),
    ],
}


def _ours(collection: str):
    qrels, run = (FIXTURE.parent.parent / p for p in EXPECTED["collections"][collection])
    m = read_trec_files(qrels, run)
    return m, trec_measures(m.y_true, m.y_score, retrieved=m.retrieved, judged=m.judged)


def _iprec_trec_eval_9(m, i: int, level: float) -> float:
    """Slow reference: the best precision once ``int(level * R + 0.9)`` relevant are seen."""
    cols = np.flatnonzero(m.retrieved[i])
    cols = sorted(cols, key=lambda c: (-m.y_score[i, c], c))  # ties: lower column first
    need = math.floor(level * np.count_nonzero(m.y_true[i] > 0) + 0.9)
    hits, best = 0, 0.0
    for pos, c in enumerate(cols, start=1):
        hits += bool(m.y_true[i, c] > 0)
        if hits >= need:
            best = max(best, hits / pos)
    return best if hits >= need else 0.0


def _expected(peer: str, name: str, qid: str, m, ours) -> float:
    """Our value of ``name`` for ``qid``, under the peer's conventions."""
    if qid in m.missing_qids:
        # judged but not in the run: both count it as 0 (trec_eval -c), ir_measures even
        # its num_rel
        return 0.0
    i = m.qids.index(qid)
    if peer == "ranx" and qid == "q5":
        # every score ties: trec_eval orders by docid descending (z, y, x); ranx's unstable
        # numba sort left the file order (y, x, z)
        return float(trec_measures([[0, 1, 1]], [[3.0, 2.0, 1.0]])[name][0])
    if peer == "ranx" and name == "RBP":
        # ranx's RBP gains the grade, ours (ir_measures') counts a relevant document as 1:
        # the graded sum is the sum over grades g of the binary RBP of "grade >= g"
        kw = {"retrieved": m.retrieved, "judged": m.judged}
        graded = sum(trec_measures(m.y_true >= g, m.y_score, **kw)["RBP"] for g in (1, 2, 3))
        return float(graded[i])
    if peer == "ir_measures" and name.startswith("judged_"):
        # ir_measures' Judged@k divides by the documents in the top k, ours by k
        k = int(name.split("_")[1])
        return float(ours[name][i] * k / min(k, ours["num_ret"][i]))
    if peer == "ir_measures" and name.startswith("iprec_at_recall"):
        return _iprec_trec_eval_9(m, i, float(name.rsplit("_", 1)[1]))
    return float(ours[name][i])


def _average(peer: str, name: str, values) -> float:
    """ranx averages every measure, counts too; ir_measures sums the counts as trec_eval."""
    values = np.asarray(values, dtype=float)
    return float(values.mean()) if peer == "ranx" else trec_aggregate({name: values})[name]


@pytest.mark.parametrize("collection", ["trec_eval", "edge"])
@pytest.mark.parametrize("peer", ["ranx", "ir_measures"])
def test_equal_to_the_peer_per_query_and_averaged(peer, collection):
    m, ours = _ours(collection)
    values = EXPECTED[peer][collection]
    assert list(values["per_query"]) == list(EXPECTED[peer]["names"])
    judged_qids = sorted({*m.qids, *m.missing_qids})
    assert judged_qids == (["301", "302", "303"] if collection == "trec_eval" else
                           ["q1", "q2", "q3", "q5"])  # fmt: skip
    iprec_differs = []
    for name, per_query in values["per_query"].items():
        # a run query without judgments (edge's q4) is left out by all three
        assert sorted(per_query) == judged_qids, name
        want = {q: _expected(peer, name, q, m, ours) for q in judged_qids}
        for q in judged_qids:
            assert want[q] == pytest.approx(per_query[q], abs=1e-4), (name, q)
            if q in m.qids and abs(want[q] - ours[name][m.qids.index(q)]) > 1e-4:
                iprec_differs += [(name, q)] if name.startswith("iprec") else []
        got = _average(peer, name, list(want.values()))
        assert got == pytest.approx(values["mean"][name], abs=1e-4), name
    assert iprec_differs == (IPREC_DIFFERS[collection] if peer == "ir_measures" else [])


def test_edge_collection_holds_each_convention():
    """The edge collection shows every difference at least once (else the pins are idle)."""
    m, ours = _ours("edge")
    assert m.qids == ("q1", "q2", "q5") and m.missing_qids == ("q3",) and m.missing_rel == 1
    ranx = EXPECTED["ranx"]["edge"]["per_query"]
    irm = EXPECTED["ir_measures"]["edge"]["per_query"]
    assert ours["map"][2] == pytest.approx(5 / 6) and ranx["map"]["q5"] == pytest.approx(7 / 12)
    assert ours["RBP"][0] != pytest.approx(ranx["RBP"]["q1"])  # q1's first document: grade 2
    assert ours["judged_10"][1] == 0.2 and irm["judged_10"]["q2"] == pytest.approx(2 / 3)
    assert ours["num_rel"][0] == 4 and irm["num_rel"]["q3"] == 0.0
