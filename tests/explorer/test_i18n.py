"""The language catalogues (explorer/i18n.py): each entry translates a text the app
writes, each translated document section translates a section that exists, and a
text with no entry stays English."""

from __future__ import annotations

import ast
import pickle
import tomllib

import pytest

from explorer import i18n
from explorer.samples import sample_index
from tests.conftest import ROOT
from views import prose

#: Where the interface's texts are written.
CODE = [ROOT / "app.py", *sorted((ROOT / "explorer").rglob("*.py"))]
CODE += sorted((ROOT / "views").rglob("*.py"))


def _literals() -> set[str]:
    """Every string constant of the app's code (implicitly joined literals as one, the
    constant parts of f-strings), and the texts of the sample index."""
    found: set[str] = set()
    for path in CODE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    # the sample gallery's titles and lines are the app's texts too, kept in its index
    found |= {row[k] for row in sample_index() for k in ("title", "teaches")}
    return found


@pytest.mark.parametrize("lang", [code for code in i18n.LANGUAGES if code != i18n.DEFAULT])
def test_every_entry_translates_a_text_the_app_writes(lang):
    written = _literals()
    unused = [text for text in i18n.catalogue(lang) if text not in written]
    assert not unused, f"entries of locale/{lang}/ no code writes: {unused}"
    assert all(v.strip() and v != k for k, v in i18n.catalogue(lang).items())


def test_each_translated_section_is_a_section_of_its_english_document():
    for translation in sorted((ROOT / "views").glob("*/*.*.md")):
        stem, lang = translation.name.split(".")[:2]
        assert lang in i18n.LANGUAGES, translation
        doc = translation.parent.name if stem == "text" else f"{translation.parent.name}/{stem}"
        english = prose.sections(doc)
        translated = prose._translation(doc, lang)
        assert translated and set(translated) <= set(english), (translation, set(translated))


def test_a_text_with_no_entry_stays_english_and_codes_are_read_leniently():
    assert i18n.translate("no such text", "zh") == "no such text"
    assert i18n.translate("Home", "zh") == "首页" and i18n.translate("Home", "en") == "Home"
    assert [i18n.language(v) for v in ("ZH", " zh-Hans ", "", None, "fr")] == [
        "zh",
        "zh",
        "en",
        "en",
        "en",
    ]


def test_a_text_translated_in_two_files_fails_the_load(tmp_path, monkeypatch):
    (tmp_path / "zh").mkdir()
    (tmp_path / "zh" / "a.toml").write_text('"Home" = "首页"\n"Data" = "数据"\n', "utf-8")
    (tmp_path / "zh" / "b.toml").write_text('"Data" = "资料"\n', "utf-8")
    monkeypatch.setattr(i18n, "LOCALE", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        with pytest.raises(ValueError, match="'Data' is translated twice: in a.toml and b.toml"):
            i18n.catalogue("zh")
        (tmp_path / "zh" / "b.toml").write_text('"Slices" = "切片"\n', "utf-8")
        assert dict(i18n.catalogue("zh")) == {"Home": "首页", "Data": "数据", "Slices": "切片"}
    finally:
        i18n.catalogue.cache_clear()


def test_a_phrase_is_its_english_text_and_fills_its_translation_with_the_same_values():
    note = i18n.Phrase("the first ${head} and last ${tail} of ${n:,} terms", head=3, tail=2, n=1234)
    assert note == "the first 3 and last 2 of 1,234 terms"
    assert note.translated("zh") == "写出前 3 项和后 2 项(共 1,234 项)"
    again = pickle.loads(pickle.dumps(note))  # a cached page model's result
    assert type(again) is i18n.Phrase and again.translated("zh") == note.translated("zh")


def _ranges(spec: str) -> list[tuple[int, int]]:
    """``"U+3000-303F, U+4E00"`` as code point ranges."""
    out = []
    for part in spec.split(","):
        lo, _, hi = part.strip().removeprefix("U+").partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


def test_the_served_font_draws_every_chinese_character_of_the_translations():
    """static/noto-sans-sc.woff2 (hosting/chinese_font.py) draws the characters its list
    names; both configs load it for the Chinese ranges; every character of the
    translations in those ranges is drawn (else: run hosting/chinese_font.py again)."""
    drawn = set((ROOT / "static" / "noto-sans-sc.txt").read_text("utf-8").strip())
    assert len(drawn) > 3755 and (ROOT / "static" / "noto-sans-sc.woff2").stat().st_size > 500_000
    for config in (ROOT / ".streamlit" / "config.toml", ROOT / "hosting" / "config.toml"):
        theme = tomllib.loads(config.read_text("utf-8"))["theme"]
        (face,) = theme["fontFaces"]
        assert theme["font"] == theme["headingFont"] == face["family"] == "Noto Sans SC"
        assert face["url"] == "app/static/noto-sans-sc.woff2"
        ranges = _ranges(face["unicodeRange"])
    assert all(any(lo <= ord(c) <= hi for lo, hi in ranges) for c in drawn)
    files = [*(ROOT / "explorer" / "locale" / "zh").glob("*.toml"), *ROOT.glob("views/*/*.zh.md")]
    used = {c for f in files for c in f.read_text("utf-8")}
    chinese = {c for c in used if any(lo <= ord(c) <= hi for lo, hi in ranges)}
    assert "指" in chinese and not chinese - drawn, sorted(chinese - drawn)
