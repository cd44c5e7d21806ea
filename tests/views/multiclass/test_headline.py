"""The Multiclass classification page's headline (AppTest): every number against
scikit-learn, weighted data, scores that are not probabilities, the 95% intervals."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import sklearn.metrics as skm
from streamlit.testing.v1 import AppTest

from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from explorer.ui import classroom
from tests.conftest import APP, open_page
from tests.views.multiclass.common import (
    HEADLINE,
    PAGE,
    expected,
    open_link,
    shown,
    weighted_iris,
)
from tests.views.test_intervals import expected as ci_text
from tests.views.test_intervals import shown as intervals_shown


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
    fresh = open_link(dict(at.query_params))
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
