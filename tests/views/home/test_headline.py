"""Home derives its headline numbers on screen: each line ends in the digits of the
st.metric it derives, and the numbers are those of metrics."""

from __future__ import annotations

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import metric, open_page


def test_home_derives_roc_auc_average_precision_and_gini():
    ds = load_sample("balanced")
    y, s = ds.y_true, ds.score()
    auc = metrics.roc_auc_score(y, s)
    ap = metrics.average_precision_score(y, s)
    gini = metrics.gini(y, s)
    at = open_page(script("home"), "balanced")
    assert metric(at, "ROC AUC") == fmt(auc) and metric(at, "Gini") == fmt(gini)
    latex = [x.value.strip("$\n") for x in at.main.latex]  # AppTest wraps it in $$
    assert any(
        r"\text{ROC AUC} &=" in x and x.endswith(f"= {fmt(auc)}\\end{{aligned}}") for x in latex
    )
    assert any(x.endswith(f"= {fmt(ap)}\\end{{aligned}}") for x in latex)
    assert rf"2 \cdot {fmt(auc)} - 1 = {fmt(gini)}" in latex[-1]
    assert abs((2 * auc - 1) - gini) < 1e-12  # the line's arithmetic holds


def test_home_derivations_wait_for_reveal():
    at = open_page(script("home"), "balanced", reveal="0")
    assert not at.main.latex
    at.button(key="home_reveal").click().run()
    assert len(at.main.latex) == 3


def test_home_of_another_kind_names_the_page_that_derives_it():
    at = open_page(script("home"), "seed003_lrap")
    notes = [c.value for c in at.main.caption]
    assert "Each of these numbers is derived term by term on the **Label ranking** page." in notes
    assert not at.main.latex
