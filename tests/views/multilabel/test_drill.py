"""What the model got wrong (AppTest): the label and sample inspectors of the tab Errors."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.samples import load_sample
from metrics import (
    multilabel_outcomes,
    multilabel_per_sample,
    threshold_predictions,
)
from tests.conftest import numbered_selectbox
from tests.views.multilabel.helpers import (
    assert_metrics,
    expected,
    open_page,
    open_tab,
    open_with,
)


def test_inspect_label_and_sample_list_the_errors():
    at = open_page()
    ds = load_sample("digit_properties")
    pred = threshold_predictions(ds.score(), 0.5)
    open_tab(at, "Errors")
    assert at.query_params["tab"] == "errors"
    assert len(at.get("plotly_chart")) == 1  # the grid of the worst samples (bars: SVG)
    at.selectbox(key="ml_inspect_label").set_value("prime").run()
    assert not at.exception
    j = ds.label_names.index("prime")
    wrong = at.dataframe[0].value
    n_wrong = int(((ds.y_true[:, j] == 1) != (pred[:, j] == 1)).sum())
    assert len(wrong) == n_wrong
    assert set(wrong["what"].str.split().str[0]) <= {"missed", "extra"}
    assert at.query_params["label"] == "prime"

    numbered_selectbox(at, "ml_inspect_sample").set_value("7").run()
    assert not at.exception
    steps = at.dataframe[1].value
    assert steps["outcome"].tolist() == multilabel_outcomes(ds.y_true, pred)[7].tolist()
    assert at.query_params["sample"] == "7"

    open_tab(at, "Every sample")
    per_sample = at.dataframe[0].value
    assert per_sample["wrong"].is_monotonic_decreasing
    assert len(per_sample) == min(200, ds.n_samples)
    assert at.main.get("download_button")  # CSVs offered (the sidebar has its own)


def test_more_samples_than_kept_lists_the_true_worst_rows():
    """Past ALL_ROWS samples the page keeps only the worst rows (label names for those
    alone): they must be the first rows of the full per-sample table, names included."""
    from explorer.datasets import Dataset

    rng = np.random.default_rng(7)
    n, labels = 2600, ["a", "b", "c", "d", "e"]
    y = (rng.random((n, 5)) < 0.3).astype(int)
    s = np.round(np.clip(0.4 * y + 0.6 * rng.random((n, 5)), 0, 1), 2)
    ds = Dataset("wide", "multilabel", y, {"m": s}, label_names=tuple(labels))
    at = open_with(ds)
    pred = threshold_predictions(s, 0.5)
    assert_metrics(at, expected(ds, pred))
    full = multilabel_per_sample(y, pred, label_names=labels)
    full = full.sort_values(["wrong", "jaccard"], ascending=[False, True], kind="stable")
    shown = open_tab(at, "Every sample").dataframe[0].value
    assert len(shown) == 200
    assert shown["sample"].tolist() == [ds.sample_ids[i] for i in full.index[:200]]
    for col in ("true_labels", "predicted_labels", "missed", "extra", "wrong", "tp", "fn"):
        assert shown[col].tolist() == full[col].iloc[:200].tolist(), col
    np.testing.assert_allclose(shown["jaccard"], full["jaccard"].iloc[:200], rtol=0, atol=1e-12)
    # the label inspector: every wrong sample of label "c" is counted, 200 are listed
    open_tab(at, "Errors")
    at.selectbox(key="ml_inspect_label").set_value("c").run()
    assert not at.exception
    n_wrong = int((y[:, 2] != pred[:, 2]).sum())
    assert n_wrong > 200 and len(at.dataframe[0].value) == 200
    assert any(f"{n_wrong} wrong sample(s)" in m.value for m in at.markdown)
    wrong = at.dataframe[0].value
    first = np.flatnonzero(y[:, 2] != pred[:, 2])[:200]
    assert wrong["sample"].tolist() == [ds.sample_ids[i] for i in first]
    # the sample picker offers the 500 worst; the 300th's steps are its own outcomes
    picker = numbered_selectbox(at, "ml_inspect_sample")
    assert len(picker.options) == 500
    i = int(full.index[299])
    picker.set_value(ds.sample_ids[i]).run()
    assert not at.exception
    assert at.dataframe[1].value["outcome"].tolist() == multilabel_outcomes(y, pred)[i].tolist()
    # beta moves F-beta of the averages table (fbeta_score, not the F1 reused at beta 1)
    open_tab(at, "Per-label tables")
    at.number_input(key="ml_beta").set_value(2.0).run()
    avg = at.dataframe[1].value
    assert avg["F-beta"].iloc[2] == pytest.approx(
        metrics.fbeta_score(y, pred, beta=2.0, average="samples"), abs=1e-12
    )
    assert avg["F-beta"].iloc[2] != pytest.approx(avg["F1"].iloc[2], abs=1e-9)
