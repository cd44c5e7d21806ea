"""What "Predict, then reveal" (``?reveal=0``) must keep off the screen until Reveal:
the numbers a page's headlines and derivations give away, computed here from the page
models and ``metrics`` (never read from the app), and every way the app writes them.

Shared by the AppTest sweep (``tests/views/test_reveal_airtight.py``) and the browser
walk (``tests/e2e/test_reveal_airtight.py``): both pass the page's slug and the
address it wrote (every setting of a page is in its URL), get the hidden numbers'
texts (:func:`hidden_texts`) and look for them in what the app drew (:func:`leaks`).

What counts as hidden: each headline number at the settings in use and, on a teaching
sample small enough to be read row by row (up to :data:`SMALL` rows), each sample's or
query's own term of those means (the LRAP of each sample, each query's AP@K, each
row's DCG): a scenario's teaching point is one of them. And the numbers the source
documents print for their worked examples (:data:`explorer.examples.EXAMPLES`), as they
print them ("0.76", "0.777"): on Home, whose cards list every example, and on a page
opened on an example's sample.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

import numpy as np

from explorer.formatting import fmt, short
from explorer.links import decode_dataset
from explorer.samples import load_sample

#: Up to this many samples (queries, rows) a page's per-sample terms are hidden too.
SMALL = 12


def dataset_of(query: Mapping[str, str]):
    """The dataset the address names: ``ds=<sample>`` or ``data=<packed>``."""
    if query.get("data"):
        return decode_dataset(query["data"])
    return load_sample(query["ds"])


def _model(ds, q) -> str:
    """The page's model (a page with one model may not write it)."""
    return q.get("model", ds.model_names[0])


def _home(ds, q) -> list[float]:
    from explorer.pages import home

    return [n.value for n in home.headline(ds)]


def _curves(ds, q) -> list[float]:
    from explorer.pages import curves

    model, t = _model(ds, q), float(q["t"])
    beta = float(q.get("beta", "1"))
    cur = curves.curves(ds, model)
    rates = curves.rates(ds, model, t, beta)
    values = [cur["auc"], cur["ap"], curves.log_loss_values(ds, model)[0]]
    # the rates at the threshold are the operating point's coordinates on the curves:
    # hidden as text, not as the curves' points
    return values, [rates[name] for name in curves.RATE_LABELS.values()]


def _label_ranking(ds, q) -> list[float]:
    from explorer.pages import label_ranking

    res = label_ranking.summary(ds, _model(ds, q))
    values = [res.coverage, res.lrap, res.loss, label_ranking.mrr(ds, _model(ds, q))]
    if res.contrib is not None and ds.n_samples <= SMALL:
        for column in ("coverage", "lrap", "ranking_loss"):
            values += res.contrib[column].tolist()
    return values


def _dcg(ds, q) -> list[float]:
    from explorer.pages import dcg

    base = q.get("log_base", "2")
    settings = dcg.Settings(
        _model(ds, q),
        k=dcg.parse_k(q.get("k", "")),
        log_base=dcg.BASE_VALUES.get(base) or float(base),
        ignore_ties=dcg.parse_bool(q.get("ignore_ties", "0")),
        exponential=dcg.parse_gain(q.get("gain", "linear")) == dcg.GAINS[1],
    )
    table = dcg.per_sample_table(ds, settings)
    head = dcg.headline(ds, table)
    values = [head.dcg, head.ndcg]
    if ds.n_samples <= SMALL:
        values += table["DCG"].tolist() + table["NDCG"].tolist()
    return values


def _retrieval(ds, q) -> list[float]:
    from explorer.pages import retrieval

    settings = retrieval.Settings(
        k=int(q["k"]),
        denominator=q["ap_denominator"],
        level=int(q["rel_level"]),
        gain=q["gain"],
        max_grade=float(q["max_grade"]),
        ties=q["tie_mode"],
    )
    empty = q["empty_query"]
    per_query, _ = retrieval.tables(ds, _model(ds, q), settings, empty)
    values = list(retrieval.headline(per_query, empty).values())
    if ds.n_samples <= SMALL:
        for _, column in retrieval.HEADLINE:
            values += per_query[column].tolist()
    return values


def _multilabel(ds, q) -> list[float]:
    from explorer.pages import multilabel

    rule, t = q["rule"], float(q["t"])
    thresholds = (
        multilabel.threshold_list(q.get("lt"), ds.n_labels, t) if rule == "per_label" else ()
    )
    top_k = int(q.get("k", "1"))
    pred, counts = multilabel.prediction(ds, _model(ds, q), rule, t, thresholds, top_k)
    res = multilabel.summary(ds, pred, counts, float(q.get("beta", "1")), q["zd"])
    avg = res["averages"]
    return [
        res["hamming"],
        res["subset"],
        avg["micro"]["f1"],
        avg["macro"]["f1"],
        avg["samples"]["jaccard"],
    ]


def _multiclass(ds, q) -> list[float]:
    from explorer.pages import multiclass

    res = multiclass.summary(ds, _model(ds, q), int(q["k"]))
    keys = ("accuracy", "balanced", "macro_f1", "mcc", "kappa", "log_loss", "top_k")
    return [res[k] for k in keys] + [res["auc"]["macro"]]


def _regression(ds, q) -> list[float]:
    from explorer.pages import regression

    model, weights = _model(ds, q), q["weights"]
    move = (int(q.get("outlier", "0")), float(q.get("shift", "0")))
    now = regression.headline(ds, model, weights, *move)
    values = [value for value, _ in now.values()]
    if move[1]:
        before = regression.headline(ds, model, weights, 0, 0.0)
        values += list(regression.changes(now, before).values())
    return values


def _compare(ds, q) -> list[float]:
    from explorer.pages import compare

    result = compare.compare(ds, q["a"], q["b"])
    return [v for row in result.rows for v in (row.a, row.b, row.diff)]


def _slices(ds, q) -> list[float]:
    from explorer import slicing
    from explorer.pages import slices

    first = q.get("by", ds.attribute_names[0])  # a setting at its default is not written
    by = (first,) if q.get("by2", "(none)") == "(none)" else (first, q["by2"])
    cuts = tuple(slicing.parse_cuts(q.get(p, "")) or None for p in ("cuts", "cuts2")[: len(by)])
    metric = q.get("metric", slices.metric_labels(ds.kind)[0])
    settings = slices.Settings(_model(ds, q), metric, by, cuts, float(q.get("t", 0.5)))
    labels = slices.grouping(ds, settings).labels
    own = slices.parse_group_thresholds(q.get("gt", ""), labels)
    settings = dataclasses.replace(settings, group_thresholds=tuple(own.items()))
    f = slices.frame(ds, settings)
    return [f.overall, f.difference(), *f.value]


def _leaderboard(ds, q) -> list[float]:
    from explorer.pages import leaderboard

    first, *more = q["metric"].split(";")
    settings = leaderboard.Settings(first, q["test"], q["corr"], float(q["alpha"]), tuple(more))
    out = []
    for each in leaderboard.each_metric(ds, settings):
        r = leaderboard.board(ds, each).result
        out += [*r.estimate, *r.diff]
    return out


HEADLINES = {
    "home": _home,
    "curves": _curves,
    "label_ranking": _label_ranking,
    "dcg": _dcg,
    "retrieval": _retrieval,
    "multilabel": _multilabel,
    "multiclass": _multiclass,
    "regression": _regression,
    "compare": _compare,
    "slices": _slices,
    "leaderboard": _leaderboard,
}


class Hidden(NamedTuple):
    """The hidden numbers' texts: ``strict``, the exact floats (``repr``) looked for
    among the bare numbers of the charts' data (a bar's height), and ``text``, every
    written form (:func:`forms`) looked for in what the page writes."""

    strict: frozenset[str]
    text: frozenset[str]


def hidden_values(slug: str, query: Mapping[str, str]) -> tuple[list[float], list[float]]:
    """The numbers page ``slug`` hides at the address ``query`` (its dataset and every
    setting): those hidden anywhere, and those hidden as text only (the threshold's
    rates, which the curves draw as points); finite ones only."""
    compute = HEADLINES.get(slug)
    if compute is None:
        return [], []
    got = compute(dataset_of(query), query)
    strict, text = got if isinstance(got, tuple) else (got, [])
    return _finite(strict), _finite(text)


def _finite(values) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(float(v))]


def forms(value: float) -> set[str]:
    """Every way the app writes ``value``: a headline's digits (:func:`fmt`, 3 and 4),
    :func:`short`, fixed 2 to 4 decimals, and the float's own repr (plotly's JSON).

    Only forms with two significant digits or more: "1", "0.5" or "2" are read in
    settings, ranks and counts everywhere, and say nothing of a mean by themselves;
    two decimals only from 1 up ("5.63"; "0.83" is a threshold's tick as often).

    Examples
    --------
    >>> sorted(forms(0.5))
    ['0.500', '0.5000']
    >>> sorted(forms(7.5))
    ['7.5', '7.50', '7.500', '7.5000']
    >>> sorted(forms(5.630929753571458))[:2]
    ['5.63', '5.6309']
    >>> sorted(forms(0.7777777777777778))[:3]
    ['0.7777777777777778', '0.7778', '0.778']
    """
    value = abs(value)
    texts = {fmt(value), fmt(value, 3), short(value), repr(value)}
    texts |= {f"{value:.{d}f}" for d in ((2, 3, 4) if value >= 1 else (3, 4))}
    return {t for t in texts if len(re.sub(r"\D", "", t).lstrip("0")) >= 2}


def hidden_texts(slug: str, query: Mapping[str, str]) -> Hidden:
    """The texts of :func:`hidden_values`, but those the screen shows for another
    reason: a number equal to a setting of the address (a threshold of 0.5 shows as
    0.50 on its slider), and a text the data's own values are written as (a DCG at
    k = 1 is the top item's gain, 5.0; an AP of 0.963 may be a score)."""
    settings = {float(v) for v in query.values() if _is_number(v)}
    strict, text = hidden_values(slug, query)
    data = set()
    for value in _data_values(dataset_of(query)):
        data |= forms(value)

    def kept(values) -> list[float]:
        return [v for v in values if not any(math.isclose(v, s, abs_tol=1e-12) for s in settings)]

    written = set().union(*(forms(v) for v in kept(strict + text)), printed(slug, query)) - data
    bare = {repr(v) for v in kept(strict)} - data
    return Hidden(frozenset(bare), frozenset(written))


def printed(slug: str, query: Mapping[str, str]) -> set[str]:
    """The numbers the documents print for the worked examples a page shows the answers
    of: every example on Home (its cards), on another page the examples it teaches on
    the sample of ``query``; as printed, those of two significant digits or more.

    Examples
    --------
    >>> sorted(printed("retrieval", {"ds": "seed002_map"}))
    ['0.63', '0.76']
    >>> printed("retrieval", {"ds": "balanced"})
    set()
    """
    from explorer.examples import EXAMPLES

    texts = set()
    for ex in EXAMPLES:
        if slug == "home" or (ex.page == slug and dict(ex.params)["ds"] == query.get("ds")):
            texts.update(re.findall(r"\d*\.\d+|\d+", ex.printed))
    return {t for t in texts if len(re.sub(r"\D", "", t).lstrip("0")) >= 2}


def _data_values(ds) -> set[float]:
    """The labels, gains and weights (not the scores: a score of 0.880 is as likely as
    not, and a hidden 0.880 in a legend is a leak all the same)."""
    arrays = [ds.y_true]
    if ds.sample_weight is not None:
        arrays.append(ds.sample_weight)
    values: set[float] = set()
    for array in arrays:
        flat = np.asarray(array, dtype=float).ravel()
        values.update(np.unique(flat[np.isfinite(flat)]).tolist())
    return values


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def leaks(
    texts: Iterable[str], hidden: Hidden, numbers: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """(hidden text, the text it was found in) for each hidden number written in
    ``texts`` (:attr:`Hidden.text`) or among the bare ``numbers`` of the charts' data
    (:attr:`Hidden.strict`): as a number of its own, not inside a longer one ("0.5000" is not in
    "10.5000" nor in "0.50001").

    Examples
    --------
    >>> hidden = Hidden(frozenset({"7.5"}), frozenset({"0.5000", "7.5"}))
    >>> leaks(["LRAP 0.5000", "x 10.5000", "0.50001"], hidden, ["0.5000", "7.5"])
    [('0.5000', 'LRAP 0.5000'), ('7.5', '7.5')]
    """
    return _found(texts, hidden.text) + _found(numbers, hidden.strict)


def _found(texts: Iterable[str], hidden: frozenset[str]) -> list[tuple[str, str]]:
    if not hidden:
        return []
    alternatives = "|".join(re.escape(h) for h in sorted(hidden, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\d.])({alternatives})(?![\d])")
    found = []
    for text in texts:
        for match in pattern.finditer(text):
            start = max(match.start() - 60, 0)
            found.append((match.group(1), text[start : match.end() + 60]))
    return found
