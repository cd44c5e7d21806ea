"""The worked examples of the source documents (:mod:`explorer.examples`) one click
away: a card per example on Home, a button per example on the page that teaches it,
and, on the page a card opened, what the document prints and where it stands.

A click opens the example's link as a scenario link does: its sample becomes the
active dataset and the page reads its settings from the address
(:func:`explorer.ui.navigation.follow_scenario`)."""

from __future__ import annotations

import streamlit as st

from explorer import examples, registry
from explorer.formatting import breakable, literal
from explorer.ui import classroom, navigation, url
from explorer.ui.language import t

#: How many cards a row of the Home gallery holds.
PER_ROW = 3


def _open(ex: examples.Example) -> None:
    """Go to the example's page on its link, keeping the app's settings in use."""
    extra = {p: str(st.query_params[p]) for p in url.APP_PARAMS if p in st.query_params}
    st.switch_page(registry.script(ex.page), query_params=ex.query(**extra))


def _printed(ex: examples.Example) -> str:
    """What the document prints, or "?" while "Predict, then reveal" hides the numbers."""
    if not classroom.numbers_shown():
        return "?"
    return literal(ex.printed) if ex.printed else t("no number")


def gallery() -> None:
    """Home: a card per worked example, document by document, each opening its page."""
    chosen = None
    items = examples.EXAMPLES
    for start in range(0, len(items), PER_ROW):
        for col, ex in zip(st.columns(PER_ROW), items[start : start + PER_ROW], strict=False):
            with col.container(border=True):
                st.markdown(f"**{t(ex.document)}**: {literal(t(ex.name))}")
                st.caption(
                    t(
                        "On **${page}** · the document prints ${printed}",
                        page=t(registry.page(ex.page).title),
                        printed=_printed(ex),
                    )
                )
                if st.button(t("Open"), key=f"home_example_{ex.id}", width="stretch"):
                    chosen = ex
    if chosen is not None:
        _open(chosen)


def buttons(slug: str) -> None:
    """The page's own worked examples: a button each, one click to open."""
    items = examples.for_page(slug)
    if not items:
        return
    prefix = registry.page(slug).prefix
    st.caption(t("Worked examples of the source documents on this page:"))
    chosen = None
    for col, ex in zip(st.columns(len(items)), items, strict=True):
        name = breakable(t(ex.name))  # an identifier breaks at its underscores
        label = t("${document}: ${name}", document=t(ex.document), name=name)
        if col.button(label, key=f"{prefix}example_{ex.id}"):
            chosen = ex
    if chosen is not None:
        _open(chosen)


def opened(ex: examples.Example) -> None:
    """The note of the example this page was opened on: what the document prints."""
    st.info(
        t(
            "Worked example: **${document}**, ${name}. The document prints **${printed}**; "
            "this page shows it in ${where}.",
            document=t(ex.document),
            name=literal(t(ex.name)),
            printed=_printed(ex),
            where=t(ex.where),
        )
    )


def opened_here(slug: str) -> examples.Example | None:
    """The example this page was opened on from a card or a button, if any."""
    ex = examples.by_id(st.session_state.get(navigation.OPENED, ""))
    return ex if ex is not None and ex.page == slug else None
