"""The DCG & NDCG page's headline (views/dcg/panel.py): the two means, each written out
with its per-sample terms, and, after the "Open" button of one of scikit-learn's
dcg_score examples, the opened row's own DCG first."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from explorer.derivation import mean_terms
from explorer.formatting import fmt, literal, model_words
from explorer.pages import dcg, dcg_examples
from explorer.ui import cache, classroom, url
from explorer.ui.language import t
from views import prose

#: The anchor of the per-sample table, worst first (linked from the headline).
TABLE_ANCHOR = "dcg_worst_first"  # underscores: an id, not words to translate
#: Session key: the scikit-learn example whose "Open" button was pressed last.
FOCUS = "dcg_focus"
#: Session key: set by an "Open" button, so the next run scrolls its result into view
#: (the box sits above the headline, a screen or more above the buttons).
SCROLL = "dcg_scroll_to_focus"
#: Brings the opened example's box to the top of the window, once the browser drew it.
_SCROLL_JS = """<script>
requestAnimationFrame(() => document.querySelector('.st-key-dcg_focus_box')
  ?.scrollIntoView({block: 'start'}));
</script>"""


def focused_example(ds, settings: dcg.Settings, row: int, base_2: bool):
    """The scikit-learn example on screen (its button pressed, its settings unchanged), or None.

    The focus travels in the link (``?focus=2`` after "Open 7.5"); a change of the
    row, k, the ties, the base or the gain ends it, and drops it from the link.
    """
    choices = (None, *range(len(dcg_examples.SEED_EXAMPLES)))
    index = url.bind_param(FOCUS, "focus", None, int, url.member(choices))
    if index is not None and ds.name == dcg_examples.SEED:
        printed, ex_row, ex_k, ex_ties = dcg_examples.SEED_EXAMPLES[index]
        same = (row, settings.k, settings.ignore_ties) == (ex_row, ex_k, ex_ties)
        if same and base_2 and not settings.exponential:
            # not a widget: the pressed button's example, kept while its settings are
            url.write_param("focus", index)
            return printed, ex_row
    st.session_state[FOCUS] = None
    st.query_params.pop("focus", None)
    return None


def headline(ds, table, head, controls, *, row: int) -> None:
    """The opened example's row (when one is), the mean DCG and NDCG and their derivations;
    ``controls``: :class:`views.dcg.controls.Controls`, ``row`` the selected sample."""
    settings = controls.settings
    _focus_box(ds, table, head, settings, focused_example(ds, settings, row, controls.base_2))
    weighted = ds.sample_weight is not None
    c1, c2, c3 = st.columns([1, 1, 3])
    ci = classroom.intervals(cache.dcg.intervals, ds, settings)
    classroom.headline(
        c1,
        "DCG",
        fmt(head.dcg),
        interval=ci.get("DCG"),
        help=t("Mean DCG over the samples (weighted when the dataset has sample weights)."),
    )
    classroom.headline(
        c2,
        "NDCG",
        fmt(head.ndcg),
        interval=ci.get("NDCG"),
        help=t("Mean NDCG over the samples; it does not depend on b."),
    )
    c3.markdown(_line(ds, controls) + (t(" · weighted by sample_weight") if weighted else ""))
    classroom.reveal_button()
    with st.container(key="dcg_derivation"):
        if not classroom.derivations_hidden():
            for name, value in (("DCG", head.dcg), ("NDCG", head.ndcg)):
                d = mean_terms(table[name], ds.sample_weight, name=name)
                st.markdown(t(replace(d, value=value).text()))
    st.caption(
        prose.fill(
            "dcg",
            "derivation",
            mean=t("weighted mean (weight × value)" if weighted else "mean"),
            rest=t(
                "a sample with no relevant item counts as NDCG ${score}",
                score=t("1 (LightGBM).") if settings.empty_scores_one else t("0."),
            )
            if head.no_relevant
            else t("the sample opened below is the worst one unless you pick another."),
            anchor=TABLE_ANCHOR,
        )
    )
    if settings.exponential:
        c3.caption(
            prose.section("dcg", "exponential-gain")
            + (t(" With 0/1 labels the two gains are the same.") if ds.kind == "multilabel" else "")
        )


def _line(ds, controls) -> str:
    """What the means are of: the samples, the model and the settings."""
    return t(
        "Mean over **${n}** samples of ${model} · ${k} · log base ${base} · ${ties} · gain ${gain}",
        n=ds.n_samples,
        model=_model_words(controls.settings.model),
        k=controls.k_text,
        base=controls.base_text,
        ties=controls.tie_text,
        gain=t(controls.gain),
    )


def _model_words(name: str) -> str:
    """:func:`explorer.formatting.model_words` in the page's language."""
    words = model_words(name)
    return t(words) if words == "the model" else t("model **${name}**", name=literal(name))


def _focus_box(ds, table, head, settings: dcg.Settings, focus) -> None:
    """The opened example's row and why, above the means (none when ``focus`` is None)."""
    if focus is not None:
        printed, ex_row = focus
        value = float(table["DCG"].iloc[ex_row])
        with st.container(border=True, key="dcg_focus_box"):
            f1, f2 = st.columns([1, 3])
            classroom.headline(
                f1,
                t("DCG of row ${row}", row=ex_row),
                fmt(value),
                help=t("The row the example is about."),
            )
            k_text = t("all") if settings.k is None else settings.k
            if not classroom.derivations_hidden(f2):
                f2.markdown(
                    prose.fill(
                        "dcg",
                        "focus",
                        printed=printed,
                        row=ex_row,
                        k=k_text,
                        ties=", ignore_ties=True" if settings.ignore_ties else "",
                        value=fmt(value),
                        mean=fmt(head.dcg),
                        n=ds.n_samples,
                    )
                )
            if st.session_state.pop(SCROLL, False):
                st.html(_SCROLL_JS, unsafe_allow_javascript=True)
