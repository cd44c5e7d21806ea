"""The threshold controls of the ROC & PR curves page: the range they span, how they
step through it and how their number box writes a threshold (no streamlit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.datasets import Dataset

__all__ = ["ThresholdAxis", "threshold_axis"]


def _score_range(ds: Dataset) -> tuple[float, float]:
    """From min(0, lowest score) to max(1, highest score), nudged just above the highest
    score, so the right end predicts nothing positive (the +inf threshold of the curves
    and the candidates). When the highest score is the largest float, no float lies
    above it: the range ends at that score."""
    lows = [float(s.min()) for s in ds.scores.values()]
    high = max(float(s.max()) for s in ds.scores.values())
    above = math.nextafter(high, math.inf)
    return min(0.0, *lows), (1.0 if high < 1.0 else above if math.isfinite(above) else high)


def _slider_step(lo: float, hi: float) -> float | None:
    """0.01 on a range of at most 1, else the power of ten nearest below a hundredth of
    the range (1.0 for logits up to 150, 1e306 for scores up to 1e308). None when
    ``hi - lo`` overflows float64 (scores of -1e308 and 1e308): no slider spans that
    range, the page steps through the distinct scores instead."""
    span = hi - lo
    if not math.isfinite(span):
        return None
    if span <= 1:
        return 0.01
    return 10.0 ** math.floor(math.log10(span / 100))


def _box_format(ds: Dataset) -> str:
    """Four decimals for scores of ordinary size; six significant digits when every
    non-zero score is below 1e-3 (four decimals would show 0.0000) or some score
    reaches 1e9 (four decimals would show dozens of digits)."""
    sizes = np.concatenate([np.abs(s).ravel() for s in ds.scores.values()])
    nonzero = sizes[sizes > 0]
    if nonzero.size and (nonzero.max() < 1e-3 or nonzero.max() >= 1e9):
        return "%.6g"
    return "%.4f"


@dataclass(frozen=True, eq=False)
class ThresholdAxis:
    """The range the threshold controls span, and how they step through it.

    Attributes
    ----------
    lo, hi : float
        The range: from min(0, lowest score) to max(1, highest score), the right end
        just above the highest score (it predicts nothing positive) unless that score
        is the largest float.
    step : float or None
        The slider's step; None when ``hi - lo`` overflows float64: the slider then
        steps through ``stops``.
    stops : ndarray or None
        The model's distinct scores, ascending, when ``step`` is None.
    box_format : str
        The number box's format (``"%.4f"``, or ``"%.6g"`` for tiny or huge scores).
    """

    lo: float
    hi: float
    step: float | None
    stops: np.ndarray | None
    box_format: str

    @property
    def logit(self) -> bool:
        """Whether some score is negative: logits or margins, not probabilities (a
        threshold of 0.5 there means a probability of 0.62, not of a half)."""
        return self.lo < 0.0

    @property
    def default(self) -> float:
        """The threshold before any setting: 0 on a logit scale (:attr:`logit`; the
        logit of a probability of 0.5), else 0.5 when in range, else ``lo``."""
        if self.logit:
            return 0.0 if self.hi >= 0.0 else self.lo
        return 0.5 if self.lo <= 0.5 <= self.hi else self.lo

    @property
    def slider_format(self) -> str | None:
        """``"%.4g"`` past 1e9 (not 309 digits of 1e308), else the slider's own."""
        return "%.4g" if max(-self.lo, self.hi) >= 1e9 else None

    @property
    def box_step(self) -> float:
        """The number box's step: 0.001 on ranges the slider steps by at most 1."""
        return 0.001 if self.step is not None and self.step <= 1 else (self.step or 1e306)

    @property
    def top(self) -> int:
        """The index slider's last position: ``len(stops)`` (above every score) when
        ``hi`` lies above the highest score, else the highest score's position."""
        return len(self.stops) if self.hi > self.stops[-1] else len(self.stops) - 1

    def clamp(self, t) -> float:
        """The threshold to use for ``t``: :attr:`default` for what is no finite number,
        then brought into [lo, hi]."""
        if not isinstance(t, int | float) or not math.isfinite(t):
            t = self.default
        return min(max(float(t), self.lo), self.hi)

    def index_of(self, t: float) -> int:
        """The stop giving the same predictions as threshold ``t``: the lowest distinct
        score >= t, or ``len(stops)`` (above every score) when there is none."""
        return int(np.searchsorted(self.stops, t, side="left"))

    def at_index(self, i: int) -> float:
        """The threshold of index slider position ``i``: the i-th distinct score, or
        ``hi`` past them all."""
        return float(self.stops[i]) if i < len(self.stops) else self.hi


def threshold_axis(ds: Dataset, model: str) -> ThresholdAxis:
    """The threshold controls' range, steps and formats for ``model`` of ``ds``.

    The range covers every model's scores, so switching models keeps the threshold.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.datasets import Dataset
    >>> from explorer.samples import load_sample
    >>> axis = threshold_axis(load_sample("seed002_roc6"), "model")
    >>> axis.lo, axis.hi, axis.step, axis.box_format, axis.default
    (0.0, 1.0, 0.01, '%.4f', 0.5)
    >>> axis.clamp(float("nan")), axis.clamp(7)
    (0.5, 1.0)
    >>> logits = Dataset("l", "binary", np.array([0, 1, 1]), {"m": np.array([-2.0, 0.4, 3.0])})
    >>> axis = threshold_axis(logits, "m")
    >>> axis.logit, axis.default, axis.clamp(float("nan"))
    (True, 0.0, 0.0)
    >>> wide = Dataset("wide", "binary", np.array([0, 1, 1]), {"m": np.array([-1e308, 2.0, 1e308])})
    >>> axis = threshold_axis(wide, "m")
    >>> axis.step is None, axis.stops.tolist(), axis.top
    (True, [-1e+308, 2.0, 1e+308], 3)
    >>> axis.index_of(1.0), axis.at_index(1), axis.slider_format
    (1, 2.0, '%.4g')
    """
    lo, hi = _score_range(ds)
    step = _slider_step(lo, hi)
    stops = np.unique(ds.score(model)) if step is None else None
    return ThresholdAxis(lo, hi, step, stops, _box_format(ds))
