"""metrics.metric_frame against Fairlearn's MetricFrame, through saved values.

Fairlearn is not a test dependency: tests/fixtures/fairlearn_metricframe/make.py computed
its overall values, by_group, difference and ratio (between groups and to the overall value)
on seeded data saved beside them in expected.json (Fairlearn 0.15.0, scikit-learn 1.9.1).
"""

import json
from pathlib import Path

import numpy as np
import pytest

import metrics as M

EXPECTED = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "fairlearn_metricframe" / "expected.json").read_text()
)
DATA = {k: np.array(v) for k, v in EXPECTED["data"].items()}

# the fixture's name -> (our metric, y_true column, y_score column, weighted)
OURS = {
    "accuracy": (M.accuracy_score, "y", "pred", False),
    "accuracy_weighted": (M.accuracy_score, "y", "pred", True),
    "recall": ("tpr", "y", "pred", False),  # 0/1 predictions: pred >= 0.5 is pred == 1
    "selection_rate": ("selection_rate", "y", "pred", False),
    "roc_auc": (M.roc_auc_score, "y", "prob", False),
    "log_loss": (M.log_loss, "y", "prob", False),
    "mae": (M.mean_absolute_error, "target", "estimate", False),
    "mae_weighted": (M.mean_absolute_error, "target", "estimate", True),
    "mse": (M.mean_squared_error, "target", "estimate", False),
    "r2": (M.r2_score, "target", "estimate", False),
}


def test_the_fixture_covers_every_case():
    assert set(EXPECTED["frames"]) == set(OURS)


@pytest.mark.parametrize("name", sorted(OURS))
def test_metric_frame_reproduces_fairlearn(name):
    metric, true, score, weighted = OURS[name]
    want = EXPECTED["frames"][name]
    f = M.metric_frame(
        metric,
        DATA[true],
        DATA[score],
        DATA["groups"],
        sample_weight=DATA["weight"] if weighted else None,
        n_resamples=2,  # the values only: Fairlearn has no intervals
        n_permutations=0,
        random_state=0,
    )
    assert f.groups.tolist() == sorted(want["by_group"])
    np.testing.assert_allclose(f.value, [want["by_group"][g] for g in f.groups], rtol=1e-12)
    got = {
        "overall": f.overall,
        "difference_between_groups": f.difference("between_groups"),
        "difference_to_overall": f.difference("to_overall"),
        "ratio_between_groups": f.ratio("between_groups"),
        "ratio_to_overall": f.ratio("to_overall"),
    }
    for key, value in got.items():
        assert value == pytest.approx(want[key], rel=1e-12, abs=1e-12), key
