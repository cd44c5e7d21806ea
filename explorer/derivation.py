"""Means written out with their terms, so a headline number can be derived on screen.

Every page whose headline is a mean over samples (LRAP, coverage, ranking
loss, DCG, NDCG, P@K, per-sample F1, ...) shows it as a sum of its terms
divided by the count, ending in the same text as the headline.  With many
samples only the first and last few terms are written, with the count and the
full sum, so the line can still be checked by hand: ``total / count = value``.

No streamlit here: views render :meth:`MeanDerivation.text` (or
:meth:`MeanDerivation.latex`) and tests read the same strings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.formatting import fmt


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

    def _shown(self, sep: str, dots: str) -> str:
        if not self.omitted:
            return sep.join(self.terms)
        return sep.join((*self.terms[: self.head], dots, *self.terms[self.head :]))

    def text(self) -> str:
        """One line of plain text, ending in the headline's own digits.

        Examples
        --------
        >>> mean_terms([0.5, 5 / 6, 1.0], name="LRAP").text()
        'LRAP = (0.5000 + 0.8333 + 1.000) / 3 = 0.7778'
        >>> print(mean_terms(np.arange(10.0), head=2, tail=1).text())
        mean = (0 + 1.000 + … + 9.000) / 10 = 45.00 / 10 = 4.500  (first 2 and last 1 of 10 terms)
        """
        shown = self._shown(" + ", "…")
        denom = self._denominator_text()
        if self.omitted:
            return (
                f"{self.name} = ({shown}) / {denom} = {fmt(self.total)} / {denom} = "
                f"{fmt(self.value)}  (first {self.head} and last "
                f"{len(self.terms) - self.head} of {self.count:,} terms)"
            )
        return f"{self.name} = ({shown}) / {denom} = {fmt(self.value)}"

    def latex(self) -> str:
        r"""The same line as LaTeX for ``st.latex`` (``\dots`` for the omitted terms).

        Examples
        --------
        >>> mean_terms([0.5, 1.0], name="LRAP").latex()
        '\\text{LRAP} = \\frac{0.5000 + 1.000}{2} = 0.7500'
        """
        shown = self._shown(" + ", r"\dots").replace("×", r"\times")
        denom = self._denominator_text().replace(",", "{,}")
        return rf"\text{{{self.name}}} = \frac{{{shown}}}{{{denom}}} = {fmt(self.value)}"

    def _denominator_text(self) -> str:
        if self.weighted:
            return _weight(self.denominator, 4)
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
    (('0.5000', '0.8333', '1.000'), 3, 0.7778)
    >>> mean_terms([1.0, 0.0], [3, 1]).text()
    'mean = (3 × 1.000 + 1 × 0) / 4 = 0.7500'
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
    if n > head + tail:
        idx = np.r_[np.arange(head), np.arange(n - tail, n)]
        omitted = n - head - tail
    else:
        idx = np.arange(n)
        omitted = 0
        head = n

    def term(i: int) -> str:
        if w is None:
            return fmt(v[i], digits)
        return f"{_weight(w[i], digits)} × {fmt(v[i], digits)}"

    return MeanDerivation(
        name=name,
        terms=tuple(term(int(i)) for i in idx),
        omitted=omitted,
        head=head,
        count=n,
        total=total,
        denominator=denominator,
        value=value,
        weighted=w is not None,
    )


def _weight(w: float, digits: int) -> str:
    """Integer-valued weights as integers (``3``), others as :func:`fmt` does."""
    if float(w).is_integer() and abs(w) < 1e15:
        return f"{int(w):,}"
    return fmt(w, digits)
