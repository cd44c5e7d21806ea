"""The Multiclass classification page's headline (AppTest): every number against
scikit-learn, weighted data, scores that are not probabilities, the 95% intervals."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.intervals import CONFIDENCE, N_RESAMPLES, SEED
from explorer.registry import script
from explorer.samples import load_sample
from explorer.ui import classroom
from tests.conftest import APP, code_style_headers, open_page
from tests.views.multiclass.common import (
    HEADLINE,
    PAGE,
    expected,
    open_link,
    shown,
    weighted_iris,
)
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
    assert code_style_headers(at) == []  # p_true, top_2, auc_a_vs_b in words


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


def _drawn_resamples(n: int) -> np.ndarray:
    """The rows of each of the app's resamples (explorer.intervals: N_RESAMPLES percentile
    resamples of the rows with its SEED), as metrics.bootstrap_ci draws them, and the
    whole sample (its estimate), one row each."""
    drawn = []

    def record(rows):
        drawn.append(rows.copy())
        return 0.0

    metrics.bootstrap_ci(
        record, np.arange(n), n_resamples=N_RESAMPLES, confidence=CONFIDENCE, random_state=SEED
    )
    return np.array(drawn)


def _sklearn_rules(y, s, w, k: int, drawn: np.ndarray) -> dict[str, np.ndarray]:
    """Each headline on every resample at once: the resample as weights on the rows (how
    often a row was drawn, times its weight), each number by scikit-learn's own rule.

    Per-sample terms (log loss, top-k) come from scikit-learn itself; the confusion-matrix
    numbers follow scikit-learn's formulas, with its label set: the classes true or
    predicted on a row drawn (a row of weight 0 included); ROC AUC (OvR, macro) is the
    weighted Mann-Whitney count, ties 1/2. :func:`test_the_rules_are_sklearns` checks
    them against scikit-learn called on resampled rows.
    """
    n, n_classes = s.shape
    t, pred = y.argmax(axis=1), s.argmax(axis=1)
    w = np.ones(n) if w is None else w
    drawn_times = np.zeros((len(drawn), n))
    np.add.at(drawn_times, (np.repeat(np.arange(len(drawn)), n), drawn.ravel()), 1.0)
    weight = drawn_times * w
    total = weight.sum(axis=1)
    labels = np.arange(n_classes)

    def per_sample(f):
        return np.array([f(t, s, labels, np.eye(n)[i]) for i in range(n)])

    cells = weight @ np.eye(n_classes * n_classes)[t * n_classes + pred]
    cm = cells.reshape(-1, n_classes, n_classes)  # [resample, true, predicted]
    tp, true_sum, pred_sum = np.einsum("rcc->rc", cm), cm.sum(axis=2), cm.sum(axis=1)
    drawn_class = (drawn_times @ (np.eye(n_classes)[t] + np.eye(n_classes)[pred])) > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(true_sum > 0, tp / true_sum, np.nan)
        f1_den = true_sum + pred_sum  # 2 tp + fp + fn
        f1 = np.where(f1_den > 0, 2 * tp / np.where(f1_den > 0, f1_den, 1), 0.0)
        cov_tp = tp.sum(1) * total - (true_sum * pred_sum).sum(1)
        cov_pp = total**2 - (pred_sum**2).sum(1)
        cov_tt = total**2 - (true_sum**2).sum(1)
        mcc = np.where(cov_pp * cov_tt == 0, 0.0, cov_tp / np.sqrt(cov_pp * cov_tt))
        expected = np.einsum("rc,rd->rcd", true_sum, pred_sum) / total[:, None, None]
        off = 1 - np.eye(n_classes)
        kappa = 1 - (cm * off).sum((1, 2)) / (expected * off).sum((1, 2))
    log_loss = per_sample(
        lambda t, s, K, e: skm.log_loss(t, s, labels=K, sample_weight=e, normalize=False)
    )
    top_k = per_sample(
        lambda t, s, K, e: skm.top_k_accuracy_score(
            t, s, k=k, labels=K, sample_weight=e, normalize=False
        )
    )
    aucs = []
    for c in labels:
        g = np.sign(s[:, c][:, None] - s[:, c][None, :]) / 2 + 0.5  # 1, 1/2, 0
        pos, neg = weight * (t == c), weight * (t != c)
        aucs.append(((pos @ g) * neg).sum(1) / (pos.sum(1) * neg.sum(1)))
    return {
        "Accuracy": weight @ (pred == t) / total,
        "Balanced accuracy": np.nanmean(recall, axis=1),
        "Macro F1": (f1 * drawn_class).sum(1) / drawn_class.sum(1),
        "MCC": mcc,
        "Cohen's kappa": kappa,
        "Log loss": weight @ log_loss / total,
        f"Top-{k} accuracy": weight @ top_k / total,
        "Macro ROC AUC (OvR)": np.mean(aucs, axis=0),
    }


def _intervals(ds, k: int = 2) -> dict[str, str]:
    """Each headline's interval line as the page should show it: scikit-learn's rules on
    each of the app's resamples (:func:`_sklearn_rules`), through metrics.bootstrap_ci's
    own percentiles (a second pass that looks each resample's value up by its rows)."""
    y, s, w = ds.y_true, ds.score(), ds.sample_weight
    drawn = _drawn_resamples(ds.n_samples)
    values = _sklearn_rules(y, s, w, k, drawn)
    at = {rows.tobytes(): i for i, rows in enumerate(drawn)}
    out = {}
    for label, v in values.items():
        r = metrics.bootstrap_ci(
            lambda rows, v=v: v[at[rows.tobytes()]],
            np.arange(ds.n_samples),
            n_resamples=N_RESAMPLES,
            confidence=CONFIDENCE,
            random_state=SEED,
        )
        out[label] = f"95% CI {fmt(r.low)} – {fmt(r.high)}"
    return out


@pytest.mark.parametrize("weighted", [False, True], ids=["iris", "weighted iris"])
def test_the_rules_are_sklearns(weighted):
    """:func:`_sklearn_rules` gives what scikit-learn gives on the resampled rows: on the
    whole sample and on every 50th resample, each headline."""
    ds = weighted_iris() if weighted else load_sample("iris")
    y, s, w = ds.y_true, ds.score(), ds.sample_weight
    drawn = _drawn_resamples(ds.n_samples)
    values = _sklearn_rules(y, s, w, 2, drawn)
    for label, number in _sk(2).items():
        for i in range(0, len(drawn), 50):
            rows = drawn[i]
            want = number(y[rows], s[rows], None if w is None else w[rows])
            assert values[label][i] == pytest.approx(want, rel=1e-12, abs=1e-15), (label, i)


def test_intervals_toggle_shows_each_headlines_bootstrap_and_the_link_keeps_it():
    at = open_page(PAGE, "iris")
    assert intervals_shown(at) == {} and "ci" not in at.query_params
    at.sidebar.toggle(key=classroom.CI_TOGGLE).set_value(True).run()
    assert not at.exception and at.query_params["ci"] == "1"
    want = _intervals(load_sample("iris"))
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
    want = _intervals(ds)
    for label in ("Accuracy", "Macro F1", "Log loss"):
        assert got[label] == want[label], label
