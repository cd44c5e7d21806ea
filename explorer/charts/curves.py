"""Figures of the ROC & PR curves page, built from plain arrays and DataFrames: the ROC
and PR curves with the operating point and the candidate markers, and the confusion
matrix (the samples along the score axis are in :mod:`explorer.charts.curves_samples`,
the teaching tabs' figures in :mod:`explorer.charts.curves_teach`).

Every curve vertex carries its threshold twice: as ``text`` (formatted, for
the hover) and as ``customdata`` (the number, ``None`` for ``+inf``), so a
click on a point (``st.plotly_chart(on_select=...)``) can move the page's
threshold through :func:`threshold_from_selection`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import theme
from explorer.formatting import plotly_text
from explorer.i18n import Phrase, joined

#: Okabe-Ito colours for the four outcomes (colour-blind safe).
OUTCOME_COLORS = {"TP": "#009E73", "FN": "#D55E00", "FP": "#E69F00", "TN": "#0072B2"}
OUTCOME_NAMES = {
    "TP": "TP (positive, predicted positive)",
    "FN": "FN (positive, predicted negative)",
    "FP": "FP (negative, predicted positive)",
    "TN": "TN (negative, predicted negative)",
}
MODEL_COLORS = ("#0072B2", "#CC79A7", "#009E73", "#E69F00", "#56B4E9", "#D55E00")
CANDIDATE_SYMBOLS = ("diamond", "square", "triangle-up", "cross", "star")
#: The same shapes as characters, to name a marker on a button beside the chart.
CANDIDATE_GLYPHS = ("◆", "■", "▲", "✚", "★")


def _custom(thresholds) -> np.ndarray:
    """The thresholds as the curves' ``customdata``: floats, NaN for +inf.

    A float array travels to the browser as one typed array (no per-point copy or
    JSON on each rerun, as a list of objects would need); a click on the +inf
    vertex gives NaN (JSON ``null``), which moves nothing.

    Examples
    --------
    >>> _custom([np.inf, 0.8, 0.4]).tolist()
    [nan, 0.8, 0.4]
    """
    out = np.asarray(thresholds, dtype=float).copy()
    out[~np.isfinite(out)] = np.nan
    return out


def _points(event) -> list:
    """The selected points of a plotly selection state: an attribute-style
    ``PlotlyState`` (``st.plotly_chart(on_select=...)``) or a plain dict (AppTest)."""
    if event is None:
        return []
    selection = event.get("selection") if isinstance(event, Mapping) else None
    if selection is None:
        selection = getattr(event, "selection", None)
    if selection is None:
        return []
    points = selection.get("points") if isinstance(selection, Mapping) else None
    if points is None:
        points = getattr(selection, "points", None)
    return list(points or ())


def _threshold_of(point) -> float | None:
    data = point.get("customdata") if isinstance(point, Mapping) else None
    if isinstance(data, Mapping):
        data = data.get("0", next(iter(data.values()), None))
    elif isinstance(data, list | tuple):
        data = data[0] if data else None
    if data is None:
        return None
    try:
        value = float(data)
    except (TypeError, ValueError):
        return None
    return value if np.isfinite(value) else None


def threshold_from_selection(event) -> float | None:
    """The threshold of the first selected curve point, or None.

    Accepts what ``st.plotly_chart(on_select=...)`` leaves in session state
    (an attribute-style ``PlotlyState``) or a plain dict (as AppTest injects),
    and customdata given as a scalar, a list or a ``{"0": value}`` dict. NaN or
    null (the +inf vertex) is no threshold.

    Examples
    --------
    >>> threshold_from_selection({"selection": {"points": [{"customdata": 0.7}]}})
    0.7
    >>> threshold_from_selection({"selection": {"points": [{"customdata": {"0": 0.4}}]}})
    0.4
    >>> threshold_from_selection({"selection": {"points": []}}) is None
    True
    """
    return pick_from_selection(event, ())[1]


#: Most markers drawn per curve (plotly's ``marker.maxdisplayed``; 0: every one).
MAX_MARKERS = 300
#: The smallest font on the curves (axis ticks, legend, hover), in px.
FONT_PX = 12
#: The height of each curve figure in px: both fit one 1440 x 900 screen beside the
#: threshold controls and the confusion matrix.
CURVE_HEIGHT = 360


def _layout(fig: go.Figure, title: str, x: str, y: str, legend_x: float) -> go.Figure:
    fig.update_layout(
        title=dict(text=title, font=dict(size=15), y=0.98, x=0.02),
        xaxis_title=x,
        yaxis_title=y,
        height=CURVE_HEIGHT,
        font=dict(size=FONT_PX),
        margin=dict(l=50, r=10, t=30, b=40),
        # inside the plot, in the corner the curve leaves empty
        legend=dict(
            x=legend_x,
            xanchor="right" if legend_x > 0.5 else "left",
            y=0.02,
            yanchor="bottom",
            bgcolor="rgba(255,255,255,0.8)",
            font=dict(size=FONT_PX),
        ),
        hoverlabel=dict(font=dict(size=FONT_PX)),
        hovermode="closest",
        clickmode="event+select",
    )
    fig.update_xaxes(range=[-0.02, 1.02], constrain="domain")
    fig.update_yaxes(range=[-0.02, 1.02])
    return fig


def _model_trace(c: Mapping, i: int, x: str, y: str, area: str, shape: str) -> go.Scatter:
    n, model = len(c[x]), plotly_text(c["model"])
    return go.Scatter(
        x=np.asarray(c[x], dtype=float),
        y=np.asarray(c[y], dtype=float),
        mode="lines+markers",
        name=f"{model} ({area} {c[area.lower()]:.3f})",
        line=dict(color=MODEL_COLORS[i % len(MODEL_COLORS)], width=2, shape=shape),
        # past MAX_MARKERS vertices plotly draws a subset of the markers (the line keeps
        # every vertex, and a hover or click still finds each one): thousands of marker
        # nodes took the browser most of a threshold step's time
        marker=dict(size=5 if n < 300 else 4, maxdisplayed=0 if n <= MAX_MARKERS else MAX_MARKERS),
        customdata=_custom(c["thresholds"]),
        # NaN is the +inf threshold (nothing predicted positive)
        hovertemplate=Phrase(
            "${model}<br>threshold %{customdata:.4g}<br>${x} %{x:.3f}, ${y} %{y:.3f}"
            "<extra></extra>",
            model=model,
            x=x,
            y=y,
        ),
    )


def roc_base(curves: Sequence[Mapping]) -> go.Figure:
    """The ROC figure without its markers: the chance diagonal (trace 0), then one
    trace per model (trace ``1 + i`` is ``curves[i]``), as :func:`roc_figure`.

    Examples
    --------
    >>> fig = roc_base([{"model": "m", "fpr": [0, 0, 1], "tpr": [0, 1, 1],
    ...                  "thresholds": [np.inf, 0.8, 0.2], "auc": 1.0}])
    >>> [tr.name for tr in fig.data], fig.data[1].customdata.tolist()
    (['chance (random scores)', 'm (AUC 1.000)'], [nan, 0.8, 0.2])
    """
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            name="chance (random scores)",
            line=dict(dash="dash", color="#999"),
            hoverinfo="skip",
        )
    )
    for i, c in enumerate(curves):
        fig.add_trace(_model_trace(c, i, "fpr", "tpr", "AUC", "linear"))
    return _layout(fig, "ROC curve", "False positive rate (FPR)", "True positive rate (TPR)", 0.98)


def pr_base(curves: Sequence[Mapping], prevalence: float) -> go.Figure:
    """The precision-recall figure without its markers: the prevalence line (trace
    0), then one trace per model, drawn as steps.

    The points are taken as :func:`metrics.precision_recall_curve` returns them
    (recall falling) and joined as matplotlib's ``drawstyle="steps-post"`` joins them,
    which is how scikit-learn's ``PrecisionRecallDisplay`` draws the curve: from each
    point, along its recall at its precision to the next point's recall, then up or
    down to the next precision (plotly's line shape ``"hv"``). The area under these
    steps is the average precision, a step sum.

    Examples
    --------
    >>> fig = pr_base([{"model": "m", "recall": [1, 0.5, 0], "precision": [0.5, 1, 1],
    ...                 "thresholds": [0.2, 0.8, np.inf], "ap": 1.0}], 0.5)
    >>> fig.data[1].line.shape, fig.data[0].y
    ('hv', (0.5, 0.5))
    """
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1],
            y=[prevalence, prevalence],
            mode="lines",
            name=Phrase("chance (prevalence ${p:.3f})", p=prevalence),
            line=dict(dash="dash", color="#999"),
            hoverinfo="skip",
        )
    )
    for i, c in enumerate(curves):
        fig.add_trace(_model_trace(c, i, "recall", "precision", "AP", "hv"))
    return _layout(fig, "Precision-recall curve", "Recall", "Precision", 0.02)


def candidate_marks(candidates: pd.DataFrame | None) -> list[dict]:
    """The candidate markers: one per distinct threshold found, in the order of
    ``candidates`` (the goals at one threshold share it, named after all of them).

    Returns a list of dicts ``label``, ``threshold``, ``symbol`` (plotly's marker
    symbol) and ``glyph`` (the same shape as a character, for the buttons that name
    the markers beside the chart). A goal no threshold meets (NaN) has no marker.

    Examples
    --------
    >>> table = pd.DataFrame({"label": ["a", "b", "c"], "threshold": [0.8, 0.8, 0.3]})
    >>> [(m["label"], m["threshold"], m["glyph"]) for m in candidate_marks(table)]
    [('a / b', 0.8, '◆'), ('c', 0.3, '■')]
    """
    if candidates is None or candidates.empty:
        return []
    labels: dict[float, list[str]] = {}  # by threshold, in order of first appearance
    for label, threshold in zip(candidates["label"], candidates["threshold"], strict=True):
        if not np.isnan(threshold):
            labels.setdefault(float(threshold), []).append(label)
    return [
        {
            "label": joined(map(Phrase, names), " / "),  # each goal's name translated
            "threshold": threshold,
            "symbol": CANDIDATE_SYMBOLS[i % len(CANDIDATE_SYMBOLS)],
            "glyph": CANDIDATE_GLYPHS[i % len(CANDIDATE_GLYPHS)],
        }
        for i, (threshold, names) in enumerate(labels.items())
    ]


def _candidate_traces(candidates: pd.DataFrame | None, x: str, y: str) -> list[dict]:
    # no text on the chart: the buttons beside it name each marker by its glyph (text
    # labels of close candidates overlapped each other and hid their markers)
    traces = []
    if candidates is None:
        return traces
    thresholds = candidates["threshold"].to_numpy(dtype=float)
    at = {t: i for i, t in reversed(list(enumerate(thresholds)))}  # its first row
    for mark in candidate_marks(candidates):
        threshold = mark["threshold"]
        row = candidates.iloc[at[threshold]]
        finite = bool(np.isfinite(threshold))
        shown = f"{threshold:.4g}" if finite else "+inf"
        traces.append(
            dict(
                type="scatter",
                x=[float(row[x])],
                y=[float(row[y])],
                mode="markers",
                name=Phrase("${label} (t = ${t})", label=mark["label"], t=shown),
                showlegend=False,
                marker=dict(
                    size=13,
                    symbol=mark["symbol"],
                    color="white",
                    line=dict(width=2, color="#333"),
                ),
                customdata=[float(threshold) if finite else None],
                hovertemplate=Phrase(
                    "${label}<br>threshold ${t}${none}<br>${x} %{x:.3f}, ${y} %{y:.3f}"
                    "<extra></extra>",
                    label=mark["label"],
                    t=shown,
                    none="" if finite else Phrase(" (nothing predicted positive)"),
                    x=x,
                    y=y,
                ),
            )
        )
    return traces


def with_points(
    base: go.Figure,
    x: str,
    y: str,
    operating: Mapping | None = None,
    candidates: pd.DataFrame | None = None,
) -> go.Figure:
    """A copy of ``base`` (:func:`roc_base`, :func:`pr_base`) with the candidate
    markers and the operating point on top, as light traces after the curves; the
    cached ``base`` is never changed.

    The copy is not validated again (plotly's validation of a figure of thousands of
    vertices took 0.2-0.5 s on each threshold step): ``base`` was validated when it was
    built, and the added traces are plain scatter traces.

    Parameters
    ----------
    base : Figure
    x, y : str
        The columns of ``candidates`` and keys of ``operating`` on the axes.
    operating : mapping, optional
        ``x``, ``y`` and ``threshold`` of the operating point (selected model).
    candidates : DataFrame, optional
        Columns ``label, threshold``, ``x`` and ``y``: one marker per threshold.

    Examples
    --------
    >>> base = roc_base([{"model": "m", "fpr": [0, 0, 1], "tpr": [0, 1, 1],
    ...                   "thresholds": [np.inf, 0.8, 0.2], "auc": 1.0}])
    >>> fig = with_points(base, "fpr", "tpr", {"fpr": 0.0, "tpr": 1.0, "threshold": 0.8})
    >>> [tr.name for tr in fig.data][-1], len(base.data)
    ('operating point (t = 0.8)', 2)
    """
    spec = base.to_dict()
    spec["data"] += _candidate_traces(candidates, x, y)
    if operating is not None:
        spec["data"].append(
            dict(
                type="scatter",
                x=[float(operating[x])],
                y=[float(operating[y])],
                mode="markers",
                name=Phrase("operating point (t = ${t:.4g})", t=operating["threshold"]),
                marker=dict(size=15, color="#D55E00", line=dict(width=2, color="black")),
                customdata=[float(operating["threshold"])],
                hovertemplate=Phrase(
                    "operating point<br>threshold %{customdata:.4g}<br>${x} %{x:.3f}, "
                    "${y} %{y:.3f}<extra></extra>",
                    x=x,
                    y=y,
                ),
            )
        )
    return go.Figure(spec, _validate=False)


def roc_figure(
    curves: Sequence[Mapping],
    operating: Mapping | None = None,
    candidates: pd.DataFrame | None = None,
) -> go.Figure:
    """ROC curves, one trace per model, with the chance diagonal and markers.

    Parameters
    ----------
    curves : sequence of mappings
        Each with ``model``, ``fpr``, ``tpr``, ``thresholds`` (the vertices to
        draw, thresholds may include ``+inf``) and ``auc``.
    operating : mapping, optional
        ``fpr``, ``tpr``, ``threshold`` of the operating point (selected model).
    candidates : DataFrame, optional
        Columns ``label, threshold, fpr, tpr``: one marker each.
    """
    return with_points(roc_base(curves), "fpr", "tpr", operating, candidates)


def pr_figure(
    curves: Sequence[Mapping],
    prevalence: float,
    operating: Mapping | None = None,
    candidates: pd.DataFrame | None = None,
) -> go.Figure:
    """Precision-recall curves, one per model, drawn as steps (:func:`pr_base`), with
    the prevalence (chance) line.

    Parameters
    ----------
    curves : sequence of mappings
        Each with ``model``, ``recall``, ``precision``, ``thresholds`` (one per
        point; the closing (recall 0, precision 1) point has ``+inf``) and ``ap``.
    prevalence : float
        The (weighted) fraction of positives: a random ranking's precision.
    operating, candidates : as in :func:`roc_figure`, with ``recall`` and
        ``precision`` instead of ``fpr`` and ``tpr``.
    """
    return with_points(pr_base(curves, prevalence), "recall", "precision", operating, candidates)


def pick_from_selection(event, models: Sequence[str]) -> tuple[str | None, float | None]:
    """The model and threshold of the first selected point of :func:`roc_figure` or
    :func:`pr_figure`: the model of the curve clicked (trace ``1 + i`` is
    ``models[i]``), None for a marker (candidate, operating point) of the selected
    model; the threshold as :func:`threshold_from_selection` reads it.

    Examples
    --------
    >>> pick = {"selection": {"points": [{"curve_number": 2, "customdata": 0.4}]}}
    >>> pick_from_selection(pick, ["good", "weak"])
    ('weak', 0.4)
    >>> pick_from_selection({"selection": {"points": [{"curve_number": 4, "customdata": 0.7}]}},
    ...                     ["good", "weak"])
    (None, 0.7)
    """
    for point in _points(event):
        threshold = _threshold_of(point)
        if threshold is None:
            continue
        number = point.get("curve_number") if isinstance(point, Mapping) else None
        if isinstance(number, int) and 1 <= number <= len(models):
            return models[number - 1], threshold
        return None, threshold
    return None, None


def confusion_figure(counts: np.ndarray, rates: np.ndarray, normalize: str) -> go.Figure:
    """The 2 x 2 confusion matrix, rows = actual (1 then 0), columns = predicted.

    Parameters
    ----------
    counts : array of shape (2, 2)
        ``[[TP, FN], [FP, TN]]`` (actual positive row first).
    rates : array of shape (2, 2)
        The same cells normalized (over the true row, the predicted column or all).
    normalize : str
        What ``rates`` divide by, for the colour bar title.
    """
    counts = np.asarray(counts, dtype=float)
    rates = np.asarray(rates, dtype=float)
    names = [["TP", "FN"], ["FP", "TN"]]
    text = [
        [f"<b>{names[i][j]}</b><br>{counts[i, j]:g}<br>{rates[i, j]:.1%}" for j in range(2)]
        for i in range(2)
    ]
    fig = go.Figure(
        go.Heatmap(
            z=rates,
            x=["predicted 1", "predicted 0"],
            y=["actual 1", "actual 0"],
            text=text,
            texttemplate="%{text}",
            textfont=dict(size=18, color=theme.CELL_TEXT),
            colorscale=theme.CONFUSION_SCALE,
            zmin=0,
            zmax=1,
            colorbar=dict(title=Phrase("rate<br>(${norm})", norm=normalize)),
            hovertemplate="%{text}<extra></extra>",
        )
    )
    # One nearly invisible square marker per cell, so a click selects the cell
    # (st.plotly_chart selection events report scatter points, not heatmap cells).
    cells = [("TP", 0, 0), ("FN", 0, 1), ("FP", 1, 0), ("TN", 1, 1)]
    fig.add_trace(
        go.Scatter(
            x=[["predicted 1", "predicted 0"][j] for _, _, j in cells],
            y=[["actual 1", "actual 0"][i] for _, i, _ in cells],
            customdata=[name for name, _, _ in cells],
            mode="markers",
            marker=dict(symbol="square", size=90, color="rgba(0,0,0,0.01)"),
            hovertemplate="click to list the %{customdata} samples<extra></extra>",
            showlegend=False,
            name="cells",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=330, margin=dict(l=10, r=10, t=30, b=10), clickmode="event+select")
    return fig


def cell_from_selection(event) -> str | None:
    """The confusion-matrix cell ("TP", "FN", "FP" or "TN") a click selected, or None.

    Accepts the attribute-style selection state of ``st.plotly_chart`` or a
    plain dict.

    Examples
    --------
    >>> cell_from_selection({"selection": {"points": [{"customdata": "FP"}]}})
    'FP'
    >>> cell_from_selection({"selection": {"points": [{"customdata": {"0": "TN"}}]}})
    'TN'
    >>> cell_from_selection({"selection": {"points": [{"customdata": 0.5}]}}) is None
    True
    """
    for point in _points(event):
        data = point.get("customdata") if isinstance(point, Mapping) else None
        if isinstance(data, Mapping):
            data = next(iter(data.values()), None)
        elif isinstance(data, list | tuple):
            data = data[0] if data else None
        if data in ("TP", "FN", "FP", "TN"):
            return data
    return None
