// The map region: places at their coordinates, routes between them, pieces at the places.
//
// Positions follow the map's own box (the SVG's viewBox, scaled to the page), but every mark
// has a fixed size on the screen: a place's dot and label, a piece's token, a route's stroke.
// So a map of 120 places reads as well as one of three, at any width. Each place's marks sit
// in a group scaled by the map units per screen pixel, recomputed whenever the drawing changes
// size. At that scale, places whose dots would touch are nudged apart by a few pixels, and a
// label that would cover another label, a dot or a piece is hidden until the place is hovered,
// focused, or outlined as a move's target (the <title> of every place names it too).

import { h, scrollBox, svg } from "./dom.js";

/** Piece colours by owner, for pieces whose view gives no colour of their own. */
export const PIECE_COLOURS = ["#c0392b", "#2471a3", "#229954", "#b7950b", "#7d3c98", "#ca6f1e", "#17a589", "#5d6d7e"];

/** Screen sizes in CSS pixels. */
export const SIZES = {
  dot: 4, // a place's dot (radius)
  bigDot: 5.5, // a capital's (a place of style "capital")
  area: 13, // the shaded disc of a sea zone (style "sea")
  gap: 1.5, // the least space between two dots
  label: 10, // a place's name (font size)
  piece: 9, // a piece's label (font size, monospace)
  pieceHeight: 12,
  perColumn: 5, // pieces stacked beside a place before a second column starts
  guessWidth: 880, // the drawing's width before the page has laid it out
};

/** How each kind of route is drawn (stroke colour, width in pixels, dashes in pixels). */
const ROUTE_LOOKS = {
  rail: { stroke: "#4a3b22", width: 1.6, dash: null, name: "rail" },
  road: { stroke: "#8b7750", width: 1.6, dash: null, name: "road" },
  air: { stroke: "#6a3d9a", width: 1.2, dash: [6, 4], name: "air" },
  sea: { stroke: "#1f78b4", width: 1.4, dash: [2, 3], name: "sea" },
  port: { stroke: "#1f78b4", width: 1.2, dash: [1.5, 2.5], name: "port" },
  lane: { stroke: "#1f78b4", width: 2.2, dash: [9, 4], name: "sea lane" },
  dashed: { stroke: "#7b6a48", width: 1.2, dash: [4, 3], name: "dashed" },
};
/** Looks for route styles of other names, handed out in order of first appearance. */
const OTHER_LOOKS = [
  { stroke: "#7b6a48", width: 1.4, dash: null },
  { stroke: "#b03060", width: 1.4, dash: [5, 2, 1, 2] },
  { stroke: "#2e7d32", width: 1.4, dash: [8, 3] },
  { stroke: "#ef6c00", width: 1.4, dash: [2, 2] },
];
/** Place styles drawn as a shaded area round a small mark (a sea zone, an ocean). */
const AREA_STYLES = new Set(["sea", "ocean", "lake", "area", "zone"]);

function html(tag, cls, ...children) {
  return h(tag, { class: cls }, ...children);
}

/** The look of every route style on the map, by style. */
export function routeLooks(routes) {
  const looks = new Map();
  let other = 0;
  for (const route of routes) {
    const style = String(route.style || "");
    if (looks.has(style)) continue;
    const known = ROUTE_LOOKS[style];
    looks.set(style, known || { ...OTHER_LOOKS[other++ % OTHER_LOOKS.length], name: style || "route" });
  }
  return looks;
}

function isArea(place) {
  return AREA_STYLES.has(String(place.style || ""));
}

function dotRadius(place) {
  if (place.style === "capital") return SIZES.bigDot;
  return SIZES.dot;
}

/** Black or white, whichever reads better on ``colour`` (a #rgb or #rrggbb colour). */
function inkOn(colour) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(String(colour));
  if (!m) return "#fff";
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.6 ? "#111" : "#fff";
}

function pieceColour(piece) {
  if (piece.colour) return String(piece.colour);
  const owner = piece.owner;
  return owner === null || owner === undefined ? "#444" : PIECE_COLOURS[Number(owner) % PIECE_COLOURS.length];
}

/** A label's width on screen: exact for the pieces' monospace, a little generous for the
 * places' sans-serif (the layout runs before the text can be measured). */
function textWidth(text, size, perChar = 0.6) {
  return String(text).length * size * perChar;
}

/** Place names are sans-serif: wide letters ("Strasbourg") run past 0.6 of the font size. */
const SANS_PER_CHAR = 0.7;

/** The pieces at one place as tokens in columns beside its dot (local pixel units), and the
 * size of that block. */
function pieceTokens(pieces) {
  const group = svg("g", { class: "pieces" });
  const h = SIZES.pieceHeight;
  let x = 0;
  let height = 0;
  for (let start = 0; start < pieces.length; start += SIZES.perColumn) {
    const column = pieces.slice(start, start + SIZES.perColumn);
    const widths = column.map((p) => Math.max(12, textWidth(p.label ?? "", SIZES.piece) + 6));
    const width = Math.max(...widths);
    const top = (-column.length * h) / 2;
    column.forEach((piece, i) => {
      const fill = pieceColour(piece);
      const owner = piece.owner;
      const label = String(piece.label ?? "");
      const token = svg("g", { class: "piece", "data-piece": label });
      token.append(svg("title", {}, `${label || "piece"}${owner !== undefined && owner !== null ? ` (seat ${owner})` : ""}`));
      const y = top + i * h;
      token.append(svg("rect", { x, y: y + 0.5, width: widths[i], height: h - 1, rx: 3, fill, class: "piece-token" }));
      if (label) {
        token.append(svg("text", { x: x + widths[i] / 2, y: y + h / 2 + SIZES.piece * 0.35, "font-size": SIZES.piece, "text-anchor": "middle", fill: inkOn(fill), class: "piece-label" }, label));
      }
      group.append(token);
    });
    x += width + 2;
    height = Math.max(height, column.length * h);
  }
  return { group, width: Math.max(0, x - 2), height };
}

/** Push apart the dots closer than their radii and the gap (screen pixels, in place). */
export function relax(points, gap = SIZES.gap, rounds = 60) {
  for (let round = 0; round < rounds; round++) {
    let moved = false;
    for (let i = 0; i < points.length; i++) {
      for (let j = i + 1; j < points.length; j++) {
        const a = points[i];
        const b = points[j];
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        let d = Math.hypot(dx, dy);
        const need = a.r + b.r + gap;
        if (d >= need) continue;
        if (d < 1e-6) {
          // the same spot: part them along a direction fixed by their order
          const angle = (i * 2.399) % (2 * Math.PI);
          dx = Math.cos(angle);
          dy = Math.sin(angle);
          d = 1;
        }
        const push = (need - Math.hypot(b.x - a.x, b.y - a.y)) / 2 + 0.05;
        a.x -= (dx / d) * push;
        a.y -= (dy / d) * push;
        b.x += (dx / d) * push;
        b.y += (dy / d) * push;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return points;
}

function overlaps(a, b) {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

/** Lay the map out for ``px`` screen pixels per map unit. */
function arrange(map, px) {
  const k = 1 / px;
  const width = map.width * px;
  const height = map.height * px;
  map.px = px;
  const points = map.places.map((p) => ({ x: (Number(p.place.x) || 0) * px, y: (Number(p.place.y) || 0) * px, r: p.r }));
  relax(points);
  map.places.forEach((p, i) => {
    p.at = points[i];
    p.node.setAttribute("transform", `translate(${p.at.x * k} ${p.at.y * k}) scale(${k})`);
  });
  for (const r of map.routes) {
    const a = r.a.at;
    const b = r.b.at;
    r.node.setAttribute("x1", a.x * k);
    r.node.setAttribute("y1", a.y * k);
    r.node.setAttribute("x2", b.x * k);
    r.node.setAttribute("y2", b.y * k);
    r.node.setAttribute("stroke-width", r.look.width * k);
    if (r.look.dash) r.node.setAttribute("stroke-dasharray", r.look.dash.map((d) => d * k).join(" "));
    if (r.text) {
      r.text.setAttribute("transform", `translate(${((a.x + b.x) / 2) * k} ${((a.y + b.y) / 2) * k}) scale(${k})`);
    }
  }
  // Obstacles, in screen pixels: every dot, every block of pieces (beside its dot, on the
  // right unless it would leave the map), then the labels as they are placed.
  const taken = [];
  for (const p of map.places) {
    const { x, y, r } = p.at;
    taken.push({ x1: x - r, y1: y - r, x2: x + r, y2: y + r, owner: p, dot: true });
    if (p.tokens) {
      const { width: w, height: h } = p.tokens;
      const dx = x + r + 3 + w <= width ? r + 3 : -(r + 3) - w;
      p.tokens.group.setAttribute("transform", `translate(${dx} 0)`);
      taken.push({ x1: x + dx, y1: y - h / 2, x2: x + dx + w, y2: y + h / 2, owner: p });
    }
  }
  const inside = (b) => b.x1 >= 0 && b.y1 >= 0 && b.x2 <= width && b.y2 <= height;
  // Places with pieces name themselves first, then the others in the map's order.
  const order = [...map.places].sort((a, b) => b.count - a.count || a.index - b.index);
  for (const p of order) {
    const { x, y, r } = p.at;
    const w = textWidth(p.label, SIZES.label, SANS_PER_CHAR);
    const s = SIZES.label;
    const v = Math.max(r, p.tokens ? p.tokens.height / 2 : 0); // clear of its own pieces too
    const spots = [
      { anchor: "middle", dx: 0, dy: v + s, box: { x1: x - w / 2, y1: y + v + 1, x2: x + w / 2, y2: y + v + 2 + s } },
      { anchor: "middle", dx: 0, dy: -v - 3, box: { x1: x - w / 2, y1: y - v - 2 - s, x2: x + w / 2, y2: y - v - 1 } },
      { anchor: "start", dx: r + 3, dy: s * 0.35, box: { x1: x + r + 2, y1: y - s / 2, x2: x + r + 3 + w, y2: y + s / 2 } },
      { anchor: "end", dx: -r - 3, dy: s * 0.35, box: { x1: x - r - 3 - w, y1: y - s / 2, x2: x - r - 2, y2: y + s / 2 } },
    ];
    const blocked = (box) => taken.some((t) => !(t.dot && t.owner === p) && overlaps(t, box));
    const free = spots.find((spot) => inside(spot.box) && !blocked(spot.box));
    const spot = free || spots.find((other) => inside(other.box)) || spots[0];
    p.text.setAttribute("x", spot.dx);
    p.text.setAttribute("y", spot.dy);
    p.text.setAttribute("text-anchor", spot.anchor);
    p.text.classList.toggle("crowded", !free);
    if (free) taken.push({ ...free.box, owner: p });
  }
}

/** The map primitive: returns the element to put in the page. ``reg`` (render.js Registry)
 * learns each place, by id and label, so moves can target it; a move whose target is a list
 * (a piece and a place) names the place at its end. */
export function renderMap(reg, value) {
  const data = value || {};
  const raw = data.places || [];
  const xs = raw.map((p) => Number(p.x) || 0);
  const ys = raw.map((p) => Number(p.y) || 0);
  const width = Number(data.width) || Math.max(100, ...xs) + 10;
  const height = Number(data.height) || Math.max(100, ...ys) + 10;
  // A group, not an image: the places in it become buttons when a move can go there.
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "map", role: "group", "aria-label": "map" });
  const routeLayer = svg("g", { class: "routes" });
  const placeLayer = svg("g", { class: "places" });
  root.append(routeLayer, placeLayer);
  // hovered, a place comes to the front (its label and pieces over its neighbours'); not while
  // it has the focus, which moving it in the page would take away. (One listener for the
  // layer rather than one per place: a map has a hundred places to draw at once.)
  placeLayer.addEventListener("pointerover", (event) => {
    const g = event.target instanceof Element ? event.target.closest(".places > .place") : null;
    if (g && g.parentNode === placeLayer && g.nextSibling && !g.contains(document.activeElement)) placeLayer.append(g);
  });

  const here = new Map();
  for (const piece of data.pieces || []) {
    const key = String(piece.place);
    if (!here.has(key)) here.set(key, []);
    here.get(key).push(piece);
  }
  const map = { width, height, places: [], routes: [], px: 0 };
  const byId = new Map();
  raw.forEach((place, index) => {
    const label = String(place.label ?? place.id);
    const pieces = here.get(String(place.id)) || [];
    const r = dotRadius(place);
    const style = place.style ? String(place.style) : "";
    const g = svg("g", { class: `place${style ? " place-" + style : ""}${isArea(place) ? " place-area-kind" : ""}` });
    const names = pieces.map((p) => p.label ?? "piece").join(", ");
    g.append(svg("title", {}, names ? `${label}: ${names}` : label));
    if (isArea(place)) g.append(svg("circle", { r: SIZES.area, class: "place-area" }));
    g.append(svg("circle", { r: r + 4, class: "place-ring" }));
    g.append(svg("circle", { r: r + 5, class: "place-hit" }));
    g.append(svg("circle", { r, class: "place-dot" }));
    const text = svg("text", { "font-size": SIZES.label, class: "place-label" }, label);
    g.append(text);
    const tokens = pieces.length ? pieceTokens(pieces) : null;
    if (tokens) g.append(tokens.group);
    reg.place(g, { cell: [place.id, label], end: [place.id, label] }, label); // named by its <title>
    g.setAttribute("data-id", String(place.id)); // moves name a place by id or label
    placeLayer.append(g);
    const entry = { place, label, index, r, node: g, text, tokens, count: pieces.length, at: null };
    map.places.push(entry);
    byId.set(String(place.id), entry);
  });

  const looks = routeLooks(data.routes || []);
  for (const route of data.routes || []) {
    const a = byId.get(String(route.from));
    const b = byId.get(String(route.to));
    if (!a || !b) continue;
    const style = String(route.style || "");
    const look = looks.get(style);
    const line = svg("line", { class: `route${style ? " route-" + style : ""}`, stroke: look.stroke, "data-style": style || null });
    routeLayer.append(line);
    let text = null;
    if (route.label) {
      text = svg("text", { y: -3, "font-size": SIZES.label - 1, class: "route-label", "text-anchor": "middle" }, String(route.label));
      routeLayer.append(text);
    }
    map.routes.push({ node: line, text, look, a, b });
  }

  arrange(map, Math.min(SIZES.guessWidth, width * 4) / width);
  if (typeof ResizeObserver !== "undefined") {
    const watch = new ResizeObserver((entries) => {
      if (!root.isConnected) {
        watch.disconnect();
        return;
      }
      const shown = entries[entries.length - 1].contentRect.width;
      if (shown > 0 && Math.abs(shown / width - map.px) * width > 0.5) arrange(map, shown / width);
    });
    watch.observe(root);
  }
  root.spyglassMap = map; // for tests and tools: the layout as drawn
  const { box, tools } = zoomable(root, `${width}x${height}:${raw.length}`);
  const foot = legend(looks, raw);
  foot.append(tools);
  return html("div", "map-box", box, foot);
}

/** How far each map is zoomed and scrolled, kept across redraws (each move redraws the table). */
const zoomed = new Map();
const ZOOMS = [1, 1.5, 2, 3];

/** The drawing in a scrolling box, and zoom buttons for it: zoomed in, the places spread apart while
 * their marks keep their size, so a crowded corner of the map can be read and clicked. */
function zoomable(root, key) {
  const box = scrollBox(html("div", "map-scroll", root), "the map, zoomed in");
  const shown = html("span", "map-zoom-level", "100%");
  const set = (zoom, keepCentre = true) => {
    const cx = (box.scrollLeft + box.clientWidth / 2) / (box.scrollWidth || 1);
    const cy = (box.scrollTop + box.clientHeight / 2) / (box.scrollHeight || 1);
    root.style.width = `${zoom * 100}%`;
    shown.textContent = `${Math.round(zoom * 100)}%`;
    if (keepCentre) {
      box.scrollLeft = cx * box.scrollWidth - box.clientWidth / 2;
      box.scrollTop = cy * box.scrollHeight - box.clientHeight / 2;
    }
    zoomed.set(key, { zoom, left: box.scrollLeft, top: box.scrollTop });
  };
  const step = (by) => {
    const now = (zoomed.get(key) || { zoom: 1 }).zoom;
    const i = Math.max(0, Math.min(ZOOMS.length - 1, ZOOMS.indexOf(now) + by));
    set(ZOOMS[i]);
  };
  box.addEventListener("scroll", () => {
    const kept = zoomed.get(key);
    if (kept) zoomed.set(key, { ...kept, left: box.scrollLeft, top: box.scrollTop });
  });
  const kept = zoomed.get(key);
  if (kept && kept.zoom !== 1) {
    root.style.width = `${kept.zoom * 100}%`;
    shown.textContent = `${Math.round(kept.zoom * 100)}%`;
    // scroll back once the box is in the page and laid out
    requestAnimationFrame(() => {
      box.scrollLeft = kept.left;
      box.scrollTop = kept.top;
    });
  }
  const button = (text, label, by) => {
    const b = html("button", "small", text);
    b.type = "button";
    b.title = label;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => step(by));
    return b;
  };
  const tools = html("span", "map-tools", button("−", "zoom out", -1), shown, button("+", "zoom in", 1));
  return { box, tools };
}

/** What the line styles and place styles on this map mean. */
function legend(looks, places) {
  const box = html("div", "map-legend");
  for (const [style, look] of looks) {
    const sample = svg("svg", { width: 28, height: 8, class: "legend-line", "aria-hidden": "true" });
    sample.append(svg("line", { x1: 1, y1: 4, x2: 27, y2: 4, stroke: look.stroke, "stroke-width": look.width, "stroke-dasharray": look.dash ? look.dash.join(" ") : null }));
    box.append(html("span", "legend-item", sample, look.name || style || "route"));
  }
  const styles = [...new Set(places.map((p) => String(p.style || "")).filter(Boolean))];
  if (styles.length > 1) {
    for (const style of styles) {
      const sample = svg("svg", { width: 12, height: 12, class: `legend-place place place-${style}`, "aria-hidden": "true" });
      const area = AREA_STYLES.has(style);
      if (area) sample.append(svg("circle", { cx: 6, cy: 6, r: 6, class: "place-area" }));
      sample.append(svg("circle", { cx: 6, cy: 6, r: style === "capital" ? SIZES.bigDot : SIZES.dot, class: "place-dot" }));
      box.append(html("span", "legend-item", sample, style));
    }
  }
  return box;
}
