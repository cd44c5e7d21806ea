"""The headline of the Regression page: eight numbers with their change when a
prediction is moved, a warning for each undefined one, and what they are computed on."""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import regression
from explorer.ui import cache, classroom
from explorer.ui.language import t
from views.regression.controls import Settings

UNDEFINED = "undefined"
#: What the Weighted MAE weighs by, for the caption under the headline.
WEIGHT_NOTE = {
    "dataset": "the dataset's `sample_weight` column",
    "uniform": "no weights (every sample counts 1), so it equals MAE",
    "recency": "recency weights w_i = 2i / (n + 1), row 1 the oldest (they average 1)",
}


def show(ds, settings: Settings, pred: np.ndarray) -> tuple[dict, dict]:
    """The headline of the moved prediction ``pred``, the reveal button and the caption;
    returns the headline values now and before the move (the same when none)."""
    model, weights = settings.model, settings.weights
    now = cache.regression.headline(ds, model, weights, *settings.move)
    before = cache.regression.headline(ds, model, weights, 0, 0.0) if settings.moved else now
    ci = classroom.intervals(cache.regression.intervals, ds, model, weights, *settings.move)
    numbers(now, regression.changes(now, before) if settings.moved else None, ci)
    classroom.reveal_button()
    st.caption(_caption(ds, settings, pred))
    return now, before


def numbers(now: dict, changes: dict | None, intervals: dict) -> None:
    """The eight headline numbers, with their change when a prediction is moved (and
    their ``intervals``, by label, when on), and a warning for each metric that is
    undefined."""
    errors_shown = set()
    for row in (list(regression.HEADLINE)[:4], list(regression.HEADLINE)[4:]):
        cols = st.columns(4)
        for col, label in zip(cols, row, strict=True):
            value, err = now[label]
            change = None if changes is None else changes[label]
            classroom.headline(
                col,
                t(label),
                t(UNDEFINED) if value is None else fmt(value),
                interval=None if value is None else intervals.get(label),
                delta=None if change is None else ("0" if change == 0 else fmt(change)),
                delta_color="normal" if label in regression.HIGHER_IS_BETTER else "inverse",
            )
            if err is not None and err not in errors_shown:
                errors_shown.add(err)
                st.warning(
                    t("${label} is undefined here: ${err}", label=t(label), err=literal(err))
                )


def _caption(ds, settings: Settings, pred: np.ndarray) -> str:
    """The model, the samples, the weights, and the moved prediction if any."""
    i, shift = settings.outlier, settings.shift
    moved = t(
        " Sample **${sample}**'s prediction is moved by ${shift} (${before} to ${after}); the "
        "small numbers give each metric's change.",
        sample=literal(ds.sample_ids[i]),
        shift=f"{shift:+g}",
        before=f"{ds.score(settings.model)[i]:.4g}",
        after=f"{pred[i]:.4g}",
    )
    if ds.sample_weight is not None:
        weighted = t(", weighted by the dataset's `sample_weight`")
    else:
        weighted = t(", unweighted")
    return t(
        "Model **${model}**, ${n} samples${weighted}. **Weighted MAE** uses ${weights}. MAPE "
        "is a fraction (scikit-learn's), MAPE (%) the same number x 100 (the revision "
        "sheet's).${moved}",
        model=literal(settings.model),
        n=ds.n_samples,
        weighted=weighted,
        weights=t(WEIGHT_NOTE[settings.weights]),
        moved=moved if settings.moved else "",
    )
