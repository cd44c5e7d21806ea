"""Shared pieces of the derivation lines (Multilabel, Regression, ROC & PR curves).

:mod:`explorer.derivation` writes a *mean* with its terms; these helpers add what
the derivations of those pages also need: the same mean as LaTeX with its total
when terms are elided, a *sum* written with its terms (the trapezoids of ROC AUC,
the steps of AP, SS_res), and a count written as a whole number when it is one.
No streamlit here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.derivation import MeanDerivation
from explorer.formatting import fmt


def count(x: float) -> str:
    """A (weighted) count: ``3`` when whole, else four significant digits.

    Examples
    --------
    >>> count(3.0), count(2.5), count(1234.0)
    ('3', '2.500', '1,234')
    """
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    return fmt(x)


def _latex_count(text: str) -> str:
    return text.replace(",", "{,}")


def _elided(terms: tuple[str, ...], head: int, omitted: int, dots: str) -> list[str]:
    if not omitted:
        return list(terms)
    return [*terms[:head], dots, *terms[head:]]


def mean_latex(d: MeanDerivation) -> str:
    r"""``d`` as one LaTeX line: the terms over the count, and when terms are elided
    also ``\frac{total}{count}``, so the line can be checked by hand.

    Examples
    --------
    >>> from explorer.derivation import mean_terms
    >>> mean_latex(mean_terms([0.5, 1.0], name="LRAP"))
    '\\text{LRAP} = \\frac{0.5000 + 1.000}{2} = 0.7500'
    >>> mean_latex(mean_terms([1.0] * 6, name="m", head=2, tail=1))
    '\\text{m} = \\frac{1.000 + 1.000 + \\dots + 1.000}{6} = \\frac{6.000}{6} = 1.000'
    """
    shown = " + ".join(_elided(d.terms, d.head, d.omitted, r"\dots")).replace("×", r"\times")
    denom = _latex_count(count(d.denominator) if d.weighted else f"{d.count:,}")
    line = rf"\text{{{d.name}}} = \frac{{{shown}}}{{{denom}}}"
    if d.omitted:
        line += rf" = \frac{{{fmt(d.total)}}}{{{denom}}}"
    return f"{line} = {fmt(d.value)}"


def mean_note(d: MeanDerivation, left_out: int = 0, what: str = "terms") -> str:
    """The caption under a mean: how many terms are shown, and any left out as NaN.

    Examples
    --------
    >>> from explorer.derivation import mean_terms
    >>> mean_note(mean_terms(range(10)), 2, "labels")
    'the first 3 and last 2 of 10 terms; 2 labels with 0/0 = NaN left out'
    >>> mean_note(mean_terms([1, 2]))
    ''
    """
    parts = []
    if d.omitted:
        parts.append(f"the first {d.head} and last {len(d.terms) - d.head} of {d.count:,} terms")
    if left_out:
        parts.append(f"{left_out} {what} with 0/0 = NaN left out")
    return "; ".join(parts)


@dataclass(frozen=True)
class SumDerivation:
    """A sum written term by term (the first and last few when many).

    Attributes
    ----------
    name : str
        The left-hand side, for example ``"ROC AUC"``.
    terms : tuple of str
        The terms shown, already written (``"0.2500 × 1.000"``).
    head, omitted : int
        Terms before the ``…`` and how many it stands for.
    count : int
        How many terms the sum has.
    total : float
        The sum.
    """

    name: str
    terms: tuple[str, ...]
    head: int
    omitted: int
    count: int
    total: float

    def text(self) -> str:
        """One line of plain text ending in the sum's digits.

        Examples
        --------
        >>> sum_terms(["0.5 × 1", "0.5 × 0.5"], [0.5, 0.25], name="AUC").text()
        'AUC = 0.5 × 1 + 0.5 × 0.5 = 0.7500'
        """
        shown = " + ".join(_elided(self.terms, self.head, self.omitted, "…"))
        return f"{self.name} = {shown} = {fmt(self.total)}"

    def latex(self) -> str:
        r"""The same line as LaTeX (``\dots`` for the elided terms).

        Examples
        --------
        >>> sum_terms(["0.5 × 1"], [0.5], name="AUC").latex()
        '\\text{AUC} = 0.5 \\times 1 = 0.5000'
        """
        shown = " + ".join(_elided(self.terms, self.head, self.omitted, r"\dots"))
        shown = shown.replace("×", r"\times")
        return rf"\text{{{self.name}}} = {shown} = {fmt(self.total)}"

    def aligned(self) -> str:
        r"""The LaTeX over three aligned lines (the first three terms, the others, the
        sum), so a long sum fits the page; :meth:`latex` when it has three terms or fewer.

        Examples
        --------
        >>> print(sum_terms([f"t{i}" for i in range(9)], range(9), name="S").aligned())
        \begin{aligned}\text{S} &= t0 + t1 + t2 \\ &\quad + \dots + t7 + t8 \\ &= 36.00\end{aligned}
        >>> print(sum_terms(["a", "b"], [1, 2], name="AUC").aligned())
        \text{AUC} = a + b = 3.000
        """
        if len(self.terms) <= 3:
            return self.latex()
        first = " + ".join(self.terms[:3])
        rest = " + ".join(([r"\dots"] if self.omitted else []) + list(self.terms[3:]))
        return (
            rf"\begin{{aligned}}\text{{{self.name}}} &= {first} \\ &\quad + {rest} \\ "
            rf"&= {fmt(self.total)}\end{{aligned}}"
        ).replace("×", r"\times")

    def note(self) -> str:
        """How many terms are shown (empty when all are).

        Examples
        --------
        >>> sum_terms([str(i) for i in range(9)], range(9), head=2, tail=1).note()
        'the first 2 and last 1 of 9 terms'
        """
        if not self.omitted:
            return ""
        return (
            f"the first {self.head} and last {len(self.terms) - self.head} of {self.count:,} terms"
        )


def sum_terms(written, values, *, name: str = "sum", head: int = 3, tail: int = 2) -> SumDerivation:
    """Write the sum of ``values``, each term as ``written`` (the first and last few).

    Parameters
    ----------
    written : sequence of str, or callable
        Each term as text, in order, or a function of the term's index that writes
        it (only the shown terms are written: a long sum stays cheap).
    values : array-like of float
        The terms' values; their sum is the total.
    name : str
    head, tail : int
        Terms written before and after ``…`` when there are more than ``head + tail``.

    Examples
    --------
    >>> d = sum_terms(["a", "b", "c", "d"], [1, 2, 3, 4], name="s", head=1, tail=1)
    >>> d.text(), d.count
    ('s = a + … + d = 10.00', 4)
    >>> sum_terms(lambda i: f"t{i}", [1, 2, 3, 4], head=1, tail=1).terms
    ('t0', 't3')
    """
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    if n > head + tail:
        idx = [*range(head), *range(n - tail, n)]
        omitted = n - head - tail
    else:
        idx, omitted, head = list(range(n)), 0, n
    return SumDerivation(
        name=name,
        terms=tuple(written(i) if callable(written) else written[i] for i in idx),
        head=head,
        omitted=omitted,
        count=n,
        total=float(v.sum()),
    )
