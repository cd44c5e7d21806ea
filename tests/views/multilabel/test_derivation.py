"""How the headline is computed (AppTest): every derivation line ends in the headline's
digits and is built from the metrics' own terms."""

from __future__ import annotations

import re

import numpy as np
import sklearn.metrics as skm

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics import (
    multilabel_per_sample,
    threshold_predictions,
)
from tests.conftest import metric
from tests.views.multilabel.helpers import (
    open_page,
)


def latex_line(at, name: str) -> str:
    """The derivation line of ``name`` (it starts with ``\\text{name} =``)."""
    values = (x.value.strip("$\n") for x in at.latex)
    return next(v for v in values if v.startswith(rf"\text{{{name}}} = "))


def mean_parts(line: str) -> tuple[list[str], str, str | None]:
    """The shown terms, the denominator and (when terms are elided) the written total."""
    fracs = re.findall(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", line)
    terms = [t for t in fracs[0][0].split(" + ") if t != r"\dots"]
    return terms, fracs[0][1], fracs[1][0] if len(fracs) > 1 else None


def check_mean(at, name, values, headline):
    """The line's terms are ``values`` (head and tail), its total their sum, its end
    the headline's text."""
    line = latex_line(at, name)
    assert line.endswith(f"= {headline}")
    terms, denom, total = mean_parts(line)
    v = np.asarray(values, dtype=float)
    shown = v if len(v) <= 5 else np.r_[v[:3], v[-2:]]
    assert terms == [fmt(x) for x in shown]
    assert denom == f"{len(v):,}".replace(",", "{,}")
    if total is not None:
        assert total == fmt(v.sum())
    assert fmt(v.sum() / len(v)) == headline


def test_every_headline_is_derived_on_screen_from_the_inputs():
    at = open_page()
    ds = load_sample("digit_properties")
    y, pred = ds.y_true, threshold_predictions(ds.score(), 0.5)
    # macro: the mean of metrics' per-label F1 (all terms: 4 labels or fewer shown whole)
    per_label = skm.f1_score(y, pred, average=None, zero_division=0)
    assert np.allclose(per_label, metrics.f1_score(y, pred, average=None, zero_division=0))
    check_mean(at, "Macro F1", per_label, metric(at, "Macro F1"))
    check_mean(
        at,
        "Macro P",
        metrics.precision_score(y, pred, average=None, zero_division=0),
        fmt(metrics.precision_score(y, pred, average="macro", zero_division=0)),
    )
    # samples: the mean over the samples of metrics' per-sample Jaccard, head and tail
    rows = multilabel_per_sample(y, pred)
    assert len(rows) > 5
    check_mean(at, "Jaccard (samples)", rows["jaccard"], metric(at, "Jaccard (samples)"))
    check_mean(
        at,
        "Samples R",
        rows["recall"],
        fmt(metrics.recall_score(y, pred, average="samples", zero_division=0)),
    )
    # micro: the pooled counts plugged in
    tp = int((y.astype(bool) & pred.astype(bool)).sum())
    fp, fn = int(pred.sum()) - tp, int(y.sum()) - tp
    micro = latex_line(at, "Micro F1")
    assert rf"\frac{{2 \cdot {tp}}}{{2 \cdot {tp} + {fp} + {fn}}}" in micro
    assert micro.endswith(f"= {metric(at, 'Micro F1')}")
    assert fmt(2 * tp / (2 * tp + fp + fn)) == metric(at, "Micro F1")
    # weighted: each label's F1 times its support, over the total support
    support = y.sum(axis=0).astype(int)
    weighted = latex_line(at, "Weighted F1")
    terms, denom, _ = mean_parts(weighted)
    assert terms[0] == rf"{support[0]} \times {fmt(per_label[0])}"
    assert denom == str(support.sum())
    assert weighted.endswith(
        f"= {fmt(metrics.f1_score(y, pred, average='weighted', zero_division=0))}"
    )
    # Hamming loss and subset accuracy from their counts
    n, L = y.shape
    assert latex_line(at, "Hamming loss").endswith(
        rf"\frac{{{fp} + {fn}}}{{{n} \cdot {L}}} = {metric(at, 'Hamming loss')}"
    )
    exact = int((y == pred).all(axis=1).sum())
    assert latex_line(at, "Subset accuracy").endswith(
        rf"\frac{{{exact}}}{{{n}}} = {metric(at, 'Subset accuracy')}"
    )


def test_derivations_leave_out_nan_terms_as_the_averages_do():
    at = open_page()
    at.slider(key="ml_threshold").set_value(0.95).run()
    at.radio(key="ml_zero_division").set_value("nan").run()
    ds = load_sample("digit_properties")
    y, pred = ds.y_true, threshold_predictions(ds.score(), 0.95)
    per_label = metrics.precision_score(y, pred, average=None, zero_division=np.nan)
    kept = per_label[~np.isnan(per_label)]
    assert len(kept) < len(per_label)
    check_mean(
        at,
        "Macro P",
        kept,
        fmt(metrics.precision_score(y, pred, average="macro", zero_division=np.nan)),
    )
    assert any("0/0 = NaN left out" in c.value for c in at.caption)
    assert latex_line(at, "Macro F1").endswith(f"= {metric(at, 'Macro F1')}")
