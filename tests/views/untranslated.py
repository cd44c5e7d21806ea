"""The English left on a page opened in another language: every text the AppTest page
emits (:func:`tests.views.reveal_texts.texts`: labels, bodies, options, captions, help
texts, table headers and cells, chart texts) once what stays the same in every language
is taken out, searched for two English words in a row.

What stays: formulas (``$...$``, ``st.latex``), code (```...```), addresses, HTML tags,
the dataset's own names (its models, labels, attributes, sample and item ids: the data's,
whatever they read), the names of tools and works a page cites (:data:`NAMES`), and
abbreviations (``ROC AUC``, ``NDCG@5``: a word without a lower-case letter). A word is
``[A-Za-z][a-z]+``-like: one English word alone (a column named ``rank``) is not
flagged, so a short label can slip through; a sentence cannot.
"""

from __future__ import annotations

import re

from tests.views import reveal_texts

#: Names a page writes as they are in every language: tools, libraries, works cited.
NAMES = (
    "scikit-learn",
    "trec_eval",
    "pytrec_eval",
    "ir_measures",
    "torchmetrics",
    "LightGBM",
    "Fairlearn",
    "Streamlit",
    "ranx",
    "numpy",
    "pandas",
    "Plotly",
    "MLU-Explain",
    "Metric Explorer",
    "Benjamini-Hochberg",
)
#: What holds no words: formulas, code, tags, addresses, entities, icons, queries.
_CODE = re.compile(
    r"\$\$.*?\$\$|\$[^$\n]+\$|```.*?```|`[^`]*`|<[^>]*>|https?://\S+|&[a-z]+;|&#x?[0-9a-f]+;"
    r"|:material/[a-z_]+:|\S*[=&?]\S*",  # an icon's name; a link's query (ds=x&scn=y)
    re.S,
)
#: A backslash that escapes Markdown in a visitor's text (explorer.formatting.literal).
_ESCAPE = re.compile(r"\\(.)")
#: A word with a lower-case letter (``Sample``, ``rank``, ``isn't``); ``ROC``, ``F1``,
#: ``k`` are not words here.
_WORD = r"[A-Za-z][a-z][a-z'’]*"
#: Two such words in a row, with only spaces, hyphens, commas or colons between.
ENGLISH = re.compile(rf"(?<![A-Za-z_]){_WORD}(?:[ \-,:/]+{_WORD})+(?![A-Za-z_])")


def data_names(ds) -> set[str]:
    """The dataset's own strings: what the data names, shown as it is in every language."""
    names = {*ds.model_names, *map(str, ds.label_names or ()), ds.name}
    names |= {str(n) for n, _ in ds.attributes}
    for _, values in ds.attributes:
        names |= {str(v) for v in values}
    for ids in (ds.sample_ids, getattr(ds, "item_ids", None)):
        if ids is not None:
            names |= {str(v) for v in ids}
    return {n for n in names if n}


#: What the page emits that no visitor reads: a styled table's CSS (``#T_..._row0 {
#: color: black }``), a download button's random id, a heading's anchor id.
_NOT_TEXT = re.compile(r"#T_|[0-9a-f]{32}$|[a-z0-9]+(?:[-_][a-z0-9]+)+$")
#: A link to a heading of the page: ``[the worst samples](#lr-worst-first)``.
_ANCHOR = re.compile(r"\(#[\w-]+\)")


def english_left(texts: list[str], keep: set[str] = frozenset()) -> list[str]:
    """The English runs of words in ``texts`` once formulas, code, tags, addresses,
    anchors, ``keep`` (the data's names, taken out as whole words: the items a to e of
    a sample stay inside "secondary") and :data:`NAMES` are taken out, with their text."""
    taken = sorted({*keep, *NAMES}, key=len, reverse=True)
    whole = [re.compile(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])") for name in taken]
    found = []
    for text in texts:
        kind, _, body = text.partition(": ")
        if kind == "Latex" or _NOT_TEXT.match(body):
            continue
        bare = _CODE.sub(" ", _ANCHOR.sub(" ", _ESCAPE.sub(r"\1", body)))
        for name in whole:
            bare = name.sub(" ", bare)
        found += [f"{run!r} in {kind}: {body[:120]!r}" for run in ENGLISH.findall(bare)]
    return found


def page_english(at, ds) -> list[str]:
    """The English left on the AppTest page ``at`` showing the dataset ``ds``."""
    return english_left(reveal_texts.texts(at).texts, data_names(ds))
