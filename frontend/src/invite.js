// An invite link as the host sees it: the link in a read-only field (to select by hand) and a
// button that copies it, both named after the seat. The lobby shows one per invited seat when
// a table is made; the Seats dialog shows one when the host gives a seat a new link.

import { h } from "./dom.js";

/** A button that copies ``text``; ``label`` names it (its text, or a node). */
export function copyButton(text, label = "Copy") {
  return h("button", {
    type: "button",
    class: "small copy",
    onclick: async (event) => {
      const button = event.currentTarget;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch {
        button.textContent = "Select and copy";
      }
    },
  }, label);
}

/** Seat ``seat`` (named ``name``)'s link, with its copy button. */
export function inviteRow(seat, name, link) {
  return h("div", { class: "invite" }, h("b", {}, name),
    h("input", { type: "text", readonly: true, value: link, class: "invite-link", "data-seat": seat, "aria-label": `invite link for ${name}` }),
    copyButton(link, h("span", {}, "Copy", h("span", { class: "visually-hidden" }, ` the link for ${name}`))));
}
