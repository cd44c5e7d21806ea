"""What each scenario changes, and its numbers before and after the change.

A scenario (:mod:`explorer.scenarios`) sets a moment worth a guess; its effect names
the one thing that changes (a setting, the scores, the labels) and gives the numbers
the class is asked about on both sides of that change, computed by :mod:`metrics`
from the scenario's own data. The pages draw it beside the scenario
(:func:`explorer.ui.widgets.scenarios`); the tests hold each scenario's claim
against these numbers.

Pure (no Streamlit).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import metrics
from explorer import scenarios
from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.links import decode_dataset
from explorer.samples import load_sample


@dataclass(frozen=True)
class Row:
    """One number before and after the change."""

    metric: str
    before: float
    after: float

    @property
    def difference(self) -> float:
        """``after - before``.

        Examples
        --------
        >>> Row("DCG", 9.5, 5.5).difference
        -4.0
        """
        return self.after - self.before


@dataclass(frozen=True)
class Effect:
    """A scenario's change: what changes, the two sides' names, the numbers, and why a
    number does not move when one does not (``note``)."""

    changes: str
    before: str
    after: str
    rows: tuple[Row, ...]
    note: str = ""


def dataset_of(sc: scenarios.Scenario) -> Dataset:
    """The dataset a scenario opens (a bundled sample or its packed data).

    Examples
    --------
    >>> dataset_of(scenarios.for_page("dcg")[0]).name
    'seed001_dcg'
    """
    params = dict(sc.params)
    return load_sample(params["ds"]) if "ds" in params else decode_dataset(params["data"])


def _binary(before: Dataset, after: Dataset, mb: str | None = None, ma: str | None = None):
    """ROC AUC and average precision of two binary datasets (or models)."""
    rows = []
    for name, f in (("ROC AUC", metrics.roc_auc_score), ("AP", metrics.average_precision_score)):
        rows.append(Row(name, f(before.y_true, before.score(mb)), f(after.y_true, after.score(ma))))
    return rows


def _home_perfect() -> Effect:
    rows = _binary(load_sample("random"), load_sample("perfect"))
    gini = Row("Gini", 2 * rows[0].before - 1, 2 * rows[0].after - 1)
    return Effect(
        "the scores: unrelated to the labels, then every positive above every negative",
        "random scores",
        "perfect ranking",
        (*rows, gini),
    )


def _home_random() -> Effect:
    rows = _binary(load_sample("balanced"), load_sample("random"), "good")
    gini = Row("Gini", 2 * rows[0].before - 1, 2 * rows[0].after - 1)
    return Effect(
        "the scores: a good model's, then coin flips", "good model", "random scores", (*rows, gini)
    )


def _home_rare() -> Effect:
    return Effect(
        "the share of positives: half of the samples, then 8%",
        "50% positives",
        "8% positives",
        tuple(_binary(load_sample("balanced"), load_sample("imbalanced"), "good")),
    )


def _curves_flip() -> Effect:
    base, flipped = load_sample("balanced"), scenarios.flipped_label()
    rows = _binary(base, flipped, "good", "good")
    s = base.score("good")
    loss = Row("Log loss", metrics.log_loss(base.y_true, s), metrics.log_loss(flipped.y_true, s))
    return Effect(
        "one label: the most confident positive becomes a negative",
        "labels as given",
        "one label flipped",
        (rows[0], loss),
    )


def _curves_ties() -> Effect:
    ds = load_sample("heavy_ties")
    y, s = ds.y_true, ds.score()
    # a tiny jitter in sample order breaks every tie and moves no score past another value
    apart = s + np.arange(s.size) * 1e-9
    points = [len(metrics.roc_curve(y, v, drop_intermediate=False)[0]) for v in (apart, s)]
    aucs = [metrics.roc_auc_score(y, v) for v in (apart, s)]
    return Effect(
        "the scores: every tie broken by a tiny nudge (in sample order), then the 5 tied values",
        "ties broken",
        "tied scores",
        (Row("ROC AUC", *aucs), Row("ROC points", *points)),
        "a tie of positives and negatives is one diagonal step of the curve and counts 1/2 in AUC",
    )


def _label_ranking(y, s) -> list[float]:
    return [
        metrics.label_ranking_average_precision_score(y, s),
        metrics.coverage_error(y, s),
        metrics.label_ranking_loss(y, s),
    ]


def _lr_tutorial() -> Effect:
    ds = load_sample("seed003_lrap")
    y, s = ds.y_true, ds.score()
    first, every = _label_ranking(y[:1], s[:1]), _label_ranking(y, s)
    names = ("LRAP", "Coverage error", "Ranking loss")
    return Effect(
        "the samples averaged: the first one alone, then all three",
        "sample 0 alone",
        "mean of the 3 samples",
        tuple(Row(n, a, b) for n, a, b in zip(names, first, every, strict=True)),
    )


def _lr_one_true() -> Effect:
    ds = load_sample("digits")
    y, s = ds.y_true, ds.score()
    mrr = metrics.mean_reciprocal_rank(y, s)
    lrap = metrics.label_ranking_average_precision_score(y, s)
    return Effect(
        "the metric: the mean reciprocal rank of the true digit, then LRAP",
        "MRR",
        "LRAP",
        (Row("mean over the samples", mrr, lrap),),
        "one true label per row: LRAP's only term is 1 / its rank",
    )


def _lr_ties() -> Effect:
    ds = scenarios.tied_ranking()
    y, s = ds.y_true, ds.score()
    one, every = (metrics.tie_broken_summary(y[r], s[r]) for r in (slice(0, 1), slice(None)))
    return Effect(
        "the tie rule: true labels first among tied scores, then scikit-learn's max rank",
        "optimistic",
        "scikit-learn (max rank)",
        (
            Row("LRAP of sample 0", one.loc["optimistic", "lrap"], one.loc["max", "lrap"]),
            Row("LRAP (all samples)", every.loc["optimistic", "lrap"], every.loc["max", "lrap"]),
        ),
        "the pessimistic rule (false labels first) gives scikit-learn's numbers here",
    )


def _dcg_row(row: int, **kw) -> float:
    ds = load_sample("seed001_dcg")
    return metrics.dcg_score(ds.y_true[row : row + 1], ds.score()[row : row + 1], **kw)


def _dcg_top2() -> Effect:
    return Effect(
        "the cut-off k: every position, then the top two",
        "k = all",
        "k = 2",
        (Row("DCG of row 0", _dcg_row(0), _dcg_row(0, k=2)),),
    )


def _dcg_tie_top() -> Effect:
    return Effect(
        "the scores, at k = 1: distinct (row 0, e first), then a and e tied at the top (row 1)",
        "distinct scores (row 0)",
        "a tie at the top (row 1)",
        (Row("DCG@1", _dcg_row(0, k=1), _dcg_row(1, k=1)),),
        "tied items share the top position: their gains (10 and 5) are averaged",
    )


def _dcg_tie_ignored() -> Effect:
    return Effect(
        "ignore_ties, on row 1 at k = 1: off, then on",
        "ignore_ties off",
        "ignore_ties on",
        (Row("DCG@1 of row 1", _dcg_row(1, k=1), _dcg_row(1, k=1, ignore_ties=True)),),
        "ignored ties keep the sort's order: the last tied column, e (gain 5), comes first; "
        "a, the first column, has gain 10",
    )


def _map_rows(ds: Dataset, k: int, before: str, after: str) -> tuple[Row, ...]:
    y, s = ds.y_true, ds.score()
    per = [metrics.retrieval_per_query(y, s, k=k, denominator=d)["AP@K"] for d in (before, after)]
    rows = [
        Row(Phrase("AP@${k} of query ${q}", k=k, q=q), per[0][q], per[1][q])
        for q in range(len(per[0]))
    ]
    return (*rows, Row(f"MAP@{k}", per[0].mean(), per[1].mean()))


def _ret_min_m_k() -> Effect:
    return Effect(
        "the AP denominator: K (as the multilabel notes divide), then min(M, K)",
        "divided by K",
        "divided by min(M, K)",
        _map_rows(load_sample("seed002_map"), 5, "k", "min_m_k"),
    )


def _ret_all_relevant() -> Effect:
    return Effect(
        "the AP denominator at K = 2: min(M, K), then every relevant item M",
        "min(M, K)",
        "M",
        _map_rows(load_sample("seed002_map"), 2, "min_m_k", "relevant"),
        "at K = 5 the two agree: each query has M <= 5 relevant items, so min(M, K) = M; "
        "at K = 2 query 0's three relevant items outnumber K",
    )


def _ret_drop_empty() -> Effect:
    ds = load_sample("diabetes_ranking")
    per = metrics.retrieval_per_query(ds.y_true, ds.score(), k=5, level=3)
    zero, drop = (metrics.retrieval_means(per, empty=e) for e in ("zero", "drop"))
    names = {"P@K": "P@5", "R@K": "R@5", "AP@K": "MAP@5", "RR": "MRR", "NDCG@K": "NDCG@5"}
    return Effect(
        "the queries with nothing relevant at grade 3: scored 0, then dropped",
        "empty queries score 0",
        "empty queries dropped",
        tuple(Row(n, zero[c], drop[c]) for c, n in names.items()),
        "NDCG reads the grades, not the grade-3 cut, so it need not rise",
    )


def _f1s(ds: Dataset, pred: np.ndarray) -> tuple[float, float]:
    y = ds.y_true
    return tuple(metrics.f1_score(y, pred, average=a, zero_division=0) for a in ("micro", "macro"))


def _ml_high_threshold() -> Effect:
    ds = scenarios.rare_labels()
    s, rare = ds.score(), list(ds.label_names).index("rare")
    low, high = (s >= 0.5).astype(int), (s >= 0.9).astype(int)
    f_low, f_high = _f1s(ds, low), _f1s(ds, high)
    per = [metrics.f1_score(ds.y_true[:, rare], p[:, rare], zero_division=0) for p in (low, high)]
    return Effect(
        "the threshold: 0.5, then 0.9",
        "t = 0.5",
        "t = 0.9",
        (
            Row("Micro F1 (O-F1)", f_low[0], f_high[0]),
            Row("Macro F1 (C-F1)", f_low[1], f_high[1]),
            Row("F1 of the rare label", *per),
            Row("rare label predicted (samples)", low[:, rare].sum(), high[:, rare].sum()),
        ),
    )


def _ml_top1() -> Effect:
    ds = load_sample("digit_properties")
    s = ds.score()
    top = (s == s.max(axis=1, keepdims=True)).astype(int)
    acc = [metrics.accuracy_score(ds.y_true, p) for p in ((s >= 0.5).astype(int), top)]
    return Effect(
        "the prediction rule: every label at 0.5 or above, then the top label alone",
        "threshold 0.5",
        "top 1",
        (Row("Subset accuracy", *acc),),
        "a sample with 0, 2 or more true labels can never be exactly right with one label",
    )


def _ml_zero_division() -> Effect:
    ds = load_sample("digit_properties")
    pred = (ds.score() >= 0.99).astype(int)
    p = [metrics.precision_score(ds.y_true, pred, average="macro", zero_division=z) for z in (0, 1)]
    return Effect(
        "zero_division at t = 0.99: 0, then 1",
        "zero_division = 0",
        "zero_division = 1",
        (
            Row("Macro precision", *p),
            Row("labels never predicted", *(2 * [int((pred.sum(0) == 0).sum())])),
        ),
    )


def _reg(y, pred, w=None) -> list[float]:
    return [
        metrics.mean_absolute_error(y, pred, sample_weight=w),
        metrics.root_mean_squared_error(y, pred, sample_weight=w),
    ]


def _reg_outlier() -> Effect:
    ds = load_sample("diabetes")
    y, pred = ds.y_true, ds.score()
    moved = pred.copy()
    moved[0] += 500
    a, b = _reg(y, pred), _reg(y, moved)
    return Effect(
        "one prediction: sample 0's moved by 500",
        "as predicted",
        "sample 0 + 500",
        (Row("MAE", a[0], b[0]), Row("RMSE", a[1], b[1])),
    )


def _reg_recency() -> Effect:
    ds = load_sample("diabetes")
    y, pred = ds.y_true, ds.score()
    w = metrics.recency_weights(ds.n_samples)
    return Effect(
        "the weights: every sample 1, then recency weights (later samples weigh more)",
        "MAE (uniform)",
        "Weighted MAE (recency)",
        (Row("MAE", _reg(y, pred)[0], _reg(y, pred, w)[0]),),
    )


def _reg_zero() -> Effect:
    ds = scenarios.zero_target()
    y, pred = ds.y_true, ds.score()
    mape = [
        metrics.mean_absolute_percentage_error(y[r], pred[r]) for r in (slice(1, None), slice(None))
    ]
    mae = [metrics.mean_absolute_error(y[r], pred[r]) for r in (slice(1, None), slice(None))]
    return Effect(
        "the rows: the five with y > 0, then all six (the first has y = 0)",
        "5 rows, y > 0",
        "6 rows, one y = 0",
        (Row("MAPE (a fraction)", *mape), Row("MAE", *mae)),
        "MAPE divides each error by max(|y|, eps): 0.1 / eps is huge; MAE barely moves",
    )


def _compare(sample: str, a: str, b: str) -> Effect:
    ds = load_sample(sample)
    changes = Phrase("the model: ${a}, then ${b}", a=a, b=b)
    return Effect(changes, a, b, tuple(_binary(ds, ds, a, b)))


def _differ(correction: str | None) -> list[float]:
    """The pairs of breast_cancer_five's models whose ROC AUCs differ at 0.05 by DeLong's
    test after ``correction``, and the smallest corrected p-value (the Leaderboard's)."""
    ds = load_sample("breast_cancer_five")
    r = metrics.compare_models(
        metrics.roc_auc_score, ds.y_true, {m: ds.score(m) for m in ds.model_names},
        test="delong", correction=correction, n_resamples=None,
    )  # fmt: skip
    return [float((r.p_adjusted <= 0.05).sum()), float(r.p_adjusted.min())]


def _lb(before: str | None, after: str) -> Effect:
    names = {None: "no correction", "holm": "Holm", "bh": "Benjamini-Hochberg"}
    (n0, p0), (n1, p1) = _differ(before), _differ(after)
    return Effect(
        Phrase(
            "the correction across the 10 pairs: ${before}, then ${after}",
            before=Phrase(names[before]),
            after=Phrase(names[after]),
        ),
        names[before],
        names[after],
        (Row("pairs that differ at 0.05 (of 10)", n0, n1), Row("smallest p-value", p0, p1)),
    )


def _mc_top2() -> Effect:
    ds = load_sample("iris")
    t = ds.y_true.argmax(axis=1)
    s = ds.score()
    acc = [metrics.top_k_accuracy_score(t, s, k=k, labels=np.arange(s.shape[1])) for k in (1, 2)]
    return Effect(
        "k: the top class only, then the top two of three",
        "k = 1 (accuracy)",
        "k = 2",
        (Row("Top-k accuracy", *acc),),
        "with 3 classes a random guess is right 2 times in 3 at k = 2",
    )


def _mc_recall() -> Effect:
    ds = load_sample("digits10")
    t, s = ds.y_true.argmax(axis=1), ds.score()
    labels = np.arange(s.shape[1])
    counts = metrics.confusion_matrix(t, s.argmax(axis=1), labels=labels)
    rows = metrics.confusion_matrix(t, s.argmax(axis=1), labels=labels, normalize="true")
    worst = int(np.argmin(np.diag(rows)))
    name = ds.label_names[worst] if ds.label_names else str(worst)
    return Effect(
        "the matrix's cells: counts, then each row divided by its total",
        "counts",
        "rows as recall",
        (
            Row(
                Phrase("diagonal cell of ${name} (the lowest recall)", name=name),
                counts[worst, worst],
                rows[worst, worst],
            ),
        ),
    )


#: Each scenario's effect, by scenario id.
_EFFECTS: dict[str, Callable[[], Effect]] = {
    "home-perfect": _home_perfect,
    "home-random": _home_random,
    "home-rare": _home_rare,
    "curves-flip": _curves_flip,
    "curves-ties": _curves_ties,
    "lr-tutorial": _lr_tutorial,
    "lr-one-true": _lr_one_true,
    "lr-ties": _lr_ties,
    "dcg-top2": _dcg_top2,
    "dcg-tie-top": _dcg_tie_top,
    "dcg-tie-ignored": _dcg_tie_ignored,
    "ret-min-m-k": _ret_min_m_k,
    "ret-all-relevant": _ret_all_relevant,
    "ret-drop-empty": _ret_drop_empty,
    "ml-high-threshold": _ml_high_threshold,
    "ml-top1": _ml_top1,
    "ml-zero-division": _ml_zero_division,
    "reg-outlier": _reg_outlier,
    "reg-recency": _reg_recency,
    "reg-zero": _reg_zero,
    "cmp-good-weak": lambda: _compare("balanced", "weak", "good"),
    "cmp-tree": lambda: _compare("breast_cancer", "logreg", "tree"),
    "lb-holm": lambda: _lb(None, "holm"),
    "lb-bh": lambda: _lb("holm", "bh"),
    "mc-iris-top2": _mc_top2,
    "mc-digits-recall": _mc_recall,
}


@functools.cache
def effect(scenario_id: str) -> Effect:
    """The effect of the scenario ``scenario_id`` (computed once).

    Examples
    --------
    >>> e = effect("dcg-top2")
    >>> e.before, e.after, [round(r.before, 2) for r in e.rows], round(e.rows[0].after, 2)
    ('k = all', 'k = 2', [9.5], 5.63)
    """
    return _EFFECTS[scenario_id]()


def has_effect(scenario_id: str) -> bool:
    """Whether ``scenario_id`` names a scenario with an effect.

    Examples
    --------
    >>> has_effect("dcg-top2"), has_effect("nothing")
    (True, False)
    """
    return scenario_id in _EFFECTS
