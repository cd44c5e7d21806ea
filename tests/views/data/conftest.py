"""How the Data page's AppTest tests open it: the app with a sample picked in the
sidebar, then the Data page (the fixture ``at``: the default sample)."""

import pytest
from streamlit.testing.v1 import AppTest

from explorer.registry import script
from tests.conftest import APP

GOOD = b"y_true,y_score\n0,0.1\n1,0.8\n0,0.35\n1,0.4\n1,0.9\n"
BAD = b"y_true,y_score\n0,0.1\n1,n/a\n"


def open_data_page(sample: str | None = None) -> AppTest:
    """Run the app, pick ``sample`` in the sidebar, then open the Data page."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    if sample:
        at.selectbox(key="dataset_picker").set_value(sample).run()
    at.switch_page(script("data")).run()
    assert not at.exception
    return at


@pytest.fixture
def at():
    return open_data_page()
