"""Every worked example of the five source documents, each one click away.

An example names its document and itself as a class knows them ("scikit-learn's
dcg_score page, the tie at k = 1"), the page that teaches it and the URL parameters
that open it there (a bundled sample and the page's settings), and the number the
document prints. Home draws a card per example, each page a button per example of
its own (:mod:`explorer.ui.examples`); a card opens its link as a scenario link
does (``scn=<id>``, :func:`explorer.ui.navigation.follow_scenario`).

Pure (no Streamlit): the values are URL texts exactly as the pages write them back.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The five source documents, as a class names them.
USER_GUIDE = "scikit-learn user guide (3.3.3)"
DCG_PAGE = "scikit-learn's dcg_score page"
REVISION = "The revision sheet"
TUTORIAL = "The LRAP tutorial"
NOTES = "The multilabel notes"


@dataclass(frozen=True)
class Example:
    """One worked example of a source document.

    Attributes
    ----------
    id : str
        Unique over the app (the ``scn=`` of its link; no scenario has it).
    document : str
        The document, as a class names it.
    name : str
        The example, as the document presents it.
    page : str
        The slug of the page that teaches it (:mod:`explorer.registry`).
    params : tuple of (str, str)
        The URL parameters: ``ds`` (a bundled sample), then the page's settings.
    where : str
        Where its number stands on that page (a headline's label, a tab).
    printed : str
        The number the document prints, as it prints it ("" when it prints none).
    """

    id: str
    document: str
    name: str
    page: str
    params: tuple[tuple[str, str], ...]
    where: str
    printed: str

    def query(self, **extra: str) -> dict[str, str]:
        """The link's query parameters: the example's, ``scn``, then ``extra``.

        Examples
        --------
        >>> EXAMPLES[0].query(present="1")["scn"], EXAMPLES[0].query()["ds"]
        ('ex-ug-coverage', 'sklearn_ranking')
        """
        return {**dict(self.params), "scn": self.id, **extra}


def _ex(id_, document, name, page, params, where, printed) -> Example:
    return Example(f"ex-{id_}", document, name, page, tuple(params), where, printed)


_UG = (("ds", "sklearn_ranking"),)
_DCG = (("ds", "seed001_dcg"),)
_ROW = "DCG of this sample"
_MAP = (("ds", "seed002_map"), ("k", "5"), ("ap_denominator", "min_m_k"))

#: Every worked example, document by document (the gallery's order).
EXAMPLES: tuple[Example, ...] = (
    _ex("ug-coverage", USER_GUIDE, "coverage_error", "label_ranking", _UG, "Coverage error", "2.5"),
    _ex(
        "ug-lrap",
        USER_GUIDE,
        "label_ranking_average_precision_score",
        "label_ranking",
        _UG,
        "LRAP",
        "0.416...",
    ),
    _ex("ug-loss", USER_GUIDE, "label_ranking_loss", "label_ranking", _UG, "Ranking loss", "0.75"),
    _ex(
        "ug-loss-second",
        USER_GUIDE,
        "label_ranking_loss, the second scores",
        "label_ranking",
        (*_UG, ("model", "second")),
        "Ranking loss",
        "0.0",
    ),
    _ex("dcg-all", DCG_PAGE, "dcg_score", "dcg", (*_DCG, ("sample", "0")), _ROW, "9.49"),
    _ex(
        "dcg-k2",
        DCG_PAGE,
        "truncated at k=2",
        "dcg",
        (*_DCG, ("k", "2"), ("sample", "0")),
        _ROW,
        "5.63",
    ),
    _ex(
        "dcg-tie",
        DCG_PAGE,
        "tied scores, k=1",
        "dcg",
        (*_DCG, ("k", "1"), ("sample", "1")),
        _ROW,
        "7.5",
    ),
    _ex(
        "dcg-ignore",
        DCG_PAGE,
        "tied scores, ignore_ties=True",
        "dcg",
        (*_DCG, ("k", "1"), ("ignore_ties", "1"), ("sample", "1")),
        _ROW,
        "5.0",
    ),
    _ex(
        "roc6",
        REVISION,
        "ROC drawn point by point (6 impressions, 2 clicks)",
        "curves",
        (("ds", "seed002_roc6"), ("tab", "roc")),
        "the tab ROC point by point",
        "(0,0.5), (0,1), (0.25,1), (0.5,1), (0.75,1), (1,1)",
    ),
    _ex(
        "auc8",
        REVISION,
        "naive_auc: AUC by all pairs (8 samples)",
        "curves",
        (("ds", "seed002_auc8"), ("tab", "auc")),
        "the tab AUC four ways",
        "",
    ),
    _ex(
        "map",
        REVISION,
        "AP@5 and MAP@5 of its two cases",
        "retrieval",
        _MAP,
        "the derivation of MAP@K (AP@5 of each query)",
        "0.76, 0.5 and 0.63",
    ),
    _ex(
        "lrap-tutorial",
        TUTORIAL,
        "human, cat, dog: three samples",
        "label_ranking",
        (("ds", "seed003_lrap"),),
        "LRAP",
        ".77 (0.777)",
    ),
    _ex(
        "notes-avep",
        NOTES,
        "AveP of a list of 10, relevant at 1, 2 and 5",
        "retrieval",
        (("ds", "notes_avep"), ("k", "10"), ("ap_denominator", "k")),
        "MAP@K (with the notes' denominator, K = 10)",
        "0.26",
    ),
)


def for_page(page: str) -> tuple[Example, ...]:
    """The worked examples that the page ``page`` (a slug) teaches.

    Examples
    --------
    >>> [e.id for e in for_page("curves")]
    ['ex-roc6', 'ex-auc8']
    """
    return tuple(e for e in EXAMPLES if e.page == page)


def by_id(example_id: str) -> Example | None:
    """The example of that id, or None.

    Examples
    --------
    >>> by_id("ex-map").printed, by_id("nothing")
    ('0.76, 0.5 and 0.63', None)
    """
    return next((e for e in EXAMPLES if e.id == example_id), None)
