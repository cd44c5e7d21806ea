"""explorer.ui.bound: each widget reads its setting from the link, checks it, draws the
widget and writes the value back, in AppTest."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page_number():
    import streamlit as st

    from explorer.ui import bound, url

    bound.number(
        st, "k", key="x_k", param="k", default=3, parse=int, check=url.int_in(1, 10), step=1
    )


def _page_sample(n=5, picker_max=1000):
    import streamlit as st

    from explorer.ui import bound

    bound.sample(st, "sample", n, lambda i: f"row {i}", key="x_s", param="s", picker_max=picker_max)


def _page_window():
    import streamlit as st

    from explorer.ui import bound

    st.session_state["start"] = bound.window(st, 1000, key="x_w")


def _page_text():
    import streamlit as st

    from explorer.ui import bound

    known = {"a", "b"}

    def check(v):
        if v not in known:
            raise KeyError(v)
        return v

    bound.text(st, "query", key="x_q", param="q", default="a", check=check)


def test_number_from_the_link_is_clamped_and_written_back():
    at = AppTest.from_function(_page_number)
    at.query_params["k"] = "99"
    at.run()
    assert at.number_input(key="x_k").value == 10 and at.query_params["k"] == "10"
    at.number_input(key="x_k").set_value(4).run()
    assert at.query_params["k"] == "4"


def test_a_malformed_link_value_falls_back_to_the_default():
    at = AppTest.from_function(_page_number)
    at.query_params["k"] = "not a number"
    at.run()
    assert not at.exception
    assert at.number_input(key="x_k").value == 3 and at.query_params["k"] == "3"


def test_sample_picker_is_a_select_box_then_a_row_box_past_its_limit():
    at = AppTest.from_function(_page_sample, kwargs={"n": 5})
    at.query_params["s"] = "3"
    at.run()
    assert at.session_state["x_s"] == 3 and at.query_params["s"] == "3"
    big = AppTest.from_function(_page_sample, kwargs={"n": 50, "picker_max": 10})
    big.query_params["s"] = "42"
    big.run()
    assert big.number_input(key="x_s").value == 42
    assert [c.value for c in big.caption] == ["row 42"]
    # past the last row: refused, the default row
    fresh = AppTest.from_function(_page_sample, kwargs={"n": 50, "picker_max": 10})
    fresh.query_params["s"] = "50"
    fresh.run()
    assert fresh.number_input(key="x_s").value == 0 and fresh.query_params["s"] == "0"


def test_window_starts_at_zero_and_stays_out_of_the_link():
    at = AppTest.from_function(_page_window).run()
    assert at.session_state["start"] == 0
    at.number_input(key="x_w").set_value(400).run()
    assert at.session_state["start"] == 400 and dict(at.query_params) == {}


def test_text_refuses_an_unknown_value():
    at = AppTest.from_function(_page_text)
    at.query_params["q"] = "zzz"
    at.run()
    assert at.text_input(key="x_q").value == "a" and at.query_params["q"] == "a"
    at.text_input(key="x_q").input("b").run()
    assert at.query_params["q"] == "b"
