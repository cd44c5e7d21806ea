"""Every headline number of the Regression page, derived from the inputs.

MAE, MSE, MAPE and MSLE are means over the samples of the per-sample errors of
:func:`metrics.regression_errors`, written with their terms (the first and last few
when there are many, with the count); RMSE and RMSLE are their square roots with
the number plugged in; R² is 1 - SS_res / SS_tot with both sums written term by
term. Every line ends in the same digits as its headline; each headline's lines are
one :class:`explorer.derivation.Derivation` (the earlier ones its ``steps``). Pure
functions (no streamlit); :mod:`views.regression.derivation` draws them.
"""

from __future__ import annotations

import numpy as np

from explorer.datasets import Dataset
from explorer.derivation import Derivation, mean_terms, sum_terms
from explorer.formatting import count, fmt
from explorer.i18n import Phrase
from explorer.pages.regression import headline, moved_prediction, sample_weights
from metrics import regression_errors


def _weighted(w, v, i: int) -> str:
    return fmt(v[i]) if w is None else f"{count(w[i])} × {fmt(v[i])}"


def _r2(name: str, y: np.ndarray, pred: np.ndarray, w, value: float) -> Derivation:
    bar = mean_terms(y, w, name="ybar")
    mean = bar.value
    res = (y - pred) ** 2
    tot = (y - mean) ** 2
    weight = np.ones_like(y) if w is None else w
    ss_res = sum_terms(lambda i: _weighted(w, res, i), weight * res, name=r"SS\_res")
    ss_tot = sum_terms(lambda i: _weighted(w, tot, i), weight * tot, name=r"SS\_tot")
    steps = (bar.latex().replace(r"\text{ybar}", r"\bar y"), ss_res.aligned(), ss_tot.aligned())
    if ss_res.total == 0:
        last = r"\text{SS\_res} = 0,\ \text{so}\ R^2 = 1"
    elif ss_tot.total == 0:
        last = r"\text{SS\_tot} = 0\ (y\ \text{constant}),\ \text{so}\ R^2 = 0"
    else:
        last = (
            rf"R^2 = 1 - \frac{{\text{{SS\_res}}}}{{\text{{SS\_tot}}}} = 1 - "
            rf"\frac{{{fmt(ss_res.total)}}}{{{fmt(ss_tot.total)}}} = {fmt(value)}"
        )
    note = ss_res.note()
    note = Phrase("each sum: ${note}", note=note) if note else ""
    return Derivation(name, "", last, note, value, steps=steps)


def derivations(
    ds: Dataset, model: str, weight_choice: str, row: int, by: float
) -> dict[str, Derivation]:
    r"""Every headline of :func:`explorer.pages.regression.headline`, derived.

    Parameters are those of :func:`~explorer.pages.regression.headline`: the
    model, the Weighted MAE's weights, and sample ``row``'s prediction moved ``by``.

    Returns
    -------
    dict
        Headline label -> its :class:`~explorer.derivation.Derivation` (small: a few
        strings, which the cache copies for every rerun), in the order of
        :data:`explorer.pages.regression.HEADLINE`.

    Examples
    --------
    >>> from explorer.pages.regression import _toy
    >>> d = derivations(_toy(), "m", "recency", 0, 0.0)
    >>> d["MAE"].latex
    '\\text{MAE} = \\frac{0.5000 + 0.5000 + 0 + 1}{4} = 0.5000'
    >>> d["RMSE"].latex
    '\\text{RMSE} = \\sqrt{\\text{MSE}} = \\sqrt{0.3750} = 0.6124'
    >>> d["R²"].latex
    'R^2 = 1 - \\frac{\\text{SS\\_res}}{\\text{SS\\_tot}} = 1 - \\frac{1.500}{26} = 0.9423'
    """
    y = ds.y_true
    pred = moved_prediction(ds, model, row, by)
    values = headline(ds, model, weight_choice, row, by)
    errors = regression_errors(y, pred)
    w = ds.sample_weight
    out: dict[str, Derivation] = {}

    def mean_line(name: str, column: str, weights=None) -> Derivation:
        d = mean_terms(errors[column].to_numpy(), weights, name=name)
        return Derivation(name, "", d.latex(), d.note(), d.value)

    out["MAE"] = mean_line("MAE", "absolute_error", w)
    out["Weighted MAE"] = mean_line(
        "Weighted MAE", "absolute_error", sample_weights(ds, weight_choice)
    )
    mse = out["MSE"] = mean_line("MSE", "squared_error", w)
    rmse = values["RMSE"][0]
    root = rf"\text{{RMSE}} = \sqrt{{\text{{MSE}}}} = \sqrt{{{fmt(values['MSE'][0])}}}"
    out["RMSE"] = Derivation("RMSE", "", f"{root} = {fmt(rmse)}", mse.note, rmse, mse.lines)
    out["MAPE"] = mean_line("MAPE", "percentage_error", w)
    pct = values["MAPE (%)"][0]
    latex = rf"\text{{MAPE (\%)}} = 100 \times {fmt(values['MAPE'][0])} = {fmt(pct)}"
    out["MAPE (%)"] = Derivation("MAPE (%)", "", latex, "", pct)
    rmsle, err = values["RMSLE"]
    if err is None:
        msle = mean_line("MSLE", "squared_log_error", w)
        root = (
            rf"\text{{RMSLE}} = \sqrt{{\text{{MSLE}}}} = \sqrt{{{fmt(msle.value)}}} = {fmt(rmsle)}"
        )
        out["RMSLE"] = Derivation("RMSLE", "", root, msle.note, rmsle, msle.lines)
    else:
        out["RMSLE"] = Derivation("RMSLE", "", "", Phrase("undefined: ${err}", err=err))
    r2, err = values["R²"]
    if err is None:
        out["R²"] = _r2("R²", y, pred, w, r2)
    else:
        out["R²"] = Derivation("R²", "", "", Phrase("undefined: ${err}", err=err))
    return out
