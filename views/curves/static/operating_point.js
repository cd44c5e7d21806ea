// The operating point of the ROC & PR curves page, moved in the browser.
//
// Streamlit components v2 (views/curves/operating_point.py): the default export is called on
// mount and again with each new `data` (explorer/charts/operating_point.py builds it),
// which updates the one view kept on the shadow root (no re-mount). Four ways move the
// threshold, each redrawing the marker on both curves, the line over the score
// distribution and the confusion matrix in the frame of its event, from counts the data
// holds: the slider (its grid), a drag over the distribution (the same grid), the arrow
// keys (the next distinct score: `stops`) and a click on a vertex of the selected model's
// curve (its counts travel with the vertex). On release (key up, pointer up, and every
// 250 ms of a drag) the threshold is reported with setStateValue, so the page's fragment
// reruns and the server's numbers follow. A click on another model's curve reports that
// model and threshold with setTriggerValue (the server swaps the data). The charts take
// the height the window leaves below the component's top, so the lesson fits one screen.
// No network, no plotly.

const SVG = "http://www.w3.org/2000/svg";
const CHART_TEXT = "#31333f";
const OPERATING = "#D55E00";
const SKY = [0x56, 0xb4, 0xe9];
const DRAG_REPORT_MS = 250;
const PICK_PX = 12;
const MAX_MARKERS = 300;
const POSITIVE = "#0072B2"; // actual 1 in the distribution (Okabe-Ito blue)
const NEGATIVE = "#E69F00"; // actual 0 (Okabe-Ito orange)
const THUMB = 18; // the slider thumb's width (CSS): the distribution's plot is inset by half

// ------------------------------------------------------------------ texts
// The component's texts in the page's language, by id (views/curves/operating_point.py
// writes them, in English, and sends them translated as `data.text`); a template's
// ${name} fields are filled here.
let TEXT = {};
function tr(id, fields = {}) {
  let out = TEXT[id] ?? id;
  for (const [name, value] of Object.entries(fields)) out = out.replaceAll("${" + name + "}", value);
  return out;
}

// ------------------------------------------------------------------ formatting
// Python's f"{x:.{d}f}": the exact binary value rounded half to even (toFixed rounds a
// tie up). A double >= 1e-3 has an exact expansion of at most ~63 decimals.
export function fixed(x, d) {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1e21) return x.toFixed(d);
  const neg = x < 0 || Object.is(x, -0);
  const exact = Math.abs(x).toFixed(100);
  const [whole, frac] = exact.split(".");
  const kept = BigInt(whole + frac.slice(0, d));
  const rest = frac.slice(d);
  let up = false;
  if (rest[0] > "5") up = true;
  else if (rest[0] === "5") {
    const tail = rest.slice(1).replace(/0+$/, "");
    up = tail.length > 0 || kept % 2n === 1n;
  }
  const digits = (kept + (up ? 1n : 0n)).toString().padStart(d + 1, "0");
  const text = d > 0 ? digits.slice(0, -d) + "." + digits.slice(-d) : digits;
  return (neg ? "-" : "") + text;
}

// explorer.formatting.fmt: `digits` significant digits, scientific below 1e-3.
export function fmt(value, digits = 4) {
  const v = Number(value);
  if (v === 0) return "0";
  if (Number.isNaN(v)) return "nan";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  if (Math.abs(v) < 1e-3) {
    // no double below 1e-3 sits exactly half-way at 4 significant digits: no tie
    const [mant, exp] = v.toExponential(digits - 1).split("e");
    const e = Number(exp);
    return `${mant}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  // a whole number as an integer (a perfect precision reads 1), as explorer.formatting.fmt
  if (Number.isInteger(v) && Math.abs(v) < 1e6) return String(v);
  const magnitude = Math.floor(Math.log10(Math.abs(v)));
  return fixed(v, Math.max(digits - 1 - magnitude, 0));
}

// Python's f"{v:.4g}" (a threshold in a hover text).
export function g4(v) {
  if (v === 0) return "0";
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  const [mant, exp] = v.toExponential(3).split("e");
  const e = Number(exp);
  const strip = (x) => (x.includes(".") ? x.replace(/0+$/, "").replace(/\.$/, "") : x);
  if (e < -4 || e >= 4) {
    return `${strip(mant)}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  return strip(fixed(v, 3 - e));
}

// explorer.formatting.count(v, grouped=False): a whole count as an integer, else fmt.
export function countText(v) {
  return Number.isInteger(v) ? String(v) : fmt(v);
}

// Python's f"{x:.1%}".
export function percent(x) {
  return `${fixed(x * 100, 1)}%`;
}

function divide(num, den) {
  return den !== 0 ? num / den : 0;
}

// metrics.rates_at_threshold from the four counts, the same operations in the same
// order (a zero denominator gives 0, as scikit-learn's zero_division=0).
export function ratesOf(c, b2) {
  const { tp, fp, fn, tn } = c;
  const total = tp + fp + fn + tn;
  const recall = divide(tp, tp + fn);
  return {
    precision: divide(tp, tp + fp),
    recall,
    tpr: recall,
    f1: divide(2 * tp, 2 * tp + fn + fp),
    fbeta: divide((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
    accuracy: divide(tp + tn, total),
    error_rate: divide(fp + fn, total),
    fpr: divide(fp, fp + tn),
  };
}

// metrics.confusion_matrix(..., normalize=norm) of the cells [[tp, fn], [fp, tn]].
export function normalized(c, norm) {
  const { tp, fp, fn, tn } = c;
  if (norm === "true") {
    const a = tp + fn;
    const b = fp + tn;
    return { tp: divide(tp, a), fn: divide(fn, a), fp: divide(fp, b), tn: divide(tn, b) };
  }
  if (norm === "pred") {
    const a = tp + fp;
    const b = fn + tn;
    return { tp: divide(tp, a), fp: divide(fp, a), fn: divide(fn, b), tn: divide(tn, b) };
  }
  const all = tp + fn + fp + tn;
  return { tp: divide(tp, all), fn: divide(fn, all), fp: divide(fp, all), tn: divide(tn, all) };
}

// ------------------------------------------------------------------ drawing helpers
function el(name, attrs = {}, parent = null, ns = SVG) {
  const node = ns ? document.createElementNS(ns, name) : document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function html(name, attrs, parent) {
  return el(name, attrs, parent, null);
}

function shapePath(shape, x, y, r) {
  const p = (pts) => "M" + pts.map(([a, b]) => `${(x + a * r).toFixed(1)},${(y + b * r).toFixed(1)}`).join("L") + "Z";
  switch (shape) {
    case "diamond":
      return p([[0, -1.2], [1.2, 0], [0, 1.2], [-1.2, 0]]);
    case "square":
      return p([[-1, -1], [1, -1], [1, 1], [-1, 1]]);
    case "triangle-up":
      return p([[0, -1.25], [1.15, 0.85], [-1.15, 0.85]]);
    case "cross":
      return p([[-0.35, -1], [0.35, -1], [0.35, -0.35], [1, -0.35], [1, 0.35], [0.35, 0.35],
        [0.35, 1], [-0.35, 1], [-0.35, 0.35], [-1, 0.35], [-1, -0.35], [-0.35, -0.35]]);
    default: { // star
      const pts = [];
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        const rr = k % 2 ? 0.5 : 1.3;
        pts.push([rr * Math.cos(a), rr * Math.sin(a)]);
      }
      return p(pts);
    }
  }
}

function mix(rate) {
  const t = Math.min(Math.max(rate, 0), 1);
  const c = SKY.map((v) => Math.round(255 + (v - 255) * t));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

// ------------------------------------------------------------------ one chart
class Chart {
  constructor(parent, kind) {
    this.kind = kind; // "roc" | "pr"
    this.box = html("div", { class: `op-chart op-${kind}` }, parent);
    this.svg = el("svg", { role: "img", "aria-label": tr(kind === "roc" ? "roc" : "pr") }, this.box);
    this.width = 0;
  }

  layout(width, height, px) {
    this.width = width;
    this.height = height;
    this.px = px;
    this.m = { l: 10 + 3.6 * px, r: 10, t: 10 + 1.9 * px, b: 12 + 2.6 * px };
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.setAttribute("width", width);
    this.svg.setAttribute("height", height);
  }

  sx(x) {
    const w = this.width - this.m.l - this.m.r;
    return this.m.l + ((x + 0.02) / 1.04) * w;
  }

  sy(y) {
    const h = this.height - this.m.t - this.m.b;
    return this.m.t + (1 - (y + 0.02) / 1.04) * h;
  }

  draw(data) {
    const svg = this.svg;
    svg.replaceChildren();
    const px = this.px;
    const roc = this.kind === "roc";
    const text = (x, y, s, attrs = {}) => {
      const t = el("text", { x, y, fill: CHART_TEXT, "font-size": px, ...attrs }, svg);
      t.textContent = s;
      return t;
    };
    // the title from the chart's left edge; the short name when the long one would be cut
    const title = text(4, 4 + px * 1.15, tr(roc ? "roc" : "pr"), {
      "font-size": Math.round(px * 1.25),
      "font-weight": 600,
      class: "op-title",
    });
    if (!roc && title.getComputedTextLength() > this.width - 8) title.textContent = tr("pr_short");
    // axes, grid and ticks
    const x0 = this.sx(0), x1 = this.sx(1), y0 = this.sy(0), y1 = this.sy(1);
    const step = this.height - this.m.t - this.m.b < 6 * px * 1.4 ? 2 : 1; // no crowded ticks
    for (let k = 0; k <= 5; k++) {
      const v = k / 5;
      el("line", { x1: this.sx(v), x2: this.sx(v), y1: this.sy(-0.02), y2: this.sy(1.02), stroke: "#e6e6e6" }, svg);
      el("line", { x1: this.sx(-0.02), x2: this.sx(1.02), y1: this.sy(v), y2: this.sy(v), stroke: "#e6e6e6" }, svg);
      if (k % step === 0 || k === 5) {
        text(this.sx(v), this.height - this.m.b + px + 4, v.toFixed(1), { "text-anchor": "middle" });
        text(this.m.l - 5, this.sy(v) + px * 0.35, v.toFixed(1), { "text-anchor": "end" });
      }
    }
    el("rect", { x: this.sx(-0.02), y: this.sy(1.02), width: this.sx(1.02) - this.sx(-0.02),
      height: this.sy(-0.02) - this.sy(1.02), fill: "none", stroke: "#8a8a8a" }, svg);
    text((x0 + x1) / 2, this.height - 6, tr(roc ? "fpr_axis" : "recall"), { "text-anchor": "middle" });
    const ytitle = text(0, 0, tr(roc ? "tpr_axis" : "precision"), { "text-anchor": "middle" });
    ytitle.setAttribute("transform", `translate(${px + 2}, ${(y0 + y1) / 2}) rotate(-90)`);
    if (roc && ytitle.getComputedTextLength() > y0 - y1 + 20) ytitle.textContent = "TPR";
    // chance
    const chance = roc ? [[0, 0], [1, 1]] : [[0, data.prevalence], [1, data.prevalence]];
    el("path", { d: `M${this.sx(chance[0][0])},${this.sy(chance[0][1])}L${this.sx(chance[1][0])},${this.sy(chance[1][1])}`,
      stroke: "#8a8a8a", "stroke-dasharray": "5,4", fill: "none" }, svg);
    // the models' curves (their names and the chance line: the legend above the charts)
    this.lines = [];
    for (const line of data.lines) {
      const c = roc ? line.roc : line.pr;
      const xs = c.x.map((v) => this.sx(v));
      const ys = c.y.map((v) => this.sy(v));
      let d = `M${xs[0].toFixed(1)},${ys[0].toFixed(1)}`;
      for (let i = 1; i < xs.length; i++) {
        if (!roc) d += `L${xs[i].toFixed(1)},${ys[i - 1].toFixed(1)}`; // steps-post (plotly "hv")
        d += `L${xs[i].toFixed(1)},${ys[i].toFixed(1)}`;
      }
      el("path", { d, stroke: line.color, "stroke-width": 2, fill: "none", class: "op-line", "data-model": line.name }, svg);
      if (xs.length <= MAX_MARKERS) {
        const g = el("g", { fill: line.color, "data-model": line.name, class: "op-vertices" }, svg);
        for (let i = 0; i < xs.length; i++) {
          el("circle", { cx: xs[i].toFixed(1), cy: ys[i].toFixed(1), r: 2.5, "data-i": i }, g);
        }
      }
      this.lines.push({ name: line.name, xs, ys, t: c.t, x: c.x, y: c.y, counts: c.counts || null });
    }
    this.marks = el("g", { class: "op-marks" }, svg);
    this.point = null;
    this.tip = el("g", { class: "op-tip", visibility: "hidden", "pointer-events": "none" }, svg);
    el("rect", { fill: "white", stroke: "#8a8a8a", rx: 3 }, this.tip);
    el("text", { fill: CHART_TEXT, "font-size": px }, this.tip);
  }

  // the threshold of the vertex under the pointer, as the plotly hover showed it
  hover(x, y) {
    const hit = this.nearest(x, y, true);
    if (!hit) {
      this.tip.setAttribute("visibility", "hidden");
      return;
    }
    const [rect, text] = this.tip.children;
    const roc = this.kind === "roc";
    const t = hit.t === null ? "+inf" : g4(hit.t);
    const at = { model: hit.model, t, x: hit.x.toFixed(3), y: hit.y.toFixed(3) };
    text.textContent = tr(roc ? "roc_hover" : "pr_hover", at);
    const w = text.getComputedTextLength() + 10;
    const h = this.px * 1.5;
    const left = Math.min(Math.max(hit.px - w / 2, 2), this.width - w - 2);
    const top = hit.py - h - 10 < 2 ? hit.py + 10 : hit.py - h - 10;
    rect.setAttribute("x", left);
    rect.setAttribute("y", top);
    rect.setAttribute("width", w);
    rect.setAttribute("height", h);
    text.setAttribute("x", left + 5);
    text.setAttribute("y", top + h / 2 + this.px * 0.35);
    this.tip.setAttribute("visibility", "visible");
  }

  // candidate markers and the operating point of the selected model
  mark(candidates, point) {
    const roc = this.kind === "roc";
    const g = this.marks;
    g.replaceChildren();
    for (const c of candidates) {
      const x = this.sx(roc ? c.fpr : c.recall), y = this.sy(roc ? c.tpr : c.precision);
      const path = el("path", { d: shapePath(c.shape, x, y, 6.5), fill: "white", stroke: "#333",
        "stroke-width": 2, class: "op-candidate" }, g);
      el("title", {}, path).textContent = `${c.label} (t = ${c.t === null ? "+inf" : g4(c.t)})`;
    }
    this.point = el("circle", { r: 7.5, fill: OPERATING, stroke: "black", "stroke-width": 2,
      class: "op-point" }, g);
    this.movePoint(point);
  }

  movePoint(p) {
    const roc = this.kind === "roc";
    this.point.setAttribute("cx", this.sx(roc ? p.fpr : p.recall).toFixed(1));
    this.point.setAttribute("cy", this.sy(roc ? p.tpr : p.precision).toFixed(1));
  }

  // the curve vertex nearest to (x, y) in px, within PICK_PX: {model, t, counts, ...} or
  // null; the +inf vertex (t null) only for a hover (a click on it moves nothing)
  nearest(x, y, any = false) {
    let best = null;
    let bestD = PICK_PX * PICK_PX;
    for (const line of this.lines) {
      for (let i = 0; i < line.xs.length; i++) {
        const dx = line.xs[i] - x, dy = line.ys[i] - y;
        const d = dx * dx + dy * dy;
        if (d <= bestD && (any || line.t[i] !== null)) {
          bestD = d;
          const c = line.counts;
          best = { model: line.name, t: line.t[i], px: line.xs[i], py: line.ys[i],
            x: line.x[i], y: line.y[i],
            counts: c && { tp: c.tp[i], fp: c.fp[i], fn: c.fn[i], tn: c.tn[i] } };
        }
      }
    }
    return best;
  }
}

// ------------------------------------------------------------------ the score distribution
// The scores of each class along the threshold axis, actual 1 above the axis and actual 0
// below, one marker per sample (few samples) or bars per bin, with the threshold's line:
// drag anywhere on it to move the threshold. Its plot is inset by half the slider's thumb,
// so the line stands under the thumb of the slider above it.
class Distribution {
  constructor(parent) {
    this.box = html("div", { class: "op-dist" }, parent);
    this.svg = el("svg", { role: "img", "aria-label": tr("scores") }, this.box);
  }

  layout(width, height, px) {
    Object.assign(this, { width, height, px });
    this.m = { l: THUMB / 2, r: THUMB / 2, t: 4, b: px + 8 };
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.setAttribute("width", width);
    this.svg.setAttribute("height", height);
  }

  // the x of a position of the slider's grid, as the slider's thumb stands
  xOfIndex(i, max) {
    return this.m.l + (max ? i / max : 0) * (this.width - this.m.l - this.m.r);
  }

  indexOf(x, max) {
    const f = (x - this.m.l) / (this.width - this.m.l - this.m.r);
    return Math.min(Math.max(Math.round(f * max), 0), max);
  }

  draw(dist, xOf) {
    const svg = this.svg;
    svg.replaceChildren();
    const px = this.px;
    const mid = this.m.t + (this.height - this.m.t - this.m.b) / 2;
    const half = mid - this.m.t - 1;
    this.shade = el("rect", { y: this.m.t, height: this.height - this.m.t - this.m.b, fill: "#fbe3d4" }, svg);
    const n = dist.pos.length;
    const binW = (xOf(dist.hi) - xOf(dist.lo)) / n;
    if (dist.dots) {
      const most = Math.max(...dist.pos, ...dist.neg, 1);
      const r = Math.max(2, Math.min(half / (2 * most) - 0.5, 7));
      for (const [scores, sign, color] of [[dist.dots.pos, -1, POSITIVE], [dist.dots.neg, 1, NEGATIVE]]) {
        const stack = new Map(); // markers already in a bin's column
        for (const s of scores) {
          const bin = Math.min(Math.floor(((s - dist.lo) / (dist.hi - dist.lo)) * n), n - 1);
          const k = stack.get(bin) || 0;
          stack.set(bin, k + 1);
          el("circle", { cx: xOf(s).toFixed(1), cy: (mid + sign * (r + 1 + k * (2 * r + 1))).toFixed(1), r,
            fill: color, stroke: "white", "stroke-width": 0.5, class: sign < 0 ? "op-pos" : "op-neg" }, svg);
        }
      }
    } else {
      const most = Math.max(...dist.pos, ...dist.neg, 1e-300);
      for (const [counts, sign, color] of [[dist.pos, -1, POSITIVE], [dist.neg, 1, NEGATIVE]]) {
        counts.forEach((c, k) => {
          if (!c) return;
          const h = Math.max((c / most) * half, 1);
          el("rect", { x: (xOf(dist.lo) + k * binW).toFixed(1), width: Math.max(binW - 0.5, 0.5).toFixed(1),
            y: (sign < 0 ? mid - h : mid).toFixed(1), height: h.toFixed(1), fill: color }, svg);
        });
      }
    }
    el("line", { x1: this.m.l, x2: this.width - this.m.r, y1: mid, y2: mid, stroke: "#8a8a8a" }, svg);
    const ticks = this.width > 22 * px ? 4 : 2;
    for (let k = 0; k <= ticks; k++) {
      const v = dist.lo + ((dist.hi - dist.lo) * k) / ticks;
      const t = el("text", { x: xOf(v), y: this.height - 3, fill: CHART_TEXT, "font-size": px,
        "text-anchor": k === 0 ? "start" : k === ticks ? "end" : "middle" }, svg);
      t.textContent = g4(v);
    }
    this.line = el("line", { y1: this.m.t, y2: this.height - this.m.b, stroke: OPERATING, "stroke-width": 3,
      class: "op-dist-line" }, svg);
  }

  moveLine(x) {
    this.line.setAttribute("x1", x.toFixed(1));
    this.line.setAttribute("x2", x.toFixed(1));
    this.shade.setAttribute("x", x.toFixed(1));
    this.shade.setAttribute("width", Math.max(this.width - this.m.r - x, 0).toFixed(1));
  }
}

// ------------------------------------------------------------------ the component
const RATE_ROWS = [
  ["precision", "precision"],
  ["recall", "recall_tpr"],
  ["fpr", "FPR"],
  ["f1", "F1"],
  ["fbeta", "F-beta"],
  ["accuracy", "accuracy"],
  ["error_rate", "error_rate"],
];
const CELLS = [["tp", "TP"], ["fn", "FN"], ["fp", "FP"], ["tn", "TN"]];
const STEP_KEYS = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };

// the index of the first of the ascending `ts` above t (side "right"), or at/above t ("left")
function search(ts, t, right) {
  let lo = 0, hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] < t || (right && ts[mid] === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class OperatingPoint {
  constructor(root) {
    this.root = root;
    this.wrap = html("div", { class: "op" }, root);
    const grid = html("div", { class: "op-grid" }, this.wrap);
    this.grid = grid;
    this.legend = html("div", { class: "op-legend" }, grid);
    this.roc = new Chart(grid, "roc");
    this.pr = new Chart(grid, "pr");
    this.side = html("div", { class: "op-side" }, grid);
    const row = html("div", { class: "op-slider" }, this.side);
    const label = html("label", { for: "op-threshold" }, row);
    label.textContent = tr("threshold");
    this.out = html("output", { for: "op-threshold", "data-op": "threshold" }, row);
    this.range = html("input", { id: "op-threshold", type: "range", min: 0, step: 1, "data-testid": "opSlider" }, this.side);
    this.dist = new Distribution(this.side);
    this.note = html("div", { class: "op-note" }, this.side);
    this.buildSide();
    this.index = 0;
    this.exact = null; // a threshold off the slider's grid (the server's, a key's, a click's)
    this.sent = new Set();
    this.lastSent = null;
    this.dragging = false;
    this.timer = 0;
    this.range.addEventListener("input", () => this.toIndex(Number(this.range.value)));
    this.range.addEventListener("change", () => this.report());
    this.range.addEventListener("keyup", () => this.report());
    this.range.addEventListener("keydown", (e) => this.onKey(e));
    this.release = () => {
      this.dragging = false;
      window.removeEventListener("pointerup", this.release);
      window.removeEventListener("pointercancel", this.release);
      this.report();
    };
    const grab = () => {
      this.dragging = true; // until the pointer is released, wherever that is
      window.addEventListener("pointerup", this.release);
      window.addEventListener("pointercancel", this.release);
    };
    this.range.addEventListener("pointerdown", grab);
    const svg = this.dist.svg;
    svg.addEventListener("pointerdown", (e) => {
      grab();
      try {
        svg.setPointerCapture(e.pointerId); // the drag goes on outside the chart
      } catch {
        // a pointer no longer active (or a synthetic one): the window's pointerup ends it
      }
      this.dragTo(e);
    });
    svg.addEventListener("pointermove", (e) => this.dragging && this.dragTo(e));
    for (const chart of [this.roc, this.pr]) {
      chart.svg.addEventListener("click", (e) => this.onClick(chart, e));
      chart.svg.addEventListener("mousemove", (e) => chart.hover(...this.at(chart, e)));
      chart.svg.addEventListener("mouseleave", () => chart.hover(-1e9, -1e9));
    }
    // the charts take the height left below the component: re-fit when anything above moves
    this.resize = new ResizeObserver(() => this.layout());
    this.resize.observe(this.wrap);
    this.resize.observe(document.body);
    this.onWindow = () => this.layout();
    window.addEventListener("resize", this.onWindow);
  }

  buildSide() {
    const side = this.side;
    const table = html("table", { class: "op-cm", "aria-label": tr("cm") }, side);
    const head = html("tr", {}, table);
    for (const h of ["", tr("predicted1"), tr("predicted0")]) html("th", { scope: "col" }, head).textContent = h;
    this.cells = {};
    for (const [r, pair] of [[tr("actual1"), CELLS.slice(0, 2)], [tr("actual0"), CELLS.slice(2)]]) {
      const row = html("tr", {}, table);
      html("th", { scope: "row" }, row).textContent = r;
      for (const [key, name] of pair) {
        const td = html("td", { "data-cell": name }, row);
        const top = html("span", { class: "op-cell-top" }, td);
        html("span", { class: "op-cell-name" }, top).textContent = name;
        const rate = html("span", { class: "op-rate", "data-op": `${name}-rate` }, top);
        const count = html("span", { class: "op-count", "data-op": name }, td);
        this.cells[key] = { td, count, rate };
      }
    }
    this.normNote = html("div", { class: "op-norm" }, side);
    const dl = html("dl", { class: "op-rates" }, side);
    this.rates = {};
    for (const [key, name] of RATE_ROWS) {
      const div = html("div", {}, dl);
      const dt = html("dt", {}, div);
      dt.textContent = tr(name);
      this.rates[key] = { dt, dd: html("dd", { "data-op": key }, div) };
    }
  }

  drawLegend(data) {
    const rows = data.lines.map((l) => [l.name, l.color, false]).concat([[tr("chance"), "#8a8a8a", true]]);
    this.legend.replaceChildren();
    for (const [name, color, dashed] of rows) {
      const item = html("span", { class: "op-key" }, this.legend);
      html("span", { class: "op-swatch", style: `border-top: 3px ${dashed ? "dashed" : "solid"} ${color}` }, item);
      item.appendChild(document.createTextNode(name));
    }
    const keys = html("span", { class: "op-key op-classes" }, this.legend);
    for (const [name, color] of [[tr("actual1"), POSITIVE], [tr("actual0"), NEGATIVE]]) {
      html("span", { class: "op-dot", style: `background: ${color}` }, keys);
      keys.appendChild(document.createTextNode(name + " "));
    }
  }

  update(data, api) {
    this.api = api;
    const old = this.data;
    this.data = data;
    this.wrap.classList.toggle("present", !!data.present);
    const fresh = !old || old.id !== data.id;
    if (fresh) {
      this.range.max = data.thresholds.length - 1;
      this.sent.clear();
      this.lastSent = null;
      this.drawLegend(data);
    }
    // the threshold the server ran with: an echo of one this component reported keeps
    // the threshold where the user has moved it since; anything else (the number box, a
    // candidate button, another model's curve) moves it
    const echo = !fresh && this.sent.has(data.t);
    if (echo && data.t === this.lastSent) this.sent.clear();
    if (!echo && !this.dragging) {
      this.sent.clear();
      this.lastSent = null; // the server moved the threshold: any position is news
      this.index = this.nearestIndex(data.t);
      this.range.value = this.index;
      const onGrid = data.thresholds[this.index] === data.t;
      this.exact = onGrid ? null : { t: data.t, text: data.t_text, counts: data.at_t };
      this.moved = false;
    }
    this.beta = data.beta_text;
    this.rates.fbeta.dt.textContent = tr("fbeta", { beta: data.beta_text });
    this.normNote.textContent = tr("norm", { norm: data.norm_text });
    if (fresh || !old || old.candidates_id !== data.candidates_id || !this.width) this.layout(true);
    else this.show();
  }

  nearestIndex(t) {
    const ts = this.data.thresholds;
    let best = 0;
    for (let i = 1; i < ts.length; i++) if (Math.abs(ts[i] - t) < Math.abs(ts[best] - t)) best = i;
    return best;
  }

  // the charts' sizes: side by side with the threshold column, as tall as the window
  // leaves below the component's top (within limits), or stacked on a narrow screen
  layout(force = false) {
    const width = this.wrap.clientWidth;
    if (!this.data || !width) return;
    const px = this.data.present ? 16 : 12;
    const narrow = width < 640;
    const gap = 12;
    let chartW, chartH, sideW;
    if (narrow) {
      chartW = sideW = width;
      chartH = Math.round(Math.min(360, Math.max(240, width * 0.85)));
    } else {
      sideW = Math.round(Math.min(420, Math.max(250, width * 0.32)));
      chartW = Math.floor((width - sideW - 2 * gap) / 2);
      const top = this.wrap.getBoundingClientRect().top + window.scrollY;
      const room = window.innerHeight - top - this.legend.offsetHeight - gap - 8;
      chartH = Math.round(Math.min(420, chartW * 1.05, Math.max(15 * px, room)));
    }
    const tight = !narrow && chartH < 20 * px;
    this.wrap.classList.toggle("tight", tight);
    const distH = Math.round(Math.min(130, Math.max((tight ? 4.5 : 5.5) * px, chartH * 0.3)));
    const key = [width, chartH, px, this.data.id, this.data.candidates_id].join();
    if (!force && key === this.key) return;
    this.key = key;
    this.width = width;
    this.wrap.classList.toggle("narrow", narrow);
    this.grid.style.gridTemplateColumns = narrow ? "1fr" : `${chartW}px ${chartW}px ${sideW}px`;
    for (const chart of [this.roc, this.pr]) {
      chart.layout(chartW, chartH, px);
      chart.draw(this.data);
    }
    this.dist.layout(sideW, distH, px);
    const max = this.data.thresholds.length - 1;
    this.dist.draw(this.data.dist, (t) => this.dist.xOfIndex(this.fractionOf(t) * max, max));
    this.marked = null;
    this.show();
  }

  // where t stands on the slider's grid, as a fraction of its length
  fractionOf(t) {
    const ts = this.data.thresholds;
    const n = ts.length - 1;
    if (t <= ts[0]) return 0;
    if (t >= ts[n]) return 1;
    const i = search(ts, t, true) - 1; // ts[i] <= t < ts[i + 1]
    return (i + (t - ts[i]) / (ts[i + 1] - ts[i])) / n;
  }

  // the counts at the slider's position (or at the exact threshold)
  current() {
    if (this.exact) return this.exact;
    const d = this.data;
    const i = this.index;
    return {
      t: d.thresholds[i],
      text: d.labels[i],
      counts: { tp: d.tp[i], fp: d.fp[i], fn: d.fn[i], tn: d.tn[i] },
    };
  }

  show() {
    const d = this.data;
    const cur = this.current();
    const c = cur.counts;
    const r = ratesOf(c, d.b2);
    const hidden = d.hidden || (d.predict && this.moved);
    const above = cur.t > d.top ? tr("above") : "";
    this.out.textContent = cur.text;
    this.range.setAttribute("aria-valuetext", cur.text);
    this.note.textContent = tr("note", { t: cur.text, above });
    const point = { fpr: r.fpr, tpr: r.tpr, recall: r.recall, precision: r.precision };
    if (this.marked !== d.candidates_id) {
      this.roc.mark(d.candidates, point);
      this.pr.mark(d.candidates, point);
    } else {
      this.roc.movePoint(point);
      this.pr.movePoint(point);
    }
    this.marked = d.candidates_id;
    const max = d.thresholds.length - 1;
    this.dist.moveLine(this.dist.xOfIndex(this.fractionOf(cur.t) * max, max));
    this.describe(cur.text, r, hidden);
    const norm = normalized(c, d.norm);
    for (const [key] of CELLS) {
      const cell = this.cells[key];
      cell.count.textContent = hidden ? "?" : countText(c[key]);
      cell.rate.textContent = hidden ? "" : `(${percent(norm[key])})`;
      cell.td.style.background = hidden ? "white" : mix(norm[key]);
    }
    for (const [key] of RATE_ROWS) this.rates[key].dd.textContent = hidden ? "?" : fmt(r[key]);
    this.wrap.dataset.threshold = cur.text;
  }

  // the charts' text alternatives: what a reader of the screen is told of the marked
  // point (its rates wait for Reveal, as the matrix's numbers do)
  describe(t, r, hidden) {
    const models = this.data.lines.map((l) => l.name).join(", ");
    const model = this.data.model;
    const alt = (chart, id, fields) =>
      hidden
        ? tr("alt_hidden", { chart: tr(chart), models, model, t })
        : tr(id, { models, model, t, ...fields });
    this.roc.svg.setAttribute("aria-label", alt("roc", "roc_alt", { fpr: fmt(r.fpr), tpr: fmt(r.tpr) }));
    const pr = { recall: fmt(r.recall), precision: fmt(r.precision) };
    this.pr.svg.setAttribute("aria-label", alt("pr", "pr_alt", pr));
    this.dist.svg.setAttribute("aria-label", tr("scores_alt", { t }));
  }

  // the slider's grid position i (the slider, a drag over the distribution)
  toIndex(i) {
    this.index = i;
    this.range.value = i;
    this.exact = null;
    this.moved = true;
    this.show(); // a few texts, a line and two markers: drawn in the frame of the event
    clearTimeout(this.timer);
    if (this.dragging) this.timer = setTimeout(() => this.report(), DRAG_REPORT_MS);
  }

  // an exact threshold with its counts (a key's distinct score, a vertex's threshold)
  toExact(t, text, counts) {
    this.exact = { t, text, counts };
    this.index = this.nearestIndex(t);
    this.range.value = this.index;
    this.moved = true;
    this.show();
  }

  dragTo(e) {
    const rect = this.dist.svg.getBoundingClientRect();
    const x = ((e.clientX - rect.left) * this.dist.width) / rect.width;
    const i = this.dist.indexOf(x, this.data.thresholds.length - 1);
    if (i !== this.index || this.exact) this.toIndex(i);
  }

  // an arrow key: to the next distinct score up or down (the slider's own step, 0.01,
  // changed the matrix once in many presses); the grid's step past MAX_STOPS scores
  onKey(e) {
    const dir = STEP_KEYS[e.key];
    const stops = this.data && this.data.stops;
    if (!dir || !stops) return;
    e.preventDefault();
    const t = this.current().t;
    const k = dir > 0 ? search(stops.t, t, true) : search(stops.t, t, false) - 1;
    if (k < 0 || k >= stops.t.length) return;
    const counts = { tp: stops.tp[k], fp: stops.fp[k], fn: stops.fn[k], tn: stops.tn[k] };
    this.toExact(stops.t[k], stops.labels[k], counts);
  }

  report() {
    clearTimeout(this.timer);
    if (!this.api || !this.moved) return;
    const t = this.current().t;
    if (t === this.lastSent || (this.sent.size === 0 && t === this.data.t)) return;
    this.sent.add(t);
    this.lastSent = t;
    this.api.setStateValue("threshold", { t, at: Date.now() });
  }

  // the pointer's position in the chart's own px
  at(chart, e) {
    const rect = chart.svg.getBoundingClientRect();
    const scale = chart.width / rect.width;
    return [(e.clientX - rect.left) * scale, (e.clientY - rect.top) * scale];
  }

  // a vertex of the selected model's curve moves the threshold here and now; another
  // model's is reported, for the server to select that model
  onClick(chart, e) {
    const hit = chart.nearest(...this.at(chart, e));
    if (!hit || !this.api) return;
    if (hit.counts && hit.model === this.data.model) {
      this.toExact(hit.t, g4(hit.t), hit.counts);
      this.report();
    } else {
      this.api.setTriggerValue("pick", { model: hit.model, t: hit.t });
    }
  }

  destroy() {
    this.resize.disconnect();
    window.removeEventListener("resize", this.onWindow);
    clearTimeout(this.timer);
    window.removeEventListener("pointerup", this.release);
    window.removeEventListener("pointercancel", this.release);
  }
}

export default function operatingPoint({ data, setStateValue, setTriggerValue, parentElement }) {
  let view = parentElement.__operatingPoint;
  const text = JSON.stringify(data.text ?? {});
  if (view && view.text !== text) {
    // another language: the labels built once are built again
    view.destroy();
    view.wrap.remove();
    view = null;
  }
  TEXT = data.text ?? {};
  if (!view) {
    view = new OperatingPoint(parentElement);
    view.text = text;
    parentElement.__operatingPoint = view;
  }
  view.update(data, { setStateValue, setTriggerValue });
  return () => {
    view.destroy();
    delete parentElement.__operatingPoint;
  };
}
