"""Text labels on the binary pages: "spam"/"ham" opens with a positive-class chooser."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from explorer.ui import sidebar
from tests.conftest import APP, metric, rendered

CSV = b"y_true,y_score\nspam,0.9\nham,0.2\nspam,0.7\nham,0.4\nham,0.8\nspam,0.35\n"
Y = ["spam", "ham", "spam", "ham", "ham", "spam"]
S = [0.9, 0.2, 0.7, 0.4, 0.8, 0.35]


def upload(body: bytes = CSV, name: str = "mail.csv") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(script("data")).run()
    at.file_uploader(key="data_upload_file").upload(name, body, "text/csv").run()
    assert not at.exception and not at.error
    return at


def test_spam_ham_opens_on_the_binary_page_with_spam_positive():
    at = upload()
    assert at.sidebar.selectbox(key=sidebar.POSITIVE).value == "spam"
    at.switch_page(script("curves")).run()
    assert not at.exception
    # scikit-learn's rule for text labels: the greater one ("spam") is positive
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(Y, S))
    y_spam = [int(v == "spam") for v in Y]
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y_spam, S))


def test_choosing_ham_flips_the_labels_everywhere_and_the_link_keeps_it():
    at = upload()
    at.switch_page(script("curves")).run()
    at.sidebar.selectbox(key=sidebar.POSITIVE).set_value("ham").run()
    assert not at.exception
    assert at.sidebar.selectbox(key=sidebar.POSITIVE).value == "ham"
    y_ham = [int(v == "ham") for v in Y]
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y_ham, S))
    ap = metrics.average_precision_score(y_ham, S)
    assert metric(at, "Average precision") == fmt(ap)
    # a link opened fresh carries the dataset with ham as the positive class
    fresh = AppTest.from_file(APP, default_timeout=30)
    fresh.query_params.update(dict(at.query_params))
    fresh.switch_page(script("curves")).run()
    assert not fresh.exception
    assert fresh.sidebar.selectbox(key=sidebar.POSITIVE).value == "ham"
    assert metric(fresh, "Average precision") == fmt(ap)


def test_three_text_classes_are_refused_with_the_cell():
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(script("data")).run()
    body = b"y_true,y_score\nspam,0.9\nham,0.2\neggs,0.5\n"
    at.file_uploader(key="data_upload_file").upload("three.csv", body, "text/csv").run()
    assert not at.exception
    assert any('three.csv, line 2, column "y_true"' in rendered(e.value) for e in at.error)


def test_logits_for_the_other_class_open_at_zero_and_flip_in_one_click():
    rng = np.random.default_rng(7)
    benign = rng.random(60) < 0.6
    logit = np.where(benign, 1.5, -1.5) + rng.normal(size=60)  # the logit of P(benign)
    labels = np.where(benign, "benign", "malignant")
    body = "y_true,y_score\n" + "".join(
        f"{a},{float(b)!r}\n" for a, b in zip(labels, logit, strict=True)
    )
    at = upload(body.encode(), "tumours.csv")
    at.switch_page(script("curves")).run()
    assert not at.exception
    # scikit-learn's rule makes "malignant" positive: AUC far below 0.5
    y_mal = (labels == "malignant").astype(int)
    auc = metrics.roc_auc_score(y_mal, logit)
    assert auc < 0.1 and metric(at, "ROC AUC") == fmt(auc)
    assert at.sidebar.selectbox(key=sidebar.POSITIVE).value == "malignant"
    assert any("look like the probability of **benign**" in w.value for w in at.warning)
    # logits open at threshold 0 (a probability of 0.5), and the page says so
    assert at.number_input(key="curves_threshold_number").value == 0.0
    assert any("the threshold opens at 0" in m.value for m in at.markdown)
    r = metrics.rates_at_threshold(y_mal, logit, 0.0)
    assert metric(at, "Recall") == fmt(r["recall"])
    at.button(key="curves_flip_positive").click().run()
    assert not at.exception
    assert at.sidebar.selectbox(key=sidebar.POSITIVE).value == "benign"
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(1 - y_mal, logit))
    assert metric(at, "Recall") == fmt(metrics.rates_at_threshold(1 - y_mal, logit, 0.0)["recall"])
    assert not any("look like the probability" in w.value for w in at.warning)
