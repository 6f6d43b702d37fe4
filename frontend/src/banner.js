// The banner region: a notice above the table that says what happened and what is asked,
// most often a decision asked of a seat in another player's turn. It shows the choices in
// words; the moves themselves are made as any other (the buttons by the board, the list).
// Value: {"title": ..., "lines": [...], "choices": [...], "style": "yours" | "waiting"}.
// It is not a live region of its own: the table's status line says when a move is asked.

import { richText } from "./cards.js";
import { h } from "./dom.js";

/** The banner primitive: returns the element to put in the page. */
export function renderBanner(value) {
  const data = value && typeof value === "object" ? value : { title: String(value ?? "") };
  const style = String(data.style || "waiting").replace(/[^a-z-]/gi, "");
  const box = h("div", { class: `banner banner-${style}` });
  box.append(h("p", { class: "banner-title" }, richText(data.title ?? "")));
  for (const line of data.lines || []) box.append(h("p", { class: "banner-line" }, richText(line)));
  const choices = data.choices || [];
  if (choices.length) {
    const list = h("ul", { class: "banner-choices" });
    for (const choice of choices) list.append(h("li", {}, richText(choice)));
    box.append(h("p", { class: "banner-ask" }, "Your choices (the buttons by the board, or the list of moves):"), list);
  }
  return box;
}
