"""Label ranking page model: coverage error, LRAP and ranking loss, sample by sample.

Pure functions of a :class:`~explorer.datasets.Dataset`, a model name and the
page's choices (a sample, a tie rule, a sort, a what-if row of scores); no
streamlit. The page (views/label_ranking/) calls the cached ones through
:mod:`explorer.ui.cache.label_ranking`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

import metrics
from explorer import budget
from explorer.datasets import Dataset
from explorer.derivation import MeanDerivation, mean_terms
from explorer.formatting import fmt
from explorer.i18n import Phrase

#: The tie rules of the drill-down, as the page names them.
TIE_LABELS = {
    "max": "scikit-learn (max rank)",
    "optimistic": "optimistic",
    "pessimistic": "pessimistic",
}
#: The orders of the per-sample breakdown (worst first), as the page names them.
SORT_LABELS = {"lrap": "LRAP", "coverage": "Coverage error", "ranking_loss": "Ranking loss"}


@dataclass(frozen=True)
class Summary:
    """The headline numbers of one model and its per-sample table."""

    coverage: float
    best_coverage: float  # the coverage error of a perfect ranking
    lrap: float
    loss: float  # the ranking loss
    contrib: pd.DataFrame | None  # metrics.label_ranking_contributions (None: refused)
    ties: pd.DataFrame | None  # metrics.tie_broken_summary (LRAP and coverage by rule)
    refused: str | None = None  # why contrib and ties were not computed (the budget)


def refusal(n_samples: int, n_labels: int, limit: float | None = None) -> str | None:
    """Why the per-sample table of ``n_samples`` x ``n_labels`` is not computed, or None.

    Estimated with :func:`explorer.budget.label_ranking_seconds` against ``limit``
    (default: :func:`explorer.budget.limits`' ``per_run``).

    Examples
    --------
    >>> refusal(100_000, 100, limit=8.0) is None
    True
    >>> why = refusal(250_000, 100, limit=8.0)
    >>> why[:53]
    'The per-sample table of 250,000 samples x 100 labels '
    >>> why[53:]
    'would take about 10 s of computing; this server offers 8 s'
    """
    limit = budget.limits().per_run if limit is None else limit
    what = Phrase("The per-sample table of ${n:,} samples x ${m:,} labels", n=n_samples, m=n_labels)
    return budget.too_long(budget.label_ranking_seconds(n_samples, n_labels), what, limit)


def summary(ds: Dataset, model: str, checkpoint=budget.no_checkpoint) -> Summary:
    """Coverage error, best coverage, LRAP, ranking loss, the per-sample table, the tie rules.

    The per-sample table and the tie rules (the costly part: a sort of every row under
    each rule) are estimated first (:func:`refusal`): over the limit they are None and
    ``refused`` says why; the four means are computed all the same. They run in groups
    of rows, ``checkpoint`` called between groups.

    Parameters
    ----------
    ds : Dataset
        A multilabel dataset (its sample weights weigh every mean).
    model : str
        One of ``ds.model_names``.

    Returns
    -------
    Summary

    Raises
    ------
    metrics.MetricInputError
        Labels and scores the metrics cannot score.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> s = summary(load_sample("seed003_lrap"), "model")
    >>> round(s.lrap, 4), round(s.coverage, 4), round(s.best_coverage, 4), round(s.loss, 4)
    (0.7778, 2.3333, 1.6667, 0.3333)
    >>> s.contrib["lrap"].round(4).tolist()
    [0.5, 0.8333, 1.0]
    """
    return _scored(ds, ds.score(model), checkpoint)


def _scored(ds: Dataset, s: np.ndarray, checkpoint) -> Summary:
    """:func:`summary` of the scores ``s`` (the model's, or an edit of them); a ragged
    dataset's padding slots and unretrieved documents as its ``retrieved`` mask says."""
    y, w, kept = ds.y_true, ds.sample_weight, ds.retrieved
    refused = refusal(*s.shape) if s.ndim == 2 else None
    heavy = {"checkpoint": checkpoint, "sample_weight": w, "retrieved": kept}
    # each summary is a pass over the n x m scores (half a second at 2 x 10^7 cells):
    # a checkpoint before each, so a stop or another visitor's page waits for no more
    checkpoint()
    coverage = metrics.coverage_error(y, s, sample_weight=w, retrieved=kept)
    checkpoint()
    lrap = metrics.label_ranking_average_precision_score(y, s, sample_weight=w, retrieved=kept)
    checkpoint()
    return Summary(
        coverage=coverage,
        best_coverage=metrics.best_coverage_error(y, sample_weight=w),
        lrap=lrap,
        loss=metrics.label_ranking_loss(y, s, sample_weight=w, retrieved=kept),
        contrib=None if refused else metrics.label_ranking_contributions(y, s, **heavy),
        ties=None if refused else metrics.tie_broken_summary(y, s, **heavy),
        refused=refused,
    )


def mrr(ds: Dataset, model: str) -> float:
    """The mean reciprocal rank of the first true label (ties in column order).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> round(mrr(load_sample("seed003_lrap"), "model"), 4)
    0.8333
    """
    return metrics.mean_reciprocal_rank(ds.y_true, ds.score(model), retrieved=ds.retrieved)


def one_true_label(contrib: pd.DataFrame) -> bool:
    """Whether every sample has exactly one true label (then LRAP equals MRR).

    Examples
    --------
    >>> one_true_label(pd.DataFrame({"n_true": [1, 1]}))
    True
    >>> one_true_label(pd.DataFrame({"n_true": [1, 2, 0]}))
    False
    """
    return bool((contrib["n_true"] == 1).all())


#: The headline metrics written out as means, by st.metric label: (contrib column, Summary field).
DERIVED = {
    "Coverage error": ("coverage", "coverage"),
    "Best coverage": ("n_true", "best_coverage"),  # the mean number of true labels
    "LRAP": ("lrap", "lrap"),
    "Ranking loss": ("ranking_loss", "loss"),
}


def derivations(res: Summary, sample_weight=None) -> dict[str, MeanDerivation]:
    """Each headline written as the (weighted) mean of its per-sample terms.

    The line ends in the headline itself (``res``'s value), so its digits are
    exactly those of the st.metric above it.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> d = derivations(summary(load_sample("seed003_lrap"), "model"))
    >>> d["LRAP"].text()
    'LRAP = (0.5000 + 0.8333 + 1) / 3 = 0.7778'
    >>> d["Coverage error"].text()
    'Coverage error = (2 + 3 + 2) / 3 = 2.333'
    >>> d["Best coverage"].text()
    'Best coverage = (1 + 2 + 2) / 3 = 1.667'
    """
    out = {}
    for label, (column, field) in DERIVED.items():  # in the order of the st.metric row
        d = mean_terms(res.contrib[column], sample_weight, name=label)
        out[label] = replace(d, value=float(getattr(res, field)))
    return out


def mrr_derivation(ds: Dataset, model: str, value: float) -> MeanDerivation:
    """MRR written as the mean of every sample's reciprocal rank (ties in column order).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed003_lrap")
    >>> mrr_derivation(ds, "model", mrr(ds, "model")).text()
    'MRR = (0.5000 + 1 + 1) / 3 = 0.8333'
    """
    rr = metrics.reciprocal_rank(ds.y_true, ds.score(model), retrieved=ds.retrieved)
    return replace(mean_terms(rr, name="MRR"), value=float(value))


def worst_sample(contrib: pd.DataFrame, sort_by: str) -> int:
    """The sample the drill-down opens on: the first of :func:`worst_first`.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> contrib = summary(load_sample("seed003_lrap"), "model").contrib
    >>> worst_sample(contrib, "lrap"), worst_sample(contrib, "coverage")
    (0, 1)
    """
    return int(metrics.sort_worst_first(contrib, sort_by)["sample"].iloc[0])


#: Superscript digits for a scale written ``×10⁻⁴``.
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def effect_scale(values) -> tuple[float, str]:
    """A power of ten that makes the largest effect read between 1 and 10, and its name.

    Effects of one sample on a mean over n samples shrink like 1/n: at 5,000
    samples four decimals print ``-0.0001`` on every row. Effects of 0.01 or more
    keep their own units (factor 1, no name).

    Returns
    -------
    factor : float
        Multiply the effects by it.
    name : str
        ``""`` or the scale as written in a column name, ``"×10⁻⁴"``.

    Examples
    --------
    >>> effect_scale([-0.00037, 0.00002])
    (10000.0, '×10⁻⁴')
    >>> effect_scale([0.2, -0.05]), effect_scale([0.0, np.nan])
    ((1.0, ''), (1.0, ''))
    """
    v = np.abs(np.asarray(values, dtype=float))
    v = v[np.isfinite(v)]
    top = float(v.max()) if v.size else 0.0
    if top == 0 or top >= 0.01:
        return 1.0, ""
    exponent = int(np.floor(np.log10(top)))
    return 10.0**-exponent, f"×10{str(exponent).translate(_SUPERSCRIPT)}"


# ------------------------------------------------------------------ what if?
def apply_cells(scores: np.ndarray, cells: dict[int, float]) -> np.ndarray:
    """A copy of one sample's scores with some label columns set (a link's what-if edit).

    Examples
    --------
    >>> apply_cells(np.array([1.0, 0.2, 0.1]), {2: 0.2}).tolist()
    [1.0, 0.2, 0.2]
    """
    row = np.array(scores, dtype=np.float64)
    for j, value in cells.items():
        row[j] = value
    return row


def what_if(
    ds: Dataset, model: str, base: Summary, sample: int, new_row, checkpoint=budget.no_checkpoint
) -> Summary | None:
    """The summary with the scores of one sample replaced; None if they are the model's.

    Only ``sample`` is recomputed (:func:`metrics.replace_sample_scores`):
    the same numbers as :func:`summary` of the whole edited matrix. A ragged dataset's
    edit (a ``retrieved`` mask) scores the whole edited matrix again, as :func:`summary`
    does: the per-sample table estimated first (:func:`refusal`), ``checkpoint`` called
    between groups of rows.

    Parameters
    ----------
    ds : Dataset
    model : str
    base : Summary
        :func:`summary` of ``ds`` and ``model``.
    sample : int
        The 0-based row whose scores change.
    new_row : array-like of shape (n_labels,)
        Its new scores.
    checkpoint : callable, default :func:`explorer.budget.no_checkpoint`
        Called between groups of rows when the whole matrix is scored again.

    Returns
    -------
    Summary or None

    Raises
    ------
    metrics.MetricInputError
        Scores that are not finite, naming the column.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed003_lrap")
    >>> base = summary(ds, "model")
    >>> after = what_if(ds, "model", base, 0, [2.0, 0.5, 1.0])
    >>> round(after.lrap, 4), after.contrib["lrap"].round(4).tolist()
    (0.9444, [1.0, 0.8333, 1.0])
    >>> what_if(ds, "model", base, 0, ds.score("model")[0]) is None
    True
    """
    new_row = np.asarray(new_row, dtype=np.float64)
    orig_row = np.asarray(ds.score(model)[sample])
    if np.array_equal(new_row, orig_row):
        return None
    if ds.retrieved is not None:  # a ragged dataset: the edited matrix scored again
        metrics.label_ranking_loss(ds.y_true[sample][None], new_row[None])  # its refusals
        edited = ds.score(model).copy()
        edited[sample] = new_row
        return _scored(ds, edited, checkpoint)
    changed = metrics.replace_sample_scores(
        ds.y_true[sample],
        new_row,
        contributions=base.contrib,
        sample=sample,
        ties=base.ties,
        previous_score_row=orig_row,
    )
    return replace(  # the labels are not edited: the best coverage stays
        base,
        coverage=changed.coverage,
        lrap=changed.lrap,
        loss=changed.ranking_loss,
        contrib=changed.contributions,
        ties=changed.ties,
    )


# ------------------------------------------------------------------ one sample
@dataclass(frozen=True)
class SampleSteps:
    """One sample's step tables under a tie rule, and its values under every rule."""

    ranking: pd.DataFrame  # metrics.lrap_steps (max rank), for the ranking chart
    lrap: pd.DataFrame  # LRAP steps under the tie rule
    coverage: pd.DataFrame  # coverage steps under the tie rule
    loss: pd.DataFrame  # metrics.ranking_loss_steps (every pair)
    ties: pd.DataFrame  # tie_broken_summary of this sample alone

    @property
    def values(self) -> tuple[float, float, float]:
        """The sample's LRAP, coverage and ranking loss: the last running values."""
        return tuple(
            float(t["running_value"].iloc[-1]) for t in (self.lrap, self.coverage, self.loss)
        )


def sample_steps(y_row, s_row, ties: str) -> SampleSteps:
    """The step tables of one sample (its labels and its shown scores).

    Parameters
    ----------
    y_row : array-like of shape (n_labels,)
        The sample's 0/1 labels.
    s_row : array-like of shape (n_labels,)
        Its scores (the what-if row when edited).
    ties : {"max", "optimistic", "pessimistic"}
        The tie rule of the LRAP and coverage steps.

    Returns
    -------
    SampleSteps

    Examples
    --------
    >>> one = sample_steps(np.array([1, 0, 1]), np.array([1.0, 0.2, 0.1]), "max")
    >>> [round(v, 4) for v in one.values]
    [0.8333, 3.0, 0.5]
    >>> one.ties["lrap"].round(4).tolist()
    [0.8333, 0.8333, 0.8333]
    """
    y_row, s_row = np.asarray(y_row), np.asarray(s_row)
    return SampleSteps(
        ranking=metrics.lrap_steps(y_row, s_row),
        lrap=metrics.lrap_steps_tie_broken(y_row, s_row, ties=ties),
        coverage=metrics.coverage_steps_tie_broken(y_row, s_row, ties=ties),
        loss=metrics.ranking_loss_steps(y_row, s_row),
        ties=metrics.tie_broken_summary(y_row[None, :], s_row[None, :]),
    )


def tie_rules_table(sample_ties: pd.DataFrame, all_ties: pd.DataFrame) -> pd.DataFrame:
    """The tie rules side by side: LRAP and coverage of the sample and of all samples.

    Parameters
    ----------
    sample_ties, all_ties : pandas.DataFrame
        :func:`metrics.tie_broken_summary` of the sample and of every sample.

    Returns
    -------
    pandas.DataFrame
        One row per tie rule, named as in :data:`TIE_LABELS`.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed003_lrap")
    >>> one = sample_steps(ds.y_true[0], ds.score()[0], "max")
    >>> t = tie_rules_table(one.ties, summary(ds, "model").ties)
    >>> t["tie rule"].tolist()
    ['scikit-learn (max rank)', 'optimistic', 'pessimistic']
    >>> t["LRAP (all samples)"].round(4).tolist()
    [0.7778, 0.7778, 0.7778]
    """
    return pd.DataFrame(
        {
            "tie rule": [TIE_LABELS[t] for t in sample_ties.index],
            "LRAP (this sample)": sample_ties["lrap"].to_numpy(),
            "coverage (this sample)": sample_ties["coverage"].to_numpy(),
            "LRAP (all samples)": all_ties["lrap"].to_numpy(),
            "coverage error (all)": all_ties["coverage"].to_numpy(),
        }
    )


def sample_items(ds: Dataset, i: int, scores) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Sample ``i``'s labels, ``scores`` and item names as its step tables read them: a
    ragged dataset's row cut to the items it has (its padding slots left out, an
    unretrieved true label below every retrieved one), as the per-sample numbers are.

    Examples
    --------
    >>> y = np.array([[1, 0, 1, 0], [1, 0, 0, 0]])
    >>> kept = np.array([[True, True, False, False], [True] * 4])
    >>> ds = Dataset("t", "multilabel", y, {"m": y * 1.0}, retrieved=kept)
    >>> yy, ss, names = sample_items(ds, 0, [0.5, 0.7, 0.9, 0.1])
    >>> yy.tolist(), bool(ss[2] < 0.5), names
    ([1.0, 0.0, 1.0], True, ['label_0', 'label_1', 'label_2'])
    """
    y_row, s_row = ds.y_true[i], np.asarray(scores, dtype=np.float64)
    names = item_names(ds, i)
    if ds.retrieved is None:
        return y_row, s_row, names
    got = ds.retrieved[i]
    keep = got | (y_row != 0)
    low = s_row[got].min() if got.any() else 0.0
    s_row = np.where(got, s_row, np.nextafter(low, -np.inf))
    return y_row[keep], s_row[keep], [n for n, k in zip(names, keep, strict=True) if k]


def item_names(ds: Dataset, i: int) -> list[str]:
    """Sample ``i``'s items as the drill-down names them: its documents' ids when the
    data carries them (each query its own), else the label names; a slot of no document
    (padding) is "(slot j)", so that the names stay distinct (the what-if editor's columns).

    Examples
    --------
    >>> y = np.array([[1, 0, 0], [0, 1, 0]])
    >>> ids = np.array([["d7", "d2", "d5"], ["d9", "d4", ""]], dtype=object)
    >>> item_names(Dataset("t", "multilabel", y, {"m": y * 1.0}, item_ids=ids), 1)
    ['d9', 'd4', '(slot 3)']
    """
    return [name or f"(slot {j + 1})" for j, name in enumerate(ds.item_names(i))]


def with_label_names(table: pd.DataFrame, names) -> pd.DataFrame:
    """A step table with a ``<column>_name`` beside each label column it has in full.

    Examples
    --------
    >>> steps = with_label_names(sample_steps([1, 0], [0.2, 0.6], "max").loss, ["a", "b"])
    >>> steps[["true_label", "true_label_name", "false_label", "false_label_name"]].values.tolist()
    [[0, 'a', 1, 'b']]
    """
    shown = table.copy()
    for col in ("label", "true_label", "false_label"):
        if col in shown and shown[col].notna().all():
            named = shown[col].map(lambda j: names[int(j)])
            shown.insert(shown.columns.get_loc(col) + 1, f"{col}_name", named)
    return shown


# ------------------------------------------------------------------ every sample
def worst_first(contrib: pd.DataFrame, sort_by: str) -> pd.DataFrame:
    """The per-sample table, the samples that hurt the mean of ``sort_by`` most first.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> contrib = summary(load_sample("seed003_lrap"), "model").contrib
    >>> worst_first(contrib, "lrap")["sample"].tolist()
    [0, 1, 2]
    """
    return metrics.sort_worst_first(contrib, sort_by)


def contributions_table(rows: pd.DataFrame, ids, scales: dict | None = None) -> pd.DataFrame:
    """The per-sample breakdown as the page shows it (one page of worst-first rows).

    Parameters
    ----------
    rows : pandas.DataFrame
        Rows of :func:`worst_first`.
    ids : sequence of str
        Every sample's id, by row.
    scales : dict, optional
        :func:`effect_scales` of all samples: each "moves mean" column is
        multiplied by its factor and its name says so (``LRAP moves mean ×10⁻⁴``).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> contrib = summary(load_sample("seed003_lrap"), "model").contrib
    >>> t = contributions_table(worst_first(contrib, "lrap"), ["0", "1", "2"])
    >>> t[["sample", "LRAP", "coverage"]].round(4).values.tolist()
    [[0.0, 0.5, 2.0], [1.0, 0.8333, 3.0], [2.0, 1.0, 2.0]]
    """
    scales = scales or {}

    def moves(column: str, title: str) -> tuple[str, np.ndarray]:
        factor, name = scales.get(column, (1.0, ""))
        return title + (f" {name}" if name else ""), factor * rows[f"{column}_moves_mean"].to_numpy(
            dtype=np.float64
        )

    return pd.DataFrame(
        dict(
            [
                ("sample", rows["sample"].to_numpy()),
                ("id", [ids[s] for s in rows["sample"]]),
                ("true labels", rows["n_true"].to_numpy()),
                ("coverage", rows["coverage"].to_numpy()),
                moves("coverage", "coverage moves mean"),
                ("LRAP", rows["lrap"].to_numpy()),
                moves("lrap", "LRAP moves mean"),
                ("ranking loss", rows["ranking_loss"].to_numpy()),
                moves("ranking_loss", "loss moves mean"),
                ("note", rows["note"].to_numpy()),
            ]
        )
    )


def effect_text(value: float, scale: tuple[float, str] = (1.0, "")) -> str:
    """One effect written in the unit of :func:`effect_scale` (the table's unit).

    Examples
    --------
    >>> effect_text(-7.369e-5, (1e5, "×10⁻⁵")), effect_text(0.25)
    ('-7.369 ×10⁻⁵', '0.2500')
    """
    factor, name = scale
    return f"{fmt(value * factor)} {name}" if name else fmt(value)


def effect_scales(contrib: pd.DataFrame) -> dict[str, tuple[float, str]]:
    """:func:`effect_scale` of each metric's "moves mean" column over all samples.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> effect_scales(summary(load_sample("seed003_lrap"), "model").contrib)["lrap"]
    (1.0, '')
    """
    return {c: effect_scale(contrib[f"{c}_moves_mean"]) for c in SORT_LABELS}


def all_contributions(contrib: pd.DataFrame, order: pd.DataFrame, ids) -> pd.DataFrame:
    """Every sample's row of the per-sample table with its id, in ``order`` (the CSV).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> contrib = summary(load_sample("seed003_lrap"), "model").contrib
    >>> t = all_contributions(contrib, worst_first(contrib, "coverage"), ["a", "b", "c"])
    >>> t["id"].tolist(), t["coverage"].tolist()
    (['b', 'a', 'c'], [3.0, 2.0, 2.0])
    """
    return contrib.assign(id=list(ids)).loc[order.index]


def degenerate_samples(contrib: pd.DataFrame, ids) -> pd.DataFrame:
    """The samples with no true label or every label true (scikit-learn's conventions).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("digit_properties")
    >>> t = degenerate_samples(summary(ds, "model").contrib, ds.sample_ids)
    >>> sorted(set(t["note"])), bool((t["lrap"] == 1).all())
    (['no true label'], True)
    """
    degenerate = contrib[contrib["note"] != ""]
    return degenerate.assign(id=[ids[s] for s in degenerate["sample"]])[
        ["sample", "id", "n_true", "coverage", "lrap", "ranking_loss", "note"]
    ]
