"""ROC & PR curves: every headline number derived on screen from the inputs.

The numbers come from :mod:`explorer.pages.curves_derivation` through its cached
declarations in :mod:`explorer.ui.cache.curves`, the texts from views/curves/derivation.md.
Nothing runs on import: the ROC & PR curves page calls :func:`show`.
"""

from __future__ import annotations

import streamlit as st

import metrics
from explorer.datasets import Dataset
from explorer.formatting import literal
from explorer.ui import cache
from explorer.ui.derivations import show as show_derivations
from explorer.ui.language import refusal
from explorer.ui.language import t as tr
from views import prose

#: The rates shown, in the order of the page's headline (then the other rates).
RATE_ORDER = ("Precision", "Recall", "F1", "Accuracy", "F-beta", "Error rate", "TPR", "FPR")


def _text(name: str, **values) -> str:
    return prose.fill("curves/derivation", name, **values)


def show(ds: Dataset, model: str, t: float, beta: float) -> None:
    """Draw the derivation of every headline number of the ROC & PR curves page.

    Call it from the page (:mod:`views.curves.tabs`) once the operating point is known, where the
    derivations should appear (for example in step 3, "how it is computed")::

        from views.curves import derivation

        derivation.show(ds, model, t, beta)

    Parameters
    ----------
    ds : Dataset
        The active dataset, of kind "binary" (the page has checked it).
    model : str
        The model whose numbers the headline shows (one of ``ds.model_names``).
    t : float
        The operating point's threshold (score >= t is predicted positive), the
        same value the headline's Precision, Recall, ... use.
    beta : float
        The F-beta weight of the headline's F-beta.

    Draws, in a container keyed ``curves_derivation``: a subheader, ROC AUC as the
    trapezoid sum, average precision as the step sum and log loss as the mean of the
    samples' terms (each its formula, then its terms; a warning when log loss is
    undefined), then every rate at ``t`` with its counts plugged in. Each line ends
    in the digits of the headline it derives (``explorer.formatting.fmt``). Data
    ``metrics`` refuses (one class only, say) get a short ``st.error``, no traceback.
    """
    with st.container(key="curves_derivation"):
        st.subheader(tr("Every headline number, derived"))
        st.markdown(_text("intro"))
        try:
            lines = cache.curves.curve_lines(ds, model)
            counts, rates = cache.curves.derived_rates(ds, model, float(t), float(beta))
        except metrics.MetricInputError as exc:  # e.g. one class only: no curve
            st.error(tr("No derivation for this data: ${why}", why=literal(refusal(exc))))
            return
        for name, section in (
            ("ROC AUC", "roc_auc"),
            ("Average precision", "average_precision"),
            ("Log loss", "log_loss"),
        ):
            st.markdown(_text(section))
            show_derivations([lines[name]], formulas=True, warn_undefined=True, hidden_note=False)
        _rates(ds, counts, rates, t)


def _rates(ds: Dataset, counts: dict, rates: dict, t: float) -> None:
    """The rates at the threshold, in two columns, each with its counts plugged in."""
    weighted = tr(" (total sample_weight of each cell)") if ds.sample_weight is not None else ""
    st.markdown(_text("rates", t=f"{t:.4g}", weighted=weighted, **counts))
    left, right = st.columns(2)
    for i, name in enumerate(RATE_ORDER):
        show_derivations([rates[name]], where=left if i % 2 == 0 else right, hidden_note=False)
