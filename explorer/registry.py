"""The app's pages, in sidebar order: one entry each, read by everything that names a page.

A page is named by its slug (``"dcg"``), never by its script's path. The entry gives
its title (the sidebar and the tab), its script (``views/<slug>/<slug>.py``: the file's
name is the page's address, ``/dcg``, as ``st.Page`` and ``AppTest`` derive it), its key
prefix (every widget and session key of the page starts with it, so two pages never
share a key: DCG's ``k`` is ``dcg_k``) and the URL parameters it writes (a link's
settings for that page). ``app.py`` builds the navigation from :data:`PAGES`;
:mod:`explorer.ui.navigation` drops a page's keys by its prefix when another page opens;
:mod:`explorer.scenarios` names each scenario's page by slug.

Adding a page is a package ``views/<slug>/`` with its script ``<slug>.py`` and one line
here.

Pure: no Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    """One page of the app.

    Attributes
    ----------
    slug : str
        Its name in code and in the address (``/dcg``), and its package ``views/<slug>/``.
    title : str
        What the sidebar and the browser tab say.
    prefix : str
        The start of every session key of the page (``"dcg_"``).
    params : tuple of str
        The URL parameters the page writes (its settings in a link).
    """

    slug: str
    title: str
    prefix: str
    params: tuple[str, ...] = ()

    @property
    def script(self) -> str:
        """The page's script, relative to the repository (``views/dcg/dcg.py``).

        Named for the slug, not ``page.py``: Streamlit takes a page's address from its
        file name, and ``AppTest.switch_page`` before the first run finds a page only by
        that name (a ``url_path`` given to ``st.Page`` is not seen there)."""
        return f"views/{self.slug}/{self.slug}.py"


PAGES: tuple[Page, ...] = (
    Page("home", "Home", "home_"),
    Page("data", "Data", "data_", ("from",)),
    Page(
        "curves",
        "ROC & PR curves",
        "curves_",
        ("model", "t", "beta", "norm", "tab", "ttab", "opt", "cfp", "cfn", "minr", "minp")
        + ("click", "drop", "bins", "cbins", "spage", "cpage", "sgoal", "sval", "chart"),
    ),
    Page(
        "label_ranking",
        "Label ranking",
        "lr_",
        ("model", "i", "ties", "sort", "page", "steps", "wi"),
    ),
    Page(
        "dcg",
        "DCG & NDCG",
        "dcg_",
        ("model", "k", "log_base", "ignore_ties", "gain", "preset", "sample", "focus", "tab"),
    ),
    Page(
        "retrieval",
        "Top-K retrieval",
        "ret_",
        ("model", "k", "preset", "ap_denominator", "tie_mode", "gain", "empty_query")
        + ("rel_level", "max_grade", "query", "drill_metric"),
    ),
    Page(
        "multilabel",
        "Multilabel classification",
        "ml_",
        ("model", "rule", "t", "lt", "k", "beta", "zd", "label", "sample", "tab"),
    ),
    Page(
        "multiclass",
        "Multiclass classification",
        "mc_",
        ("model", "k", "avg", "norm", "class", "ct", "cp", "sample"),
    ),
    Page(
        "regression",
        "Regression",
        "reg_",
        ("model", "weights", "outlier", "shift", "explain", "rt", "rg"),
    ),
    Page(
        "slices",
        "Slices",
        "sl_",
        ("model", "metric", "by", "by2", "cuts", "cuts2", "t", "group", "gt"),
    ),
    Page("compare", "Compare two models", "cmp_", ("a", "b")),
    Page("leaderboard", "Leaderboard", "lb_", ("metric", "test", "corr", "alpha")),
)

#: The page a fresh visit opens.
HOME = "home"

_BY_SLUG = {page.slug: page for page in PAGES}
_BY_TITLE = {page.title: page for page in PAGES}

#: Every page's key prefix (a key starting with one of them belongs to that page).
PREFIXES: tuple[str, ...] = tuple(page.prefix for page in PAGES)


def page(slug: str) -> Page:
    """The page of that slug.

    Examples
    --------
    >>> page("dcg").script, page("dcg").prefix
    ('views/dcg/dcg.py', 'dcg_')
    """
    return _BY_SLUG[slug]


def script(slug: str) -> str:
    """The script of the page ``slug`` (what ``st.Page`` and ``AppTest.switch_page`` take).

    Examples
    --------
    >>> script("home")
    'views/home/home.py'
    """
    return _BY_SLUG[slug].script


def by_script(path: str) -> Page:
    """The page whose script is ``path``.

    Examples
    --------
    >>> by_script("views/dcg/dcg.py").slug
    'dcg'
    """
    return next(page for page in PAGES if page.script == path)


def by_title(title: str) -> Page | None:
    """The page whose title is ``title`` (what ``st.navigation`` reports), or None.

    Examples
    --------
    >>> by_title("DCG & NDCG").slug
    'dcg'
    """
    return _BY_TITLE.get(title)


def prefix_of(slug: str | None) -> str | None:
    """The key prefix of page ``slug``; None for no page or an unknown one.

    Examples
    --------
    >>> prefix_of("retrieval"), prefix_of(None)
    ('ret_', None)
    """
    found = _BY_SLUG.get(slug) if slug is not None else None
    return found.prefix if found else None
