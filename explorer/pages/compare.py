"""Compare two models: is B better than A, how sure, and on which samples?

The page model of views/compare.py. For the active dataset and two of its
models it computes, with :mod:`metrics.compare`:

- each headline metric for A and B, the difference B - A, its confidence
  interval and a test (DeLong for ROC AUC, a paired t-test on the per-sample
  values of the means, a paired bootstrap for the rest);
- one per-sample value for both models, to list the samples that changed
  most both ways and to draw A against B.

"Better" follows the metric: for a loss (log loss, coverage, MAE) B is better
when its value is lower. The column ``B better by`` is signed so that a
positive number always means B did better.

The bootstraps are estimated first (:func:`bootstrap_seconds`, :mod:`explorer.budget`):
over the limit of one computation none runs, and the page says so
(:attr:`Comparison.note`): the means keep their paired t-test without an interval,
ROC AUC its DeLong test, and average precision and R² (bootstrap only) show their
two values without a test. A ``checkpoint`` is called between blocks of resamples.

No streamlit here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

import metrics
from explorer import budget
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.i18n import Phrase
from explorer.pages import multiclass
from explorer.pages.compare_points import Points, points

#: Resamples of the paired bootstraps, and their seed (the page's numbers repeat).
N_RESAMPLES = 2000
SEED = 20261126
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Row:
    """One headline metric of A and B compared."""

    label: str
    a: float
    b: float
    better_by: float  # positive: B better (lower for a loss)
    low: float  # confidence interval of b - a
    high: float
    test: str
    p_value: float
    higher_is_better: bool
    #: Why there is no test (p_value nan) or no interval (low, high nan); "" when both are.
    why: str = ""

    @property
    def diff(self) -> float:
        """``b - a`` as the metric reads (not signed by which way is better)."""
        return self.b - self.a


@dataclass(frozen=True)
class Comparison:
    """Everything the Compare page shows for one pair of models."""

    model_a: str
    model_b: str
    rows: tuple[Row, ...]
    per_sample: str  # what the per-sample values are, e.g. "LRAP"
    per_sample_help: str
    a_values: np.ndarray
    b_values: np.ndarray
    higher_is_better: bool
    note: str | None = None  # why the bootstraps were not run
    #: The scatter's dots (:func:`points`), computed once with the comparison.
    drawn: Points | None = None

    def changed(self, ds: Dataset, n: int = 10) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The ``n`` samples where B lost most, and the ``n`` where it won most: each
        with its row, id, label (:func:`sample_facts`: and both models' scores where a
        sample has one score), its per-sample values A and B and the gain.

        Examples
        --------
        >>> from explorer.samples import load_sample
        >>> ds = load_sample("diabetes")
        >>> losses, wins = compare(ds, "linear", "tree").changed(ds, n=2)
        >>> list(losses.columns)
        ['row', 'sample', 'label', 'A score', 'B score', 'A', 'B', 'B better by']
        >>> bool((losses["B better by"] <= wins["B better by"].min()).all())
        True
        """
        sign = 1.0 if self.higher_is_better else -1.0
        gain = sign * (self.b_values - self.a_values)
        order = np.argsort(gain, kind="stable")
        low, high = order[:n], order[::-1][:n]
        return (
            self._rows(ds, low[gain[low] < 0], gain),
            self._rows(ds, high[gain[high] > 0], gain),
        )

    def _rows(self, ds: Dataset, rows: np.ndarray, gain: np.ndarray) -> pd.DataFrame:
        ids = ds.sample_ids
        frame = pd.DataFrame({"row": rows, "sample": [ids[i] for i in rows]})
        for name, values in sample_facts(ds, self.model_a, self.model_b, rows).items():
            frame[name] = values
        frame["A"], frame["B"] = self.a_values[rows], self.b_values[rows]
        frame["B better by"] = gain[rows]
        return frame

    def counts(self) -> tuple[int, int, int]:
        """How many samples B did better on, worse on, and the same.

        Examples
        --------
        >>> from explorer.samples import load_sample
        >>> sum(compare(load_sample("diabetes"), "linear", "tree").counts())
        200
        """
        sign = 1.0 if self.higher_is_better else -1.0
        gain = sign * (self.b_values - self.a_values)
        return int((gain > 0).sum()), int((gain < 0).sum()), int((gain == 0).sum())


def sample_facts(ds: Dataset, model_a: str, model_b: str, rows: np.ndarray) -> dict:
    """What a "where B won or lost" row shows of its sample besides its id: the label
    and, where a sample has one score per model, both scores (binary, regression); a
    multiclass sample's class and each model's score for it; a matrix kind's number of
    relevant labels (its scores are a row each, too wide for the table).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("balanced")
    >>> facts = sample_facts(ds, "good", "weak", np.array([0]))
    >>> list(facts), bool(facts["A score"][0] == ds.score("good")[0])
    (['label', 'A score', 'B score'], True)
    """
    rows = np.asarray(rows, dtype=np.int64)
    sa, sb = ds.score(model_a)[rows], ds.score(model_b)[rows]
    y = ds.y_true[rows]
    if ds.kind == "multiclass":
        cls = y.argmax(axis=1) if y.ndim == 2 else y.astype(np.int64)
        names = ds.label_names
        return {
            "label": [str(names[c]) if names else str(c) for c in cls],
            "A score": sa[np.arange(rows.size), cls],
            "B score": sb[np.arange(rows.size), cls],
        }
    if y.ndim == 2:
        return {"relevant labels": (y > 0).sum(axis=1)}
    return {"label": y.astype(np.int64) if ds.kind == "binary" else y, "A score": sa, "B score": sb}


def difference_line(row: Row) -> str:
    """The headline difference derived from the two numbers beside it, ending in its
    own digits: ``ROC AUC: B - A = 0.8500 - 0.8000 = 0.05000``.

    Examples
    --------
    >>> difference_line(Row("ROC AUC", 0.80, 0.85, 0.05, 0.01, 0.09, "DeLong test", 0.012, True))
    'ROC AUC: B - A = 0.8500 - 0.8000 = 0.05000'
    """
    return Phrase(
        "${label}: B - A = ${b} - ${a} = ${diff}",
        label=Phrase(row.label),
        b=fmt(row.b),
        a=fmt(row.a),
        diff=fmt(row.diff),
    )


def verdict(row: Row, a: str = "A", b: str = "B") -> str:
    """The test of ``row`` in words a student understands.

    Examples
    --------
    >>> import textwrap
    >>> r = Row("ROC AUC", 0.80, 0.85, 0.05, 0.01, 0.09, "DeLong test", 0.012, True)
    >>> print(textwrap.fill(verdict(r), 88))
    B is better: B's ROC AUC is higher by 0.05000 (95% interval of B - A: 0.01000 to
    0.09000). If A and B were equally good, a difference this large would show up by chance
    in about 1.2% of datasets like this one (DeLong test, p = 0.012).
    """
    fields = {"a": a, "b": b, "label": Phrase(row.label), "size": fmt(abs(row.diff))}
    ci = Phrase(
        "${confidence} interval of ${b} - ${a}: ${low} to ${high}",
        confidence=f"{CONFIDENCE:.0%}",
        a=a,
        b=b,
        low=fmt(row.low),
        high=fmt(row.high),
    )
    if not math.isfinite(row.low):
        ci = Phrase("no bootstrap interval on data this large")
    if row.test == SKIPPED:
        return Phrase(
            "No test: the ${label} of ${a} and ${b} is compared by a bootstrap (${ci}).",
            ci=ci,
            **fields,
        )
    if row.why or not math.isfinite(row.p_value):
        return _no_test(row, ci)
    higher = row.diff >= 0
    if row.p_value < 0.05 and row.better_by != 0:
        who = b if row.better_by > 0 else a
        if higher:
            head = Phrase(
                "${who} is better: ${b}'s ${label} is higher by ${size} (${ci}).",
                who=who,
                ci=ci,
                **fields,
            )
        else:
            head = Phrase(
                "${who} is better: ${b}'s ${label} is lower by ${size} (${ci}).",
                who=who,
                ci=ci,
                **fields,
            )
    elif higher:
        head = Phrase(
            "No clear difference: ${b}'s ${label} is higher by ${size} (${ci}), an interval "
            "that includes 0 or nearly so.",
            ci=ci,
            **fields,
        )
    else:
        head = Phrase(
            "No clear difference: ${b}'s ${label} is lower by ${size} (${ci}), an interval "
            "that includes 0 or nearly so.",
            ci=ci,
            **fields,
        )
    return Phrase(
        "${head} If ${a} and ${b} were equally good, a difference this large would show up "
        "by chance in ${chance} datasets like this one (${test}, ${p}).",
        head=head,
        chance=_chance(row.p_value),
        test=Phrase(row.test),
        p=_p(row.p_value),
        **fields,
    )


def _no_test(row: Row, ci: str) -> str:
    """The verdict of a row without a test: why, and the interval when there is one.

    Examples
    --------
    >>> r = Row("MAE", 1.0, 1.0, 0.0, 0.0, 0.0, "paired t-test", math.nan, False,
    ...         "A and B have the same MAE on every sample.")
    >>> _no_test(r, "95% interval of B - A: 0 to 0")
    'No test: A and B have the same MAE on every sample. 95% interval of B - A: 0 to 0.'
    """
    label = Phrase(row.label)
    why = row.why or Phrase("the ${label} of A and B cannot be compared on this data.", label=label)
    if not math.isfinite(row.diff):
        return Phrase("No ${label}: ${why}", label=label, why=why)
    if not (math.isfinite(row.low) and math.isfinite(row.high)):
        return Phrase("No test and no interval: ${why}", why=why)
    return Phrase("No test: ${why} ${ci}.", why=why, ci=ci)


def _p(p: float) -> str:
    return f"p = {p:.2g}" if p >= 1e-4 else "p < 0.0001"


def _chance(p: float) -> str:
    if p < 1e-4:
        return Phrase("fewer than 1 in 10,000")
    pct = 100 * p
    return Phrase("about ${pct}% of", pct=f"{pct:.2g}" if pct < 10 else f"{pct:.0f}")


# ------------------------------------------------------------------ the metrics
#: The test of a row whose bootstrap was not run (over the budget).
SKIPPED = "bootstrap not run"


@dataclass(frozen=True)
class _Boot:
    """Whether the bootstraps run, and the checkpoint between their blocks."""

    run: bool = True
    checkpoint: Callable[[], None] = budget.no_checkpoint


#: Why a row has neither a test nor an interval: one sample.
ONE_SAMPLE = Phrase("there is one sample; a test and an interval need at least two.")
#: Why no row has a test: the two models' scores are the same array.
SAME_SCORES = Phrase(
    "A and B give every sample the same score, so every metric is the same for both and "
    "B - A is 0 on every resample: there is nothing to test."
)
NAN = math.nan


def _boot_p(dist: np.ndarray) -> float:
    """Two-sided bootstrap p-value of "no difference": twice the smaller tail at 0."""
    dist = dist[np.isfinite(dist)]
    if dist.size == 0:
        return NAN
    return float(min(1.0, 2 * min((dist <= 0).mean(), (dist >= 0).mean())))


def _bootstrap_row(label, fn, y, sa, sb, higher_is_better, boot: _Boot) -> Row:
    """A metric that is not a mean: its interval and test from a paired bootstrap."""
    boot.checkpoint()  # each row is a second of work at 10^6 rows, bootstrap or not
    sign = -1.0 if higher_is_better else 1.0  # B better by = +-(b - a)
    row = Row(label, NAN, NAN, NAN, NAN, NAN, "paired bootstrap", NAN, higher_is_better)
    try:
        a, b = float(fn(y, sa)), float(fn(y, sb))
    except metrics.MetricInputError as exc:
        return replace(row, why=str(exc))
    row = replace(row, a=a, b=b, better_by=sign * (a - b))
    if y.shape[0] < 2:
        return replace(row, why=ONE_SAMPLE)
    if np.array_equal(sa, sb):  # every resample's difference is 0: no need to draw them
        return replace(row, low=0.0, high=0.0, why=SAME_SCORES)
    if not boot.run:
        return replace(row, test=SKIPPED)
    try:
        res = metrics.paired_bootstrap_diff(
            fn,
            y,
            sa,
            sb,
            n_resamples=N_RESAMPLES,
            confidence=CONFIDENCE,
            random_state=SEED,
            checkpoint=boot.checkpoint,
        )
    except metrics.MetricInputError as exc:
        why = Phrase(
            "the resamples of ${label} cannot be scored: ${error}",
            label=Phrase(label),
            error=str(exc),
        )
        return replace(row, why=why)
    # paired_bootstrap_diff gives metric(a) - metric(b)
    low, high = sorted((sign * res.low, sign * res.high))
    p = _boot_p(res.distribution)
    why = (
        ""
        if math.isfinite(p)
        else Phrase("no resample gave a finite ${label}.", label=Phrase(label))
    )
    return replace(row, low=low, high=high, p_value=p, why=why)


def _no_spread(label: str, d: np.ndarray) -> str:
    """Why the paired t-test is undefined on differences ``d`` ("" when it is defined):
    the same condition as :func:`metrics.paired_test`."""
    if float(d.std(ddof=1)) != 0:
        return ""
    if d[0] == 0:
        return Phrase(
            "A and B have the same ${label} on every sample: B - A is 0 with no spread to test.",
            label=Phrase(label),
        )
    return Phrase(
        "B - A is ${d} on every sample: with no spread between samples the paired t-test is "
        "undefined.",
        d=fmt(float(d[0])),
    )


def _mean_row(label, va, vb, higher_is_better, boot: _Boot) -> Row:
    """A mean over samples: a paired t-test, its interval from a paired bootstrap."""
    boot.checkpoint()
    d = vb - va
    better_by = float(d.mean()) if higher_is_better else -float(d.mean())
    row = Row(
        label, float(va.mean()), float(vb.mean()), better_by, NAN, NAN,
        "paired t-test", NAN, higher_is_better,
    )  # fmt: skip
    if d.size < 2:
        return replace(row, why=ONE_SAMPLE)
    why = _no_spread(label, d)
    if why:  # every resample's mean is d[0]: the interval is that one point
        return replace(row, low=float(d[0]), high=float(d[0]), why=why)
    p = metrics.paired_test(vb, va, method="t").p_value
    if not boot.run:
        return replace(row, p_value=p)
    ci = metrics.bootstrap_ci(
        np.mean,
        d,
        n_resamples=N_RESAMPLES,
        confidence=CONFIDENCE,
        random_state=SEED,
        checkpoint=boot.checkpoint,
    )
    return replace(row, low=ci.low, high=ci.high, p_value=p)


def _roc_row(y, sa, sb) -> Row:
    """ROC AUC with DeLong's test, or the two AUCs and why DeLong cannot be had."""
    try:  # DeLong needs two samples of each class for its covariance
        r = metrics.delong_test(y, sa, sb)
    except metrics.MetricInputError:
        a, b = metrics.roc_auc_score(y, sa), metrics.roc_auc_score(y, sb)
        pos = int(y.sum())
        why = Phrase(
            "DeLong's test needs at least two positives and two negatives; this data has "
            "${pos} positive(s) and ${neg} negative(s).",
            pos=pos,
            neg=y.size - pos,
        )
        return Row("ROC AUC", a, b, b - a, NAN, NAN, "DeLong test", NAN, True, why)
    z = 1.959963984540054
    return Row(
        "ROC AUC", r.auc_a, r.auc_b, -r.diff, -r.diff - z * r.se, -r.diff + z * r.se,
        "DeLong test", r.p_value, True,
    )  # fmt: skip


def _binary(ds: Dataset, sa, sb, boot: _Boot) -> Comparison:
    y = ds.y_true
    rows = []
    if 0 < y.sum() < y.size:
        boot.checkpoint()
        rows.append(_roc_row(y, sa, sb))
        rows.append(
            _bootstrap_row(
                "average precision", metrics.average_precision_score, y, sa, sb, True, boot
            )
        )
    probs = all(((s >= 0) & (s <= 1)).all() for s in (sa, sb))
    if probs:
        la = metrics.log_loss_per_sample(y, sa, labels=[0, 1])  # one class: still defined
        lb = metrics.log_loss_per_sample(y, sb, labels=[0, 1])
        if np.isfinite(la).all() and np.isfinite(lb).all():
            rows.append(_mean_row("log loss", la, lb, False, boot))
    if 0 < y.sum() < y.size:
        w = ds.sample_weight
        boot.checkpoint()
        with np.errstate(invalid="ignore", divide="ignore"):  # a class of weight 0: nan
            pa = metrics.auc_placements(y, sa, sample_weight=w)
            boot.checkpoint()
            pb = metrics.auc_placements(y, sb, sample_weight=w)
        return Comparison(
            "", "", tuple(rows), "pairs ranked right",
            "A positive's share of negatives scored below it; a negative's share of "
            "positives scored above it (ties count 1/2). ROC AUC is the mean over either "
            "class.",
            pa, pb, True,
        )  # fmt: skip
    if rows:  # one class: the log loss is the one headline, its terms the per-sample values
        return Comparison(
            "", "", tuple(rows), "log-loss term", "Each sample's -log p(its class).",
            la, lb, False,
        )  # fmt: skip
    return Comparison("", "", (), "", "", np.zeros(0), np.zeros(0), True)


def _multilabel(ds: Dataset, sa, sb, boot: _Boot) -> Comparison:
    y = ds.y_true
    la, lb = metrics.lrap_per_sample(y, sa), metrics.lrap_per_sample(y, sb)
    rows = (
        _mean_row("LRAP", la, lb, True, boot),
        _mean_row(
            "ranking loss",
            metrics.ranking_loss_per_sample(y, sa),
            metrics.ranking_loss_per_sample(y, sb),
            False,
            boot,
        ),
        _mean_row(
            "coverage error",
            metrics.coverage_per_sample(y, sa),
            metrics.coverage_per_sample(y, sb),
            False,
            boot,
        ),
    )
    return Comparison(
        "", "", rows, "LRAP",
        "Each sample's label ranking average precision (the Label ranking page derives it).",
        la, lb, True,
    )  # fmt: skip


def _graded(ds: Dataset, sa, sb, boot: _Boot) -> Comparison:
    y, seen = ds.y_true, {"retrieved": ds.retrieved}  # both models ranked the same run
    na, nb = metrics.ndcg_per_sample(y, sa, **seen), metrics.ndcg_per_sample(y, sb, **seen)
    da, db = metrics.dcg_per_sample(y, sa, **seen), metrics.dcg_per_sample(y, sb, **seen)
    rows = (
        _mean_row("NDCG", na, nb, True, boot),
        _mean_row("DCG", da, db, True, boot),
    )
    return Comparison(
        "", "", rows, "NDCG",
        "Each query's NDCG over all its items (the DCG & NDCG page derives it).",
        na, nb, True,
    )  # fmt: skip


def _regression(ds: Dataset, pa, pb, boot: _Boot) -> Comparison:
    y = ds.y_true
    ea, eb = np.abs(y - pa), np.abs(y - pb)
    rows = (
        _mean_row("MAE", ea, eb, False, boot),
        _mean_row("MSE", ea**2, eb**2, False, boot),
        _bootstrap_row("R²", metrics.r2_score, y, pa, pb, True, boot),
    )
    return Comparison(
        "", "", rows, "absolute error", "Each sample's |y - y_hat| (lower is better).",
        ea, eb, False,
    )  # fmt: skip


def _multiclass(ds: Dataset, sa, sb, boot: _Boot) -> Comparison:
    """Accuracy (argmax right) and, when both are probabilities, log loss: means over
    samples (the Multiclass classification page's first and sixth headline)."""
    t = ds.y_true.argmax(axis=1)
    ca = (sa.argmax(axis=1) == t).astype(float)
    cb = (sb.argmax(axis=1) == t).astype(float)
    rows = [_mean_row("Accuracy", ca, cb, True, boot)]
    if multiclass.probability_problem(sa) is None and multiclass.probability_problem(sb) is None:
        k = np.arange(sa.shape[1])
        la = np.asarray(metrics.log_loss_per_sample(t, sa, labels=k), dtype=float)
        lb = np.asarray(metrics.log_loss_per_sample(t, sb, labels=k), dtype=float)
        rows.append(_mean_row("Log loss", la, lb, False, boot))
    return Comparison(
        "", "", tuple(rows), "right (1) or wrong (0)", "Whether each sample's argmax is its class.",
        ca, cb, True,
    )  # fmt: skip


KINDS = {
    "binary": _binary,
    "multilabel": _multilabel,
    "graded": _graded,
    "regression": _regression,
    "multiclass": _multiclass,
}


#: The bootstraps of each kind: (path of explorer.budget, how many), at most.
BOOTSTRAPS = {
    "binary": (("count2", 1), ("mean", 1)),
    "multilabel": (("mean", 3),),
    "graded": (("mean", 2),),
    "regression": (("mean", 2), ("slow2", 1)),
    "multiclass": (("mean", 2),),
}


def bootstrap_seconds(kind: str, n: int) -> float:
    """Estimated CPU seconds of the Compare page's bootstraps on ``n`` rows of ``kind``
    (the R² of regression: two metric calls per resample).

    Examples
    --------
    >>> round(bootstrap_seconds("binary", 1_000_000))  # AP of two models, the log loss
    54
    """
    total = 0.0
    for path, times in BOOTSTRAPS[kind]:
        if path == "slow2":
            total += 2 * times * budget.bootstrap_seconds("slow", n, N_RESAMPLES)
        else:
            total += times * budget.bootstrap_seconds(path, n, N_RESAMPLES)
    return total


def _same(row: Row) -> Row:
    """``row`` of one model compared with itself: no test, and why (a metric undefined
    on the data keeps its own reason)."""
    return replace(row, p_value=NAN, why=SAME_SCORES) if math.isfinite(row.diff) else row


def first_numbers(
    ds: Dataset, model_a: str, model_b: str, checkpoint: Callable[[], None] = budget.no_checkpoint
) -> Comparison:
    """:func:`compare` without its bootstraps: what the page shows at once, while the
    intervals are computed (seconds at 10^6 rows: ``checkpoint`` called between the
    metrics, as in :func:`compare`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> c = first_numbers(load_sample("balanced"), "good", "weak")
    >>> [(r.label, r.low != r.low) for r in c.rows], c.note
    ([('ROC AUC', False), ('average precision', True), ('log loss', True)], None)
    """
    return compare(ds, model_a, model_b, checkpoint, intervals=False)


def compare(
    ds: Dataset,
    model_a: str,
    model_b: str,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
    limit: float | None = None,
    intervals: bool = True,
) -> Comparison:
    """Compare two models of ``ds`` on every headline metric of its kind.

    Parameters
    ----------
    ds : Dataset
        The active dataset, with at least two models.
    model_a, model_b : str
        Two of ``ds.model_names`` (A is the reference).
    checkpoint : callable
        Called between blocks of bootstrap resamples and between the metrics (with or
        without bootstraps, each takes about a second at 10^6 rows); it may raise to
        stop the comparison.
    limit : float, optional
        Most estimated CPU seconds of the bootstraps (that of one computation,
        :func:`explorer.budget.limits`, by default); over it they are not run.
    intervals : bool
        False: no bootstrap at all and no note (the page's first numbers, shown at
        once while the bootstraps run: values, differences, DeLong and the t-tests).

    Returns
    -------
    Comparison

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> c = compare(load_sample("balanced"), "good", "weak")
    >>> [r.label for r in c.rows]
    ['ROC AUC', 'average precision', 'log loss']
    >>> r = c.rows[0]
    >>> round(r.a, 4) == round(metrics.roc_auc_score(load_sample("balanced").y_true,
    ...     load_sample("balanced").score("good")), 4)
    True
    """
    if ds.kind not in KINDS:
        raise ValueError(f"no comparison for {ds.kind} data")
    limit = budget.limits().per_run if limit is None else limit
    n = ds.n_samples
    what = Phrase("The ${n:,} bootstrap resamples of ${rows:,} rows", n=N_RESAMPLES, rows=n)
    note = budget.too_long(bootstrap_seconds(ds.kind, n), what, limit) if intervals else None
    sa, sb = ds.score(model_a), ds.score(model_b)
    c = KINDS[ds.kind](ds, sa, sb, _Boot(intervals and note is None, checkpoint))
    rows = c.rows
    if np.array_equal(sa, sb) and n > 1:  # one model under two names
        rows = tuple(_same(r) for r in rows)
    checkpoint()  # the scatter's reduction: seconds at 10^6 rows
    return Comparison(
        model_a, model_b, rows, c.per_sample, c.per_sample_help, c.a_values, c.b_values,
        c.higher_is_better, note=note, drawn=points(c.a_values, c.b_values),
    )  # fmt: skip
