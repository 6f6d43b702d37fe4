// The rules of a game in a dialog: our RULES.md, rendered to HTML on the server (raw HTML in
// the Markdown escaped there). The HTML is parsed into an inert document first and its nodes
// moved in, with any style attribute (a table column's alignment) turned into a class: the
// page's Content-Security-Policy refuses inline styles.

import { api } from "./api.js";
import { dialog } from "./dialog.js";
import { h } from "./dom.js";

const ALIGN = /text-align:\s*(left|right|center)/;

/** The server's rules HTML as nodes of this document, without inline styles. */
export function rulesNodes(html) {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  for (const el of parsed.body.querySelectorAll("[style]")) {
    const m = ALIGN.exec(el.getAttribute("style") || "");
    el.removeAttribute("style");
    if (m) el.classList.add(`align-${m[1]}`);
  }
  return [...parsed.body.childNodes].map((n) => document.importNode(n, true));
}

export async function showRules(gameId, options = {}) {
  const body = h("div", { class: "rules", role: "region", tabindex: "0", "aria-label": "the rules", "aria-busy": "true" }, "Loading…");
  const d = dialog("Rules", body, { className: "wide", focus: body, ...options });
  try {
    const rules = await api(`/api/games/${encodeURIComponent(gameId)}/rules`);
    body.replaceChildren(...rulesNodes(rules.html));
  } catch (error) {
    body.textContent = `The rules could not be loaded: ${error.message}`;
  }
  body.removeAttribute("aria-busy");
  return d;
}
