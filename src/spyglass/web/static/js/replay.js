// The replay viewer of a finished table: every step, through any seat's eyes.

import { api } from "./api.js";
import { richText } from "./cards.js";
import { h, renderTable } from "./render.js";
import { game, notice, resultPanel, showRules, walkStory } from "./ui.js";

export async function replayPage(root, tableId) {
  let summary;
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    root.replaceChildren(h("div", { class: "error-page" }, h("h2", {}, "No replay"), h("p", {}, error.message), h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  const info = await game(summary.table.game);
  document.title = `Replay: ${info.title} · spyglass`;
  if (summary.table.status !== "over") {
    root.replaceChildren(h("div", { class: "error-page" }, h("h2", {}, "This game is still being played"), h("p", {}, "Its replay opens when it is over."), h("a", { href: `/table/${tableId}` }, "Watch it")));
    return;
  }
  let step = 0;
  let total = summary.view.step;
  let seat = summary.table.players === 1 ? 0 : "";
  const seatSelect = h("select", { id: "replay-seat", "aria-label": "seen by" },
    h("option", { value: "" }, "spectator"),
    summary.table.seats.map((s) => h("option", { value: s.seat, selected: String(seat) === String(s.seat) }, s.name)));
  const slider = h("input", { type: "range", min: 0, max: total, value: 0, id: "replay-step", "aria-label": "step" });
  const label = h("span", { class: "replay-label" });
  const move = h("p", { class: "replay-move" });
  const board = h("div", { class: "board" });
  const result = h("div");
  const log = h("ol", { class: "log-lines" });
  const go = async (target) => {
    step = Math.max(0, Math.min(total, target));
    const query = new URLSearchParams({ step: String(step) });
    if (seat !== "") query.set("seat", String(seat));
    try {
      const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay?${query}`);
      total = data.steps;
      slider.max = total;
      slider.value = step;
      label.textContent = `step ${step} of ${total}`;
      move.replaceChildren(data.move ? richText(`move ${step}: ${data.move}`) : "the deal");
      renderTable(board, data.view, info.layout, { onStory: (story) => walkStory(story) });
      result.replaceChildren(data.view.over ? resultPanel(data.view.result, summary.table.seats) : "");
      log.replaceChildren(...(data.view.log || []).map((l) => h("li", {}, richText(l))));
      log.scrollTop = log.scrollHeight;
      root.querySelector(".replay").dataset.step = step;
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
    slider, label, h("label", {}, "seen by ", seatSelect),
    h("a", { class: "button", href: `/api/tables/${tableId}/record`, download: "" }, "Download record"),
    h("button", { type: "button", onclick: () => showRules(info.id) }, "Rules"),
    h("a", { class: "button", href: "/" }, "Lobby"));
  root.replaceChildren(h("div", { class: "replay" },
    h("header", { class: "table-head" }, h("h1", {}, `Replay: ${info.title}`), controls, move),
    h("div", { class: "table-body" }, h("div", { class: "board-col" }, result, board), h("aside", { class: "side" }, h("section", { class: "log" }, h("h3", {}, "Log"), log)))));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, select")) return;
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(total);
  });
  go(0);
}
