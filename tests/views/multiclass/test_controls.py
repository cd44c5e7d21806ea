"""The Multiclass classification page's controls (AppTest): each moves the numbers and
the address, and a link opened fresh shows the same view."""

from __future__ import annotations

import sklearn.metrics as skm

from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.conftest import open_page
from tests.views.multiclass.common import PAGE, expected, open_link, shown


def test_controls_move_the_numbers_and_the_url():
    at = open_page(PAGE, "digits10")
    ds = load_sample("digits10")
    at.number_input(key="mc_k").set_value(3).run()
    assert shown(at)["Top-3 accuracy"] == expected(ds, 3)["Top-3 accuracy"]
    assert at.query_params["k"] == "3"
    at.radio(key="mc_norm").set_value("true").run()
    assert at.query_params["norm"] == "true"
    fig = at.get("plotly_chart")[0]
    assert '"colorbar":{"title":{"text":"rate"}}' in fig.proto.spec.replace(" ", "")
    at.radio(key="mc_avg").set_value("micro").run()
    assert at.query_params["avg"] == "micro"
    t, s = ds.y_true.argmax(axis=1), ds.score()
    micro = fmt(skm.roc_auc_score(t, s, multi_class="ovr", average="micro"))
    assert any(
        x.value.strip("$\n").endswith(micro) and "Micro ROC AUC" in x.value for x in at.latex
    )
    at.selectbox(key="mc_class").set_value("8").run()
    assert at.query_params["class"] == "8"
    assert any("Class **8** vs the rest" in c.value for c in at.caption)
    auc8 = skm.roc_auc_score(t, s, multi_class="ovr", average=None)[8]
    assert any(
        x.value.strip("$\n").startswith(r"\text{AUC}_{\text{8}}")
        and x.value.strip("$\n").endswith(fmt(auc8))
        for x in at.latex
    )


def test_a_link_opened_fresh_shows_the_same_view():
    first = open_page(PAGE, "digits10")
    first.number_input(key="mc_k").set_value(4).run()
    first.selectbox(key="mc_cell_true").set_value("3").run()
    first.selectbox(key="mc_cell_pred").set_value("7").run()
    params = dict(first.query_params)
    fresh = open_link(params)
    assert shown(fresh) == shown(first)
    assert fresh.selectbox(key="mc_cell_true").value == "3"
    assert fresh.selectbox(key="mc_cell_pred").value == "7"
    assert fresh.selectbox(key="mc_sample").value == first.selectbox(key="mc_sample").value
