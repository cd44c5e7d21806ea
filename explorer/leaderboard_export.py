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
    level = f"{result.confidence:.0%}"
    lines = [
        f"| # | model | {metric} | {level} interval |",
        "| --- | --- | --- | --- |",
    ]
    for row in ranked_rows(result, alpha):
        value = _num(row["value"], digits)
        value = f"**{value}**" if row["best"] else value
        if row["beats"]:
            value += f"<sup>{row['beats']}</sup>"
        name = literal(row["model"])
        lines.append(f"| {row['letter']} | {name} | {value} | {_interval(row, digits)} |")
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
    level = latex_escape(f"{result.confidence:.0%}")
    lines = [
        r"\begin{tabular}{llll}",
        r"\toprule",
        rf"\# & Model & {latex_escape(metric)} & {level} interval \\",
        r"\midrule",
    ]
    for row in ranked_rows(result, alpha):
        value = _num(row["value"], digits)
        value = rf"\textbf{{{value}}}" if row["best"] else value
        if row["beats"]:
            value += rf"$^{{\mathrm{{{row['beats']}}}}}$"
        name = latex_escape(row["model"])
        lines.append(rf"{row['letter']} & {name} & {value} & {_interval(row, digits)} \\")
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
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["letter", "model", "value", "low", "high", "beats"])
    for row in ranked_rows(result, alpha):
        writer.writerow(
            [
                row["letter"],
                _cell(row["model"]),
                repr(row["value"]),
                "" if math.isnan(row["low"]) else repr(row["low"]),
                "" if math.isnan(row["high"]) else repr(row["high"]),
                row["beats"],
            ]
        )
    return out.getvalue()
