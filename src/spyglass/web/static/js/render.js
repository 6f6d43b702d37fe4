// The one table renderer: draws any game from its view and its layout (a list of regions).
// Region kinds (engine/layout.py): cards, pile, count, text, columns, grid, rows, story, map,
// track, banner.
// Every card and every place it draws is registered, so the move controller can highlight
// the ones the legal moves involve and map clicks to moves.

import { cardSVG, richText } from "./cards.js";
import { renderMap } from "./map.js";
import { renderTrack } from "./track.js";
import { renderBanner } from "./banner.js";

export { renderMap };

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    // through the CSSOM: a style attribute would break the server's Content-Security-Policy
    else if (k === "style") node.style.cssText = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function norm(value) {
  return String(value).trim().toLowerCase().replace(/\s+/g, " ");
}

/** The number a label stands for: "seat 2 (you)" -> "2", "Q1" -> "1", "turn 3" -> "3";
 * not "1st" (a number run into a word is not a name). */
export function labelKey(label) {
  const m = /(?:^|[^0-9])(\d+)(?![0-9a-z])/i.exec(String(label ?? ""));
  return m ? m[1] : null;
}

/** The keys an action's target may be found under. */
export function targetKeys(target) {
  if (target === null || target === undefined) return [];
  if (Array.isArray(target)) {
    const keys = [norm(target.join(","))];
    if (target.length) keys.push(norm(target[0]));
    return keys;
  }
  return [norm(target)];
}

export function lookup(table, key) {
  let value = table;
  for (const part of key.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = value[part];
  }
  return value;
}

function empty(value) {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/** What one draw produced: the cards and places on screen, for highlighting and clicks. */
export class Registry {
  constructor() {
    this.cards = []; // {label, el}
    this.places = []; // {keys: {cell, item, col, row, end}, el, name}
    this.stories = []; // {region, story}
  }
  card(label, node) {
    if (label !== null && label !== undefined) this.cards.push({ label: String(label), el: node });
    return node;
  }
  place(node, keys, name) {
    const clean = {};
    for (const [level, list] of Object.entries(keys)) {
      clean[level] = list.filter((k) => k !== null && k !== undefined && k !== "").map(norm);
    }
    this.places.push({ keys: clean, el: node, name });
    if (name !== undefined && name !== null) node.setAttribute("data-place", String(name));
    return node;
  }
  /** The places a target names, at the most specific level where any place has it; last,
   * for a target that is a list (a piece and where it goes), the places registered under
   * ``end`` (map places) that its last item names. */
  placesFor(target) {
    const keys = targetKeys(target);
    if (!keys.length) return [];
    // A list target that ends in a map place (a piece or a value, then where it goes) names
    // that place first: its other items may match other places by chance (a Secret "2" is
    // not seat 2).
    if (Array.isArray(target) && target.length > 1) {
      const last = norm(target[target.length - 1]);
      const ends = this.places.filter((p) => (p.keys.end || []).includes(last));
      if (ends.length) return ends;
    }
    for (const level of ["cell", "item", "col", "row"]) {
      const found = this.places.filter((p) => (p.keys[level] || []).some((k) => keys.includes(k)));
      if (found.length) return found;
    }
    return [];
  }
}

function cardNode(reg, label, extra = "") {
  const wrap = h("span", { class: `cardwrap ${extra}`.trim(), "data-card": label ?? "" });
  wrap.append(cardSVG(label));
  if (label !== null && label !== undefined) reg.card(label, wrap);
  return wrap;
}

function cardRow(reg, cards, cls = "cards") {
  const row = h("div", { class: cls });
  const list = Array.isArray(cards) ? cards : [];
  if (!list.length) row.append(h("span", { class: "none" }, "—"));
  for (const c of list) row.append(cardNode(reg, c));
  return row;
}

function renderCards(reg, value) {
  return cardRow(reg, value || []);
}

function renderPile(reg, region, value) {
  const box = h("div", { class: "pile" });
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const size = value.size ?? 0;
    box.append(size ? cardNode(reg, value.top ?? null) : h("span", { class: "slot" }));
    box.append(h("span", { class: "badge" }, `${size} card${size === 1 ? "" : "s"}`));
    return box;
  }
  const cards = Array.isArray(value) ? value : [];
  if (region.show === "top") {
    box.append(cards.length ? cardNode(reg, cards[cards.length - 1]) : h("span", { class: "slot" }));
  } else {
    const fan = h("div", { class: "fan" });
    if (!cards.length) fan.append(h("span", { class: "slot" }));
    for (const c of cards) fan.append(cardNode(reg, c));
    box.append(fan);
  }
  box.append(h("span", { class: "badge" }, `${cards.length} card${cards.length === 1 ? "" : "s"}`));
  return box;
}

function renderCount(value) {
  const n = Number(value) || 0;
  return h("div", { class: "count" }, h("span", { class: "mini-back", "aria-hidden": "true" }), h("span", { class: "badge" }, `${n} card${n === 1 ? "" : "s"}`));
}

function renderText(reg, value) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const box = h("div", { class: "chips" });
    for (const [k, v] of Object.entries(value)) {
      const chip = h("span", { class: "chip" }, h("span", { class: "chip-key" }, richText(k.replace(/_/g, " "))), " ", h("b", {}, richText(typeof v === "object" ? JSON.stringify(v) : v)));
      reg.place(chip, { item: [k] }, k);
      box.append(chip);
    }
    return box;
  }
  if (Array.isArray(value)) {
    const box = h("div", { class: "chips" });
    for (const v of value) {
      const chip = h("span", { class: "chip" }, richText(v));
      reg.place(chip, { item: [String(v)] }, String(v));
      box.append(chip);
    }
    return box;
  }
  return h("div", { class: "text" }, richText(value ?? "—"));
}

function renderColumns(reg, region, value) {
  const box = h("div", { class: "columns" });
  for (const column of value || []) {
    const title = column.title ?? "";
    const col = h("div", { class: "column" }, h("div", { class: "column-title" }, richText(title)));
    reg.place(col, { col: [title, labelKey(title)] }, String(title));
    for (const part of region.parts || []) {
      col.append(h("div", { class: "part-label" }, part));
      col.append(cardRow(reg, column[part] || [], "stack"));
    }
    box.append(col);
  }
  return box;
}

function renderCell(reg, cell) {
  const node = h("div", { class: "cell" });
  if (cell === null || cell === undefined || cell === "") {
    node.classList.add("cell-empty");
    return node;
  }
  if (typeof cell === "string") {
    node.classList.add("cell-marker");
    node.append(h("span", { class: "marker" }, richText(cell)));
    return node;
  }
  let cards = cell;
  let note = null;
  if (!Array.isArray(cell) && typeof cell === "object") {
    cards = cell.cards || [];
    note = cell.note || null;
    if (cell.style) node.classList.add(`cell-${cell.style}`);
  }
  if (cards.length) {
    const stack = h("div", { class: "cell-stack" });
    // A stack, bottom first: the top card shows whole, the ones under it peek out.
    cards.forEach((c, i) => {
      const card = cardNode(reg, c, i < cards.length - 1 ? "under" : "");
      stack.append(card);
    });
    if (cards.length > 1) stack.append(h("span", { class: "stack-count" }, String(cards.length)));
    node.append(stack);
  }
  if (note) node.append(h("div", { class: "note" }, richText(note)));
  return node;
}

function renderGrid(reg, value) {
  const grid = Array.isArray(value) ? { cells: value } : value || {};
  const rows = grid.cells || [];
  const width = Math.max(0, ...rows.map((r) => r.length));
  const cols = grid.col_labels || null;
  const rowLabels = grid.row_labels || null;
  // The columns are set here: CSS cannot repeat a track zero times (no row labels).
  const tracks = `${rowLabels ? "auto " : ""}repeat(${Math.max(1, width)}, minmax(calc(var(--card-w) + 0.6rem), auto))`;
  const table = h("div", { class: "grid", style: `grid-template-columns:${tracks}` });
  if (cols) {
    if (rowLabels) table.append(h("div", { class: "corner" }));
    for (let c = 0; c < width; c++) {
      const label = cols[c] ?? "";
      const head = h("div", { class: "col-label" }, richText(label));
      reg.place(head, { col: [label, labelKey(label)] }, String(label));
      table.append(head);
    }
  }
  rows.forEach((row, r) => {
    const rowLabel = rowLabels ? rowLabels[r] ?? "" : null;
    if (rowLabels) {
      const head = h("div", { class: "row-label" }, richText(rowLabel));
      reg.place(head, { row: [rowLabel, labelKey(rowLabel)] }, String(rowLabel));
      table.append(head);
    }
    for (let c = 0; c < width; c++) {
      const cell = renderCell(reg, row[c]);
      const colLabel = cols ? cols[c] ?? "" : "";
      const name = `${colLabel}${rowLabel ?? ""}`;
      reg.place(
        cell,
        {
          cell: [name, cols ? null : `${r},${c}`],
          col: cols ? [colLabel, labelKey(colLabel)] : [],
          row: rowLabels ? [rowLabel, labelKey(rowLabel)] : [],
        },
        name || `row ${r + 1}, column ${c + 1}`,
      );
      table.append(cell);
    }
  });
  return h("div", { class: "grid-scroll" }, table);
}

function renderRows(reg, value) {
  const box = h("div", { class: "rows" });
  (value || []).forEach((row, i) => {
    let title = String(i + 1);
    let cards = row;
    let note = null;
    if (row && typeof row === "object" && !Array.isArray(row)) {
      title = row.title ?? title;
      cards = row.cards || [];
      note = row.note || null;
    }
    const line = h("div", { class: "row" }, h("div", { class: "row-title" }, richText(title)), cardRow(reg, cards, "cards row-cards"));
    if (note) line.append(h("div", { class: "note" }, richText(note)));
    reg.place(line, { row: [title, labelKey(title)] }, String(title));
    box.append(line);
  });
  return box;
}

function renderStory(reg, region, value, ctx) {
  const box = h("div", { class: "story" });
  if (!value || typeof value !== "object") {
    box.append(h("span", { class: "none" }, "—"));
    return box;
  }
  box.append(h("span", {}, richText(value.title ?? "")));
  if (value.steps && value.steps.length && ctx.onStory) {
    box.append(h("button", { type: "button", class: "small", onclick: () => ctx.onStory(value) }, `Step through (${value.steps.length} steps)`));
  }
  reg.stories.push({ region, story: value });
  return box;
}

/** Draw one region; null when it hides itself. */
export function renderRegion(reg, region, value, ctx = {}) {
  if (region.hide_empty && empty(value)) return null;
  let body;
  switch (region.kind) {
    case "cards": body = renderCards(reg, value); break;
    case "pile": body = renderPile(reg, region, value); break;
    case "count": body = renderCount(value); break;
    case "text": body = renderText(reg, value); break;
    case "columns": body = renderColumns(reg, region, value); break;
    case "grid": body = renderGrid(reg, value); break;
    case "rows": body = renderRows(reg, value); break;
    case "story": body = renderStory(reg, region, value, ctx); break;
    case "map": body = renderMap(reg, value); break;
    case "track": body = renderTrack(value); break;
    case "banner": body = renderBanner(value); break;
    default: body = h("pre", {}, JSON.stringify(value, null, 1));
  }
  const section = h("section", { class: `region region-${region.kind}`, "data-key": region.key });
  if (region.label) section.append(h("h3", {}, region.label));
  section.append(body);
  return section;
}

/** Draw a whole table; returns the registry of what was drawn. */
export function renderTable(container, view, layout, ctx = {}) {
  const reg = new Registry();
  const table = (view && view.table) || {};
  const box = h("div", { class: "regions" });
  for (const region of layout) {
    const node = renderRegion(reg, region, lookup(table, region.key), ctx);
    if (node) box.append(node);
  }
  container.replaceChildren(box);
  reg.root = box;
  return reg;
}
