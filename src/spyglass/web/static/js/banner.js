// The banner region: a notice above the table that says what happened and what is asked,
// most often a decision asked of a seat in another player's turn. It shows the choices in
// words; the moves themselves are made as any other (the buttons by the board, the list).
// Value: {"title": ..., "lines": [...], "choices": [...], "style": "yours" | "waiting"}.

import { richText } from "./cards.js";

function el(tag, cls, ...children) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** The banner primitive: returns the element to put in the page. */
export function renderBanner(value) {
  const data = value && typeof value === "object" ? value : { title: String(value ?? "") };
  const style = String(data.style || "waiting").replace(/[^a-z-]/gi, "");
  const box = el("div", `banner banner-${style}`);
  box.setAttribute("role", style === "yours" ? "alert" : "status");
  box.append(el("div", "banner-title", richText(data.title ?? "")));
  for (const line of data.lines || []) box.append(el("p", "banner-line", richText(line)));
  const choices = data.choices || [];
  if (choices.length) {
    const list = el("ul", "banner-choices");
    for (const choice of choices) list.append(el("li", null, richText(choice)));
    box.append(el("div", "banner-ask", "Your choices (the buttons by the board, or the list of moves):"), list);
  }
  return box;
}
