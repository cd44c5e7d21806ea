"""The "Copy link" of every page, and the notice when the address cannot hold the data."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import literal
from explorer.links import fits_in_link
from explorer.ui import language, session, url


def link_is_shareable() -> bool:
    """Whether the current URL reproduces the active dataset."""
    name = st.session_state.get(session.ACTIVE, session.DEFAULT_SAMPLE)
    if session.is_named(name):
        return True
    return fits_in_link(session.get_dataset(name))


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

    Create it after :func:`explorer.ui.sidebar.sidebar_picker` and before the page runs:
    it draws both with the address as it stands. Call :meth:`fill` again once the page
    has run (also after a :func:`explorer.ui.navigation.stop_page`), so the link holds the
    settings the page wrote.
    """

    def __init__(self) -> None:
        self._top = st.empty()
        self._side = st.sidebar.empty()
        self.fill()

    def fill(self) -> None:
        self._boxes = getattr(self, "_boxes", 0) + 1
        link = url.current_link()
        name = st.session_state.get(session.ACTIVE, session.DEFAULT_SAMPLE)
        if link_is_shareable():
            with self._side.popover(language.t("Copy link"), icon=":material/link:"):
                st.caption(language.t("This page with its dataset and settings:"))
                _link_box(link, self._boxes)
            return
        with self._side.popover("Copy link (settings only)", icon=":material/link:"):
            st.caption(
                f"This page's settings, without the dataset {literal(repr(name))}: the link "
                f"opens the sample {session.DEFAULT_SAMPLE!r}."
            )
            _link_box(link, self._boxes)
        with self._top.container():
            note, copy = st.columns([5, 1], vertical_alignment="center")
            note.warning(
                f"This address does not hold the dataset **{literal(name)}** (too big for a link): "
                f"opened elsewhere it shows the sample {session.DEFAULT_SAMPLE!r}. To share the "
                "data, download it on the Data page.",
                icon=":material/link:",
            )
            with copy.popover(language.t("Copy link"), icon=":material/link:"):
                st.caption(f"This page's settings only, without {literal(repr(name))}:")
                st.code(link, language=None, wrap_lines=True)
