"""The Leaderboard: every model of the dataset ranked on one metric, with every pair
compared and the p-values corrected across the pairs.

The page model of views/leaderboard/. For the active dataset, a metric of its kind,
a test, a correction and alpha it computes with :func:`metrics.compare_models`:

- each model's value and its interval, best first, with the letters of the models it
  beats after the correction (ranx's compare report, :func:`metrics.letters`);
- the matrix of pairwise differences (row minus column) and their corrected p-values;
- per sample (per query), which model is best: the Compare page's per-sample values
  (a sample's share of pairs ranked right, its LRAP, its NDCG, its absolute error,
  right or wrong) for every model, and how often each one is alone at the top.

The resamples are estimated first (:func:`seconds`, :mod:`explorer.budget`): above the
limit of one computation no interval is resampled, DeLong and the per-sample tests
keep their p-values, and the bootstrap test is not run (:attr:`Board.note`).

No streamlit here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

import metrics
from explorer import budget
from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.leaderboard_export import ranked_rows

#: Resamples of the intervals and of the bootstrap test, and their seed (the page repeats).
N_RESAMPLES = 1000
SEED = 20261129
CONFIDENCE = 0.95
ALPHAS = (0.01, 0.05, 0.1)

#: The tests in words, by the name :func:`metrics.compare_models` takes.
TESTS = {
    "delong": "DeLong",
    "bootstrap": "paired bootstrap",
    "t": "paired t-test",
    "randomization": "randomization (Fisher)",
    "wilcoxon": "Wilcoxon signed-rank",
    "tukey": "Tukey's HSD",
}
#: The corrections in words (``"none"`` is None).
CORRECTIONS = {
    "holm": "Holm",
    "bonferroni": "Bonferroni",
    "bh": "Benjamini-Hochberg (FDR)",
    "none": "none",
}
#: The metrics where a lower value is better (errors and losses).
LOWER_IS_BETTER = ("ranking loss", "coverage error", "MAE", "MSE")
#: The tests of a metric that is a mean of per-sample (per-query) values.
MEAN_TESTS = ("t", "randomization", "wilcoxon", "tukey", "bootstrap")


@dataclass(frozen=True)
class Metric:
    """A metric of the leaderboard: its label, how it is computed from the dataset
    (``(y, score)`` as :func:`metrics.compare_models` reads them), the tests it allows
    and the budget path of its resamples (:func:`explorer.budget.bootstrap_seconds`)."""

    label: str
    tests: tuple[str, ...]
    path: str


METRICS = {
    "binary": (
        Metric("ROC AUC", ("delong", "bootstrap"), "count"),
        Metric("average precision", ("bootstrap",), "count"),
    ),
    "multilabel": (
        Metric("LRAP", MEAN_TESTS, "mean"),
        Metric("ranking loss", MEAN_TESTS, "mean"),
        Metric("coverage error", MEAN_TESTS, "mean"),
    ),
    "graded": (Metric("NDCG", MEAN_TESTS, "mean"), Metric("DCG", MEAN_TESTS, "mean")),
    "regression": (
        Metric("MAE", MEAN_TESTS, "mean"),
        Metric("MSE", MEAN_TESTS, "mean"),
        Metric("R²", ("bootstrap",), "slow"),
    ),
    "multiclass": (Metric("accuracy", MEAN_TESTS, "mean"),),
}


@dataclass(frozen=True)
class Settings:
    """What the page ranks by: a metric label, a test, a correction (``"none"`` for
    None) and alpha; the table shows the ``more`` metrics beside the first."""

    metric: str
    test: str
    correction: str
    alpha: float = 0.05
    #: The other metrics of the table, after the first (the matrix and wins are the first's).
    more: tuple[str, ...] = ()


def metric_of(ds: Dataset, label: str) -> Metric:
    """The :class:`Metric` of ``ds``'s kind named ``label``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> metric_of(load_sample("breast_cancer_five"), "ROC AUC").tests
    ('delong', 'bootstrap')
    """
    return next(m for m in METRICS[ds.kind] if m.label == label)


def each_metric(ds: Dataset, settings: Settings) -> list[Settings]:
    """The settings of each metric of the table, the first first: the same test where the
    metric takes it (else its first test, and no correction for Tukey's HSD).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> s = Settings("ROC AUC", "delong", "holm", more=("average precision",))
    >>> [(x.metric, x.test, x.more) for x in each_metric(load_sample("breast_cancer_five"), s)]
    [('ROC AUC', 'delong', ()), ('average precision', 'bootstrap', ())]
    """
    out = []
    for label in (settings.metric, *settings.more):
        tests = metric_of(ds, label).tests
        test = settings.test if settings.test in tests else tests[0]
        corr = settings.correction if settings.correction in corrections_for(test) else "none"
        out.append(Settings(label, test, corr, settings.alpha))
    return out


def corrections_for(test: str) -> tuple[str, ...]:
    """The corrections a test takes: Tukey's HSD is already family-wise (none only).

    Examples
    --------
    >>> corrections_for("tukey"), corrections_for("t")[0]
    (('none',), 'holm')
    """
    return ("none",) if test == "tukey" else tuple(CORRECTIONS)


def inputs(ds: Dataset, label: str) -> tuple[Callable, np.ndarray, dict[str, np.ndarray]]:
    """``(metric, y, scores by model)`` as :func:`metrics.compare_models` takes them.

    A multiclass dataset is compared on its classes and each model's argmax
    (accuracy); a ranking with unretrieved items passes its ``retrieved`` mask.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> fn, y, scores = inputs(load_sample("diabetes"), "MAE")
    >>> fn is metrics.mean_absolute_error, list(scores)
    (True, ['linear', 'tree'])
    """
    y = ds.y_true
    scores = {m: ds.score(m) for m in ds.model_names}
    if ds.kind == "multiclass":
        y = y.argmax(axis=1) if y.ndim == 2 else y.astype(np.int64)
        return metrics.accuracy_score, y, {m: s.argmax(axis=1) for m, s in scores.items()}
    fns = {
        "ROC AUC": metrics.roc_auc_score,
        "average precision": metrics.average_precision_score,
        "LRAP": metrics.label_ranking_average_precision_score,
        "ranking loss": metrics.label_ranking_loss,
        "coverage error": metrics.coverage_error,
        "MAE": metrics.mean_absolute_error,
        "MSE": metrics.mean_squared_error,
        "R²": metrics.r2_score,
    }
    if label in fns:
        return fns[label], y, scores
    fn = metrics.ndcg_score if label == "NDCG" else metrics.dcg_score
    if ds.retrieved is not None:
        fn = functools.partial(fn, retrieved=ds.retrieved)
    return fn, y, scores


def seconds(ds: Dataset, label: str) -> float:
    """Estimated CPU seconds of the resamples of every model on ``ds`` for ``label``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> seconds(load_sample("breast_cancer_five"), "ROC AUC") < 1
    True
    >>> from explorer.datasets import Dataset
    >>> ten = Dataset("t", "binary", np.zeros(10**6), {f"m{k}": np.zeros(10**6) for k in range(10)})
    >>> round(seconds(ten, "ROC AUC"))  # 10^6 rows, 10 models (measured: 31 CPU s, AP 44)
    63
    """
    path, m, n = metric_of(ds, label).path, len(ds.model_names), ds.n_samples
    if path == "count":  # one draw of counts for all: each model after the first adds less
        one = budget.bootstrap_seconds("count", n, N_RESAMPLES)
        return one + (m - 1) * budget.bootstrap_seconds("count_each", n, N_RESAMPLES)
    return m * budget.bootstrap_seconds(path, n, N_RESAMPLES)


@dataclass(frozen=True)
class Board:
    """What the page shows for one metric: the comparison, its ranked rows, and why the
    resamples were left out (None when they ran)."""

    result: metrics.ModelComparison
    rows: tuple[dict, ...]
    note: str | None = None

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """``(diff, p)``: ``diff[i, j]`` model i's value minus model j's, ``p[i, j]`` the
        pair's corrected p-value (NaN on the diagonal), in the order of the dataset.

        Examples
        --------
        >>> from explorer.samples import load_sample
        >>> b = board(load_sample("breast_cancer_five"), Settings("ROC AUC", "delong", "holm"))
        >>> d, p = b.matrix()
        >>> bool(d[0, 1] == -d[1, 0]), bool(p[0, 1] == p[1, 0])
        (True, True)
        """
        r = self.result
        m = len(r.names)
        diff, p = np.zeros((m, m)), np.full((m, m), np.nan)
        i, j = r.pairs[:, 0], r.pairs[:, 1]
        diff[i, j], diff[j, i] = r.diff, -r.diff
        p[i, j] = p[j, i] = r.p_adjusted
        return diff, p


def board(
    ds: Dataset,
    settings: Settings,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
    limit: float | None = None,
) -> Board:
    """Every model of ``ds`` ranked by ``settings.metric``, every pair tested.

    Over ``limit`` estimated seconds (that of one computation by default) no interval is
    resampled: DeLong keeps its normal intervals, the per-sample tests their p-values,
    and the bootstrap test is replaced by none (every p-value NaN, no letters).

    Raises
    ------
    metrics.MetricInputError
        A metric or test the data refuses (one class, no variance for Tukey, ...).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> b = board(load_sample("breast_cancer_five"), Settings("ROC AUC", "delong", "holm"))
    >>> [(r["model"], r["beats"]) for r in b.rows][:2]
    [('logreg', 'b'), ('knn', '')]
    """
    limit = budget.limits().per_run if limit is None else limit
    what = Phrase(
        "The ${n:,} bootstrap resamples of ${rows:,} rows for every model",
        n=N_RESAMPLES,
        rows=ds.n_samples,
    )
    note = budget.too_long(seconds(ds, settings.metric), what, limit)
    fn, y, scores = inputs(ds, settings.metric)
    correction = None if settings.correction == "none" else settings.correction
    options = dict(test=settings.test, correction=correction, confidence=CONFIDENCE)
    if note and settings.test == "bootstrap":
        result = _values_only(fn, y, scores, settings)
    else:
        result = metrics.compare_models(
            fn, y, scores, **options, random_state=SEED, checkpoint=checkpoint,
            higher_is_better=settings.metric not in LOWER_IS_BETTER,
            n_resamples=None if note else N_RESAMPLES,
        )  # fmt: skip
    return Board(result, tuple(ranked_rows(result, settings.alpha)), note)


def _values_only(fn, y, scores, settings: Settings) -> metrics.ModelComparison:
    """The comparison without any resample: each model's value and each pair's difference,
    no interval, no p-value (the bootstrap test over the budget)."""
    names = tuple(scores)
    estimate = np.array([float(fn(y, s)) for s in scores.values()])
    m = len(names)
    pairs = np.array([(i, j) for i in range(m) for j in range(i + 1, m)], dtype=np.intp)
    nan_m, nan_p = np.full(m, np.nan), np.full(pairs.shape[0], np.nan)
    higher = settings.metric not in LOWER_IS_BETTER
    diff = estimate[pairs[:, 0]] - estimate[pairs[:, 1]]
    return metrics.ModelComparison(
        names, estimate, nan_m, nan_m, pairs, diff, nan_p, nan_p, nan_p, nan_p,
        settings.test, None, CONFIDENCE, higher,
    )  # fmt: skip


# ------------------------------------------------------------------ per sample
def per_sample(ds: Dataset) -> tuple[str, np.ndarray, bool]:
    """``(what, values, higher_is_better)``: every model's per-sample value (the Compare
    page's), one column a model, shape ``(n_samples, n_models)``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> what, v, higher = per_sample(load_sample("diabetes"))
    >>> what, v.shape, higher
    ('absolute error', (200, 2), False)
    """
    y, names = ds.y_true, ds.model_names
    if ds.kind == "binary":
        if not 0 < y.sum() < y.size:
            return "", np.zeros((y.size, 0)), True
        with np.errstate(invalid="ignore", divide="ignore"):
            cols = [metrics.auc_placements(y, ds.score(m)) for m in names]
        return "pairs ranked right", np.column_stack(cols), True
    if ds.kind == "multilabel":
        cols = [metrics.lrap_per_sample(y, ds.score(m)) for m in names]
        return "LRAP", np.column_stack(cols), True
    if ds.kind == "graded":
        cols = [metrics.ndcg_per_sample(y, ds.score(m), retrieved=ds.retrieved) for m in names]
        return "NDCG", np.column_stack(cols), True
    if ds.kind == "regression":
        return "absolute error", np.column_stack([np.abs(y - ds.score(m)) for m in names]), False
    t = y.argmax(axis=1) if y.ndim == 2 else y.astype(np.int64)
    cols = [(ds.score(m).argmax(axis=1) == t).astype(float) for m in names]
    return "right (1) or wrong (0)", np.column_stack(cols), True


def best_counts(values: np.ndarray, higher_is_better: bool) -> pd.DataFrame:
    """How often each model (column) is best on a sample (row): alone, or tied with others
    at the top; a sample where every model ties is counted in neither.

    Examples
    --------
    >>> v = np.array([[0.9, 0.5, 0.5], [0.2, 0.8, 0.8], [0.4, 0.4, 0.4]])
    >>> best_counts(v, True)[["alone", "tied"]].values.tolist()
    [[1, 0], [0, 1], [0, 1]]
    """
    v = values if higher_is_better else -values
    finite = np.isfinite(v).all(axis=1)
    v = v[finite]
    top = v == v.max(axis=1, keepdims=True)
    n_top = top.sum(axis=1)
    some = n_top < v.shape[1]  # not every model tied
    alone = (top & (n_top == 1)[:, None]).sum(axis=0)
    tied = (top & ((n_top > 1) & some)[:, None]).sum(axis=0)
    counted = int(finite.sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        share = alone / counted if counted else np.full(alone.shape, np.nan)
    return pd.DataFrame({"alone": alone, "tied": tied, "share alone": share})


def wins(ds: Dataset) -> tuple[str, pd.DataFrame]:
    """``(what, table)``: per model, how many samples (queries) it is best on.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> what, t = wins(load_sample("diabetes"))
    >>> list(t.columns), int(t["alone"].sum()) <= 200
    (['model', 'alone', 'tied', 'share alone'], True)
    """
    what, values, higher = per_sample(ds)
    if values.shape[1] == 0:
        return what, pd.DataFrame(columns=["model", "alone", "tied", "share alone"])
    counts = best_counts(values, higher)
    counts.insert(0, "model", list(ds.model_names))
    return what, counts


def explanation(rows, settings: Settings, quote: Callable[[str], str] = str) -> str:
    """The letters in words, under the table: which model beats which (each model name
    through ``quote``: the view escapes it for Markdown).

    Examples
    --------
    >>> rows = [{"letter": "a", "model": "x", "beats": "b"}, {"letter": "b", "model": "y",
    ...     "beats": ""}]
    >>> explanation(rows, Settings("ROC AUC", "delong", "holm"))[:60]
    'Each model has a letter (a for the first model of the datase'
    """
    by_letter = {r["letter"]: r["model"] for r in rows}
    said = [
        Phrase(
            "${model} (${letter}) beats ${others}",
            model=quote(r["model"]),
            letter=r["letter"],
            others=", ".join(f"{quote(by_letter[k])} ({k})" for k in _letters(r["beats"])),
        )
        for r in rows
        if r["beats"]
    ]
    head = Phrase(
        "Each model has a letter (a for the first model of the dataset, b for the second...). "
        "The letters after a value are those of the models it beats: its ${metric} is better "
        "and the ${test} p-value of the pair, corrected across all pairs (${correction}), is "
        "at most ${alpha:g}.",
        metric=Phrase(settings.metric),
        test=Phrase(TESTS[settings.test]),
        correction=Phrase(CORRECTIONS[settings.correction]),
        alpha=settings.alpha,
    )
    if not said:
        return Phrase("${head} No model beats another here.", head=head)
    joined = said[0]
    for more in said[1:]:
        joined = Phrase("${a}; ${b}", a=joined, b=more)
    return Phrase("${head} Here: ${said}.", head=head, said=joined)


def _letters(text: str) -> list[str]:
    """The letters of ``beats`` (``a``, ``b``, ``a1``...).

    Examples
    --------
    >>> _letters("bca1d")
    ['b', 'c', 'a1', 'd']
    """
    out: list[str] = []
    for ch in text:
        if ch.isdigit() and out:
            out[-1] += ch
        else:
            out.append(ch)
    return out
