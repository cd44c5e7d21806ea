"""views.curves.derivation.show: every headline number of the ROC & PR
curves page derived on screen, its terms metrics' own and its last number the
headline's text (the page formats its headline with explorer.formatting.fmt)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.samples import load_sample


def _app():
    """show() alone: the dataset is ``st.session_state["ds"]`` when a test put one there,
    else the bundled sample named by the ``ds`` URL parameter; ``model``, ``t`` and
    ``beta`` come from the URL."""
    import streamlit as st

    from explorer.samples import load_sample
    from views.curves import derivation

    q = st.query_params
    ds = st.session_state.get("ds") or load_sample(q.get("ds", "seed002_roc6"))
    model = q.get("model", ds.model_names[0])
    derivation.show(ds, model, float(q.get("t", 0.5)), float(q.get("beta", 1.0)))


def run(ds=None, **params) -> AppTest:
    at = AppTest.from_function(_app, default_timeout=30)
    if isinstance(ds, str):  # a bundled sample, by name
        ds, params = None, {"ds": ds, **params}
    if ds is not None:
        at.session_state["ds"] = ds
    for k, v in params.items():
        at.query_params[k] = str(v)
    at.run()
    assert not at.exception
    return at


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


def plugged(at, name: str) -> str:
    """The line with numbers (not the general formula, which has no digits at the end)."""
    values = [one_line(x.value.strip("$\n")) for x in at.latex]
    return next(v for v in values if v.startswith(rf"\text{{{name}}} = ") and re.search(r"\d$", v))


def sum_terms(text: str) -> list[tuple[float, float]]:
    body = text.split(" = ", 1)[1].rsplit(" = ", 1)[0]
    pairs = [t.split(r" \cdot ") for t in body.split(" + ") if t != r"\dots"]
    return [(float(a), float(b)) for a, b in pairs]


def shown(v):
    v = list(v)
    return v if len(v) <= 5 else [*v[:3], *v[-2:]]


@pytest.mark.parametrize("sample", ["seed002_roc6", "balanced", "heavy_ties"])
def test_auc_ap_and_log_loss_are_written_with_metrics_terms(sample):
    ds = load_sample(sample)
    at = run(ds=sample)
    y, s, w = ds.y_true, ds.score(), ds.sample_weight
    # ROC AUC: the trapezoids of metrics' ROC curve where FPR moves
    fpr, tpr, _ = metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    moves = np.flatnonzero(np.diff(fpr) > 0)
    width, height = np.diff(fpr)[moves], ((tpr[1:] + tpr[:-1]) / 2)[moves]
    auc = plugged(at, "ROC AUC")
    assert sum_terms(auc) == [
        (float(fmt(a)), float(fmt(b))) for a, b in shown(zip(width, height, strict=True))
    ]
    assert auc.endswith(f"= {fmt(metrics.roc_auc_score(y, s, sample_weight=w))}")
    if len(moves) <= 5:
        assert sum(a * b for a, b in sum_terms(auc)) == pytest.approx(
            metrics.roc_auc_score(y, s, sample_weight=w), abs=1e-3
        )
    # AP: recall rises times precision, in increasing recall
    p, r, _ = metrics.precision_recall_curve(y, s, sample_weight=w)
    p, r = p[::-1], r[::-1]
    rises = np.flatnonzero(np.diff(r) > 0) + 1
    ap = plugged(at, "Average precision")
    assert sum_terms(ap) == [(float(fmt(r[i] - r[i - 1])), float(fmt(p[i]))) for i in shown(rises)]
    assert ap.endswith(f"= {fmt(metrics.average_precision_score(y, s, sample_weight=w))}")
    # log loss: metrics' per-sample terms over the count
    terms = metrics.log_loss_per_sample(y.astype(int), s, labels=[0, 1])
    ll = plugged(at, "Log loss")
    written = re.match(r"\\text\{Log loss\} = \\frac\{([^{}]*)\}", ll).group(1)
    assert [t for t in written.split(" + ") if t != r"\dots"] == [fmt(x) for x in shown(terms)]
    assert ll.endswith(f"= {fmt(metrics.log_loss(y.astype(int), s, labels=[0, 1]))}")
    notes = " ".join(c.value for c in at.caption)
    assert "vertical ones add 0" in notes and "recall rises" in notes


def test_rates_at_the_threshold_plug_in_the_counts():
    ds = load_sample("seed002_roc6")
    at = run(t=0.65, beta=2.0)
    y, s = ds.y_true, ds.score()
    r = metrics.rates_at_threshold(y, s, 0.65, beta=2.0)
    tp, fp, fn, tn = (int(r[k]) for k in ("tp", "fp", "fn", "tn"))
    assert plugged(at, "TPR") == (
        rf"\text{{TPR}} = \frac{{TP}}{{TP + FN}} = \frac{{{tp}}}{{{tp} + {fn}}} = {fmt(r['tpr'])}"
    )
    assert plugged(at, "Precision").endswith(
        rf"\frac{{{tp}}}{{{tp} + {fp}}} = {fmt(metrics.precision_score(y, s >= 0.65))}"
    )
    assert plugged(at, "Accuracy").endswith(
        rf"\frac{{{tp} + {tn}}}{{{tp + fp + fn + tn}}} = {fmt(r['accuracy'])}"
    )
    assert plugged(at, "F-beta").endswith(
        rf"\frac{{5 \cdot {tp}}}{{5 \cdot {tp} + 4 \cdot {fn} + {fp}}} = {fmt(r['fbeta'])}"
    )
    assert fmt(r["fbeta"]) == fmt(metrics.fbeta_score(y, s >= 0.65, beta=2.0))
    for name in ("F1", "Error rate", "FPR", "Recall"):
        assert re.search(r"= \d", plugged(at, name))
    assert any(f"TP = {tp}, FP = {fp}, FN = {fn}, TN = {tn}" in m.value for m in at.markdown)


def test_weighted_counts_and_scores_that_are_no_probabilities():
    rng = np.random.default_rng(5)
    y = (rng.random(40) < 0.4).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=40) * 2  # not probabilities: no log loss
    w = rng.random(40) * 3
    ds = Dataset("w", "binary", y, {"m": s}, sample_weight=w)
    at = run(ds=ds, t=0.0)
    assert plugged(at, "ROC AUC").endswith(f"= {fmt(metrics.roc_auc_score(y, s, sample_weight=w))}")
    assert plugged(at, "Average precision").endswith(
        f"= {fmt(metrics.average_precision_score(y, s, sample_weight=w))}"
    )
    r = metrics.rates_at_threshold(y, s, 0.0, sample_weight=w)
    assert plugged(at, "Recall").endswith(
        rf"\frac{{{fmt(r['tp'])}}}{{{fmt(r['tp'])} + {fmt(r['fn'])}}} = {fmt(r['recall'])}"
    )
    assert any(x.value.startswith("Log loss: no log loss") for x in at.warning)
    assert not [
        v
        for v in (x.value for x in at.latex)
        if v.strip("$\n").startswith(r"\text{Log loss} = \frac{0")
    ]


def test_one_class_only_gets_a_notice_not_a_traceback():
    y = np.zeros(6, dtype=int)
    ds = Dataset("neg", "binary", y, {"m": np.linspace(0.1, 0.9, 6)})
    at = run(ds=ds)
    assert at.error and "No derivation for this data" in at.error[0].value
