"""Headline numbers derived on screen: one :class:`Derivation` per number, and the sums
and means written out with their terms that most derivations are made of.

A :class:`Derivation` is what a page draws (:func:`explorer.ui.derivations.show`): the
general formula, the same line with the numbers plugged in ending in the headline's
own digits (:func:`explorer.formatting.fmt`), a caption, and the value. The pages'
derivation modules (``explorer.pages.*_derivation``) return them.

Many of those lines are a mean over samples (LRAP, coverage, log loss, MAE, per-sample
F1, ...) or a sum (the trapezoids of ROC AUC, the steps of AP, SS_res).
:func:`mean_terms` and :func:`sum_terms` write one with its terms; with many terms only
the first and last few are written, with the count and the full total, so the line can
still be checked by hand: ``total / count = value``.

No streamlit here: views render these and tests read the same strings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from explorer.formatting import count, fmt, in_latex
from explorer.i18n import Phrase, joined


@dataclass(frozen=True)
class Derivation:
    r"""One headline number derived from the inputs.

    Attributes
    ----------
    name : str
        The headline it derives (``"ROC AUC"``, ``"Macro F1"``, ``"R²"``, ...).
    formula : str
        The general formula, LaTeX; empty when :attr:`latex` says it all.
    latex : str
        The numbers plugged in, LaTeX, ending in ``fmt(value)``; empty when the number
        is undefined (:attr:`note` says why).
    note : str
        What the line leaves out (elided terms, NaN terms), or why there is no number.
    value : float
        The number the line ends in (NaN when undefined).
    steps : tuple of str
        LaTeX lines worked out before :attr:`latex` (the mean and the two sums of R²,
        the MSE under RMSE); usually none.
    terms : ndarray or None
        Every term of a mean, in order, when the page keeps them (not compared).

    Examples
    --------
    >>> d = Derivation("RMSE", "", r"\sqrt{0.25} = 0.5000", value=0.5, steps=("MSE = 0.2500",))
    >>> d.lines
    ('MSE = 0.2500', '\\sqrt{0.25} = 0.5000')
    >>> Derivation("R²", "", "", "undefined: y is constant").lines
    ()
    """

    name: str
    formula: str
    latex: str
    note: str = ""
    value: float = math.nan
    steps: tuple[str, ...] = ()
    terms: np.ndarray | None = field(default=None, compare=False)

    @property
    def lines(self) -> tuple[str, ...]:
        """Every LaTeX line with numbers: :attr:`steps`, then :attr:`latex` (if any)."""
        return (*self.steps, self.latex) if self.latex else self.steps


def _shown(n: int, head: int, tail: int) -> tuple[list[int], int, int]:
    """The indices of the terms written out of ``n``, how many ``…`` stands for, and how
    many come before it."""
    if n > head + tail:
        return [*range(head), *range(n - tail, n)], n - head - tail, head
    return list(range(n)), 0, n


def _elided(terms: tuple[str, ...], head: int, omitted: int, dots: str) -> list[str]:
    if not omitted:
        return list(terms)
    return [*terms[:head], dots, *terms[head:]]


def _shown_note(head: int, shown: int, n: int, the: bool = True) -> Phrase:
    if not the:  # in brackets after a line: "(first 3 and last 2 of 10 terms)"
        return Phrase(
            "first ${head} and last ${tail} of ${n:,} terms", head=head, tail=shown - head, n=n
        )
    return Phrase(
        "the first ${head} and last ${tail} of ${n:,} terms", head=head, tail=shown - head, n=n
    )


@dataclass(frozen=True)
class MeanDerivation:
    """A (weighted) mean written term by term.

    Attributes
    ----------
    name : str
        What is averaged, for example ``"LRAP"``.
    terms : tuple of str
        The terms shown, already formatted (``"0.5000"`` or ``"2 × 0.5000"``
        when weighted), in sample order.
    omitted : int
        How many terms between the shown head and tail are written as ``…``.
    head : int
        How many of ``terms`` come before the ``…``.
    count : int
        Number of samples averaged.
    total : float
        Sum of the (weighted) terms.
    denominator : float
        ``count`` unweighted, the sum of the weights otherwise.
    value : float
        ``total / denominator``: the headline.
    weighted : bool
        Whether sample weights multiply the terms.
    """

    name: str
    terms: tuple[str, ...]
    omitted: int
    head: int
    count: int
    total: float
    denominator: float
    value: float
    weighted: bool
    largest: bool = False

    def text(self) -> str:
        """One line of plain text, ending in the headline's own digits (a
        :class:`~explorer.i18n.Phrase`: its name and note are translated with it).

        Examples
        --------
        >>> mean_terms([0.5, 5 / 6, 1.0], name="LRAP").text()
        'LRAP = (0.5000 + 0.8333 + 1) / 3 = 0.7778'
        >>> print(mean_terms(np.arange(10.0), head=2, tail=1).text())
        mean = (0 + 1 + … + 9) / 10 = 45 / 10 = 4.500  (first 2 and last 1 of 10 terms)
        """
        shown = " + ".join(_elided(self.terms, self.head, self.omitted, "…"))
        denom = self._denominator_text()
        # the name is a phrase: "Hit rate@K" is translated, "MAP@K" stays
        line = {"name": Phrase(self.name), "shown": shown, "denom": denom}
        if self.omitted:
            return Phrase(
                "${name} = (${shown}) / ${denom} = ${total} / ${denom} = ${value}  (${which})",
                **line,
                total=fmt(self.total),
                value=fmt(self.value),
                which=self._which(short=True),
            )
        return Phrase("${name} = (${shown}) / ${denom} = ${value}", **line, value=fmt(self.value))

    def latex(self) -> str:
        r"""The same line as LaTeX: the terms over the count (``\dots`` for the elided
        ones), and when terms are elided also ``\frac{total}{count}``, so the line can
        be checked by hand.

        Examples
        --------
        >>> mean_terms([0.5, 1.0], name="LRAP").latex()
        '\\text{LRAP} = \\frac{0.5000 + 1}{2} = 0.7500'
        >>> mean_terms([1.0] * 6, name="m", head=2, tail=1).latex()
        '\\text{m} = \\frac{1 + 1 + \\dots + 1}{6} = \\frac{6}{6} = 1'
        """
        shown = " + ".join(_elided(self.terms, self.head, self.omitted, r"\dots"))
        shown = shown.replace("×", r"\times")
        denom = in_latex(self._denominator_text())
        line = rf"\text{{{self.name}}} = \frac{{{shown}}}{{{denom}}}"
        if self.omitted:
            line += rf" = \frac{{{fmt(self.total)}}}{{{denom}}}"
        return f"{line} = {fmt(self.value)}"

    def note(self, left_out: int = 0, what: str = "terms") -> str:
        """The caption under the mean: how many terms are shown, and ``left_out`` ones
        (``what``: labels, samples) left out as 0/0 = NaN.

        Examples
        --------
        >>> mean_terms(range(10)).note(2, "labels")
        'the first 3 and last 2 of 10 terms; 2 labels with 0/0 = NaN left out'
        >>> mean_terms([1, 2]).note()
        ''
        """
        parts = []
        if self.omitted:
            parts.append(self._which())
        if left_out:
            parts.append(
                Phrase("${n} ${what} with 0/0 = NaN left out", n=left_out, what=Phrase(what))
            )
        return joined(parts, "; ")

    def _which(self, short: bool = False) -> Phrase:
        """Which terms are written: the first and last, or the largest (``short``:
        without the article, inside a line's parentheses)."""
        n, count = len(self.terms), self.count
        if self.largest and short:
            return Phrase("${n} largest of ${count:,} terms, in sample order", n=n, count=count)
        if self.largest:
            return Phrase("the ${n} largest of ${count:,} terms, in sample order", n=n, count=count)
        if short:
            tail = n - self.head
            return Phrase(
                "first ${head} and last ${tail} of ${n:,} terms", head=self.head, tail=tail, n=count
            )
        return _shown_note(self.head, n, self.count)

    def _denominator_text(self) -> str:
        if self.weighted:
            return count(self.denominator)
        return f"{self.count:,}"


def mean_terms(
    values,
    sample_weight=None,
    *,
    name: str = "mean",
    head: int = 3,
    tail: int = 2,
    digits: int = 4,
) -> MeanDerivation:
    """Write the mean of ``values`` with its terms (the first and last few when many).

    Parameters
    ----------
    values : array-like of shape (n_samples,)
        The per-sample terms, for example :func:`metrics.lrap_per_sample`.
    sample_weight : array-like of shape (n_samples,), optional
        Weights; terms are then written ``w × v`` and divided by ``Σw``.
    name : str
        Left-hand side of the line.
    head, tail : int
        Terms written before and after ``…`` when there are more than
        ``head + tail``.
    digits : int
        Significant digits of each term (see :func:`explorer.formatting.fmt`).

    Returns
    -------
    MeanDerivation

    Examples
    --------
    >>> d = mean_terms([0.5, 5 / 6, 1.0], name="LRAP")
    >>> d.terms, d.count, round(d.value, 4)
    (('0.5000', '0.8333', '1'), 3, 0.7778)
    >>> mean_terms([1.0, 0.0], [3, 1]).text()
    'mean = (3 × 1 + 1 × 0) / 4 = 0.7500'

    When every term of the first and last is 0 but the mean is not, the largest terms
    are written instead (a line of zeros ending in a total that is not would hide where
    it comes from):

    >>> print(mean_terms([0, 0, 2, 0, 0, 1, 0, 0], head=2, tail=1).text())
    mean = (2 + 1 + …) / 8 = 3 / 8 = 0.3750  (2 largest of 8 terms, in sample order)
    """
    v = np.asarray(values, dtype=float).ravel()
    n = v.size
    if sample_weight is None:
        w = None
        total = float(v.sum())
        denominator = float(n)
    else:
        w = np.asarray(sample_weight, dtype=float).ravel()
        total = float(np.dot(w, v))
        denominator = float(w.sum())
    value = total / denominator if denominator else float("nan")
    idx, omitted, head = _shown(n, head, tail)
    terms = v if w is None else w * v
    largest = bool(omitted and total != 0 and not np.any(terms[idx]))
    if largest:
        top = np.argsort(-np.abs(terms), kind="stable")[: len(idx)]
        idx = np.sort(top[terms[top] != 0]).tolist()  # no zero among them
        head, omitted = len(idx), n - len(idx)

    def term(i: int) -> str:
        if w is None:
            return fmt(v[i], digits)
        return f"{count(w[i], digits)} × {fmt(v[i], digits)}"

    return MeanDerivation(
        name=name,
        terms=tuple(term(i) for i in idx),
        omitted=omitted,
        head=head,
        count=n,
        total=total,
        denominator=denominator,
        value=value,
        weighted=w is not None,
        largest=largest,
    )


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
        \begin{aligned}\text{S} &= t0 + t1 + t2 \\ &\quad + \dots + t7 + t8 \\ &= 36\end{aligned}
        >>> print(sum_terms(["a", "b"], [1, 2], name="AUC").aligned())
        \text{AUC} = a + b = 3
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
        return _shown_note(self.head, len(self.terms), self.count)


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
    ('s = a + … + d = 10', 4)
    >>> sum_terms(lambda i: f"t{i}", [1, 2, 3, 4], head=1, tail=1).terms
    ('t0', 't3')
    """
    v = np.asarray(values, dtype=float).ravel()
    idx, omitted, head = _shown(v.size, head, tail)
    return SumDerivation(
        name=name,
        terms=tuple(written(i) if callable(written) else written[i] for i in idx),
        head=head,
        omitted=omitted,
        count=v.size,
        total=float(v.sum()),
    )
