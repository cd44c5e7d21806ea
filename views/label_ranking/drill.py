"""The Label ranking page's drill-down (views/label_ranking.py), one st.fragment: the
sample picker, the tie rule, the what-if editor and the selected sample's numbers,
ranking, tie rules and step tables. Moving the sample or the tie rule reruns this
panel only; the headline, the contributions chart and the tables above and below
stay as they are. The whole page reruns (``st.rerun(scope="app")``) only when a move
changes something drawn outside the panel: a what-if edit (the means, the tables),
the selected sample entering or leaving the contributions chart (its highlight), or
"Predict, then reveal" hiding the headline again.

Layout only: the numbers come from :mod:`explorer.pages.label_ranking`."""

from __future__ import annotations

from functools import partial

import numpy as np
import streamlit as st

import metrics
from explorer import links
from explorer.pages import label_ranking as model
from explorer.pages.label_ranking import TIE_LABELS
from explorer.ui import classroom, url, widgets
from views import prose
from views.label_ranking import parts


def outside(what_if, i: int, new_row, chart: frozenset) -> tuple:
    """What the page outside the drill-down shows of a move: the what-if edit, the
    highlighted bar of the contributions chart, whether the headline is shown."""
    edit = None if what_if is None else (i, tuple(float(x) for x in new_row))
    return edit, (i if i in chart else None), classroom.numbers_shown()


@st.fragment
def drill_down(ds, model_name: str, base, sort_by: str, drawn: dict):
    """The drill-down (see the module's docstring); returns ``(i, new_row, what_if)``.

    ``drawn``: filled by the page after a whole run with ``chart`` (the samples the
    contributions chart shows) and ``outside`` (:func:`outside` of that run); a rerun
    of this panel alone compares against it.
    """
    classroom.track_view()  # a move here hides revealed numbers again
    n, ids = ds.n_samples, list(ds.sample_ids)
    worst = model.worst_sample(base.contrib, sort_by)  # the drill-down opens on it
    url.bind_param("lr_sample", "i", worst, int, url.int_in(0, n - 1, clamp=False))
    c_sample, c_ties = st.columns([3, 2])
    sample_label = partial(parts.sample_label, base.contrib, ids)
    if n <= 1000:
        # the labels carry the model's numbers: a fresh widget when they change
        i = widgets.numbered_selectbox(
            c_sample,
            "Sample",
            range(n),
            sample_label,
            key="lr_sample",
            default=worst,
            help="The worst sample first (by the sort above); URL: ?i=",
        )
    else:
        i = int(c_sample.number_input("Sample (row number)", 0, n - 1, step=1, key="lr_sample"))
        c_sample.caption(sample_label(i))
    url.write_param("i", i)

    url.bind_param("lr_tie_mode", "ties", "max", str, url.member(TIE_LABELS))
    ties = c_ties.radio(
        "Ties in this sample's LRAP and coverage",
        list(TIE_LABELS),
        format_func=TIE_LABELS.get,
        key="lr_tie_mode",
        horizontal=True,
        help=prose.section("label_ranking", "help-ties"),
    )
    url.write_param("ties", ties)

    orig_row = np.asarray(ds.score(model_name)[i])
    new_row = parts.whatif_editor(ds, i, model_name, orig_row)
    try:  # only sample i changes: its row is recomputed, the means and effects updated
        what_if = model.what_if(ds, model_name, base, i, new_row)
    except metrics.MetricInputError as exc:
        st.error(f"The edited scores are not used: {exc}")
        what_if = None
    if "outside" in drawn and outside(what_if, i, new_row, drawn["chart"]) != drawn["outside"]:
        st.rerun(scope="app")  # the means, the chart's highlight or the headline change
    if what_if is not None:
        st.info("Showing the what-if scores: press **Reset** to go back.")
        url.write_param("wi", links.whatif_text(i, new_row, orig_row))  # the link carries it
    else:
        st.query_params.pop("wi", None)
    res = base if what_if is None else what_if
    contrib = res.contrib
    one = model.sample_steps(ds.y_true[i], new_row if what_if is not None else orig_row, ties)
    scales = model.effect_scales(contrib)
    parts.sample_section(one, res.ties, contrib.iloc[i], i, list(ds.label_names), ties, scales)
    return i, new_row, what_if
