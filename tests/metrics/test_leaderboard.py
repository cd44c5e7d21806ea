"""compare_models against the pairwise functions one pair at a time, the corrections
against statsmodels, Tukey's HSD against scipy, the letters against ranx's report."""

import functools
import math

import numpy as np
import pytest
from scipy.stats import studentized_range, tukey_hsd
from statsmodels.stats.multitest import multipletests

from metrics import (
    MetricInputError,
    average_precision_score,
    beaten,
    bootstrap_ci,
    compare_models,
    correct_p_values,
    delong_test,
    letters,
    mean_absolute_error,
    mean_reciprocal_rank,
    ndcg_score,
    paired_bootstrap_diff,
    paired_test,
    roc_auc_score,
    tukey_p_values,
)
from metrics._studentized_range import studentized_range_sf


def _binary(n=600, m=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, {f"m{k}": y + rng.normal(scale=1.0 + k / 3, size=n) for k in range(m)}


def _proc_p(boot):
    """pROC's bootstrap test: the difference over its bootstrap standard error, normal."""
    return math.erfc(abs(boot.estimate) / boot.standard_error / math.sqrt(2.0))


def _pairs(m):
    return [(i, j) for i in range(m) for j in range(i + 1, m)]


@pytest.mark.parametrize("metric", [roc_auc_score, average_precision_score])
def test_counting_bootstrap_equals_paired_bootstrap_diff(metric):
    y, models = _binary()
    s = list(models.values())
    r = compare_models(metric, y, models, test="bootstrap", n_resamples=300, random_state=5)
    assert r.pairs.tolist() == [list(p) for p in _pairs(4)]
    for k, (i, j) in enumerate(_pairs(4)):
        ref = paired_bootstrap_diff(metric, y, s[i], s[j], n_resamples=300, random_state=5)
        assert r.diff[k] == pytest.approx(ref.estimate, abs=1e-15)
        if i == 0:  # the shared layout is the first model's: these pairs bit for bit
            assert r.diff_low[k] == ref.low and r.diff_high[k] == ref.high
            assert r.p_value[k] == pytest.approx(_proc_p(ref), rel=1e-12, abs=1e-300)
        else:  # another layout, the same law: intervals agree to Monte Carlo error
            assert abs(r.diff_low[k] - ref.low) < 0.03
    assert r.estimate.tolist() == [metric(y, v) for v in s]


def test_mean_path_bootstrap_equals_pairwise_for_every_pair():
    rng = np.random.default_rng(1)
    y = rng.normal(size=400)
    models = [y + rng.normal(scale=0.5 + k / 5, size=400) for k in range(3)]
    r = compare_models(
        mean_absolute_error, y, models, n_resamples=250, correction="bonferroni", random_state=9
    )
    raw = []
    for k, (i, j) in enumerate(_pairs(3)):
        ref = paired_bootstrap_diff(
            mean_absolute_error, y, models[i], models[j], n_resamples=250, random_state=9
        )
        assert (r.diff_low[k], r.diff_high[k]) == (ref.low, ref.high)
        raw.append(_proc_p(ref))
    np.testing.assert_allclose(r.p_value, raw, rtol=1e-12)
    np.testing.assert_allclose(r.p_adjusted, np.minimum(1, 3 * np.array(raw)))
    assert not r.higher_is_better  # an error: lower is better
    # model intervals: the percentiles of the same resamples
    one = bootstrap_ci(mean_absolute_error, y, models[0], n_resamples=250, random_state=9)
    assert (r.low[0], r.high[0]) == (one.low, one.high)


def test_unpaired_bootstrap_is_each_models_own_bootstrap():
    y, models = _binary(n=300, m=3, seed=2)
    r = compare_models(roc_auc_score, y, models, paired=False, n_resamples=200, random_state=4)
    gens = np.random.default_rng(4).spawn(3)
    for k, (g, s) in enumerate(zip(gens, models.values(), strict=True)):
        ref = bootstrap_ci(roc_auc_score, y, s, n_resamples=200, random_state=g)
        assert (r.low[k], r.high[k]) == (ref.low, ref.high)


def test_delong_equals_delong_test_per_pair():
    y, models = _binary(n=500, m=5, seed=3)
    s = list(models.values())
    r = compare_models(roc_auc_score, y, models, test="delong", n_resamples=None)
    ref = [delong_test(y, s[i], s[j]).p_value for i, j in _pairs(5)]
    np.testing.assert_allclose(r.p_value, ref, rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(r.p_adjusted, multipletests(ref, method="holm")[1], rtol=1e-12)
    # without resamples, DeLong's normal intervals: the pairs' from delong_test's se
    z = 1.959963984540054
    for k, (i, j) in enumerate(_pairs(5)):
        ref_pair = delong_test(y, s[i], s[j])
        assert r.diff_low[k] == pytest.approx(ref_pair.diff - z * ref_pair.se, abs=1e-12)
    # a model's: its own variance, from the O(m n) table of the pairs (ties 1/2)
    pos, neg = s[2][y == 1], s[2][y == 0]
    table = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    auc = table.mean()
    var = table.mean(axis=1).var(ddof=1) / pos.size + table.mean(axis=0).var(ddof=1) / neg.size
    assert r.low[2] == pytest.approx(auc - z * np.sqrt(var), abs=1e-12)
    assert r.high[2] == pytest.approx(auc + z * np.sqrt(var), abs=1e-12)


def _ranking(nq=40, nd=12, m=3, seed=4):
    rng = np.random.default_rng(seed)
    y = (rng.random((nq, nd)) < 0.3).astype(int)
    y[np.arange(nq), rng.integers(0, nd, nq)] = 1
    return y, [y * (0.2 * k) + rng.random((nq, nd)) for k in range(m)]


@pytest.mark.parametrize("test", ["t", "wilcoxon", "randomization"])
def test_paired_tests_equal_paired_test_per_pair(test):
    y, s = _ranking()
    metric = functools.partial(ndcg_score, k=5)
    r = compare_models(
        metric, y, s, test=test, n_permutations=2000, n_resamples=None, random_state=11
    )
    from metrics import per_sample_values

    v = [per_sample_values(metric, y, x) for x in s]
    ref = [
        paired_test(v[i], v[j], method=test, n_resamples=2000, random_state=11).p_value
        for i, j in _pairs(3)
    ]
    np.testing.assert_allclose(r.p_value, ref, rtol=1e-12)


def test_tukey_equals_scipy():
    rng = np.random.default_rng(6)
    v = rng.normal(size=(25, 5)) + np.array([0.0, 0.2, 0.5, 0.6, 1.0])
    ref = tukey_hsd(*v.T).pvalue
    np.testing.assert_allclose(tukey_p_values(v), [ref[i, j] for i, j in _pairs(5)], atol=5e-6)


@pytest.mark.parametrize("k", [2, 4, 12])
@pytest.mark.parametrize("df", [2, 7, 60, 10**6])
def test_studentized_range_sf_equals_scipy(k, df):
    q = np.array([0.3, 1.0, 2.5, 4.0, 6.0])
    np.testing.assert_allclose(
        studentized_range_sf(q, k, df), studentized_range.sf(q, k, df), atol=5e-6
    )


@pytest.mark.parametrize("method", ["holm", "bonferroni", "bh"])
def test_corrections_equal_statsmodels(method):
    rng = np.random.default_rng(8)
    p = np.concatenate([rng.random(30) ** 3, [0.01, 0.01, 1.0, 0.0]])  # ties, both ends
    sm = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh"}[method]
    np.testing.assert_allclose(correct_p_values(p, method), multipletests(p, method=sm)[1])
    assert correct_p_values(p, None).tolist() == p.tolist()


# ranx 0.3.21's compare report on these runs (generated once with ranx installed in a
# private directory: ranx.compare(qrels, runs, ["ndcg@10", "mrr"], stat_test=...,
# max_p=0.05); qrels = the relevant documents of y, each run every document with its
# score). ranx applies no correction. Its p-values (pairs in row-major order):
RANX = {
    ("student", "ndcg"): (
        [0.002485782693523855, 1.5825528228500856e-07, 7.972216483374023e-10]
        + [0.009830359315083397, 3.2490134817528825e-07, 0.03260691394843329],
        ["", "a", "ab", "abc"],
    ),
    ("student", "mrr"): (
        [0.07092633165142684, 6.717739140785944e-06, 2.514358521572321e-07]
        + [0.008422330043609042, 0.00010448339381317094, 0.48668930328767457],
        ["", "", "ab", "ab"],
    ),
    ("tukey", "ndcg"): (
        [0.003423609309546327, 7.434308391118805e-09, 1.1357581541915351e-13]
        + [0.013257388507974976, 5.513015265634635e-06, 0.16069172286591604],
        ["", "a", "ab", "ab"],
    ),
    ("tukey", "mrr"): (
        [0.12289163633974842, 2.596796485399011e-06, 2.6710143552488574e-07]
        + [0.011642056197245343, 0.0023304896492308824, 0.9584790081909995],
        ["", "", "ab", "ab"],
    ),
}
RANX_SCORES = {
    "ndcg": [0.30848288945853874, 0.5098960120469646, 0.6866549003370719, 0.8065820317872138],
    "mrr": [0.42403355903355894, 0.6136928811928812, 0.8808080808080807, 0.923611111111111],
}


@pytest.mark.parametrize("key", sorted(RANX))
def test_reproduces_ranx_compare_report(key):
    rng = np.random.default_rng(7)
    y = (rng.random((30, 20)) < 0.15).astype(int)
    y[np.arange(30), rng.integers(0, 20, 30)] = 1
    runs = {f"run{k}": np.round(y * (0.15 * k) + rng.random((30, 20)), 6) for k in range(4)}
    test, name = key
    metric = functools.partial(ndcg_score, k=10) if name == "ndcg" else mean_reciprocal_rank
    r = compare_models(
        metric, y, runs, test="t" if test == "student" else "tukey", correction=None,
        n_resamples=None,
    )  # fmt: skip
    p, marks = RANX[key]
    np.testing.assert_allclose(r.estimate, RANX_SCORES[name], rtol=1e-12)
    np.testing.assert_allclose(r.p_value, p, rtol=1e-9 if test == "student" else 1e-4, atol=1e-8)
    assert letters(r, 0.05) == marks


def test_letters_follow_the_metrics_direction_and_the_correction():
    y = np.arange(8.0)
    good = y + np.array([0.1, -0.1, 0.1, -0.1, 0.1, -0.1, 0.1, -0.1])
    bad = y + np.array([1.0, -1.2, 0.9, -1.1, 1.0, -1.0, 1.1, -0.9])
    r = compare_models(mean_absolute_error, y, {"bad": bad, "good": good}, test="t",
                       n_resamples=None)  # fmt: skip
    ref = paired_test(np.abs(bad - y), np.abs(good - y)).p_value
    assert r.p_value[0] == pytest.approx(ref, rel=1e-12) and ref < 0.05
    assert beaten(r) == [(), (0,)] and letters(r) == ["", "a"]
    assert letters(r, alpha=ref / 2) == ["", ""]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scores_by_model": {"only": [0.1, 0.2, 0.3, 0.4]}}, "at least two models"),
        ({"test": "tukey"}, "already corrected"),
        ({"test": "delong", "metric": average_precision_score}, "roc_auc_score"),
        ({"test": "t", "paired": False}, "paired test"),
        ({"correction": "fdr"}, "correction must be one of"),
        ({"n_resamples": None}, "needs n_resamples"),
        ({"test": "t", "metric": roc_auc_score}, "not a mean of per-sample values"),
    ],
)
def test_refusals_name_the_problem(kwargs, message):
    args = {
        "metric": roc_auc_score,
        "y_true": [0, 1, 0, 1],
        "scores_by_model": {"a": [0.1, 0.9, 0.2, 0.7], "b": [0.3, 0.6, 0.4, 0.5]},
    }
    args.update(kwargs)
    with pytest.raises(MetricInputError, match=message):
        compare_models(args.pop("metric"), args.pop("y_true"), args.pop("scores_by_model"), **args)
