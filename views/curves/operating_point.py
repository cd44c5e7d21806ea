"""The operating-point component of the ROC & PR curves page: the threshold slider, both
curves with the operating point and the candidate markers, and the confusion matrix
with its rates, drawn and moved in the browser (views/curves/static/operating_point.js and
.css, read once here; the data from :mod:`explorer.charts.operating_point`).

Moving the slider redraws the marker, the counts and the rates in the browser within
one animation frame; on release the component reports the threshold, and the page's
fragment reruns so the server's numbers follow. A click near a curve vertex reports
that model and that threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from explorer.ui.language import t

_STATIC = Path(__file__).parent / "static"
#: The component's key; its value holds the last reported threshold.
KEY = "curves_operating_point"
#: The component's texts by the id its JavaScript names them with, in English; sent
#: translated (``data["text"]``), the JavaScript filling a template's ``${name}``.
TEXTS = {
    "roc": "ROC curve",
    "pr": "Precision-recall curve",
    "pr_short": "PR curve",
    "fpr_axis": "False positive rate (FPR)",
    "tpr_axis": "True positive rate (TPR)",
    "recall": "Recall",
    "precision": "Precision",
    "recall_tpr": "Recall (TPR)",
    "accuracy": "Accuracy",
    "error_rate": "Error rate",
    "roc_hover": "${model}: threshold ${t}, FPR ${x}, TPR ${y}",
    "pr_hover": "${model}: threshold ${t}, recall ${x}, precision ${y}",
    "scores": "Scores by class, with the threshold",
    "threshold": "Threshold",
    "cm": "Confusion matrix",
    "predicted1": "predicted 1",
    "predicted0": "predicted 0",
    "actual1": "actual 1",
    "actual0": "actual 0",
    "chance": "chance",
    "fbeta": "F-beta (β = ${beta})",
    "norm": "Rates in brackets: ${norm}",
    "above": " (above every score: nothing predicted positive)",
    "note": "predicted 1 when score ≥ ${t}${above}",
    "roc_alt": "ROC curve of ${models}; the marked point of ${model}, at the threshold ${t}: "
    "FPR ${fpr}, TPR ${tpr}.",
    "pr_alt": "Precision-recall curve of ${models}; the marked point of ${model}, at the "
    "threshold ${t}: recall ${recall}, precision ${precision}.",
    "alt_hidden": "${chart} of ${models}; the rates of the marked point of ${model}, at the "
    "threshold ${t}, wait for Reveal.",
    "scores_alt": "Scores by class (a bar per score, class 1 above, class 0 below); the "
    "threshold at ${t}.",
}

_component = st.components.v2.component(
    "curves_operating_point",
    js=(_STATIC / "operating_point.js").read_text(encoding="utf-8"),
    css=(_STATIC / "operating_point.css").read_text(encoding="utf-8"),
)


def operating_point(
    data: dict, on_threshold: Callable[[], None], on_pick: Callable[[], None]
) -> None:
    """Draw the component with ``data`` (the page model's
    :func:`~explorer.pages.curves.operating_data` and
    :func:`~explorer.pages.curves.operating_settings`, and the flags ``hidden``,
    ``predict`` and ``present``). ``on_threshold`` runs when the slider reports a
    threshold (``reported(...)`` reads it), ``on_pick`` when a curve vertex is
    clicked (``picked(...)``)."""
    _component(
        key=KEY,
        data={**data, "text": {name: t(text) for name, text in TEXTS.items()}},
        on_threshold_change=on_threshold,
        on_pick_change=on_pick,
        height="content",
    )


def reported() -> float | None:
    """The threshold the slider last reported, or None."""
    value = _value("threshold")
    t = value.get("t") if isinstance(value, dict) else None
    return float(t) if isinstance(t, int | float) and not isinstance(t, bool) else None


def picked() -> tuple[str | None, float | None]:
    """The model and threshold of the curve vertex just clicked, or (None, None)."""
    value = _value("pick")
    if not isinstance(value, dict):
        return None, None
    t, model = value.get("t"), value.get("model")
    if not isinstance(t, int | float) or isinstance(t, bool):
        return None, None
    return (model if isinstance(model, str) else None), float(t)


def _value(name: str):
    state = st.session_state.get(KEY)
    if state is None:
        return None
    try:
        return state[name]
    except (KeyError, TypeError):
        return getattr(state, name, None)
