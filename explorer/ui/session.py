"""This session's datasets: the active one, the uploads and edits it keeps (bounded in
number and bytes), the host's big data, the files opened by ``metric-explorer`` or
``explorer.launch``, and the dataset a fresh link names.

The active dataset's name lives in the non-widget key ``active_dataset`` so it survives
page changes. The URL names it: ``?ds=<sample>`` for a bundled sample or the host's big
data, ``?data=<packed>`` for a small upload or edit (:mod:`explorer.links`). When the
active dataset changes, every page's keys and URL settings are dropped
(:func:`reset_page_settings`): a k or a sample chosen on one dataset means nothing on
another.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable

import streamlit as st

from explorer import bigdata, opened, registry
from explorer.datasets import Dataset, RowIds
from explorer.formatting import literal
from explorer.i18n import Phrase
from explorer.io import DataError
from explorer.io.errors import quote
from explorer.links import decode_dataset, encode_dataset, fits_in_link
from explorer.samples import load_sample, sample_names
from explorer.ui import cache, language, session_cache, url

LOG = logging.getLogger(__name__)

DEFAULT_SAMPLE = "balanced"
ACTIVE = "active_dataset"
SESSION = "session_datasets"
LINK_ERROR = "link_error"
LINK_WARNING = "link_warning"
#: The slice filter's session key and URL parameter (:mod:`explorer.ui.slice_filter`).
SLICE, SLICE_PARAM = "slice_filter", "slice"
#: Keys that outlive a dataset change: the Data page's uploaders (their files stay in
#: the browser) and its record of the uploads already read, which keeps a file that is
#: still in place from being read, and made active, a second time.
KEEP_ON_DATASET_CHANGE = ("data_upload_",)


#: Most uploaded, edited or linked datasets one session keeps; the oldest go first.
MAX_SESSION_DATASETS = 5
#: Most bytes those datasets may take together (as :func:`dataset_bytes` counts them).
MAX_SESSION_BYTES = 200_000_000
#: Most bytes one session keeps in all: its datasets and what the pages computed from
#: them (the session's store, :mod:`explorer.ui.session_cache`). The store gets what the
#: datasets leave (:func:`fit_store`): a 60 MB upload could otherwise hold 200 MB of
#: datasets and 256 MB of derived tables besides.
MAX_SESSION_TOTAL = 300_000_000
#: The store's least: a dataset over the budget by itself still has its sort orders and
#: tables cached (else every move would compute them again).
MIN_STORE_BYTES = 32_000_000
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
    arrays += [a for a in (ds.sample_weight, ds.retrieved) if a is not None]
    items = [] if ds.item_ids is None else ds.item_ids.ravel().tolist()
    items += ds.attribute_names
    for _, values in ds.attributes:  # numbers as their array, texts as strings
        if values.dtype == object:
            items += values.tolist()
        else:
            arrays.append(values)
    ids = () if isinstance(ds.sample_ids, RowIds) else ds.sample_ids  # row numbers: made when read
    texts = (ds.name, ds.description, *ids, *ds.label_names, *ds.model_names, *items)
    # a short str takes 49 bytes besides its characters, plus 8 for its slot in a tuple
    return sum(a.nbytes for a in arrays) + sum(map(len, texts)) + 57 * len(texts)


def keep(ds: Dataset) -> str:
    """Keep ``ds`` as this session's newest dataset; return the name it is kept under.

    A name of a bundled sample gets a suffix (``balanced (link)``): the sample
    stays reachable. Then the oldest datasets are dropped while the session holds
    more than :data:`MAX_SESSION_DATASETS` or :data:`MAX_SESSION_BYTES`; neither
    ``ds`` (about to be the active one) nor the active one is, however big. The names dropped
    are left in a notice (:data:`DROPPED`) that :func:`explorer.ui.sidebar.sidebar_picker` shows.
    The session's store of computations then gets what the datasets leave (:func:`fit_store`).
    """
    if ds.name in (*sample_names(), *opened_files(), *big_sources()):  # never hide a named one
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
    fit_store(sum(sizes.values()))
    if dropped:
        names = ", ".join(quote(name) for name in dropped)
        st.session_state[DROPPED] = Phrase(
            "To make room, this session no longer keeps ${names} (at most ${n} uploaded or "
            "edited datasets, ${mb:,} MB in all, are kept; the oldest go first). ${again}",
            again=Phrase(
                "Upload them again to use them." if dropped[1:] else "Upload it again to use it."
            ),
            names=names,
            n=MAX_SESSION_DATASETS,
            mb=MAX_SESSION_BYTES // 10**6,
        )
    return ds.name


def fit_store(datasets_bytes: int) -> None:
    """Bound the session's store by what its datasets (``datasets_bytes``) leave of
    :data:`MAX_SESSION_TOTAL`, at least :data:`MIN_STORE_BYTES`; the least recently used
    computations go now if the store holds more."""
    store = session_cache.current()
    if store is not None:
        store.resize(max(MIN_STORE_BYTES, MAX_SESSION_TOTAL - datasets_bytes))


def big_sources() -> dict[str, bigdata.Source]:
    """The host's big Parquet data (``METRIC_EXPLORER_BIG_DATA``), by name.

    Only the host's environment names them: a visitor picks one by its name, never
    by a path. Entries the configuration refuses are logged, not shown.
    """
    found, problems = cache.big.config(os.environ.get(bigdata.ENV, ""), taken=sample_names())
    return {source.name: source for source in found}


def opened_files() -> dict[str, opened.Entry]:
    """The files opened by ``metric-explorer`` or ``explorer.launch`` (the manifest named
    in ``METRIC_EXPLORER_OPEN``), by name; read again whenever the manifest changed.

    A manifest that cannot be read is logged and opens nothing.
    """
    path = os.environ.get(opened.ENV, "")
    if not path:
        return {}
    try:
        entries = cache.opened.manifest(path, opened.manifest_signature(path))
    except DataError as exc:
        LOG.error("%s", exc)
        return {}
    return {entry.name: entry for entry in entries if entry.name not in sample_names()}


def default_name() -> str:
    """What a visit without a dataset in its link opens: the first opened file, if any,
    else :data:`DEFAULT_SAMPLE`."""
    return next(iter(opened_files()), DEFAULT_SAMPLE)


def available() -> list[str]:
    """Names the picker offers: this session's uploads and edits, the opened files, the
    host's big data, then the gallery."""
    kept = session_datasets()
    named = [name for name in (*opened_files(), *big_sources()) if name not in kept]
    return [*kept, *named, *sample_names()]


def get_dataset(name: str) -> Dataset:
    """The dataset of that name: an upload or edit, an opened file, the host's big data,
    or a sample.

    The host's big data is read once (exact states and a sample, see
    :mod:`explorer.bigdata`) and then shared by every session; it raises
    :class:`~explorer.io.DataError` when the data cannot be used.
    """
    uploads = session_datasets()
    if name in uploads:
        return uploads[name]
    entry = opened_files().get(name)
    if entry is not None:
        return cache.opened.dataset(entry, opened.signature(entry))
    source = big_sources().get(name)
    if source is not None:
        reading = "Reading ${name} once: exact numbers over every row, and a sample"
        with st.spinner(language.t(reading, name=literal(name))):
            return cache.big.dataset(source, bigdata.signature(source))
    return load_sample(name)


def is_named(name: str) -> bool:
    """Whether ``name`` is reachable by name in a link (a sample, an opened file or the
    host's big data)."""
    if name in session_datasets():
        return False
    return name in sample_names() or name in opened_files() or name in big_sources()


def init() -> None:
    """Pick the active dataset once per session: from the URL, else the default.

    A link that cannot be followed (a damaged ``data=``, an unknown ``ds=``)
    leaves a notice for :func:`explorer.ui.sidebar.sidebar_picker` and opens the default sample.
    """
    if ACTIVE in st.session_state:
        return
    st.session_state[ACTIVE] = default_name()
    token = st.query_params.get("data")
    wanted = st.query_params.get("ds")
    if token:
        try:
            ds = decode_dataset(token)
        except DataError as exc:
            st.session_state[LINK_ERROR] = exc.args[0]  # translated where shown
        else:
            st.session_state[ACTIVE] = keep(ds)
    elif is_named(wanted):
        st.session_state[ACTIVE] = wanted
    elif wanted:
        st.session_state[LINK_WARNING] = Phrase(
            "The link asks for the sample ${wanted}, which does not exist here: "
            "showing ${default} instead. Pick a dataset in the sidebar.",
            wanted=repr(wanted),
            default=repr(DEFAULT_SAMPLE),
        )


def sync_url(name: str) -> None:
    if is_named(name):
        st.query_params["ds"] = name
        st.query_params.pop("data", None)
        return
    st.query_params.pop("ds", None)
    ds = get_dataset(name)
    if fits_in_link(ds):
        st.query_params["data"] = encode_dataset(ds)
    else:
        st.query_params.pop("data", None)


def drop_page_keys(keep: Callable[[str], bool]) -> None:
    """Delete every page key (see :data:`explorer.registry.PREFIXES`) for which ``keep`` is
    false."""
    prefixes = registry.PREFIXES
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and key.startswith(prefixes) and not keep(key):
            del st.session_state[key]


def reset_page_settings() -> None:
    """Forget every page's settings and the slice filter, in session state and in the URL.

    Called on a dataset change: a k, a sample or a model chosen on another dataset
    means nothing on this one. The Data page's uploads are kept
    (:data:`KEEP_ON_DATASET_CHANGE`).
    """
    drop_page_keys(lambda key: key.startswith(KEEP_ON_DATASET_CHANGE))
    url.drop_page_params()
    st.session_state[SLICE] = ()  # a slice names the attributes of the data left
    st.query_params.pop(SLICE_PARAM, None)


def set_active(name: str) -> None:
    """Make ``name`` the active dataset, forget the pages' settings, mirror it to the URL."""
    st.session_state[ACTIVE] = name
    reset_page_settings()
    sync_url(name)


def add_dataset(ds: Dataset) -> None:
    """Keep ``ds`` for this session and make it the active dataset.

    The session keeps at most :data:`MAX_SESSION_DATASETS` datasets of at most
    :data:`MAX_SESSION_BYTES` in all: the oldest others are dropped, with a notice
    (see :func:`keep`). A dataset named like a bundled sample is kept as
    ``<name> (upload)`` (``(edit)``, ``(link)``).
    """
    set_active(keep(ds))


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


def active() -> Dataset:
    """The active Dataset (after :func:`explorer.ui.sidebar.sidebar_picker` ran in app.py)."""
    init()
    return get_dataset(st.session_state[ACTIVE])
