"""Multiclass data on the page (AppTest): uploads, a bad upload, the data editor, edge
cases, and two multiclass models on the Compare page."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import APP, open_page, rendered
from tests.views.multiclass.common import PAGE, expected, open_link, shown, upload


def test_an_upload_becomes_a_multiclass_page():
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(script("data")).run()
    text = (
        b"y_true,proba_cat,proba_dog,proba_bird\ncat,0.7,0.2,0.1\nbird,0.3,0.3,0.4\n"
        b"dog,0.2,0.5,0.3\ncat,0.4,0.5,0.1\nbird,0.1,0.1,0.8\n"
    )
    at.file_uploader(key="data_upload_file").upload("pets.csv", text, "text/csv").run()
    assert not at.exception and not at.error
    at.switch_page(PAGE).run()
    ds = Dataset(
        "x",
        "multiclass",
        np.eye(3)[[0, 2, 1, 0, 2]],
        {"m": pd.read_csv(__import__("io").BytesIO(text)).iloc[:, 1:].to_numpy()},
    )
    assert shown(at) == expected(ds)
    # the link carries the upload: opened fresh, the same numbers
    params = dict(at.query_params)
    assert "data" in params
    fresh = open_link(params)
    assert shown(fresh) == shown(at)


def test_a_bad_upload_keeps_the_dataset_and_names_the_cell():
    at = open_page(script("data"), "iris")
    bad = b"y_true,proba_cat,proba_dog\ncat,0.7,0.3\ncow,0.5,0.5\n"
    at.file_uploader(key="data_upload_file").upload("bad.csv", bad, "text/csv").run()
    assert any("line 3" in rendered(e.value) and "'cow'" in rendered(e.value) for e in at.error)
    at.switch_page(PAGE).run()
    assert shown(at) == expected(load_sample("iris"))


def test_compare_page_takes_two_multiclass_models():
    """A link may carry two models of a multiclass dataset: the Compare page compares
    their accuracy and log loss (no traceback)."""
    base = load_sample("iris")
    other = np.random.default_rng(0).dirichlet(np.ones(3), base.n_samples)
    ds = Dataset(
        "two",
        "multiclass",
        base.y_true,
        {"a": base.score(), "b": other},
        label_names=base.label_names,
    )
    page = str(Path(APP).parent / script("compare"))
    at = AppTest.from_file(page, default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    shown = " ".join(m.label for m in at.metric) + " ".join(x.value for x in at.markdown)
    assert "Accuracy" in shown and "Log loss" in shown


def test_the_data_editor_edits_a_class_and_refuses_two():
    at = open_page(script("data"), "iris")
    at.session_state["data_editor_labels"] = {
        "edited_rows": {0: {"setosa": 0, "virginica": 1}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    at.button(key="data_apply_edits").click().run()
    assert not at.exception and not at.error
    assert at.session_state["active_dataset"] == "iris (edited)"
    at.switch_page(PAGE).run()
    base = load_sample("iris")
    y = base.y_true.copy()
    y[0] = [0, 0, 1]
    edited = Dataset("e", "multiclass", y, base.scores, label_names=base.label_names)
    assert shown(at) == expected(edited)

    at = open_page(script("data"), "iris")
    at.session_state["data_editor_labels"] = {
        "edited_rows": {3: {"versicolor": 1}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    at.button(key="data_apply_edits").click().run()
    assert not at.exception
    assert "row 3: 2 classes are marked 1" in rendered(at.error[0].value)
    assert at.session_state["active_dataset"] == "iris"


EDGE = {
    # one class in y_true: no one-vs-rest AUC, kappa 0
    "one class": b"y_true,proba_a,proba_b,proba_c\na,0.5,0.3,0.2\na,0.2,0.5,0.3\na,0.6,0.2,0.2\n",
    # one sample, predicted right: p_e = 1, kappa 0/0
    "one sample": b"y_true,proba_a,proba_b,proba_c\nb,0.1,0.8,0.1\n",
    # every score tied, class names LaTeX would read as commands
    "ties": b"y_true,p_a_b,p_c&d,p_50%\na_b,0.5,0.25,0.25\nc&d,0.5,0.25,0.25\n50%,0.5,0.25,0.25\n",
    # two classes
    "two classes": b"y_true,proba_no,proba_yes\nno,0.6,0.4\nyes,0.3,0.7\nyes,0.55,0.45\n",
}


def test_valid_edge_data_shows_numbers_or_says_why():
    for what, text in EDGE.items():
        at = upload(text)
        got = shown(at)
        assert len(got) == 8, what
        said = " ".join(x.value for x in [*at.info, *at.caption])
        if what in ("one class", "one sample"):
            assert got["Macro ROC AUC (OvR)"] == "n/a", what
            assert "have no sample (or every sample)" in said, what
        if what == "one sample":
            assert got["Cohen's kappa"] == "n/a" and "kappa is undefined" in said
        if what == "ties":
            assert got["Accuracy"] == fmt(1 / 3)  # argmax: the first column
            assert any(r"a\_b" in x.value or r"c\&d" in x.value for x in at.latex)
        assert "nan" not in " ".join(got.values()), what
        for table in (t.value for t in at.dataframe):  # undefined cells read as a dash
            assert not table.isna().any().any(), (what, table.head())
