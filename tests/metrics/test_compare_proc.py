"""metrics.delong_test against pROC (R) on pROC's own example data, aSAH.

The data: tests/metrics/data/aSAH.csv (see the README beside it), pROC's ``aSAH``
(Turck et al. 2010), 113 patients, 41 with a poor outcome (pROC's cases, our
positives). The expected numbers are those pROC's test suite asserts
(repository xrobin/pROC, commit ee2877e):

* tests/testthat/test-roc.test.R, "roc.test statistic and p are as expected with
  defaults": ``roc.test(r.wfns, r.s100b)``, ``roc.test(r.wfns, r.ndka)`` and
  ``roc.test(r.ndka, r.s100b)``, the paired DeLong test (Z, p-value and the 95%
  interval of the difference of the AUCs), where ``r.x <- roc(aSAH$outcome,
  aSAH$x)`` (tests/testthat/helper-rocs.R);
* tests/testthat/helper-deLongPlacementsCpp-expected.R: each marker's AUC
  (``theta``) and its placements ``X`` (cases) and ``Y`` (controls), of which the
  first five of each are checked here.

pROC's documentation of ``roc.test`` quotes the first test as "Z = 2.209, p-value
= 0.02718": it compares wfns with s100b, not s100b with ndka.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics import auc_placements, delong_test, roc_auc_score

DATA = Path(__file__).resolve().parent / "data" / "aSAH.csv"
Z_975 = 1.959963984540054  # the normal quantile of a 95% interval, as R's qnorm(0.975)


@pytest.fixture(scope="module")
def asah():
    df = pd.read_csv(DATA)
    assert df.shape == (113, 4)
    y = (df["outcome"] == "Poor").to_numpy().astype(int)
    assert y.sum() == 41
    return y, {m: df[m].to_numpy(dtype=float) for m in ("wfns", "s100b", "ndka")}


# (a, b): Z, p-value, 95% interval of auc_a - auc_b, from pROC's test-roc.test.R
PROC_ROC_TEST = {
    ("wfns", "s100b"): (
        2.20898359144091,
        0.0271757822291882,
        0.0104061769564846,
        0.174214419249478,
    ),
    ("wfns", "ndka"): (
        2.79777591868904,
        0.00514557970691098,
        0.0634011709339876,
        0.3600405634833566,
    ),
    ("ndka", "s100b"): (
        -1.39077002573558,
        0.164295175223054,
        -0.2876917446341914,
        0.0488706064228094,
    ),
}


@pytest.mark.parametrize("pair", list(PROC_ROC_TEST), ids="-".join)
def test_delong_equals_proc_roc_test(asah, pair):
    y, markers = asah
    z, p, low, high = PROC_ROC_TEST[pair]
    r = delong_test(y, markers[pair[0]], markers[pair[1]])
    assert r.z == pytest.approx(z, rel=1e-12)
    assert r.p_value == pytest.approx(p, rel=1e-10)
    assert r.diff - Z_975 * r.se == pytest.approx(low, rel=1e-10)
    assert r.diff + Z_975 * r.se == pytest.approx(high, rel=1e-10)


def test_delong_swapped_models_flip_z_keep_p(asah):
    """pROC: "two.sided roc.test produces identical p values when roc curves are reversed"."""
    y, m = asah
    ab, ba = delong_test(y, m["wfns"], m["s100b"]), delong_test(y, m["s100b"], m["wfns"])
    assert ba.z == -ab.z and ba.p_value == ab.p_value


# theta and the first five placements of cases (X) and controls (Y), in data order, from
# pROC's helper-deLongPlacementsCpp-expected.R
PROC_PLACEMENTS = {
    "ndka": (
        0.611957994579946,
        [0.805555555555556, 0.625, 0.680555555555556, 0.763888888888889, 0.0416666666666667],
        [1, 0.829268292682927, 0.878048780487805, 0.707317073170732, 0.902439024390244],
    ),
    "s100b": (
        0.731368563685637,
        [0.5625, 0.4375, 0.715277777777778, 0.541666666666667, 0.902777777777778],
        None,
    ),
    "wfns": (0.823678861788618, None, None),
}


@pytest.mark.parametrize("marker", list(PROC_PLACEMENTS))
def test_aucs_and_placements_equal_proc(asah, marker):
    y, m = asah
    theta, x, yy = PROC_PLACEMENTS[marker]
    assert roc_auc_score(y, m[marker]) == pytest.approx(theta, rel=1e-13)
    placements = auc_placements(y, m[marker])
    if x is not None:
        np.testing.assert_allclose(placements[y == 1][:5], x, rtol=1e-13)
    if yy is not None:
        np.testing.assert_allclose(placements[y == 0][:5], yy, rtol=1e-13)
