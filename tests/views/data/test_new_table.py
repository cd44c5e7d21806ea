"""The Data page's "New table": a blank table typed, refused only where a typed row
has an empty cell, then opened on the page the teacher came from (AppTest: Apply's
message set as the table-entry component sends it)."""

import json

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from tests.conftest import APP, metric, rendered
from views.data import new_table
from views.data.table_entry import SUBMITTED


def _apply(at: AppTest, rows: list[list[str]], names: str = "") -> AppTest:
    """What the component's Apply sends: every cell as typed, the names box."""
    draft = at.session_state[new_table.STARTED][3]
    at.session_state[SUBMITTED] = {"draft": draft, "cells": rows, "names": names}
    return at.run()


def test_a_typed_table_opens_on_the_page_it_came_from():
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(script("curves")).run()
    at.switch_page(script("data")).run()
    assert not at.exception
    assert at.query_params["from"] == "curves"  # the link keeps where to go back
    at.number_input(key="data_new_rows").set_value(5)
    at.number_input(key="data_new_columns").set_value(2)
    at.button(key="data_new_start").click().run()
    (grid,) = at.get("bidi_component")
    data = json.loads(grid.proto.json)
    assert data["caption"] == "New table: 5 rows, 2 models"
    assert data["apply_label"] == "Apply and open ROC & PR curves"
    assert [c["head"] for c in data["columns"]] == ["id", "true label", "model_1", "model_2"]
    assert data["rows"] == 5
    assert data["present"] is False  # presentation mode: the grid's text grows with the page

    # four rows typed of five, model_2 left empty, one score missing: refused there
    y, s = [0, 1, 1, 0], [0.3, 0.2, 0.9, 0.1]
    rows = [["", str(y[i]), str(s[i]), ""] for i in range(4)] + [[""] * 4]
    gap = [r.copy() for r in rows]
    gap[1][2] = " "
    _apply(at, gap)
    assert not at.exception
    assert 'row 1, column "model_1": is empty' in rendered(at.error[0].value)
    assert at.session_state["active_dataset"] == "balanced"
    _apply(at, rows[:1] + [["", "1", "0.2", "", "x"]])  # not the grid's shape
    assert "came back unreadable" in rendered(at.error[0].value)

    at.session_state[SUBMITTED] = {"draft": "old", "cells": rows, "names": ""}
    at.run()  # a message of an earlier draft is not read
    assert at.session_state["active_dataset"] == "balanced"

    _apply(at, rows, names="typed")
    assert not at.exception
    assert at.session_state["active_page"] == "curves"
    assert at.session_state["active_dataset"] == "typed table"
    auc = metrics.roc_auc_score(np.array(y), np.array(s))
    assert metric(at, "ROC AUC") == fmt(auc)


def test_the_grid_knows_presentation_mode():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["present"] = "1"
    at.run().switch_page(script("data")).run()
    at.button(key="data_new_start").click().run()
    (grid,) = at.get("bidi_component")
    assert json.loads(grid.proto.json)["present"] is True
