"""What is timed: every metric of the contract, and the comparators' equivalent calls.

A :class:`Case` is one call of ours (``metrics.NAME(...)`` with fixed
arguments) and the calls of scikit-learn, torchmetrics and ranx that compute
the same number through the API their users call. Each comparator call
(:class:`Ref`) states whether its value must agree with ours, and if it may
not, names the convention that differs.

Comparator inputs
-----------------
scikit-learn
    the same numpy arrays.
torchmetrics
    ``torch.from_numpy`` views of the same arrays (no copy, built outside the
    timer). The label-ranking, AUROC and AP metrics are the functional
    ``torchmetrics.functional.classification.multilabel_*`` / ``binary_*``;
    the retrieval metrics are the ``torchmetrics.retrieval.Retrieval*``
    classes fed the flattened matrix with one query index per row (the way a
    user scores many queries: each class calls
    ``torchmetrics.functional.retrieval_*`` once per query).
ranx
    ``ranx.Qrels`` (the relevant items of each row, grade as an int) and
    ``ranx.Run`` (every item of each row with its score), built from Python
    dicts; building them is timed separately (:func:`ranx_setup`), then
    ``ranx.evaluate(qrels, run, "metric")``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import metrics as M
from bench.data import BenchData, K

LIBS = ("scikit-learn", "torchmetrics", "ranx")
_MODULES = {"scikit-learn": "sklearn", "torchmetrics": "torchmetrics", "ranx": "ranx"}


def available(lib: str) -> str | None:
    """The installed version of a comparison library, or None when it is missing."""
    try:
        mod = importlib.import_module(_MODULES[lib])
    except Exception:  # a broken optional install counts as missing
        return None
    if lib == "ranx":
        from importlib.metadata import version

        return version("ranx")
    return getattr(mod, "__version__", "?")


@dataclass(frozen=True)
class Ref:
    """One comparator call computing what a :class:`Case` computes.

    Parameters
    ----------
    lib : str
        One of :data:`LIBS`.
    api : str
        The function or class called, for the report.
    call : callable
        ``call(data)`` -> the library's result.
    agree : {"always", "untied", "never"}
        When values must match ours: always, on untied scores only, or never
        (the report then shows the difference named by ``note``).
    note : str
        The convention that differs, when ``agree`` is not "always".
    value : callable or None
        Turns the library's result into the value compared (default: as is).
    ours_value : callable or None
        Turns our result into the value compared (default: as is).
    row_loop : bool
        The library's cost is a Python loop over rows: on a dataset with
        ``loop_rows`` set it is timed on those rows and extrapolated.
    tol : float
        Relative and absolute tolerance of the comparison.
    """

    lib: str
    api: str
    call: Callable[[BenchData], Any]
    agree: str = "always"
    note: str = ""
    value: Callable[[Any], Any] | None = None
    ours_value: Callable[[Any], Any] | None = None
    row_loop: bool = False
    tol: float = 1e-9


@dataclass(frozen=True)
class Case:
    """One of our calls and its comparators.

    Parameters
    ----------
    metric : str
        How the report names it, e.g. ``ndcg_score(k=10)``.
    ours : callable
        ``ours(data)`` -> our result.
    kinds : tuple of str
        The dataset kinds it runs on.
    predictions : bool
        Uses hard predictions (``y_score >= 0.5``) or probabilities rather
        than a ranking: run on the continuous variant only.
    refs : tuple of Ref
    """

    metric: str
    ours: Callable[[BenchData], Any]
    kinds: tuple[str, ...]
    predictions: bool = False
    refs: tuple[Ref, ...] = ()


# --------------------------------------------------------------------------
# Comparator inputs, built once per dataset and kept in ``data.cache``
# --------------------------------------------------------------------------


def _sk():
    import sklearn.metrics

    return sklearn.metrics


def _tmc():
    import torchmetrics.functional.classification as tmc

    return tmc


def _tmr():
    import torchmetrics.functional.regression as tmr

    return tmr


def _torch(d: BenchData) -> dict:
    """Zero-copy tensors of ``d``: scores, labels, predictions, flat retrieval inputs."""
    if "torch" not in d.cache:
        import torch

        t = {"s": torch.from_numpy(d.y_score), "y": torch.from_numpy(d.y_true)}
        if d.kind != "regression":
            t["pred"] = torch.from_numpy(d.y_pred)
        if d.kind == "graded":
            t["flat_s"] = t["s"].reshape(-1)
            t["flat_y"] = t["y"].reshape(-1)
            t["flat_rel"] = t["flat_y"] > 0
            t["index"] = torch.arange(d.n).repeat_interleave(d.n_labels)
        d.cache["torch"] = t
    return d.cache["torch"]


def _retrieval(cls_name: str, graded: bool = False, **kwargs) -> Callable[[BenchData], Any]:
    """A call of ``torchmetrics.retrieval.<cls_name>(**kwargs)`` over every query of ``d``."""

    def call(d: BenchData):
        import torchmetrics.retrieval as tr

        t = _torch(d)
        metric = getattr(tr, cls_name)(**kwargs)
        metric.update(t["flat_s"], t["flat_y"] if graded else t["flat_rel"], indexes=t["index"])
        return metric.compute()

    return call


def ranx_setup(d: BenchData):
    """Build ``ranx.Qrels`` and ``ranx.Run`` from the matrices of ``d`` (the timed setup).

    Query ids are zero-padded row numbers, item ids ``d0``, ``d1``, ...; the
    qrels hold the relevant items (grade > 0) as ints, the run every item.
    """
    from ranx import Qrels, Run

    docs = [f"d{j}" for j in range(d.n_labels)]
    qids = [f"q{i:07d}" for i in range(d.n)]
    grades = d.y_true.tolist()
    qrels = {
        q: {docs[j]: g for j, g in enumerate(row) if g > 0}
        for q, row in zip(qids, grades, strict=True)
    }
    run = {
        q: dict(zip(docs, row, strict=True))
        for q, row in zip(qids, d.y_score.tolist(), strict=True)
    }
    return Qrels(qrels), Run(run)


def _ranx(metric: str) -> Callable[[BenchData], Any]:
    def call(d: BenchData):
        from ranx import evaluate

        qrels, run = d.cache["ranx"]
        return evaluate(qrels, run, metric)

    return call


def to_plain(x):
    """A torch tensor (or a tuple of them) as numpy / float, for comparison."""
    if isinstance(x, (tuple, list)):
        return tuple(to_plain(v) for v in x)
    if hasattr(x, "detach"):
        a = x.detach().cpu().numpy()
        return float(a) if a.ndim == 0 else a
    return x


def _roc_area(curve) -> float:
    fpr, tpr = np.asarray(curve[0], float), np.asarray(curve[1], float)
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def _pr_step_area(curve) -> float:
    p, r = np.asarray(curve[0], float), np.asarray(curve[1], float)
    return float(-np.sum(np.diff(r) * p[:-1]))


def _auc_xy(d: BenchData) -> tuple[np.ndarray, np.ndarray]:
    if "auc_xy" not in d.cache:
        d.cache["auc_xy"] = (np.linspace(0.0, 1.0, d.n), np.sort(d.y_score))
    return d.cache["auc_xy"]


TM_FLOAT32 = 1e-5  # torchmetrics casts scores to float32 in most metrics
TIE_ORDER_TM = (
    "torchmetrics orders tied scores as torch's sort/topk leaves them, and its retrieval "
    "metrics treat a score of 0 as not retrieved; ours break ties by column order"
)
TIE_ORDER_RANX = (
    "ranx orders tied scores as its (unstable) numba argsort leaves them; "
    "ours break ties by column order"
)
TIE_ORDER_RANX_SK = (
    "ranx orders tied scores as its (unstable) numba argsort leaves them; "
    "ignore_ties=True puts tied items higher column first (scikit-learn's order)"
)
SK_IGNORE_TIES = (
    "scikit-learn's ignore_ties=True ranks tied items in the order of numpy's default "
    "(unstable; SIMD on this CPU) np.argsort, reversed; the contract's order is the stable "
    "sort reversed (higher column first), which agrees only where that argsort keeps column order"
)
TIED_RANKING_LOSS = (
    "torchmetrics' tied ranking loss: it ranks labels by argsort position, so a tied "
    "(positive, negative) pair counts as ordered or mis-ordered by sort position; "
    "scikit-learn and ours count every tied pair as mis-ordered"
)


# Short accessors and Ref builders keep the tables below readable.
sk, tmc, tmr, t = _sk, _tmc, _tmr, _torch
y = lambda d: d.y_true  # noqa: E731
s = lambda d: d.y_score  # noqa: E731
p = lambda d: d.y_pred  # noqa: E731
L = lambda d: d.n_labels  # noqa: E731
B, ML, G, R = ("binary",), ("multilabel",), ("graded",), ("regression",)


def tm(api, call, **kw):
    """A torchmetrics reference (float32: its default tolerance)."""
    return Ref("torchmetrics", api, call, tol=kw.pop("tol", TM_FLOAT32), **kw)


def skr(api, call, **kw):
    """A scikit-learn reference, named by its ``sklearn.metrics`` function."""
    return Ref("scikit-learn", "sklearn.metrics." + api, call, **kw)


def rx(metric, **kw):
    """A ranx reference: ``ranx.evaluate`` of one metric."""
    return Ref("ranx", f'ranx.evaluate(qrels, run, "{metric}")', _ranx(metric), **kw)


_BINARY_SCORES = [
    # ---------------- binary: scores ----------------
    Case(
        "roc_auc_score",
        lambda d: M.roc_auc_score(y(d), s(d)),
        B,
        refs=(
            skr("roc_auc_score", lambda d: sk().roc_auc_score(y(d), s(d))),
            tm("binary_auroc", lambda d: tmc().binary_auroc(t(d)["s"], t(d)["y"])),
        ),
    ),
    Case(
        "average_precision_score",
        lambda d: M.average_precision_score(y(d), s(d)),
        B,
        refs=(
            skr(
                "average_precision_score",
                lambda d: sk().average_precision_score(y(d), s(d)),
            ),
            tm(
                "binary_average_precision",
                lambda d: tmc().binary_average_precision(t(d)["s"], t(d)["y"]),
            ),
        ),
    ),
    Case(
        "roc_curve",
        lambda d: M.roc_curve(y(d), s(d)),
        B,
        refs=(
            skr("roc_curve", lambda d: sk().roc_curve(y(d), s(d))),
            tm(
                "binary_roc",
                lambda d: tmc().binary_roc(t(d)["s"], t(d)["y"]),
                value=_roc_area,
                ours_value=_roc_area,
                note="compared by the area under the points: torchmetrics keeps every "
                "threshold (no drop_intermediate) and starts at threshold 1, not inf",
            ),
        ),
    ),
    Case(
        "precision_recall_curve",
        lambda d: M.precision_recall_curve(y(d), s(d)),
        B,
        refs=(
            skr("precision_recall_curve", lambda d: sk().precision_recall_curve(y(d), s(d))),
            tm(
                "binary_precision_recall_curve",
                lambda d: tmc().binary_precision_recall_curve(t(d)["s"], t(d)["y"]),
                value=_pr_step_area,
                ours_value=_pr_step_area,
                note="compared by the step area (AP) of the points",
            ),
        ),
    ),
    Case(
        "auc",
        lambda d: M.auc(*_auc_xy(d)),
        B,
        refs=(skr("auc", lambda d: sk().auc(*_auc_xy(d))),),
    ),
    Case(
        "auc_pairwise",
        lambda d: M.auc_pairwise(y(d), s(d)),
        B,
        refs=(skr("roc_auc_score", lambda d: sk().roc_auc_score(y(d), s(d))),),
    ),
    Case(
        "auc_rank",
        lambda d: M.auc_rank(y(d), s(d)),
        B,
        refs=(skr("roc_auc_score", lambda d: sk().roc_auc_score(y(d), s(d))),),
    ),
    Case(
        "auc_histogram",
        lambda d: M.auc_histogram(y(d), s(d)),
        B,
        refs=(
            skr(
                "roc_auc_score(y, min(floor(100 s), 99))",
                lambda d: sk().roc_auc_score(y(d), np.minimum(np.floor(s(d) * 100), 99)),
            ),
        ),
    ),
    Case(
        "gini",
        lambda d: M.gini(y(d), s(d)),
        B,
        refs=(skr("2 * roc_auc_score - 1", lambda d: 2 * sk().roc_auc_score(y(d), s(d)) - 1),),
    ),
    # ---------------- binary: predictions / probabilities ----------------
    Case(
        "log_loss",
        lambda d: M.log_loss(y(d), s(d)),
        B,
        predictions=True,
        refs=(skr("log_loss", lambda d: sk().log_loss(y(d), s(d))),),
    ),
]
_BINARY_PRED = [
    ("confusion_matrix", {}, "binary_confusion_matrix", {}),
    ("accuracy_score", {}, "binary_accuracy", {}),
    ("precision_score", {}, "binary_precision", {}),
    ("recall_score", {}, "binary_recall", {}),
    ("f1_score", {}, "binary_f1_score", {}),
    ("fbeta_score", {"beta": 2}, "binary_fbeta_score", {"beta": 2.0}),
    ("jaccard_score", {}, "binary_jaccard_index", {}),
    ("hamming_loss", {}, "binary_hamming_distance", {}),
]


def _binary_pred_cases() -> list[Case]:
    """Binary metrics on predicted labels, one case per row of ``_BINARY_PRED``."""
    cases = []
    for name, kw, tm_name, tm_kw in _BINARY_PRED:
        label = name + (f"(beta={kw['beta']})" if kw else "")
        cases.append(
            Case(
                label,
                lambda d, name=name, kw=kw: getattr(M, name)(y(d), p(d), **kw),
                B,
                predictions=True,
                refs=(
                    skr(name, lambda d, name=name, kw=kw: getattr(sk(), name)(y(d), p(d), **kw)),
                    tm(
                        tm_name,
                        lambda d, n=tm_name, k=tm_kw: getattr(tmc(), n)(
                            t(d)["pred"], t(d)["y"], **k
                        ),
                    ),
                ),
            )
        )
    return cases


# ---------------- multilabel: rankings ----------------
_ML_RANKINGS = [
    Case(
        "label_ranking_average_precision_score",
        lambda d: M.label_ranking_average_precision_score(y(d), s(d)),
        ML,
        refs=(
            skr(
                "label_ranking_average_precision_score",
                lambda d: sk().label_ranking_average_precision_score(y(d), s(d)),
                row_loop=True,
            ),
            tm(
                "multilabel_ranking_average_precision",
                lambda d: tmc().multilabel_ranking_average_precision(
                    t(d)["s"], t(d)["y"], num_labels=L(d)
                ),
            ),
        ),
    ),
    Case(
        "label_ranking_loss",
        lambda d: M.label_ranking_loss(y(d), s(d)),
        ML,
        refs=(
            skr(
                "label_ranking_loss",
                lambda d: sk().label_ranking_loss(y(d), s(d)),
                row_loop=True,
            ),
            tm(
                "multilabel_ranking_loss",
                lambda d: tmc().multilabel_ranking_loss(t(d)["s"], t(d)["y"], num_labels=L(d)),
                agree="untied",
                note=TIED_RANKING_LOSS,
            ),
        ),
    ),
    Case(
        "coverage_error",
        lambda d: M.coverage_error(y(d), s(d)),
        ML,
        refs=(
            skr("coverage_error", lambda d: sk().coverage_error(y(d), s(d))),
            tm(
                "multilabel_coverage_error",
                lambda d: tmc().multilabel_coverage_error(t(d)["s"], t(d)["y"], num_labels=L(d)),
            ),
        ),
    ),
    Case("lrap_per_sample", lambda d: M.lrap_per_sample(y(d), s(d)), ML),
    Case("ranking_loss_per_sample", lambda d: M.ranking_loss_per_sample(y(d), s(d)), ML),
    Case("coverage_per_sample", lambda d: M.coverage_per_sample(y(d), s(d)), ML),
]


def _ml_average_cases() -> list[Case]:
    """Multilabel ROC AUC and average precision under each averaging."""
    cases = []
    for avg in ("macro", "micro"):
        cases.append(
            Case(
                f'roc_auc_score(average="{avg}")',
                lambda d, a=avg: M.roc_auc_score(y(d), s(d), average=a),
                ML,
                refs=(
                    skr(
                        "roc_auc_score",
                        lambda d, a=avg: sk().roc_auc_score(y(d), s(d), average=a),
                    ),
                    tm(
                        "multilabel_auroc",
                        lambda d, a=avg: tmc().multilabel_auroc(
                            t(d)["s"], t(d)["y"], num_labels=L(d), average=a
                        ),
                    ),
                ),
            )
        )
    for avg in ("macro", "micro", "samples"):
        refs = [
            skr(
                "average_precision_score",
                lambda d, a=avg: sk().average_precision_score(y(d), s(d), average=a),
                row_loop=avg == "samples",
            )
        ]
        if avg != "samples":
            refs.append(
                tm(
                    "multilabel_average_precision",
                    lambda d, a=avg: tmc().multilabel_average_precision(
                        t(d)["s"], t(d)["y"], num_labels=L(d), average=a
                    ),
                )
            )
        cases.append(
            Case(
                f'average_precision_score(average="{avg}")',
                lambda d, a=avg: M.average_precision_score(y(d), s(d), average=a),
                ML,
                refs=tuple(refs),
            )
        )
    return cases


# ---------------- multilabel: predictions ----------------
_ML_PRED = [
    ("accuracy_score", {}, "multilabel_exact_match", {}),
    ("hamming_loss", {}, "multilabel_hamming_distance", {"average": "micro"}),
    ("precision_score", {"average": "macro"}, "multilabel_precision", {"average": "macro"}),
    ("recall_score", {"average": "macro"}, "multilabel_recall", {"average": "macro"}),
    ("f1_score", {"average": "micro"}, "multilabel_f1_score", {"average": "micro"}),
    ("f1_score", {"average": "macro"}, "multilabel_f1_score", {"average": "macro"}),
    ("f1_score", {"average": "samples"}, None, {}),
    (
        "fbeta_score",
        {"beta": 2, "average": "macro"},
        "multilabel_fbeta_score",
        {"beta": 2.0, "average": "macro"},
    ),
    ("jaccard_score", {"average": "macro"}, "multilabel_jaccard_index", {"average": "macro"}),
    ("jaccard_score", {"average": "samples"}, None, {}),
    ("multilabel_confusion_matrix", {}, "multilabel_confusion_matrix", {}),
]


def _ml_pred_cases() -> list[Case]:
    """Multilabel metrics on predicted labels, one case per row of ``_ML_PRED``."""
    cases = []
    for name, kw, tm_name, tm_kw in _ML_PRED:
        args = ", ".join(f"{k}={v!r}".replace("'", '"') for k, v in kw.items())
        refs = [skr(name, lambda d, name=name, kw=kw: getattr(sk(), name)(y(d), p(d), **kw))]
        if tm_name:
            refs.append(
                tm(
                    tm_name,
                    lambda d, n=tm_name, k=tm_kw: getattr(tmc(), n)(
                        t(d)["pred"], t(d)["y"], num_labels=L(d), **k
                    ),
                )
            )
        cases.append(
            Case(
                f"{name}({args})" if args else name,
                lambda d, name=name, kw=kw: getattr(M, name)(y(d), p(d), **kw),
                ML,
                predictions=True,
                refs=tuple(refs),
            )
        )
    return cases


# ---------------- graded: DCG / NDCG ----------------
_DCG = [
    Case(
        "dcg_score",
        lambda d: M.dcg_score(y(d), s(d)),
        G,
        refs=(skr("dcg_score", lambda d: sk().dcg_score(y(d), s(d)), row_loop=True),),
    ),
    Case(
        "ndcg_score",
        lambda d: M.ndcg_score(y(d), s(d)),
        G,
        refs=(
            skr("ndcg_score", lambda d: sk().ndcg_score(y(d), s(d)), row_loop=True),
            tm(
                "retrieval.RetrievalNormalizedDCG()",
                _retrieval("RetrievalNormalizedDCG", graded=True),
                row_loop=True,
            ),
        ),
    ),
    Case(
        f"ndcg_score(k={K})",
        lambda d: M.ndcg_score(y(d), s(d), k=K),
        G,
        refs=(
            skr("ndcg_score", lambda d: sk().ndcg_score(y(d), s(d), k=K), row_loop=True),
            tm(
                f"retrieval.RetrievalNormalizedDCG(top_k={K})",
                _retrieval("RetrievalNormalizedDCG", graded=True, top_k=K),
                row_loop=True,
            ),
        ),
    ),
    Case(
        "dcg_score(ignore_ties=True)",
        lambda d: M.dcg_score(y(d), s(d), ignore_ties=True),
        G,
        refs=(
            skr(
                "dcg_score",
                lambda d: sk().dcg_score(y(d), s(d), ignore_ties=True),
                agree="untied",
                note=SK_IGNORE_TIES,
            ),
            rx("dcg", agree="untied", note=TIE_ORDER_RANX_SK, row_loop=True),
        ),
    ),
    Case(
        "ndcg_score(ignore_ties=True)",
        lambda d: M.ndcg_score(y(d), s(d), ignore_ties=True),
        G,
        refs=(
            skr(
                "ndcg_score",
                lambda d: sk().ndcg_score(y(d), s(d), ignore_ties=True),
                agree="untied",
                note=SK_IGNORE_TIES,
            ),
            rx("ndcg", agree="untied", note=TIE_ORDER_RANX_SK, row_loop=True),
        ),
    ),
    Case(
        f"ndcg_score(k={K}, ignore_ties=True)",
        lambda d: M.ndcg_score(y(d), s(d), k=K, ignore_ties=True),
        G,
        refs=(
            skr(
                "ndcg_score",
                lambda d: sk().ndcg_score(y(d), s(d), k=K, ignore_ties=True),
                agree="untied",
                note=SK_IGNORE_TIES,
            ),
            rx(f"ndcg@{K}", agree="untied", note=TIE_ORDER_RANX_SK, row_loop=True),
        ),
    ),
    Case("dcg_per_sample", lambda d: M.dcg_per_sample(y(d), s(d)), G),
    Case("ndcg_per_sample", lambda d: M.ndcg_per_sample(y(d), s(d)), G),
]


# ---------------- graded: Top-K retrieval ----------------
def tmret(cls, **kw):
    """A torchmetrics retrieval class, which orders tied scores its own way."""
    args = ", ".join(f"{k}={v}" for k, v in kw.items())
    return tm(
        f"retrieval.{cls}({args})",
        _retrieval(cls, **kw),
        agree="untied",
        note=TIE_ORDER_TM,
        row_loop=True,
    )


def rxret(metric):
    """A ranx top-K metric, which orders tied scores its own way."""
    return rx(metric, agree="untied", note=TIE_ORDER_RANX, row_loop=True)


_TOP_K = [
    Case(
        f"precision_at_k(k={K})",
        lambda d: M.precision_at_k(y(d), s(d), k=K),
        G,
        refs=(tmret("RetrievalPrecision", top_k=K), rxret(f"precision@{K}")),
    ),
    Case(
        f"recall_at_k(k={K})",
        lambda d: M.recall_at_k(y(d), s(d), k=K),
        G,
        refs=(tmret("RetrievalRecall", top_k=K), rxret(f"recall@{K}")),
    ),
    Case(
        f"hit_rate_at_k(k={K})",
        lambda d: M.hit_rate_at_k(y(d), s(d), k=K),
        G,
        refs=(tmret("RetrievalHitRate", top_k=K), rxret(f"hit_rate@{K}")),
    ),
    Case(
        f"mean_average_precision_at_k(k={K})",
        lambda d: M.mean_average_precision_at_k(y(d), s(d), k=K),
        G,
    ),
    Case(
        f'mean_average_precision_at_k(k={K}, denominator="relevant")',
        lambda d: M.mean_average_precision_at_k(y(d), s(d), k=K, denominator="relevant"),
        G,
        refs=(rxret(f"map@{K}"),),
    ),
    Case(
        f'mean_average_precision_at_k(k={K}, denominator="hits")',
        lambda d: M.mean_average_precision_at_k(y(d), s(d), k=K, denominator="hits"),
        G,
        refs=(tmret("RetrievalMAP", top_k=K),),
    ),
    Case(
        'mean_average_precision_at_k(k=n_labels, denominator="relevant")',
        lambda d: M.mean_average_precision_at_k(y(d), s(d), k=L(d), denominator="relevant"),
        G,
        refs=(tmret("RetrievalMAP"), rxret("map")),
    ),
    Case(
        f"average_precision_at_k(k={K})",
        lambda d: M.average_precision_at_k(y(d), s(d), k=K),
        G,
    ),
    Case(
        "mean_reciprocal_rank",
        lambda d: M.mean_reciprocal_rank(y(d), s(d)),
        G,
        refs=(tmret("RetrievalMRR"), rxret("mrr")),
    ),
    Case("reciprocal_rank", lambda d: M.reciprocal_rank(y(d), s(d)), G),
    Case("expected_reciprocal_rank", lambda d: M.expected_reciprocal_rank(y(d), s(d)), G),
    Case(
        "expected_reciprocal_rank_per_sample",
        lambda d: M.expected_reciprocal_rank_per_sample(y(d), s(d)),
        G,
    ),
    Case(
        f"precision_at_k_per_sample(k={K})",
        lambda d: M.precision_at_k_per_sample(y(d), s(d), k=K),
        G,
    ),
    Case(
        f"recall_at_k_per_sample(k={K})",
        lambda d: M.recall_at_k_per_sample(y(d), s(d), k=K),
        G,
    ),
    Case(
        f"hit_rate_at_k_per_sample(k={K})",
        lambda d: M.hit_rate_at_k_per_sample(y(d), s(d), k=K),
        G,
    ),
]


# ---------------- regression ----------------
def sqrt_msle(d):
    """torchmetrics has no RMSLE: the square root of its MSLE."""
    import torch

    return torch.sqrt(tmr().mean_squared_log_error(t(d)["s"], t(d)["y"]))


_REGRESSION = [
    ("mean_absolute_error", lambda d: tmr().mean_absolute_error(t(d)["s"], t(d)["y"])),
    ("mean_squared_error", lambda d: tmr().mean_squared_error(t(d)["s"], t(d)["y"])),
    (
        "root_mean_squared_error",
        lambda d: tmr().mean_squared_error(t(d)["s"], t(d)["y"], squared=False),
    ),
    (
        "mean_absolute_percentage_error",
        lambda d: tmr().mean_absolute_percentage_error(t(d)["s"], t(d)["y"]),
    ),
    ("root_mean_squared_log_error", sqrt_msle),
    ("r2_score", lambda d: tmr().r2_score(t(d)["s"], t(d)["y"])),
]
_TM_API = {
    "root_mean_squared_error": "mean_squared_error(squared=False)",
    "root_mean_squared_log_error": "sqrt(mean_squared_log_error)",
}


def _regression_cases() -> list[Case]:
    """Regression metrics, one case per row of ``_REGRESSION``."""
    cases = []
    for name, tm_call in _REGRESSION:
        cases.append(
            Case(
                name,
                lambda d, name=name: getattr(M, name)(y(d), s(d)),
                R,
                refs=(
                    skr(name, lambda d, name=name: getattr(sk(), name)(y(d), s(d))),
                    tm(_TM_API.get(name, name), tm_call),
                ),
            )
        )
    return cases


def _cases() -> list[Case]:
    """Every case, grouped by the kind of data it runs on."""
    return [
        *_BINARY_SCORES,
        *_binary_pred_cases(),
        *_ML_RANKINGS,
        *_ml_average_cases(),
        *_ml_pred_cases(),
        *_DCG,
        *_TOP_K,
        *_regression_cases(),
    ]


CASES: list[Case] = _cases()


def cases_for(d: BenchData) -> list[Case]:
    """The cases that run on ``d`` (prediction metrics on continuous scores only)."""
    return [c for c in CASES if d.kind in c.kinds and not (c.predictions and d.ties)]


def compare(ours, theirs, tol: float) -> tuple[bool, float]:
    """Whether two results agree within ``tol`` (relative or absolute), and the largest gap.

    Scalars, arrays and tuples of arrays (curves) are compared element by
    element; arrays of different shapes disagree.

    Examples
    --------
    >>> ok, gap = compare(0.5, 0.5 + 1e-12, 1e-9)
    >>> ok, gap < 1e-11
    (True, True)
    >>> compare((np.array([0.0, np.inf]),), (np.array([0.0, np.inf]),), 1e-9)
    (True, 0.0)
    """
    if isinstance(ours, tuple) or isinstance(theirs, tuple):
        if not (isinstance(ours, tuple) and isinstance(theirs, tuple)) or len(ours) != len(theirs):
            return False, float("inf")
        results = [compare(a, b, tol) for a, b in zip(ours, theirs, strict=True)]
        return all(ok for ok, _ in results), max((gap for _, gap in results), default=0.0)
    a = np.asarray(ours, dtype=float)
    b = np.asarray(theirs, dtype=float)
    if a.shape != b.shape:
        return False, float("inf")
    if a.size == 0:
        return True, 0.0
    same_inf = np.isinf(a) & (a == b)
    with np.errstate(invalid="ignore"):
        diff = np.where(same_inf, 0.0, np.abs(a - b))
    gap = float(np.nanmax(diff)) if diff.size else 0.0
    ok = bool(np.all(same_inf | np.isclose(a, b, rtol=tol, atol=tol)))
    return ok, gap
