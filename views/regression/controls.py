"""Every control of the Regression page, each bound to the address.

:func:`show` draws the model, the weights of the Weighted MAE and the outlier control
and returns their :class:`Settings`; :func:`explain` (the metric that "How it is
computed" writes out) and :func:`rmsle_demo` (the demo's own two inputs) are drawn in
their sections.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from explorer.i18n import translate
from explorer.links import float_text
from explorer.pages import regression
from explorer.pages._parse import finite_float
from explorer.ui import bound, language, url
from explorer.ui.language import t

WEIGHT_LABELS = {
    "dataset": "the dataset's sample_weight column",
    "uniform": "none (every sample weighs 1: equals MAE)",
    "recency": "by recency: linearly increasing with row order",
}
#: The metrics "How it is computed" can write out.
EXPLAIN = list(regression.STEP_KEY)
#: The largest prediction shift and demo value the boxes take.
LIMIT = 1e9


@dataclass(frozen=True)
class Settings:
    """The model, the Weighted MAE's weights (``"dataset"``, ``"uniform"``,
    ``"recency"``) and the outlier control: sample ``outlier``'s prediction moved by
    ``shift``."""

    model: str
    weights: str
    outlier: int
    shift: float

    @property
    def moved(self) -> bool:
        """Whether a prediction is moved."""
        return self.shift != 0

    @property
    def move(self) -> tuple[int, float]:
        """The (row, by) of the cached computations: (0, 0.0) when nothing is moved, so
        that every row of an unmoved prediction shares one entry."""
        return (int(self.outlier) if self.moved else 0), float(self.shift)


def show(ds) -> Settings:
    """The model and the weights in one row, the outlier control in the next."""
    options = regression.weight_options(ds)
    # a format_func may be called outside the script run (AppTest): the language is fixed now
    lang = language.current()
    c1, c2 = st.columns(2)
    model = bound.selectbox(
        c1,
        t("Model"),
        ds.model_names,
        key="reg_model",
        param="model",
        help=t("The headline numbers are this model's."),
    )
    weights = bound.radio(
        c2,
        t("Weights for Weighted MAE"),
        options,
        key="reg_weights",
        param="weights",
        default=regression.default_weights(ds),
        format_func=lambda choice: translate(WEIGHT_LABELS[choice], lang),
        horizontal=True,
        help=t(
            "The revision sheet's weighted MAE gives recent samples more weight. The rows "
            "are taken to be in time order."
        ),
    )
    outlier, shift = _outlier(ds, model, *st.columns(2))
    return Settings(model, weights, outlier, shift)


def _outlier(ds, model: str, c_sample, c_shift) -> tuple[int, float]:
    """The sample whose prediction moves (its label carries the model's prediction) and
    by how much."""
    ids, y_true, pred = ds.sample_ids, ds.y_true, ds.score(model)
    outlier = bound.sample(
        c_sample,
        t("Outlier control: sample to move"),
        ds.n_samples,
        lambda i: f"{ids[i]}  (y = {y_true[i]:g}, y_hat = {pred[i]:.4g})",
        key="reg_outlier_sample",
        param="outlier",
        picker_max=2000,
    )
    shift = bound.number(
        c_shift,
        t("Move its prediction by"),
        key="reg_outlier_shift",
        param="shift",
        default=0.0,
        parse=finite_float,
        check=url.float_in(-LIMIT, LIMIT, clamp=False),
        to_url=float_text,  # exact: a rounded shift changes the metrics
        min_value=-LIMIT,
        max_value=LIMIT,
        step=10.0,
        help=t(
            "Added to the chosen sample's prediction. Every metric below follows; the small "
            "numbers under each headline are the change against the unmoved prediction."
        ),
    )
    return int(outlier), float(shift)


def explain() -> str:
    """The metric whose formula and steps are written out (RMSE by default)."""
    lang = language.current()  # fixed for a format_func called outside the run (AppTest)
    return bound.selectbox(
        st,
        t("Metric to explain"),
        EXPLAIN,
        key="reg_explain",
        param="explain",
        default="RMSE",
        format_func=lambda name: translate(name, lang),
    )


def rmsle_demo() -> tuple[float, float]:
    """The RMSLE demo's true value and the gap it is predicted too low and too high."""
    d1, d2 = st.columns(2)
    y = bound.number(
        d1,
        t("True value y"),
        key="reg_rmsle_demo_true",
        param="rt",
        default=200.0,
        parse=finite_float,
        check=url.float_in(-0.99, LIMIT, clamp=False),
        to_url=float_text,
        min_value=-0.99,
        max_value=LIMIT,
        step=10.0,
    )
    gap = bound.number(
        d2,
        t("Predict this much too low and too high"),
        key="reg_rmsle_demo_gap",
        param="rg",
        default=50.0,
        parse=finite_float,
        check=url.float_in(0.0, LIMIT, clamp=False),
        to_url=float_text,
        min_value=0.0,
        max_value=LIMIT,
        step=10.0,
    )
    return float(y), float(gap)
