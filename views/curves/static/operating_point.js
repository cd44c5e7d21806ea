// The operating point of the ROC & PR curves page, moved in the browser.
//
// Streamlit components v2 (views/curves/operating_point.py): the default export is called on
// mount and again with each new `data` (explorer/charts/operating_point.py builds it),
// which updates the one view kept on the shadow root (no re-mount). The slider moves
// the marker on both curves and the confusion matrix in the frame of its input event,
// from the counts at every slider position; on release (key up, pointer up, and every
// 250 ms of a drag) it reports the threshold with setStateValue, so the page's fragment
// reruns and the server's numbers follow. A click near a curve vertex reports that
// model and threshold with setTriggerValue. No network, no plotly.

const SVG = "http://www.w3.org/2000/svg";
const CHART_TEXT = "#31333f";
const OPERATING = "#D55E00";
const SKY = [0x56, 0xb4, 0xe9];
const DRAG_REPORT_MS = 250;
const PICK_PX = 12;
const MAX_MARKERS = 300;

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
    this.svg = el("svg", { role: "img", "aria-label": kind === "roc" ? "ROC curve" : "Precision-recall curve" }, this.box);
    this.width = 0;
  }

  layout(width, px) {
    const height = Math.round(Math.min(360, Math.max(240, width * 0.92)));
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
    text(this.m.l, 4 + px * 1.15, roc ? "ROC curve" : "Precision-recall curve", {
      "font-size": Math.round(px * 1.25),
      "font-weight": 600,
    });
    // axes, grid and ticks
    const x0 = this.sx(0), x1 = this.sx(1), y0 = this.sy(0), y1 = this.sy(1);
    for (let k = 0; k <= 5; k++) {
      const v = k / 5;
      el("line", { x1: this.sx(v), x2: this.sx(v), y1: this.sy(-0.02), y2: this.sy(1.02), stroke: "#e6e6e6" }, svg);
      el("line", { x1: this.sx(-0.02), x2: this.sx(1.02), y1: this.sy(v), y2: this.sy(v), stroke: "#e6e6e6" }, svg);
      text(this.sx(v), this.height - this.m.b + px + 4, v.toFixed(1), { "text-anchor": "middle" });
      text(this.m.l - 5, this.sy(v) + px * 0.35, v.toFixed(1), { "text-anchor": "end" });
    }
    el("rect", { x: this.sx(-0.02), y: this.sy(1.02), width: this.sx(1.02) - this.sx(-0.02),
      height: this.sy(-0.02) - this.sy(1.02), fill: "none", stroke: "#8a8a8a" }, svg);
    text((x0 + x1) / 2, this.height - 6, roc ? "False positive rate (FPR)" : "Recall", { "text-anchor": "middle" });
    const ytitle = text(0, 0, roc ? "True positive rate (TPR)" : "Precision", { "text-anchor": "middle" });
    ytitle.setAttribute("transform", `translate(${px + 2}, ${(y0 + y1) / 2}) rotate(-90)`);
    // chance
    const chance = roc ? [[0, 0], [1, 1]] : [[0, data.prevalence], [1, data.prevalence]];
    el("path", { d: `M${this.sx(chance[0][0])},${this.sy(chance[0][1])}L${this.sx(chance[1][0])},${this.sy(chance[1][1])}`,
      stroke: "#8a8a8a", "stroke-dasharray": "5,4", fill: "none" }, svg);
    // the models' curves
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
      this.lines.push({ name: line.name, xs, ys, t: c.t, x: c.x, y: c.y });
    }
    // legend, in the corner the curves leave empty
    const rows = [roc ? "chance (random scores)" : `chance (prevalence ${data.prevalence.toFixed(3)})`]
      .concat(data.lines.map((l) => `${l.name} (${roc ? "AUC" : "AP"} ${roc ? l.auc : l.ap})`));
    const colors = ["#8a8a8a"].concat(data.lines.map((l) => l.color));
    const lh = px * 1.35;
    const widest = Math.max(...rows.map((r) => r.length)) * px * 0.56 + 30;
    const lx = roc ? this.sx(1) - widest - 4 : this.sx(0) + 4;
    const ly = this.sy(0) - rows.length * lh - 6;
    el("rect", { x: lx, y: ly, width: widest, height: rows.length * lh + 6, fill: "rgba(255,255,255,0.85)" }, svg);
    rows.forEach((r, k) => {
      const y = ly + 3 + lh * (k + 0.5);
      el("line", { x1: lx + 4, x2: lx + 22, y1: y, y2: y, stroke: colors[k], "stroke-width": 2,
        "stroke-dasharray": k === 0 ? "5,4" : "none" }, svg);
      text(lx + 26, y + px * 0.35, r);
    });
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
    text.textContent = `${hit.model}: threshold ${t}, ${roc ? "FPR" : "recall"} ${hit.x.toFixed(3)}, ${roc ? "TPR" : "precision"} ${hit.y.toFixed(3)}`;
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

  // the curve vertex nearest to (x, y) in px, within PICK_PX: {model, t, ...} or null;
  // the +inf vertex (t null) only for a hover (a click on it moves nothing)
  nearest(x, y, any = false) {
    let best = null;
    let bestD = PICK_PX * PICK_PX;
    for (const line of this.lines) {
      for (let i = 0; i < line.xs.length; i++) {
        const dx = line.xs[i] - x, dy = line.ys[i] - y;
        const d = dx * dx + dy * dy;
        if (d <= bestD && (any || line.t[i] !== null)) {
          bestD = d;
          best = { model: line.name, t: line.t[i], px: line.xs[i], py: line.ys[i],
            x: line.x[i], y: line.y[i] };
        }
      }
    }
    return best;
  }
}

// ------------------------------------------------------------------ the component
const RATE_ROWS = [
  ["precision", "Precision"],
  ["recall", "Recall (TPR)"],
  ["fpr", "FPR"],
  ["f1", "F1"],
  ["fbeta", "F-beta"],
  ["accuracy", "Accuracy"],
  ["error_rate", "Error rate"],
];
const CELLS = [["tp", "TP"], ["fn", "FN"], ["fp", "FP"], ["tn", "TN"]];

class OperatingPoint {
  constructor(root) {
    this.root = root;
    this.wrap = html("div", { class: "op" }, root);
    const row = html("div", { class: "op-slider" }, this.wrap);
    const label = html("label", { for: "op-threshold" }, row);
    label.textContent = "Threshold";
    this.range = html("input", { id: "op-threshold", type: "range", min: 0, step: 1, "data-testid": "opSlider" }, row);
    this.out = html("output", { for: "op-threshold", "data-op": "threshold" }, row);
    this.note = html("span", { class: "op-note" }, row);
    const grid = html("div", { class: "op-grid" }, this.wrap);
    this.grid = grid;
    this.roc = new Chart(grid, "roc");
    this.pr = new Chart(grid, "pr");
    this.side = html("div", { class: "op-side" }, grid);
    this.buildSide();
    this.index = 0;
    this.exact = null; // the server's threshold and counts, while the slider is untouched
    this.sent = new Set();
    this.lastSent = null;
    this.dragging = false;
    this.timer = 0;
    this.range.addEventListener("input", () => this.onInput());
    this.range.addEventListener("change", () => this.report());
    this.range.addEventListener("keyup", () => this.report());
    this.release = () => {
      this.dragging = false;
      window.removeEventListener("pointerup", this.release);
      window.removeEventListener("pointercancel", this.release);
      this.report();
    };
    this.range.addEventListener("pointerdown", () => {
      this.dragging = true; // until the pointer is released, wherever that is
      window.addEventListener("pointerup", this.release);
      window.addEventListener("pointercancel", this.release);
    });
    for (const chart of [this.roc, this.pr]) {
      chart.svg.addEventListener("click", (e) => this.onClick(chart, e));
      chart.svg.addEventListener("mousemove", (e) => chart.hover(...this.at(chart, e)));
      chart.svg.addEventListener("mouseleave", () => chart.hover(-1e9, -1e9));
    }
    this.resize = new ResizeObserver(() => this.layout());
    this.resize.observe(this.wrap);
  }

  buildSide() {
    const side = this.side;
    const table = html("table", { class: "op-cm", "aria-label": "Confusion matrix" }, side);
    const head = html("tr", {}, table);
    for (const h of ["", "predicted 1", "predicted 0"]) html("th", { scope: "col" }, head).textContent = h;
    this.cells = {};
    for (const [r, pair] of [["actual 1", CELLS.slice(0, 2)], ["actual 0", CELLS.slice(2)]]) {
      const tr = html("tr", {}, table);
      html("th", { scope: "row" }, tr).textContent = r;
      for (const [key, name] of pair) {
        const td = html("td", { "data-cell": name }, tr);
        html("span", { class: "op-cell-name" }, td).textContent = name;
        const count = html("span", { class: "op-count", "data-op": name }, td);
        const rate = html("span", { class: "op-rate", "data-op": `${name}-rate` }, td);
        this.cells[key] = { td, count, rate };
      }
    }
    this.normNote = html("div", { class: "op-norm" }, side);
    const dl = html("dl", { class: "op-rates" }, side);
    this.rates = {};
    for (const [key, name] of RATE_ROWS) {
      const div = html("div", {}, dl);
      const dt = html("dt", {}, div);
      dt.textContent = name;
      this.rates[key] = { dt, dd: html("dd", { "data-op": key }, div) };
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
    }
    // the threshold the server ran with: an echo of one this slider reported keeps the
    // slider where the user has moved it since; anything else (the number box, a
    // candidate button, a click on a curve) moves it
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
    this.rates.fbeta.dt.textContent = `F-beta (β = ${data.beta_text})`;
    this.normNote.textContent = `Rates in brackets: ${data.norm_text}`;
    if (fresh || !old || old.candidates_id !== data.candidates_id || !this.width) this.layout(true);
    else this.show();
  }

  nearestIndex(t) {
    const ts = this.data.thresholds;
    let best = 0;
    for (let i = 1; i < ts.length; i++) if (Math.abs(ts[i] - t) < Math.abs(ts[best] - t)) best = i;
    return best;
  }

  layout(force = false) {
    const width = this.wrap.clientWidth;
    if (!this.data || !width || (!force && width === this.width)) return;
    this.width = width;
    const px = this.data.present ? 16 : 12;
    const narrow = width < 720;
    this.wrap.classList.toggle("narrow", narrow);
    const chartWidth = narrow ? width : Math.floor((width - 24) / 2.85);
    this.grid.style.gridTemplateColumns = narrow ? "1fr" : `${chartWidth}px ${chartWidth}px 1fr`;
    for (const chart of [this.roc, this.pr]) {
      chart.layout(chartWidth, px);
      chart.draw(this.data);
    }
    this.show();
  }

  // the counts at the slider's position (or the server's exact threshold)
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
    const above = cur.t > d.top ? " (above every score: nothing predicted positive)" : "";
    this.out.textContent = cur.text;
    this.range.setAttribute("aria-valuetext", cur.text);
    this.note.textContent = `predicted positive when score ≥ ${cur.text}${above}`;
    const point = { fpr: r.fpr, tpr: r.tpr, recall: r.recall, precision: r.precision };
    if (!this.roc.point || !this.pr.point || this.marked !== d.candidates_id) {
      this.roc.mark(d.candidates, point);
      this.pr.mark(d.candidates, point);
    } else {
      this.roc.movePoint(point);
      this.pr.movePoint(point);
    }
    this.marked = d.candidates_id;
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

  onInput() {
    this.index = Number(this.range.value);
    this.exact = null;
    this.moved = true;
    this.show(); // a few texts and two markers: drawn in the frame of the input
    clearTimeout(this.timer);
    if (this.dragging) this.timer = setTimeout(() => this.report(), DRAG_REPORT_MS);
  }

  report() {
    clearTimeout(this.timer);
    if (this.exact || !this.api) return;
    const t = this.data.thresholds[this.index];
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

  onClick(chart, e) {
    const hit = chart.nearest(...this.at(chart, e));
    if (hit && this.api) this.api.setTriggerValue("pick", { model: hit.model, t: hit.t });
  }

  destroy() {
    this.resize.disconnect();
    clearTimeout(this.timer);
    window.removeEventListener("pointerup", this.release);
    window.removeEventListener("pointercancel", this.release);
  }
}

export default function operatingPoint({ data, setStateValue, setTriggerValue, parentElement }) {
  let view = parentElement.__operatingPoint;
  if (!view) {
    view = new OperatingPoint(parentElement);
    parentElement.__operatingPoint = view;
  }
  view.update(data, { setStateValue, setTriggerValue });
  return () => {
    view.destroy();
    delete parentElement.__operatingPoint;
  };
}
