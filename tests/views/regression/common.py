"""What the Regression page's AppTest tests share: opening the page, its headline as
`metrics` computes it, and the datasets they use."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import MetricInputError, recency_weights
from tests.conftest import APP, metric

PAGE = script("regression")

LABELS = ["MAE", "Weighted MAE", "MSE", "RMSE", "MAPE", "MAPE (%)", "RMSLE", "R²"]


def delta(at, label):
    return next(m.delta for m in at.metric if m.label == label)


def open_page(sample="diabetes", *, query=None, datasets=None):
    """The app with ``sample`` picked (or ``datasets`` in the session), on the Regression
    page, at ``query``."""
    at = AppTest.from_file(APP, default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    if datasets:
        # A session dataset goes in before the first run; open the page directly, since
        # AppTest cannot re-serialize the sidebar picker's formatted option afterwards.
        at.session_state["session_datasets"] = {d.name: d for d in datasets}
        at.session_state["active_dataset"] = datasets[0].name
        at.switch_page(PAGE).run()
        assert not at.exception
        return at
    at.run()
    assert not at.exception
    if sample is not None:
        at.selectbox(key="dataset_picker").set_value(sample).run()
        assert not at.exception
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def expected(y, p, *, w=None, w_weighted="recency"):
    """The page's headline numbers, straight from metrics."""
    ww = {"recency": recency_weights(len(y)), "uniform": None, "dataset": w}[w_weighted]
    out = {
        "MAE": fmt(metrics.mean_absolute_error(y, p, sample_weight=w)),
        "Weighted MAE": fmt(metrics.mean_absolute_error(y, p, sample_weight=ww)),
        "MSE": fmt(metrics.mean_squared_error(y, p, sample_weight=w)),
        "RMSE": fmt(metrics.root_mean_squared_error(y, p, sample_weight=w)),
        "MAPE": fmt(metrics.mean_absolute_percentage_error(y, p, sample_weight=w)),
        "MAPE (%)": fmt(100 * metrics.mean_absolute_percentage_error(y, p, sample_weight=w)),
        "R²": fmt(metrics.r2_score(y, p, sample_weight=w)),
    }
    try:
        out["RMSLE"] = fmt(metrics.root_mean_squared_log_error(y, p, sample_weight=w))
    except MetricInputError:
        out["RMSLE"] = "undefined"
    return out


def assert_headline(at, want):
    assert {label: metric(at, label) for label in LABELS} == want


def frame_with(at, column):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def shifted(p, i, by):
    q = np.array(p, dtype=float)
    q[i] += by
    return q


DIABETES = load_sample("diabetes")


def awkward_dataset():
    y = np.array([0.0, 3.0, -2.0, 5.0, 0.0, 10.0, 2.5, 7.0])
    return Dataset(
        "awkward",
        "regression",
        y,
        {"a": np.array([0.5, 2.0, -1.5, 5.5, 0.2, 8.0, 2.0, 9.0]), "b": y + 1.0},
        sample_ids=tuple(f"s{i}" for i in range(8)),
        source="upload",
    )
