"""The Multilabel classification page model (explorer.pages.multilabel), without AppTest:
hand-computed toy cases, the bundled samples against `metrics` and scikit-learn, and the
metrics it calls (predictions, per-label and per-sample tables) against slow references."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import metrics
from explorer.datasets import Dataset
from explorer.pages import multilabel
from explorer.samples import load_sample
from metrics import (
    multilabel_label_table,
    multilabel_outcomes,
    multilabel_per_sample,
    threshold_predictions,
    top_k_predictions,
)
from tests.conftest import ROOT, multilabel_case, weights

ZD = {"warn": 0.0, "0": 0.0, "1": 1.0, "nan": np.nan}


def toy() -> Dataset:
    """3 samples x 3 labels; at 0.5 the predictions are [[1,1,0],[0,1,0],[0,0,1]]."""
    y = np.array([[1, 0, 1], [0, 1, 0], [0, 0, 0]])
    s = np.array([[0.9, 0.6, 0.3], [0.2, 0.8, 0.1], [0.4, 0.1, 0.7]])
    return Dataset("toy", "multilabel", y, {"m": s}, label_names=("a", "b", "c"))


def run(
    ds, model=None, rule="threshold", threshold=0.5, thresholds=(), top_k=1, beta=1.0, zd="warn"
):
    """Prediction and summary of one setting, as the page computes them (uncached)."""
    setting = multilabel.setting(model or ds.model_names[0], rule, threshold, thresholds, top_k)
    pred, counts = multilabel.prediction(ds, *setting)
    return pred, counts, multilabel.summary(ds, pred, counts, beta, zd)


# ---------------------------------------------------------------- hand-computed toy
def test_toy_by_hand():
    pred, counts, res = run(toy())
    assert pred.astype(int).tolist() == [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    assert not pred.flags.writeable
    # per label: a TP1; b TP1 FP1; c FP1 FN1 -> 3 wrong cells of 9, pooled TP 2 FP 2 FN 1
    assert res["hamming"] == pytest.approx(3 / 9)
    assert res["subset"] == pytest.approx(1 / 3) and res["n_exact"] == 1
    assert res["averages"]["micro"]["f1"] == pytest.approx(2 * 2 / (2 * 2 + 2 + 1))
    assert res["averages"]["micro"]["precision"] == pytest.approx(2 / 4)
    assert res["averages"]["macro"]["f1"] == pytest.approx((1 + 2 / 3 + 0) / 3)
    assert res["averages"]["macro"]["recall"] == pytest.approx((1 + 1 + 0) / 3)
    # Jaccard per sample: 1/3, 1, 0/1 -> mean 4/9
    assert res["averages"]["samples"]["jaccard"] == pytest.approx(4 / 9)
    assert (res["rows_no_pred"], res["rows_no_true"]) == (0, 1)
    # worst first: sample 0 (2 wrong), sample 2 (1 wrong), sample 1 (exact)
    assert res["worst"].index.tolist() == [0, 2, 1]
    assert res["worst"]["missed"].tolist() == ["c", "", ""]
    labels = res["labels"]
    assert labels["label"].tolist()[:3] == ["a", "b", "c"]
    assert labels["tp"].iloc[:3].tolist() == [1, 1, 0]
    assert labels["fp"].iloc[:3].tolist() == [0, 1, 1]


def test_the_three_rules_by_hand():
    ds = toy()
    per_label = multilabel.predict(ds, "m", "per_label", None, (0.3, 0.7, 0.9), None)
    assert per_label.astype(int).tolist() == [[1, 0, 0], [0, 1, 0], [1, 0, 0]]
    top2 = multilabel.predict(ds, "m", "top_k", None, (), 2)
    assert top2.astype(int).tolist() == [[1, 1, 0], [1, 1, 0], [1, 0, 1]]
    assert multilabel.predict(ds, "m", "threshold", 0.0, (), None).all()


def test_setting_keeps_only_what_the_rule_uses():
    assert multilabel.setting("m", "threshold", 0.4, (0.1,), 3) == ("m", "threshold", 0.4, (), None)
    assert multilabel.setting("m", "per_label", 0.4, (0.1,), 3) == (
        "m",
        "per_label",
        None,
        (0.1,),
        None,
    )
    assert multilabel.setting("m", "top_k", 0.4, (0.1,), 3) == ("m", "top_k", None, (), 3)


def test_threshold_list_and_range():
    assert multilabel.threshold_list("0.1,0.9", 2, 0.5) == (0.1, 0.9)
    for raw in (None, "", "0.1", "0.1,x", "0.1,inf", "0.1,0.2,0.3"):
        assert multilabel.threshold_list(raw, 2, 0.5) == (0.5, 0.5), raw
    assert multilabel.threshold_range(np.array([0.3, 0.7])) == (0.0, 1.0)
    assert multilabel.threshold_range(np.array([-0.2, 4.5])) == (-1.0, 5.0)


# ---------------------------------------------------------------- against metrics
@pytest.mark.parametrize("zd", ["warn", "0", "1", "nan"])
@pytest.mark.parametrize("beta", [1.0, 2.0])
def test_summary_matches_metrics_on_digit_properties(zd, beta):
    ds = load_sample("digit_properties")
    pred, _, res = run(ds, threshold=0.9, beta=beta, zd=zd)  # 0.9 empties labels and samples
    y, z = ds.y_true, multilabel.ZD_VALUE[zd]
    np.testing.assert_array_equal(pred, ds.score() >= 0.9)
    assert res["hamming"] == pytest.approx(metrics.hamming_loss(y, pred))
    assert res["subset"] == pytest.approx(metrics.accuracy_score(y, pred))
    for avg in ("macro", "micro", "samples", "weighted"):
        got = res["averages"][avg]
        kw = {"average": avg, "zero_division": z}
        assert got["precision"] == pytest.approx(
            metrics.precision_score(y, pred, **kw), nan_ok=True
        )
        assert got["recall"] == pytest.approx(metrics.recall_score(y, pred, **kw), nan_ok=True)
        assert got["f1"] == pytest.approx(metrics.f1_score(y, pred, **kw), nan_ok=True)
        assert got["fbeta"] == pytest.approx(
            metrics.fbeta_score(y, pred, beta=beta, **kw), nan_ok=True
        )
    # scikit-learn agrees on what the page headlines
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns on every 0/0
        sk_zd = "warn" if zd == "warn" else ZD[zd]
        assert res["averages"]["micro"]["f1"] == pytest.approx(
            skm.f1_score(y, pred, average="micro", zero_division=sk_zd), nan_ok=True
        )
        assert res["averages"]["macro"]["f1"] == pytest.approx(
            skm.f1_score(y, pred, average="macro", zero_division=sk_zd), nan_ok=True
        )
    assert res["rows_no_pred"] == int((pred.sum(axis=1) == 0).sum()) > 0
    assert res["rows_no_true"] == int((y.sum(axis=1) == 0).sum()) > 0


@pytest.mark.parametrize("seed", range(3))
def test_summary_with_weights_per_label_and_top_k_match_metrics(seed):
    y, s = multilabel_case(seed, n=50, m=5)
    w = weights(seed, 50)
    ds = Dataset("case", "multilabel", y, {"m": s}, sample_weight=w)
    cuts = (0.25, 0.5, 0.75, 0.5, 0.0)
    for rule, expected in (
        ("per_label", metrics.threshold_predictions(s, list(cuts))),
        ("top_k", metrics.top_k_predictions(s, k=2)),
    ):
        pred, counts, res = run(ds, rule=rule, thresholds=cuts, top_k=2, zd="1")
        np.testing.assert_array_equal(pred, expected.astype(bool))
        assert counts.tp.tolist() == pytest.approx(w @ (y * expected))
        assert res["hamming"] == pytest.approx(metrics.hamming_loss(y, expected, sample_weight=w))
        assert res["averages"]["weighted"]["f1"] == pytest.approx(
            skm.f1_score(y, expected, average="weighted", sample_weight=w, zero_division=1)
        )
        assert res["averages"]["samples"]["jaccard"] == pytest.approx(
            skm.jaccard_score(y, expected, average="samples", sample_weight=w, zero_division=1)
        )


def test_worst_rows_are_the_head_of_the_full_per_sample_sort():
    """Up to ALL_ROWS samples every row is kept; past it the worst HEAD_ROWS only."""
    rng = np.random.default_rng(5)
    for n, kept in (
        (multilabel.ALL_ROWS, multilabel.ALL_ROWS),
        (multilabel.ALL_ROWS + 1, multilabel.HEAD_ROWS),
    ):
        y = (rng.random((n, 4)) < 0.3).astype(int)
        s = np.round(rng.random((n, 4)), 1)
        ds = Dataset("big", "multilabel", y, {"m": s})
        pred, _, res = run(ds)
        full = metrics.multilabel_per_sample(y, pred, label_names=ds.label_names)
        full = full.sort_values(["wrong", "jaccard"], ascending=[False, True], kind="stable")
        assert res["worst"].index.tolist() == full.index[:kept].tolist()
        pd.testing.assert_frame_equal(res["worst"], full.iloc[:kept])


# ---------------------------------------------------------------- the page's tables
def test_empty_labels_at_a_high_threshold():
    ds = load_sample("digit_properties")
    pred, _, res = run(ds, threshold=0.97)
    per_label = res["labels"].iloc[: ds.n_labels]
    no_pred, no_sup = multilabel.empty_labels(per_label)
    names = np.array(ds.label_names)
    assert no_pred == names[pred.sum(axis=0) == 0].tolist() and no_pred
    assert no_sup == []  # every property occurs
    y = np.array([[1, 0], [1, 0]])
    res = run(Dataset("t", "multilabel", y, {"m": np.array([[0.9, 0.1], [0.2, 0.1]])}))[2]
    assert multilabel.empty_labels(res["labels"].iloc[:2]) == (["label_1"], ["label_1"])


def test_label_tables():
    _, _, res = run(toy())
    csv, screen = multilabel.label_tables(res["labels"])
    assert {"F1", multilabel.FB, "tn", "predicted", "no_support"} <= set(csv.columns)
    assert not {"tn", "predicted", "no_prediction", "no_support", "f1"} & set(screen.columns)
    # counts as text, blank on the macro line; the micro line pools them
    assert screen["tp"].tolist() == ["1", "1", "0", "", "2"]
    assert screen["fp"].tolist() == ["0", "1", "1", "", "2"]
    assert csv["F1"].iloc[-1] == pytest.approx(4 / 7)


def test_averages_and_naming_readings_match_metrics():
    ds = load_sample("digit_properties")
    pred, _, res = run(ds, beta=2.0)
    y = ds.y_true
    table = multilabel.averages_table(res["averages"])
    assert table["scikit-learn"].tolist() == [f'average="{a}"' for a, _, _ in multilabel.AVERAGES]
    for i, (avg, _, _) in enumerate(multilabel.AVERAGES):
        assert table["precision"].iloc[i] == pytest.approx(
            metrics.precision_score(y, pred, average=avg)
        )
        assert table[multilabel.FB].iloc[i] == pytest.approx(
            metrics.fbeta_score(y, pred, beta=2.0, average=avg)
        )
        assert table["jaccard"].iloc[i] == pytest.approx(
            metrics.jaccard_score(y, pred, average=avg)
        )
    readings = multilabel.naming_readings(res["averages"])
    assert list(readings.columns) == [
        "the notes write",
        "value",
        "what it computes",
        "scikit-learn",
    ]
    for row in readings.itertuples(index=False):
        score, avg = row[3].split("_score(average=")
        fn = {"precision": metrics.precision_score, "recall": metrics.recall_score}[score]
        assert row[1] == pytest.approx(fn(y, pred, average=avg.strip('")')))
    assert readings["value"].iloc[1] == pytest.approx(
        metrics.recall_score(y, pred, average="macro")
    )


def test_rarest_label_and_outcome_grid():
    ds = load_sample("digit_properties")
    pred, _, res = run(ds)
    rare = multilabel.rarest_label(res["labels"].iloc[: ds.n_labels])
    support = ds.y_true.sum(axis=0)
    assert rare["label"] == ds.label_names[int(np.argmin(support))]
    assert rare["support"] == support.min()
    cells, ids = multilabel.outcome_grid(ds, pred, res["worst"])
    rows = res["worst"].index[: multilabel.GRID_ROWS]
    assert len(ids) == multilabel.GRID_ROWS and ids == [ds.sample_ids[i] for i in rows]
    np.testing.assert_array_equal(cells, metrics.multilabel_outcomes(ds.y_true, pred)[rows])


def test_label_errors_count_all_and_list_the_first():
    ds = toy()
    pred, _, _ = run(ds)
    assert multilabel.label_errors(ds, "m", pred, "a")[0] == 0
    n_wrong, rows = multilabel.label_errors(ds, "m", pred, "c")
    assert n_wrong == 2 and rows.index.tolist() == [0, 2]
    assert rows["score"].tolist() == [0.3, 0.7]
    rng = np.random.default_rng(1)
    y = (rng.random((900, 2)) < 0.5).astype(int)
    big = Dataset("b", "multilabel", y, {"m": rng.random((900, 2))})
    pred, _, _ = run(big)
    n_wrong, rows = multilabel.label_errors(big, "m", pred, "label_1")
    wrong = np.flatnonzero(y[:, 1] != pred[:, 1])
    assert n_wrong == wrong.size > multilabel.SHOWN_ROWS
    assert rows.index.tolist() == wrong[: multilabel.SHOWN_ROWS].tolist()
    assert set(rows["what"]) == {"missed (true, not predicted)", "extra (predicted, not true)"}


def test_sample_choices_and_steps():
    ds = toy()
    pred, _, res = run(ds)
    worst_ids, choices, wrong = multilabel.sample_choices(ds, res["worst"])
    assert worst_ids == ["0", "2", "1"] and choices == ["0", "1", "2"]
    assert wrong == {"0": 2, "2": 1, "1": 0}
    steps = multilabel.sample_steps(ds, "m", pred, 0, "threshold", 0.45, ())
    assert steps["threshold"].tolist() == [0.45, 0.45, 0.45]
    assert steps["outcome"].tolist() == ["TP", "FP", "FN"]
    steps = multilabel.sample_steps(ds, "m", pred, 2, "per_label", None, (0.1, 0.2, 0.3))
    assert steps["threshold"].tolist() == [0.1, 0.2, 0.3]
    assert steps["true"].tolist() == [0, 0, 0] and steps["score"].tolist() == [0.4, 0.1, 0.7]
    assert "threshold" not in multilabel.sample_steps(ds, "m", pred, 1, "top_k", None, ()).columns
    # past ALL_ROWS samples the picker offers the worst HEAD_ROWS only
    n = multilabel.ALL_ROWS + 10
    y = np.tile([[1, 0]], (n, 1))
    big = Dataset("b", "multilabel", y, {"m": np.tile([[0.4, 0.6]], (n, 1))})
    _, _, res = run(big)
    worst_ids, choices, _ = multilabel.sample_choices(big, res["worst"])
    assert len(worst_ids) == len(choices) == multilabel.HEAD_ROWS


def test_sample_table_and_csv():
    y, s = multilabel_case(2, n=30, m=4)
    w = weights(2, 30)
    ds = Dataset("w", "multilabel", y, {"m": s}, sample_weight=w)
    pred, counts, res = run(ds, zd="1")
    table = multilabel.sample_table(ds, res["worst"])
    front = ["sample", "true_labels", "predicted_labels", "missed", "extra", "wrong"]
    assert list(table.columns[:6]) == front and multilabel.FB in table.columns
    assert table["sample_weight"].tolist() == w[res["worst"].index].tolist()
    csv = pd.read_csv(
        io.BytesIO(multilabel.samples_csv(ds, pred, counts, 1.0, "1")),
        dtype={"sample": str},
        keep_default_na=False,
    )
    order = metrics.multilabel_worst_samples(counts, zero_division=1)
    assert csv["sample"].tolist() == [ds.sample_ids[i] for i in order]
    assert csv["wrong"].tolist() == (y != pred).sum(axis=1)[order].tolist()
    np.testing.assert_allclose(csv["sample_weight"], w[order])


# ---------------------------------------------------------------- layering and caches
def test_page_model_does_not_import_streamlit():
    code = "import sys, explorer.pages.multilabel; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_cached_prediction_is_shared_and_summary_equals_the_page_model():
    from explorer.ui import cache

    ds = load_sample("digit_properties")
    setting = multilabel.setting("from_digit", "top_k", 0.5, (), 2)
    pred, counts = cache.multilabel.prediction(ds, *setting)
    assert cache.multilabel.prediction(ds, *setting)[0] is pred  # no copy per rerun
    got = cache.multilabel.summary(ds, *setting, 2.0, "nan")
    want = multilabel.summary(ds, *multilabel.prediction(ds, *setting), 2.0, "nan")
    for avg, values in want["averages"].items():
        assert got["averages"][avg] == pytest.approx(values, nan_ok=True)
    pd.testing.assert_frame_equal(got["worst"], want["worst"])
    pd.testing.assert_frame_equal(got["labels"], want["labels"])


# ---------------------------------------------------------------- derivations
@pytest.mark.parametrize("zd", ["warn", "1", "nan"])
@pytest.mark.parametrize("seed", range(3))
def test_derivations_end_in_the_averages_with_weights(seed, zd):
    from explorer.formatting import fmt
    from explorer.pages import multilabel_derivation

    y, s = multilabel_case(seed)
    w = weights(seed, len(y))
    ds = Dataset("w", "multilabel", y, {"m": s}, sample_weight=w)
    pred, counts, res = run(ds, threshold=0.5, zd=zd)
    lines = multilabel_derivation.derivations(counts, res["labels"].iloc[: ds.n_labels], res, zd)
    z = ZD[zd]
    want = {
        "Macro F1": metrics.f1_score(y, pred, average="macro", sample_weight=w, zero_division=z),
        "Micro F1": metrics.f1_score(y, pred, average="micro", sample_weight=w, zero_division=z),
        "Samples P": metrics.precision_score(
            y, pred, average="samples", sample_weight=w, zero_division=z
        ),
        "Weighted F1": metrics.f1_score(
            y, pred, average="weighted", sample_weight=w, zero_division=z
        ),
        "Hamming loss": metrics.hamming_loss(y, pred, sample_weight=w),
        "Subset accuracy": metrics.accuracy_score(y, pred, sample_weight=w),
    }
    for name, value in want.items():
        assert lines[name].latex.endswith(f"= {fmt(value)}"), name
    # the per-sample terms are metrics' own (weighted: each times its weight)
    per_sample = metrics.multilabel_per_sample(y, pred, zero_division=z)["precision"].to_numpy()
    keep = ~np.isnan(per_sample)
    assert np.allclose(lines["Samples P"].terms, per_sample[keep])
    assert lines["Samples P"].latex.startswith(
        rf"\text{{Samples P}} = \frac{{1 \times {fmt(per_sample[0])}"
    )


# ---------------------------------------------------------------- the metrics it calls
#: zero_division as the metrics take it.
ZD_VALUES = ["warn", 0, 1, np.nan]


def _slow_threshold(s, t):
    t = np.broadcast_to(np.asarray(t, dtype=float), (s.shape[1],))
    return np.array([[int(s[i, j] >= t[j]) for j in range(s.shape[1])] for i in range(len(s))])


def _slow_top_k(s, k):
    out = np.zeros(s.shape, dtype=int)
    for i, row in enumerate(s):
        # highest score first; among ties the lower column first
        ranked = sorted(range(len(row)), key=lambda j: (-row[j], j))
        for j in ranked[:k]:
            out[i, j] = 1
    return out


def _zd(value, zd):
    return (0.0 if zd == "warn" else float(zd)) if value is None else value


def _slow_per_sample(y, p, beta, zd):
    rows = []
    for t, q in zip(y, p, strict=True):
        tp = sum(a and b for a, b in zip(t, q, strict=True))
        fp = sum((not a) and b for a, b in zip(t, q, strict=True))
        fn = sum(a and (not b) for a, b in zip(t, q, strict=True))
        b2 = beta**2
        rows.append(
            {
                "tp": tp,
                "fp": fp,
                "fn": fn,
                "precision": _zd(tp / (tp + fp) if tp + fp else None, zd),
                "recall": _zd(tp / (tp + fn) if tp + fn else None, zd),
                "fbeta": _zd(
                    (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
                    if (1 + b2) * tp + b2 * fn + fp
                    else None,
                    zd,
                ),
                "jaccard": tp / (tp + fp + fn)
                if tp + fp + fn
                else (0.0 if zd == "warn" or np.isnan(float(zd)) else float(zd)),
            }
        )
    return pd.DataFrame(rows)


@pytest.mark.parametrize("seed", range(4))
def test_threshold_predictions_match_slow_reference(seed):
    y, s = multilabel_case(seed)
    rng = np.random.default_rng(seed)
    per_label = rng.random(s.shape[1])
    for t in (0.5, 0.25, 0.0, 1.0, per_label):
        np.testing.assert_array_equal(threshold_predictions(s, t), _slow_threshold(s, t))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 3, 6, 9])
def test_top_k_predictions_match_slow_reference(seed, k):
    _, s = multilabel_case(seed)  # tied scores everywhere, row 2 all tied
    pred = top_k_predictions(s, k=k)
    np.testing.assert_array_equal(pred, _slow_top_k(s, k))
    assert (pred.sum(axis=1) == min(k, s.shape[1])).all()


def test_prediction_helpers_refuse_bad_input():
    with pytest.raises(metrics.MetricInputError, match="threshold has 2 entries"):
        threshold_predictions([[0.1, 0.2, 0.3]], [0.5, 0.5])
    with pytest.raises(metrics.MetricInputError, match="threshold contains NaN"):
        threshold_predictions([[0.1, 0.2]], [0.5, np.nan])
    with pytest.raises(metrics.MetricInputError, match="k must be an integer >= 1"):
        top_k_predictions([[0.1, 0.2]], k=0)
    with pytest.raises(metrics.MetricInputError, match="y_score must be 2-D"):
        top_k_predictions([0.1, 0.2], k=1)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("zd", ZD_VALUES)
@pytest.mark.parametrize("beta", [1.0, 0.5])
@pytest.mark.parametrize("weighted", [False, True])
def test_label_table_matches_sklearn(seed, zd, beta, weighted):
    y, s = multilabel_case(seed)
    pred = threshold_predictions(s, 0.5)
    pred[:, 0] = 0  # a label never predicted: precision 0/0
    y[:, 1] = 0  # a label that never occurs: recall 0/0
    w = weights(seed, len(y)) if weighted else None
    t = multilabel_label_table(y, pred, beta=beta, sample_weight=w, zero_division=zd, summary=True)
    mcm = skm.multilabel_confusion_matrix(y, pred, sample_weight=w)
    L = y.shape[1]
    np.testing.assert_allclose(t["tp"][:L], mcm[:, 1, 1])
    np.testing.assert_allclose(t["fp"][:L], mcm[:, 0, 1])
    np.testing.assert_allclose(t["fn"][:L], mcm[:, 1, 0])
    np.testing.assert_allclose(t["tn"][:L], mcm[:, 0, 0])
    for avg, rows in ((None, slice(0, L)), ("macro", L), ("micro", L + 1)):
        p, r, f, _ = skm.precision_recall_fscore_support(
            y, pred, average=avg, sample_weight=w, zero_division=zd
        )
        fb = skm.fbeta_score(y, pred, beta=beta, average=avg, sample_weight=w, zero_division=zd)
        jac = skm.jaccard_score(
            y,
            pred,
            average=avg,
            sample_weight=w,
            zero_division=0.0 if zd == "warn" or (isinstance(zd, float) and np.isnan(zd)) else zd,
        )
        for col, want in (("precision", p), ("recall", r), ("f1", f), ("fbeta", fb)):
            np.testing.assert_allclose(t[col].to_numpy()[rows], want, equal_nan=True, atol=1e-12)
        np.testing.assert_allclose(t["jaccard"].to_numpy()[rows], jac, atol=1e-12)
    assert t["no_prediction"][0] and t["no_support"][1]
    assert t["label"].tolist()[L:] == ["macro (C-P, C-R, C-F1)", "micro (O-P, O-R, O-F1)"]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("zd", ZD_VALUES)
@pytest.mark.parametrize("beta", [1.0, 2.0])
def test_per_sample_matches_slow_reference_and_averages(seed, zd, beta):
    y, s = multilabel_case(seed)
    pred = threshold_predictions(s, 0.6)
    pred[3] = 0  # an empty prediction
    t = multilabel_per_sample(y, pred, beta=beta, zero_division=zd, label_names=list("abcdef"))
    ref = _slow_per_sample(y, pred, beta, zd)
    for col in ref.columns:
        np.testing.assert_allclose(t[col], ref[col], equal_nan=True, atol=1e-12)
    w = weights(seed, len(y))
    assert np.average(t["hamming"], weights=w) == pytest.approx(
        skm.hamming_loss(y, pred, sample_weight=w), abs=1e-12
    )
    assert np.average(t["exact_match"], weights=w) == pytest.approx(
        skm.accuracy_score(y, pred, sample_weight=w), abs=1e-12
    )
    for col, fn in (("precision", skm.precision_score), ("recall", skm.recall_score)):
        keep = ~np.isnan(t[col].to_numpy())
        want = fn(y, pred, average="samples", zero_division=zd)
        assert np.mean(t[col][keep]) == pytest.approx(want, abs=1e-12)
    assert t.loc[3, "predicted_labels"] == "" and t.loc[3, "extra"] == ""
    row = 5
    names = [c for c, v in zip("abcdef", y[row] * (1 - pred[row]), strict=True) if v]
    assert t.loc[row, "missed"] == ", ".join(names)


def test_outcomes_name_every_cell():
    y, s = multilabel_case(1)
    pred = threshold_predictions(s, 0.5)
    out = multilabel_outcomes(y, pred)
    assert (out == "TP").sum() == ((y == 1) & (pred == 1)).sum()
    assert (out == "FN").sum() == ((y == 1) & (pred == 0)).sum()
    assert (out == "FP").sum() == ((y == 0) & (pred == 1)).sum()
    assert set(np.unique(out)) <= {"TP", "FP", "FN", "TN"}


def _ragged() -> Dataset:
    """The ragged upload of tests/views/test_ragged_labels.py with a fourth query of one
    document: its padding slots score 0, above every document's negative score."""
    from explorer.io.uploads import read_upload
    from tests.views.test_ragged_labels import TABLE

    return read_upload("q.csv", TABLE + b"q4,doc-j,0,-0.05\n")


def _ragged_rows(ds: Dataset, pred: np.ndarray):
    """Each query's own documents: (truths, predictions), padding left out."""
    keep = ds.retrieved
    return [(ds.y_true[i][keep[i]], pred[i][keep[i]]) for i in range(ds.n_samples)]


@pytest.mark.parametrize("rule, threshold, top_k", [("threshold", -0.45, None), ("top_k", None, 2)])
def test_ragged_padding_counts_in_no_number(rule, threshold, top_k):
    ds = _ragged()
    pred, counts = multilabel.prediction(ds, "y_score", rule, threshold, (), top_k)
    assert not (pred & ~ds.retrieved).any()  # a padding slot is never predicted
    rows = _ragged_rows(ds, pred)
    if rule == "top_k":  # each query's two best documents (q4 has one), padding aside
        assert [int(p.sum()) for _, p in rows] == [2, 2, 2, 1]
    res = multilabel.summary(ds, pred, counts, 1.0, "0")
    yt = np.concatenate([y for y, _ in rows])
    yp = np.concatenate([p for _, p in rows])
    assert res["hamming"] == pytest.approx(np.mean(yt != yp), abs=1e-12)
    micro = skm.precision_score(yt, yp, zero_division=0)
    assert res["averages"]["micro"]["precision"] == pytest.approx(micro, abs=1e-12)
    f1s = [skm.f1_score(y, p, zero_division=0) for y, p in rows]
    assert res["averages"]["samples"]["f1"] == pytest.approx(np.mean(f1s), abs=1e-12)
    labels = res["labels"].iloc[: res["n_labels"]]
    real = ds.retrieved
    tn = [int((real[:, j] & (ds.y_true[:, j] == 0) & ~pred[:, j]).sum()) for j in range(4)]
    assert labels["tn"].tolist() == tn  # a padding slot is no true negative
    per = multilabel.sample_rows(ds, pred, np.arange(4), 1.0, "0")
    assert per["hamming"].tolist() == pytest.approx([np.mean(y != p) for y, p in rows])
    steps = multilabel.sample_steps(ds, "y_score", pred, 1, rule, threshold, ())
    assert steps["label"].tolist() == ["doc-d", "doc-e"]  # q2's documents, no padding slot
    cells, _ = multilabel.outcome_grid(ds, pred, res["worst"])
    assert ((cells == "") == ~real[res["worst"].index[: len(cells)]]).all()


def test_a_column_of_padding_only_is_no_label():
    y = np.array([[1, 0, 0], [0, 1, 0]])
    s = np.array([[0.9, 0.2, 0.0], [0.3, 0.8, 0.0]])
    keep = np.array([[True, True, False], [True, True, False]])
    ds = Dataset("r", "multilabel", y, {"m": s}, retrieved=keep, label_names=("a", "b", "c"))
    pred, counts = multilabel.prediction(ds, "m", "threshold", -0.5, (), None)
    res = multilabel.summary(ds, pred, counts, 1.0, "0")
    assert res["n_labels"] == 2 and res["labels"]["label"].tolist()[:2] == ["a", "b"]
    # labels a and b: each true once, predicted twice (threshold below every score)
    assert res["averages"]["macro"]["precision"] == pytest.approx(0.5, abs=1e-12)
    assert multilabel.label_columns(ds).tolist() == [0, 1]
