"""No emoji in anything the app shows: Debian's Chromium has no colour emoji font and
draws them as empty boxes. Icons are Streamlit's material icons (``:material/...:``),
a font Streamlit ships; the curves' glyphs (◆ ■ ▲ ✚ ★) and symbols such as ≥ are
text characters that the ordinary fonts draw."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

#: Characters drawn as emoji by default (Unicode's Emoji_Presentation) and the
#: variation selector that asks for an emoji drawing of the character before it.
EMOJI = re.compile(
    "[\U0001f000-\U0001faff\ufe0f\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe"
    "\u2614\u2615\u2648-\u2653\u267f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5"
    "\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c"
    "\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55]"
)
#: Every file whose strings the app shows: the code, the prose, the component's
#: script and style, the samples' titles.
SHOWN = ("app.py", "views/**/*", "explorer/**/*", "sample_data/index.csv")
SUFFIXES = {".py", ".md", ".js", ".css", ".html", ".csv", ".toml", ".json"}


def test_the_pattern_finds_emoji_and_leaves_text_symbols():
    assert all(EMOJI.search(e) for e in ("🎬", "▶️", "ℹ️", "⏳", "⚠️", "✅", "\U0001f517"))
    assert not EMOJI.search("◆ ■ ▲ ✚ ★ ≥ ∩ ∪ ↓ ×10⁻⁴ β ² :material/info:")


@pytest.mark.parametrize("pattern", SHOWN)
def test_no_emoji_in_the_apps_strings(pattern):
    files = [p for p in ROOT.glob(pattern) if p.is_file() and p.suffix in SUFFIXES]
    assert files, pattern
    found = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()[:80]}"
        for p in files
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if EMOJI.search(line)
    ]
    assert found == []
