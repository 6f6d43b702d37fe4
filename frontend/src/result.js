// The end of a game: the summary, then each seat's score by category.

import { richText } from "./cards.js";
import { h, scrollBox } from "./dom.js";

function detailValue(value) {
  if (Array.isArray(value)) return value.join(" ") || "—";
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${v}`).join(", ");
  return String(value);
}

/** Whether each seat's detail is a set of sheets (Spies!: one per power the seat plays). */
function sheetsPerSeat(details) {
  const isSheet = (v) => v && typeof v === "object" && !Array.isArray(v);
  return details.length > 0 && details.every((d) => Object.keys(d).length > 0 && Object.values(d).every(isSheet));
}

/** "Ratings: Ann 12.3 → 14.1 (+1.8) · ...": each rated seat's change, people first. */
function ratingsLine(final, nameOf) {
  const changes = (final.seats || []).filter((s) => s.rating && s.rating.after && s.rating.kind !== "bot");
  if (!changes.length) return null;
  const one = (s) => {
    const before = s.rating.before ? s.rating.before.ordinal : null;
    const after = s.rating.after.ordinal;
    const d = before === null ? null : after - before;
    return h("li", { "data-seat": s.seat }, h("span", { class: "rating-name" }, nameOf(s.seat)), " ",
      before === null ? "" : `${before.toFixed(1)} → `, h("strong", {}, after.toFixed(1)),
      d === null ? "" : ` (${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(1)})`);
  };
  return h("div", { class: "ratings-after" }, h("span", {}, "Ratings: "), h("ul", { class: "rating-list" }, changes.map(one)));
}

/** The final score breakdown: summary, then each seat's categories (a row per seat, with the
 * seat's name as the row's header, when there are several), or, where a seat's detail holds a
 * sheet per power, a row per seat and power with the sheet's items (the seat's name and score
 * spanning its rows, so each row is read with its seat). */
export function resultPanel(result, seats, final = null) {
  // ``final``: the table's own result (its summary's), when the server has one: it names the
  // seats that ran out of time and each seat's rating change, and stands for the game's
  // result when time ended the game before its rules did.
  result = result || { summary: final ? final.summary : "", scores: [], detail: [] };
  const out = final && final.by === "time" ? final.out || [] : [];
  const nameOf = (seat) => (seats && seats[seat] ? seats[seat].name : `seat ${seat}`);
  const box = h("section", { class: "result", "aria-labelledby": "result-title", tabindex: "-1" },
    h("h2", { id: "result-title" }, "Game over"),
    h("p", { class: "summary" }, richText((final && final.summary) || result.summary || "")),
    out.length && !String(final.summary || "").includes("ran out of time") ? h("p", { class: "ran-out" }, `${out.map(nameOf).join(", ")} ran out of time.`) : null,
    out.length && (final.winners || []).length ? h("p", { class: "winners" }, `${final.winners.map(nameOf).join(" and ")} ${final.winners.length > 1 ? "win" : "wins"}.`) : null,
    final ? ratingsLine(final, nameOf) : null);
  const details = result.detail || [];
  const nested = sheetsPerSeat(details);
  const groups = details.map((d, seat) => ({ seat, rows: nested ? Object.entries(d) : [[null, d]] }));
  const keys = [];
  for (const { rows } of groups) for (const [, items] of rows) for (const k of Object.keys(items)) if (!keys.includes(k)) keys.push(k);
  if (!keys.length) return box;
  const several = details.length > 1;
  const table = h("table", { class: "breakdown" }, h("caption", { class: "visually-hidden" }, "score breakdown"));
  const head = h("tr", {});
  if (several) head.append(h("th", { scope: "col" }, "seat"));
  if (nested) head.append(h("th", { scope: "col" }, "power"));
  head.append(...keys.map((k) => h("th", { scope: "col" }, k.replace(/_/g, " "))));
  if (several) head.append(h("th", { scope: "col" }, "score"));
  table.append(h("thead", {}, head));
  const body = h("tbody");
  for (const { seat, rows } of groups) {
    const winner = (result.winners || []).includes(seat);
    const name = seats && seats[seat] ? seats[seat].name : `seat ${seat}`;
    const span = rows.length > 1 ? rows.length : null;
    rows.forEach(([label, items], i) => {
      const row = h("tr", { class: winner && several ? "winner" : "" });
      if (several && i === 0) {
        row.append(h("th", { scope: "row", rowspan: span }, name, winner ? [" ", h("span", { "aria-hidden": "true" }, "★"), h("span", { class: "visually-hidden" }, "(winner)")] : null));
      }
      if (nested) row.append(h("th", { scope: "row" }, label));
      for (const k of keys) row.append(h("td", {}, richText(k in items ? detailValue(items[k]) : "")));
      if (several && i === 0) row.append(h("td", { rowspan: span }, String(result.scores[seat])));
      body.append(row);
    });
  }
  table.append(body);
  box.append(scrollBox(h("div", { class: "breakdown-scroll" }, table), "the score breakdown, scrolled sideways"));
  return box;
}
