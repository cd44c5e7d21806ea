"""The cached reads of the files opened by ``metric-explorer`` or ``explorer.launch``."""

from __future__ import annotations

from explorer import opened as _opened
from explorer.ui.cache._core import shared, value

#: The manifest's entries, keyed by its path and signature (a notebook's new entry is seen).
manifest = value(_opened.read_manifest)
#: An entry's dataset, read once by the upload readers and shared by every session of the
#: server; keyed by the entry and its files' sizes and times (a replaced file is read again).
dataset = shared(_opened.read, size="big")
