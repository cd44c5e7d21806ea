"""The slice filter (``?slice=``) on every page kind (AppTest): a link opened fresh computes
on the slice's rows, the same numbers as the page on those rows alone; the sidebar shows
it and clears it; a slice the data lacks is dropped with a notice."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from sklearn.metrics import mean_absolute_error, roc_auc_score

from explorer.datasets import Dataset
from explorer.links import encode_dataset, fits_in_link
from explorer.registry import script
from explorer.samples import load_sample
from explorer.slicing import slice_text
from tests.conftest import graded_case, multilabel_case, rendered
from tests.views.test_links_app import metrics_of, open_app, params


def _with_topic(ds: Dataset) -> Dataset:
    """``ds`` with a text attribute: every third row "odd", the rest "even"."""
    topic = np.where(np.arange(ds.n_samples) % 3 == 0, "odd", "even").astype(object)
    return dataclasses.replace(ds, attributes={"topic": topic}, source="link")


def _multilabel() -> Dataset:
    y, s = multilabel_case(5, n=30)
    return _with_topic(Dataset("ml", "multilabel", y, {"m": s}))


def _graded() -> Dataset:
    y, s = graded_case(6, n=30)
    return _with_topic(Dataset("gr", "graded", y, {"m": s}))


def _rows(ds: Dataset, conditions) -> np.ndarray:
    """The slice's rows, found here without explorer.slicing."""
    keep = np.ones(ds.n_samples, bool)
    for name, test in conditions:
        keep &= test(ds.attribute(name))
    return np.flatnonzero(keep)


def _taken(ds: Dataset, rows: np.ndarray) -> Dataset:
    return Dataset(
        ds.name,
        ds.kind,
        ds.y_true[rows],
        {m: s[rows] for m, s in ds.scores.items()},
        label_names=ds.label_names,
        sample_ids=tuple(np.array(ds.sample_ids)[rows]),
        source="link",
    )


BREAST, DIABETES = load_sample("breast_cancer"), load_sample("diabetes")
CASES = [
    ("home", BREAST, "texture:coarse", [("texture", lambda v: v == "coarse")]),
    ("curves", BREAST, "radius:[7.69, 11.6075)", [("radius", lambda v: v < 11.6075)]),
    ("compare", BREAST, "texture:smooth", [("texture", lambda v: v == "smooth")]),
    (
        "regression",
        DIABETES,
        "sex:2;age:[39, 50)",
        [("sex", lambda v: v == 2), ("age", lambda v: (v >= 39) & (v < 50))],
    ),
    (
        "multiclass",
        _with_topic(load_sample("iris")),
        "topic:odd",
        [("topic", lambda v: v == "odd")],
    ),
    ("multilabel", _multilabel(), "topic:even", [("topic", lambda v: v == "even")]),
    ("label_ranking", _multilabel(), "topic:odd", [("topic", lambda v: v == "odd")]),
    ("dcg", _graded(), "topic:even", [("topic", lambda v: v == "even")]),
    ("retrieval", _graded(), "topic:odd", [("topic", lambda v: v == "odd")]),
]


def _open(page: str, ds: Dataset, **query):
    if ds.source == "sample":
        return open_app(script(page), ds.name, **query)
    assert fits_in_link(ds)
    return open_app(script(page), data=encode_dataset(ds), **query)


@pytest.mark.parametrize(("page", "ds", "text", "conditions"), CASES, ids=[c[0] for c in CASES])
def test_a_slice_link_shows_the_numbers_of_the_slices_rows(page, ds, text, conditions):
    rows = _rows(ds, conditions)
    assert 0 < rows.size < ds.n_samples
    at = _open(page, ds, slice=text)
    unit = "queries" if ds.kind == "graded" else "samples"
    notes = [rendered(i.value) for i in at.info]
    assert any(n.startswith(f"On {rows.size:,} of {ds.n_samples:,} {unit}: ") for n in notes)
    assert params(at)["slice"] == text
    shown = metrics_of(at)
    assert shown, "the page shows headline numbers"
    # the bundled diabetes sample opens its Weighted MAE on recency weights, a link's
    # data on equal ones: the rows alone are opened with the weights the slice used
    same = {"weights": params(at)["weights"]} if page == "regression" else {}
    alone = _open(page, _taken(ds, rows), **same)
    assert shown == metrics_of(alone)
    part = _taken(ds, rows)
    if page == "curves":  # and one of them against scikit-learn, on the rows alone
        auc = roc_auc_score(part.y_true, part.scores["logreg"])
        assert float(dict((m[0], m[1]) for m in shown)["ROC AUC"]) == pytest.approx(auc, abs=5e-5)
    if page == "regression":
        mae = mean_absolute_error(part.y_true, part.scores["linear"])
        values = [float(v) for label, v, _ in shown if label.startswith("MAE")]
        assert values and values[0] == pytest.approx(mae, rel=5e-4)


def test_the_sidebar_clears_the_slice_and_a_slice_the_data_lacks_is_dropped():
    at = open_app(script("curves"), "breast_cancer", slice="texture:coarse")
    sliced = metrics_of(at)
    assert any("texture = coarse" in m.value for m in at.sidebar.markdown)
    at.sidebar.button(key="slice_clear").click().run()
    assert "slice" not in params(at) and not at.info
    whole = metrics_of(open_app(script("curves"), "breast_cancer"))
    assert metrics_of(at) == whole != sliced
    # another dataset has other attributes: a kept slice would name nothing there
    at = open_app(script("home"), "breast_cancer", slice="texture:coarse")
    at.selectbox(key="dataset_picker").set_value("diabetes").run()
    assert "slice" not in params(at) and not at.info and not at.warning
    bad = open_app(script("home"), "breast_cancer", slice="texture:velvet")
    assert "no group 'velvet'" in rendered(bad.warning[0].value)
    assert "slice" not in params(bad) and not bad.info


def test_a_hostile_attribute_name_and_value_show_as_written():
    name, value = "<b>ward</b>", "[x](http://e.example) *"
    y = np.array([0, 1, 0, 1, 1, 0])
    ward = np.array([value, value, value, "B", "B", "B"], dtype=object)
    ds = Dataset("h", "binary", y, {"m": np.array([0.1, 0.9, 0.4, 0.3, 0.8, 0.2])})
    ds = dataclasses.replace(ds, attributes={name: ward}, source="link")
    at = _open("home", ds, slice=slice_text([(name, value)]))
    assert rendered(at.info[0].value) == f"On 3 of 6 samples: {name} = {value}"
    assert rendered(at.sidebar.markdown[-1].value) == f"**Slice:** {name} = {value}"
    page = _open("slices", ds)
    assert not page.exception
    assert page.dataframe[0].value["group"].tolist() == ["B", value]
    page.selectbox(key="sl_group").set_value(value).run()
    assert rendered(page.button(key="sl_open_group").label) == f"Open ROC & PR curves on {value}"
