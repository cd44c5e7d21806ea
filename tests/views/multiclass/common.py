"""What the Multiclass classification page's AppTest tests share: the headline as
scikit-learn computes it, opening a link or an upload, a weighted dataset."""

from __future__ import annotations

import numpy as np
import sklearn.metrics as skm
from streamlit.testing.v1 import AppTest

from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import APP

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


def upload(text: bytes, name: str = "edge.csv") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(script("data")).run()
    at.file_uploader(key="data_upload_file").upload(name, text, "text/csv").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def open_link(params: dict) -> AppTest:
    """A new session opening the page at a link's ``params``."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(params)
    at.switch_page(PAGE).run()
    return at
