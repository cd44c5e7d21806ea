"""Multiclass classification page (AppTest): headline numbers against scikit-learn, the
controls and the URL, the confusion matrix cell, derivations on screen, uploads, links."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import sklearn.metrics as skm
from streamlit.testing.v1 import AppTest

from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from explorer.ui import classroom
from tests.conftest import APP, metric, open_page
from tests.views.test_intervals import expected as ci_text
from tests.views.test_intervals import shown as intervals_shown

PAGE = script("multiclass")
HEADLINE = (
    "Accuracy",
    "Balanced accuracy",
    "Macro F1",
    "MCC",
    "Cohen's kappa",
    "Log loss",
    "Top-2 accuracy",
    "Macro ROC AUC (OvR)",
)


def expected(ds: Dataset, k: int = 2) -> dict[str, str]:
    t, s, w = ds.y_true.argmax(axis=1), ds.score(), ds.sample_weight
    p = s.argmax(axis=1)
    K = s.shape[1]
    return {
        "Accuracy": fmt(skm.accuracy_score(t, p, sample_weight=w)),
        "Balanced accuracy": fmt(skm.balanced_accuracy_score(t, p, sample_weight=w)),
        "Macro F1": fmt(skm.f1_score(t, p, average="macro", sample_weight=w, zero_division=0)),
        "MCC": fmt(skm.matthews_corrcoef(t, p, sample_weight=w)),
        "Cohen's kappa": fmt(skm.cohen_kappa_score(t, p, sample_weight=w)),
        "Log loss": fmt(skm.log_loss(t, s, labels=np.arange(K), sample_weight=w)),
        f"Top-{k} accuracy": fmt(
            skm.top_k_accuracy_score(t, s, k=k, labels=np.arange(K), sample_weight=w)
        ),
        "Macro ROC AUC (OvR)": fmt(skm.roc_auc_score(t, s, multi_class="ovr", sample_weight=w)),
    }


def shown(at) -> dict[str, str]:
    assert not at.exception
    return {m.label: m.value for m in at.main.metric}


def test_default_view_shows_every_headline_as_sklearn():
    at = open_page(PAGE, "iris")
    assert tuple(shown(at)) == HEADLINE
    assert shown(at) == expected(load_sample("iris"))
    assert shown(at)["Accuracy"] == "0.8133"
    q = at.query_params
    assert (q["k"], q["norm"], q["avg"], q["model"]) == ("2", "none", "macro", "model")
    # the worst cell (14 virginica read as versicolor) and the class of lowest F1
    assert (q["ct"], q["cp"], q["class"]) == ("virginica", "versicolor", "versicolor")
    assert len(at.get("plotly_chart")) == 3
    assert not at.error and not at.info


def test_digits_sample():
    at = open_page(PAGE, "digits10")
    assert shown(at) == expected(load_sample("digits10"))


def test_every_headline_is_derived_on_screen_ending_in_its_digits():
    at = open_page(PAGE, "digits10")
    latex = [x.value for x in at.latex]
    names = {
        "Accuracy": r"\text{Accuracy}",
        "Balanced accuracy": r"\text{Balanced accuracy}",
        "Macro F1": r"\text{Macro F1}",
        "MCC": r"\text{MCC}",
        "Cohen's kappa": r"\kappa",
        "Log loss": r"\text{Log loss}",
        "Top-2 accuracy": r"\text{Top-2 accuracy}",
        "Macro ROC AUC (OvR)": r"\text{Macro ROC AUC (OvR)}",
    }
    for label, start in names.items():
        line = next(x for x in latex if x.strip("$\n").startswith(start))
        assert line.strip("$\n").endswith(" = " + metric(at, label)), label
    # the mean over classes is written with its terms
    f1 = next(x for x in latex if r"\text{Macro F1}" in x)
    assert r"\dots" in f1 and "{10}" in f1


def test_controls_move_the_numbers_and_the_url():
    at = open_page(PAGE, "digits10")
    ds = load_sample("digits10")
    at.number_input(key="mc_k").set_value(3).run()
    assert shown(at)["Top-3 accuracy"] == expected(ds, 3)["Top-3 accuracy"]
    assert at.query_params["k"] == "3"
    at.radio(key="mc_norm").set_value("true").run()
    assert at.query_params["norm"] == "true"
    fig = at.get("plotly_chart")[0]
    assert '"colorbar":{"title":{"text":"rate"}}' in fig.proto.spec.replace(" ", "")
    at.radio(key="mc_avg").set_value("micro").run()
    assert at.query_params["avg"] == "micro"
    t, s = ds.y_true.argmax(axis=1), ds.score()
    micro = fmt(skm.roc_auc_score(t, s, multi_class="ovr", average="micro"))
    assert any(
        x.value.strip("$\n").endswith(micro) and "Micro ROC AUC" in x.value for x in at.latex
    )
    at.selectbox(key="mc_class").set_value("8").run()
    assert at.query_params["class"] == "8"
    assert any("Class **8** vs the rest" in c.value for c in at.caption)
    auc8 = skm.roc_auc_score(t, s, multi_class="ovr", average=None)[8]
    assert any(
        x.value.strip("$\n").startswith(r"\text{AUC}_{\text{8}}")
        and x.value.strip("$\n").endswith(fmt(auc8))
        for x in at.latex
    )


def test_a_link_opened_fresh_shows_the_same_view():
    first = open_page(PAGE, "digits10")
    first.number_input(key="mc_k").set_value(4).run()
    first.selectbox(key="mc_cell_true").set_value("3").run()
    first.selectbox(key="mc_cell_pred").set_value("7").run()
    params = dict(first.query_params)
    fresh = AppTest.from_file(APP, default_timeout=30)
    fresh.query_params.update(params)
    fresh.switch_page(PAGE).run()
    assert shown(fresh) == shown(first)
    assert fresh.selectbox(key="mc_cell_true").value == "3"
    assert fresh.selectbox(key="mc_cell_pred").value == "7"
    assert fresh.selectbox(key="mc_sample").value == first.selectbox(key="mc_sample").value


def test_a_cell_lists_its_samples():
    at = open_page(PAGE, "iris", ct="versicolor", cp="virginica")
    cell = next(m.value for m in at.markdown if m.value.startswith("**True versicolor"))
    assert "predicted virginica** (wrong): 13 sample(s)" in cell
    table = at.dataframe[0].value
    assert len(table) == 13 and list(table.columns)[:2] == ["sample", "p_setosa"]
    ds = load_sample("iris")
    rows = [ds.sample_ids.index(s) for s in table["sample"]]
    assert (ds.score()[rows].argmax(axis=1) == 2).all()
    assert (ds.y_true[rows].argmax(axis=1) == 1).all()


def test_sample_drill_down_writes_its_log_loss_term():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "iris", "sample": "flower000"})
    at.switch_page(PAGE).run()
    assert at.selectbox(key="mc_sample").value == "flower000"
    ds = load_sample("iris")
    p = ds.score()[0, 0]
    want = fmt(-np.log(p))
    assert any(x.value.strip("$\n").endswith(f"-\\log {fmt(p)} = {want}") for x in at.latex)


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
    fresh = AppTest.from_file(APP, default_timeout=30)
    fresh.query_params.update(params)
    fresh.switch_page(PAGE).run()
    assert shown(fresh) == shown(at)


def test_scores_that_are_not_probabilities_say_why_and_show_the_rest():
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(script("data")).run()
    text = b"y_true,score_a,score_b,score_c\na,2.5,-1,0\nb,0.3,1.5,-2\nc,0,0,3\na,1,2,0.5\n"
    at.file_uploader(key="data_upload_file").upload("logits.csv", text, "text/csv").run()
    at.switch_page(PAGE).run()
    got = shown(at)
    assert got["Log loss"] == "n/a"
    assert got["Accuracy"] == fmt(0.75)
    assert any("Log loss needs probabilities" in i.value for i in at.info)
    for table in (t.value for t in at.dataframe):
        assert not table.isna().any().any()


def test_a_bad_upload_keeps_the_dataset_and_names_the_cell():
    at = open_page(script("data"), "iris")
    bad = b"y_true,proba_cat,proba_dog\ncat,0.7,0.3\ncow,0.5,0.5\n"
    at.file_uploader(key="data_upload_file").upload("bad.csv", bad, "text/csv").run()
    assert any("line 3" in e.value and "'cow'" in e.value for e in at.error)
    at.switch_page(PAGE).run()
    assert shown(at) == expected(load_sample("iris"))


def weighted_iris() -> Dataset:
    """The iris sample with weights 1, 2, 0.5 in turn."""
    ds0 = load_sample("iris")
    return Dataset(
        "weighted iris",
        "multiclass",
        ds0.y_true,
        ds0.scores,
        sample_weight=np.tile([1.0, 2.0, 0.5], 50),
        label_names=ds0.label_names,
    )


def test_weighted_data_hides_one_vs_one_and_weights_every_number():
    ds = weighted_iris()
    at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert shown(at) == expected(ds)
    assert any("not defined with sample weights" in c.value for c in at.caption)


def test_wrong_kind_notice_opens_iris():
    at = open_page(PAGE, "balanced")
    assert not at.main.metric
    assert "multiclass" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
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
    page = str(Path(APP).parent / "views" / "compare.py")
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
    assert "row 3: 2 classes are marked 1" in at.error[0].value
    assert at.session_state["active_dataset"] == "iris"


def _upload(text: bytes, name: str = "edge.csv") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(script("data")).run()
    at.file_uploader(key="data_upload_file").upload(name, text, "text/csv").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


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
        at = _upload(text)
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


# ---------------------------------------------------------------- 95% intervals
def _sk(k: int) -> dict:
    """Each headline number as scikit-learn computes it on rows (y one-hot, scores, weights)."""

    def on(f):
        def number(y, s, w=None):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return f(y.argmax(axis=1), s, np.arange(s.shape[1]), w)

        return number

    return {
        "Accuracy": on(lambda t, s, K, w: skm.accuracy_score(t, s.argmax(1), sample_weight=w)),
        "Balanced accuracy": on(
            lambda t, s, K, w: skm.balanced_accuracy_score(t, s.argmax(1), sample_weight=w)
        ),
        "Macro F1": on(
            lambda t, s, K, w: skm.f1_score(
                t, s.argmax(1), average="macro", zero_division=0, sample_weight=w
            )
        ),
        "MCC": on(lambda t, s, K, w: skm.matthews_corrcoef(t, s.argmax(1), sample_weight=w)),
        "Cohen's kappa": on(
            lambda t, s, K, w: skm.cohen_kappa_score(t, s.argmax(1), sample_weight=w)
        ),
        "Log loss": on(lambda t, s, K, w: skm.log_loss(t, s, labels=K, sample_weight=w)),
        f"Top-{k} accuracy": on(
            lambda t, s, K, w: skm.top_k_accuracy_score(t, s, k=k, labels=K, sample_weight=w)
        ),
        "Macro ROC AUC (OvR)": on(
            lambda t, s, K, w: skm.roc_auc_score(t, s, multi_class="ovr", labels=K, sample_weight=w)
        ),
    }


def test_intervals_toggle_shows_each_headlines_bootstrap_and_the_link_keeps_it():
    at = open_page(PAGE, "iris")
    assert intervals_shown(at) == {} and "ci" not in at.query_params
    at.sidebar.toggle(key=classroom.CI_TOGGLE).set_value(True).run()
    assert not at.exception and at.query_params["ci"] == "1"
    ds = load_sample("iris")
    y, s = ds.y_true, ds.score()
    want = {label: ci_text(number, y, s) for label, number in _sk(2).items()}
    got = intervals_shown(at)
    assert got == want
    assert got["Accuracy"] == "95% CI 0.7533 – 0.8733"  # 113 to 131 right of 150
    # the link opened fresh shows the same intervals
    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.query_params.update(dict(at.query_params))
    fresh.switch_page(PAGE).run()
    assert not fresh.exception and intervals_shown(fresh) == got
    # k moves the top-k interval with it
    at.number_input(key="mc_k").set_value(1).run()
    assert intervals_shown(at)["Top-1 accuracy"] == got["Accuracy"]
    at.sidebar.toggle(key=classroom.CI_TOGGLE).set_value(False).run()
    assert intervals_shown(at) == {} and "ci" not in at.query_params


def test_weighted_intervals_resample_each_row_with_its_weight():
    ds = weighted_iris()
    at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.query_params["ci"] = "1"
    at.run()
    assert not at.exception
    got = intervals_shown(at)
    sk = _sk(2)
    for label in ("Accuracy", "Macro F1", "Log loss"):
        assert got[label] == ci_text(sk[label], ds.y_true, ds.score(), ds.sample_weight), label
