"""Tests for metrics.regression: differential vs scikit-learn, properties, seeds, bad input."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from metrics._validation import MetricInputError
from metrics.regression import (
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
    root_mean_squared_log_error,
)
from tests.conftest import weights

SEEDS = range(8)

OURS = {
    "mean_absolute_error": mean_absolute_error,
    "mean_squared_error": mean_squared_error,
    "root_mean_squared_error": root_mean_squared_error,
    "mean_absolute_percentage_error": mean_absolute_percentage_error,
    "root_mean_squared_log_error": root_mean_squared_log_error,
    "r2_score": r2_score,
}
SKLEARN = {name: getattr(skm, name) for name in OURS}


def close(ours, theirs):
    assert type(ours) is float
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-9)


def sk(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SKLEARN[name](*args, **kwargs)


def regression_case(seed: int, n: int = 50):
    """Targets in (-1, 20) with ties, exact zeros and values in (-1, 0)."""
    rng = np.random.default_rng(seed)
    y = np.round(rng.uniform(-0.9, 20, n), 1)
    y[:3] = [0.0, -0.5, -0.25]  # MAPE divides by eps for the 0; RMSLE takes (-1, 0)
    y_hat = np.clip(y + rng.normal(0, 2, n), -0.95, None)
    y_hat[3] = y[3]
    return y, y_hat


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", OURS)
def test_matches_sklearn(seed, name):
    y, y_hat = regression_case(seed)
    for w in (None, weights(seed, y.shape[0])):
        close(OURS[name](y, y_hat, sample_weight=w), sk(name, y, y_hat, sample_weight=w))
        close(
            OURS[name](y[:, None], y_hat[:, None], sample_weight=w),
            sk(name, y[:, None], y_hat[:, None], sample_weight=w),
        )


@pytest.mark.parametrize("name", OURS)
def test_integer_and_list_input(name):
    y, y_hat = [3, 0, 2, 7, 1], [2, 1, 2, 8, 1]
    close(OURS[name](y, y_hat), sk(name, y, y_hat))
    close(
        OURS[name](y, y_hat, sample_weight=[1, 2, 0, 1, 3]),
        sk(name, y, y_hat, sample_weight=[1, 2, 0, 1, 3]),
    )


def test_mape_zero_target_is_huge_but_finite():
    value = mean_absolute_percentage_error([0.0, 1.0], [0.5, 1.0])
    close(value, sk("mean_absolute_percentage_error", [0.0, 1.0], [0.5, 1.0]))
    assert value == pytest.approx(0.5 / np.finfo(np.float64).eps / 2)


def test_rmsle_values_between_minus_one_and_zero_match_sklearn():
    y, y_hat = [-0.5, -0.9, 0.0, 3.0], [-0.2, 0.0, -0.99, 2.0]
    close(root_mean_squared_log_error(y, y_hat), sk("root_mean_squared_log_error", y, y_hat))


@pytest.mark.parametrize(
    ("y", "y_hat", "w", "expected"),
    [
        ([2.0, 2.0, 2.0], [2.0, 2.0, 2.0], None, 1.0),  # constant and perfect
        ([2.0, 2.0, 2.0], [2.0, 2.0, 2.5], None, 0.0),  # constant, not perfect
        ([0.1, 0.1, 0.1], [0.1, 0.1, 0.3], [1.0, 2.0, 0.5], None),
        ([1.0, 5.0], [1.0, 4.0], [1.0, 0.0], 1.0),  # one weighted sample left, right
        ([1.0, 5.0], [2.0, 5.0], [1.0, 0.0], 0.0),  # one weighted sample left, wrong
        ([1.0, 5.0], [1.0, 4.0], None, None),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], None, 1.0),
    ],
)
def test_r2_degenerate_cases_match_sklearn(y, y_hat, w, expected):
    ours = r2_score(y, y_hat, sample_weight=w)
    close(ours, sk("r2_score", y, y_hat, sample_weight=w))
    if expected is not None:
        assert ours == expected


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------
finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(1, 30), use_weights=st.booleans())
def test_property_mae_at_most_rmse(data, n, use_weights):
    y = data.draw(hnp.arrays(np.float64, n, elements=finite))
    y_hat = data.draw(hnp.arrays(np.float64, n, elements=finite))
    w = None
    if use_weights:
        # no subnormal weights: one weight of 5e-324 rounds 1.5 * w to 2 * w, so the weighted
        # mean of |e| = 1.5 comes out 2.0 (and RMSE sqrt(2)); the inequality is about real
        # weights, not the last bits of the smallest doubles
        weights = st.floats(0, 10, allow_subnormal=False)
        w = data.draw(hnp.arrays(np.float64, n, elements=weights))
        if not w.any():
            w[0] = 1.0
    mae = mean_absolute_error(y, y_hat, sample_weight=w)
    rmse = root_mean_squared_error(y, y_hat, sample_weight=w)
    assert mae <= rmse * (1 + 1e-12) + 1e-12
    assert rmse == pytest.approx(math.sqrt(mean_squared_error(y, y_hat, sample_weight=w)))


@settings(max_examples=50, deadline=None)
@given(data=st.data(), n=st.integers(2, 30))
def test_property_r2_at_most_one(data, n):
    y = data.draw(hnp.arrays(np.float64, n, elements=finite))
    y_hat = data.draw(hnp.arrays(np.float64, n, elements=finite))
    assert r2_score(y, y_hat) <= 1.0
    assert r2_score(y, y) == 1.0


# ---------------------------------------------------------------------------
# worked examples of seed 002
# ---------------------------------------------------------------------------
def test_seed002_rmsle_punishes_under_prediction_more():
    # hotel price 200: predicting 150 costs more than predicting 250
    under = root_mean_squared_log_error([200], [150])
    over = root_mean_squared_log_error([200], [250])
    assert under == pytest.approx(math.sqrt((math.log(201) - math.log(151)) ** 2), abs=1e-12)
    assert over == pytest.approx(math.sqrt((math.log(201) - math.log(251)) ** 2), abs=1e-12)
    assert under == pytest.approx(0.28602507124415144, abs=1e-12)
    assert over == pytest.approx(0.22214803107270775, abs=1e-12)
    assert under > over
    # the same absolute error of 50 costs RMSE the same both ways
    assert root_mean_squared_error([200], [150]) == root_mean_squared_error([200], [250]) == 50.0


def test_seed002_mape_is_a_fraction():
    assert mean_absolute_percentage_error([4], [5]) == 0.25
    # 002 writes MAPE in percent (100/N ...); the package returns the fraction
    assert 100 * mean_absolute_percentage_error([4, 10], [5, 8]) == pytest.approx(22.5)


def test_seed002_weighted_mae():
    # WMAE: sum w |y - p| / sum w (scikit-learn's weighted mean)
    y, p, w = [1.0, 2.0, 4.0], [2.0, 2.0, 1.0], [3.0, 1.0, 1.0]
    assert mean_absolute_error(y, p, sample_weight=w) == pytest.approx((3 + 0 + 3) / 5)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
def test_metric_input_error_is_value_error():
    assert issubclass(MetricInputError, ValueError)
    with pytest.raises(ValueError):
        mean_absolute_error([1.0], [1.0, 2.0])


@pytest.mark.parametrize("name", OURS)
@pytest.mark.parametrize(
    ("y_true", "y_pred", "kwargs", "match"),
    [
        ([1.0, 2.0, 3.0], [1.0, 2.0], {}, "y_true and y_pred have different shapes"),
        ([1.0, np.nan, 3.0], [1.0, 2.0, 3.0], {}, r"y_true contains NaN at y_true\[1\]"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, np.inf], {}, r"y_pred contains an infinite value.*\[2\]"),
        ([], [], {}, "y_true is empty"),
        ([1.0, 2.0], [], {}, "y_pred is empty"),
        ([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0], {}, r"different number of output \(2!=1\)"),
        ([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]], {}, r"different number of output \(1!=2\)"),
        ([1 + 1j, 2.0], [1.0, 2.0], {}, "y_true holds complex numbers"),
        ([1.0, 2.0], [1.0, 2.0], {"multioutput": "variance"}, "Allowed 'multioutput'"),
        ([1.0, 2.0], [1.0, 2.0], {"multioutput": [0.5, 0.5]}, "Custom weights are useful only"),
        (["a", "b"], [1.0, 2.0], {}, "y_true must hold numbers"),
        ([1.0, 2.0], [1.0, 2.0], {"sample_weight": [1.0]}, "sample_weight has 1 entries"),
        (
            [1.0, 2.0],
            [1.0, 2.0],
            {"sample_weight": [1.0, -1.0]},
            r"sample_weight must be non-negative.*sample_weight\[1\]",
        ),
        ([1.0, 2.0], [1.0, 2.0], {"sample_weight": [0.0, 0.0]}, "sample_weight sums to zero"),
        ([1.0, 2.0], [1.0, 2.0], {"sample_weight": [[1.0, 1.0]]}, "sample_weight must be 1-D"),
    ],
)
def test_bad_input_refused(name, y_true, y_pred, kwargs, match):
    with pytest.raises(MetricInputError, match=match):
        OURS[name](y_true, y_pred, **kwargs)


def test_rmsle_refuses_values_at_or_below_minus_one():
    with pytest.raises(MetricInputError, match=r"y_true must be greater than -1.*y_true\[2\]"):
        root_mean_squared_log_error([1.0, 0.0, -1.0, -3.0], [1.0, 1.0, 1.0, 1.0])
    with pytest.raises(MetricInputError, match=r"y_pred must be greater than -1.*y_pred\[1\]"):
        root_mean_squared_log_error([1.0, 0.0], [0.5, -1.5])


def test_r2_refuses_a_single_sample():
    with pytest.raises(MetricInputError, match="y_true has 1 sample; R\\^2 needs at least two"):
        r2_score([3.0], [2.0])


REGRESSION_NAMES = [
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_percentage_error",
    "root_mean_squared_log_error",
    "r2_score",
]


@pytest.mark.parametrize("name", REGRESSION_NAMES)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_multioutput_matches_sklearn(name, seed, weighted):
    import sklearn.metrics as skm

    import metrics

    rng = np.random.default_rng(seed)
    yt = rng.random((30, 3)) * 5
    yp = yt + rng.normal(size=(30, 3))
    yp = np.maximum(yp, 0)
    w = rng.random(30) if weighted else None
    options = ["raw_values", "uniform_average", [0.2, 0.5, 0.3]]
    if name == "r2_score":
        options.append("variance_weighted")
    for multioutput in options:
        ours = getattr(metrics, name)(yt, yp, sample_weight=w, multioutput=multioutput)
        theirs = getattr(skm, name)(yt, yp, sample_weight=w, multioutput=multioutput)
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)
        assert np.ndim(ours) == np.ndim(theirs)
    one = getattr(metrics, name)(yt[:, 0], yp[:, 0], multioutput="raw_values")
    assert one.shape == (1,)


@pytest.mark.parametrize("multioutput", ["raw_values", "uniform_average", "variance_weighted"])
def test_r2_force_finite_matches_sklearn(multioutput):
    import warnings

    import sklearn.metrics as skm

    import metrics

    yt = np.array([[1.0, 2.0, 3.0], [1.0, 4.0, 3.0], [1.0, 5.0, 3.0]])
    yp = np.array([[1.0, 2.5, 3.0], [1.5, 4.0, 3.0], [1.0, 5.0, 3.0]])
    for force_finite in (True, False):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = skm.r2_score(yt, yp, multioutput=multioutput, force_finite=force_finite)
            ours = metrics.r2_score(yt, yp, multioutput=multioutput, force_finite=force_finite)
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)


@pytest.mark.parametrize("power", [-1.5, 0, 1, 1.5, 2, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_tweedie_deviances_and_d2_match_sklearn(power, weighted):
    import sklearn.metrics as skm

    import metrics

    rng = np.random.default_rng(int(abs(power) * 10) + 7)
    yt = rng.random(40) * 3 + 0.1
    yt[:3] = 0.0 if 1 <= power < 2 else yt[:3]  # Poisson takes y = 0
    yp = rng.random(40) * 3 + 0.1
    w = rng.random(40) if weighted else None
    for name in ("mean_tweedie_deviance", "d2_tweedie_score"):
        ours = getattr(metrics, name)(yt, yp, sample_weight=w, power=power)
        theirs = getattr(skm, name)(yt, yp, sample_weight=w, power=power)
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)
    np.testing.assert_allclose(
        metrics.mean_poisson_deviance(yt + 0.1, yp), skm.mean_poisson_deviance(yt + 0.1, yp)
    )
    np.testing.assert_allclose(
        metrics.mean_gamma_deviance(yt + 0.1, yp), skm.mean_gamma_deviance(yt + 0.1, yp)
    )


def test_tweedie_refusals():
    import metrics

    with pytest.raises(MetricInputError, match="power must be <= 0 or >= 1"):
        metrics.mean_tweedie_deviance([1.0, 2.0], [1.0, 2.0], power=0.5)
    with pytest.raises(MetricInputError, match=r"strictly positive y_pred.*y_pred\[1\]"):
        metrics.mean_tweedie_deviance([1.0, 2.0], [1.0, 0.0], power=1)
    with pytest.raises(MetricInputError, match="less than two samples"):
        metrics.d2_tweedie_score([1.0], [1.0])
