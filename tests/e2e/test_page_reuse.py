"""The browser fixtures hand a finished test's page to the next as a new page would be
(tests/e2e/conftest.py, ``_reuse_pages``): on about:blank, the default viewport, empty
storage; a page with the test's own listener, or whose storage it cannot empty, is
closed, never handed on."""

from __future__ import annotations

from playwright.sync_api import BrowserContext

from tests.e2e.conftest import _reset, wait_for_run


def test_a_page_handed_back_opens_as_a_new_one(context: BrowserContext, app_url: str):
    used = context.new_page()
    used.goto(app_url + "/?ds=balanced")
    wait_for_run(used)
    used.evaluate("() => { localStorage.setItem('left', '1'); sessionStorage.setItem('t', '1') }")
    used.set_viewport_size({"width": 390, "height": 844})
    used.set_default_timeout(1)
    _reset(context)

    again = context.new_page()
    assert again is used and again.url == "about:blank"
    assert again.viewport_size == {"width": 1280, "height": 900}
    again.goto(app_url + "/?ds=balanced")  # would time out at 1 ms
    wait_for_run(again)
    storage = "() => [localStorage.getItem('left'), sessionStorage.getItem('t')]"
    assert again.evaluate(storage) == [None, None]


def test_a_page_with_a_listener_a_file_or_left_blank_is_closed(
    context: BrowserContext, app_url: str, tmp_path
):
    listened, on_file, blanked = context.new_page(), context.new_page(), context.new_page()
    listened.on("console", lambda message: None)
    shown = tmp_path / "shown.html"
    shown.write_text("<p>a file of the test's own</p>")
    on_file.goto(shown.as_uri())
    blanked.goto(app_url + "/_stcore/health")  # the app's origin, then away from it
    blanked.goto("about:blank")
    _reset(context)
    assert listened.is_closed() and on_file.is_closed() and blanked.is_closed()
    assert context.new_page() not in (listened, on_file, blanked)
