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
another score file may join the labels already there and all be read again.
"""

from __future__ import annotations

from streamlit.runtime.scriptrunner import get_script_run_ctx


def release() -> None:
    """Drop every file this session has uploaded from Streamlit's store (nothing
    outside a script run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        ctx.uploaded_file_mgr.remove_session_files(ctx.session_id)
