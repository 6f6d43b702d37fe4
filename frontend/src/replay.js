// The replay viewer of a finished table: every step, through any seat's eyes. The controls
// and the log stay in the page; each step draws the board again (regions that did not change
// keep their elements).

import { api, gameInfo } from "./api.js";
import { richText, setSeatNames } from "./cards.js";
import { h } from "./dom.js";
import { notice } from "./notices.js";
import { Board } from "./render.js";
import { resultPanel } from "./result.js";
import { showRules } from "./rules.js";
import { walkStory } from "./story.js";

function errorPage(root, title, text, link, label) {
  root.replaceChildren(h("div", { class: "error-page" }, h("h1", {}, title), h("p", {}, text), h("a", { href: link }, label)));
}

export async function replayPage(root, tableId) {
  let summary;
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    errorPage(root, "No replay", error.message, "/", "Back to the lobby");
    return;
  }
  const info = await gameInfo(summary.table.game);
  document.title = `Replay: ${info.title} · spyglass`;
  if (summary.table.status !== "over") {
    errorPage(root, "This game is still being played", "Its replay opens when it is over.", `/table/${tableId}`, "Watch it");
    return;
  }
  // the players' names for "seat N" in the log, the board and the result, as on the table
  setSeatNames(summary.table.seats.map((s) => s.name));
  let step = 0;
  let total = summary.view.step;
  let seat = summary.table.players === 1 ? 0 : "";
  const seatSelect = h("select", { id: "replay-seat" },
    h("option", { value: "" }, "spectator"),
    summary.table.seats.map((s) => h("option", { value: s.seat, selected: String(seat) === String(s.seat) }, s.name)));
  const slider = h("input", { type: "range", min: 0, max: total, value: 0, id: "replay-step", "aria-label": "step" });
  const label = h("span", { class: "replay-label" });
  // the one live region: which step is shown and its move
  const move = h("p", { class: "replay-move", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const boardBox = h("div", { class: "board", role: "group", "aria-label": "the table" });
  const board = new Board(boardBox, info.layout, { onStory: (story) => walkStory(story) });
  const result = h("div", { class: "result-slot" });
  const log = h("ol", { class: "log-lines", tabindex: "0", "aria-labelledby": "log-title" });
  const page = h("div", { class: "replay" });
  const go = async (target) => {
    step = Math.max(0, Math.min(total, target));
    const query = new URLSearchParams({ step: String(step) });
    if (seat !== "") query.set("seat", String(seat));
    try {
      const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay?${query}`);
      total = data.steps;
      slider.max = total;
      slider.value = step;
      slider.setAttribute("aria-valuetext", `step ${step} of ${total}`);
      label.textContent = `step ${step} of ${total}`;
      move.replaceChildren(data.move ? richText(`move ${step}: ${data.move}`) : "the deal");
      board.draw(data.view);
      // the last step shows the table's own result (who ran out of time, the ratings), also
      // when time ended the game before its rules did
      const final = step === total ? summary.table.result || null : null;
      result.replaceChildren(data.view.over || final ? resultPanel(data.view.over ? data.view.result : null, summary.table.seats, final) : "");
      log.replaceChildren(...(data.view.log || []).map((l) => h("li", {}, richText(l))));
      log.scrollTop = log.scrollHeight;
      page.dataset.step = step;
    } catch (error) {
      notice(error.message, "error");
    }
  };
  seatSelect.addEventListener("change", () => {
    seat = seatSelect.value;
    go(step);
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const controls = h("div", { class: "buttons replay-controls" },
    h("button", { type: "button", onclick: () => go(0), title: "start (Home)", "aria-label": "start" }, "⇤"),
    h("button", { type: "button", id: "replay-back", onclick: () => go(step - 1), title: "back (←)", "aria-label": "back" }, "◀"),
    h("button", { type: "button", id: "replay-next", onclick: () => go(step + 1), title: "next (→)", "aria-label": "next" }, "▶"),
    h("button", { type: "button", onclick: () => go(total), title: "end (End)", "aria-label": "end" }, "⇥"),
    slider, label, h("label", { for: "replay-seat" }, "seen by "), seatSelect,
    h("a", { class: "button", href: `/api/tables/${tableId}/record`, download: "" }, "Download record"),
    h("button", { type: "button", onclick: () => showRules(info.id) }, "Rules"),
    h("a", { class: "button", href: "/" }, "Lobby"));
  page.append(
    h("header", { class: "table-head" }, h("h1", {}, `Replay: ${info.title}`), controls, move),
    h("div", { class: "table-body" }, h("div", { class: "board-col" }, result, boardBox),
      h("aside", { class: "side", "aria-label": "log" }, h("section", { class: "log", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, "Log"), log))));
  root.replaceChildren(page);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (document.querySelector(".overlay")) return;
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(total);
  });
  go(0);
}
