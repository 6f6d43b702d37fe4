// Cards drawn as SVG: the standard deck (10♥, JK, 7♠#2), the Decktet (labels such as
// "Merchant 9 ❦⌘") and face-down cards (null). Nothing is fetched: every card is built here.
// Every colour on a card face reads at 4.5:1 or better against it; in text, suits are coloured
// by class, so the style sheet gives them a dark shade on light panels and a light one on the
// felt (and a suit never relies on its colour alone: its symbol is there).

import { shown } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const STANDARD = /^(10|[2-9AJQK])([♠♥♦♣])(?:#(\d+))?$/;
const JOKER = /^JK(\d)?(?:#(\d+))?$/;
export const SUIT_NAMES = { "♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs" };
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };
export const DECKTET_SUITS = {
  "☾": { name: "Moons", colour: "#3553b8" },
  "☼": { name: "Suns", colour: "#865a00" },
  "≈": { name: "Waves", colour: "#0a6a70" },
  "❦": { name: "Leaves", colour: "#2a6d2d" },
  "∿": { name: "Wyrms", colour: "#b3261e" },
  "⌘": { name: "Knots", colour: "#7b3f98" },
};
const DECKTET_SYMBOL = new RegExp(`^[${Object.keys(DECKTET_SUITS).join("")}]+$`);
const DECKTET_RANKS = new Set(["2", "3", "4", "5", "6", "7", "8", "9", "Pawn", "Court", "Crown"]);

/** What a card notation or label denotes. */
export function parseCard(text) {
  if (text === null || text === undefined) return { type: "back" };
  const s = String(text);
  let m = STANDARD.exec(s);
  if (m) return { type: "standard", rank: m[1], suit: m[2], deck: m[3] ? Number(m[3]) : 1 };
  m = JOKER.exec(s);
  if (m) return { type: "joker", number: m[1] ? Number(m[1]) : 1, deck: m[2] ? Number(m[2]) : 1 };
  if (s === "Excuse") return { type: "decktet", name: "Excuse", rank: "", suits: [] };
  const words = s.split(" ");
  if (words.length >= 2 && DECKTET_SYMBOL.test(words[words.length - 1])) {
    const suits = [...words.pop()];
    let rank = "A";
    if (words.length >= 2 && DECKTET_RANKS.has(words[words.length - 1])) rank = words.pop();
    return { type: "decktet", name: words.join(" "), rank, suits };
  }
  return { type: "text", text: s };
}

/** A sentence for screen readers and tooltips. */
export function cardName(text) {
  const c = parseCard(text);
  switch (c.type) {
    case "back": return "face-down card";
    case "standard": {
      const rank = RANK_NAMES[c.rank] || c.rank;
      return `${rank} of ${SUIT_NAMES[c.suit]}${c.deck > 1 ? ` (deck ${c.deck})` : ""}`;
    }
    case "joker": return `joker${c.number > 1 ? " " + c.number : ""}`;
    case "decktet": {
      if (!c.suits.length) return "the Excuse";
      const suits = c.suits.map((s) => DECKTET_SUITS[s].name).join(" and ");
      return c.rank === "A" ? c.name : `${c.name}, ${c.rank} of ${suits}`;
    }
    default: return c.text;
  }
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function frame(svg, fill, stroke = "#555") {
  svg.append(el("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, fill, stroke, "stroke-width": 2.5, class: "card-edge" }));
}

function standard(svg, c) {
  const red = c.suit === "♥" || c.suit === "♦";
  const colour = red ? "#c0181f" : "#1c1c1c";
  frame(svg, "#fffdf8");
  const g = el("g", { fill: colour, "font-family": "Georgia, 'DejaVu Serif', serif", "font-weight": "700" });
  g.append(el("text", { x: 10, y: 30, "font-size": 26 }, c.rank));
  g.append(el("text", { x: 10, y: 54, "font-size": 22 }, c.suit));
  const flipped = el("g", { transform: "rotate(180 50 70)" });
  flipped.append(el("text", { x: 10, y: 30, "font-size": 26 }, c.rank));
  flipped.append(el("text", { x: 10, y: 54, "font-size": 22 }, c.suit));
  g.append(flipped);
  if ("JQK".includes(c.rank)) {
    g.append(el("rect", { x: 30, y: 34, width: 40, height: 72, rx: 4, fill: "none", stroke: colour, "stroke-width": 1.5 }));
    g.append(el("text", { x: 50, y: 78, "font-size": 40, "text-anchor": "middle" }, c.rank));
    g.append(el("text", { x: 50, y: 100, "font-size": 18, "text-anchor": "middle" }, c.suit));
  } else {
    g.append(el("text", { x: 50, y: 88, "font-size": 52, "text-anchor": "middle" }, c.suit));
  }
  svg.append(g);
  if (c.deck > 1) deckMark(svg, c.deck);
}

function deckMark(svg, deck) {
  svg.append(el("text", { x: 50, y: 126, "font-size": 13, "text-anchor": "middle", fill: "#666", "font-family": "sans-serif" }, `deck ${deck}`));
}

function joker(svg, c) {
  frame(svg, "#fffdf8");
  const g = el("g", { fill: "#6a2a8c", "font-family": "sans-serif", "font-weight": "700", "text-anchor": "middle" });
  g.append(el("text", { x: 50, y: 40, "font-size": 20 }, "JOKER"));
  g.append(el("text", { x: 50, y: 92, "font-size": 50 }, "★"));
  if (c.number > 1) g.append(el("text", { x: 50, y: 116, "font-size": 16 }, String(c.number)));
  svg.append(g);
  if (c.deck > 1) deckMark(svg, c.deck);
}

function wrap(name, width) {
  const words = name.split(" ");
  const lines = [];
  let line = "";
  for (const w of words) {
    if (line && (line + " " + w).length > width) { lines.push(line); line = w; }
    else line = line ? line + " " + w : w;
  }
  if (line) lines.push(line);
  return lines.slice(0, 2);
}

function decktet(svg, c) {
  frame(svg, "#f7f0dc", "#6b5a3a");
  const rank = { Pawn: "P", Court: "C", Crown: "★", A: "A", "": "" }[c.rank] ?? c.rank;
  svg.append(el("text", { x: 10, y: 28, "font-size": 24, "font-weight": 700, fill: "#3b2f1a", "font-family": "Georgia, serif" }, rank || "✕"));
  c.suits.forEach((s, i) => {
    svg.append(el("text", { x: 88, y: 26 + i * 20, "font-size": 19, "text-anchor": "middle", fill: DECKTET_SUITS[s].colour }, s));
  });
  const n = c.suits.length;
  const big = n === 1 ? 50 : n === 2 ? 36 : 28;
  c.suits.forEach((s, i) => {
    const x = 50 + (i - (n - 1) / 2) * (n === 3 ? 26 : 30);
    svg.append(el("text", { x, y: 84, "font-size": big, "text-anchor": "middle", fill: DECKTET_SUITS[s].colour }, s));
  });
  if (!n) svg.append(el("text", { x: 50, y: 84, "font-size": 36, "text-anchor": "middle", fill: "#6b5a3a" }, "∅"));
  const lines = wrap(c.name, 12);
  lines.forEach((line, i) => {
    svg.append(el("text", { x: 50, y: 112 + i * 14 - (lines.length - 1) * 7, "font-size": 13, "text-anchor": "middle", fill: "#3b2f1a", "font-family": "Georgia, serif", "font-weight": 700 }, line));
  });
}

function back(svg) {
  frame(svg, "#27457a", "#1b2f52");
  svg.append(el("rect", { x: 10, y: 10, width: 80, height: 120, rx: 5, fill: "none", stroke: "#9fb6dd", "stroke-width": 2 }));
  for (let i = 0; i < 7; i++) {
    svg.append(el("line", { x1: 10, y1: 20 + i * 16, x2: 90, y2: 36 + i * 16, stroke: "#3d5f99", "stroke-width": 3 }));
  }
  svg.append(el("circle", { cx: 50, cy: 70, r: 16, fill: "#27457a", stroke: "#9fb6dd", "stroke-width": 2 }));
  svg.append(el("circle", { cx: 50, cy: 70, r: 6, fill: "#9fb6dd" }));
}

function textCard(svg, c) {
  frame(svg, "#ffffff", "#999");
  const lines = wrap(c.text, 9);
  lines.forEach((line, i) => {
    svg.append(el("text", { x: 50, y: 74 + i * 18 - (lines.length - 1) * 9, "font-size": 16, "text-anchor": "middle", fill: "#333", "font-family": "sans-serif" }, line));
  });
}

/** An <svg> element drawing one card (null: face down). */
export function cardSVG(text) {
  const c = parseCard(text);
  const svg = el("svg", { viewBox: "0 0 100 140", class: `card card-${c.type}`, role: "img" });
  const name = cardName(text);
  svg.setAttribute("aria-label", name);
  svg.append(el("title", {}, text === null || text === undefined ? name : `${text} (${name})`));
  ({ standard, joker, decktet, back, text: textCard })[c.type](svg, c);
  return svg;
}

/** The names of the table's seats on screen, where they differ from "seat N" (people's, and
 * bots given a name); set by the table page. */
let seatNames = [];

/** Name the seats in the texts drawn from now on (``names``: every seat's name, in order);
 * returns whether anything changed. */
export function setSeatNames(names) {
  const next = names.map((name, seat) => (name && !name.startsWith(`seat ${seat}`) ? name : null));
  const changed = JSON.stringify(next) !== JSON.stringify(seatNames);
  seatNames = next;
  return changed;
}

/** ``text`` with each "seat N" of a named seat replaced by its name, as the server's
 * names.named does: the games' logs, boards and results count seats, people read names. It
 * is safe because no name may read as a seat. */
export function named(text) {
  if (!seatNames.length) return text;
  return text.replace(/\bseat (\d+)\b/g, (whole, n) => seatNames[Number(n)] ?? whole);
}

const INLINE = /(10|[2-9AJQK])([♠♥♦♣])(#\d+)?|[☾☼≈❦∿⌘]|▒+/g;

/** Text with card notations coloured (red suits red, Decktet suits in their colours) and a
 * face-down card's shading (▒▒) spoken as what it is. */
export function richText(text) {
  const out = document.createDocumentFragment();
  const s = named(String(text ?? ""));
  let last = 0;
  for (const m of s.matchAll(INLINE)) {
    if (m.index > last) out.append(s.slice(last, m.index));
    if (m[0][0] === "▒") {
      out.append(...shown(m[0], "face-down card"));
    } else {
      const span = document.createElement("span");
      span.textContent = m[0];
      if (m[2]) span.className = m[2] === "♥" || m[2] === "♦" ? "suit-red" : "suit-black";
      else span.className = `suit-${DECKTET_SUITS[m[0]].name.toLowerCase()}`;
      out.append(span);
    }
    last = m.index + m[0].length;
  }
  if (last < s.length) out.append(s.slice(last));
  return out;
}
