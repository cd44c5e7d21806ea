"""Session state: the active Dataset, the sidebar picker and shareable links.

The active dataset's name lives in the non-widget key ``active_dataset`` so
it survives page changes; the picker widget (key ``dataset_picker``) is
re-seeded from it. The URL always describes the view: ``?ds=<sample>`` for a
bundled sample, ``?data=<packed>`` for a small upload or edit (see
``explorer.links``), plus each page's settings (``bind_param``). Opening
such a link in a fresh browser shows the same numbers. :class:`ShareLink`
offers the link on every page, and says so when the dataset is too big for it.

Every widget key and page-setting key of a page starts with the page's prefix
(:data:`PAGE_PREFIXES`), so two pages never share a key. When the active
dataset changes, every page's keys and the page-setting URL parameters are
dropped (:func:`reset_page_settings`); when the page changes, the other pages'
keys and the URL's page settings are dropped (:func:`enter_page`). Values from
the URL or from session state are checked against the current dataset before
use (:func:`bind_param`'s ``check``).

A widget shows the value the page uses. Streamlit tells the browser a widget's
value only when it was written through ``st.session_state`` in that run (or
restored under its key); otherwise the browser shows what it holds, or the
widget's default when it did not hold the widget. So every page widget is seeded
through :func:`bind_param` before it is drawn (a dataset change deletes the key:
the next seeding writes it, and the browser follows), :func:`bind_param` writes a
value so that it reaches the browser even when the widget is drawn a run later
(:func:`seed_widget`), and a page that stops early calls :func:`stop_page`, not
``st.stop()`` (see there).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import math
import os
import re
from collections.abc import Callable, Iterable
from typing import NoReturn
from urllib.parse import urlencode

import streamlit as st

from explorer import bigdata, cache
from explorer.datasets import Dataset
from explorer.io import DataError
from explorer.io.errors import quote
from explorer.links import decode_dataset, encode_dataset, fits_in_link
from explorer.samples import load_sample, sample_names, sample_title

LOG = logging.getLogger(__name__)

DEFAULT_SAMPLE = "balanced"
ACTIVE = "active_dataset"
SESSION = "session_datasets"
PICKER = "dataset_picker"
LINK_ERROR = "link_error"
LINK_WARNING = "link_warning"
PAGE = "active_page"
WRITTEN = "page_params_written"

#: Each page's key prefix: every widget key and page-setting session key of a page
#: starts with it, so no two pages share a key (a ``k`` of DCG is ``dcg_k``).
PAGE_PREFIXES = {
    "views/home.py": "home_",
    "views/data.py": "data_",
    "views/curves.py": "curves_",
    "views/label_ranking.py": "lr_",
    "views/dcg.py": "dcg_",
    "views/retrieval.py": "ret_",
    "views/multilabel.py": "ml_",
    "views/regression.py": "reg_",
    "views/compare.py": "cmp_",
    "views/multiclass.py": "mc_",
}
#: Keys that outlive a dataset change: the Data page's uploaders (their files stay in
#: the browser) and its record of the uploads already read, which keeps a file that is
#: still in place from being read, and made active, a second time.
KEEP_ON_DATASET_CHANGE = ("data_upload_",)
#: The URL parameters that name the dataset; every other parameter is a page setting.
DATASET_PARAMS = ("ds", "data")
#: URL parameters of the whole app, kept on every page and dataset (``present=1``,
#: ``reveal=0``, ``ci=1``).
APP_PARAMS = ("present", "reveal", "ci")
#: Presentation mode: the session key that holds it, its URL parameter, the toggle's key.
PRESENT, PRESENT_PARAM, PRESENT_TOGGLE = "presentation", "present", "present_toggle"
#: "Predict, then reveal": the session key, its URL parameter (``reveal=0`` hides the
#: headline numbers), the toggle's key.
PREDICT, REVEAL_PARAM, PREDICT_TOGGLE = "predict_mode", "reveal", "predict_toggle"
#: The bootstrap intervals under the headlines: session key, URL parameter, toggle key.
INTERVALS, CI_PARAM, CI_TOGGLE = "show_intervals", "ci", "ci_toggle"
#: The view (page, dataset, the page's settings) at the start of this run, and the view
#: whose numbers the class revealed (see :func:`numbers_shown`).
VIEW, REVEALED = "current_view", "revealed_view"
#: The URL parameter a scenario link carries (explorer.scenarios): its settings win over
#: the session's (see :func:`follow_scenario`).
SCENARIO_PARAM = "scn"
#: Text values of a URL flag that mean on, and that mean off.
_ON, _OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


#: Most uploaded, edited or linked datasets one session keeps; the oldest go first.
MAX_SESSION_DATASETS = 5
#: Most bytes those datasets may take together (as :func:`dataset_bytes` counts them).
MAX_SESSION_BYTES = 200_000_000
#: The session key of the notice saying which datasets were dropped to make room.
DROPPED = "dropped_datasets"


def session_datasets() -> dict[str, Dataset]:
    """This session's uploads and edits, by name, oldest first."""
    return st.session_state.setdefault(SESSION, {})


def dataset_bytes(ds: Dataset) -> int:
    """About how many bytes ``ds`` holds: its arrays, and its texts as Python strings.

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset("t", "binary", np.zeros(1000), {"m": np.ones(1000)})
    >>> 16_000 < dataset_bytes(ds) < 80_000  # two arrays of 8,000 bytes, 1,000 ids
    True
    """
    arrays = [ds.y_true, *ds.scores.values()]
    if ds.sample_weight is not None:
        arrays.append(ds.sample_weight)
    texts = (ds.name, ds.description, *ds.sample_ids, *ds.label_names, *ds.model_names)
    # a short str takes 49 bytes besides its characters, plus 8 for its slot in a tuple
    return sum(a.nbytes for a in arrays) + sum(map(len, texts)) + 57 * len(texts)


def _keep(ds: Dataset) -> str:
    """Keep ``ds`` as this session's newest dataset; return the name it is kept under.

    A name of a bundled sample gets a suffix (``balanced (link)``): the sample
    stays reachable. Then the oldest datasets are dropped while the session holds
    more than :data:`MAX_SESSION_DATASETS` or :data:`MAX_SESSION_BYTES`; neither
    ``ds`` (about to be the active one) nor the active one is, however big. The names dropped
    are left in a notice (:data:`DROPPED`) that :func:`sidebar_picker` shows.
    """
    if ds.name in sample_names() or ds.name in big_sources():  # never hide a named dataset
        ds = dataclasses.replace(ds, name=f"{ds.name} ({ds.source})")
    kept = session_datasets()
    kept.pop(ds.name, None)  # a dataset of the same name is replaced, and becomes the newest
    kept[ds.name] = ds
    sizes = {name: dataset_bytes(d) for name, d in kept.items()}
    spared = {ds.name, st.session_state.get(ACTIVE)}
    dropped = []
    while len(kept) > MAX_SESSION_DATASETS or sum(sizes.values()) > MAX_SESSION_BYTES:
        oldest = next((name for name in kept if name not in spared), None)
        if oldest is None:
            break
        del kept[oldest]
        del sizes[oldest]
        dropped.append(oldest)
    if dropped:
        names = ", ".join(quote(name) for name in dropped)
        st.session_state[DROPPED] = (
            f"To make room, this session no longer keeps {names} (at most "
            f"{MAX_SESSION_DATASETS} uploaded or edited datasets, {MAX_SESSION_BYTES // 10**6:,} "
            f"MB in all, are kept; the oldest go first). Upload {'them' if dropped[1:] else 'it'} "
            "again to use it."
        )
    return ds.name


def big_sources() -> dict[str, bigdata.Source]:
    """The host's big Parquet data (``METRIC_EXPLORER_BIG_DATA``), by name.

    Only the host's environment names them: a visitor picks one by its name, never
    by a path. Entries the configuration refuses are logged, not shown.
    """
    found, problems = cache.big_config(os.environ.get(bigdata.ENV, ""), taken=sample_names())
    return {source.name: source for source in found}


def available() -> list[str]:
    """Names the picker offers: this session's uploads and edits, the host's big data,
    then the gallery."""
    big = [name for name in big_sources() if name not in session_datasets()]
    return [*session_datasets(), *big, *sample_names()]


def get_dataset(name: str) -> Dataset:
    """The dataset of that name: an upload or edit, the host's big data, or a sample.

    The host's big data is read once (exact states and a sample, see
    :mod:`explorer.bigdata`) and then shared by every session; it raises
    :class:`~explorer.io.DataError` when the data cannot be used.
    """
    uploads = session_datasets()
    if name in uploads:
        return uploads[name]
    source = big_sources().get(name)
    if source is not None:
        with st.spinner(f"Reading {name!r} once: exact numbers over every row, and a sample"):
            return cache.big_dataset(source, bigdata.signature(source))
    return load_sample(name)


def _is_named(name: str) -> bool:
    """Whether ``name`` is reachable by name in a link (a sample or the host's big data)."""
    if name in session_datasets():
        return False
    return name in sample_names() or name in big_sources()


def init() -> None:
    """Pick the active dataset once per session: from the URL, else the default.

    A link that cannot be followed (a damaged ``data=``, an unknown ``ds=``)
    leaves a notice for :func:`sidebar_picker` and opens the default sample.
    """
    if ACTIVE in st.session_state:
        return
    st.session_state[ACTIVE] = DEFAULT_SAMPLE
    token = st.query_params.get("data")
    wanted = st.query_params.get("ds")
    if token:
        try:
            ds = decode_dataset(token)
        except DataError as exc:
            st.session_state[LINK_ERROR] = str(exc)
        else:
            st.session_state[ACTIVE] = _keep(ds)
    elif wanted in sample_names() or wanted in big_sources():
        st.session_state[ACTIVE] = wanted
    elif wanted:
        st.session_state[LINK_WARNING] = (
            f"The link asks for the sample {wanted!r}, which does not exist here: "
            f"showing {DEFAULT_SAMPLE!r} instead. Pick a dataset in the sidebar."
        )


def _sync_url(name: str) -> None:
    if _is_named(name):
        st.query_params["ds"] = name
        st.query_params.pop("data", None)
        return
    st.query_params.pop("ds", None)
    ds = get_dataset(name)
    if fits_in_link(ds):
        st.query_params["data"] = encode_dataset(ds)
    else:
        st.query_params.pop("data", None)


def _drop_keys(keep: Callable[[str], bool]) -> None:
    """Delete every page key (see :data:`PAGE_PREFIXES`) for which ``keep`` is false."""
    prefixes = tuple(PAGE_PREFIXES.values())
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and key.startswith(prefixes) and not keep(key):
            del st.session_state[key]


def drop_page_params(only_written: bool = False) -> None:
    """Remove every URL parameter but the dataset's (``ds`` / ``data``) and the app's
    (:data:`APP_PARAMS`).

    ``only_written``: only those a page wrote in this session (:func:`write_param`);
    the settings of a link not yet read by a page stay.
    """
    written = st.session_state.get(WRITTEN, set())
    for param in list(st.query_params.keys()):
        if param not in DATASET_PARAMS + APP_PARAMS and (param in written or not only_written):
            del st.query_params[param]
    st.session_state[WRITTEN] = set()


def reset_page_settings() -> None:
    """Forget every page's settings, in session state and in the URL.

    Called on a dataset change: a k, a sample or a model chosen on another dataset
    means nothing on this one. The Data page's uploads are kept
    (:data:`KEEP_ON_DATASET_CHANGE`).
    """
    _drop_keys(lambda key: key.startswith(KEEP_ON_DATASET_CHANGE))
    drop_page_params()


def enter_page(script: str) -> None:
    """Record the page about to run; on a page change drop the other pages' state.

    A sidebar click in the browser drops the URL's parameters and the widgets of the
    page left behind, but not the session keys set from code; ``AppTest.switch_page``
    keeps the parameters. Both end up the same here: the new page sees none of the
    other pages' keys, nor the parameters a page wrote. A link's parameters that no
    page has read yet stay (a test opens a link as: run the app, switch to the page),
    and the first run of a session keeps everything.
    """
    previous = st.session_state.get(PAGE)
    st.session_state[PAGE] = script
    if previous is None or previous == script:
        return
    own = PAGE_PREFIXES.get(script)
    _drop_keys(lambda key: own is not None and key.startswith(own))
    drop_page_params(only_written=True)


class PageStopped(Exception):
    """Raised by :func:`stop_page`; :func:`run_page` ends the page there."""


def stop_page() -> NoReturn:
    """End the page here, as ``st.stop()`` would, but let the script run end normally.

    After ``st.stop()`` Streamlit keeps the values of the widgets that this run did not
    draw, while the browser drops those widgets. Drawn again later, such a widget is
    sent without its value, so the browser shows the widget's default while the page
    uses the kept value (DCG's sample box showed sample 0, after a log base of 1 had
    stopped the page, while the page used sample 2), and the next control change sends
    the default back. A run that ends normally drops those values too, as the browser
    does, so the widget is seeded afresh (:func:`bind_param`) when it comes back.
    """
    raise PageStopped


def run_page(nav) -> None:
    """Run the page of ``st.navigation`` ``nav``; a :func:`stop_page` ends it quietly."""
    try:
        nav.run()
    except PageStopped:
        pass


def set_active(name: str) -> None:
    """Make ``name`` the active dataset, forget the pages' settings, mirror it to the URL."""
    st.session_state[ACTIVE] = name
    reset_page_settings()
    _sync_url(name)


def add_dataset(ds: Dataset) -> None:
    """Keep ``ds`` for this session and make it the active dataset.

    The session keeps at most :data:`MAX_SESSION_DATASETS` datasets of at most
    :data:`MAX_SESSION_BYTES` in all: the oldest others are dropped, with a notice
    (see :func:`_keep`). A dataset named like a bundled sample is kept as
    ``<name> (upload)`` (``(edit)``, ``(link)``).
    """
    set_active(_keep(ds))


def link_is_shareable() -> bool:
    """Whether the current URL reproduces the active dataset."""
    name = st.session_state.get(ACTIVE, DEFAULT_SAMPLE)
    if _is_named(name):
        return True
    return fits_in_link(get_dataset(name))


def link_notice(message: str, *, error: bool = False) -> None:
    """Say that (part of) a link could not be followed, and what is shown instead."""
    (st.error if error else st.warning)(message, icon="🔗")


def current_link() -> str:
    """The address of this page with its query parameters, as the browser shows it.

    ``st.context.url`` (no query) when the browser sent it; else only the
    query part, to put after the app's address.
    """
    query = urlencode(st.query_params.to_dict())
    return f"{st.context.url or ''}?{query}"


#: Keeps the link box equal to the address bar: a panel that reruns alone (an
#: st.fragment, such as the curves page's threshold panel) updates the URL but not
#: the sidebar, so the browser writes the current address into the box and copies it.
_LIVE_LINK_JS = """
<script>
(() => {
  const sync = () => document.querySelectorAll('[class*="st-key-share_link"] code').forEach((c) => {
    if (c.textContent !== window.location.href) c.textContent = window.location.href;
  });
  if (!window.__meLinkSync) window.__meLinkSync = setInterval(sync, 300);
  sync();
  document.querySelectorAll('[class*="st-key-share_link"] button.me-copy').forEach((b) => {
    b.onclick = () => navigator.clipboard && navigator.clipboard.writeText(window.location.href);
  });
})();
</script>
<button class="me-copy" type="button">Copy the address</button>
"""


def _link_box(link: str, n: int) -> None:
    """The link (as the server knows it) in a code box the browser keeps current
    (``n``: the how-manieth box of this run, for a key of its own)."""
    with st.container(key=f"share_link_{n}"):
        st.code(link, language=None, wrap_lines=True)
        st.html(_LIVE_LINK_JS, unsafe_allow_javascript=True)


class ShareLink:
    """The "Copy link" of every page: a sidebar popover under the dataset picker, and,
    when the address cannot hold the active dataset, a warning at the top of the page.

    Create it after :func:`sidebar_picker` and before the page runs: it draws
    both with the address as it stands. Call :meth:`fill` again once the page has
    run (also after a :func:`stop_page`), so the link holds the settings the page wrote.
    """

    def __init__(self) -> None:
        self._top = st.empty()
        self._side = st.sidebar.empty()
        self.fill()

    def fill(self) -> None:
        self._boxes = getattr(self, "_boxes", 0) + 1
        link = current_link()
        name = st.session_state.get(ACTIVE, DEFAULT_SAMPLE)
        if link_is_shareable():
            with self._side.popover("Copy link", icon="🔗"):
                st.caption("This page with its dataset and settings:")
                _link_box(link, self._boxes)
            return
        with self._side.popover("Copy link (settings only)", icon="🔗"):
            st.caption(
                f"This page's settings, without the dataset {name!r}: the link opens the "
                f"sample {DEFAULT_SAMPLE!r}."
            )
            _link_box(link, self._boxes)
        with self._top.container():
            note, copy = st.columns([5, 1], vertical_alignment="center")
            note.warning(
                f"This address does not hold the dataset **{name}** (too big for a link): "
                f"opened elsewhere it shows the sample {DEFAULT_SAMPLE!r}. To share the data, "
                "download it on the Data page.",
                icon="🔗",
            )
            with copy.popover("Copy link", icon="🔗"):
                st.caption(f"This page's settings only, without {name!r}:")
                st.code(link, language=None, wrap_lines=True)


def _on_pick() -> None:
    set_active(st.session_state[PICKER])


def _label(name: str) -> str:
    if name in session_datasets():
        return name  # uploads and edits show their own name (first in the list)
    if name in big_sources():
        return f"{name} (big data, sampled)"
    return sample_title(name)


#: The sidebar's "Positive class" box, for binary data whose labels were text.
POSITIVE = "positive_class"


def _on_positive() -> None:
    ds = get_dataset(st.session_state[ACTIVE])
    if len(ds.label_names) == 2 and st.session_state[POSITIVE] == ds.label_names[0]:
        add_dataset(flip_positive(ds))


def flip_positive(ds: Dataset) -> Dataset:
    """``ds`` with the other text class as the positive one (``y_true`` becomes
    ``1 - y_true``; the class names swap). The scores stay: they are read as the
    scores of the new positive class, as scikit-learn's ``pos_label`` reads them.

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset("m", "binary", np.array([1.0, 0.0]), {"m": np.array([0.9, 0.2])},
    ...              label_names=("ham", "spam"))
    >>> f = flip_positive(ds)
    >>> f.y_true.tolist(), f.label_names
    ([0.0, 1.0], ('spam', 'ham'))
    """
    neg, pos = ds.label_names
    return dataclasses.replace(ds, y_true=1.0 - ds.y_true, label_names=(pos, neg))


def _positive_class(ds: Dataset) -> Dataset:
    """For binary data whose labels were two text classes ("spam"/"ham"): the sidebar's
    "Positive class" box. Picking the other class replaces the dataset by its flipped
    version (:func:`flip_positive`), which a link then carries."""
    if ds.kind != "binary" or len(ds.label_names) != 2:
        return ds
    seed_widget(POSITIVE, ds.label_names[1])
    st.sidebar.selectbox(
        "Positive class",
        (ds.label_names[1], ds.label_names[0]),
        key=POSITIVE,
        on_change=_on_positive,
        help="The class the scores are for: a score at or above the threshold predicts it "
        "(scikit-learn's pos_label). Every page counts it as 1.",
    )
    return ds


def sidebar_picker() -> Dataset:
    """Render the sidebar dataset picker and return the active Dataset."""
    init()
    if LINK_ERROR in st.session_state:
        link_notice(st.session_state.pop(LINK_ERROR), error=True)
    if LINK_WARNING in st.session_state:
        link_notice(st.session_state.pop(LINK_WARNING))
    if DROPPED in st.session_state:
        st.info(st.session_state.pop(DROPPED), icon="🗑️")
    names = available()
    if st.session_state[ACTIVE] not in names:
        set_active(DEFAULT_SAMPLE)
    st.session_state[PICKER] = st.session_state[ACTIVE]
    st.sidebar.selectbox(
        "Dataset",
        names,
        key=PICKER,
        format_func=_label,
        on_change=_on_pick,
        help="The bundled samples, the host's big data (if any), plus anything you upload "
        "or edit in this session.",
    )
    try:
        ds = get_dataset(st.session_state[ACTIVE])
    except DataError as exc:
        LOG.error("%s", exc)  # the host's paths and errors stay in the server's log
        st.error(
            f"The data {st.session_state[ACTIVE]!r} cannot be opened right now: showing "
            f"{DEFAULT_SAMPLE!r} instead. The host's log says why."
        )
        set_active(DEFAULT_SAMPLE)  # the picker follows on the next run
        ds = get_dataset(DEFAULT_SAMPLE)
    ds = _positive_class(ds)
    caption = f"{ds.kind} · {ds.n_samples} samples · {ds.n_labels} label(s)"
    if isinstance(ds, bigdata.SampledDataset):
        caption = (
            f"{ds.kind} · a uniform sample of {ds.n_samples:,} of {ds.total_rows:,} rows · "
            f"{ds.n_labels} label(s)"
        )
    st.sidebar.caption(caption)
    _sync_url(st.session_state[ACTIVE])
    return ds


def presentation_mode() -> bool:
    """Whether this session shows the presentation mode (large text, for a projector).

    Read once per session from ``?present=1`` (also ``true``, ``yes``, ``on``), then
    kept in session state: a sidebar click, which drops the URL's parameters, keeps it.
    """
    ss = st.session_state
    if PRESENT not in ss:
        raw = str(st.query_params.get(PRESENT_PARAM, "")).strip().lower()
        ss[PRESENT] = raw in ("1", "true", "yes", "on")
    return bool(ss[PRESENT])


def _on_present() -> None:
    st.session_state[PRESENT] = bool(st.session_state[PRESENT_TOGGLE])


def presentation_toggle() -> None:
    """The sidebar's "Presentation mode" toggle; writes ``present=1`` into the URL
    while it is on (on every page: a teacher bookmarks the link)."""
    on = presentation_mode()
    st.session_state[PRESENT_TOGGLE] = on
    st.sidebar.toggle(
        "Presentation mode",
        key=PRESENT_TOGGLE,
        on_change=_on_present,
        help="Larger text and charts for a projector, the sidebar folded away. "
        "The link keeps it (present=1).",
    )
    if on:
        st.query_params[PRESENT_PARAM] = "1"
    else:
        st.query_params.pop(PRESENT_PARAM, None)


def active() -> Dataset:
    """The active Dataset (after :func:`sidebar_picker` ran in app.py)."""
    init()
    return get_dataset(st.session_state[ACTIVE])


def bind_param(
    key: str,
    param: str | None,
    default,
    parse: Callable[[str], object] = str,
    check: Callable[[object], object] | None = None,
):
    """Seed ``key`` from ``?param=`` once, check it, and return the value to use.

    Call before creating the widget; after it, call :func:`write_param` so the link
    carries the setting. A malformed value in the URL falls back to ``default``.
    ``param=None``: a setting that is not in the URL (seeded from ``default``).

    ``check`` receives the value (from the URL, or left in session state by an
    earlier run) and returns the value to use: the same, or one brought into range
    (a k beyond the item count clamped to it); it raises ``ValueError``,
    ``TypeError``, ``KeyError`` or ``IndexError`` for a value that has no meaning on
    the current dataset, which then falls back to ``default`` (``parse`` may raise
    the same, or ``OverflowError``, for a malformed URL value). The session value is
    rewritten only when the check changed it (rewriting an unchanged value would
    reset a slider the user is still dragging).
    """
    ss = st.session_state
    if key not in ss:
        raw = st.query_params.get(param) if param is not None else None
        value = default
        if raw is not None:
            try:
                value = parse(raw)
            except (TypeError, ValueError, KeyError, IndexError, OverflowError):
                value = default  # OverflowError: int(float("inf")), 1e400
        seed_widget(key, _checked(value, default, check))
        return ss[key]
    value = ss[key]
    fixed = _checked(value, default, check)
    if type(fixed) is not type(value) or fixed != value:
        seed_widget(key, fixed)
    return ss[key]


def seed_widget(key: str, value) -> None:
    """Write ``value`` to the widget key ``key`` so that the browser shows it, whether
    the widget is drawn later in this run or only in a later run.

    Drawn in this run, the widget takes the value and the browser is told to show it.
    Drawn only later (multilabel draws its k box for the rule "top k" only), Streamlit
    1.67 files the value under the widget's id if the key had one from an earlier
    drawing, and then draws the widget without telling the browser, which shows the
    widget's default (k = 1 on screen, k = 3 in use). Deleting the key in between
    forgets that id: the value is filed under the key, and a widget whose value comes
    from its key is sent with it.

    Parameters
    ----------
    key
        The widget's key; call before the widget is drawn in this run.
    value
        The value the widget is to show and return.
    """
    ss = st.session_state
    ss[key] = value
    del ss[key]  # forgets the widget id the key had (and any value stored under it)
    ss[key] = value


def _checked(value, default, check):
    if check is None:
        return value
    try:
        return check(value)
    except (TypeError, ValueError, KeyError, IndexError, OverflowError):
        return default


def member(options: Iterable) -> Callable[[object], object]:
    """A ``check`` for :func:`bind_param`: the value must be one of ``options``
    (of the same type: ``True`` is not the option ``1``)."""
    allowed = {}
    for option in options:
        allowed.setdefault(option, type(option))

    def check(value):
        if allowed.get(value) is not type(value):
            raise ValueError(value)
        return value

    return check


def int_in(lo: int, hi: int, *, clamp: bool = True) -> Callable[[object], int]:
    """A ``check`` for :func:`bind_param`: a whole number in ``[lo, hi]``.

    ``clamp``: a number outside is brought to the nearest end; else it is refused.
    ``None``, text, a bool or a fraction is refused.
    """
    return _in_range(lo, hi, clamp=clamp, whole=True)


def float_in(lo: float, hi: float, *, clamp: bool = True) -> Callable[[object], float]:
    """A ``check`` for :func:`bind_param`: a finite float in ``[lo, hi]`` (clamped, or
    refused with ``clamp=False``)."""
    return _in_range(lo, hi, clamp=clamp, whole=False)


def _in_range(lo, hi, *, clamp: bool, whole: bool) -> Callable[[object], float]:
    def check(value):
        if isinstance(value, bool) or value is None:
            raise TypeError(value)
        v = float(value)
        if not math.isfinite(v) or (whole and not v.is_integer()):
            raise ValueError(value)
        if not lo <= v <= hi:
            if not clamp:
                raise ValueError(value)
            v = min(max(v, lo), hi)
        return int(v) if whole else v

    return check


def write_param(param: str, value) -> None:
    """Mirror a page setting into the URL (a page change drops it again)."""
    st.query_params[param] = str(value)
    st.session_state.setdefault(WRITTEN, set()).add(param)


# --------------------------------------------------------------------- classroom settings


def _url_flag(key: str, param: str, values: tuple[str, ...]) -> bool:
    """Session flag ``key``, read once per session from ``?param=`` (on when the
    parameter's value is one of ``values``), then kept in session state."""
    ss = st.session_state
    if key not in ss:
        ss[key] = str(st.query_params.get(param, "")).strip().lower() in values
    return bool(ss[key])


def predict_mode() -> bool:
    """Whether "Predict, then reveal" is on: the headline numbers wait for the class.

    Read once per session from ``?reveal=0`` (also ``false``, ``no``, ``off``), then
    kept in session state, as :func:`presentation_mode`.
    """
    return _url_flag(PREDICT, REVEAL_PARAM, _OFF)


def intervals_on() -> bool:
    """Whether the headlines show their 95% bootstrap intervals (``?ci=1``)."""
    return _url_flag(INTERVALS, CI_PARAM, _ON)


def _app_toggle(label: str, key: str, toggle: str, param: str, url_value: str, help: str):
    on = bool(st.session_state[key])
    st.session_state[toggle] = on

    def _changed() -> None:
        st.session_state[key] = bool(st.session_state[toggle])

    st.sidebar.toggle(label, key=toggle, on_change=_changed, help=help)
    if on:
        st.query_params[param] = url_value
    else:
        st.query_params.pop(param, None)


#: The keys of download buttons (``curves_dl_optima``, ``ml_download_samples``,
#: ``lr_contrib_csv``): a download changes nothing on screen, and a section that appears
#: on Reveal with its download buttons must not make a new view (hiding it again).
DOWNLOAD_KEY = re.compile(r"_(dl|download)_|_csv$")


def view_signature() -> str:
    """A digest of what the page shows: the page, the dataset and every session key of
    the page (its settings and edits), but its Reveal button and its download buttons
    (:data:`DOWNLOAD_KEY`).

    Examples
    --------
    >>> len(view_signature())
    24
    >>> keys = ("dcg_dl_steps", "ml_download_samples", "lr_contrib_csv", "dcg_k", "ml_beta")
    >>> [bool(DOWNLOAD_KEY.search(k)) for k in keys]
    [True, True, True, False, False]
    """
    ss = st.session_state
    page = ss.get(PAGE)
    prefix = PAGE_PREFIXES.get(page, "\x00")
    keys = sorted(
        k
        for k in ss.keys()
        if isinstance(k, str)
        and k.startswith(prefix)
        and not k.endswith("reveal")
        and not DOWNLOAD_KEY.search(k)
    )
    text = repr((page, ss.get(ACTIVE), [(k, repr(ss[k])) for k in keys]))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def classroom_toggles() -> None:
    """The sidebar's "Predict, then reveal" and "95% intervals" toggles, app-wide URL
    settings like ``present=1`` (``reveal=0``, ``ci=1``); call before the page runs.

    Also records the view at the start of this run: the numbers a class revealed stay
    shown while the view is the one they were revealed on (:func:`numbers_shown`).
    """
    predict_mode()
    intervals_on()
    _app_toggle(
        "Predict, then reveal",
        PREDICT,
        PREDICT_TOGGLE,
        REVEAL_PARAM,
        "0",
        "Hides the headline numbers until the class has guessed them: press Reveal. "
        "They hide again when a control, the dataset or the page changes. The link keeps "
        "it (reveal=0).",
    )
    _app_toggle(
        "95% intervals",
        INTERVALS,
        CI_TOGGLE,
        CI_PARAM,
        "1",
        "Under each headline number, its 95% bootstrap confidence interval (2,000 "
        "seeded percentile resamples of the samples). The link keeps it (ci=1).",
    )
    track_view()


def track_view() -> None:
    """Record the view on screen; numbers revealed on another view hide again. The app
    calls it on every run; a panel that reruns alone (an st.fragment) calls it too."""
    st.session_state[VIEW] = view_signature()
    if st.session_state.get(REVEALED) != st.session_state[VIEW]:
        st.session_state.pop(REVEALED, None)


def numbers_shown() -> bool:
    """Whether the headline numbers are on screen: always, unless "Predict, then reveal"
    is on and the class has not revealed this view yet."""
    if not predict_mode():
        return True
    view = st.session_state.get(VIEW)
    return view is not None and st.session_state.get(REVEALED) == view


def reveal() -> None:
    """Show this view's numbers (the Reveal button's callback)."""
    st.session_state[REVEALED] = view_signature()
    st.session_state[VIEW] = st.session_state[REVEALED]


def follow_scenario() -> None:
    """Open the scenario a link names (``?scn=...`` with its dataset and settings).

    A scenario link clicked in the app keeps the session, whose dataset and page keys
    would win over the link's; so the link's dataset becomes the active one and every
    page key is dropped, and the page then reads its settings from the URL, as a link
    opened fresh does. Call before :func:`enter_page`; ``scn`` leaves the URL.
    """
    if SCENARIO_PARAM not in st.query_params:
        return
    st.query_params.pop(SCENARIO_PARAM, None)
    ss = st.session_state
    token, wanted = st.query_params.get("data"), st.query_params.get("ds")
    if token:
        try:
            ss[ACTIVE] = _keep(decode_dataset(token))
        except DataError as exc:
            ss[LINK_ERROR] = str(exc)
            return
    elif wanted in sample_names():
        ss[ACTIVE] = wanted
    else:
        return
    _drop_keys(lambda key: key.startswith(KEEP_ON_DATASET_CHANGE))
    ss[WRITTEN] = set()
