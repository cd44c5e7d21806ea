"""How the Regression page computes its numbers (AppTest): the explained metric's step
table, and every headline derived on screen from the samples."""

from __future__ import annotations

import re

import numpy as np
import pytest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from metrics import recency_weights, regression_errors
from tests.conftest import metric, rendered
from tests.views.regression.common import (
    DIABETES,
    awkward_dataset,
    frame_with,
    open_page,
)


@pytest.mark.parametrize(
    ("choice", "last"),
    [
        ("MAE", "MAE"),
        ("Weighted MAE", "MAE"),
        ("MSE", "MSE"),
        ("RMSE", "RMSE"),
        ("MAPE", "MAPE"),
        ("RMSLE", "RMSLE"),
        ("R²", "R2"),
    ],
)
def test_explain_control_step_table_ends_with_the_headline(choice, last):
    at = open_page()
    at.selectbox(key="reg_explain").set_value(choice).run()
    assert not at.exception
    steps = frame_with(at, "step")
    assert steps["step"].iloc[-1] == last
    assert fmt(steps["value"].iloc[-1]) == metric(at, choice)
    assert len(at.latex) >= 5  # the explained formula plus the four teaching formulas


def one_line(latex: str) -> str:
    """A sum drawn over three aligned lines, written on one."""
    for a, b in (
        (r"\begin{aligned}", ""),
        (r"\end{aligned}", ""),
        (r" \\ &\quad + ", " + "),
        (r" \\ &= ", " = "),
        ("&= ", "= "),
    ):
        latex = latex.replace(a, b)
    return latex


def latex_lines(at) -> list[str]:
    return [one_line(x.value.strip("$\n")) for x in at.latex]


def latex_starting(at, start: str) -> str:
    return next(v for v in latex_lines(at) if v.startswith(start))


def mean_parts(line: str) -> tuple[list[str], str, str | None]:
    fracs = re.findall(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", line)
    terms = [t for t in fracs[0][0].split(" + ") if t != r"\dots"]
    return terms, fracs[0][1], fracs[1][0] if len(fracs) > 1 else None


def shown(v):
    v = np.asarray(v, dtype=float)
    return v if len(v) <= 5 else np.r_[v[:3], v[-2:]]


def check_mean(at, name, values, headline):
    line = latex_starting(at, rf"\text{{{name}}} = ")
    assert line.endswith(f"= {headline}")
    terms, denom, total = mean_parts(line)
    assert terms == [fmt(x) for x in shown(values)]
    assert denom == f"{len(values):,}".replace(",", "{,}")
    assert total == fmt(np.sum(values))
    assert fmt(np.sum(values) / len(values)) == headline


def test_every_headline_is_derived_from_the_samples():
    at = open_page()
    y, p = DIABETES.y_true, DIABETES.score()
    errors = regression_errors(y, p)
    check_mean(at, "MAE", errors["absolute_error"], metric(at, "MAE"))
    check_mean(at, "MSE", errors["squared_error"], metric(at, "MSE"))
    check_mean(at, "MAPE", errors["percentage_error"], metric(at, "MAPE"))
    check_mean(at, "MSLE", errors["squared_log_error"], fmt(errors["squared_log_error"].mean()))
    mse = fmt(metrics.mean_squared_error(y, p))
    assert latex_starting(at, r"\text{RMSE}") == (
        rf"\text{{RMSE}} = \sqrt{{\text{{MSE}}}} = \sqrt{{{mse}}} = {metric(at, 'RMSE')}"
    )
    assert latex_starting(at, r"\text{RMSLE}").endswith(f"= {metric(at, 'RMSLE')}")
    assert latex_starting(at, r"\text{MAPE (\%)}").endswith(f"= {metric(at, 'MAPE (%)')}")
    # Weighted MAE: recency weights times the absolute errors, over their sum
    wmae = latex_starting(at, r"\text{Weighted MAE}")
    w = recency_weights(len(y))
    terms, denom, total = mean_parts(wmae)
    a = errors["absolute_error"].to_numpy()
    assert terms[0] == rf"{fmt(w[0])} \times {fmt(a[0])}"
    assert total == fmt(np.dot(w, a)) and wmae.endswith(f"= {metric(at, 'Weighted MAE')}")
    # R²: both sums with their terms, then 1 - SS_res / SS_tot
    res = (y - p) ** 2
    tot = (y - y.mean()) ** 2
    ss_res = latex_starting(at, r"\text{SS\_res}")
    assert ss_res.startswith(rf"\text{{SS\_res}} = {fmt(res[0])} + {fmt(res[1])}")
    assert ss_res.endswith(f"= {fmt(res.sum())}")
    assert latex_starting(at, r"\text{SS\_tot}").endswith(f"= {fmt(tot.sum())}")
    assert latex_starting(at, "R^2 = 1 -").endswith(
        rf"\frac{{{fmt(res.sum())}}}{{{fmt(tot.sum())}}} = {metric(at, 'R²')}"
    )


def weight(x: float) -> str:
    """A weight as the derivation writes it: whole numbers as integers."""
    return str(int(x)) if float(x).is_integer() else fmt(x)


def test_derivations_follow_the_outlier_and_the_dataset_weights():
    y = np.array([1.0, 2.0, 4.0, 8.0, 3.0])
    w = np.array([1.0, 0.5, 2.0, 0.0, 1.5])
    ds = Dataset("weighted", "regression", y, {"m": y * 1.1 + 0.3}, sample_weight=w)
    at = open_page(datasets=[ds])
    at.number_input(key="reg_outlier_shift").set_value(10.0).run()
    assert not at.exception
    p = ds.score().copy()
    p[0] += 10.0
    a = np.abs(y - p)
    mae = latex_starting(at, r"\text{MAE}")
    assert mae == (
        r"\text{MAE} = \frac{"
        + " + ".join(rf"{weight(x)} \times {fmt(e)}" for x, e in zip(w, a, strict=True))
        + rf"}}{{{weight(w.sum())}}} = {metric(at, 'MAE')}"
    )
    assert metric(at, "MAE") == fmt(metrics.mean_absolute_error(y, p, sample_weight=w))
    for label in ("RMSE", "R²", "RMSLE", "MAPE (%)"):
        assert any(v.endswith(f"= {metric(at, label)}") for v in latex_lines(at)), label


def test_undefined_metrics_say_why_in_the_derivation():
    at = open_page(datasets=[awkward_dataset()])
    assert any(rendered(c.value).startswith("RMSLE: undefined:") for c in at.caption)
    assert not any(v.startswith(r"\text{RMSLE}") for v in latex_lines(at))
