"""Named teaching moments, two or three per page, each a shareable link.

A scenario sets the data (``ds=<bundled sample>``, or ``data=<packed>`` for a tiny
dataset no sample has, built here with :func:`explorer.links.encode_dataset`) and the
page's settings (its URL parameters) to a moment worth a class's guess, and says what
to watch. The pages draw them as links (``widgets.scenarios``); a link carries
``scn=<id>`` too, so that clicking it inside the app opens it as a fresh link would
(:func:`explorer.ui.navigation.follow_scenario`).

Pure (no Streamlit): every value is a URL text exactly as the page writes it back, so
a test can check that each setting took effect.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from explorer.datasets import Dataset
from explorer.links import encode_dataset
from explorer.samples import load_sample


@dataclass(frozen=True)
class Scenario:
    """One teaching moment of a page.

    Attributes
    ----------
    id : str
        Unique over the app (the ``scn=`` of its link).
    page : str
        The page's slug (``"dcg"``, :mod:`explorer.registry`).
    title : str
        What the link says.
    watch : str
        What the class should predict, then watch.
    params : tuple of (str, str)
        The URL parameters: the dataset's (``ds`` or ``data``), then the page's settings.
    """

    id: str
    page: str
    title: str
    watch: str
    params: tuple[tuple[str, str], ...]

    def query(self, **extra: str) -> dict[str, str]:
        """The link's query parameters: the scenario's, ``scn``, then ``extra`` (the app's
        settings in use, such as ``present="1"``).

        Examples
        --------
        >>> s = Scenario("x", "home", "t", "w", (("ds", "perfect"),))
        >>> s.query(ci="1")
        {'ds': 'perfect', 'scn': 'x', 'ci': '1'}
        """
        return {**dict(self.params), "scn": self.id, **extra}

    @property
    def settings(self) -> dict[str, str]:
        """The page settings alone (no dataset parameter).

        Examples
        --------
        >>> Scenario("x", "p", "t", "w", (("ds", "perfect"), ("k", "2"))).settings
        {'k': '2'}
        """
        return {k: v for k, v in self.params if k not in ("ds", "data")}


def flipped_label(sample: str = "balanced", model: str = "good") -> Dataset:
    """``sample`` with one label flipped: its highest-scored positive becomes a negative
    (a confident mistake), for "one label flipped: watch AUC and log loss".

    Examples
    --------
    >>> ds, base = flipped_label(), load_sample("balanced")
    >>> int((ds.y_true != base.y_true).sum()), ds.name
    (1, 'balanced, one label flipped')
    """
    ds = load_sample(sample)
    y = ds.y_true.copy()
    s = ds.score(model)
    top = int(np.argmax(np.where(y == 1, s, -np.inf)))
    y[top] = 0
    return Dataset(
        f"{sample}, one label flipped",
        ds.kind,
        y,
        dict(ds.scores),
        sample_ids=ds.sample_ids,
        description=f"{sample} with the label of sample {ds.sample_ids[top]} flipped to 0",
    )


def tied_ranking() -> Dataset:
    """Three samples whose scores tie true and false labels (label ranking's tie rules).

    Examples
    --------
    >>> tied_ranking().y_true[0].astype(int).tolist()
    [1, 0, 0, 1]
    """
    y = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [1, 1, 0, 0]])
    s = np.array([[0.5, 0.5, 0.5, 0.2], [0.3, 0.3, 0.1, 0.1], [0.9, 0.4, 0.4, 0.1]])
    return Dataset(
        "tied scores",
        "multilabel",
        y,
        {"model": s},
        label_names=("a", "b", "c", "d"),
        description="true and false labels with the same score",
    )


def rare_labels() -> Dataset:
    """Forty samples, two common labels and a rare one (4 positives) that the model
    ranks right but never scores above 0.85: a high threshold never predicts it.

    Examples
    --------
    >>> ds = rare_labels()
    >>> ds.y_true.sum(axis=0).astype(int).tolist(), float(ds.score()[:, 2].max()) < 0.9
    ([20, 16, 4], True)
    """
    rng = np.random.default_rng(30)
    n = 40
    y = np.zeros((n, 3), dtype=int)
    y[:20, 0], y[10:26, 1], y[[3, 14, 27, 35], 2] = 1, 1, 1
    # the common labels: positives mostly high, a few mistakes either way
    s = np.where(y == 1, rng.uniform(0.55, 1.0, (n, 3)), rng.uniform(0.0, 0.6, (n, 3)))
    s[:, 2] = np.where(y[:, 2] == 1, rng.uniform(0.6, 0.85, n), rng.uniform(0.0, 0.4, n))
    return Dataset(
        "a rare label",
        "multilabel",
        y,
        {"model": np.round(s, 3)},
        label_names=("common", "frequent", "rare"),
        description="two common labels and a rare one (4 of 40 samples)",
    )


def zero_target() -> Dataset:
    """Six regression targets, one of them 0: MAPE divides by max(|y|, eps) there.

    Examples
    --------
    >>> zero_target().y_true.tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    """
    y = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    pred = np.array([0.1, 1.2, 1.8, 3.3, 3.9, 5.2])
    return Dataset(
        "a zero target", "regression", y, {"model": pred}, description="y = 0 in the first row"
    )


def _data(ds: Dataset) -> tuple[str, str]:
    return ("data", encode_dataset(ds))


def _home() -> tuple[Scenario, ...]:
    """The home page: three samples whose AUC, AP and Gini to guess."""
    return (
        Scenario(
            "home-perfect",
            "home",
            "A perfect ranker",
            "every positive scores above every negative: guess ROC AUC, AP and Gini.",
            (("ds", "perfect"),),
        ),
        Scenario(
            "home-random",
            "home",
            "Scores unrelated to the labels",
            "a coin-flip model: how far from 0.5 is its AUC, and is Gini near 0?",
            (("ds", "random"),),
        ),
        Scenario(
            "home-rare",
            "home",
            "Rare positives",
            "AUC looks fine; is average precision as high?",
            (("ds", "imbalanced"),),
        ),
    )


def _curves() -> tuple[Scenario, ...]:
    """Curves: a flipped label and tied scores."""
    return (
        Scenario(
            "curves-flip",
            "curves",
            "One label flipped: watch AUC and log loss",
            "the most confident positive is now a negative: which moves more, ROC AUC or log loss?",
            (_data(flipped_label()), ("model", "good")),
        ),
        Scenario(
            "curves-ties",
            "curves",
            "Tied scores: a diagonal step",
            "five score values only: the ROC curve's steps turn diagonal; ties count 1/2.",
            (("ds", "heavy_ties"),),
        ),
    )


def _label_ranking() -> tuple[Scenario, ...]:
    """Label ranking: LRAP step by step, one true label, ties."""
    return (
        Scenario(
            "lr-tutorial",
            "label_ranking",
            "The LRAP tutorial: three samples, three ranks",
            "three samples; guess each one's LRAP, then the mean (0.777).",
            (("ds", "seed003_lrap"), ("sort", "lrap"), ("i", "0")),
        ),
        Scenario(
            "lr-one-true",
            "label_ranking",
            "One true label per row: LRAP equals MRR",
            "each row has one true digit: LRAP is 1 / its rank, so LRAP and MRR agree.",
            (("ds", "digits"), ("sort", "lrap")),
        ),
        Scenario(
            "lr-ties",
            "label_ranking",
            "Tied scores: which rank does a tie get?",
            "sample 0 ties true and false labels: its LRAP under the optimistic rule (true "
            "labels first), then scikit-learn's (max rank).",
            (_data(tied_ranking()), ("sort", "lrap"), ("i", "0"), ("ties", "optimistic")),
        ),
    )


def _dcg() -> tuple[Scenario, ...]:
    """DCG: a cut at k and a tie at the top, averaged or ignored."""
    return (
        Scenario(
            "dcg-top2",
            "dcg",
            "Cut at k = 2: how much DCG is left?",
            "only the top two positions count: how much of the DCG is left?",
            (("ds", "seed001_dcg"), ("k", "2"), ("sample", "0"), ("focus", "1")),
        ),
        Scenario(
            "dcg-tie-top",
            "dcg",
            "A tie at the top: averaged gains",
            "two items tie at the top: averaging their gains gives 7.5 ...",
            (("ds", "seed001_dcg"), ("k", "1"), ("sample", "1"), ("focus", "2")),
        ),
        Scenario(
            "dcg-tie-ignored",
            "dcg",
            "The same tie, ignored",
            "... and ignore_ties puts the last tied column first, e (gain 5; the first "
            "column, a, has 10): 5.0.",
            (
                ("ds", "seed001_dcg"),
                ("k", "1"),
                ("ignore_ties", "1"),
                ("sample", "1"),
                ("focus", "3"),
            ),
        ),
    )


def _retrieval() -> tuple[Scenario, ...]:
    """Retrieval: the AP@K denominators and empty queries."""
    return (
        Scenario(
            "ret-min-m-k",
            "retrieval",
            "AP@5 with min(M, K): two queries",
            "two queries of the revision sheet: guess each AP@5, then MAP@K.",
            (("ds", "seed002_map"), ("k", "5"), ("ap_denominator", "min_m_k")),
        ),
        Scenario(
            "ret-all-relevant",
            "retrieval",
            "AP@K over all relevant items (trec_eval)",
            "the same lists at K = 2, divided by every relevant item M instead of min(M, K): "
            "does MAP@K go up or down? (At K = 5 they agree: M <= 5 on both queries.)",
            (("ds", "seed002_map"), ("k", "2"), ("ap_denominator", "relevant")),
        ),
        Scenario(
            "ret-drop-empty",
            "retrieval",
            "Only the top grade counts, empty queries dropped",
            "relevant = grade 3: some queries have nothing relevant; dropping them raises "
            "P@K, R@K, MAP@K and MRR. And NDCG@K, which reads the grades?",
            (("ds", "diabetes_ranking"), ("rel_level", "3"), ("empty_query", "drop")),
        ),
    )


def _multilabel() -> tuple[Scenario, ...]:
    """Multilabel: thresholds, top-1 and zero division."""
    return (
        Scenario(
            "ml-high-threshold",
            "multilabel",
            "A high threshold: micro against macro F1",
            "one label is rare (4 of 40 samples) and never scored above 0.85: at 0.9 it is "
            "never predicted. Which average falls further?",
            (_data(rare_labels()), ("rule", "threshold"), ("t", "0.90")),
        ),
        Scenario(
            "ml-top1",
            "multilabel",
            "One label per sample: subset accuracy",
            "every sample gets exactly its top label: how many label sets are exactly right?",
            (("ds", "digit_properties"), ("rule", "top_k"), ("k", "1")),
        ),
        Scenario(
            "ml-zero-division",
            "multilabel",
            "Nothing predicted: zero_division = 1",
            "at 0.99 most labels are never predicted: their precision is 0/0, here 1.",
            (("ds", "digit_properties"), ("t", "0.99"), ("zd", "1")),
        ),
    )


def _regression() -> tuple[Scenario, ...]:
    """Regression: an outlier, recency weights and a zero target."""
    return (
        Scenario(
            "reg-outlier",
            "regression",
            "One outlier: RMSE jumps, MAE barely moves",
            "one prediction moved by 500: guess the change of MAE, then of RMSE.",
            (("ds", "diabetes"), ("outlier", "0"), ("shift", "500")),
        ),
        Scenario(
            "reg-recency",
            "regression",
            "Recent samples weigh more",
            "weighted MAE with recency weights against plain MAE: which is larger?",
            (("ds", "diabetes"), ("weights", "recency"), ("explain", "Weighted MAE")),
        ),
        Scenario(
            "reg-zero",
            "regression",
            "A zero target: MAPE explodes",
            "one y = 0 among six: MAPE divides by a tiny epsilon there. Guess MAPE.",
            (_data(zero_target()), ("explain", "MAPE")),
        ),
    )


def _compare() -> tuple[Scenario, ...]:
    """Compare: two pairs of models."""
    return (
        Scenario(
            "cmp-good-weak",
            "compare",
            "A good model against a weak one",
            "guess how much higher the good model's AUC is, and whether 200 samples are "
            "enough to be sure.",
            (("ds", "balanced"), ("a", "weak"), ("b", "good")),
        ),
        Scenario(
            "cmp-tree",
            "compare",
            "A depth-3 tree against logistic regression",
            "the tree has four distinct scores: does it lose on AUC, on AP, or on both?",
            (("ds", "breast_cancer"), ("a", "logreg"), ("b", "tree")),
        ),
    )


def _leaderboard() -> tuple[Scenario, ...]:
    """Leaderboard: ten pairs corrected for chance two ways."""
    return (
        Scenario(
            "lb-holm",
            "leaderboard",
            "Ten pairs: corrected for chance",
            "uncorrected, 5 of the 10 pairs differ at 0.05: how many survive Holm's correction?",
            (
                ("ds", "breast_cancer_five"),
                ("metric", "ROC AUC"),
                ("test", "delong"),
                ("corr", "holm"),
            ),
        ),  # fmt: skip
        Scenario(
            "lb-bh",
            "leaderboard",
            "A false discovery rate instead",
            'Holm keeps the chance of any false "beats" below 0.05; Benjamini-Hochberg '
            "keeps their expected share below it: how many pairs differ now?",
            (
                ("ds", "breast_cancer_five"),
                ("metric", "ROC AUC"),
                ("test", "delong"),
                ("corr", "bh"),
            ),
        ),  # fmt: skip
    )


def _multiclass() -> tuple[Scenario, ...]:
    """Multiclass: top-k accuracy and a normalized confusion matrix."""
    return (
        Scenario(
            "mc-iris-top2",
            "multiclass",
            "Three iris species, top-2",
            "with k = 2 of 3 classes, how close to 1 is top-2 accuracy, and why is it no "
            "proof of a good model?",
            (("ds", "iris"), ("k", "2")),
        ),
        Scenario(
            "mc-digits-recall",
            "multiclass",
            "Ten digits, rows as recall",
            "the diagonal of the row-normalized matrix is each digit's recall: which digit "
            "is confused most, and with which?",
            (("ds", "digits10"), ("norm", "true")),
        ),
    )


@functools.cache
def all_scenarios() -> tuple[Scenario, ...]:
    """Every scenario of the app, page by page.

    Examples
    --------
    >>> ids = [s.id for s in all_scenarios()]
    >>> len(ids) == len(set(ids)), len(for_page("dcg"))
    (True, 3)
    """
    return (
        *_home(),
        *_curves(),
        *_label_ranking(),
        *_dcg(),
        *_retrieval(),
        *_multilabel(),
        *_regression(),
        *_compare(),
        *_leaderboard(),
        *_multiclass(),
    )


def for_page(page: str) -> tuple[Scenario, ...]:
    """The scenarios of ``page`` (a page's slug, such as ``"dcg"``).

    Examples
    --------
    >>> [s.title for s in for_page("home")]
    ['A perfect ranker', 'Scores unrelated to the labels', 'Rare positives']
    """
    return tuple(s for s in all_scenarios() if s.page == page)
