"""The controls of the Leaderboard: the metric, the test, the correction and alpha,
bound to ``?metric=``, ``?test=``, ``?corr=`` and ``?alpha=``."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.pages import leaderboard
from explorer.ui import bound


def show(ds: Dataset) -> leaderboard.Settings:
    """Four select boxes in a row; a test or correction the metric does not take falls
    back to the metric's first one."""
    c1, c2, c3, c4 = st.columns([2, 2, 2, 1])
    labels = [m.label for m in leaderboard.METRICS[ds.kind]]
    metric = bound.selectbox(c1, "Metric", labels, key="lb_metric", param="metric")
    tests = leaderboard.metric_of(ds, metric).tests
    test = bound.selectbox(
        c2, "Test", tests, key="lb_test", param="test", format_func=leaderboard.TESTS.get
    )
    corr = bound.selectbox(
        c3,
        "Correction across pairs",
        leaderboard.corrections_for(test),
        key="lb_corr",
        param="corr",
        format_func=leaderboard.CORRECTIONS.get,
    )
    alpha = bound.selectbox(
        c4,
        "alpha",
        leaderboard.ALPHAS,
        key="lb_alpha",
        param="alpha",
        default=0.05,
        parse=float,
        to_url=lambda a: f"{a:g}",
    )
    return leaderboard.Settings(metric, test, corr, alpha)
