"""What the browser really draws, measured in the page: the JavaScript the
browser tests of presentation mode and of the classroom walk share.

Each constant is a JavaScript arrow function for ``page.evaluate``. Colours are the
computed ones, with every ancestor's opacity and the colour's alpha blended over the
element's backdrop, so the WCAG contrast is the one a reader sees.
"""

from __future__ import annotations

import re

# Shared helpers of the functions below: colour parsing, WCAG luminance, the backdrop
# (first opaque background up the tree) and the opacity of an element and its ancestors.
_COLOUR = """
  const probe = document.getElementById('measure-colour') || document.body.appendChild(
    Object.assign(document.createElement('i'), {id: 'measure-colour', hidden: true}));
  const css = (c) => { probe.style.color = ''; probe.style.color = c;  // any CSS colour
    return getComputedStyle(probe).color; };
  const parse = (c) => { const m = (css(c).match(/[\\d.]+/g) || [0, 0, 0]).map(Number);
    return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
  const lum = ({r, g, b}) => { const f = (c) => { c /= 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (x, y) => { const [hi, lo] = [lum(x), lum(y)].sort((p, q) => q - p);
    return (hi + 0.05) / (lo + 0.05); };
  const blend = (fg, bg, a) => ({r: fg.r * a + bg.r * (1 - a), g: fg.g * a + bg.g * (1 - a),
    b: fg.b * a + bg.b * (1 - a)});
  // the first opaque background up the tree that lies under the element's middle (a
  // slider's value sits above its thumb, outside the thumb's coloured circle)
  const under = (n, e) => { const a = e.getBoundingClientRect(), b = n.getBoundingClientRect();
    const x = a.left + a.width / 2, y = a.top + a.height / 2;
    return x >= b.left && x <= b.right && y >= b.top && y <= b.bottom; };
  const backdrop = (e) => { for (let n = e; n; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c.a > 0.99 && (n === e || under(n, e))) return c; }
    return {r: 255, g: 255, b: 255}; };
  const opacities = new Map();  // each element's opacity times its ancestors', once
  const opacity = (e) => { if (!e) return 1; if (opacities.has(e)) return opacities.get(e);
    const o = Number(getComputedStyle(e).opacity) * opacity(e.parentElement);
    opacities.set(e, o); return o; };
  const info = (e, prop) => { const cs = getComputedStyle(e); const fg = parse(cs[prop]);
    const bg = backdrop(e); const eff = blend(fg, bg, fg.a * opacity(e));
    return {text: (e.textContent || '').trim().slice(0, 40), size: parseFloat(cs.fontSize),
            ratio: ratio(eff, bg)}; };
  const seen = (sel) => [...document.querySelectorAll(sel)]
    .filter(e => e.getClientRects().length && (e.textContent || '').trim());
"""

# Every caption, body paragraph, headline value and chart label (plotly's, and the SVG
# charts' of explorer/charts/svg.py) on screen: its text,
# font size in px, and contrast ratio against its backdrop.
MEASURE = (
    "() => {"
    + _COLOUR
    + """
  return {
    caption: seen('.stMain [data-testid=stCaptionContainer] p').map(e => info(e, 'color')),
    body: seen('.stMain [data-testid=stMarkdown] [data-testid=stMarkdownContainer] > p')
      .map(e => info(e, 'color')),
    metric: seen('.stMain [data-testid=stMetricValue] p').map(e => info(e, 'color')),
    chart: seen('.stPlotlyChart :is(g[class$=tick], .textpoint) > text,'
      + ' .stPlotlyChart :is(text[class*=title], .legendtext, .annotation-text, .bartext-outside),'
      + ' .me-svg-chart svg text')
      .map(e => info(e, 'fill')),
  };
}"""
)

# Every element of the page (main part and sidebar) that holds text of its own and is
# drawn: its text, size and contrast; plus the cells of every data grid (a canvas: its
# font and colours are read from the grid's theme variables, as the grid draws them).
ALL_TEXT = (
    "() => {"
    + _COLOUR
    + """
  // text of its own with a letter or digit (not an emoji icon, not a zero-width space)
  const own = (e) => [...e.childNodes]
    .some(n => n.nodeType === 3 && /[\\p{L}\\p{N}]/u.test(n.textContent));
  const drawn = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'
      && opacity(e) > 0.05; };  // a slider's min and max wait at opacity 0 for a hover
  const skip = '.katex-mathml, [data-testid=stMetricDelta] svg, script, style, title';
  const text = [...document.querySelectorAll('.stMain *, [data-testid=stSidebar] *')]
    .filter(e => !e.closest(skip) && !(e instanceof SVGElement) && own(e) && drawn(e))
    .map(e => ({...info(e, 'color'), where: e.closest('[data-testid]')?.dataset.testid,
                side: !!e.closest('[data-testid=stSidebar]'),
                // a formula's glyphs: its sub- and superscripts are smaller by design
                formula: !!e.closest('.katex'),
                colors: [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]}));
  const grids = [...document.querySelectorAll('.stMain [data-testid=stDataFrame]')]
    .filter(g => g.getClientRects().length).map(g => {
      const v = [...g.querySelectorAll('*')].find(
        e => getComputedStyle(e).getPropertyValue('--gdg-base-font-style'));
      if (!v) return null;
      const cs = getComputedStyle(v); const get = (k) => cs.getPropertyValue(k).trim();
      const size = (k) => parseFloat(get(k).match(/([\\d.]+)px/)[1]);
      const zoom = g.getBoundingClientRect().width / g.offsetWidth || 1;  // CSS zoom
      return {cell: zoom * size('--gdg-base-font-style'),
        header: zoom * size('--gdg-header-font-style'),
        cellRatio: ratio(parse(get('--gdg-text-dark')), parse(get('--gdg-bg-cell'))),
        headerRatio: ratio(parse(get('--gdg-text-header')), parse(get('--gdg-bg-header')))};
    }).filter(Boolean);
  // each formula's own size (its sub- and superscripts scale from it)
  const formulas = seen('.stMain .katex').map(e => info(e, 'color'));
  return {text, grids, formulas};
}"""
)

# Every formula on screen that is wider than its box and cannot be scrolled, or
# scrolls without the shadow that shows there is more; and how far the page itself
# scrolls sideways.
CLIPPED_FORMULAS = """() => {
  const shown = [...document.querySelectorAll('.stMain .katex-display')]
    .filter(e => e.getClientRects().length);
  const bad = [];
  for (const e of shown) {
    if (e.scrollWidth <= e.clientWidth + 1) continue;
    const cs = getComputedStyle(e);
    const scrolls = cs.overflowX === 'auto' || cs.overflowX === 'scroll';
    if (!scrolls || !cs.backgroundImage.includes('gradient'))
      bad.push({text: e.textContent.slice(0, 60), width: e.scrollWidth, box: e.clientWidth});
  }
  const page = document.documentElement;
  return {n: shown.length, wide: shown.filter(e => e.scrollWidth > e.clientWidth + 1).length,
          bad, sideways: page.scrollWidth - page.clientWidth};
}"""

# Text cut off on the right or left: an element of the main part (a formula, a line of
# prose, a code line, a table) whose content is wider than its box while the box neither
# scrolls nor wraps it; and plotly text (titles, labels) that runs past its chart's edge,
# but in the charts inside ``skipCharts`` (a CSS selector).
# every chart has drawn its axes, every data grid its canvas
DRAWN = """() => {
  const drawn = (sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
  return drawn('.stMain .stPlotlyChart').every(c => c.querySelector('.main-svg'))
    && drawn('.stMain [data-testid=stDataFrame]').every(g => g.querySelector('canvas'));
}"""

CLIPPED = """(skipCharts = ':not(*)') => {
  const bad = [];
  const holdsText = (e) => (e.textContent || '').trim() && e.getClientRects().length;
  for (const e of document.querySelectorAll(
      '.stMain :is(.katex-display, [data-testid=stMarkdownContainer], p, li, code, pre, td, th,'
      + ' [data-testid=stCaptionContainer], [data-testid=stMetricValue], button)')) {
    if (!holdsText(e) || e.scrollWidth <= e.clientWidth + 1 || !e.clientWidth) continue;
    const cs = getComputedStyle(e);
    if (['auto', 'scroll'].includes(cs.overflowX)) continue;  // a scroll box of its own
    const clips = cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis';
    let parentClips = false;  // visible overflow that an ancestor then cuts off
    for (let n = e.parentElement; n && !n.matches('.stMain'); n = n.parentElement) {
      const ps = getComputedStyle(n);
      if (['auto', 'scroll'].includes(ps.overflowX)) break;
      if (ps.overflowX !== 'visible') {
        const r = e.getBoundingClientRect(), p = n.getBoundingClientRect();
        parentClips = r.left + e.scrollWidth > p.right + 1;
        break;
      }
    }
    if (clips || parentClips)
      bad.push({text: e.textContent.trim().slice(0, 60), width: e.scrollWidth,
                box: e.clientWidth, test: e.closest('[data-testid]')?.dataset.testid});
  }
  for (const svg of document.querySelectorAll(
      '.stMain :is(.stPlotlyChart svg.main-svg, .me-svg-chart svg)')) {
    if (!svg.getClientRects().length || svg.closest(skipCharts)) continue;
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      if (!(t.textContent || '').trim() || !t.getClientRects().length) continue;
      const r = t.getBoundingClientRect();
      // 3 px of slack: a rotated axis title's box is taller than its letters
      if (r.width && (r.right > box.right + 3 || r.left < box.left - 3))
        bad.push({text: t.textContent.trim().slice(0, 60), chart: true,
                  left: Math.round(r.left - box.left), right: Math.round(r.right - box.right)});
    }
  }
  const page = document.documentElement;
  return {bad, sideways: page.scrollWidth - page.clientWidth};
}"""

# The text a user reads: what the main part and the sidebar draw (innerText skips what
# is hidden), the text of the charts, and the tooltips' help is left out (not on screen).
READ_TEXT = """() => {
  const parts = [...document.querySelectorAll('.stMain, [data-testid=stSidebar]')]
    .map(e => e.innerText);
  const charts = [...document.querySelectorAll(
      '.stMain :is(.stPlotlyChart, .me-svg-chart) svg text')]
    .filter(t => t.getClientRects().length).map(t => t.textContent);
  return parts.concat(charts).join('\\n');
}"""

# Internal words that must not reach a class: a sample's id ("seed 002", "seed003_lrap"),
# Python's None and NaN where a value is missing.
INTERNAL_WORDS = re.compile(r"\b[Ss]eed[ _]?0\d|\bNone\b|\bnan\b")


def internal_words(text: str) -> list[str]:
    """The internal words of ``text``, each with up to 12 characters around it.

    Examples
    --------
    >>> internal_words("AUC 0.75, seed 002 slips; precision None")
    ['AUC 0.75, seed 002 slips; pre', '; precision None']
    >>> internal_words("financial, Nonetheless, none left, zero_division=NaN")
    []
    """
    return [
        text[max(m.start() - 12, 0) : m.end() + 12].strip() for m in INTERNAL_WORDS.finditer(text)
    ]


def ends_in(line: str, value: str) -> bool:
    """Whether a formula or text ``line`` derives ``value``: it ends in ``= value`` (LaTeX
    closing commands and a trailing note in parentheses aside) and has another ``=``
    before, so it shows more than the number.

    Examples
    --------
    >>> ends_in(r"\\begin{aligned}x &= 0.5 + 0.25 \\\\ &= 0.7500\\end{aligned}", "0.7500")
    True
    >>> ends_in("LRAP = (0.5 + 1.0) / 2 = 0.7500  (first 2 of 9 terms)", "0.7500")
    True
    >>> ends_in("LRAP = 0.7500", "0.7500"), ends_in("x = 1 = 0.75001", "0.7500")
    (False, False)
    """
    text = re.sub(r"(\\end\{\w+\}|\\right[).\]]|\s)+$", "", line)
    text = re.sub(r"\s+\([^()]*\)$", "", text)  # "(first 3 and last 2 of 300 terms)"
    text = text.replace("−", "-").rstrip(".")
    value = value.replace("−", "-")
    return bool(re.search(r"=\s*" + re.escape(value) + "$", text)) and text.count("=") >= 2
