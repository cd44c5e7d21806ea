"""Every headline number of the Regression page, derived from the inputs.

MAE, MSE, MAPE and MSLE are means over the samples of the per-sample errors of
:func:`metrics.regression_errors`, written with their terms (the first and last few
when there are many, with the count); RMSE and RMSLE are their square roots with
the number plugged in; R² is 1 - SS_res / SS_tot with both sums written term by
term. Every line ends in the same digits as its headline. Pure functions (no
streamlit); :mod:`views.regression_parts` draws the lines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.datasets import Dataset
from explorer.derivation import mean_terms
from explorer.formatting import fmt
from explorer.pages._derive import count, mean_latex, mean_note, sum_terms
from explorer.pages.regression import headline, moved_prediction, sample_weights
from metrics import regression_errors


@dataclass(frozen=True)
class Line:
    """One derivation: LaTeX lines (the last ends in the headline's digits) and a caption.

    Attributes
    ----------
    name : str
        The headline label it derives (``"MAE"``, ``"R²"``, ...).
    latex : tuple of str
        The steps, each one LaTeX line; empty when the metric is undefined.
    note : str
        What the lines leave out (elided terms), or why the metric is undefined.

    Small (a few strings): the cache hands a copy of it to every rerun.
    """

    name: str
    latex: tuple[str, ...]
    note: str


def _weighted(w, v, i: int) -> str:
    return fmt(v[i]) if w is None else f"{count(w[i])} × {fmt(v[i])}"


def _r2(name: str, y: np.ndarray, pred: np.ndarray, w, value: float) -> Line:
    bar = mean_terms(y, w, name="ybar")
    mean = bar.value
    res = (y - pred) ** 2
    tot = (y - mean) ** 2
    weight = np.ones_like(y) if w is None else w
    ss_res = sum_terms(lambda i: _weighted(w, res, i), weight * res, name=r"SS\_res")
    ss_tot = sum_terms(lambda i: _weighted(w, tot, i), weight * tot, name=r"SS\_tot")
    steps = [mean_latex(bar).replace(r"\text{ybar}", r"\bar y"), ss_res.aligned(), ss_tot.aligned()]
    if ss_res.total == 0:
        last = r"\text{SS\_res} = 0,\ \text{so}\ R^2 = 1.000"
    elif ss_tot.total == 0:
        last = r"\text{SS\_tot} = 0\ (y\ \text{constant}),\ \text{so}\ R^2 = 0"
    else:
        last = (
            rf"R^2 = 1 - \frac{{\text{{SS\_res}}}}{{\text{{SS\_tot}}}} = 1 - "
            rf"\frac{{{fmt(ss_res.total)}}}{{{fmt(ss_tot.total)}}} = {fmt(value)}"
        )
    note = "; ".join(x for x in (ss_res.note(),) if x)
    return Line(name, (*steps, last), note and f"each sum: {note}")


def derivations(
    ds: Dataset, model: str, weight_choice: str, row: int, by: float
) -> dict[str, Line]:
    r"""Every headline of :func:`explorer.pages.regression.headline`, derived.

    Parameters are those of :func:`~explorer.pages.regression.headline`: the
    model, the Weighted MAE's weights, and sample ``row``'s prediction moved ``by``.

    Returns
    -------
    dict
        Headline label -> :class:`Line`, in the order of
        :data:`explorer.pages.regression.HEADLINE`.

    Examples
    --------
    >>> from explorer.pages.regression import _toy
    >>> d = derivations(_toy(), "m", "recency", 0, 0.0)
    >>> d["MAE"].latex[0]
    '\\text{MAE} = \\frac{0.5000 + 0.5000 + 0 + 1.000}{4} = 0.5000'
    >>> d["RMSE"].latex[-1]
    '\\text{RMSE} = \\sqrt{\\text{MSE}} = \\sqrt{0.3750} = 0.6124'
    >>> d["R²"].latex[-1]
    'R^2 = 1 - \\frac{\\text{SS\\_res}}{\\text{SS\\_tot}} = 1 - \\frac{1.500}{26.00} = 0.9423'
    """
    y = ds.y_true
    pred = moved_prediction(ds, model, row, by)
    values = headline(ds, model, weight_choice, row, by)
    errors = regression_errors(y, pred)
    w = ds.sample_weight
    out: dict[str, Line] = {}

    def mean_line(name: str, column: str, weights=None) -> tuple[Line, float]:
        d = mean_terms(errors[column].to_numpy(), weights, name=name)
        return Line(name, (mean_latex(d),), mean_note(d)), d.value

    out["MAE"] = mean_line("MAE", "absolute_error", w)[0]
    out["Weighted MAE"] = mean_line(
        "Weighted MAE", "absolute_error", sample_weights(ds, weight_choice)
    )[0]
    mse = mean_line("MSE", "squared_error", w)[0]
    out["MSE"] = mse
    root = rf"\text{{RMSE}} = \sqrt{{\text{{MSE}}}} = \sqrt{{{fmt(values['MSE'][0])}}}"
    out["RMSE"] = Line("RMSE", (*mse.latex, f"{root} = {fmt(values['RMSE'][0])}"), mse.note)
    out["MAPE"] = mean_line("MAPE", "percentage_error", w)[0]
    out["MAPE (%)"] = Line(
        "MAPE (%)",
        (
            rf"\text{{MAPE (\%)}} = 100 \times {fmt(values['MAPE'][0])}"
            rf" = {fmt(values['MAPE (%)'][0])}",
        ),
        "",
    )
    rmsle, err = values["RMSLE"]
    if err is None:
        msle, value = mean_line("MSLE", "squared_log_error", w)
        root = rf"\text{{RMSLE}} = \sqrt{{\text{{MSLE}}}} = \sqrt{{{fmt(value)}}} = {fmt(rmsle)}"
        out["RMSLE"] = Line("RMSLE", (*msle.latex, root), msle.note)
    else:
        out["RMSLE"] = Line("RMSLE", (), f"undefined: {err}")
    r2, err = values["R²"]
    if err is None:
        out["R²"] = _r2("R²", y, pred, w, r2)
    else:
        out["R²"] = Line("R²", (), f"undefined: {err}")
    return out
