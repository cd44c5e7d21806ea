"""A leaderboard (:class:`metrics.ModelComparison`) as Markdown, LaTeX and CSV text.

Pure: strings in, strings out. Rows go best first; each model keeps the letter of
its place in the order given (ranx's notation: ``a`` is the first model given), and
its cell carries the letters of the models it beats after the correction
(:func:`metrics.letters`). Model names are visitor text: escaped for Markdown
(:func:`explorer.formatting.literal`), for LaTeX (its ten special characters), and
for spreadsheets (a CSV cell starting with ``= + - @`` gets a leading apostrophe, so
no formula runs).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence

import numpy as np

from explorer.formatting import literal
from metrics import ModelComparison, beaten, model_letter

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def ranked_rows(result: ModelComparison, alpha: float = 0.05) -> list[dict]:
    """One dict per model, best first: ``letter``, ``model``, ``value``, ``low``, ``high``,
    ``beats`` (the letters of the models it beats), ``best`` (the best value, ties too).

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import ModelComparison
    >>> r = ModelComparison(("x", "y"), np.array([0.6, 0.8]), np.array([0.5, 0.7]),
    ...     np.array([0.7, 0.9]), np.array([[0, 1]]), np.array([-0.2]), np.array([-0.3]),
    ...     np.array([-0.1]), np.array([0.01]), np.array([0.01]), "t", None, 0.95, True)
    >>> [(row["letter"], row["model"], row["beats"]) for row in ranked_rows(r)]
    [('b', 'y', 'a'), ('a', 'x', '')]
    """
    wins = beaten(result, alpha)
    sign = -1.0 if result.higher_is_better else 1.0
    order = np.argsort(sign * result.estimate, kind="stable")
    best = result.estimate[order[0]]
    return [
        {
            "letter": model_letter(int(k)),
            "model": result.names[k],
            "value": float(result.estimate[k]),
            "low": float(result.low[k]),
            "high": float(result.high[k]),
            "beats": "".join(model_letter(j) for j in wins[k]),
            "best": bool(result.estimate[k] == best),
        }
        for k in order
    ]


def _num(value: float, digits: int) -> str:
    return "" if math.isnan(value) else f"{value:.{digits}f}"


def _interval(row: dict, digits: int) -> str:
    if math.isnan(row["low"]):
        return ""
    return f"[{_num(row['low'], digits)}, {_num(row['high'], digits)}]"


#: A table of models by metric: (metric label, comparison) pairs, all of the same models in
#: the same order; the rows go best first by the first metric.
Columns = Sequence[tuple[str, ModelComparison]]


def _example() -> list[tuple[str, ModelComparison]]:
    """Two models on two metrics (``m1``: y first; ``m_2``: x first), no pair significant:
    the doctests' table."""

    def result(values):
        v = np.array(values)
        none, p = np.array([0.0]), np.array([0.5])
        pair = (np.array([[0, 1]]), np.array([v[0] - v[1]]), none, none, p, p)
        return ModelComparison(("x", "y"), v, v, v, *pair, "t", None, 0.95, True)

    return [("m1", result([0.6, 0.8])), ("m_2", result([0.9, 0.1]))]


def table_rows(columns: Columns, alpha: float = 0.05) -> list[list[dict]]:
    """One list per model, best first by the first metric: its :func:`ranked_rows` row
    under each metric, in the order of ``columns``.

    Examples
    --------
    >>> [[c["value"] for c in row] for row in table_rows(_example())]
    [[0.8, 0.1], [0.6, 0.9]]
    """
    first, *rest = columns
    by_model = [{row["model"]: row for row in ranked_rows(res, alpha)} for _, res in rest]
    return [
        [row] + [rows[row["model"]] for rows in by_model] for row in ranked_rows(first[1], alpha)
    ]


def _cells(cells: list[dict], digits: int, bold: str, sup: str) -> list[str]:
    """A row's value and interval under each metric: the best value through ``bold``, the
    letters of the models it beats through ``sup`` (format strings)."""
    out = []
    for row in cells:
        value = _num(row["value"], digits)
        value = bold.format(value) if row["best"] else value
        if row["beats"]:
            value += sup.format(row["beats"])
        out += [value, _interval(row, digits)]
    return out


def _heads(columns: Columns, what: str) -> list[str]:
    """A column's name per metric: ``what`` alone for one metric, else after the metric."""
    if len(columns) == 1:
        return [what]
    return [f"{metric} {what}" for metric, _ in columns]


def to_markdown(
    result: ModelComparison, *, metric: str = "value", alpha: float = 0.05, digits: int = 4
) -> str:
    """The leaderboard as a Markdown table: letter, model, value (best in bold, the letters
    of the models it beats as ``<sup>``), interval.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import ModelComparison
    >>> r = ModelComparison(("x|1", "y"), np.array([0.6, 0.8]), np.array([0.5, 0.7]),
    ...     np.array([0.7, 0.9]), np.array([[0, 1]]), np.array([-0.2]), np.array([-0.3]),
    ...     np.array([-0.1]), np.array([0.01]), np.array([0.01]), "t", None, 0.95, True)
    >>> print(to_markdown(r, metric="NDCG@10"))
    | # | model | NDCG@10 | 95% interval |
    | --- | --- | --- | --- |
    | b | y | **0.8000**<sup>a</sup> | [0.7000, 0.9000] |
    | a | x\\|1 | 0.6000 | [0.5000, 0.7000] |
    """
    return table_markdown([(metric, result)], alpha=alpha, digits=digits)


def table_markdown(columns: Columns, *, alpha: float = 0.05, digits: int = 4) -> str:
    """A table of models by metric as Markdown: per metric a value column (best in bold,
    the letters as ``<sup>``) and an interval column (:func:`to_markdown` for one).

    Examples
    --------
    >>> print(table_markdown(_example(), digits=1))
    | # | model | m1 | m1 95% interval | m_2 | m_2 95% interval |
    | --- | --- | --- | --- | --- | --- |
    | b | y | **0.8** | [0.8, 0.8] | 0.1 | [0.1, 0.1] |
    | a | x | 0.6 | [0.6, 0.6] | **0.9** | [0.9, 0.9] |
    """
    level = f"{columns[0][1].confidence:.0%}"
    head = ["#", "model"]
    for (metric, _), interval in zip(columns, _heads(columns, f"{level} interval"), strict=True):
        head += [metric, interval]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] * len(head)) + " |"]
    for cells in table_rows(columns, alpha):
        out = [cells[0]["letter"], literal(cells[0]["model"])]
        out += _cells(cells, digits, "**{}**", "<sup>{}</sup>")
        lines.append("| " + " | ".join(out) + " |")
    return "\n".join(lines)


def latex_escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped.

    Examples
    --------
    >>> print(latex_escape("run_1 & 50%"))
    run\_1 \& 50\%
    """
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in str(text))


def to_latex(
    result: ModelComparison, *, metric: str = "value", alpha: float = 0.05, digits: int = 4
) -> str:
    r"""The leaderboard as a booktabs LaTeX table: the best value in bold, the letters of
    the models each one beats as a superscript (ranx's report).

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import ModelComparison
    >>> r = ModelComparison(("x", "y_2"), np.array([0.6, 0.8]), np.array([0.5, 0.7]),
    ...     np.array([0.7, 0.9]), np.array([[0, 1]]), np.array([-0.2]), np.array([-0.3]),
    ...     np.array([-0.1]), np.array([0.01]), np.array([0.01]), "t", None, 0.95, True)
    >>> print(to_latex(r))
    \begin{tabular}{llll}
    \toprule
    \# & Model & value & 95\% interval \\
    \midrule
    b & y\_2 & \textbf{0.8000}$^{\mathrm{a}}$ & [0.7000, 0.9000] \\
    a & x & 0.6000 & [0.5000, 0.7000] \\
    \bottomrule
    \end{tabular}
    """
    return table_latex([(metric, result)], alpha=alpha, digits=digits)


def table_latex(columns: Columns, *, alpha: float = 0.05, digits: int = 4) -> str:
    r"""A table of models by metric as booktabs LaTeX: per metric a value column (best in
    bold, the letters as a superscript) and an interval column (:func:`to_latex` for one).

    Examples
    --------
    >>> print(table_latex(_example(), digits=1))
    \begin{tabular}{llllll}
    \toprule
    \# & Model & m1 & m1 95\% interval & m\_2 & m\_2 95\% interval \\
    \midrule
    b & y & \textbf{0.8} & [0.8, 0.8] & 0.1 & [0.1, 0.1] \\
    a & x & 0.6 & [0.6, 0.6] & \textbf{0.9} & [0.9, 0.9] \\
    \bottomrule
    \end{tabular}
    """
    level = f"{columns[0][1].confidence:.0%}"
    head = [r"\#", "Model"]
    for (metric, _), interval in zip(columns, _heads(columns, f"{level} interval"), strict=True):
        head += [latex_escape(metric), latex_escape(interval)]
    lines = [
        r"\begin{tabular}{" + "l" * len(head) + "}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
    ]
    for cells in table_rows(columns, alpha):
        out = [cells[0]["letter"], latex_escape(cells[0]["model"])]
        out += _cells(cells, digits, r"\textbf{{{}}}", r"$^{{\mathrm{{{}}}}}$")
        lines.append(" & ".join(out) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text (no formula)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def to_csv(result: ModelComparison, *, alpha: float = 0.05) -> str:
    """The leaderboard as CSV: letter, model, value, low, high, beats (full precision).

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import ModelComparison
    >>> r = ModelComparison(("=x", "y"), np.array([0.6, 0.8]), np.array([0.5, 0.7]),
    ...     np.array([0.7, 0.9]), np.array([[0, 1]]), np.array([-0.2]), np.array([-0.3]),
    ...     np.array([-0.1]), np.array([0.01]), np.array([0.01]), "t", None, 0.95, True)
    >>> print(to_csv(r), end="")
    letter,model,value,low,high,beats
    b,y,0.8,0.7,0.9,a
    a,'=x,0.6,0.5,0.7,
    """
    return table_csv([("value", result)], alpha=alpha)


def table_csv(columns: Columns, *, alpha: float = 0.05) -> str:
    """A table of models by metric as CSV: letter, model, then per metric its value, low,
    high and beats, each named after the metric (:func:`to_csv` for one).

    Examples
    --------
    >>> print(table_csv(_example()), end="")
    letter,model,m1,m1 low,m1 high,m1 beats,m_2,m_2 low,m_2 high,m_2 beats
    b,y,0.8,0.8,0.8,,0.1,0.1,0.1,
    a,x,0.6,0.6,0.6,,0.9,0.9,0.9,
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = ["letter", "model"]
    if len(columns) == 1:
        head += ["value", "low", "high", "beats"]
    else:
        head += [f"{m}{w}" for m, _ in columns for w in ("", " low", " high", " beats")]
    writer.writerow(head)
    for cells in table_rows(columns, alpha):
        line = [cells[0]["letter"], _cell(cells[0]["model"])]
        for row in cells:
            line += [
                repr(row["value"]),
                "" if math.isnan(row["low"]) else repr(row["low"]),
                "" if math.isnan(row["high"]) else repr(row["high"]),
                row["beats"],
            ]
        writer.writerow(line)
    return out.getvalue()
