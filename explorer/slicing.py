"""Groups of samples (or queries) made from a dataset's attributes: pure, no streamlit.

A text attribute groups by its values, as they are. A numeric attribute is cut into
bins at cut points: by default its quantiles (:func:`quantile_cuts`), or the cut
points a visitor wrote (:func:`parse_cuts`, shown back by :func:`cuts_text`). A bin
is closed on the left, ``[a, b)``; the first starts at the smallest value and the
last ends at the largest, closed: every value lands in one bin. A numeric attribute
of at most :data:`DISCRETE_MAX` different values (a 0/1 flag, a grade) is grouped by
its values unless bins are asked for. A missing value (NaN, or an empty text) makes
its own group, ``(missing)``, last. An attribute that would make more than
:data:`MAX_GROUPS` groups is refused as a grouping with a :class:`GroupingError`
that says why.

:func:`groups_of` is what a page calls: ``(codes, labels)``, the group of each row of
``y_true`` (an index into ``labels``) and each group's label; empty groups are left
out, so every label has at least one row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote, unquote

import numpy as np
import pandas as pd

from explorer.datasets import Dataset
from explorer.i18n import Phrase

__all__ = [
    "DEFAULT_BINS",
    "DISCRETE_MAX",
    "MAX_GROUPS",
    "MISSING",
    "GroupingError",
    "bin_numbers",
    "categories",
    "cuts_text",
    "describe_slice",
    "groups_of",
    "pairs_text",
    "parse_cuts",
    "parse_pairs",
    "parse_slice",
    "quantile_cuts",
    "slice_mask",
    "slice_text",
    "subset",
    "unit",
]

#: The most groups one attribute may make: a table or chart of more says little and
#: leaves each group too few samples for an interval.
MAX_GROUPS = 50
#: Quantile bins a numeric attribute is cut into when no bins are asked for.
DEFAULT_BINS = 4
#: A numeric attribute of at most this many different values is grouped by value.
DISCRETE_MAX = 10
#: The label of the group of missing values.
MISSING = "(missing)"


class GroupingError(ValueError):
    """An attribute that cannot group the samples; the message is a sentence to show."""


def _number(v: float) -> str:
    """A cut point or value as a label writes it: short, but never rounded into another."""
    text = f"{v:.6g}"
    return text if float(text) == v else repr(float(v))


def _too_many_cuts(n: int) -> str:
    return Phrase("${n} cut points make more than ${most} bins.", n=n, most=MAX_GROUPS)


def _no_attribute(ds: Dataset, attribute: str) -> str:
    known = ", ".join(ds.attribute_names) or Phrase("none")
    return Phrase(
        "the dataset has no attribute ${name} (its attributes: ${known}).",
        name=repr(attribute),
        known=known,
    )


def _no_group(what: str, label: str) -> str:
    return Phrase("${what} has no group ${label}.", what=what, label=repr(label))


def quantile_cuts(values: np.ndarray, n_bins: int = DEFAULT_BINS) -> tuple[float, ...]:
    """The inner cut points that split ``values`` (NaN left out) into ``n_bins`` bins of
    about equal counts: the quantiles at 1/n, ..., (n-1)/n, repeated ones dropped (many
    equal values make fewer bins), each written as a person would (:func:`_human_cut`:
    13.275, not the interpolation's 13.274999999999999) without moving a value to
    another bin.

    Examples
    --------
    >>> quantile_cuts(np.arange(1.0, 9.0), 4)
    (2.75, 4.5, 6.25)
    >>> quantile_cuts(np.array([0.0, 0, 0, 0, 1]), 4)
    (0.0,)
    >>> quantile_cuts(np.array([12.75, 13.27, 13.28, 14.0]), 2)
    (13.275,)
    """
    if n_bins < 1:
        raise GroupingError(Phrase("a number of bins must be at least 1; got ${n}", n=n_bins))
    v = values[~np.isnan(values)]
    if v.size == 0 or n_bins == 1:
        return ()
    q = np.unique(np.quantile(v, np.arange(1, n_bins) / n_bins))
    distinct = np.unique(v)
    # each cut's gap: the values below it and the first at or above it; a cut anywhere
    # in (below, above] puts every value in the same bin
    at = np.searchsorted(distinct, q, side="left")
    below = np.where(at > 0, distinct[np.maximum(at - 1, 0)], -np.inf)
    above = np.where(at < distinct.size, distinct[np.minimum(at, distinct.size - 1)], np.inf)
    cuts = [_human_cut(c, lo, hi) for c, lo, hi in zip(q, below, above, strict=True)]
    return tuple(float(c) for c in np.unique(cuts))


def _human_cut(c: float, below: float, above: float) -> float:
    """The fewest significant digits that write ``c`` within the interpolation's noise
    (a relative 1e-9) and stay in ``(below, above]``: ``c`` itself when none does."""
    for digits in range(1, 16):
        t = float(f"{c:.{digits}g}")
        if below < t <= above and abs(t - c) <= 1e-9 * abs(c):
            return t
    return float(c)


def parse_cuts(text: str) -> tuple[float, ...]:
    """Cut points written by a visitor (``"18, 40, 65"``): increasing finite numbers.

    Examples
    --------
    >>> parse_cuts(" 18, 40,65 ")
    (18.0, 40.0, 65.0)
    >>> parse_cuts("40, 18")
    Traceback (most recent call last):
    ...
    explorer.slicing.GroupingError: cut points must increase: 18 follows 40.
    """
    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    cuts = []
    for p in parts:
        try:
            v = float(p)
        except ValueError:
            raise GroupingError(
                Phrase("${p} is not a number: write cut points as 18, 40, 65.", p=repr(p))
            ) from None
        if not np.isfinite(v):
            raise GroupingError(Phrase("${p} is not a finite number.", p=repr(p)))
        if cuts and v <= cuts[-1]:
            raise GroupingError(
                Phrase("cut points must increase: ${p} follows ${q}.", p=p, q=_number(cuts[-1]))
            )
        cuts.append(v)
    if len(cuts) + 1 > MAX_GROUPS:
        raise GroupingError(_too_many_cuts(len(cuts)))
    return tuple(cuts)


def cuts_text(cuts: Sequence[float]) -> str:
    """Cut points as :func:`parse_cuts` reads them back exactly.

    Examples
    --------
    >>> cuts_text((2.75, 4.5, 1 / 3))
    '2.75, 4.5, 0.3333333333333333'
    >>> parse_cuts(cuts_text((1 / 3, 2.75))) == (1 / 3, 2.75)
    True
    """
    return ", ".join(_number(float(c)) for c in cuts)


def _kept(codes: np.ndarray, labels: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Empty groups dropped, the codes renumbered to match."""
    counts = np.bincount(codes, minlength=len(labels))
    present = np.flatnonzero(counts)
    renumber = np.full(len(labels), -1, np.int64)
    renumber[present] = np.arange(present.size)
    return renumber[codes], tuple(labels[i] for i in present)


def bin_numbers(
    values: np.ndarray, cuts: Sequence[float] | int = DEFAULT_BINS
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Numbers cut into labelled bins at ``cuts`` (cut points, or a number of quantile
    bins); NaN goes to :data:`MISSING`, last; empty bins are left out.

    Returns
    -------
    codes : ndarray of int64
        Each value's bin, an index into ``labels``.
    labels : tuple of str
        ``[a, b)`` for each bin, the last ``[a, b]``: from the smallest value, through
        the cut points, to the largest value.

    Examples
    --------
    >>> codes, labels = bin_numbers(np.array([1.0, 5, 2, 8, np.nan]), (2.0, 5.0))
    >>> codes.tolist(), labels
    ([0, 2, 1, 2, 3], ('[1, 2)', '[2, 5)', '[5, 8]', '(missing)'))
    >>> bin_numbers(np.array([3.0, 4.0]), (0.0, 10.0))[1]
    ('[0, 10)',)
    """
    values = np.asarray(values, dtype=np.float64)
    if isinstance(cuts, (int, np.integer)):
        cuts = quantile_cuts(values, int(cuts))
    cuts = np.asarray(cuts, dtype=np.float64)
    if cuts.size + 1 > MAX_GROUPS:
        raise GroupingError(_too_many_cuts(cuts.size))
    if cuts.size and (np.diff(cuts) <= 0).any():
        raise GroupingError(Phrase("cut points must increase."))
    missing = np.isnan(values)
    codes = np.searchsorted(cuts, values, side="right").astype(np.int64)
    codes[missing] = cuts.size + 1
    present = values[~missing]
    # the outer bins run from the smallest value and to the largest (an empty one is
    # dropped below, so its NaN ends never show)
    lo, hi = (present.min(), present.max()) if present.size else (np.nan, np.nan)
    labels = []
    for b in range(cuts.size + 1):
        start = cuts[b - 1] if b > 0 else lo
        stop = cuts[b] if b < cuts.size else hi
        close = "]" if b == cuts.size else ")"
        labels.append(f"[{_number(start)}, {_number(stop)}{close}")
    labels.append(MISSING)
    return _kept(codes, labels)


def categories(values: np.ndarray, what: str = "the attribute") -> tuple[np.ndarray, tuple]:
    """Group by value: each different value (in sorted order) is a group; a missing one
    (NaN, ``""``) is :data:`MISSING`, last. More than :data:`MAX_GROUPS` groups is
    refused with a :class:`GroupingError` naming ``what``.

    Examples
    --------
    >>> codes, labels = categories(np.array(["b", "a", "", "b"], dtype=object))
    >>> codes.tolist(), labels
    ([1, 0, 2, 1], ('a', 'b', '(missing)'))
    >>> categories(np.array([1.0, 0.0, 1.0]))[1]
    ('0', '1')
    """
    numeric = values.dtype == np.float64
    missing = np.isnan(values) if numeric else values == ""
    if numeric:
        uniq, inverse = np.unique(values[~missing], return_inverse=True)
    else:  # a hash table, not a sort of Python strings: 0.05 against 1.7 CPU s at 10^6 rows
        inverse, uniq = pd.factorize(values[~missing], sort=True)
        uniq = np.asarray(uniq, dtype=object)
    if uniq.size > MAX_GROUPS:
        raise GroupingError(
            Phrase(
                "${what} has ${n:,} different values: too many to compare as groups (at "
                "most ${most}). Group it into fewer values before uploading${end}",
                what=what,
                n=uniq.size,
                most=MAX_GROUPS,
                end=Phrase(", or cut it into bins.") if numeric else ".",
            )
        )
    codes = np.full(values.shape[0], uniq.size, np.int64)
    codes[~missing] = inverse
    labels = [_number(v) if numeric else str(v) for v in uniq.tolist()] + [MISSING]
    return _kept(codes, labels)


def groups_of(
    ds: Dataset, attribute: str, bins: Sequence[float] | int | None = None
) -> tuple[np.ndarray, tuple[str, ...]]:
    """The group of each sample (each query for ranking kinds) by ``attribute``.

    Parameters
    ----------
    ds : Dataset
    attribute : str
        One of ``ds.attribute_names``.
    bins : None, int or sequence of float
        For a numeric attribute: None groups by value when it has at most
        :data:`DISCRETE_MAX` different values, else cuts it at its
        :data:`DEFAULT_BINS`-quantiles; an int cuts it into that many quantile bins;
        a sequence gives the cut points. Ignored for a text attribute.

    Returns
    -------
    codes : ndarray of int64, shape (n_samples,)
        Each row's group, an index into ``labels``.
    labels : tuple of str
        The groups that hold at least one row.

    Raises
    ------
    GroupingError
        No such attribute, or it makes more than :data:`MAX_GROUPS` groups.

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1, 1, 0]), {"m": np.array([.1, .8, .6, .3])},
    ...              attributes={"site": np.array(["B", "A", "B", ""], dtype=object),
    ...                          "age": np.array([20.0, 35, 50, 65])})
    >>> groups_of(ds, "site")
    (array([1, 0, 1, 2]), ('A', 'B', '(missing)'))
    >>> groups_of(ds, "age", bins=(40.0,))
    (array([0, 0, 1, 1]), ('[20, 40)', '[40, 65]'))
    """
    try:
        values = ds.attribute(attribute)
    except KeyError:
        raise GroupingError(_no_attribute(ds, attribute)) from None
    what = Phrase("attribute ${name}", name=repr(attribute))
    if values.dtype != np.float64:
        return categories(values, what)
    if bins is None:
        distinct = np.unique(values[~np.isnan(values)])
        if distinct.size <= DISCRETE_MAX:
            return categories(values, what)
        bins = DEFAULT_BINS
    return bin_numbers(values, bins)


# ----------------------------------------------------------------- a slice filter

#: One condition of a slice filter: an attribute and one of its group labels.
Condition = tuple[str, str]
#: Characters a condition keeps as they are in the ``?slice=`` text; ``:`` and ``;``
#: (the separators) and ``%`` are escaped, so any name or label reads back exactly.
_KEPT = " []()=<>+-.,!*'_/"
#: Most conditions one filter holds (a group, or a pair of groups of two attributes).
MAX_CONDITIONS = 2
_INTERVAL = re.compile(r"^\[(?P<lo>[^,]+), (?P<hi>[^)\]]+)(?P<close>[)\]])$")


def pairs_text(pairs: Sequence[tuple[str, str]]) -> str:
    """``name:value`` pairs joined by ``;`` for a URL parameter, each part escaped as
    :func:`urllib.parse.quote` does but for a few signs (:func:`parse_pairs` reads back).

    Examples
    --------
    >>> pairs_text([("hospital", "B"), ("age", "[20, 40)")])
    'hospital:B;age:[20, 40)'
    >>> pairs_text([("a:b", "50%")])
    'a%3Ab:50%25'
    """
    return ";".join(f"{quote(a, safe=_KEPT)}:{quote(g, safe=_KEPT)}" for a, g in pairs)


def parse_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The pairs of a :func:`pairs_text` text; a part that is not ``name:value`` is a
    :class:`GroupingError`.

    Examples
    --------
    >>> parse_pairs("coarse:0.4;smooth:0.6")
    (('coarse', '0.4'), ('smooth', '0.6'))
    """
    parts = [p for p in str(text).split(";") if p.strip()]
    if any(p.count(":") != 1 for p in parts):
        raise GroupingError(Phrase("${text} is not name:value pairs joined by ;.", text=repr(text)))
    return tuple(tuple(unquote(x) for x in p.split(":")) for p in parts)


def slice_text(conditions: Sequence[Condition]) -> str:
    """A filter as the ``?slice=`` parameter writes it: ``attribute:label``, two joined
    by ``;`` (:func:`pairs_text`).

    Examples
    --------
    >>> slice_text([("hospital", "B"), ("age", "[20, 40)")])
    'hospital:B;age:[20, 40)'
    """
    return pairs_text(conditions)


def parse_slice(text: str) -> tuple[Condition, ...]:
    """The conditions of a ``?slice=`` text (:func:`slice_text` reads back); a text that
    is not ``attribute:label`` (two at most, ``;`` between) is a :class:`GroupingError`.

    Examples
    --------
    >>> parse_slice("hospital:B;age:[20, 40)")
    (('hospital', 'B'), ('age', '[20, 40)'))
    >>> parse_slice(slice_text([("a:b", "50%")]))
    (('a:b', '50%'),)
    """
    try:
        conditions = parse_pairs(text)
    except GroupingError:
        conditions = ()
    if not conditions or len(conditions) > MAX_CONDITIONS:
        raise GroupingError(
            Phrase(
                "the slice ${text} is not attribute:group (two at most, joined by ;).",
                text=repr(text),
            )
        )
    if len({a for a, _ in conditions}) < len(conditions):
        raise GroupingError(Phrase("the slice ${text} names one attribute twice.", text=repr(text)))
    return conditions


def _members(values: np.ndarray, label: str, what: str) -> np.ndarray:
    """Which rows of ``values`` belong to the group labelled ``label`` (as
    :func:`categories` and :func:`bin_numbers` label them)."""
    numeric = values.dtype == np.float64
    if label == MISSING:
        return np.isnan(values) if numeric else values == ""
    if not numeric:
        return values == label
    found = _INTERVAL.match(label)
    try:
        if found is None:
            return values == float(label)
        lo, hi = float(found["lo"]), float(found["hi"])
    except ValueError:
        raise GroupingError(_no_group(what, label)) from None
    upper = values <= hi if found["close"] == "]" else values < hi
    return (values >= lo) & upper


def slice_mask(ds: Dataset, conditions: Sequence[Condition]) -> np.ndarray:
    """The rows (samples, or queries for ranking kinds) in every group ``conditions``
    name: a text attribute's value, a number, ``[a, b)`` (``[a, b]``) for a bin, or
    :data:`MISSING`. An unknown attribute, or a group no row is in, is a
    :class:`GroupingError` saying so.

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1, 1, 0]), {"m": np.array([.1, .8, .6, .3])},
    ...              attributes={"site": np.array(["B", "A", "B", ""], dtype=object),
    ...                          "age": np.array([20.0, 35, 50, 65])})
    >>> slice_mask(ds, [("site", "B"), ("age", "[40, 65]")]).tolist()
    [False, False, True, False]
    """
    mask = np.ones(ds.n_samples, dtype=bool)
    for attribute, label in conditions:
        if attribute not in ds.attribute_names:
            raise GroupingError(_no_attribute(ds, attribute))
        what = Phrase("attribute ${name}", name=repr(attribute))
        member = _members(ds.attribute(attribute), label, what)
        if not member.any():
            raise GroupingError(_no_group(what, label))
        mask &= member
    if not mask.any():
        raise GroupingError(
            Phrase(
                "no ${unit} is in all of ${slice}.",
                unit=Phrase(unit(ds)),
                slice=describe_slice(conditions),
            )
        )
    return mask


def unit(ds: Dataset) -> str:
    """What a row of ``ds`` is called: a query for graded ranking, else a sample."""
    return "query" if ds.kind == "graded" else "sample"


def describe_slice(conditions: Sequence[Condition]) -> str:
    """The filter in words (plain text: escape it where it is shown).

    Examples
    --------
    >>> describe_slice([("hospital", "B"), ("age", "[20, 40)")])
    'hospital = B and age in [20, 40)'
    """
    return " and ".join(f"{a} {'in' if _INTERVAL.match(g) else '='} {g}" for a, g in conditions)


def subset(ds: Dataset, conditions: Sequence[Condition]) -> Dataset:
    """The rows of ``ds`` in the slice ``conditions`` (:func:`slice_mask`), as a
    Dataset of the same name whose title says which slice it is.

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1, 1, 0]), {"m": np.array([.1, .8, .6, .3])},
    ...              attributes={"site": np.array(["B", "A", "B", "A"], dtype=object)})
    >>> part = subset(ds, [("site", "B")])
    >>> part.sample_ids, part.scores["m"].tolist(), part.shown_name
    (('0', '2'), [0.1, 0.6], 't (site = B)')
    """
    rows = np.flatnonzero(slice_mask(ds, conditions))

    def take(a):
        return None if a is None else a[rows]

    return Dataset(
        name=ds.name,
        kind=ds.kind,
        y_true=ds.y_true[rows],
        scores={m: s[rows] for m, s in ds.scores.items()},
        sample_weight=take(ds.sample_weight),
        label_names=ds.label_names,
        sample_ids=tuple(ds.sample_ids[i] for i in rows.tolist()),
        description=ds.description,
        source=ds.source,
        title=f"{ds.shown_name} ({describe_slice(conditions)})",
        retrieved=take(ds.retrieved),
        item_ids=take(ds.item_ids),
        attributes=tuple((name, values[rows]) for name, values in ds.attributes),
    )
