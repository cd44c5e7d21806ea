"""The Data page's "New table": a blank table typed, refused only where a typed row
has an empty cell, then opened on the page the teacher came from (AppTest)."""

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from tests.conftest import APP, metric, rendered


def _typed(rows: dict) -> dict:
    return {"edited_rows": rows, "added_rows": [], "deleted_rows": []}


def test_a_typed_table_opens_on_the_page_it_came_from():
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(script("curves")).run()
    at.switch_page(script("data")).run()
    assert not at.exception
    assert at.query_params["from"] == "curves"  # the link keeps where to go back
    at.number_input(key="data_new_rows").set_value(5)
    at.number_input(key="data_new_columns").set_value(2)
    at.button(key="data_new_start").click().run()
    assert "open ROC & PR curves" in at.button(key="data_new_apply").label

    # four rows typed of five, model_2 left empty, one score missing: refused there
    y, s = [0, 1, 1, 0], [0.3, 0.2, 0.9, 0.1]
    rows = {i: {"y_true": y[i], "model_1": s[i]} for i in range(4)}
    at.session_state["data_new_grid"] = _typed({**rows, 1: {"y_true": 1}})
    at.button(key="data_new_apply").click().run()
    assert not at.exception
    assert 'row 1, column "model_1": is empty' in rendered(at.error[0].value)
    assert at.session_state["active_dataset"] == "balanced"

    at.session_state["data_new_grid"] = _typed(rows)
    at.text_input(key="data_new_names").set_value("typed")
    at.button(key="data_new_apply").click().run()
    assert not at.exception
    assert at.session_state["active_page"] == "curves"
    assert at.session_state["active_dataset"] == "typed table"
    auc = metrics.roc_auc_score(np.array(y), np.array(s))
    assert metric(at, "ROC AUC") == fmt(auc)
