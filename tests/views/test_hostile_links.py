"""A hand-edited link never shows a traceback: every page parameter, hostile values.

Each page is opened on a fitting sample; every parameter it writes into the
address is then set, one at a time, to a value no control would write
(``inf``, ``nan``, ``-1``, text) and the address opened in
a fresh session: the page must show its headline numbers, not an exception.
``?bins=inf`` on the curves page raised OverflowError before (int(inf)).
"""

from __future__ import annotations

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from explorer.registry import script
from tests.views.walker import APP, exceptions

SAMPLE_OF = {
    script("home"): "balanced",
    script("data"): "seed003_lrap",
    script("curves"): "balanced",
    script("label_ranking"): "seed003_lrap",
    script("dcg"): "seed001_dcg",
    script("retrieval"): "seed002_map",
    script("multilabel"): "digit_properties",
    script("regression"): "diabetes",
    script("compare"): "breast_cancer",
    script("multiclass"): "digits10",
    script("leaderboard"): "breast_cancer_five",
}
VALUES = ("inf", "nan", "-1", "x")


def _open(page: str, params: dict) -> AppTest:
    config.set_option("client.showErrorDetails", "full")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(params)
    return at.switch_page(page).run()


@pytest.mark.parametrize("page", sorted(SAMPLE_OF))
def test_every_parameter_with_a_hostile_value_opens_without_a_traceback(page):
    first = _open(page, {"ds": SAMPLE_OF[page]})
    assert not first.exception
    written = {k: v for k, v in first.query_params.items() if k != "ds"}
    n_metrics = len(first.main.metric)
    failures = []
    for name in sorted(written):
        for value in VALUES:
            at = _open(page, {**first.query_params, name: value})
            if at.exception:
                failures.append(f"?{name}={value!r}: {exceptions(at)[0].splitlines()[0]}")
            elif len(at.main.metric) != n_metrics:
                failures.append(f"?{name}={value!r}: {len(at.main.metric)} metrics shown")
    assert not failures, f"{page} with {first.query_params}:\n" + "\n".join(failures)
    if page not in (script("home"), script("data")):
        assert written, f"{page} writes no setting into the address"
