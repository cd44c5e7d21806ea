"""How numbers and visitors' texts are written on the pages, so tests and users read the
same text.

Every number formatter of the app lives here: :func:`fmt` (a headline's digits),
:func:`short` (four significant digits, for chart ticks and running text),
:func:`count` (a count, weighted or not) and, for LaTeX, :func:`in_latex` and
:func:`count_latex`; :func:`dash_missing` writes a table's empty cells. :func:`literal`
writes a text a visitor controls (a name, an id, a refusal quoting a cell) so that
Markdown and HTML show it as it is; :func:`plotly_text` and :func:`plotly_names` do the
same for the text of a plotly figure.
"""

from __future__ import annotations

import math
import re

import pandas as pd

#: What a table shows for a cell with no value (a bin with no samples, a constraint
#: no threshold meets, a false label's rank term); st.dataframe would write "None".
MISSING = "—"


def fmt(value: float, digits: int = 4) -> str:
    """Format a headline number with ``digits`` significant digits (at least 3).

    Values of magnitude in [1e-3, 1e6) print as plain decimals (trailing zeros kept
    to show the precision), smaller and larger ones in scientific notation: a MAPE of
    7.5e14 is never fifteen digits that a headline cuts. A value that is exactly whole
    (a DCG of 3, a coverage error of 2, a perfect precision of 1) prints as an integer,
    as 0 always did; any other keeps its trailing zeros, so rates line up at fixed
    decimals (recall 0.5000 beside F1 0.6667); docs/architecture.md ("Numbers") says why.

    Examples
    --------
    >>> fmt(0.7777777), fmt(9.49954), fmt(0.5), fmt(0.0), fmt(2.2e-16)
    ('0.7778', '9.500', '0.5000', '0', '2.200e-16')
    >>> fmt(3.0), fmt(-2.0), fmt(1.0), fmt(50.0), fmt(2.5), fmt(2.0000000000000004)
    ('3', '-2', '1', '50', '2.500', '2.000')
    >>> fmt(1234.5678), fmt(999_999.0), fmt(750599937894321.6)
    ('1235', '999999', '7.506e+14')
    """
    value = float(value)
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return str(value)
    if abs(value) < 1e-3 or abs(value) >= 1e6:
        return f"{value:.{digits - 1}e}"
    if value.is_integer():
        return str(int(value))
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(digits - 1 - magnitude, 0)
    return f"{value:.{decimals}f}"


def headline_value(value) -> str:
    """A headline number (:func:`fmt`), or ``"n/a"`` when the data leave it undefined
    (None or NaN: one class, 0/0); the page says why beside it.

    Examples
    --------
    >>> headline_value(0.5), headline_value(float("nan")), headline_value(None)
    ('0.5000', 'n/a', 'n/a')
    """
    return "n/a" if value is None or math.isnan(value) else fmt(value)


def short(value: float, *, grouped: bool = False) -> str:
    """Four significant digits, trailing zeros dropped (``format(value, ".4g")``): chart
    ticks, averaging text and the like; ``grouped`` puts commas in the thousands.

    Examples
    --------
    >>> short(7.5), short(1 / 3), short(10), short(123456.0)
    ('7.5', '0.3333', '10', '1.235e+05')
    >>> short(1234), short(1234, grouped=True)
    ('1234', '1,234')
    """
    return f"{float(value):,.4g}" if grouped else f"{float(value):.4g}"


def count(value: float, digits: int = 4, *, grouped: bool = True) -> str:
    """A (weighted) count: a whole number as an integer (``1,234``; ``1234`` when not
    ``grouped``), any other as :func:`fmt` writes it with ``digits``.

    Examples
    --------
    >>> count(3.0), count(2.5), count(1234.0), count(1234.0, grouped=False)
    ('3', '2.500', '1,234', '1234')
    >>> count(0.123456, 6)
    '0.123456'
    """
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}" if grouped else str(int(value))
    return fmt(value, digits)


def model_words(name: str, *, bold: bool = True) -> str:
    """A model named in running Markdown: ``model **name**`` (the name through
    :func:`literal`), or ``the model`` when the model is itself called "model" (a
    one-model sample's column ``score_model``), never "model model".

    Examples
    --------
    >>> model_words("logreg"), model_words("model"), model_words("a_b", bold=False)
    ('model **logreg**', 'the model', 'model a\\\\_b')
    """
    if name.strip().lower() == "model":
        return "the model"
    shown = literal(name)
    return f"model **{shown}**" if bold else f"model {shown}"


#: The words a class reads for the code-style column names of the step and drill-down
#: tables (the CSVs keep the code names, which a program reads).
COLUMN_WORDS = {
    "is_true": "true label?",
    "label_name": "label",
    "n_true_at_or_above": "true labels at or above",
    "running_value": "running value",
    "tie_group": "tie group",
    "true_label": "true label",
    "false_label": "false label",
    "hits_so_far": "hits so far",
    "in_top_k": "in the top K",
    "ap_term": "AP term",
    "ap_running": "AP so far",
    "precision_at_position": "precision at this position",
    "err_stop_prob": "stop probability",
    "err_still_looking": "still looking",
    "err_term": "ERR term",
    "err_running": "ERR so far",
    "dcg_term": "DCG term",
    "dcg_running": "DCG so far",
    "ideal_dcg": "ideal DCG",
    "first_prob": "first relevant here",
    "rr_term": "RR term",
    "auc_a_vs_b": "AUC a vs b",
    "auc_b_vs_a": "AUC b vs a",
    "log_loss": "log loss",
    "p_true": "p(true class)",
    "p_predicted": "p(predicted class)",
    "roc_auc": "ROC AUC",
    "n_true": "true labels",
    "lrap": "LRAP",
    "ranking_loss": "ranking loss",
}
_TOP = re.compile(r"top_(\d+)")


def column_words(columns, *, classes: bool = False) -> dict[str, str]:
    """The words shown for each code-style name among ``columns`` (:data:`COLUMN_WORDS`,
    ``top_2`` as "in the top 2"; with ``classes``, a class's score column ``p_<class>``
    as "p(<class>)"); the other columns (the data's own, a visitor's names) are left out.

    Examples
    --------
    >>> words = column_words(["rank", "n_true_at_or_above", "top_3", "p_setosa"], classes=True)
    >>> list(words.values())
    ['true labels at or above', 'in the top 3', 'p(setosa)']
    >>> column_words(["p_setosa", "y_true"])
    {}
    """
    out = {}
    for c in map(str, columns):
        if c in COLUMN_WORDS:
            out[c] = COLUMN_WORDS[c]
        elif m := _TOP.fullmatch(c):
            out[c] = f"in the top {m[1]}"
        elif classes and c.startswith("p_"):
            out[c] = f"p({c[2:]})"
    return out


def table_number(value) -> str:
    """A table cell's number as a pandas Styler writes it here: a whole number as an
    integer, any other with up to four decimals, trailing zeros dropped (as Streamlit
    writes a number column); anything else as it is.

    Examples
    --------
    >>> table_number(1.0), table_number(0.83333), table_number(0.5), table_number("yes")
    ('1', '0.8333', '0.5', 'yes')
    >>> table_number(float("nan")), table_number(-2.00004), table_number(7.5e14)
    ('—', '-2', '7.500e+14')
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if not math.isfinite(value):
        return MISSING if math.isnan(value) else str(value)
    if abs(value) >= 1e6:
        return fmt(value)
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def in_latex(text: str) -> str:
    """A written number as LaTeX: the thousands commas braced (``1{,}234``), so LaTeX
    does not set them as punctuation with a space after.

    Examples
    --------
    >>> in_latex("1,234,567"), in_latex("0.5000")
    ('1{,}234{,}567', '0.5000')
    """
    return text.replace(",", "{,}")


def count_latex(value: float) -> str:
    """:func:`count` as LaTeX (:func:`in_latex`).

    Examples
    --------
    >>> count_latex(1234.0), count_latex(2.5)
    ('1{,}234', '2.500')
    """
    return in_latex(count(value))


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "~": r"\textasciitilde{}",
}


def latex_text(name: str) -> str:
    r"""A name a visitor controls (a class, a query id) as the content of ``\text{...}``:
    LaTeX's special characters escaped, on one line.

    Examples
    --------
    >>> print(latex_text("a_b & 50%"))
    a\_b \& 50\%
    """
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in one_line(name))


def _cell(value) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return MISSING
    if isinstance(value, float):
        return f"{value:+.6g}" if math.isinf(value) else f"{value:.6g}"
    return str(value)


def dash_missing(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` as a page shows it: a missing cell (None, NaN, ``<NA>``) reads "—".

    Only the columns with a missing cell change, to text (floats to 6 significant
    digits); the others keep their type, so they still sort as numbers. A table with
    nothing missing comes back as it is (the same object).

    Examples
    --------
    >>> t = pd.DataFrame({"bin": [1, 2], "mean": [0.25, float("nan")], "n": [3, None]})
    >>> shown = dash_missing(t)
    >>> shown["mean"].tolist(), shown["n"].tolist(), shown["bin"].dtype.kind
    (['0.25', '—'], ['3', '—'], 'i')
    >>> dash_missing(shown) is shown
    True
    >>> dash_missing(pd.DataFrame({"t": [float("inf"), None]}))["t"].tolist()
    ['+inf', '—']
    """
    gaps = [c for c in table.columns if table[c].isna().any()]
    if not gaps:
        return table
    shown = table.copy()
    for column in gaps:
        whole = pd.api.types.is_float_dtype(table[column]) and bool(
            (table[column].dropna() % 1 == 0).all()
        )
        values = table[column].astype("Int64") if whole else table[column]
        shown[column] = [_cell(v) for v in values.astype(object)]
    return shown


def undash(table: pd.DataFrame) -> pd.DataFrame:
    """The numbers back from a :func:`dash_missing` table: its text columns that hold
    only numbers and dashes become numbers again, a dash NaN (what a test reads).

    Examples
    --------
    >>> t = pd.DataFrame({"x": [0.25, float("nan")], "name": ["a", "b"]})
    >>> back = undash(dash_missing(t))
    >>> back["x"].tolist()[0], bool(back["x"].isna().iloc[1]), back["name"].tolist()
    (0.25, True, ['a', 'b'])
    """
    out = table.copy()
    for column in out.columns:
        text = out[column]
        if pd.api.types.is_numeric_dtype(text) or not (text.astype(object) == MISSING).any():
            continue
        text = text.astype(object)
        numbers = pd.to_numeric(text.where(text != MISSING), errors="coerce")
        if numbers.notna().sum() == (text != MISSING).sum():
            out[column] = numbers
    return out


#: Markdown's inline specials (and Streamlit's: ``:red[...]`` directives, ``$`` math),
#: escaped with a backslash; the HTML specials become entities instead (below).
_MARKDOWN_SPECIALS = frozenset("\\`*_{}[]()!#~|$:")
_HTML_SPECIALS = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#x27;"}
#: Every character Python, CommonMark or a browser takes for the end of a line.
_LINE_BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")
#: U+2060 WORD JOINER: shows nothing, and breaks a web address or e-mail address
#: that GitHub-flavoured Markdown would make a link of.
_JOINER = "\u2060"
#: Where a web address starts, as :func:`literal` has escaped it: ``http\:`` before
#: ``//``, and ``www`` before ``.``.
_URL_START = re.compile(r"\\:(?=//)|(?i:www)(?=\.)")
#: What starts a list or a heading when it opens a line: ``- x``, ``+ x``, ``1. x``, ``1) x``.
_BLOCK_START = re.compile(r"^(\s*)([-+=]|\d+(?=[.)]))")


def one_line(text) -> str:
    """``text`` with every run of line breaks as one space: inside HTML that Markdown
    carries (an SVG chart), a blank line would end the HTML and start Markdown again.

    Examples
    --------
    >>> one_line("a\\r\\n\\r\\nb\\u2028c")
    'a b c'
    """
    return _LINE_BREAKS.sub(" ", str(text))


def literal(text) -> str:
    """``text`` (a name, id or message a visitor controls) written so that Streamlit's
    Markdown, and HTML, show it as it is: every Markdown special escaped with a
    backslash, ``<>&"'`` as HTML entities, line breaks as spaces (a blank line would end
    an HTML block and let what follows be read as Markdown), a list or heading marker
    at its start escaped, and web and e-mail addresses broken by an invisible word
    joiner (U+2060) so that Markdown does not make links of them.

    Put it around every piece of visitor text in ``st.markdown``, notices, captions,
    labels, help texts, headers and ``st.table`` cells; not in ``st.text``, ``st.code``,
    ``st.dataframe`` cells and headers or select-box options, which show text as it is.

    Examples
    --------
    >>> literal("![x](http://attacker.example/pixel)")
    '\\\\!\\\\[x\\\\]\\\\(http\\\\:\\u2060//attacker.example/pixel\\\\)'
    >>> literal("www.x.org a@b.org")
    'www\\u2060.x.org a\\u2060@b.org'
    >>> literal("<img src=x onerror='alert(1)'>")
    '&lt;img src=x onerror=&#x27;alert\\\\(1\\\\)&#x27;&gt;'
    >>> literal("2**53 - 1"), literal("a\\n\\nb"), literal("- x"), literal("1. x")
    ('2\\\\*\\\\*53 - 1', 'a b', '\\\\- x', '1\\\\. x')
    """
    out = "".join(
        "\\" + c if c in _MARKDOWN_SPECIALS else _HTML_SPECIALS.get(c, c) for c in one_line(text)
    )
    # GFM turns http://..., www.... and a@b.c into links after escapes are read, so
    # backslashes cannot stop it: an invisible word joiner breaks the pattern instead
    out = _URL_START.sub(lambda m: m[0] + _JOINER, out).replace("@", _JOINER + "@")
    # a list marker at the start: "- x" gets a backslash before the "-", "1. x" before the "."
    return _BLOCK_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[2] in "-+=" else f"{m[0]}\\", out)


#: What plotly reads as its pseudo-HTML (``<a href>``, ``<b>``, ``<br>``, ``<span style>``
#: ...) in every text of a figure; an entity (``&lt;``) it shows as the character.
_PLOTLY_SPECIALS = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def plotly_text(text) -> str:
    """``text`` (a name or id a visitor controls) as plotly shows it as it is, on one
    line: ``& < >`` as HTML entities, so ``<a href=...>`` is no link and ``<br>`` no
    line break. For a figure's tick labels, categories, trace names, hover texts,
    annotations and titles; not for text :func:`literal` already wrote.

    Examples
    --------
    >>> plotly_text('<a href="http://x">y</a>'), plotly_text("a&b\\nc")
    ('&lt;a href="http://x"&gt;y&lt;/a&gt;', 'a&amp;b c')
    """
    text = one_line(text)
    for char, entity in _PLOTLY_SPECIALS.items():  # "&" first: the others bring one
        text = text.replace(char, entity)
    return text


def plotly_names(names) -> list[str]:
    """:func:`plotly_text` of each of ``names``, still told apart: a figure's categories
    are its values, so two names that one line makes equal ("a\\nb", "a b") get
    invisible zero-width spaces at the end of the later one. Equal names stay equal.

    Examples
    --------
    >>> plotly_names(["<b>", "a\\nb", "a b", "<b>"])
    ['&lt;b&gt;', 'a b', 'a b\\u200b', '&lt;b&gt;']
    """
    shown, owner = [], {}
    for name in map(str, names):
        text = plotly_text(name)
        while owner.setdefault(text, name) != name:
            text += "\u200b"
        shown.append(text)
    return shown


#: A field of a text: ``${name}`` or ``${name:spec}``.
FIELD = re.compile(r"\$\{(\w+)(?::([^}]*))?\}")
#: The specs that name a formatter of :mod:`explorer.formatting`; any other spec is
#: a format spec (``${n:,}``, ``${t:.4g}``).
SPECS = {"fmt": fmt, "short": short, "count": lambda v: count(v, grouped=False)}


def fill_fields(text: str, values: dict) -> str:
    """``text`` with each field ``${name:spec}`` replaced by ``values[name]`` written
    with ``spec``: :func:`~explorer.formatting.fmt` for ``fmt``,
    :func:`~explorer.formatting.short` for ``short``, a count without thousands
    commas (``1234``, ``2.500``: as a formula writes it) for ``count``, else
    ``format(value, spec)``; ``${name}`` is ``format(value, "")``. A field with no
    value raises ``KeyError``; values no field names are left unused.

    Examples
    --------
    >>> fill_fields("AUC = ${auc:fmt} over ${n:,} pairs", {"auc": 2 / 3, "n": 12345})
    'AUC = 0.6667 over 12,345 pairs'
    >>> fill_fields(r"$\\frac{${tp:count}}{${tp:count} + ${fn:count}}$", {"tp": 1234.0, "fn": 2.5})
    '$\\\\frac{1234}{1234 + 2.500}$'
    >>> fill_fields("k = ${k}, t = ${t:short}, ${model}", {"k": 3, "t": 1 / 3, "model": "m"})
    'k = 3, t = 0.3333, m'
    >>> fill_fields("no fields {here}, $x^{2}$", {})
    'no fields {here}, $x^{2}$'
    """

    def one(field: re.Match) -> str:
        value, spec = values[field[1]], field[2] or ""
        return SPECS[spec](value) if spec in SPECS else format(value, spec)

    return FIELD.sub(one, text)


def breakable(text: str) -> str:
    """``text`` with a zero-width space after each underscore: a code name in a narrow
    button or column breaks there ("label_ranking_average_" / "precision_score"), not
    in the middle of a word.

    Examples
    --------
    >>> breakable("label_ranking_loss").split("\u200b")
    ['label_', 'ranking_', 'loss']
    """
    return text.replace("_", "_\u200b")
