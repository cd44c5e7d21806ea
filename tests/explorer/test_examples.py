"""explorer.examples: every worked example of the source documents, each a link to
the page that teaches it, and each document's printed number as scikit-learn (or the
document's own formula, written here) computes it on the bundled sample."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

from explorer import examples, registry, scenarios
from explorer.samples import load_sample, sample_names


def reference_ap_at_k(relevant: np.ndarray, k: int, denominator: str) -> float:
    """AP@K of one ranked list (best first), term by term as the documents write it."""
    terms = [relevant[: r + 1].sum() / (r + 1) for r in range(k) if relevant[r]]
    n_rel = int(relevant.sum())
    div = {"min_m_k": min(n_rel, k), "k": k, "relevant": n_rel}[denominator]
    return sum(terms) / div


def computed(ex: examples.Example) -> list[float]:
    """The example's numbers, computed independently of the app."""
    p = dict(ex.params)
    ds = load_sample(p["ds"])
    y, s = ds.y_true, ds.score(p.get("model"))
    if ex.page == "label_ranking":
        f = {
            "Coverage error": skm.coverage_error,
            "LRAP": skm.label_ranking_average_precision_score,
        }.get(ex.where, skm.label_ranking_loss)
        return [f(y, s)]
    if ex.page == "dcg":
        row = int(p["sample"])
        k = int(p["k"]) if "k" in p else None
        ties = p.get("ignore_ties") == "1"
        return [skm.dcg_score(y[row : row + 1], s[row : row + 1], k=k, ignore_ties=ties)]
    if ex.id == "ex-roc6":
        fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
        return [v for pt in zip(fpr[1:], tpr[1:], strict=True) for v in pt]
    if ex.id == "ex-auc8":
        pos, neg = s[y == 1], s[y == 0]
        pairs = (pos[:, None] > neg).sum() + 0.5 * (pos[:, None] == neg).sum()
        assert pairs / (pos.size * neg.size) == pytest.approx(skm.roc_auc_score(y, s))
        return [pairs / (pos.size * neg.size)]
    k, denominator = int(p["k"]), p["ap_denominator"]
    aps = [
        reference_ap_at_k(row[np.argsort(-sc, kind="stable")], k, denominator)
        for row, sc in zip(y, s, strict=True)
    ]
    return aps + [np.mean(aps)] if len(aps) > 1 else aps


def printed(ex: examples.Example) -> list[float]:
    """The numbers the document prints, read from the example's text."""
    text = ex.printed.replace("(", " ").replace(")", " ").replace(",", " ").replace("...", "")
    return [float(t) for t in text.split() if t.strip(".").replace(".", "").isdigit()]


def test_every_example_is_a_sample_on_a_page_that_shows_it():
    ids = [e.id for e in examples.EXAMPLES]
    assert len(ids) == len(set(ids))
    assert not set(ids) & {s.id for s in scenarios.all_scenarios()}
    kinds = {
        "label_ranking": "multilabel",
        "dcg": "graded",
        "retrieval": "graded",
        "curves": "binary",
    }
    for ex in examples.EXAMPLES:
        assert registry.page(ex.page).slug == ex.page
        assert set(dict(ex.params)) - {"ds"} <= set(registry.page(ex.page).params), ex.id
        assert dict(ex.params)["ds"] in sample_names(), ex.id
        assert load_sample(dict(ex.params)["ds"]).kind == kinds[ex.page], ex.id
    # the five documents, each with at least one example
    assert {e.document for e in examples.EXAMPLES} == {
        examples.USER_GUIDE,
        examples.DCG_PAGE,
        examples.REVISION,
        examples.TUTORIAL,
        examples.NOTES,
    }


@pytest.mark.parametrize("ex", examples.EXAMPLES, ids=[e.id for e in examples.EXAMPLES])
def test_the_document_prints_what_the_sample_gives(ex):
    """Each printed number, to the digits the document prints it with, is the number
    computed on the bundled sample (the LRAP tutorial truncates 0.7778 to .77)."""
    want, got = printed(ex), computed(ex)
    if ex.id == "ex-auc8":  # the sheet's code prints its AUC; the sheet shows no number
        assert want == [] and got == [pytest.approx(17 / 30)]
        return
    if ex.id == "ex-lrap-tutorial":
        assert want == [0.77, 0.777] and int(got[0] * 1000) / 1000 == 0.777
        return
    assert len(want) == len(got), (want, got)
    for w, g in zip(want, got, strict=True):
        digits = len(str(w).split(".")[1]) if "." in str(w) else 0
        truncated = int(g * 10**digits) / 10**digits  # "0.416..." and "9.49..." cut, not round
        assert w in (round(g, digits), truncated), (ex.id, w, g)


def test_user_guide_sample_is_the_guide_example():
    ds = load_sample("sklearn_ranking")
    y, first, second = ds.y_true, ds.score("model"), ds.score("second")
    assert y.tolist() == [[1, 0, 0], [0, 0, 1]]
    assert skm.coverage_error(y, first) == 2.5
    assert skm.label_ranking_loss(y, first) == 0.75
    assert skm.label_ranking_loss(y, second) == 0.0
    assert examples.for_page("label_ranking")[0].id == "ex-ug-coverage"
