"""The Slices page's model: one metric on every group of an attribute (or a pair), with
intervals and corrected tests (:func:`metrics.metric_frame`), the worst slices found over
every attribute (:func:`metrics.worst_slices`), and for binary data the rates per group
at a threshold. Pure: no Streamlit.

A row is a sample (a query, for graded ranking). Groups come from
:func:`explorer.slicing.groups_of`; a pair of attributes makes one group per pair of
their groups that holds a row. Each group carries its conditions, the slice filter
that opens a model page on it (:mod:`explorer.ui.slice_filter`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

import metrics
from explorer import budget, slicing
from explorer.datasets import Dataset
from explorer.derivation import Derivation
from explorer.formatting import fmt, in_latex, latex_text
from explorer.i18n import Phrase
from explorer.links import float_text

#: Bootstrap resamples per group (seeded: the same page shows the same intervals).
N_RESAMPLES = 1000
SEED = 0
#: Resamples of all rows behind worst_slices' test of a metric of no fast path.
WORST_RESAMPLES = 200
#: Shuffles of the permutation test of a group against its rest (a metric of per-row
#: values that are not 0/1), the same for every grouping of one search.
N_PERMUTATIONS = 999
#: How many of the worst slices the page lists.
WORST_SHOWN = 10


@dataclass(frozen=True)
class Metric:
    """A metric the page offers: how it is called on a dataset's arrays."""

    label: str
    #: ``metric_frame``'s metric: a function, or a rate's name at the threshold.
    metric: object
    #: ``"scores"``: y_true and the scores as they are; ``"classes"``: multiclass class
    #: indices, the predicted class; ``"proba"``: class indices and the probabilities.
    arrays: str = "scores"
    #: How its bootstrap runs (:func:`explorer.budget.bootstrap_seconds`): ``"mean"`` for
    #: the metrics of an additive form (``metrics._slice_forms``), ``"count"`` for ROC
    #: AUC (``"runs"``: the Slices page's draw counts of runs of one class), ``"slow"``
    #: for one call per resample.
    path: str = "mean"
    #: Its per-row values are 0/1: without weights, Fisher's exact test; the other
    #: ``"mean"`` metrics are tested by permutation (:func:`metrics.metric_frame`).
    zero_one: bool = False


BINARY = (
    Metric("ROC AUC", metrics.roc_auc_score, path="runs"),
    Metric("Average precision", metrics.average_precision_score, path="slow"),
    Metric("Accuracy at the threshold", "accuracy", zero_one=True),
    Metric("Recall (TPR) at the threshold", "tpr", zero_one=True),
    Metric("False positive rate at the threshold", "fpr", zero_one=True),
)
METRICS: dict[str, tuple[Metric, ...]] = {
    "binary": BINARY,
    "regression": (
        Metric("MAE", metrics.mean_absolute_error),
        Metric("RMSE", metrics.root_mean_squared_error),
        Metric("R²", metrics.r2_score),
    ),
    "multiclass": (
        Metric("Accuracy", metrics.accuracy_score, "classes", zero_one=True),
        Metric("Log loss", metrics.log_loss, "proba"),
    ),
    "multilabel": (
        Metric("LRAP", metrics.label_ranking_average_precision_score),
        Metric("Coverage error", metrics.coverage_error),
        Metric("Ranking loss", metrics.label_ranking_loss),
    ),
    "graded": (Metric("NDCG", metrics.ndcg_score), Metric("DCG", metrics.dcg_score)),
}


def metric_labels(kind: str) -> tuple[str, ...]:
    """The metrics offered for data of ``kind``, by label.

    Examples
    --------
    >>> metric_labels("regression")
    ('MAE', 'RMSE', 'R²')
    """
    return tuple(m.label for m in METRICS[kind])


def metric_of(kind: str, label: str) -> Metric:
    return next(m for m in METRICS[kind] if m.label == label)


@dataclass(frozen=True)
class Settings:
    model: str
    metric: str
    by: tuple[str, ...]  # one attribute, or two
    cuts: tuple[tuple[float, ...] | None, ...] = ()  # per attribute: its cut points, or None
    threshold: float = 0.5
    #: (group label, threshold) for each group given its own (binary data): a score at or
    #: above its group's threshold predicts positive; the other groups use ``threshold``.
    group_thresholds: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Grouping:
    """Each row's group (``codes``), each group's label and its slice filter."""

    codes: np.ndarray
    labels: tuple[str, ...]
    conditions: tuple[tuple[slicing.Condition, ...], ...]


def _cuts(settings: Settings, i: int):
    return settings.cuts[i] if i < len(settings.cuts) else None


def grouping(ds: Dataset, settings: Settings) -> Grouping:
    """The groups of ``settings.by`` (a pair: one group per pair of groups holding a row).

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1, 1, 0]), {"m": np.array([.1, .8, .6, .3])},
    ...              attributes={"site": np.array(["B", "A", "B", "A"], dtype=object),
    ...                          "old": np.array([0.0, 0, 1, 1])})
    >>> g = grouping(ds, Settings("m", "ROC AUC", ("site", "old")))
    >>> g.codes.tolist(), g.labels
    ([2, 0, 3, 1], ('site = A and old = 0', 'site = A and old = 1', 'site = B and old = 0', \
'site = B and old = 1'))
    """
    parts = [slicing.groups_of(ds, a, _cuts(settings, i)) for i, a in enumerate(settings.by)]
    codes, labels = parts[0]
    conditions = [((settings.by[0], label),) for label in labels]
    if len(parts) == 2:
        codes2, labels2 = parts[1]
        pairs = codes * len(labels2) + codes2
        present, codes = np.unique(pairs, return_inverse=True)
        conditions = [
            (
                (settings.by[0], labels[p // len(labels2)]),
                (settings.by[1], labels2[p % len(labels2)]),
            )
            for p in present.tolist()
        ]
    texts = tuple(slicing.describe_slice(c) if len(parts) == 2 else c[0][1] for c in conditions)
    return Grouping(codes.astype(np.int64), texts, tuple(conditions))


def thresholds(ds: Dataset, settings: Settings, g: Grouping | None = None) -> float | np.ndarray:
    """The threshold of each row: its group's (``settings.group_thresholds``), else the
    page's; one number when no group has its own. ``g``: the settings' grouping, when
    the caller holds it (grouping 10^6 text values costs about 0.07 CPU s).

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1, 1, 0]), {"m": np.array([.1, .8, .6, .3])},
    ...              attributes={"site": np.array(["B", "A", "B", "A"], dtype=object)})
    >>> thresholds(ds, Settings("m", "ROC AUC", ("site",), group_thresholds=(("B", 0.7),)))
    array([0.7, 0.5, 0.7, 0.5])
    """
    if not settings.group_thresholds:
        return settings.threshold
    g = grouping(ds, settings) if g is None else g
    own = dict(settings.group_thresholds)
    per_group = np.array([own.get(label, settings.threshold) for label in g.labels])
    return per_group[g.codes]


def parse_group_thresholds(text: str, labels: tuple[str, ...]) -> dict[str, float]:
    """The ``?gt=`` text (``coarse:0.4;smooth:0.6``, :func:`group_thresholds_text`) as
    group label -> threshold; a group not among ``labels``, or a value that is no finite
    number, is left out.

    Examples
    --------
    >>> parse_group_thresholds("coarse:0.4;smooth:x;gone:0.1", ("coarse", "smooth"))
    {'coarse': 0.4}
    """
    try:
        pairs = slicing.parse_pairs(text)
    except slicing.GroupingError:
        return {}
    out = {}
    for label, value in pairs:
        try:
            t = float(value)
        except ValueError:
            continue
        if label in labels and np.isfinite(t) and abs(t) <= 1e12:
            out[label] = t
    return out


def group_thresholds_text(pairs) -> str:
    """Group thresholds as ``?gt=`` writes them (:func:`parse_group_thresholds` reads back).

    Examples
    --------
    >>> group_thresholds_text((("coarse", 0.4), ("a;b", 1 / 3)))
    'coarse:0.4;a%3Bb:0.3333333333333333'
    """
    return slicing.pairs_text([(label, float_text(t)) for label, t in pairs])


def arrays(ds: Dataset, model: str, metric: Metric) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, y_score)`` as ``metric`` takes them."""
    s = ds.scores[model]
    if metric.arrays == "scores":
        return ds.y_true, s
    truth = ds.y_true.argmax(axis=1)
    return truth, (s.argmax(axis=1) if metric.arrays == "classes" else s)


def check(ds: Dataset) -> str | None:
    """Why the page cannot slice ``ds``, or None."""
    if not ds.attributes:
        return "it carries no attributes (extra columns, or a side file of them)"
    if ds.retrieved is not None:
        return "its queries retrieved different documents (a run): the page does not slice runs yet"
    return None


def seconds(ds: Dataset, settings: Settings) -> float:
    """Estimated CPU seconds of the page's intervals and its search for the worst slices
    (:func:`explorer.budget.bootstrap_seconds`): resamples of every row, by the path
    :func:`metrics.metric_frame` takes for the metric, and the permutation tests' shuffles
    (:func:`explorer.budget.permutation_seconds`: the frame's one grouping, the search's
    attributes and pairs of attributes).

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.zeros(10**6), {"m": np.zeros(10**6)})
    >>> round(seconds(ds, Settings("m", "Accuracy at the threshold", ())), 1)
    9.0
    >>> seconds(ds, Settings("m", "Average precision", ())) > 60
    True
    >>> round(seconds(ds, Settings("m", "ROC AUC", ())), 1)
    4.0
    """
    metric = metric_of(ds.kind, settings.metric)
    path = metric.path
    if path != "slow":
        return budget.bootstrap_seconds(path, ds.n_samples, N_RESAMPLES) + _permutation_seconds(
            ds, metric
        )
    # one call per resample of each group (together: every row), and worst_slices'
    # resamples of all rows for its standard error
    cells = int(np.prod(ds.y_true.shape))
    return budget.bootstrap_seconds(
        "slow", ds.n_samples, N_RESAMPLES + WORST_RESAMPLES, cells=cells
    )


def _permutation_seconds(ds: Dataset, metric: Metric) -> float:
    if metric.path != "mean" or (metric.zero_one and ds.sample_weight is None):
        return 0.0  # no permutation test: DeLong's, or Fisher's exact one
    a = len(ds.attribute_names)
    worst = budget.permutation_seconds(ds.n_samples, N_PERMUTATIONS, a + a * (a - 1) // 2)
    return budget.permutation_seconds(ds.n_samples, N_PERMUTATIONS, 1) + worst


#: What each test of :attr:`metrics.SliceFrame.test` is, for the page's caption.
TESTS = {
    "exact": Phrase("Fisher's exact test of the group's share against the rest's"),
    "permutation": Phrase(
        "a permutation test: ${n:,} seeded shuffles of the rows, p = (1 + shuffles whose gap "
        "to the rest is at least the group's) / ${n1:,}",
        n=N_PERMUTATIONS,
        n1=N_PERMUTATIONS + 1,
    ),
    "subsample": Phrase(
        "a permutation test (${n:,} seeded shuffles) on ${rows:,} rows drawn by group, every "
        "group filled equally: its false-positive rate holds, its power is that of those rows",
        n=N_PERMUTATIONS,
        rows=metrics.PERMUTATION_CELLS // N_PERMUTATIONS,
    ),
    "wald": Phrase("the pooled Wald test (a normal approximation)"),
}


def p_caption(test: str, n_rows: int) -> str:
    """Which test gave the p-values, and on how many rows when it read a subsample.

    Examples
    --------
    >>> p_caption("exact", 500)
    "p: Fisher's exact test of the group's share against the rest's."
    >>> p_caption("subsample", 10**6)[-73:]
    'of 1,000,000 rows (999 shuffles of every row would take 50 times longer).'
    """
    most = metrics.PERMUTATION_CELLS // N_PERMUTATIONS
    if test == "subsample" and n_rows > most:
        return Phrase(
            "p: ${test}. It read ${most:,} of ${n:,} rows (${shuffles:,} shuffles of every "
            "row would take ${times:,.0f} times longer).",
            test=TESTS[test],
            most=most,
            n=n_rows,
            shuffles=N_PERMUTATIONS,
            times=n_rows / most,
        )
    return Phrase("p: ${test}.", test=TESTS.get(test, test))


def computed_on(ds: Dataset, settings: Settings) -> Settings:
    """The settings :func:`frame` and :func:`worst` read: a metric that is no rate at the
    threshold gets the default threshold and no group's own, so that a threshold step,
    which moves only the rates per group, finds them cached (at 10^6 rows and 50 groups
    ROC AUC's frame and search cost about 29 CPU s a step before).

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.zeros(4), {"m": np.zeros(4)})
    >>> computed_on(ds, Settings("m", "ROC AUC", ("a",), threshold=0.7)).threshold
    0.5
    >>> tpr = Settings("m", "Recall (TPR) at the threshold", ("a",), threshold=0.7)
    >>> computed_on(ds, tpr).threshold
    0.7
    """
    if isinstance(metric_of(ds.kind, settings.metric).metric, str):
        return settings
    return replace(settings, threshold=0.5, group_thresholds=())


def searched_on(ds: Dataset, settings: Settings) -> Settings:
    """The settings :func:`worst` reads: those of :func:`computed_on`, and of the
    attributes grouped by only those given cut points. The search looks at every
    attribute, so another "Group by" finds it cached (about 2 CPU s at 10^6 rows); a
    group's own threshold is named by the grouping's label, which keeps it all.

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.zeros(4), {"m": np.zeros(4)})
    >>> searched_on(ds, Settings("m", "ROC AUC", ("a", "b"), (None, (1.0,)), 0.7))
    Settings(model='m', metric='ROC AUC', by=('b',), cuts=((1.0,),), threshold=0.5, \
group_thresholds=())
    """
    settings = computed_on(ds, settings)
    if settings.group_thresholds:
        return settings
    cuts = [_cuts(settings, i) for i in range(len(settings.by))]  # () when none are given
    given = [(a, c) for a, c in zip(settings.by, cuts, strict=True) if c is not None]
    return replace(settings, by=tuple(a for a, _ in given), cuts=tuple(c for _, c in given))


def frame(
    ds: Dataset,
    settings: Settings,
    g: Grouping | None = None,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
    resampled: bool = True,
) -> metrics.SliceFrame:
    """:func:`metrics.metric_frame` of the chosen metric over the groups (codes 0..G-1);
    ``g``: the settings' grouping, when the caller holds it; ``checkpoint`` between
    groups of resamples. ``resampled=False``: the values, rests and gaps alone, no
    interval and no test (at 10^6 rows and 50 groups ROC AUC's take 0.34 CPU s where the
    frame takes 7): what the page draws while the frame is computed.

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1, 1, 0, 1, 0]),
    ...              {"m": np.array([.1, .8, .6, .3, .2, .4])},
    ...              attributes={"site": np.array(["A", "A", "A", "B", "B", "B"], dtype=object)})
    >>> f = frame(ds, Settings("m", "ROC AUC", ("site",)), resampled=False)
    >>> f.value.tolist(), bool(np.isnan(f.low).all())
    ([1.0, 0.0], True)
    """
    metric = metric_of(ds.kind, settings.metric)
    y, s = arrays(ds, settings.model, metric)
    g = grouping(ds, settings) if g is None else g
    return metrics.metric_frame(
        metric.metric,
        y,
        s,
        g.codes,
        sample_weight=ds.sample_weight,
        n_resamples=N_RESAMPLES if resampled else 0,
        threshold=thresholds(ds, settings, g),
        n_permutations=N_PERMUTATIONS if resampled else 0,
        random_state=SEED,
        checkpoint=checkpoint,
    )


def table(settings: Settings, f: metrics.SliceFrame, labels: tuple[str, ...]) -> pd.DataFrame:
    """One row per group: its label (``labels``: the grouping's), rows, value, interval,
    the difference to the overall value and the test against the rest with its
    corrected p-values; of a frame without resamples, no interval and no test."""
    out = pd.DataFrame(
        {
            "group": [labels[int(c)] for c in f.groups.tolist()],
            "rows": f.count,
            settings.metric: f.value,
            "95% low": f.low,
            "95% high": f.high,
            "− overall": f.diff_overall,
            "rest": f.rest,
            "p": f.p_value,
            "p (Holm)": f.p_holm,
            "p (BH)": f.p_bh,
        }
    )
    if f.n_resamples:
        return out
    return out[["group", "rows", settings.metric, "− overall", "rest"]]


def min_count(n_rows: int) -> int:
    """The fewest rows a discovered slice (and its rest) must hold: 30, fewer on small
    data (a twentieth of the rows, at least 5).

    Examples
    --------
    >>> min_count(228), min_count(5000), min_count(40)
    (11, 30, 5)
    """
    return max(5, min(30, n_rows // 20))


def worst(
    ds: Dataset, settings: Settings, checkpoint: Callable[[], None] = budget.no_checkpoint
) -> tuple[pd.DataFrame, list, int]:
    """The worst slices over every attribute and pair of attributes that groups
    (:func:`metrics.worst_slices`, Benjamini-Hochberg over all slices looked at): a
    table of the first :data:`WORST_SHOWN` worse than their rest, their conditions, and
    how many were tested; ``checkpoint`` before each grouping."""
    metric = metric_of(ds.kind, settings.metric)
    y, s = arrays(ds, settings.model, metric)
    columns = {}
    for a in ds.attribute_names:
        cuts = _cuts(settings, settings.by.index(a)) if a in settings.by else None
        try:
            codes, labels = slicing.groups_of(ds, a, cuts)
        except slicing.GroupingError:
            continue  # too many values to group: not looked at
        columns[a] = np.asarray(labels, dtype=object)[codes]
    found = metrics.worst_slices(
        metric.metric,
        y,
        s,
        columns,
        sample_weight=ds.sample_weight,
        min_count=min_count(ds.n_samples),
        n_resamples=WORST_RESAMPLES,
        threshold=thresholds(ds, settings),
        n_permutations=N_PERMUTATIONS,
        random_state=SEED,
        checkpoint=checkpoint,
    )
    # only slices worse than their rest, worst first
    shown = np.flatnonzero(found.effect > 0)[:WORST_SHOWN]
    conditions = [tuple((a, str(v)) for a, v in found.slices[i]) for i in shown.tolist()]
    out = pd.DataFrame(
        {
            "slice": [slicing.describe_slice(c) for c in conditions],
            "rows": found.count[shown],
            settings.metric: found.value[shown],
            "rest": found.rest[shown],
            "worse by": found.effect[shown],
            "p": found.p_value[shown],
            "p (BH)": found.p_corrected[shown],
        }
    )
    return out, conditions, int(found.tested)


RATES = (("TPR", "tpr"), ("FPR", "fpr"), ("Precision", "ppv"), ("Selection rate", "selection_rate"))


def rates(
    ds: Dataset, settings: Settings, g: Grouping | None = None
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Binary data: each group's threshold, confusion counts and rates at it (a score at
    or above it predicts positive, weighted as the data is), and the gaps between the
    best and worst group: equal opportunity (TPR) and false positive rate. ``g``: the
    settings' grouping, when the caller holds it."""
    g = grouping(ds, settings) if g is None else g
    n = len(g.labels)
    w = np.ones(ds.n_samples) if ds.sample_weight is None else ds.sample_weight
    y = ds.y_true == 1
    pred = ds.scores[settings.model] >= thresholds(ds, settings, g)
    own = dict(settings.group_thresholds)
    at = [own.get(label, settings.threshold) for label in g.labels]
    cells = {
        name: np.bincount(g.codes, weights=w * (y == t) * (pred == p), minlength=n)
        for name, t, p in (("TP", 1, 1), ("FP", 0, 1), ("FN", 1, 0), ("TN", 0, 0))
    }
    tp, fp, fn, tn = cells.values()
    with np.errstate(divide="ignore", invalid="ignore"):
        values = {
            "TPR": tp / (tp + fn),
            "FPR": fp / (fp + tn),
            "Precision": tp / (tp + fp),
            "Selection rate": (tp + fp) / (tp + fp + fn + tn),
        }
    out = pd.DataFrame({"group": g.labels, "threshold": at, **cells, **values})
    gaps = {
        "Equal opportunity difference (TPR)": _gap(values["TPR"]),
        "False positive rate difference": _gap(values["FPR"]),
    }
    return out, gaps


def _gap(v: np.ndarray) -> float:
    v = v[~np.isnan(v)]
    return float(v.max() - v.min()) if v.size else float("nan")


def gap_derivation(f: metrics.SliceFrame, labels: tuple[str, ...], metric: str) -> Derivation:
    """The gap between the best and the worst group, with the numbers in."""
    v = f.value
    if np.isnan(v).all():
        name = Phrase("${metric} gap", metric=Phrase(metric))
        return Derivation(name, "", "", note=Phrase("no group has a value"))
    hi, lo = int(np.nanargmax(v)), int(np.nanargmin(v))
    name = rf"\text{{{latex_text(metric)}}}"
    top, bottom = (rf"\text{{{latex_text(labels[int(f.groups[i])])}}}" for i in (hi, lo))
    return Derivation(
        name=Phrase("${metric}: the gap between groups", metric=Phrase(metric)),
        formula=rf"\text{{gap}} = \max_g {name}_g - \min_g {name}_g",
        latex=(
            rf"\text{{gap}} = {name}_{{{top}}} - {name}_{{{bottom}}} = "
            rf"{in_latex(fmt(v[hi]))} - {in_latex(fmt(v[lo]))} = {in_latex(fmt(v[hi] - v[lo]))}"
        ),
        value=float(v[hi] - v[lo]),
    )


def rate_derivation(row: pd.Series, rate: str) -> Derivation:
    """One group's TPR or FPR from its confusion counts."""
    num, other = ("TP", "FN") if rate == "TPR" else ("FP", "TN")
    group = rf"\text{{{latex_text(str(row['group']))}}}"
    a, b = float(row[num]), float(row[other])
    value = a / (a + b) if a + b else float("nan")
    return Derivation(
        name=Phrase("${metric} of ${group}", metric=rate, group=str(row["group"])),
        formula=rf"\text{{{rate}}} = \frac{{{num}}}{{{num} + {other}}}",
        latex=(
            rf"\text{{{rate}}}_{{{group}}} = \frac{{{fmt(a)}}}{{{fmt(a)} + {fmt(b)}}} = "
            + (in_latex(fmt(value)) if a + b else r"\text{undefined}")
        ),
        value=value,
    )


def holm_derivation(f: metrics.SliceFrame, labels: tuple[str, ...]) -> Derivation:
    """The smallest p-value corrected for the groups tested (Holm: times their number)."""
    tested = ~np.isnan(f.p_value)
    if not tested.any():
        none = Phrase("no group could be tested")
        return Derivation(Phrase("Holm-corrected p-value"), "", "", note=none)
    m, i = int(tested.sum()), int(np.nanargmin(f.p_value))
    p = float(f.p_value[i])
    group = rf"\text{{{latex_text(labels[int(f.groups[i])])}}}"
    value = min(1.0, m * p)
    return Derivation(
        name=Phrase("Holm-corrected p-value of ${group}", group=labels[int(f.groups[i])]),
        formula=r"p_{\text{Holm}} = \min(1,\ m \cdot p_{(1)})",
        latex=(
            rf"p_{{\text{{Holm}}}}({group}) = \min(1,\ {m} \times {in_latex(fmt(p))}) = "
            rf"{in_latex(fmt(value))}"
        ),
        note=Phrase("the smallest of ${m} p-values, one per group tested against its rest", m=m),
        value=value,
    )
