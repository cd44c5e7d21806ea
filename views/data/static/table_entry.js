// The Data page's table-entry component: a blank table typed live (views/data/table_entry.py).
//
// Streamlit components v2: the default export is called on mount and with each new `data`
// (explorer.new_table.entry_data: the column heads, the rows, the names box's label).
// Every cell is a plain <input>: a key goes to the input that has the focus, and Tab,
// Enter and the arrow keys move the focus in the frame of their keydown, so no keystroke
// waits on the server (Streamlit's data grid lost and merged keys typed fast). Nothing is
// sent while typing: Apply sends the whole table once, with setTriggerValue. The cells
// typed are kept per draft (a new "New table" is a new draft), so a re-mount of the
// component (a rerun that redraws the page above it) shows them again.
//
// Keys: Tab / Shift+Tab the next / previous cell (the browser's own order, row by row);
// Enter the next row, in the column where the row's typing began (as a spreadsheet does
// after Tabs), a new row past the last; Shift+Enter the row above; ArrowUp / ArrowDown
// the cell above / below. A cell's text is selected when it takes the focus, so typing
// over it replaces it. A block pasted from a spreadsheet (tabs and line breaks) fills the
// cells from the one pasted into.

const DRAFTS = new Map(); // draft id -> {cells, names}

function html(name, attrs = {}, parent = null, text = null) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// The rows of a pasted block: lines of tab-separated cells (a trailing line break dropped).
export function pastedRows(text) {
  const lines = text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
  return lines.map((line) => line.split("\t"));
}

class TableEntry {
  constructor(parent) {
    for (const old of parent.querySelectorAll(".te")) old.remove(); // a view left by a re-mount
    this.root = html("div", { class: "te" });
    parent.appendChild(this.root);
    this.draft = null;
    this.anchor = 0; // the column where the current row's typing began
    this.tabbing = false;
  }

  update(data, api) {
    this.api = api;
    this.root.classList.toggle("te-present", Boolean(data.present)); // presentation mode
    if (this.draft === data.draft) return; // a rerun: keep the cells and the focus
    this.draft = data.draft;
    this.data = data;
    const width = data.columns.length;
    let saved = DRAFTS.get(data.draft);
    if (!saved || saved.width !== width) {
      const cells = Array.from({ length: data.rows }, () => Array(width).fill(""));
      saved = { cells, names: "", width };
      DRAFTS.set(data.draft, saved);
    }
    this.saved = saved;
    this.build();
  }

  build() {
    const { data } = this;
    this.root.replaceChildren();
    const wrap = html("div", { class: "te-scroll" }, this.root);
    const table = html("table", { class: "te-grid" }, wrap);
    html("caption", { class: "te-caption" }, table, data.caption);
    const head = html("thead", {}, table);
    if (data.groups.length) {
      const tr = html("tr", {}, head);
      html("td", { class: "te-corner" }, tr);
      for (const g of data.groups) html("th", { scope: "colgroup", colspan: g.span }, tr, g.head);
    }
    const tr = html("tr", {}, head);
    html("th", { scope: "col", class: "te-row" }, tr, "row");
    for (const c of data.columns) html("th", { scope: "col" }, tr, c.head);
    this.body = html("tbody", {}, table);
    this.saved.cells.forEach((_, r) => this.addRowElement(r));
    this.body.addEventListener("keydown", (e) => this.onKey(e));
    this.body.addEventListener("focusin", (e) => this.onFocus(e));
    this.body.addEventListener("input", (e) => this.onInput(e));
    this.body.addEventListener("paste", (e) => this.onPaste(e));
    this.body.addEventListener("pointerdown", () => {
      this.tabbing = false;
    });
    this.buildFooter();
  }

  addRowElement(r) {
    const tr = html("tr", {}, this.body);
    html("th", { scope: "row", class: "te-row" }, tr, String(r));
    this.data.columns.forEach((c, j) => {
      const td = html("td", {}, tr);
      const input = html("input", {
        type: "text",
        autocomplete: "off",
        spellcheck: "false",
        "aria-label": `${c.label}, ${this.data.row_word || "row"} ${r}`,
        "data-r": r,
        "data-c": j,
      }, td);
      if (c.numeric) input.setAttribute("inputmode", "decimal");
      input.value = this.saved.cells[r][j];
    });
  }

  buildFooter() {
    const { data } = this;
    const foot = html("div", { class: "te-foot" }, this.root);
    const add = html("button", { type: "button", class: "te-add" }, foot, data.add_label || "Add row");
    add.addEventListener("click", () => this.addRow());
    const id = `te-names-${data.draft}`;
    const names = html("div", { class: "te-names" }, this.root);
    html("label", { for: id }, names, data.names_label);
    this.names = html("input", { id, type: "text", autocomplete: "off" }, names);
    this.names.value = this.saved.names;
    this.names.addEventListener("input", () => {
      this.saved.names = this.names.value;
    });
    this.names.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        this.apply();
      }
    });
    const apply = html("button", { type: "button", class: "te-apply" }, this.root, data.apply_label);
    apply.addEventListener("click", () => this.apply());
  }

  cell(r, c) {
    return this.body.querySelector(`input[data-r="${r}"][data-c="${c}"]`);
  }

  addRow() {
    const cells = this.saved.cells;
    if (cells.length >= this.data.max_rows) return false;
    cells.push(Array(this.data.columns.length).fill(""));
    this.addRowElement(cells.length - 1);
    return true;
  }

  moveTo(r, c) {
    if (r < 0) return;
    if (r >= this.saved.cells.length && !this.addRow()) return;
    this.cell(r, c).focus();
  }

  onKey(e) {
    const t = e.target;
    if (!t.matches("input[data-r]")) return;
    const r = Number(t.dataset.r);
    const c = Number(t.dataset.c);
    if (e.key === "Tab") {
      this.tabbing = true; // the browser moves the focus: the anchor stays
    } else if (e.key === "Enter") {
      e.preventDefault();
      this.moveTo(e.shiftKey ? r - 1 : r + 1, this.anchor);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      this.anchor = c;
      this.moveTo(e.key === "ArrowDown" ? r + 1 : r - 1, c);
    }
  }

  onFocus(e) {
    const t = e.target;
    if (!t.matches("input[data-r]")) return;
    if (!this.tabbing && Number(t.dataset.c) !== this.anchor) this.anchor = Number(t.dataset.c);
    this.tabbing = false;
    t.select();
  }

  onInput(e) {
    const t = e.target;
    if (!t.matches("input[data-r]")) return;
    this.saved.cells[Number(t.dataset.r)][Number(t.dataset.c)] = t.value;
  }

  onPaste(e) {
    const t = e.target;
    const text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (!t.matches("input[data-r]") || !text || !/[\t\n]/.test(text)) return;
    e.preventDefault();
    const r0 = Number(t.dataset.r);
    const c0 = Number(t.dataset.c);
    const width = this.data.columns.length;
    pastedRows(text).forEach((row, i) => {
      if (r0 + i >= this.saved.cells.length && !this.addRow()) return;
      row.slice(0, width - c0).forEach((v, j) => {
        this.saved.cells[r0 + i][c0 + j] = v.trim();
        this.cell(r0 + i, c0 + j).value = v.trim();
      });
    });
  }

  apply() {
    if (!this.api) return;
    const cells = this.saved.cells.map((row) => row.slice());
    this.api.setTriggerValue("apply", { draft: this.draft, cells, names: this.names.value });
  }
}

export default function tableEntry({ data, setTriggerValue, parentElement }) {
  let view = parentElement.__tableEntry;
  if (!view) {
    view = new TableEntry(parentElement);
    parentElement.__tableEntry = view;
  }
  view.update(data, { setTriggerValue });
  return () => {
    delete parentElement.__tableEntry;
  };
}
