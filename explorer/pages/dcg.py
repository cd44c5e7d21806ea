"""DCG & NDCG page model: per-sample tables, one sample's steps, and what ties do.

Pure functions of a :class:`~explorer.datasets.Dataset` and the page's
:class:`Settings`; no streamlit. The view calls the cached ones through
:mod:`explorer.ui.cache.dcg`: the one sort of a model's scores
(:func:`ranking`), the per-sample table and its worst-first order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import metrics
from explorer.datasets import Dataset
from explorer.formatting import short
from metrics import (
    DcgRanking,
    dcg_ranking,
    dcg_ranking_table,
    dcg_tie_order_steps,
    exponential_gain,
)

#: The gain choices (the relevance as given, or 2^rel - 1) and their URL values.
GAINS = ("as given (scikit-learn)", "2^rel - 1")
GAIN_PARAM = {GAINS[0]: "linear", GAINS[1]: "exponential"}
#: The log base choices; "other" is a free base.
BASES = ("2", "e", "10", "other")
BASE_VALUES = {"2": 2.0, "e": float(np.e), "10": 10.0}
#: The tools whose conventions the page offers: scikit-learn's (ignored ties higher column
#: first, a sample with no relevant item NDCG 0) and LightGBM's and XGBoost's ndcg@k
#: (ignored ties in the input order, a stable sort; a query with no relevant item NDCG 1).
PRESETS = ("scikit-learn", "LightGBM / XGBoost")
#: What choosing a preset sets the gain and the tie switch to (the tool's own defaults).
PRESET_CONTROLS = {PRESETS[0]: (GAINS[0], False), PRESETS[1]: (GAINS[1], True)}
#: A preset's URL value.
PRESET_PARAM = {PRESETS[0]: "sklearn", PRESETS[1]: "lightgbm"}


@dataclass(frozen=True)
class Settings:
    """What the page's controls choose: the model, the cut-off, the base, ties, the gain.

    Attributes
    ----------
    model : str
        One of the dataset's model names.
    k : int or None
        Only the top ``k`` positions count; None for all items.
    log_base : float
        Base of the logarithm of the discount.
    ignore_ties : bool
        Rank tied items higher column first instead of averaging their gains.
    exponential : bool
        Use the gain ``2 ** rel - 1`` instead of the relevance as given.
    preset : str
        One of :data:`PRESETS`: whose order ignored ties take, and what a sample with
        no relevant item scores.

    Examples
    --------
    >>> Settings("model", k=2).tie_rule, Settings("m", ignore_ties=True, preset=PRESETS[1]).tie_rule
    (False, 'column')
    """

    model: str
    k: int | None = None
    log_base: float = 2.0
    ignore_ties: bool = False
    exponential: bool = False
    preset: str = PRESETS[0]

    @property
    def tie_rule(self) -> bool | str:
        """``ignore_ties`` of :func:`metrics.dcg_ranking_table`: False (averaged), True
        (higher column first, scikit-learn) or "column" (the input order, LightGBM)."""
        if self.ignore_ties and self.preset == PRESETS[1]:
            return "column"
        return self.ignore_ties

    @property
    def empty_scores_one(self) -> bool:
        """A sample with no relevant item counts NDCG 1 (LightGBM's rule), not 0."""
        return self.preset == PRESETS[1]


# ------------------------------------------------------------------ settings from a link
def parse_k(raw: str) -> int | None:
    """The cut-off k of a link: a whole number >= 1, or None (all items).

    Examples
    --------
    >>> parse_k("3"), parse_k("all"), parse_k("")
    (3, None, None)
    >>> parse_k("0")
    Traceback (most recent call last):
    ...
    ValueError: 0
    """
    if raw.strip().lower() in ("", "all", "none"):
        return None
    k = int(raw)
    if k < 1:
        raise ValueError(raw)
    return k


def parse_base_choice(raw: str) -> str:
    """The log base choice of a link: one of :data:`BASES` ("other" for a free base).

    Examples
    --------
    >>> parse_base_choice("e"), parse_base_choice("3.5")
    ('e', 'other')
    """
    if raw in BASE_VALUES:
        return raw
    float(raw)  # a free base; a non-number falls back to the default
    return "other"


def parse_bool(raw: str) -> bool:
    """A switch of a link: "1", "true", "yes" or "on" (any case) is on.

    Examples
    --------
    >>> parse_bool("1"), parse_bool("True"), parse_bool("0")
    (True, True, False)
    """
    return raw.strip().lower() in ("1", "true", "yes", "on")


def parse_preset(raw: str) -> str:
    """The preset of a link, by its name or a short one ("sklearn", "lightgbm").

    Examples
    --------
    >>> parse_preset("lightgbm"), parse_preset("scikit-learn")
    ('LightGBM / XGBoost', 'scikit-learn')
    """
    if raw in PRESETS:
        return raw
    aliases = {**{v: k for k, v in PRESET_PARAM.items()}, "xgboost": PRESETS[1]}
    return aliases[raw.strip().lower()]  # a KeyError: the link falls back to the default


def parse_gain(raw: str) -> str:
    """The gain choice of a link, by its label or its URL value (:data:`GAIN_PARAM`).

    Examples
    --------
    >>> parse_gain("exponential"), parse_gain("linear")
    ('2^rel - 1', 'as given (scikit-learn)')
    """
    for label, param in GAIN_PARAM.items():
        if raw in (label, param):
            return label
    raise ValueError(raw)


# ------------------------------------------------------------------ every sample
def ranking(ds: Dataset, model: str) -> DcgRanking:
    """The one sort of a model's scores, shared by every k, log base, gain and tie mode.

    Parameters
    ----------
    ds : Dataset
        A graded or multilabel dataset.
    model : str
        One of ``ds.model_names``.

    Returns
    -------
    metrics.DcgRanking

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ranking(load_sample("seed001_dcg"), "model").pessimistic.tolist()
    [[4, 3, 2, 1, 0], [4, 0, 1, 2, 3]]
    """
    return dcg_ranking(ds.y_true, ds.score(model), retrieved=ds.retrieved)


def per_sample_table(
    ds: Dataset, settings: Settings, ranked: DcgRanking | None = None
) -> pd.DataFrame:
    """Per-sample DCG, ideal DCG, NDCG and tie bounds of one model.

    Parameters
    ----------
    ds : Dataset
        A graded or multilabel dataset.
    settings : Settings
    ranked : metrics.DcgRanking, optional
        :func:`ranking` of ``ds`` and ``settings.model`` (sorted here when None).

    Returns
    -------
    pandas.DataFrame
        One row per sample: ``row``, ``sample`` (its id), ``DCG``, ``ideal DCG``,
        ``NDCG``, ``pessimistic DCG``, ``optimistic DCG``, ``no relevant item``
        and, when the dataset has sample weights, ``weight``.

    Raises
    ------
    metrics.MetricInputError
        Settings the metrics refuse (a log base of 1, grades too large for 2^rel - 1).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> t = per_sample_table(load_sample("seed001_dcg"), Settings("model", k=1))
    >>> t[["DCG", "pessimistic DCG", "optimistic DCG"]].round(3).values.tolist()
    [[5.0, 5.0, 5.0], [7.5, 5.0, 10.0]]
    """
    if ranked is None:
        ranked = ranking(ds, settings.model)
    values = dcg_ranking_table(
        ranked,
        k=settings.k,
        log_base=settings.log_base,
        ignore_ties=settings.tie_rule,
        exponential=settings.exponential,
    )
    table = pd.concat(
        [pd.DataFrame({"row": np.arange(ds.n_samples), "sample": ds.sample_ids}), values], axis=1
    )
    table["no relevant item"] = table["ideal DCG"] == 0
    if settings.empty_scores_one:
        table.loc[table["no relevant item"], "NDCG"] = 1.0
    if ds.sample_weight is not None:
        table["weight"] = ds.sample_weight
    return table


def worst_first(table: pd.DataFrame) -> pd.DataFrame:
    """The per-sample table sorted by NDCG then DCG, lowest first; no relevant item last.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`per_sample_table`.

    Returns
    -------
    pandas.DataFrame
        The same rows, stably sorted.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> table = per_sample_table(load_sample("seed001_dcg"), Settings("model"))
    >>> worst_first(table)["row"].tolist()
    [0, 1]
    """
    return table.sort_values(["no relevant item", "NDCG", "DCG"], kind="stable")


def worst_row(table: pd.DataFrame) -> int:
    """The row :func:`worst_first` puts first, without sorting the table.

    The lowest NDCG, then the lowest DCG, then the first row, among the samples
    with a relevant item (among all of them when none has one): a few passes over
    the columns, not a sort of every row (the page opens the drill-down on it at
    each setting; the sorted table is drawn only in its tab).

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`per_sample_table`.

    Returns
    -------
    int
        That sample's 0-based row.

    Examples
    --------
    >>> t = pd.DataFrame({"row": [0, 1, 2, 3], "NDCG": [0.5, 0.0, 0.2, 0.2],
    ...                   "DCG": [1.0, 0.0, 0.9, 0.4],
    ...                   "no relevant item": [False, True, False, False]})
    >>> worst_row(t), int(worst_first(t)["row"].iloc[0])
    (3, 3)
    """
    empty = table["no relevant item"].to_numpy()
    keep = ~empty if not empty.all() else np.ones_like(empty)
    for name in ("NDCG", "DCG"):
        values = table[name].to_numpy()
        keep &= values == values[keep].min()
    return int(table["row"].to_numpy()[np.argmax(keep)])


@dataclass(frozen=True)
class Headline:
    """The page's headline: mean DCG and NDCG, and the samples with no relevant item."""

    dcg: float
    ndcg: float
    #: Ids of the samples whose every gain is 0 (their NDCG counts as 0, or 1 under
    #: LightGBM's rule: :attr:`Settings.empty_scores_one`).
    no_relevant: tuple[str, ...]


def headline(ds: Dataset, table: pd.DataFrame) -> Headline:
    """The (weighted) means of the per-sample DCG and NDCG: ``dcg_score`` and ``ndcg_score``.

    Parameters
    ----------
    ds : Dataset
        The dataset of ``table`` (its sample weights weigh the means).
    table : pandas.DataFrame
        From :func:`per_sample_table`.

    Returns
    -------
    Headline

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed001_dcg")
    >>> h = headline(ds, per_sample_table(ds, Settings("model")))
    >>> round(h.dcg, 4), round(h.ndcg, 4), h.no_relevant
    (11.0853, 0.8118, ())
    """
    w = ds.sample_weight
    return Headline(
        dcg=float(np.average(table["DCG"], weights=w)),
        ndcg=float(np.average(table["NDCG"], weights=w)),
        no_relevant=tuple(table.loc[table["no relevant item"], "sample"]),
    )


# ------------------------------------------------------------------ one sample
def averaging_text(steps: pd.DataFrame) -> list[str]:
    """'(10 + 5) / 2 = 7.5' on the first row of each tie group of 2 or more.

    The group's other rows get '"' (ditto), untied rows ''.

    Parameters
    ----------
    steps : pandas.DataFrame
        :func:`metrics.dcg_steps` of one sample (or a slice of it).

    Returns
    -------
    list of str
        One text per row of ``steps``.

    Examples
    --------
    >>> averaging_text(metrics.dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1]))
    ['(10 + 5) / 2 = 7.5', '"', '(0 + 0 + 1) / 3 = 0.3333', '"', '"']
    """
    out = []
    first = ~steps["tie_group"].duplicated()
    groups = steps.groupby("tie_group")["relevance"].apply(list)
    for g, size, mean, is_first in zip(
        steps["tie_group"], steps["tie_size"], steps["mean_gain"], first, strict=True
    ):
        if size > 1 and is_first:
            out.append(f"({' + '.join(short(v) for v in groups[g])}) / {size} = {short(mean)}")
        elif size > 1:
            out.append('"')
        else:
            out.append("")
    return out


def steps_view(steps: pd.DataFrame, names, grades, *, averaged: bool) -> pd.DataFrame:
    """The step table as the page shows it: item names, grades, gains, averaging.

    Parameters
    ----------
    steps : pandas.DataFrame
        :func:`metrics.dcg_steps` of one sample.
    names : sequence of str
        The item (label) names, by column.
    grades : ndarray of shape (n_items,)
        The sample's grades as given (before any gain transform).
    averaged : bool
        Add the ``averaging`` column (tie-averaged steps).

    Returns
    -------
    pandas.DataFrame
        Columns ``position``, ``item``, ``score``, ``grade``, ``gain``, ``tie group``,
        ``tie size``, ``gain used``, [``averaging``], ``discount``, ``contribution``,
        ``running sum`` and ``in top k`` ("yes"/"no"); ``retrieved`` ("yes"/"no") after
        ``item`` when an item was not retrieved.

    Examples
    --------
    >>> steps = metrics.dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], k=1)
    >>> v = steps_view(steps, list("abcde"), np.array([10, 0, 0, 1, 5]), averaged=True)
    >>> v[["item", "gain used", "averaging", "in top k"]].values.tolist()[:2]
    [['a', 7.5, '(10 + 5) / 2 = 7.5', 'yes'], ['e', 7.5, '"', 'no']]
    """
    view = pd.DataFrame(
        {
            "position": steps["position"],
            "item": [names[i] for i in steps["item"]],
            "score": steps["score"],
            "grade": grades[steps["item"].to_numpy()],
            "gain": steps["relevance"],
            "tie group": steps["tie_group"],
            "tie size": steps["tie_size"],
            "gain used": steps["mean_gain"],
            "averaging": averaging_text(steps) if averaged else "",
            "discount": steps["discount"],
            "contribution": steps["contribution"],
            "running sum": steps["running_sum"],
            "in top k": np.where(steps["in_top_k"], "yes", "no"),
        }
    )
    if not averaged:
        view = view.drop(columns="averaging")
    if "retrieved" in steps and not steps["retrieved"].all():  # a run's unretrieved items
        view.insert(2, "retrieved", np.where(steps["retrieved"], "yes", "no"))
    return view


@dataclass(frozen=True)
class SampleSteps:
    """One sample's DCG position by position, in the model's and in the ideal order."""

    gains: np.ndarray  # the sample's gains (2^rel - 1 with the exponential gain)
    steps: pd.DataFrame  # metrics.dcg_steps in the model's order
    ideal: pd.DataFrame  # metrics.dcg_steps in the ideal order
    dcg: float
    ideal_dcg: float
    ndcg: float


def sample_steps(ds: Dataset, settings: Settings, row: int, table: pd.DataFrame) -> SampleSteps:
    """The selected sample's step tables; its numbers are the per-sample table's.

    Parameters
    ----------
    ds : Dataset
    settings : Settings
    row : int
        The sample's 0-based row.
    table : pandas.DataFrame
        :func:`per_sample_table` at ``settings``.

    Returns
    -------
    SampleSteps
        Its ``steps`` end at ``dcg``, its ``ideal`` at ``ideal_dcg``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds, settings = load_sample("seed001_dcg"), Settings("model", k=2)
    >>> one = sample_steps(ds, settings, 0, per_sample_table(ds, settings))
    >>> round(one.dcg, 4), round(float(one.steps["running_sum"].iloc[-1]), 4)
    (5.6309, 5.6309)
    >>> round(one.ideal_dcg, 4), round(one.ndcg, 4)
    (13.1546, 0.4281)
    """
    gains = ds.y_true[row : row + 1]  # transforming only this row, not the whole matrix
    if settings.exponential:
        gains = exponential_gain(gains)
    gains = gains[0]
    k, base = settings.k, settings.log_base
    return SampleSteps(
        gains=gains,
        steps=metrics.dcg_steps(
            gains,
            ds.score(settings.model)[row],
            k=k,
            log_base=base,
            ignore_ties=settings.tie_rule,
            retrieved=None if ds.retrieved is None else ds.retrieved[row],
        ),
        ideal=metrics.dcg_steps(gains, gains, k=k, log_base=base, ignore_ties=True),
        dcg=float(table["DCG"].iloc[row]),
        ideal_dcg=float(table["ideal DCG"].iloc[row]),
        ndcg=float(table["NDCG"].iloc[row]),
    )


@dataclass(frozen=True)
class TieGroup:
    """One tie group of a sample's averaged steps, for the list under the step table."""

    group: int
    first: int  # its first and last positions
    last: int
    items: tuple[str, ...]
    score: float
    averaging: str  # '(10 + 5) / 2 = 7.5'
    discounts: tuple[float, ...]
    mean_gain: float
    total: float  # what the group adds to the DCG
    after_k: int  # how many of its positions are after k


def tie_groups(steps: pd.DataFrame, names) -> list[TieGroup]:
    """The tie groups of 2 or more items of one sample's steps, in position order.

    Parameters
    ----------
    steps : pandas.DataFrame
        :func:`metrics.dcg_steps` of one sample.
    names : sequence of str
        The item names, by column.

    Returns
    -------
    list of TieGroup

    Examples
    --------
    >>> steps = metrics.dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], k=1)
    >>> g = tie_groups(steps, list("abcde"))[0]
    >>> g.items, g.averaging, g.discounts, g.total, g.after_k
    (('a', 'e'), '(10 + 5) / 2 = 7.5', (1.0, 0.0), 7.5, 1)
    """
    out = []
    tied = steps[steps["tie_size"] > 1]
    for g, grp in tied.groupby("tie_group"):
        out.append(
            TieGroup(
                group=int(g),
                first=int(grp["position"].min()),
                last=int(grp["position"].max()),
                items=tuple(names[i] for i in grp["item"]),
                score=float(grp["score"].iloc[0]),
                averaging=averaging_text(grp.reset_index(drop=True))[0],
                discounts=tuple(float(d) for d in grp["discount"]),
                mean_gain=float(grp["mean_gain"].iloc[0]),
                total=float(grp["contribution"].sum()),
                after_k=int((~grp["in_top_k"]).sum()),
            )
        )
    return out


@dataclass(frozen=True)
class TieComparison:
    """What tied scores do to one sample: its DCG under the four orders of ties."""

    dcg: dict[str, float]  # by TIE_WAYS
    has_ties: bool
    averaged: pd.DataFrame  # metrics.dcg_steps, ties averaged
    ignored: pd.DataFrame  # metrics.dcg_steps, ties ignored
    input_order: pd.DataFrame  # metrics.dcg_steps, ties in the input order (LightGBM)
    moved: pd.DataFrame  # the items whose position changes when ties are ignored
    orders: pd.DataFrame  # metrics.dcg_tie_order_steps with item names


def tie_comparison(
    ds: Dataset, settings: Settings, row: int, table: pd.DataFrame, gains: np.ndarray
) -> TieComparison:
    """One sample's DCG pessimistic, tie-averaged, with ignore_ties (scikit-learn's higher
    column first), in the input order (the LightGBM / XGBoost preset's) and optimistic.

    Parameters
    ----------
    ds : Dataset
    settings : Settings
        Its ``k``, ``log_base`` and ``model`` count (both tie modes are computed).
    row : int
        The sample's 0-based row.
    table : pandas.DataFrame
        :func:`per_sample_table` at ``settings`` (its tie bounds).
    gains : ndarray of shape (n_items,)
        The sample's gains (:attr:`SampleSteps.gains`).

    Returns
    -------
    TieComparison

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds, settings = load_sample("seed001_dcg"), Settings("model", k=1)
    >>> table = per_sample_table(ds, settings)
    >>> ties = tie_comparison(ds, settings, 1, table, ds.y_true[1])
    >>> [(way, round(v, 3)) for way, v in ties.dcg.items()][2:]
    [('ignore_ties', 5.0), ('input order', 10.0), ('optimistic', 10.0)]
    >>> ties.moved[["item", "position (averaged table)", "position (ignore_ties)"]].values.tolist()
    [['a', 1, 2], ['b', 3, 5], ['d', 5, 3], ['e', 2, 1]]
    """
    names = ds.item_names(row)
    k, base = settings.k, settings.log_base
    scores = ds.score(settings.model)[row]
    seen = None if ds.retrieved is None else ds.retrieved[row]
    kw = {"k": k, "log_base": base}
    # the four orders rank the retrieved items only: the others last, with no gain
    shown_gains, shown_scores = gains, scores
    if seen is not None:
        shown_gains = np.where(seen, gains, 0.0)
        shown_scores = np.where(seen, scores, scores.min() - 1.0)
    orders = dcg_tie_order_steps(shown_gains, shown_scores, **kw)
    averaged = metrics.dcg_steps(gains, scores, retrieved=seen, **kw)
    ignored = metrics.dcg_steps(gains, scores, retrieved=seen, ignore_ties=True, **kw)
    in_order = metrics.dcg_steps(gains, scores, retrieved=seen, ignore_ties="column", **kw)
    input_position = pd.Series(in_order["position"].to_numpy(), index=in_order["item"])
    moved = orders[orders["moved"]]
    one, one_score = gains[None, :], scores[None, :]
    mask = None if seen is None else seen[None, :]
    return TieComparison(
        dcg={
            "pessimistic": float(table["pessimistic DCG"].iloc[row]),
            "tie-averaged": float(metrics.dcg_per_sample(one, one_score, retrieved=mask, **kw)[0]),
            "ignore_ties": float(
                metrics.dcg_per_sample(one, one_score, retrieved=mask, ignore_ties=True, **kw)[0]
            ),
            "input order": float(in_order["running_sum"].iloc[-1]),
            "optimistic": float(table["optimistic DCG"].iloc[row]),
        },
        has_ties=bool((orders["tie_size"] > 1).any()),
        averaged=averaged,
        ignored=ignored,
        input_order=in_order,
        moved=pd.DataFrame(
            {
                "item": [names[i] for i in moved["item"]],
                "score": moved["score"],
                "gain": moved["relevance"],
                "position (averaged table)": moved["position_averaged"],
                "position (ignore_ties)": moved["position_ignore_ties"],
                "position (input order)": input_position[moved["item"]].to_numpy(),
                "position pessimistic": moved["position_pessimistic"],
                "position optimistic": moved["position_optimistic"],
            }
        ),
        orders=orders.assign(item=[names[i] for i in orders["item"]]),
    )
