"""Every text an AppTest page emits, for the "Predict, then reveal" sweep
(``tests/views/test_reveal_airtight.py``): each element's strings (labels, bodies,
options, captions, help), each data frame's cells and headers, each plotly figure's
trace texts, hover templates, numbers and annotations, and each download's content.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Sequence
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np
from google.protobuf.message import Message
from streamlit.runtime import memory_media_file_storage as media

#: Proto string fields that are no text a visitor reads.
SKIPPED = {"id", "form_id", "page_script_hash", "url", "mimetype", "theme", "deferred_file_id"} | {
    "js_content",
    "css_content",
}
#: The plotly trace keys that carry what a chart shows (its points, bars, texts).
TRACE_KEYS = ("x", "y", "z", "base", "text", "hovertext", "customdata", "values", "name")


def _decoded(value):
    """A plotly JSON value with its typed arrays ({"dtype", "bdata"}) as lists."""
    if isinstance(value, dict) and "bdata" in value and "dtype" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if "shape" in value:
            shape = value["shape"]
            shape = [int(n) for n in shape.split(",")] if isinstance(shape, str) else shape
            array = array.reshape(shape)
        return array
    return value


class Found(NamedTuple):
    """What a page emits: its texts, and the bare numbers of its charts' and
    components' data (a bar's height, a point's coordinate), as ``repr``."""

    texts: list[str]
    numbers: list[str]


def _values(value, out: Found, kind: str = "chart") -> None:
    value = _decoded(value)
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, dict):
        for key, v in value.items():
            # the operating point's stops are the data's own distinct scores (where the
            # arrow keys step, the distribution's dots): data, not an answer, though a
            # score may equal a hidden rate to three decimals
            if key != "stops":
                _values(v, out, kind)
    elif isinstance(value, list | tuple):
        for v in value:
            _values(v, out, kind)
    elif isinstance(value, str):
        out.texts.append(f"{kind}: {value}")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        out.numbers.append(f"{kind}: {value!r}")


def plotly_texts(fig: dict, out: Found) -> None:
    """What a plotly figure shows: each trace's points and texts (:data:`TRACE_KEYS`),
    hover templates, the titles, tick labels, annotations and shapes."""
    for trace in fig.get("data", []):
        for key in TRACE_KEYS:
            _values(trace.get(key), out)
        _values(trace.get("hovertemplate"), out)
        _values(trace.get("texttemplate"), out)
    layout = fig.get("layout", {})
    for key, value in layout.items():
        if key.startswith(("xaxis", "yaxis")):
            _values([value.get("title"), value.get("ticktext")], out)
    _values([layout.get("title"), layout.get("annotations"), layout.get("shapes")], out)


def _text(kind: str, field: str, item: str, out: Found) -> None:
    if item.lstrip().startswith(("<style", "<script")):
        return
    if item.startswith("{"):
        try:
            data = json.loads(item)
        except ValueError:
            data = None
        if isinstance(data, dict):  # a plotly figure, or a component's data
            plotly_texts(data, out) if field == "spec" else _values(data, out, kind)
            return
    out.texts.append(f"{kind}: {item}")


def _proto_texts(proto: Message, out: Found, kind: str) -> None:
    for field, value in proto.ListFields():
        if field.name in SKIPPED:
            continue
        items = value if isinstance(value, Sequence) and not isinstance(value, str) else [value]
        for item in items:
            if isinstance(item, Message):
                _proto_texts(item, out, kind)
            elif isinstance(item, str):
                _text(kind, field.name, item, out)


def _cell(value) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)


def texts(at) -> Found:
    """Every text and chart number of the AppTest page ``at`` (main area, sidebar,
    every tab)."""
    out = Found([], [])

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        kind = type(node).__name__
        if isinstance(proto, Message):
            _proto_texts(proto, out, kind)
        if type(node).__name__ == "Dataframe":
            frame = node.value
            cells = [*frame.columns, *frame.index, *frame.to_numpy().ravel()]
            out.texts.extend(f"{kind}: {_cell(v)}" for v in cells)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return out


@contextmanager
def downloads():
    """The contents of the files the app hands to download buttons while inside, as
    text (a list, filled as the runs go)."""
    saved = media.MemoryMediaFileStorage.load_and_get_id
    got: list[str] = []

    def load(self, path_or_data, mimetype, kind, filename=None):
        if isinstance(path_or_data, bytes | str):
            data = path_or_data
            got.append(data.decode("utf-8", "replace") if isinstance(data, bytes) else data)
        return saved(self, path_or_data, mimetype, kind, filename)

    media.MemoryMediaFileStorage.load_and_get_id = load
    try:
        yield got
    finally:
        media.MemoryMediaFileStorage.load_and_get_id = saved


#: A code-style name: words joined by an underscore (``n_true_at_or_above``, ``y_true``).
CODE_NAME = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]")
#: scikit-learn's arguments a page teaches by name: its control says "zero_division", and
#: a scenario's before/after columns name the setting as the control does.
TAUGHT = ("zero_division",)


def headers(at) -> list[str]:
    """Every column header of the page's tables as shown: the column's configured
    label, else its name (hidden columns left out)."""
    out = []
    for table in [*at.main.dataframe, *at.main.table]:
        config = json.loads(getattr(table.proto, "columns", "") or "{}")
        for i, name in enumerate(table.value.columns):
            given = config.get(str(name)) or config.get(f"_pos:{i}") or {}
            given = {"label": given} if isinstance(given, str) else given
            if not given.get("hidden"):
                out.append(str(given.get("label") or name))
    return out


def code_names(at, ds) -> list[str]:
    """The headers of the page's tables that read as code (``hits_so_far``, ``y_hat``)
    once the data's own names (models, labels, attributes) are taken out, which are
    the data's whatever they look like, and the arguments a page teaches (:data:`TAUGHT`)."""
    own = sorted(
        {*ds.model_names, *map(str, ds.label_names or ()), *(n for n, _ in ds.attributes)}
        | set(TAUGHT),
        key=len,
        reverse=True,
    )
    found = []
    for header in headers(at):
        bare = header
        for name in own:
            bare = bare.replace(name, " ")
        if CODE_NAME.search(bare):
            found.append(header)
    return found
