"""How the Multiclass classification page computes its numbers (AppTest): every headline
derived on screen, ending in its digits."""

from __future__ import annotations

from tests.conftest import metric, open_page
from tests.views.multiclass.common import PAGE


def test_every_headline_is_derived_on_screen_ending_in_its_digits():
    at = open_page(PAGE, "digits10")
    latex = [x.value for x in at.latex]
    names = {
        "Accuracy": r"\text{Accuracy}",
        "Balanced accuracy": r"\text{Balanced accuracy}",
        "Macro F1": r"\text{Macro F1}",
        "MCC": r"\text{MCC}",
        "Cohen's kappa": r"\kappa",
        "Log loss": r"\text{Log loss}",
        "Top-2 accuracy": r"\text{Top-2 accuracy}",
        "Macro ROC AUC (OvR)": r"\text{Macro ROC AUC (OvR)}",
    }
    for label, start in names.items():
        line = next(x for x in latex if x.strip("$\n").startswith(start))
        assert line.strip("$\n").endswith(" = " + metric(at, label)), label
    # the mean over classes is written with its terms
    f1 = next(x for x in latex if r"\text{Macro F1}" in x)
    assert r"\dots" in f1 and "{10}" in f1
