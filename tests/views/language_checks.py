"""What the Chinese-page tests share: opening a page with ``?lang=zh`` and the English
left on it (:func:`tests.views.untranslated.page_english`), less what the detector
reads that no visitor reads as a sentence."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from explorer import registry
from explorer.samples import sample_index
from tests.conftest import APP
from tests.views import untranslated

#: Read by the detector, not by a visitor: a styled table's CSS (``#T_..._row0_col1 {
#: background-color: ... }``), a download's random id, a heading's anchor id.
_NOT_TEXT = re.compile(
    r" in Dataframe: '#T_| in DownloadButton: '[0-9a-f]{32}'$|^'[\w-]+' in Subheader: '[\w-]+'$"
    r"|^'([\w-]+)' in \w+: .*\(#\1\)"
)


def open_zh(slug: str, **params) -> AppTest:
    """The page ``slug`` opened by a link with ``lang=zh`` and ``params``."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({**params, "lang": "zh"})
    at.switch_page(registry.script(slug)).run()
    assert not at.exception, at.exception
    return at


def english(at, ds) -> list[str]:
    """The English runs left on ``at``: none of the page's own texts; the sample
    gallery's titles (the sidebar's dataset picker: data of ``samples/index``, not a
    text of the code) are not yet translated."""
    titles = {row["title"] for row in sample_index()}
    return [
        run
        for run in untranslated.page_english(at, ds)
        if not _NOT_TEXT.search(run) and not any(f"Selectbox: {t!r}" in run for t in titles)
    ]
