// The one table renderer: draws any game from its view and its layout (a list of regions).
// Region kinds (engine/layout.py): cards, pile, count, text, columns, grid, rows, story, map,
// track, banner.
// Every card and every place it draws is registered, so the move controller can highlight
// the ones the legal moves involve, map clicks to moves, and give each a spoken name.
// A Board draws a table again and again: a region whose value has not changed keeps its
// elements (and the keyboard focus in it); the others are drawn anew.

import { cardSVG, richText } from "./cards.js";
import { h, scrollBox } from "./dom.js";
import { renderMap } from "./map.js";
import { renderTrack } from "./track.js";
import { renderBanner } from "./banner.js";

export { h, renderMap };

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
    this.places = []; // {keys: {cell, item, col, row, end}, el, name, handle, where}
    this.stories = []; // {region, story}
    this.root = null;
  }
  card(label, node) {
    if (label !== null && label !== undefined) this.cards.push({ label: String(label), el: node });
    return node;
  }
  /** A place moves can target, registered under its keys and named ``name``. Options:
   * ``handle``, the element inside it that becomes the button for the keyboard and screen
   * readers (default: the place itself; a row's or a column's title, so the cards in it stay
   * buttons of their own and no button holds another); ``where``, words a screen reader says
   * before the place's content when the content does not name the place (a grid cell). */
  place(node, keys, name, { handle = node, where = null } = {}) {
    const clean = {};
    for (const [level, list] of Object.entries(keys)) {
      clean[level] = list.filter((k) => k !== null && k !== undefined && k !== "").map(norm);
    }
    this.places.push({ keys: clean, el: node, name, handle, where });
    if (name !== undefined && name !== null) {
      node.setAttribute("data-place", String(name));
      if (handle !== node) handle.setAttribute("data-handle", String(name));
    }
    return node;
  }
  /** Take in what another registry holds (a region's), after what this one has. */
  absorb(other) {
    this.cards.push(...other.cards);
    this.places.push(...other.places);
    this.stories.push(...other.stories);
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
  const box = scrollBox(h("div", { class: "columns" }), "the columns, scrolled sideways");
  for (const column of value || []) {
    const title = column.title ?? "";
    const head = h("div", { class: "column-title" }, richText(title));
    const col = h("div", { class: "column" }, head);
    reg.place(col, { col: [title, labelKey(title)] }, String(title), { handle: head });
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
  const table = h("div", { class: "grid", style: { gridTemplateColumns: tracks } });
  if (cols) {
    if (rowLabels) table.append(h("div", { class: "corner" }));
    for (let c = 0; c < width; c++) {
      const label = cols[c] ?? "";
      const head = h("div", { class: "col-label" }, richText(label));
      reg.place(head, { col: [label, labelKey(label)] }, String(label), { where: label === "" ? `column ${c + 1}` : null });
      table.append(head);
    }
  }
  rows.forEach((row, r) => {
    const rowLabel = rowLabels ? rowLabels[r] ?? "" : null;
    if (rowLabels) {
      const head = h("div", { class: "row-label" }, richText(rowLabel));
      reg.place(head, { row: [rowLabel, labelKey(rowLabel)] }, String(rowLabel), { where: rowLabel === "" ? `row ${r + 1}` : null });
      table.append(head);
    }
    for (let c = 0; c < width; c++) {
      const cell = renderCell(reg, row[c]);
      const colLabel = cols ? cols[c] ?? "" : "";
      const name = `${colLabel}${rowLabel ?? ""}`;
      // spoken: the column's and the row's names apart ("seat 2, turn 1"), then the content
      const where = [colLabel, rowLabel].filter((x) => x !== null && x !== "").join(", ") || `row ${r + 1}, column ${c + 1}`;
      reg.place(
        cell,
        {
          cell: [name, cols ? null : `${r},${c}`],
          col: cols ? [colLabel, labelKey(colLabel)] : [],
          row: rowLabels ? [rowLabel, labelKey(rowLabel)] : [],
        },
        name || `row ${r + 1}, column ${c + 1}`,
        { where: `${where}: ${cell.classList.contains("cell-empty") ? "empty" : ""}`.trim() },
      );
      table.append(cell);
    }
  });
  return scrollBox(h("div", { class: "grid-scroll" }, table), "the grid, scrolled sideways");
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
    const head = h("div", { class: "row-title" }, richText(title));
    const line = h("div", { class: "row" }, head, cardRow(reg, cards, "cards row-cards"));
    if (note) line.append(h("div", { class: "note" }, richText(note)));
    reg.place(line, { row: [title, labelKey(title)] }, String(title), { handle: head });
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
  const section = h("section", { class: `region region-${region.kind}`, "data-key": region.key, tabindex: "-1" });
  if (region.label) {
    const id = `region-${String(region.key).replace(/[^a-z0-9_-]/gi, "-")}`;
    section.setAttribute("aria-labelledby", id);
    section.append(h("h2", { class: "region-title", id }, richText(region.label)));
  } else {
    section.setAttribute("aria-label", String(region.key).replace(/_/g, " "));
  }
  section.append(body);
  return section;
}

/** A table drawn again at every state: regions whose value is the same keep their elements. */
export class Board {
  constructor(container, layout, ctx = {}) {
    this.layout = layout;
    this.ctx = ctx;
    this.root = h("div", { class: "regions" });
    this.parts = [];
    container.replaceChildren(this.root);
  }

  /** Draw ``view``; returns the registry of everything on the board. */
  draw(view) {
    const table = (view && view.table) || {};
    const reg = new Registry();
    reg.root = this.root;
    const nodes = [];
    this.layout.forEach((region, i) => {
      const value = lookup(table, region.key);
      const json = JSON.stringify(value === undefined ? null : value);
      let part = this.parts[i];
      if (!part || part.json !== json) {
        const own = new Registry();
        part = { json, node: renderRegion(own, region, value, this.ctx), reg: own };
        this.parts[i] = part;
      }
      if (part.node) {
        nodes.push(part.node);
        reg.absorb(part.reg);
      }
    });
    // Only what changed moves: a region kept in place keeps the focus it holds.
    const keep = new Set(nodes);
    for (const child of [...this.root.children]) if (!keep.has(child)) child.remove();
    nodes.forEach((node, i) => {
      const here = this.root.children[i];
      if (here !== node) this.root.insertBefore(node, here || null);
    });
    return reg;
  }
}

/** Draw a whole table once; returns the registry of what was drawn. */
export function renderTable(container, view, layout, ctx = {}) {
  return new Board(container, layout, ctx).draw(view);
}
