"""The controls of the Multilabel classification page: the model, the prediction rule,
the threshold (or the per-label thresholds, or k), beta and zero_division, each bound
to the address (``?model=``, ``rule``, ``t``, ``lt``, ``k``, ``beta``, ``zd``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from explorer.links import float_text
from explorer.pages import multilabel
from explorer.pages._parse import finite_float
from explorer.ui import bound, language, url
from explorer.ui.language import t
from views import prose

RULES = {
    "threshold": "one global threshold",
    "per_label": "a threshold per label",
    "top_k": "the top k labels of each sample",
}
ZERO_DIVISION = {
    "warn": '"warn" (gives 0, scikit-learn\'s default)',
    "0": "0",
    "1": "1",
    "nan": "NaN (left out of the averages)",
}


@dataclass(frozen=True)
class Settings:
    """What the controls chose: the model, how its scores become label sets, beta and
    the zero_division choice (a key of :data:`ZERO_DIVISION`)."""

    model: str
    rule: str
    threshold: float
    thresholds: tuple[float, ...]  # one per label, for the rule "per_label" only
    top_k: int
    beta: float
    zd_key: str

    @property
    def setting(self) -> tuple:
        """The prediction's arguments after ``ds`` (:func:`explorer.pages.multilabel.setting`:
        what the rule does not use blanked), as the cache takes them."""
        return multilabel.setting(
            self.model, self.rule, self.threshold, self.thresholds, self.top_k
        )

    @property
    def rule_text(self) -> str:
        """When a label is predicted, in words."""
        if self.rule == "threshold":
            return t("score >= ${threshold}", threshold=f"{self.threshold:.2f}")
        if self.rule == "per_label":
            return t("score >= the label's own threshold")
        return t("the top ${k} scores of each sample", k=self.top_k)


def show(ds) -> Settings:
    """Draw every control of the page and return what they chose."""
    models = list(ds.model_names)
    c_model, c_rule = st.columns([1, 2])
    model = bound.selectbox(
        c_model,
        t("Model"),
        models,
        key="ml_model",
        param="model",
        help=t("The dataset's score matrices, one per model."),
    )
    rule = bound.radio(
        c_rule,
        t("Prediction rule"),
        list(RULES),
        key="ml_pred_rule",
        param="rule",
        format_func=language.options(RULES),
        horizontal=True,
        help=t("How scores become a predicted label set."),
    )
    lo, hi = multilabel.threshold_range(ds.score(model))
    threshold = _threshold(lo, hi, disabled=rule != "threshold")
    thresholds = _label_thresholds(ds, threshold, lo, hi) if rule == "per_label" else ()
    top_k = _top_k(ds, drawn=rule == "top_k")
    c_beta, c_zd = st.columns([1, 2])
    beta = bound.number(
        c_beta,
        t("beta (F-beta)"),
        key="ml_beta",
        param="beta",
        default=1.0,
        check=url.float_in(0.0, 10.0),
        parse=finite_float,
        to_url=float_text,
        min_value=0.0,
        max_value=10.0,
        step=0.5,
        help=t("beta > 1 favours recall, beta < 1 precision; beta = 1 is F1."),
    )
    zd_key = bound.radio(
        c_zd,
        t("zero_division: the value of a 0/0"),
        list(ZERO_DIVISION),
        key="ml_zero_division",
        param="zd",
        format_func=language.options(ZERO_DIVISION),
        horizontal=True,
        help=t(
            "Precision of a label that is never predicted is 0/0, recall of a label that never "
            "occurs is 0/0; the same for a sample with no predicted or no true label."
        ),
    )
    return Settings(model, rule, threshold, thresholds, top_k, float(beta), zd_key)


def _threshold(lo: float, hi: float, *, disabled: bool) -> float:
    """The global threshold's slider, over the range ``lo``, ``hi`` of the model's scores."""
    return bound.slider(
        st,
        t("Threshold"),
        key="ml_threshold",
        param="t",
        default=0.5,
        check=url.float_in(lo, hi),
        parse=finite_float,
        to_url=lambda t: float_text(t, ".2f"),
        min_value=lo,
        max_value=hi,
        step=0.01,
        help=t(
            "A label is predicted when its score is >= the threshold. Used by the rule "
            "'one global threshold' and as the starting value of the per-label thresholds."
        ),
        disabled=disabled,
    )


def _label_thresholds(ds, threshold: float, lo: float, hi: float) -> tuple[float, ...]:
    """The per-label thresholds' editor, started from the address's ``?lt=``."""
    base = multilabel.threshold_list(st.query_params.get("lt"), ds.n_labels, threshold)
    st.caption(prose.section("multilabel", "per_label_thresholds"))
    cols = multilabel.label_columns(ds)
    edited = st.data_editor(
        # a column of padding only (ragged rows) is no label: its threshold stays
        pd.DataFrame(
            {"label": [ds.label_names[j] for j in cols], "threshold": [base[j] for j in cols]},
            index=cols,
        ),
        key="ml_label_thresholds",
        hide_index=True,
        disabled=["label"],
        column_config={
            "label": st.column_config.TextColumn(t("label")),
            "threshold": st.column_config.NumberColumn(
                t("threshold"), min_value=lo, max_value=hi, step=0.01, format="%.2f"
            ),
        },
    )
    # an emptied cell (or a row gone) keeps its label's threshold of the address:
    # the link holds every threshold used, so it shows the same numbers
    typed = edited["threshold"].reindex(range(ds.n_labels)).astype(float).to_numpy()
    thresholds = tuple(float(x) if np.isfinite(x) else b for x, b in zip(typed, base, strict=True))
    if not np.isfinite(typed).all():
        st.caption(t("An empty threshold keeps its label's previous value."))
    # not a widget's value but the editor's result, which the next run starts from
    url.write_param("lt", ",".join(float_text(x) for x in thresholds))
    return thresholds


def _top_k(ds, *, drawn: bool) -> int:
    """k of the rule "top k": its box when ``drawn``, else the value it keeps (from the
    session or the address) for when the rule comes back."""
    if not drawn:
        return int(url.bind_param("ml_top_k", "k", 1, int, url.int_in(1, ds.n_labels)))
    return int(
        bound.number(
            st,
            t("k (labels predicted per sample)"),
            key="ml_top_k",
            param="k",
            default=1,
            check=url.int_in(1, ds.n_labels),
            parse=int,
            to_url=lambda k: str(int(k)),
            min_value=1,
            max_value=ds.n_labels,
            step=1,
            help=t(
                "Every sample gets exactly k predicted labels, the k highest scores "
                "(ties: lower column first)."
            ),
        )
    )
