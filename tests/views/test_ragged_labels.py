"""A ragged multilabel upload (query groups of different sizes, documents named) on the
Label ranking and Multilabel pages: the numbers honour the padding (the ``retrieved``
mask) and every document shown is named by its id."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from sklearn import metrics as skm
from streamlit.testing.v1 import AppTest

from explorer import budget
from explorer.formatting import fmt
from explorer.io.uploads import read_upload
from explorer.registry import script
from explorer.ui import work
from tests.conftest import APP, metric
from views.multilabel.panel import SLOTS_NOTE

# negative scores: a padding slot scored 0 would outrank every document
TABLE = b"""sample,label,y_true,y_score
q1,doc-a,1,-0.2
q1,doc-b,0,-0.5
q1,doc-c,1,-0.9
q2,doc-d,0,-0.3
q2,doc-e,1,-0.6
q3,doc-f,1,-0.4
q3,doc-g,0,-0.1
q3,doc-h,0,-0.8
q3,doc-i,1,-0.7
"""
ROWS = {  # each query's own documents, as scikit-learn scores them one query at a time
    "q1": ([1, 0, 1], [-0.2, -0.5, -0.9]),
    "q2": ([0, 1], [-0.3, -0.6]),
    "q3": ([1, 0, 0, 1], [-0.4, -0.1, -0.8, -0.7]),
}
DOCS = {f"doc-{c}" for c in "abcdefghi"}


def _open(page: str, ds, **params) -> AppTest:
    at = AppTest.from_file(str(Path(APP).parent / script(page)), default_timeout=30)
    at.query_params.update(params)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    return at


def _mean(score, rows=ROWS) -> float:
    return float(np.mean([score([y], [s]) for y, s in rows.values()]))


def test_ragged_queries_on_label_ranking_and_multilabel(monkeypatch):
    ds = read_upload("q.csv", TABLE)
    assert ds.kind == "multilabel" and ds.retrieved is not None
    at = _open("label_ranking", ds, i="q2")
    assert metric(at, "Coverage error") == fmt(_mean(skm.coverage_error))
    assert metric(at, "LRAP") == fmt(_mean(skm.label_ranking_average_precision_score))
    assert metric(at, "Ranking loss") == fmt(_mean(skm.label_ranking_loss))
    # q2's two documents, not its padding slots: e (true) below d, coverage 2
    steps = next(d.value for d in at.dataframe if "label_name" in d.value.columns)
    assert set(steps["label_name"]) == {"doc-d", "doc-e"}
    assert metric(at, "Sample coverage") == fmt(2.0)
    # the rank table: each query's own documents by id, best first, no padding slot
    ranks = next(d.value for d in at.dataframe if "#1" in d.value.columns)
    by_query = {row.split(" (")[-1].rstrip(")"): cells for row, cells in ranks.iterrows()}
    for q, (y, s) in ROWS.items():
        docs = [c.split(":")[0] for c in by_query[q] if c]
        assert len(docs) == len(y) and set(docs) <= DOCS
        own = [d for d in sorted(DOCS) if d in docs]  # this query's ids, in column order
        assert docs == [own[j] for j in np.argsort(-np.array(s), kind="stable")]
    # a what-if edit by the document's name: e above d, the headline scored again; it
    # scores the whole matrix again, so it waits while the session's budget is spent
    unedited = metric(at, "Ranking loss")
    spent = budget.Ledger(budget.HOSTED.session_per_minute)
    spent.charge(time.monotonic(), 31.0)
    monkeypatch.setenv(budget.HOSTED_VARIABLE, "1")
    monkeypatch.setattr(work, "_ledger", lambda: spent)
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"doc-e": 0.5}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception and metric(at, "Ranking loss") == unedited
    assert any("The edited scores wait meanwhile" in i.value for i in at.info)
    monkeypatch.undo()
    at.run()
    assert not at.exception
    edited = {**ROWS, "q2": ([0, 1], [-0.3, 0.5])}
    assert metric(at, "Ranking loss") == fmt(_mean(skm.label_ranking_loss, edited))
    assert metric(at, "Coverage error") == fmt(_mean(skm.coverage_error, edited))
    # a threshold below every document: the padding slots (scored 0) would be predicted
    ml = _open("multilabel", ds, tab="errors", t="-0.45")
    yt = np.concatenate([y for y, _ in ROWS.values()])
    yp = np.concatenate([np.array(s) >= -0.45 for _, s in ROWS.values()])
    assert metric(ml, "Hamming loss") == fmt(float(np.mean(yt != yp)))
    assert [c.value for c in ml.caption].count(SLOTS_NOTE) == 1  # columns are slots here
    steps = next(d.value for d in ml.dataframe if "outcome" in d.value.columns)
    assert set(steps["label"]) <= DOCS  # the inspected query's documents, no padding slot
    ml.session_state["ml_tab"] = "Derivations of the headline"
    ml.run()
    assert any("1 wrong cell of all the rows' documents" in c.value for c in ml.caption)
    ml.session_state["ml_tab"] = "Every sample"
    ml.run()
    table = next(d.value for d in ml.dataframe if "true_labels" in d.value.columns)
    assert dict(zip(table["sample"], table["true_labels"], strict=True)) == {
        "q1": "doc-a, doc-c",
        "q2": "doc-e",
        "q3": "doc-f, doc-i",
    }


def test_the_slots_note_only_where_rows_have_their_own_documents():
    from explorer.samples import load_sample

    at = _open("multilabel", load_sample("digit_properties"))
    assert at.subheader and SLOTS_NOTE not in [c.value for c in at.caption]
