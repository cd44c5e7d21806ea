"""Every control of the Slices page, each bound to the address: the model, the metric,
the attribute (and a second one), each numeric attribute's cut points, the threshold,
the group whose value is derived and, for binary data, that group's own threshold."""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st

from explorer import slicing
from explorer.datasets import Dataset
from explorer.formatting import literal
from explorer.links import float_text
from explorer.pages import slices
from explorer.pages._parse import finite_float
from explorer.ui import bound, language, url
from explorer.ui.language import t

NONE = "(none)"


def _default_cuts(ds: Dataset, attribute: str) -> str:
    """The cut points a numeric attribute is cut at by default ("" for grouping by value)."""
    values = ds.attribute(attribute)
    if values.dtype != np.float64:
        return ""
    if np.unique(values[~np.isnan(values)]).size <= slicing.DISCRETE_MAX:
        return ""
    return slicing.cuts_text(slicing.quantile_cuts(values))


def _cuts(where, ds: Dataset, attribute: str, key: str, param: str):
    """The cut points box of a numeric attribute (None: group by value, or a text one)."""
    if ds.attribute(attribute).dtype != np.float64:
        return None
    owner, ss = f"{key}_of", st.session_state
    if ss.get(owner, attribute) != attribute:  # another attribute: its own default cuts
        url.seed_widget(key, _default_cuts(ds, attribute))
    ss[owner] = attribute
    text = bound.text(
        where,
        t("Cut points of ${attribute}", attribute=attribute),
        key=key,
        param=param,
        default=_default_cuts(ds, attribute),
        help=t(
            "Comma-separated, increasing: each bin is [a, b), the last one closed. Empty: "
            "one group per value (up to 10 values), else quartiles."
        ),
    )
    try:
        return slicing.parse_cuts(text) or None
    except slicing.GroupingError as exc:
        where.error(t("${why} The default bins are used.", why=literal(t(exc.args[0]))))
        return None


def _defaults_left_out(chosen: dict, defaults: dict) -> None:
    """Drop from the link each setting at its default (and the second attribute's cut
    points when there is none): a link opened fresh takes the defaults anyway, and a
    short link says what was chosen."""
    for param, default in defaults.items():
        if chosen.get(param, default) == default:
            st.query_params.pop(param, None)


def show(ds: Dataset) -> slices.Settings:
    """The controls in two rows; returns the page model's settings."""
    c1, c2, c3, c4 = st.columns(4)
    model = bound.selectbox(c1, t("Model"), ds.model_names, key="sl_model", param="model")
    labels = slices.metric_labels(ds.kind)
    metric = bound.selectbox(
        c2,
        t("Metric"),
        labels,
        key="sl_metric",
        param="metric",
        format_func=language.options(str),
    )
    names = ds.attribute_names
    by = bound.selectbox(c3, t("Group by"), names, key="sl_by", param="by")
    others = (NONE, *(a for a in names if a != by))
    # "(none)" is a word of the page (translated now: AppTest formats after the run); the
    # attributes are the data's own names
    none = t(NONE)
    by2 = bound.selectbox(
        c4,
        t("and by"),
        others,
        key="sl_by2",
        param="by2",
        default=NONE,
        format_func=lambda a: none if a == NONE else a,
    )
    d1, d2, d3 = st.columns(3)
    cuts = [_cuts(d1, ds, by, "sl_cuts", "cuts")]
    chosen = (by,)
    if by2 != NONE:
        chosen = (by, by2)
        cuts.append(_cuts(d2, ds, by2, "sl_cuts2", "cuts2"))
    threshold = 0.5
    if ds.kind == "binary":
        threshold = bound.number(
            d3,
            t("Threshold"),
            key="sl_t",
            param="t",
            default=0.5,
            parse=finite_float,
            check=url.float_in(-1e12, 1e12, clamp=True),
            to_url=float_text,
            step=0.05,
            format="%.4g",
            help=t(
                "A score at or above it predicts positive: the rates per group, and the "
                "metrics 'at the threshold'."
            ),
        )
    shown = {"model": model, "metric": metric, "by": by, "by2": by2, "t": threshold}
    defaults = {"model": ds.model_names[0], "metric": labels[0], "by": names[0], "by2": NONE}
    defaults.update(t=0.5, cuts=None, cuts2=None)  # no box drawn: no cut points in the link
    for param, key, attribute in (("cuts", "sl_cuts", by), ("cuts2", "sl_cuts2", by2)):
        if attribute in names and ds.attribute(attribute).dtype == np.float64:
            shown[param], defaults[param] = st.session_state[key], _default_cuts(ds, attribute)
    _defaults_left_out(shown, defaults)
    return slices.Settings(model, metric, chosen, tuple(cuts), float(threshold))


#: Session key of the groups' own thresholds: label -> threshold (from ``?gt=`` once).
GROUP_THRESHOLDS = "sl_gts"


def _record(group: str) -> None:
    """The group threshold box moved: keep its value as ``group``'s threshold."""
    st.session_state[GROUP_THRESHOLDS][group] = float(st.session_state["sl_gt"])


def per_group(ds: Dataset, settings: slices.Settings, labels: tuple[str, ...]):
    """The group picker and, for binary data, that group's own threshold (default: the
    page's). Returns the picked group and the settings with every group's threshold
    (``?gt=label:t;...``: only those off the page's threshold)."""
    c1, c2, _ = st.columns(3)
    group = bound.selectbox(c1, t("Group"), labels, key="sl_group", param="group")
    _defaults_left_out({"group": group}, {"group": labels[0]})
    if ds.kind != "binary":
        return group, settings
    ss = st.session_state
    if GROUP_THRESHOLDS not in ss:
        ss[GROUP_THRESHOLDS] = slices.parse_group_thresholds(st.query_params.get("gt", ""), labels)
    own = {g: t for g, t in ss[GROUP_THRESHOLDS].items() if g in labels}
    shown = own.get(group, settings.threshold)
    if ss.get("sl_gt") != shown:  # another group picked, or the page's threshold moved
        url.seed_widget("sl_gt", shown)
    c2.number_input(
        t("Threshold of ${group}", group=literal(group)),
        key="sl_gt",
        on_change=_record,
        args=(group,),
        min_value=-1e12,
        max_value=1e12,
        step=0.05,
        format="%.4g",
        help=t(
            "This group's own threshold: its rates, and its metrics 'at the threshold'. "
            "Each group starts at the page's threshold."
        ),
    )
    pairs = tuple((g, t) for g, t in own.items() if t != settings.threshold)
    if pairs:
        url.write_param("gt", slices.group_thresholds_text(pairs))
    else:
        st.query_params.pop("gt", None)
    return group, dataclasses.replace(settings, group_thresholds=pairs)
