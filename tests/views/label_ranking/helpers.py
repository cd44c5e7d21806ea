"""What the Label ranking page's AppTest files share: opening the page, reading its
tables, and the headline and sample numbers the metrics give."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt, undash
from explorer.registry import script
from explorer.samples import load_sample
from tests import conftest
from tests.conftest import APP, metric
from tests.explorer.pages.test_label_ranking import SEED_S, SEED_Y, _case

__all__ = ["SEED_S", "SEED_Y", "_case"]

PAGE = script("label_ranking")


def table(at, column):
    """The first st.dataframe holding ``column`` (its "—" cells read back as NaN)."""
    return undash(next(d.value for d in at.dataframe if column in d.value.columns))


def open_page(name, **params):
    return conftest.open_page(PAGE, name, **params)


def assert_headline(at, y, s, w=None):
    assert metric(at, "Coverage error") == fmt(metrics.coverage_error(y, s, sample_weight=w))
    assert metric(at, "Best coverage") == fmt(metrics.best_coverage_error(y, sample_weight=w))
    assert metric(at, "LRAP") == fmt(
        metrics.label_ranking_average_precision_score(y, s, sample_weight=w)
    )
    assert metric(at, "Ranking loss") == fmt(metrics.label_ranking_loss(y, s, sample_weight=w))


def assert_sample(at, y, s, ties="max"):
    per = metrics.tie_broken_per_sample(y[None, :], s[None, :], ties=ties)
    assert metric(at, "Sample LRAP") == fmt(per.lrap[0])
    assert metric(at, "Sample coverage") == fmt(per.coverage[0])
    assert metric(at, "Sample ranking loss") == fmt(metrics.ranking_loss_per_sample([y], [s])[0])
    lrap_t = table(at, "n_true_at_or_above")
    assert lrap_t["running_value"].iloc[-1] == pytest.approx(per.lrap[0])
    open_steps_tab(at, "Coverage")  # the step tabs are lazy: one table at a time
    assert not any("n_true_at_or_above" in d.value for d in at.dataframe)
    cov_t = next(
        d.value
        for d in at.dataframe
        if "running_value" in d.value and "fraction" not in d.value and "true_label" not in d.value
    )
    assert cov_t["running_value"].iloc[-1] == per.coverage[0]
    assert conftest.code_style_headers(at, _label_names(at)) == []
    open_steps_tab(at, "Ranking loss")
    loss_t = table(at, "true_label")
    assert loss_t["running_value"].iloc[-1] == pytest.approx(
        metrics.ranking_loss_per_sample([y], [s])[0]
    )
    open_steps_tab(at, "LRAP")
    assert conftest.code_style_headers(at, _label_names(at)) == []  # n_true_at_or_above


def _label_names(at) -> tuple[str, ...]:
    """The open dataset's label names (a session dataset's, or a bundled sample's)."""
    name = at.session_state["active_dataset"]
    own = at.session_state["session_datasets"] if "session_datasets" in at.session_state else {}
    return (own[name] if name in own else load_sample(name)).label_names


def open_steps_tab(at, tab: str) -> None:
    """Open one of the drill-down's step tabs (only the open one is drawn)."""
    at.session_state["lr_steps_tab"] = tab
    at.run()
    assert not at.exception
    assert at.query_params["steps"] == tab.split()[0].lower()


def open_with(ds) -> AppTest:
    """Open the page alone on a session dataset (the sidebar picker cannot be driven then)."""
    at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    return at
