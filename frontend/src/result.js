// The end of a game: the summary, then each seat's score by category.

import { richText } from "./cards.js";
import { h, scrollBox } from "./dom.js";

function detailValue(value) {
  if (Array.isArray(value)) return value.join(" ") || "—";
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${v}`).join(", ");
  return String(value);
}

/** The final score breakdown: summary, then each seat's categories (a row per seat, with the
 * seat's name as the row's header, when there are several). */
export function resultPanel(result, seats) {
  const box = h("section", { class: "result", "aria-labelledby": "result-title", tabindex: "-1" },
    h("h2", { id: "result-title" }, "Game over"),
    h("p", { class: "summary" }, richText(result.summary || "")));
  const details = result.detail || [];
  const keys = [];
  for (const d of details) for (const k of Object.keys(d)) if (!keys.includes(k)) keys.push(k);
  if (!keys.length) return box;
  const several = details.length > 1;
  const table = h("table", { class: "breakdown" }, h("caption", { class: "visually-hidden" }, "score breakdown"));
  const head = h("tr", {});
  if (several) head.append(h("th", { scope: "col" }, "seat"));
  head.append(...keys.map((k) => h("th", { scope: "col" }, k.replace(/_/g, " "))));
  if (several) head.append(h("th", { scope: "col" }, "score"));
  table.append(h("thead", {}, head));
  const body = h("tbody");
  details.forEach((d, seat) => {
    const winner = (result.winners || []).includes(seat);
    const name = seats && seats[seat] ? seats[seat].name : `seat ${seat}`;
    const row = h("tr", { class: winner && several ? "winner" : "" });
    if (several) row.append(h("th", { scope: "row" }, name, winner ? [" ", h("span", { "aria-hidden": "true" }, "★"), h("span", { class: "visually-hidden" }, "(winner)")] : null));
    for (const k of keys) row.append(h("td", {}, richText(k in d ? detailValue(d[k]) : "")));
    if (several) row.append(h("td", {}, String(result.scores[seat])));
    body.append(row);
  });
  table.append(body);
  box.append(scrollBox(h("div", { class: "breakdown-scroll" }, table), "the score breakdown, scrolled sideways"));
  return box;
}
