"""Metric Explorer: the entry point. `python3 dev.py run` starts it.

The pages come from :data:`explorer.registry.PAGES` (one package ``views/<slug>/`` each,
its script ``<slug>.py`` giving the page's address ``/<slug>``);
everything around them (the dataset picker, the share link, the classroom toggles) from
:mod:`explorer.ui`.
"""

import streamlit as st

from explorer import registry, theme
from explorer.ui import classroom, language, navigation, report, share, sidebar, slice_filter

present = sidebar.presentation_mode()  # ?present=1: large text, the sidebar folded away
st.set_page_config(
    page_title="Metric Explorer",
    layout="wide",
    initial_sidebar_state="collapsed" if present else "auto",
)
theme.use_template()  # again, in case streamlit's own import reset plotly's default
st.html(theme.page_css(present))
# the sidebar names each page in the visitor's language (?lang=zh); its address stays
nav = st.navigation(
    [
        st.Page(
            page.script,
            title=language.t(page.title),
            url_path=page.slug,
            default=page.slug == registry.HOME,
        )
        for page in registry.PAGES
    ]
)
slug = nav.url_path or registry.HOME  # the default page's url_path is ""
navigation.follow_scenario()  # a scenario link (explorer.scenarios) clicked in the app
# a page change drops the other pages' settings (see explorer.ui.navigation.enter_page)
navigation.enter_page(slug)
report.start(nav.title)  # what this run draws, for "Download this view"
# ?slice=hospital:B: every page computes on that slice. No global names the dataset: the
# script's module outlives the run (in sys.modules), and with it whatever it holds
slice_filter.sidebar(sidebar.sidebar_picker())
language.picker()  # English or 简体中文 (?lang=zh)
sidebar.presentation_toggle()
classroom.classroom_toggles()  # predict, then reveal (reveal=0); 95% intervals (ci=1)
link = share.ShareLink()  # "Copy link", under the picker (and a notice if it has no data)
sidebar.download_view()  # the page as one HTML file, built on the click
navigation.run_page(nav)  # a page that stops early (navigation.stop_page) still ends normally
classroom.settle()  # what Reveal drew below the headline is part of the view revealed
link.fill()  # again, now that the page wrote its settings into the URL
