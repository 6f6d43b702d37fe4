// Small shared pieces of the pages: dialogs, notices, the rules panel, results, stories.

import { api } from "./api.js";
import { richText } from "./cards.js";
import { h } from "./render.js";

let gamesCache = null;

export async function games() {
  if (!gamesCache) gamesCache = api("/api/games");
  return gamesCache;
}

export async function game(id) {
  return (await games()).find((g) => g.id === id) || api(`/api/games/${encodeURIComponent(id)}`);
}

/** A modal dialog; returns {close}. Escape closes it unless it is ``sticky``. */
export function dialog(title, body, { sticky = false, className = "", onClose } = {}) {
  const close = () => {
    overlay.remove();
    document.removeEventListener("keydown", onKey, true);
    if (onClose) onClose();
  };
  const onKey = (event) => {
    if (event.key === "Escape" && !sticky) {
      event.stopPropagation();
      close();
    }
  };
  const box = h("div", { class: `dialog ${className}`, role: "dialog", "aria-modal": "true", "aria-label": title },
    h("div", { class: "dialog-head" }, h("h2", {}, title), sticky ? null : h("button", { type: "button", class: "close", "aria-label": "close", onclick: close }, "×")),
    body);
  const overlay = h("div", { class: "overlay" }, box);
  overlay.addEventListener("click", (event) => {
    if (event.target === overlay && !sticky) close();
  });
  document.addEventListener("keydown", onKey, true);
  document.body.append(overlay);
  const focus = box.querySelector("button.primary, button:not(.close), a, input, select");
  if (focus) focus.focus();
  return { close, box };
}

export function notice(text, kind = "info") {
  const area = document.getElementById("notices");
  const note = h("div", { class: `notice notice-${kind}`, role: kind === "error" ? "alert" : "status" }, richText(text));
  area.append(note);
  setTimeout(() => note.remove(), kind === "error" ? 8000 : 4000);
}

export async function showRules(gameId) {
  const body = h("div", { class: "rules" }, "Loading…");
  dialog("Rules", body, { className: "wide" });
  try {
    const rules = await api(`/api/games/${encodeURIComponent(gameId)}/rules`);
    body.innerHTML = rules.html; // rendered on the server from our RULES.md, raw HTML escaped
  } catch (error) {
    body.textContent = `The rules could not be loaded: ${error.message}`;
  }
}

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

/** The final score breakdown: summary, then each seat's categories (a row per seat), or, where
 * a seat's detail holds a sheet per power, a row per seat and power with the sheet's items. */
export function resultPanel(result, seats) {
  const box = h("section", { class: "result", "aria-label": "result" }, h("h3", {}, "Game over"), h("p", { class: "summary" }, richText(result.summary || "")));
  const details = result.detail || [];
  const nested = sheetsPerSeat(details);
  const rows = []; // [seat, label or null, items]
  details.forEach((d, seat) => {
    if (nested) for (const [label, sheet] of Object.entries(d)) rows.push([seat, label, sheet]);
    else rows.push([seat, null, d]);
  });
  const keys = [];
  for (const [, , items] of rows) for (const k of Object.keys(items)) if (!keys.includes(k)) keys.push(k);
  if (keys.length) {
    const many = details.length > 1;
    const table = h("table", { class: "breakdown" });
    const head = h("tr", {}, h("th", {}, many ? "seat" : ""));
    if (nested) head.append(h("th", {}, "power"));
    head.append(...keys.map((k) => h("th", {}, k.replace(/_/g, " "))));
    if (many) head.append(h("th", {}, "score"));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    rows.forEach(([seat, label, items], i) => {
      const first = i === 0 || rows[i - 1][0] !== seat;
      const winner = (result.winners || []).includes(seat);
      const name = seats && seats[seat] ? seats[seat].name : `seat ${seat}`;
      const row = h("tr", { class: winner && many ? "winner" : "" }, h("th", {}, many && first ? `${name}${winner ? " ★" : ""}` : ""));
      if (nested) row.append(h("th", {}, label));
      for (const k of keys) row.append(h("td", {}, richText(k in items ? detailValue(items[k]) : "")));
      if (many) row.append(h("td", {}, first ? String(result.scores[seat]) : ""));
      body.append(row);
    });
    table.append(body);
    box.append(h("div", { class: "breakdown-scroll" }, table));
  }
  return box;
}

/** Step through a story (e.g. walking back the dog), one step at a time. */
export function walkStory(story, { onDone } = {}) {
  let index = 0;
  const title = h("h3");
  const lines = h("div", { class: "story-lines" });
  const counter = h("span", { class: "muted" });
  const back = h("button", { type: "button", onclick: () => go(index - 1) }, "← Back");
  const next = h("button", { type: "button", class: "primary", onclick: () => (index + 1 < story.steps.length ? go(index + 1) : d.close()) }, "Next →");
  const skip = h("button", { type: "button", onclick: () => d.close() }, "Skip");
  const body = h("div", { class: "story-walk" }, title, lines, h("div", { class: "buttons" }, back, next, skip, counter));
  const keys = (event) => {
    if (event.key === "ArrowRight") go(Math.min(index + 1, story.steps.length - 1));
    if (event.key === "ArrowLeft") go(Math.max(index - 1, 0));
  };
  function go(i) {
    if (i < 0 || i >= story.steps.length) return;
    index = i;
    const step = story.steps[i];
    title.replaceChildren(richText(step.title || ""));
    lines.replaceChildren(...(step.lines || []).map((l) => h("div", { class: /^\s/.test(l) ? "indent" : "" }, richText(l))));
    counter.textContent = `${i + 1} of ${story.steps.length}`;
    back.disabled = i === 0;
    next.textContent = i + 1 < story.steps.length ? "Next →" : "Done";
    next.focus();
  }
  const d = dialog(story.title || "Story", body, {
    className: "wide",
    onClose: () => {
      document.removeEventListener("keydown", keys);
      if (onDone) onDone();
    },
  });
  document.addEventListener("keydown", keys);
  go(0);
  return d;
}

export function copyButton(text, label = "Copy") {
  return h("button", {
    type: "button",
    class: "small",
    onclick: async (event) => {
      try {
        await navigator.clipboard.writeText(text);
        event.target.textContent = "Copied";
      } catch {
        event.target.textContent = "Select and copy";
      }
    },
  }, label);
}
