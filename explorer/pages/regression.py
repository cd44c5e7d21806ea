"""The Regression page's model: every number and table the page shows, as pure
functions of a Dataset and the settings.

The settings
    ``model`` (one of the dataset's prediction columns), ``weight_choice`` (the
    weights of the Weighted MAE: ``"dataset"``, ``"uniform"`` or ``"recency"``), and
    the outlier control: sample ``row``'s prediction moved ``by``.

The headline numbers (:func:`headline`) and the unmoved prediction's per-sample
errors (:func:`base_errors`) are cached by :mod:`explorer.ui.cache`; a moved
prediction changes one row only, which :func:`moved_errors` patches in.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import metrics
from explorer import downloads
from explorer.datasets import Dataset
from metrics import ERROR_COLUMNS, recency_weights, regression_errors, regression_steps

#: Rows of the per-sample table shown on screen (the CSV holds them all).
ROW_LIMIT = 200
#: headline label -> metric (None: MAPE x 100); Weighted MAE uses the chosen weights,
#: every other one the dataset's sample_weight
HEADLINE = {
    "MAE": metrics.mean_absolute_error,
    "Weighted MAE": metrics.mean_absolute_error,
    "MSE": metrics.mean_squared_error,
    "RMSE": metrics.root_mean_squared_error,
    "MAPE": metrics.mean_absolute_percentage_error,
    "MAPE (%)": None,
    "RMSLE": metrics.root_mean_squared_log_error,
    "R²": metrics.r2_score,
}
HIGHER_IS_BETTER = {"R²"}
#: The metrics "how it is computed" explains, and their key in regression_steps.
STEP_KEY = {
    "MAE": "mae",
    "Weighted MAE": "mae",
    "MSE": "mse",
    "RMSE": "rmse",
    "MAPE": "mape",
    "RMSLE": "rmsle",
    "R²": "r2",
}
#: The per-sample table's columns: those of regression_errors, the id first, pct % after pct.
PER_SAMPLE_COLUMNS = ["id", *ERROR_COLUMNS]
PER_SAMPLE_COLUMNS.insert(PER_SAMPLE_COLUMNS.index("percentage_error") + 1, "percentage_error_pct")


def _toy() -> Dataset:
    """The small dataset of the examples: 4 samples, one with y = 0."""
    y = np.array([3.0, 0.0, 2.0, 7.0])
    return Dataset("toy", "regression", y, {"m": np.array([2.5, 0.5, 2.0, 8.0])})


def weight_options(ds: Dataset) -> list[str]:
    """The weights the Weighted MAE may use: the dataset's own first, when it has some.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, weight_options
    >>> weight_options(_toy())
    ['uniform', 'recency']
    """
    return (["dataset"] if ds.sample_weight is not None else []) + ["uniform", "recency"]


#: The bundled samples whose Weighted MAE teaches the recency weights (the revision
#: sheet's): they open on them; any other data opens on its own weights or equal ones.
RECENCY_SAMPLES = ("diabetes",)


def default_weights(ds: Dataset) -> str:
    """The weights the Weighted MAE opens on: the dataset's own, else recency weights on
    a bundled sample that teaches them, else equal weights (an upload's rows need not
    be in time order).

    Examples
    --------
    >>> import dataclasses
    >>> from explorer.pages.regression import _toy, default_weights
    >>> bundled = dataclasses.replace(_toy(), name="diabetes")
    >>> default_weights(bundled), default_weights(dataclasses.replace(bundled, source="upload"))
    ('recency', 'uniform')
    """
    if ds.sample_weight is not None:
        return "dataset"
    return "recency" if ds.source == "sample" and ds.name in RECENCY_SAMPLES else "uniform"


def sample_weights(ds: Dataset, weight_choice: str) -> np.ndarray | None:
    """The weights of a choice: the dataset's column, none, or the recency weights.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, sample_weights
    >>> sample_weights(_toy(), "recency").tolist(), sample_weights(_toy(), "uniform")
    ([0.4, 0.8, 1.2, 1.6], None)
    """
    if weight_choice == "recency":
        return recency_weights(ds.n_samples)
    return {"dataset": ds.sample_weight, "uniform": None}[weight_choice]


def safe(fn, *args, **kwargs) -> tuple[object, str | None]:
    """``(fn(*args, **kwargs), None)``, or ``(None, message)`` when the metric refuses.

    Examples
    --------
    >>> import metrics
    >>> from explorer.pages.regression import safe
    >>> safe(metrics.mean_absolute_error, [1.0, 2.0], [2.0, 2.0])
    (0.5, None)
    >>> safe(metrics.root_mean_squared_log_error, [1.0], [-2.0])[0] is None
    True
    """
    try:
        return fn(*args, **kwargs), None
    except metrics.MetricInputError as exc:
        return None, str(exc)


def moved_prediction(ds: Dataset, model: str, row: int, by: float) -> np.ndarray:
    """A copy of ``model``'s predictions with sample ``row``'s moved by ``by``.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, moved_prediction
    >>> moved_prediction(_toy(), "m", 3, -1.5).tolist()
    [2.5, 0.5, 2.0, 6.5]
    """
    prediction = ds.score(model).copy()
    prediction[row] += by
    return prediction


def headline(
    ds: Dataset, model: str, weight_choice: str, row: int, by: float
) -> dict[str, tuple[float | None, str | None]]:
    """The headline values of ``model`` with sample ``row``'s prediction moved ``by``.

    Returns
    -------
    dict
        :data:`HEADLINE` label -> ``(value, None)``, or ``(None, message)`` where the
        metric is undefined. Weighted MAE uses ``weight_choice``'s weights, every
        other metric the dataset's ``sample_weight``.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, headline
    >>> h = headline(_toy(), "m", "uniform", 0, 0.0)
    >>> h["MAE"], h["MSE"], h["Weighted MAE"], h["R²"]
    ((0.5, None), (0.375, None), (0.5, None), (0.9423076923076923, None))
    >>> headline(_toy(), "m", "uniform", 1, -2.0)["RMSLE"][0] is None  # y_hat = -1.5
    True
    """
    prediction = moved_prediction(ds, model, row, by)
    out = {}
    for label, fn in HEADLINE.items():
        if fn is None:  # MAPE in percent: the same number x 100
            value, err = out["MAPE"]
            out[label] = (None if value is None else 100 * value, err)
        else:
            w = sample_weights(ds, weight_choice) if label == "Weighted MAE" else ds.sample_weight
            out[label] = safe(fn, ds.y_true, prediction, sample_weight=w)
    return out


def changes(now: dict, before: dict) -> dict[str, float | None]:
    """Each headline's change from ``before`` to ``now`` (None where either is undefined).

    Examples
    --------
    >>> from explorer.pages.regression import _toy, changes, headline
    >>> now = headline(_toy(), "m", "uniform", 3, 1.0)  # y = 7 predicted 9 instead of 8
    >>> c = changes(now, headline(_toy(), "m", "uniform", 0, 0.0))
    >>> c["MAE"], c["MSE"], c["RMSLE"] is not None
    (0.25, 0.75, True)
    """
    out = {}
    for label, (value, _) in now.items():
        old = before[label][0]
        if value is None or old is None:
            out[label] = None
        else:
            out[label] = value - old if value != old else 0.0
    return out


def outlier_effect(now: dict, before: dict) -> tuple[float, float, float | None]:
    """How a moved prediction changed MAE and RMSE, and the ratio of the two changes.

    Returns
    -------
    (MAE change, RMSE change, RMSE change / MAE change or None where MAE did not move)

    Examples
    --------
    >>> from explorer.pages.regression import _toy, headline, outlier_effect
    >>> now = headline(_toy(), "m", "uniform", 2, 4.0)  # an error of 4 where there was none
    >>> mae, rmse, ratio = outlier_effect(now, headline(_toy(), "m", "uniform", 0, 0.0))
    >>> mae, round(rmse, 4), round(ratio, 3)
    (1.0, 1.4793, 1.479)
    """
    mae_d, rmse_d = (now[m][0] - before[m][0] for m in ("MAE", "RMSE"))
    return mae_d, rmse_d, (rmse_d / mae_d if mae_d else None)


def base_errors(ds: Dataset, model: str, keep: int) -> dict:
    """The unmoved prediction's per-sample errors, reduced to what the page shows.

    The ``keep`` worst rows (absolute error, ties in row order), every residual
    (the histogram), and the rows flagged y = 0 or <= -1. A moved prediction
    changes one row only: :func:`moved_errors` patches it in.

    Returns
    -------
    dict
        ``worst`` (rows of ``regression_errors``, indexed by row number),
        ``residual`` (every row's), ``zero`` and ``undefined`` (row numbers).

    Examples
    --------
    >>> from explorer.pages.regression import _toy, base_errors
    >>> e = base_errors(_toy(), "m", 2)
    >>> e["worst"].index.tolist(), e["residual"].tolist(), e["zero"].tolist()
    ([3, 0], [0.5, -0.5, 0.0, -1.0], [1])
    """
    table = regression_errors(ds.y_true, ds.score(model))
    error = table["absolute_error"].to_numpy()
    candidates = np.arange(error.shape[0])
    if keep < error.shape[0]:  # every row at least as bad as the keep-th worst, in row order
        candidates = np.flatnonzero(error >= np.partition(error, -keep)[-keep])
    order = candidates[np.argsort(-error[candidates], kind="stable")[:keep]]
    return {
        "worst": table.iloc[order],
        "residual": table["residual"].to_numpy(),
        "zero": np.flatnonzero(table["y_true_zero"].to_numpy()),
        "undefined": np.flatnonzero(table["log_undefined"].to_numpy()),
    }


def moved_errors(
    ds: Dataset, base: dict, row: int, prediction: np.ndarray
) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """The worst ROW_LIMIT rows, the residuals and the <= -1 flags with ``row`` moved.

    The other rows keep their errors, so the worst rows are among the ROW_LIMIT + 1
    worst of ``base`` (:func:`base_errors` with ``keep = ROW_LIMIT + 1``) and the
    moved row.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, base_errors, moved_errors, moved_prediction
    >>> p = moved_prediction(_toy(), "m", 2, -4.0)
    >>> worst, residual, undefined = moved_errors(_toy(), base_errors(_toy(), "m", 201), 2, p)
    >>> worst.index.tolist(), residual.tolist(), undefined.tolist()
    ([2, 3, 0, 1], [0.5, -0.5, 4.0, -1.0], [False, False, True, False])
    """
    one = regression_errors(ds.y_true[[row]], prediction[[row]]).set_axis([row])
    worst = pd.concat([base["worst"].drop(index=row, errors="ignore"), one])
    rank = np.lexsort((worst.index.to_numpy(), -worst["absolute_error"].to_numpy()))
    residual = base["residual"].copy()
    residual[row] = one["residual"].iloc[0]
    undefined = np.zeros(ds.n_samples, dtype=bool)
    undefined[base["undefined"]] = True
    undefined[row] = bool(one["log_undefined"].iloc[0])
    return worst.iloc[rank[:ROW_LIMIT]], residual, undefined


def steps(
    ds: Dataset, prediction: np.ndarray, explain: str, weight_choice: str
) -> tuple[pd.DataFrame | None, str | None]:
    """The step-by-step table of the metric ``explain`` (a key of :data:`STEP_KEY`).

    Weighted MAE uses ``weight_choice``'s weights, every other metric the dataset's
    ``sample_weight``; its last line is the headline number.

    Returns
    -------
    (table, None), or (None, message) where the metric is undefined

    Examples
    --------
    >>> from explorer.pages.regression import _toy, steps
    >>> table, err = steps(_toy(), _toy().score("m"), "Weighted MAE", "recency")
    >>> table["step"].tolist(), float(table["value"].iloc[-1]), err
    (['W', 'S', 'MAE'], 0.55, None)
    """
    w = sample_weights(ds, weight_choice) if explain == "Weighted MAE" else ds.sample_weight
    return safe(regression_steps, ds.y_true, prediction, metric=STEP_KEY[explain], sample_weight=w)


def step_values(table: pd.DataFrame) -> dict[str, float]:
    """The steps' values by name, and ``"MAPE %"`` (the MAPE x 100) where MAPE is one.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, step_values, steps
    >>> v = step_values(steps(_toy(), _toy().score("m"), "MSE", "uniform")[0])
    >>> v["W"], v["S"], v["MSE"]
    (4.0, 1.5, 0.375)
    """
    values = dict(zip(table["step"], table["value"], strict=True))
    if "MAPE" in values:
        values["MAPE %"] = 100 * values["MAPE"]
    return values


def mape_without_zeros(ds: Dataset, prediction: np.ndarray, zero_rows: np.ndarray) -> float | None:
    """The MAPE of the rows whose y is not 0 (None when every y is 0).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.pages.regression import _toy, mape_without_zeros
    >>> round(mape_without_zeros(_toy(), _toy().score("m"), np.array([1])), 4)
    0.1032
    """
    zero = np.zeros(ds.n_samples, dtype=bool)
    zero[zero_rows] = True
    if not (~zero).any():
        return None
    w = ds.sample_weight
    return metrics.mean_absolute_percentage_error(
        ds.y_true[~zero], prediction[~zero], sample_weight=None if w is None else w[~zero]
    )


def rmsle_demo(y: float, gap: float) -> dict:
    """One true value ``y`` predicted ``gap`` too low and ``gap`` too high.

    Returns
    -------
    dict
        ``low``, ``high`` (the two predictions); ``under``, ``under_err`` and
        ``over`` (their RMSLE, None and the message where undefined); ``rmse`` (the
        same either way); ``curve``: where the under-prediction is defined and
        y > 0, (predictions, RMSLE, percentage error) over a grid around y, else None.

    Examples
    --------
    >>> from explorer.pages.regression import rmsle_demo
    >>> d = rmsle_demo(200.0, 50.0)
    >>> d["low"], d["high"], d["rmse"], round(d["under"], 4), round(d["over"], 4)
    (150.0, 250.0, 50.0, 0.286, 0.2221)
    >>> d["curve"][0].shape
    (300,)
    >>> rmsle_demo(0.5, 2.0)["under"] is None
    True
    """
    low, high = y - gap, y + gap
    under, under_err = safe(metrics.root_mean_squared_log_error, [y], [low])
    over, _ = safe(metrics.root_mean_squared_log_error, [y], [high])
    curve = None
    if under_err is None and y > 0:
        half = 2 * gap if gap > 0 else max(abs(y) / 4, 1.0)
        grid = np.linspace(max(y - half, (low - 1) / 2), y + half, 300)
        errors = regression_errors(np.full(grid.shape, y), grid)
        curve = (
            grid,
            np.sqrt(errors["squared_log_error"].to_numpy()),
            errors["percentage_error"].to_numpy(),
        )
    return {
        "low": low,
        "high": high,
        "under": under,
        "under_err": under_err,
        "over": over,
        "rmse": metrics.root_mean_squared_error([y], [high]),
        "curve": curve,
    }


def per_sample_table(ds: Dataset, errors: pd.DataFrame) -> pd.DataFrame:
    """Rows of ``regression_errors`` (indexed by row number) with the ids and pct %.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, base_errors, per_sample_table
    >>> t = per_sample_table(_toy(), base_errors(_toy(), "m", 2)["worst"])
    >>> t["id"].tolist(), t["percentage_error_pct"].round(2).tolist()
    (['3', '0'], [14.29, 16.67])
    """
    out = errors.assign(
        id=[ds.sample_ids[i] for i in errors.index],
        percentage_error_pct=100 * errors["percentage_error"],
    )
    return out[PER_SAMPLE_COLUMNS]


def per_sample_csv(ds: Dataset, prediction: np.ndarray) -> bytes:
    """Every row, worst first (the page writes it only when the download is clicked).

    Examples
    --------
    >>> from explorer.pages.regression import _toy, per_sample_csv
    >>> [line.split(",")[0] for line in per_sample_csv(_toy(), _toy().score("m")).decode().split()]
    ['id', '3', '0', '1', '2']
    """
    every = per_sample_table(ds, regression_errors(ds.y_true, prediction))
    worst = every.sort_values("absolute_error", ascending=False, kind="stable")
    return downloads.csv_text(worst).encode()


def models_table(headlines: dict[str, dict]) -> pd.DataFrame:
    """One row per model: its headline values (empty where a metric is undefined).

    Parameters
    ----------
    headlines : dict
        model name -> its :func:`headline`.

    Examples
    --------
    >>> from explorer.pages.regression import _toy, headline, models_table
    >>> t = models_table({"m": headline(_toy(), "m", "uniform", 0, 0.0)})
    >>> t[["model", "MAE", "MSE"]].to_dict("records")
    [{'model': 'm', 'MAE': 0.5, 'MSE': 0.375}]
    """
    return pd.DataFrame(
        [
            {"model": name, **{label: v for label, (v, _) in values.items()}}
            for name, values in headlines.items()
        ]
    )
