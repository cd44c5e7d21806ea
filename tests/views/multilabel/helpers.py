"""What the Multilabel classification page's AppTest files share: opening the page or
a tab, and the headline numbers the metrics give."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from tests import conftest
from tests.conftest import APP
from views.multilabel.panel import TAB_KEY

PAGE = script("multilabel")


def open_page(sample="digit_properties", **params) -> AppTest:
    return conftest.open_page(PAGE, sample, **params)


def open_tab(at, tab: str) -> AppTest:
    """Open the panel's tab ``tab`` (only the open tab is drawn) and rerun."""
    at.session_state[TAB_KEY] = tab
    at.run()
    assert not at.exception
    return at


def expected(ds, pred, *, model=None, zd="warn", beta=1.0):
    y, w = ds.y_true, ds.sample_weight
    return {
        "Hamming loss": fmt(metrics.hamming_loss(y, pred, sample_weight=w)),
        "Subset accuracy": fmt(metrics.accuracy_score(y, pred, sample_weight=w)),
        "Micro F1": fmt(metrics.f1_score(y, pred, average="micro", zero_division=zd)),
        "Macro F1": fmt(metrics.f1_score(y, pred, average="macro", zero_division=zd)),
        "Jaccard (samples)": fmt(
            metrics.jaccard_score(
                y,
                pred,
                average="samples",
                zero_division="warn" if isinstance(zd, float) else zd,
            )
        ),
    }


def assert_metrics(at, want):
    assert not at.exception
    got = {m.label: m.value for m in at.metric}
    assert got == want


def open_with(ds) -> AppTest:
    """Open the page alone on a session dataset (the sidebar picker cannot be driven then)."""
    at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    return at
