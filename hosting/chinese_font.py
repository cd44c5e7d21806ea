"""Write ``static/noto-sans-sc.woff2``: the Chinese the interface draws, as a web font the
app serves itself (a fresh Debian machine, or a visitor's, may have no Chinese font).

It is Noto Sans CJK SC (SIL Open Font License 1.1) cut down to the 3,755 common
characters of GB 2312's first level, Chinese punctuation, and every other character of
the Chinese catalogue and texts (``explorer/locale/zh/``, ``views/*/*.zh.md``);
``static/noto-sans-sc.txt`` lists what it draws, and ``tests/explorer/test_i18n.py``
fails when a translation uses a character it does not draw. The theme (.streamlit/
config.toml, hosting/config.toml) loads it for those characters only (its
``unicodeRange``), so a page in English never downloads it.

Run again after a translation adds a rare character, with fontTools and brotli (not
dependencies of the app or of the tests) and Debian's fonts-noto-cjk::

    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools==4.60.1 brotli==1.1.0
    /tmp/ft/bin/python hosting/chinese_font.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FAMILY = "Noto Sans CJK SC"
OUT = ROOT / "static" / "noto-sans-sc.woff2"
CHARS = OUT.with_suffix(".txt")
#: The code points the theme loads the font for (Streamlit's ``unicodeRange``).
RANGES = ((0x3000, 0x303F), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xFF00, 0xFFEF))


def in_ranges(char: str) -> bool:
    return any(lo <= ord(char) <= hi for lo, hi in RANGES)


def common_chinese() -> set[str]:
    """GB 2312's first level (rows 16 to 55): the 3,755 most used characters."""
    chars = set()
    for row in range(0xB0, 0xD8):
        for cell in range(0xA1, 0xFF):
            try:
                chars.add(bytes((row, cell)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return chars


def translated_chars() -> set[str]:
    files = [*(ROOT / "explorer" / "locale" / "zh").glob("*.toml")]
    files += (ROOT / "views").glob("*/*.zh.md")
    return {c for f in files for c in f.read_text(encoding="utf-8") if in_ranges(c)}


def main() -> int:
    collection = TTCollection(str(SOURCE))
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == FAMILY)
    drawn = set(font.getBestCmap())
    wanted = {c for c in common_chinese() | translated_chars() if in_ranges(c)}
    wanted |= {chr(cp) for lo, hi in RANGES[:1] + RANGES[3:] for cp in range(lo, hi + 1)}
    chars = sorted(c for c in wanted if ord(c) in drawn)
    options = subset.Options()
    options.flavor, options.hinting, options.desubroutinize = "woff2", False, True
    options.layout_features = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    subsetter.subset(font)
    OUT.parent.mkdir(exist_ok=True)
    subset.save_font(font, str(OUT), options)
    CHARS.write_text("".join(chars) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(chars)} characters, {OUT.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
