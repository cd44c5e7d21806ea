"""Valid data with one label column: the ranking and multilabel pages say why they
cannot show it, in an info box (never an error box, which reads as a broken app)."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.registry import script
from tests.conftest import rendered
from tests.views.test_valid_data import COLUMN, COLUMN_Y, open_page, pair_session


def _refusal(call) -> str:
    """The message ``metrics`` itself gives for the one-label data."""
    with pytest.raises(metrics.MetricInputError) as err:
        call()
    return str(err.value)


Y = np.array(COLUMN_Y)
CASES = {
    script("label_ranking"): (
        "Label ranking puts the labels of each sample in order, so it needs at least two labels",
        lambda: metrics.coverage_error(Y, Y * 0.5),
    ),
    script("dcg"): (
        "DCG ranks the labels of each sample by score, so it needs at least two labels",
        lambda: metrics.dcg_score(Y, Y * 0.5),
    ),
    script("multilabel"): (
        "Multilabel scores treat one column as binary data, so it needs at least two labels",
        lambda: metrics.multilabel_counts(Y, Y),
    ),
}


@pytest.mark.parametrize("page", sorted(CASES))
def test_one_label_column_gets_a_sentence_not_an_error(page):
    sentence, call = CASES[page]
    at = open_page(pair_session(*COLUMN), page)
    assert not at.error, [rendered(e.value) for e in at.error]
    assert len(at.info) == 1
    text = rendered(at.info[0].value)
    assert text.startswith(sentence) and "**l.csv + s.csv** has one." in text
    assert text.endswith(f"({_refusal(call)})")  # the reason metrics gives, quoted
    assert not at.metric  # no headline number of data the page cannot score
