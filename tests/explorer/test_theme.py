"""explorer/theme.py: the palette, the plotly template, contrast and the page CSS;
explorer/formatting.py's dashes for empty cells."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from explorer import theme
from explorer.charts import curves as cv_charts
from explorer.charts import multilabel as ml_charts
from explorer.charts import retrieval as ret_charts
from explorer.formatting import MISSING, dash_missing, undash

OKABE_ITO = {"#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}


def test_contrast_ratio_matches_wcag_reference_values():
    assert theme.contrast_ratio("#000000", "#ffffff") == 21.0
    assert theme.contrast_ratio("#ffffff", "#ffffff") == 1.0
    # order does not matter; #767676 is the lightest grey that passes AA on white
    assert theme.contrast_ratio("#ffffff", "#767676") == pytest.approx(4.54, abs=0.01)
    assert theme.contrast_ratio("rgb(118, 118, 118)") == pytest.approx(4.54, abs=0.01)
    assert theme.contrast_ratio("#777") < 4.5
    # what the teacher measured: Streamlit's chart grey 3.7:1
    assert theme.contrast_ratio("#808495") == pytest.approx(3.72, abs=0.01)
    with pytest.raises(ValueError):
        theme.contrast_ratio("teal")


@pytest.mark.parametrize("name", ["BODY_TEXT", "CAPTION_TEXT", "CHART_TEXT"])
def test_every_text_colour_reaches_aa_on_the_page_and_on_widget_grey(name):
    color = getattr(theme, name)
    assert theme.contrast_ratio(color, theme.BACKGROUND) >= 7.0
    assert theme.contrast_ratio(color, "#f0f2f6") >= 4.5  # code and widget backgrounds


def test_palette_is_okabe_ito_and_the_template_carries_it():
    assert set(theme.OKABE_ITO.values()) == OKABE_ITO
    assert set(theme.COLORWAY) == OKABE_ITO and len(theme.COLORWAY) == 8
    assert theme.COLORWAY[-1] == "#F0E442"  # yellow, too light for a line on white, last
    assert set(theme.OUTCOME_COLORS.values()) <= OKABE_ITO
    assert theme.use_template() == pio.templates.default == "explorer"
    assert list(go.Figure().layout.template.layout.colorway) == list(theme.COLORWAY)


def test_metric_against_k_lines_take_distinct_okabe_ito_colours_and_direct_labels():
    curve = pd.DataFrame(
        {
            "K": [1, 2, 3],
            **{m: [0.5, 0.5 + i / 100, 0.5 + i / 50] for i, m in enumerate("ABCDEFG")},
        }
    )
    fig = ret_charts.metrics_vs_k_figure(curve, 2)
    # no trace sets its own colour: the i-th line takes the template's i-th colour
    assert [t.line.color for t in fig.data] == [None] * 7
    assert list(fig.layout.template.layout.colorway[:7]) == list(theme.COLORWAY[:7])
    assert len(set(theme.COLORWAY[:7])) == 7
    labels = [a for a in fig.layout.annotations if a.text in set("ABCDEFG")]
    # each label is outlined in its line's colour
    outlines = {a.text: a.bordercolor for a in labels}
    assert outlines == dict(zip("ABCDEFG", theme.COLORWAY[:7], strict=True))
    assert sorted(a.text for a in labels) == list("ABCDEFG")
    # seven lines ending within 0.12 of each other: labels at least 0.085 x range apart
    ys = sorted(a.y for a in labels)
    assert min(np.diff(ys)) >= 0.085 * 1.05 - 1e-9
    assert all(a.font.color == theme.CHART_TEXT for a in labels)
    assert fig.layout.margin.r >= 9 * len("A") + 24


def test_multilabel_outcomes_are_okabe_ito():
    colors = ml_charts.OUTCOME_COLORS
    assert {colors[k] for k in ("TP", "FN", "FP")} <= OKABE_ITO
    assert colors["TP"] != colors["FN"] != colors["FP"]


def test_cell_text_reads_on_every_cell_colour():
    cells = [*ml_charts.OUTCOME_COLORS.values(), *(c for _, c in theme.CONFUSION_SCALE)]
    for cell in cells:
        assert theme.contrast_ratio(theme.CELL_TEXT, cell) >= 4.5, cell
    fig = ml_charts.outcome_grid_figure(np.array([["TP", "FN"], ["FP", "TN"]]), [0, 1], "ab")
    assert fig.data[0].textfont.color == theme.CELL_TEXT
    conf = cv_charts.confusion_figure(np.array([[3, 1], [2, 4]]), np.eye(2), "true")
    assert conf.data[0].textfont.color == theme.CELL_TEXT
    assert [list(s) for s in conf.data[0].colorscale] == theme.CONFUSION_SCALE


def test_page_css_normal_and_presentation():
    normal, present = theme.page_css(False), theme.page_css(True)
    assert normal.startswith("<style>") and normal.endswith("</style>")
    assert theme.CAPTION_TEXT in normal and theme.CHART_TEXT in normal
    assert "opacity: 1 !important" in normal  # Streamlit draws captions at 0.6
    assert ".katex-display" in normal and "overflow-x: auto" in normal
    assert "font-size: 20px" not in normal and "font-size: 20px" in present
    assert "font-size: 17px" in present and "font-size: 16px !important" in present
    # chart text smaller than 16 px is raised in presentation mode, under 12 px always
    assert 'svg text[style*="font-size: 15px"]' in present
    assert 'svg text[style*="font-size: 10px"]' in normal
    assert 'svg text[style*="font-size: 12px"]' not in normal


def test_dash_missing_turns_every_empty_cell_into_a_dash_and_back():
    table = pd.DataFrame(
        {
            "label": ["a", "b", None],
            "rank": pd.array([1, None, 3], dtype="Int64"),
            "value": [0.5, np.nan, math.inf],
            "count": [1, 2, 3],
        }
    )
    shown = dash_missing(table)
    assert shown["label"].tolist() == ["a", "b", MISSING]
    assert shown["rank"].tolist() == ["1", MISSING, "3"]
    assert shown["value"].tolist() == ["0.5", MISSING, "+inf"]
    assert shown["count"].tolist() == [1, 2, 3]  # nothing missing: still numbers
    assert not shown.isna().any().any()
    assert not shown.isin(["None", "nan"]).any().any()
    back = undash(shown)
    assert back["value"].iloc[0] == 0.5 and np.isnan(back["value"].iloc[1])
    assert back["value"].iloc[2] == math.inf and back["rank"].iloc[2] == 3
    full = pd.DataFrame({"x": [1.0, 2.0]})
    assert dash_missing(full) is full
