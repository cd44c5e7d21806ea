"""The curves page's texts with run-time numbers (views/curves/text.md sections filled
by views.curves.parts.text) read as the page's f-strings did."""

from __future__ import annotations

import re

import pytest

from explorer.formatting import count, fmt
from views import prose
from views.curves.parts import text

RATES = [
    {"tp": 2.0, "fp": 1.0, "fn": 0.0, "tn": 3.0, "beta": 1.0},
    {"tp": 12.5, "fp": 3.25, "fn": 1.0, "tn": 40.125, "beta": 0.5},  # weighted counts
]


def old_formulas(r: dict) -> dict[str, str]:
    """The formulas as the page wrote them before they moved to views/curves/text.md."""
    tp, fp, fn, tn = (count(r[k], grouped=False) for k in ("tp", "fp", "fn", "tn"))
    b2, n = f"{r['beta']:g}^2", count(r["tp"] + r["fp"] + r["fn"] + r["tn"], grouped=False)
    return {
        "precision": rf"\text{{Precision}} = \frac{{TP}}{{TP + FP}} = \frac{{{tp}}}{{{tp} + {fp}}}"
        rf" = {fmt(r['precision'])}",
        "recall": rf"\text{{Recall (TPR)}} = \frac{{TP}}{{TP + FN}} = \frac{{{tp}}}{{{tp} + {fn}}}"
        rf" = {fmt(r['recall'])}",
        "f1": rf"\begin{{aligned}} F_1 &= \frac{{2\,TP}}{{2\,TP + FP + FN}} \\ &= \frac{{2 \cdot "
        rf"{tp}}}{{2 \cdot {tp} + {fp} + {fn}}} = {fmt(r['f1'])} \end{{aligned}}",
        "fpr": rf"\text{{FPR}} = \frac{{FP}}{{FP + TN}} = \frac{{{fp}}}{{{fp} + {tn}}}"
        rf" = {fmt(r['fpr'])}",
        "fbeta": rf"\begin{{aligned}} F_\beta &= \frac{{(1+\beta^2)\,TP}}{{(1+\beta^2)\,TP + "
        rf"\beta^2 FN + FP}} \\ &= \frac{{(1+{b2}) \cdot {tp}}}{{(1+{b2}) \cdot {tp} + {b2} "
        rf"\cdot {fn} + {fp}}} = {fmt(r['fbeta'])} \end{{aligned}}",
        "accuracy": rf"\text{{Accuracy}} = \frac{{TP + TN}}{{N}} = \frac{{{tp} + {tn}}}{{{n}}}"
        rf" = {fmt(r['accuracy'])}",
        "error_rate": rf"\text{{Error rate}} = \frac{{FP + FN}}{{N}} = \frac{{{fp} + {fn}}}"
        rf"{{{n}}} = {fmt(r['error_rate'])}",
    }


@pytest.mark.parametrize("counts", RATES)
def test_formulas_read_as_before(counts):
    tp, fp, fn, tn, beta = (counts[k] for k in ("tp", "fp", "fn", "tn", "beta"))
    b2 = beta**2
    r = {
        **counts,
        "n": tp + fp + fn + tn,
        "precision": tp / (tp + fp),
        "recall": tp / (tp + fn),
        "f1": 2 * tp / (2 * tp + fp + fn),
        "fpr": fp / (fp + tn),
        "fbeta": (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp),
        "accuracy": (tp + tn) / (tp + fp + fn + tn),
        "error_rate": (fp + fn) / (tp + fp + fn + tn),
    }
    for name, want in old_formulas(r).items():
        assert text(f"formula_{name}", **r) == want, name
    assert text("formula_fpr", **r).endswith(f"= {fmt(r['fpr'])}")


def test_number_texts_read_as_before():
    assert text("operating_point_index", t=0.123456) == (
        "**Prediction = positive when score ≥ 0.1235.** Move the slider, type a value, "
        "click a point of a curve (it selects that curve's model) or a candidate button."
    )
    assert text("operating_point", t=0.5).startswith("**Prediction = positive when score ≥ 0.5.**")
    assert text("pairs_sampled", n_pairs=12345, n_sample=2000, wins=1500, ties=12) == (
        "There are 12,345 positive/negative pairs: too many to list. The value "
        "above counts every one of them exactly (from the sorted scores). The table "
        "is a **uniform random sample** of 2,000 pairs (seed 0): 1,500 wins and 12 ties "
        "in the sample."
    )
    a = {"rank_sum": 11.0, "n_pos": 2, "n_neg": 4, "auc": 1.0}
    assert text("formula_rank_sum", **a, n_pos_plus_1=3) == (
        r"\text{AUC} = \frac{\sum_{i \in \text{pos}} \text{rank}_i - \frac{n_+(n_+ + 1)}{2}}"
        r"{n_+ \cdot n_-} = \frac{11 - \frac{2 \cdot 3}{2}}{2 \cdot 4} = 1"
    )
    assert text("formula_log_loss", total=3.65268, n=6.0, mean=0.60878) == (
        r"\text{Log loss} = -\frac{1}{N}\sum_i \big[y_i \log p_i + (1 - y_i)\log(1 - p_i)\big]"
        r" = \frac{3.6527}{6} = 0.6088"
    )
    assert text("histogram", n_bins=7, histogram=0.75, exact=0.8, histogram_error=-0.05) == (
        "Scores fall in 7 equal-width bins; a positive beats every negative of a lower bin "
        "and ties (1/2) those of its own bin. Histogram AUC 0.7500 against the exact 0.8000: "
        "error -5.000e-02. More bins, smaller error; it is exact once no bin mixes distinct "
        "positive and negative scores."
    )


def test_every_field_of_curves_md_is_filled():
    field = re.compile(r"\$\{(\w+)")
    for name, body in prose.sections("curves").items():
        names = set(field.findall(body))
        filled = text(name, **dict.fromkeys(names, 1.5))
        assert "${" not in filled, name
    with pytest.raises(KeyError):
        text("pairs")  # a field without a value is an error, never left as "${...}"


def test_a_click_on_another_models_curve_records_its_threshold_and_selects_it(monkeypatch):
    """views.curves.controls.from_chart, the ROC/PR charts' on_select callback, with the
    session state as a plain dict (AppTest cannot fire an on_select callback): a point of
    trace 1 + i selects models[i] and records the point's threshold; a marker (here the
    operating point, the last trace) keeps the model; a NaN (+inf vertex) moves nothing."""
    from views.curves import controls

    models = ("good", "weak")
    ss = {controls.MODEL: "good", "curves_roc_chart": None}
    monkeypatch.setattr(controls.st, "session_state", ss)

    def click(curve_number, customdata):
        point = {"curve_number": curve_number, "point_index": 3, "customdata": customdata}
        ss["curves_roc_chart"] = {"selection": {"points": [point]}}
        controls.from_chart("curves_roc_chart", models)

    click(2, 0.42)
    assert ss[controls.MODEL] == "weak" and ss[controls.PENDING] == {"click": 0.42}
    click(5, 0.7)  # the operating point: the model stays
    assert ss[controls.MODEL] == "weak" and ss[controls.PENDING] == {"click": 0.7}
    ss.pop(controls.PENDING)
    click(1, None)  # the +inf vertex of the first model: nothing moves
    assert ss[controls.MODEL] == "weak" and controls.PENDING not in ss
    click(1, 0.9)
    assert ss[controls.MODEL] == "good" and ss[controls.PENDING] == {"click": 0.9}
    # the script settles the recorded click as the threshold
    controls._settle_threshold()
    assert ss[controls.T] == 0.9 and controls.PENDING not in ss
