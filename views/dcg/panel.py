"""The DCG & NDCG page's panel (views/dcg.py), one st.fragment: the settings (k, log
base, ties, gain, model) and all they change: the headline, the selected sample
position by position, how it is computed, what ties do and the per-sample table.
Moving k (or picking a sample) reruns this panel only: the title, the introduction,
the sidebar and the worked example above it are not run or drawn again.

Layout only: the numbers come from :mod:`explorer.pages.dcg` through
:mod:`explorer.ui.cache`."""

from __future__ import annotations

import streamlit as st

import metrics
from explorer.charts import dcg as charts
from explorer.formatting import fmt
from explorer.pages import dcg as model
from explorer.pages.dcg import BASE_VALUES, BASES, GAIN_PARAM, GAINS
from explorer.ui import bound, cache, classroom, url, widgets
from views import prose
from views.dcg import headline, parts, tables

#: The tabs below the selected sample's chart (key ``dcg_tab``, URL ``?tab=`` by the
#: first word in lower case); the first derives the selected sample's numbers.
TABS = ("Derivation of the sample", "Ties", "Every sample")
TAB_KEY, TAB_PARAM = "dcg_tab", "tab"

#: Above this many samples the sample picker is a row-number input.
PICKER_MAX = 1000


@st.fragment
def panel(ds) -> None:
    """The settings and what they change (see the module's docstring)."""
    classroom.track_view()  # a move here hides revealed numbers again
    # ------------------------------------------------------------------ controls
    n_items = ds.n_labels
    url.bind_param("dcg_k", "k", None, model.parse_k, lambda v: parts.check_k(v, n_items))
    url.bind_param("dcg_log_base", "log_base", "2", model.parse_base_choice, url.member(BASES))
    url.bind_param(
        "dcg_log_base_other", "log_base", 3.0, float, url.float_in(0.01, 1e300, clamp=False)
    )
    url.bind_param(
        "dcg_ignore_ties", "ignore_ties", False, model.parse_bool, url.member((False, True))
    )
    url.bind_param("dcg_gain", "gain", GAINS[0], model.parse_gain, url.member(GAINS))
    url.bind_param("dcg_model", "model", ds.model_names[0], str, url.member(ds.model_names))

    c_k, c_base, c_ties, c_gain, c_model = st.columns([0.9, 1, 1.25, 1.45, 1])
    k = c_k.number_input(
        "k (cut-off)",
        min_value=1,
        max_value=n_items,
        step=1,
        key="dcg_k",
        placeholder="all",
        help=f"Only the top k positions count. Leave empty for all {n_items} items.",
    )
    base_choice = c_base.selectbox(
        "log base",
        BASES,
        key="dcg_log_base",
        help="The discount is 1 / log_b(1 + position). scikit-learn's default is 2.",
    )
    if base_choice == "other":
        base_other = c_base.number_input(
            "base b", min_value=0.01, step=0.5, key="dcg_log_base_other", format="%.3g"
        )
        log_base, base_param = float(base_other), str(base_other)
    else:
        log_base, base_param = BASE_VALUES[base_choice], base_choice
    log_tex = parts.BASE_TEX.get(base_choice, rf"\log_{{{log_base:g}}}")
    ignore_ties = c_ties.toggle(
        "ignore ties",
        key="dcg_ignore_ties",
        help=prose.section("dcg", "help-ties"),
    )
    gain_choice = c_gain.radio(
        "gain",
        GAINS,
        key="dcg_gain",
        help=prose.section("dcg", "help-gain"),
    )
    model_name = c_model.selectbox("model", ds.model_names, key="dcg_model")
    exp_gain = gain_choice == GAINS[1]

    url.write_param("k", "all" if k is None else int(k))
    url.write_param("log_base", base_param)
    url.write_param("ignore_ties", int(bool(ignore_ties)))
    url.write_param("gain", GAIN_PARAM[gain_choice])
    url.write_param("model", model_name)

    k = None if k is None else int(k)
    settings = model.Settings(model_name, k, log_base, bool(ignore_ties), exp_gain)
    try:
        table = cache.dcg.per_sample_table(ds, settings)
        head = model.headline(ds, table)
    except metrics.MetricInputError as exc:
        widgets.cannot_score(ds, exc, "DCG ranks the labels of each sample by score")
        return

    # ------------------------------------------------------------------ 1. headline
    tie_text = "ties ignored (higher column first)" if ignore_ties else "ties averaged"
    k_text = f"k = {k}" if k is not None else f"k = all {n_items}"
    base_text = base_param if base_choice != "e" else "e"
    worst = model.worst_row(table)  # the drill-down opens on it (the tab sorts them all)
    url.bind_param(
        "dcg_sample",
        "sample",
        worst,
        ds.sample_ids.index,
        url.int_in(0, ds.n_samples - 1, clamp=False),
    )
    headline.headline(
        ds,
        table,
        head,
        settings,
        row=st.session_state["dcg_sample"],
        base_2=base_choice == "2",
        line=f"Mean over **{ds.n_samples}** samples of model **{model_name}** · {k_text} · "
        f"log base {base_text} · {tie_text} · gain {gain_choice}",
    )
    if base_choice != "2":
        st.info(prose.section("dcg", "base-cancels").format(base=base_text))

    if ds.name == model.SEED:
        parts.seed_examples(ds)

    # ------------------------------------------------------------------ 2. the picture
    st.subheader("The selected sample, position by position")
    if ds.n_samples <= PICKER_MAX:
        ndcg_of = table["NDCG"].to_numpy()
        # the labels show each sample's NDCG at the current settings: a fresh widget each
        # time they change (widgets.numbered_selectbox), the row kept in "dcg_sample"
        # "Predict, then reveal": no sample's NDCG in the labels either (for as long as the
        # mode is on: new labels are a new widget, a new view, which would hide again)
        shown = not classroom.predict_mode()
        row = widgets.numbered_selectbox(
            st,
            "sample",
            range(ds.n_samples),
            lambda i: f"{ds.sample_ids[i]} (NDCG {fmt(ndcg_of[i])})" if shown else ds.sample_ids[i],
            key="dcg_sample",
            default=worst,
            help="Opens on the worst sample; pick another, or click a row in the tab Every sample.",
        )
    else:  # a selectbox of 10^5 options would format and send every one of them
        row = int(
            st.number_input(
                f"sample (row 0 to {ds.n_samples - 1})",
                min_value=0,
                max_value=ds.n_samples - 1,
                step=1,
                key="dcg_sample",
                help="Type a row number, or click a row in the tab Every sample.",
            )
        )
        ndcg = f", NDCG {fmt(table['NDCG'].iloc[row])}" if classroom.numbers_shown() else ""
        st.caption(f"Row {row}: sample {ds.sample_ids[row]}{ndcg}")
    url.write_param("sample", ds.sample_ids[row])
    names = ds.label_names
    one = model.sample_steps(ds, settings, row, table)
    chart_args = {
        "k": k,
        "item_names": names,
        "gain_label": "2^rel - 1" if exp_gain else "relevance",
        "title": f"Sample {ds.sample_ids[row]}: gain and contribution per position",
        "max_positions": parts.STEP_ROWS,
    }
    if n_items > charts.UPRIGHT_TICKS:  # a long list, redrawn on each k: SVG, not plotly
        widgets.svg_chart(charts.steps_svg(one.steps, **chart_args))
    else:
        st.plotly_chart(charts.steps_figure(one.steps, **chart_args), key="dcg_steps_chart")
    st.caption(parts.steps_caption(charts.n_tie_groups(one.steps), settings, n_items))

    empty = head.no_relevant
    if empty:
        st.warning(parts.no_relevant_text(empty, ds.n_samples))

    # ------------------------------------------------------------------ 3. the tabs
    # lazy: only the open tab is computed and drawn (and redrawn on a move of k)
    st.subheader("In detail", anchor=headline.TABLE_ANCHOR)
    tab_how, tab_ties, tab_every = bound.tabs(
        TABS, key=TAB_KEY, param=TAB_PARAM
    )  # a link opens a tab
    # "Predict, then reveal": the sample's DCG is the answer of a worked example (and
    # of the headline on one sample), so its derivation and tie values wait for Reveal
    if tab_how.open:
        with tab_how:
            if not classroom.derivations_hidden():
                how_it_is_computed(
                    ds, row, one, settings, log_tex, tie_text, base_text, base_choice
                )
    if tab_ties.open:
        with tab_ties:
            st.subheader("What tied scores do")
            if not classroom.derivations_hidden():
                comparison = model.tie_comparison(ds, settings, row, table, one.gains)
                parts.tie_section(ds, row, comparison)
    if tab_every.open:
        with tab_every:
            title = f"Model {model_name}: {k_text}, {tie_text}"
            tables.per_sample(ds, table, head, settings, title)


def how_it_is_computed(ds, row, one, settings, log_tex, tie_text, base_text, base_choice) -> None:
    """The selected sample's DCG written out term by term, its three numbers and its
    step tables."""
    st.subheader("How it is computed")
    bar_g = r"\bar g_r" if not settings.ignore_ties else "g_r"
    k_sum = r"\min(k, M)" if settings.k is not None else "M"
    st.latex(
        rf"\begin{{aligned}}\mathrm{{DCG}} &= \sum_{{r=1}}^{{{k_sum}}} "
        rf"\frac{{{bar_g}}}{{{log_tex}(1 + r)}} \\ &= {parts.term_tex(one.steps, log_tex)} \\ "
        rf"&= {fmt(one.dcg)}\end{{aligned}}"
    )
    st.caption(
        (
            "g̅_r is the mean gain of the tie group at position r. "
            if not settings.ignore_ties
            else ""
        )
        + f"M = {ds.n_labels} items; terms with zero gain are left out."
    )
    m1, m2, m3 = st.columns(3)
    m1.metric("DCG of this sample", fmt(one.dcg))
    m2.metric("Ideal DCG of this sample", fmt(one.ideal_dcg))
    m3.metric("NDCG of this sample", fmt(one.ndcg))
    parts.step_tables(
        ds, row, one, settings, tie_text=tie_text, base_text=base_text, base_2=base_choice == "2"
    )
