"""The bytes Streamlit keeps of this session's uploads: let go when the visitor leaves
the Data page.

Streamlit keeps every file uploaded in a session in its own store (its
``UploadedFileManager``) until the session ends, outside what the session's bounds
count (:mod:`explorer.ui.session`): a read file's data then lives twice, in its dataset
and as the upload's bytes, and a file the Data page never read (a score file waiting
for its labels) stays however long the visitor stays. The uploaders are on the Data
page only, and the browser drops their files when the visitor leaves it (another
page's widgets replace them), so every byte of the session's store is dead from then
on: :func:`release` empties it, called as the next page is entered
(:func:`explorer.ui.navigation.enter_page`). On the Data page the files stay in place:
another score file may join the labels already there and all be read again. Their bytes
are bounded there too on the public demo (:data:`MAX_IN_PLACE`, checked by
:func:`over_bound` as the page runs): a stranger could otherwise leave any number of
50 MB files in the uploaders that take several, none read until its labels come.
Locally the visitor is the one who started the server, and their files are theirs to
hold.
"""

from __future__ import annotations

from streamlit.runtime.scriptrunner import get_script_run_ctx

from explorer import budget
from explorer.ui.session import MAX_SESSION_TOTAL

#: Most bytes of files one session may have in the Data page's uploaders at once: what it
#: may hold in all (its datasets and what the pages computed from them), six files at
#: the 50 MB limit.
MAX_IN_PLACE = MAX_SESSION_TOTAL


def release() -> None:
    """Drop every file this session has uploaded from Streamlit's store (nothing
    outside a script run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        ctx.uploaded_file_mgr.remove_session_files(ctx.session_id)


def held_bytes() -> int:
    """Bytes of this session's files in Streamlit's store (0 outside a script run, or
    with a store that does not list its files)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    store = getattr(ctx.uploaded_file_mgr, "file_storage", None) if ctx is not None else None
    if not isinstance(store, dict):
        return 0
    # list() copies the session's files at once (under the GIL): an upload may land meanwhile
    return sum(len(f.data) for f in list(store.get(ctx.session_id, {}).values()))


def over_bound() -> int:
    """On the public demo, the bytes in place when they are over :data:`MAX_IN_PLACE`,
    after dropping every file of the session from Streamlit's store (the datasets read
    stay); else 0."""
    if not budget.hosted():
        return 0
    held = held_bytes()
    if held <= MAX_IN_PLACE:
        return 0
    release()
    return held
