// The Seats dialog of a table: who sits where, and what this browser may do about it. The host
// (the browser that made the table) gives a person's seat a new invite link, which stops the
// old link and the seat's old key at once; a player replaces their own seat's key (the old one,
// wherever it was copied, stops working). Like every dialog it holds the focus while open and
// gives it back on closing (dialog.js); a new link appears in the dialog with the focus on it.

import { api, hostKey } from "./api.js";
import { dialog } from "./dialog.js";
import { h, uid } from "./dom.js";
import { inviteRow } from "./invite.js";
import { notice } from "./notices.js";

/** Open the dialog for the table ``table`` (its public summary). ``mySeats``: the seats this
 * browser holds; ``rotateSeat(seat)`` gives one of them a new key (the table page does it, as
 * it holds the seat's connection); ``restore``: where the focus goes on closing if the
 * button that opened the dialog is gone. */
export function seatsDialog(tableId, table, mySeats, rotateSeat, { restore } = {}) {
  const host = hostKey(tableId);
  const out = h("div", { class: "invite-out" });
  const rows = table.seats.map((s) => {
    const state = s.kind === "bot" ? `bot (${s.agent})` : !s.claimed ? "invite not used yet" : s.connected ? "connected" : "not connected";
    const name = uid("seat");
    const actions = [];
    if (host && s.kind === "human") {
      actions.push(h("button", { type: "button", class: "small reinvite", "data-seat": s.seat, "aria-describedby": name, onclick: () => reinvite(tableId, s, host, out) }, "New invite link"));
    }
    if (mySeats.includes(s.seat)) {
      actions.push(h("button", { type: "button", class: "small rotate", "data-seat": s.seat, "aria-describedby": name, onclick: () => rotateSeat(s.seat) }, "New key for this browser"));
    }
    return h("tr", {}, h("th", { scope: "row", id: name }, s.name), h("td", {}, state), h("td", {}, ...actions));
  });
  const box = h("div", { class: "seats-dialog" },
    h("div", { class: "table-scroll" }, h("table", { class: "seats-table" },
      h("caption", { class: "visually-hidden" }, "the seats of this table"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Actions"))),
      h("tbody", {}, rows))),
    h("p", { class: "muted" }, host ? "A new invite link replaces the seat's old link and key at once: use it when a link went astray or a player lost their device." : "Only the browser that made the table can send new invite links."),
    out);
  return dialog("Seats", box, { restore });
}

async function reinvite(tableId, seat, host, out) {
  try {
    const made = await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat.seat}/invite`, { method: "POST", hostKey: host });
    const row = inviteRow(seat.seat, seat.name, location.origin + made.link);
    out.replaceChildren(h("p", {}, `New link for ${seat.name} (it works once):`), row);
    row.querySelector(".invite-link").focus();
  } catch (error) {
    notice(error.message, "error");
  }
}
