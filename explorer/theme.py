"""How the app looks: the colour-blind-safe palette, the plotly template, text sizes
and colours, and the page CSS of the normal and the presentation mode.

Every colour a chart draws with comes from here, so a student with a colour
vision deficiency tells every line apart (the Okabe-Ito palette), and every text
and chart label reaches the WCAG AA contrast of 4.5:1 on the white page
(:func:`contrast_ratio` checks it; ``tests/explorer/test_theme.py`` holds every
text colour to it, and ``tests/e2e/test_presentation.py`` measures the browser).

Streamlit draws plotly figures with its own theme, which overrides a template's
fonts and axis colours (not its colour way); so the template carries the colour
way, and :func:`page_css` sets the axis text colours and, in presentation mode,
the chart text sizes. Nothing here imports streamlit: ``app.py`` injects the CSS.

Examples
--------
>>> round(contrast_ratio(CAPTION_TEXT, BACKGROUND), 1) >= 4.5
True
>>> COLORWAY[:3]
('#0072B2', '#D55E00', '#009E73')
"""

from __future__ import annotations

import math
import textwrap

import plotly.graph_objects as go
import plotly.io as pio

__all__ = [
    "BACKGROUND",
    "BODY_TEXT",
    "CAPTION_TEXT",
    "CHART_TEXT",
    "COLORWAY",
    "MISSING",
    "OKABE_ITO",
    "OUTCOME_COLORS",
    "TEMPLATE_NAME",
    "contrast_ratio",
    "label_line_ends",
    "page_css",
    "relative_luminance",
    "use_template",
    "wrap_titles",
]

#: The Okabe-Ito palette (Okabe and Ito, "Color Universal Design", 2008): eight
#: colours told apart with every common colour vision deficiency.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}
#: The order lines take them in: strong, far-apart colours first; yellow, too
#: light for a thin line on white, last.
COLORWAY = tuple(
    OKABE_ITO[name]
    for name in (
        "blue",
        "vermillion",
        "bluish green",
        "reddish purple",
        "orange",
        "sky blue",
        "black",
        "yellow",
    )
)
#: Confusion-matrix outcomes (every page that colours TP / FN / FP / TN).
OUTCOME_COLORS = {
    "TP": OKABE_ITO["bluish green"],
    "FN": OKABE_ITO["vermillion"],
    "FP": OKABE_ITO["orange"],
    "TN": OKABE_ITO["blue"],
}

#: The confusion matrix's scale, white to Okabe-Ito sky blue: light enough that
#: :data:`CELL_TEXT` reads on every cell (plotly's own white text on a mid blue or
#: on bluish green measured 3.4:1).
CONFUSION_SCALE = [[0.0, "#ffffff"], [1.0, OKABE_ITO["sky blue"]]]
#: Text inside heatmap cells (the confusion matrix, the multilabel outcome grid):
#: black is 5.5:1 or better on white, sky blue and every outcome colour.
CELL_TEXT = "#000000"

#: The page background (Streamlit's light theme).
BACKGROUND = "#ffffff"
#: Body text (Streamlit's light theme text colour, 13.7:1 on white).
BODY_TEXT = "#2f2d2b"
#: Captions, the "how it is computed" notes (7.7:1 on white; Streamlit draws them
#: in the body colour at opacity 0.6, which measured 3.9:1).
CAPTION_TEXT = "#55534f"
#: Chart tick labels, axis titles and legends (12.5:1; Streamlit's chart grey,
#: #808495, is 3.7:1).
CHART_TEXT = "#31333f"
#: Plotly's own font stack, then the Chinese font the app serves (static/, for the
#: Chinese ranges only): a chart drawn without Streamlit's theme draws Chinese on a
#: machine with no Chinese font of its own, its other text as before.
CHART_FONT = '"Open Sans", verdana, arial, "Noto Sans SC", sans-serif'
#: What an empty table cell shows (an undefined value, a bin with no samples).
MISSING = "—"
#: The keyboard focus ring where Streamlit draws none: Okabe-Ito blue, 5.2:1 on white.
FOCUS_RING = "#0072B2"

#: How much presentation mode enlarges a data grid (its cells draw at 14 px): 17.5 px.
GRID_ZOOM = 1.25
#: Text sizes in CSS px: (normal, presentation).
BODY_PX = (16, 20)
CAPTION_PX = (14, 17)
CHART_PX = (12, 16)

TEMPLATE_NAME = "explorer"


def relative_luminance(color: str) -> float:
    """The WCAG 2 relative luminance of a ``#rrggbb`` or ``rgb(r, g, b)`` colour.

    Examples
    --------
    >>> relative_luminance("#ffffff"), relative_luminance("#000000")
    (1.0, 0.0)
    >>> round(relative_luminance("rgb(128, 132, 149)"), 4)
    0.2326
    """
    r, g, b = _rgb(color)

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast_ratio(foreground: str, background: str = BACKGROUND) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white).

    AA asks 4.5 for body text and 3 for large text and graphics.

    Examples
    --------
    >>> contrast_ratio("#000000", "#ffffff")
    21.0
    >>> round(contrast_ratio("#808495"), 2)  # Streamlit's chart grey: below AA
    3.72
    >>> round(contrast_ratio(CHART_TEXT), 1)
    12.5
    """
    hi, lo = sorted((relative_luminance(foreground), relative_luminance(background)))[::-1]
    return (hi + 0.05) / (lo + 0.05)


def _rgb(color: str) -> tuple[float, float, float]:
    """``#rgb``, ``#rrggbb`` or ``rgb(a)(r, g, b[, a])`` as three 0-255 numbers."""
    text = color.strip().lower()
    if text.startswith("#"):
        digits = text[1:]
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4))
    if text.startswith("rgb"):
        parts = text[text.index("(") + 1 : text.index(")")].replace("/", ",").split(",")
        return tuple(float(p) for p in parts[:3])
    raise ValueError(f"not a colour: {color!r}")


def _template() -> go.layout.Template:
    """The app's plotly template: Okabe-Ito colour way, dark text, readable sizes.

    Built on Streamlit's own template (its colour placeholders for the chart
    types not set here). Streamlit's chart theme keeps the colour way and replaces
    the fonts and axis colours, which :func:`page_css` sets again; drawn with
    ``theme=None`` the template's own fonts apply.
    """
    base = pio.templates["streamlit"] if "streamlit" in pio.templates else pio.templates["plotly"]
    t = go.layout.Template(base)
    font = {"color": CHART_TEXT, "size": CHART_PX[0], "family": CHART_FONT}
    axis = {
        "tickfont": font,
        "title": {"font": {"color": CHART_TEXT, "size": CHART_PX[0] + 2}},
        "linecolor": "#8a8a8a",
        "tickcolor": "#8a8a8a",
        # margins grow to hold the tick labels and titles (presentation mode draws them
        # at 16 px; on a phone the multiclass class names ran past the chart's edge)
        "automargin": True,
    }
    t.layout.update(
        colorway=list(COLORWAY),
        font=font,
        xaxis=axis,
        yaxis=axis,
        legend={"font": font},
    )
    return t


def use_template() -> str:
    """Register the app's plotly template and make it the default of every new figure.

    Idempotent; :mod:`explorer.charts` calls it on import.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> use_template()
    'explorer'
    >>> list(go.Figure().layout.template.layout.colorway[:2])
    ['#0072B2', '#D55E00']
    """
    # Building and validating a template costs about 40 ms, and app.py calls this on
    # every script run: build it again only when its base (Streamlit's template, once
    # registered) has changed, and set the default only when something else changed it.
    base = "streamlit" in pio.templates
    if _registered.get("base") != base or TEMPLATE_NAME not in pio.templates:
        pio.templates[TEMPLATE_NAME] = _template()
        _registered["base"] = base
    if pio.templates.default != TEMPLATE_NAME:
        pio.templates.default = TEMPLATE_NAME
    return TEMPLATE_NAME


#: Whether the registered template was built on Streamlit's (see :func:`use_template`).
_registered: dict[str, bool] = {}


#: The entities of escaped visitor text, each as a private-use character while a title
#: is wrapped.
_ENTITIES = {"&lt;": "\ue000", "&gt;": "\ue001", "&amp;": "\ue002"}


def wrap_titles(fig: go.Figure, width: int = 34) -> go.Figure:
    """Break the figure's title, axis titles and subplot titles into lines of at most
    ``width`` characters (plotly never wraps text: a long title ran past a 390 px
    phone's chart), the title starting at the chart's left edge with room above the
    plot for its lines. Returns ``fig``.

    Examples
    --------
    >>> fig = go.Figure(layout={"title": "How much each sample moves the mean LRAP (worst first)"})
    >>> wrap_titles(fig).layout.title.text
    'How much each sample moves the<br>mean LRAP (worst first)'
    >>> fig.layout.margin.t
    84
    >>> fig = go.Figure(layout={"xaxis_title": "residual y - y_hat (negative: over-predicted)"})
    >>> wrap_titles(fig).layout.xaxis.title.text
    'residual y - y_hat (negative:<br>over-predicted)'
    >>> fig = go.Figure(layout={"title": "&lt;" * 40})  # a visitor's id, escaped
    >>> [line.count("&lt;") for line in wrap_titles(fig).layout.title.text.split("<br>")]
    [34, 6]
    """

    def wrap(text: str | None) -> tuple[str | None, int]:
        if not text or "<br>" in text or len(text) <= width:
            return text, 1
        # an entity (formatting.plotly_text's) counts as the one character it shows, and
        # a line never ends inside it
        for entity, char in _ENTITIES.items():
            text = text.replace(entity, char)
        lines = textwrap.wrap(text, width)
        text = "<br>".join(lines)
        for entity, char in _ENTITIES.items():
            text = text.replace(char, entity)
        return text, len(lines)

    text, n = wrap(fig.layout.title.text)
    if text:
        fig.update_layout(
            title={"text": text, "x": 0.01, "xref": "container", "xanchor": "left"},
            margin_t=max(fig.layout.margin.t or 0, 40 + 22 * n),
        )
    for name in [k for k in fig.layout if k.startswith(("xaxis", "yaxis"))]:
        axis = fig.layout[name]
        if axis.title.text:
            axis.title.text = wrap(axis.title.text)[0]
    for note in fig.layout.annotations:
        if note.text and note.yref == "paper":  # subplot titles, not labels at points
            note.text = wrap(note.text)[0]
    return fig


def label_line_ends(fig: go.Figure, *, max_lines: int = 8, gap: float = 0.085) -> go.Figure:
    """Write each line trace's name at its last point (a direct label), so a line is
    read without the legend and without telling colours apart.

    The label is dark text in a box outlined in the line's colour (coloured text
    would miss 4.5:1 for most of the palette). Labels of lines that end close
    together are moved apart to ``gap`` (a fraction of the y axis) and stay inside
    it; the right margin grows to hold them. Lines after ``max_lines`` and traces
    without a name or a finite last point are left to the legend. Returns ``fig``.

    Examples
    --------
    >>> fig = go.Figure([go.Scatter(x=[1, 2], y=[0.5, 0.7], name="P@K")])
    >>> a = label_line_ends(fig).layout.annotations[0]
    >>> a.text, a.x, a.y, a.bordercolor
    ('P@K', 2, 0.7, '#0072B2')
    >>> ends = ((0.5, "a"), (0.51, "b"))  # two lines ending close together
    >>> fig = go.Figure([go.Scatter(x=[1, 2], y=[0, v], name=n) for v, n in ends])
    >>> fig = fig.update_layout(yaxis_range=[0, 1])
    >>> [round(a.y, 3) for a in label_line_ends(fig).layout.annotations]
    [0.5, 0.585]
    """
    ends = []
    for i, trace in enumerate(t for t in fig.data if t.type == "scatter" and t.name):
        if i >= max_lines or trace.x is None or trace.y is None or len(trace.x) == 0:
            continue
        x, y = trace.x[-1], trace.y[-1]
        if y is None or not math.isfinite(float(y)):
            continue
        color = (trace.line.color if trace.line else None) or COLORWAY[i % len(COLORWAY)]
        ends.append([float(y), x, trace.name, color])
    if not ends:
        return fig
    fixed = fig.layout.yaxis.range
    lo, hi = (fixed[0], fixed[1]) if fixed else (min(e[0] for e in ends), max(e[0] for e in ends))
    step = gap * ((hi - lo) or 1.0)
    ends.sort(key=lambda e: e[0])
    placed = [ends[0][0]]
    for y, *_ in ends[1:]:  # upwards: at least one step above the label below
        placed.append(max(y, placed[-1] + step))
    if fixed and placed[-1] > hi:  # then down from the top, so none leaves the axis
        placed[-1] = hi
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - step)
    for (_, x, name, color), y in zip(ends, placed, strict=True):
        fig.add_annotation(
            x=x,
            y=y,
            text=name,
            showarrow=False,
            xanchor="left",
            xshift=6,
            font={"color": CHART_TEXT, "size": CHART_PX[0]},
            bgcolor="rgba(255,255,255,0.85)",
            bordercolor=color,
            borderwidth=2,
        )
    widest = max(len(str(e[2])) for e in ends)
    fig.update_layout(margin_r=max(fig.layout.margin.r or 0, 9 * widest + 24))
    return fig


# the plotly text that reads as chart labels: ticks, axis titles, legend, titles,
# colour bars and annotations (text inside coloured bars and heatmap cells keeps
# plotly's own contrast-aware colour)
_CHART_LABELS = ", ".join(
    f".stPlotlyChart {sel}"
    for sel in (
        'g[class$="tick"] > text',  # xtick, ytick, x2tick (subplots), ...
        'text[class*="title"]',  # axis titles (xtitle, y2title), gtitle, legend and bar titles
        ".legendtext",
        ".annotation-text",
        ".textpoint text",
        ".bartext-outside",
        ".cbaxis text",
    )
)


def _plotly_small_fonts(px: int) -> str:
    """Selectors of plotly text written smaller than ``px`` pixels (plotly writes
    sizes into each text's inline style; this also reaches plotly's hidden text
    measurer, so margins are computed at the new size)."""
    return ", ".join(f'svg text[style*="font-size: {n}px"]' for n in range(6, px))


_BASE_CSS = f"""
/* captions: the "how it is computed" notes, at 4.5:1 or better */
[data-testid="stCaptionContainer"] {{ opacity: 1 !important; }}
[data-testid="stCaptionContainer"],
[data-testid="stCaptionContainer"] * {{ color: {CAPTION_TEXT} !important; }}
[data-testid="stWidgetLabel"] p, [data-testid="stMetricLabel"] p {{ color: {BODY_TEXT}; }}
/* plotly's axis and legend text: Streamlit's chart grey is 3.7:1 */
{_CHART_LABELS} {{ fill: {CHART_TEXT} !important; }}
/* no chart text under {CHART_PX[0]} px (the curves' candidate labels were 10 px) */
{_plotly_small_fonts(CHART_PX[0])} {{ font-size: {CHART_PX[0]}px !important; }}
/* formulas and Markdown tables scroll inside their own box on a narrow screen, with a
   shadow on the side that has more (a bare scroll box reads as a formula cut off) */
.katex-display {{ overflow-x: auto; overflow-y: hidden; max-width: 100%; padding: 0.2em 0;
  background:
    linear-gradient(to right, {BACKGROUND} 30%, rgba(255,255,255,0)) left / 2.5em 100%,
    linear-gradient(to left, {BACKGROUND} 30%, rgba(255,255,255,0)) right / 2.5em 100%,
    radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.25), transparent) left / 1em 100%,
    radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.25), transparent) right / 1em 100%;
  background-repeat: no-repeat; background-attachment: local, local, scroll, scroll; }}
@media (max-width: 640px) {{ .katex-display > .katex {{ font-size: 1em; }} }}
[data-testid="stMarkdownContainer"]:has(.katex) {{ overflow-x: auto; overflow-y: hidden; }}
[data-testid="stMarkdownContainer"] table {{ display: block; max-width: 100%; overflow-x: auto; }}
/* the SVG bar charts (explorer/charts/svg.py): HTML title, legend and axis titles */
.me-svg-chart {{ color: {BODY_TEXT}; margin: 0.25rem 0 0.75rem; }}
.me-svg-chart .title {{ font-weight: 600; font-size: {BODY_PX[0]}px; }}
.me-svg-chart :is(.legend, .axis) {{ font-size: {CAPTION_PX[0]}px; color: {CAPTION_TEXT}; }}
.me-svg-chart .x {{ text-align: center; }}
.me-svg-chart .key {{ white-space: nowrap; margin-right: 0.9em; }}
.me-svg-chart .swatch {{ display: inline-block; width: 0.8em; height: 0.8em;
  margin-right: 0.3em; vertical-align: -0.05em; }}
.me-svg-chart svg text {{ font-size: {CHART_PX[0] + 1}px; }}
.me-svg-chart svg text:not([fill]) {{ fill: {CHART_TEXT}; }}
.me-svg-chart svg text.note {{ font-weight: 600; }}
@media (max-width: 640px) {{ .me-svg-chart svg text.tick.odd {{ display: none; }} }}
/* a headline number in a narrow column shrinks to fit instead of ending in "…" (the
   F-beta, TPR, FPR row of the curves page read "0.8…" at 1440 px in presentation mode) */
.stMain [data-testid="stMetric"] {{ container-type: inline-size; }}
.stMain [data-testid="stMetricValue"] {{ font-size: clamp(1.25rem, 22cqi, 2.25rem); }}
/* a headline's label wraps rather than end in "…" ("Average precision" in a narrow
   column), and so does a button's text */
.stMain [data-testid="stMetricLabel"] :is(div, p, label) {{
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }}
.stMain button [data-testid="stMarkdownContainer"] p {{ white-space: normal; }}
/* so do a link's text (the scenarios) and a switch's or box's label ("ignore ties") */
.stMain :is([data-testid="stPageLink"], label) [data-testid="stMarkdownContainer"],
.stMain :is([data-testid="stPageLink"], label) [data-testid="stMarkdownContainer"] :is(p, span) {{
  white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; }}
/* no column narrower than 6rem: on a zoomed screen (853 CSS px at 150%) the curves page's
   TP FP FN TN columns were 3 px wide; narrower ones move to the next line instead
   (a phone stacks them, Streamlit's own rule below 640 px) */
@media (min-width: 640px) {{
  .stMain [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; }}
  .stMain [data-testid="stColumn"] {{ min-width: min(6rem, 100%) !important; }} }}
/* the keyboard's focus, seen: on the main area (a scroll box Tab stops on) and around a
   data grid (its canvas draws no ring of its own until a cell is picked, and the focus
   then moves to the grid's hidden table of cells) */
:is(main, .stMain):focus-visible, [data-testid="stDataFrame"]:focus-within {{
  outline: 2px solid {FOCUS_RING}; outline-offset: -2px; }}
/* a zoomed or small screen: the sidebar takes at most a quarter of the width */
@media (max-width: 1100px) and (min-width: 640px) {{
  section[data-testid="stSidebar"][data-collapsed="false"] {{ width: min(25vw, 260px) !important;
    min-width: min(25vw, 260px) !important; max-width: min(25vw, 260px) !important; }}
  section[data-testid="stSidebar"][data-collapsed="false"] > div {{ width: 100% !important; }}
}}
"""


def _presentation_css() -> str:
    body, caption, chart = BODY_PX[1], CAPTION_PX[1], CHART_PX[1]
    return f"""
/* presentation mode: readable from the back of a lecture room. A data grid draws on a
   canvas in a font (14 px) no CSS rule reaches: the grid is zoomed instead (17.5 px).
   (A larger root size would reach the grid's font only when the style arrives before
   the grid: on a page whose grid and style arrived together the grid kept 14 px.) */
.stMain [data-testid="stDataFrame"] {{ zoom: {GRID_ZOOM}; max-width: 100%; }}
.stMain [data-testid="stDataFrame"] [data-testid="stDataFrameResizable"] {{
  max-width: 100% !important; }}
.stMain [data-testid="stMarkdownContainer"] :is(p, li, td, th) code {{ font-size: 0.85em; }}
.stMain .katex-display > .katex {{ font-size: {body}px !important; }}
.stMain [data-testid="stMarkdownContainer"] :is(p, li, td, th),
.stMain [data-testid="stWidgetLabel"] p,
.stMain [data-testid="stMetricLabel"] p,
.stMain [data-testid="stExpander"] summary p {{ font-size: {body}px !important; line-height: 1.5; }}
.stMain [data-testid="stCaptionContainer"],
.stMain [data-testid="stCaptionContainer"] :is(p, li, span, code) {{
  font-size: {caption}px !important; }}
.stMain [data-testid="stMetricValue"],
.stMain [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {{
  font-size: clamp({body}px, 22cqi, 2.6rem) !important; line-height: 1.2; }}
.stMain :is(input, textarea, [data-baseweb="select"] div, [data-testid="stSliderThumbValue"]) {{
  font-size: {body - 2}px !important; }}
{_plotly_small_fonts(chart)} {{ font-size: {chart}px !important; }}
.stMain .me-svg-chart .title {{ font-size: {body}px; }}
.stMain .me-svg-chart :is(.legend, .axis) {{ font-size: {caption}px; }}
.stMain .me-svg-chart svg text {{ font-size: {chart}px; }}
.stMain .block-container {{ max-width: 100%; }}
@media (min-width: 640px) {{
  .stMain .block-container {{ padding-left: 2rem; padding-right: 2rem; }} }}
"""


def page_css(present: bool) -> str:
    """The ``<style>`` block the app injects on every page: text contrast, formulas
    that scroll on a phone, the sidebar's width on a small screen, and in
    presentation mode (``present``) larger body, caption and chart text.

    Examples
    --------
    >>> css = page_css(False)
    >>> css.startswith("<style>") and CAPTION_TEXT in css and "font-size: 20px" not in css
    True
    >>> 'svg text[style*="font-size: 12px"]' in page_css(True)
    True
    """
    return "<style>" + _BASE_CSS + (_presentation_css() if present else "") + "</style>"
