"""The controls of the Leaderboard: the metrics, the test, the correction and alpha,
bound to ``?metric=`` (``a;b``, the first one ranks), ``?test=``, ``?corr=`` and ``?alpha=``."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.pages import leaderboard
from explorer.ui import bound, language
from explorer.ui.language import t


def show(ds: Dataset) -> leaderboard.Settings:
    """The metrics, then three select boxes in a row; a test or correction the first
    metric does not take falls back to its first one. No metric picked: the kind's first."""
    labels = [m.label for m in leaderboard.METRICS[ds.kind]]
    picked = bound.multiselect(
        st, t("Metrics (the table is sorted by the first)"), labels, key="lb_metric",
        param="metric", default=labels[:1], format_func=language.options(str),
    )  # fmt: skip
    metric, *more = picked or labels[:1]
    c2, c3, c4 = st.columns([2, 2, 1])
    tests = leaderboard.metric_of(ds, metric).tests
    test = bound.selectbox(
        c2,
        t("Test"),
        tests,
        key="lb_test",
        param="test",
        format_func=language.options(leaderboard.TESTS.get),
    )
    corr = bound.selectbox(
        c3,
        t("Correction across pairs"),
        leaderboard.corrections_for(test),
        key="lb_corr",
        param="corr",
        format_func=language.options(leaderboard.CORRECTIONS.get),
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
    return leaderboard.Settings(metric, test, corr, alpha, tuple(more))
