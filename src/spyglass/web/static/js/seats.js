// The Seats dialog of a table: who sits where, and what this browser may do about it. The host
// (the browser that made the table) gives a person's seat a new invite link, which stops the
// old link and the seat's old key at once; a player replaces their own seat's key (the old one,
// wherever it was copied, stops working).

import { api, hostKey } from "./api.js";
import { h } from "./render.js";
import { copyButton, dialog, notice } from "./ui.js";

export function seatsDialog(tableId, table, mySeats, rotateSeat) {
  const host = hostKey(tableId);
  const rows = table.seats.map((s) => {
    const state = s.kind === "bot" ? `bot (${s.agent})` : !s.claimed ? "invite not used yet" : s.connected ? "connected" : "not connected";
    const actions = [];
    if (host && s.kind === "human") {
      actions.push(h("button", { type: "button", class: "reinvite", "data-seat": s.seat, onclick: () => reinvite(tableId, s, host, box) }, "New invite link"));
    }
    if (mySeats.includes(s.seat)) {
      actions.push(h("button", { type: "button", class: "rotate", "data-seat": s.seat, onclick: () => rotateSeat(s.seat) }, "New key for this browser"));
    }
    return h("tr", {}, h("th", { scope: "row" }, s.name), h("td", {}, state), h("td", {}, ...actions));
  });
  const box = h("div", { class: "seats-dialog" },
    h("table", { class: "seats-table" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Actions"))), h("tbody", {}, rows)),
    h("p", { class: "muted" }, host ? "A new invite link replaces the seat's old link and key at once: use it when a link went astray or a player lost their device." : "Only the browser that made the table can send new invite links."),
    h("div", { class: "invite-out" }));
  dialog("Seats", box);
}

async function reinvite(tableId, seat, host, box) {
  try {
    const made = await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat.seat}/invite`, { method: "POST", hostKey: host });
    const link = location.origin + made.link;
    box.querySelector(".invite-out").replaceChildren(h("p", {}, `New link for ${seat.name} (works once):`),
      h("input", { type: "text", readonly: true, value: link, class: "invite-link", "aria-label": `invite link for ${seat.name}` }), copyButton(link));
  } catch (error) {
    notice(error.message, "error");
  }
}
