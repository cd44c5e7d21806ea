"""The cached computations of Regression."""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.pages import regression, regression_derivation
from explorer.ui.cache._core import value

#: The eight headline values of a model, a weight choice and a moved prediction.
headline = value(regression.headline)

#: Every headline derived with its terms (a few LaTeX lines), same key as the headline.
derivations = value(regression_derivation.derivations)

#: The unmoved prediction's worst rows, residuals and flags; regression.moved_errors
#: patches the moved row in.
base_errors = value(regression.base_errors)


#: :func:`explorer.intervals.regression`: the same key as :data:`headline`.
intervals = value(_intervals.regression)
