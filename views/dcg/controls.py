"""The DCG & NDCG page's controls, each bound to the address: k, the log base, ties,
the gain and the model (:func:`show`), and the sample picker (:func:`sample`)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from explorer.formatting import fmt
from explorer.pages import dcg
from explorer.ui import bound, classroom, language, url
from explorer.ui.language import t
from views import prose

#: Above this many samples the sample picker is a row-number box.
PICKER_MAX = 1000

BASE_TEX = {"2": r"\log_{2}", "e": r"\ln", "10": r"\log_{10}"}


@dataclass(frozen=True)
class Controls:
    """What the page's controls choose: the page model's settings, and how the view
    names the base and the gain (``base_choice`` is one of :data:`explorer.pages.dcg.BASES`,
    ``base_text`` the base as the link writes it, ``gain`` the gain's label)."""

    settings: dcg.Settings
    base_choice: str
    base_text: str
    gain: str
    n_items: int

    @property
    def base_2(self) -> bool:
        return self.base_choice == "2"

    @property
    def log_tex(self) -> str:
        """The logarithm of the discount in LaTeX."""
        return BASE_TEX.get(self.base_choice, rf"\log_{{{self.settings.log_base:g}}}")

    @property
    def tie_text(self) -> str:
        if self.settings.tie_rule == "column":
            return t("ties in input order (LightGBM / XGBoost)")
        if self.settings.ignore_ties:
            return t("ties ignored (higher column first)")
        return t("ties averaged")

    @property
    def k_text(self) -> str:
        k = self.settings.k
        return f"k = {k}" if k is not None else t("k = all ${n}", n=self.n_items)


def check_k(value, n_items: int):
    """None (all items) or a whole k >= 1; a k beyond the items is all of them."""
    if value is None:
        return None
    return min(url.int_in(1, 2**63, clamp=False)(value), n_items)


def _apply_preset() -> None:
    """A preset sets the gain and the tie switch to its tool's own (both stay free)."""
    gain, ties = dcg.PRESET_CONTROLS[st.session_state["dcg_preset"]]
    st.session_state["dcg_gain"], st.session_state["dcg_ignore_ties"] = gain, ties


def _preset_from_link() -> None:
    """A link's preset sets the gain and the tie switch the link leaves out."""
    try:
        preset = dcg.parse_preset(st.query_params.get("preset", ""))
    except (KeyError, ValueError):  # no preset in the link, or a malformed one
        return
    gain, ties = dcg.PRESET_CONTROLS[preset]
    url.preset_from_link(
        "dcg_preset", {"gain": ("dcg_gain", gain), "ignore_ties": ("dcg_ignore_ties", ties)}
    )


def show(ds) -> Controls:
    """k, the log base, ties, the gain, the preset and the model, on one row."""
    n_items = ds.n_labels
    _preset_from_link()
    c_k, c_base, c_ties, c_gain, c_preset, c_model = st.columns([0.9, 1, 1.1, 1.45, 1.2, 1])
    k = bound.number(
        c_k,
        t("k (cut-off)"),
        key="dcg_k",
        param="k",
        default=None,
        parse=dcg.parse_k,
        check=lambda v: check_k(v, n_items),
        to_url=lambda v: "all" if v is None else str(int(v)),
        min_value=1,
        max_value=n_items,
        step=1,
        placeholder=t("all"),
        help=t("Only the top k positions count. Leave empty for all ${n} items.", n=n_items),
    )
    base_choice, log_base, base_text = _log_base(c_base)
    ignore_ties = bound.toggle(
        c_ties,
        t("ignore ties"),
        key="dcg_ignore_ties",
        param="ignore_ties",
        help=prose.section("dcg", "help-ties"),
    )
    gain = bound.radio(
        c_gain,
        t("gain"),
        dcg.GAINS,
        key="dcg_gain",
        param="gain",
        parse=dcg.parse_gain,
        to_url=dcg.GAIN_PARAM.__getitem__,
        format_func=language.options(),
        help=prose.section("dcg", "help-gain"),
    )
    preset = bound.selectbox(
        c_preset,
        t("preset (which tool?)"),
        dcg.PRESETS,
        key="dcg_preset",
        param="preset",
        parse=dcg.parse_preset,
        to_url=dcg.PRESET_PARAM.__getitem__,
        on_change=_apply_preset,
        help=prose.section("dcg", "help-preset"),
    )
    model = bound.selectbox(c_model, t("model"), ds.model_names, key="dcg_model", param="model")
    k = None if k is None else int(k)
    settings = dcg.Settings(model, k, log_base, ignore_ties, gain == dcg.GAINS[1], preset)
    return Controls(settings, base_choice, base_text, gain, n_items)


def _log_base(where) -> tuple[str, float, str]:
    """The log base: one of :data:`explorer.pages.dcg.BASES`, and for "other" a box of
    its own; both write ``?log_base=`` (the base's name, or the free base's number).
    Returns the choice, the base and its text."""
    # seeded from the link on the first run, drawn only for "other" (as the link reads it)
    url.bind_param(
        "dcg_log_base_other", "log_base", 3.0, float, url.float_in(0.01, 1e300, clamp=False)
    )
    choice = bound.selectbox(
        where,
        t("log base"),
        dcg.BASES,
        key="dcg_log_base",
        param="log_base",
        default="2",
        parse=dcg.parse_base_choice,
        format_func=language.options(),
        help=t("The discount is 1 / log_b(1 + position). scikit-learn's default is 2."),
    )
    if choice != "other":
        return choice, dcg.BASE_VALUES[choice], choice
    other = bound.number(
        where,
        t("base b"),
        key="dcg_log_base_other",
        param="log_base",
        default=3.0,
        check=url.float_in(0.01, 1e300, clamp=False),
        min_value=0.01,
        step=0.5,
        format="%.3g",
    )
    return choice, float(other), str(other)


def sample(ds, table, worst: int) -> int:
    """The sample picker (opening on the worst sample, ``worst``); its labels carry each
    sample's NDCG unless "Predict, then reveal" hides the numbers."""
    ids, ndcg_of = ds.sample_ids, table["NDCG"].to_numpy()
    if ds.n_samples <= PICKER_MAX:
        # the labels show each sample's NDCG at the current settings: a fresh widget each
        # time they change (widgets.numbered_selectbox), the row kept in "dcg_sample";
        # "Predict, then reveal": no sample's NDCG in the labels either (for as long as the
        # mode is on: new labels are a new widget, a new view, which would hide again)
        shown = not classroom.predict_mode()

        def describe(i: int) -> str:
            return f"{ids[i]} (NDCG {fmt(ndcg_of[i])})" if shown else ids[i]
    else:  # a row-number box, this caption under it

        def describe(i: int) -> str:
            ndcg = f", NDCG {fmt(ndcg_of[i])}" if classroom.numbers_shown() else ""
            return t("Row ${i}: sample ${id}", i=i, id=ids[i]) + ndcg

    return bound.sample(
        st,
        t("sample"),
        ds.n_samples,
        describe,
        key="dcg_sample",
        param="sample",
        default=worst,
        parse=ids.index,
        to_url=ids.__getitem__,
        picker_max=PICKER_MAX,
        help=t("Opens on the worst sample; pick another, or click a row in the tab Every sample."),
    )
