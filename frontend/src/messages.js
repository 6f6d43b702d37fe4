// The message channel of a table: a collapsible panel beside it where the people at the
// table write to everyone or whisper to one seat. The server sends each connection only what
// its seat may read; this panel shows one seat's messages at a time (hot-seat: the seat on
// screen, none while the device is passed on). Messages are drawn as text, never as HTML.

import { h } from "./dom.js";

const OPEN_KEY = "spyglass.messages.open";
const MAX_TEXT = 500; // characters, as the server counts them
const WIDE = "(min-width: 1100px)"; // beside the table; narrower screens dock it in a corner

/** How many characters the server counts (code points, not UTF-16 units). */
function length(text) {
  return [...text].length;
}

function clock(at) {
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export class MessagePanel {
  /** ``send(key, message)`` sends a message on the socket of seat ``key`` and returns its
   * ``ref``, or null when that socket is not connected; ``fetchPage(key, before)`` fetches
   * the page of seat ``key``'s messages before position ``before`` (the server sends only the
   * latest page when a connection opens). */
  constructor(tableId, { send, fetchPage }) {
    this.tableId = tableId;
    this.send = send;
    this.fetchPage = fetchPage;
    this.lists = new Map(); // seat key (a seat number, or "watch") -> its messages, oldest first
    this.firsts = new Map(); // seat key -> the position of its oldest message on hand
    this.sending = new Map(); // `${key}:${ref}` -> the text on its way, put back if refused
    this.key = null; // whose messages are on screen
    this.table = null; // the table's latest public summary (seats and names)
    const saved = localStorage.getItem(OPEN_KEY);
    this.open = saved === null ? window.matchMedia(WIDE).matches : saved === "1";
    this.build();
  }

  build() {
    this.badge = h("span", { class: "unread-count", "aria-label": "unread messages", hidden: true });
    this.toggleButton = h("button", { type: "button", class: "messages-toggle", "aria-controls": `messages-body-${this.tableId}`, title: "messages (m)", onclick: () => this.setOpen(!this.open) },
      h("span", { class: "messages-title" }, "Messages"), this.badge);
    this.list = h("ol", { class: "message-list", "aria-live": "polite", "aria-label": "messages", tabindex: "0" });
    this.recipient = h("select", { class: "message-to", "aria-label": "send to" });
    this.input = h("input", { type: "text", class: "message-input", maxlength: String(2 * MAX_TEXT), autocomplete: "off", placeholder: "Write a message, Enter sends", "aria-label": "message" });
    this.input.addEventListener("input", () => this.showError(null));
    this.error = h("p", { class: "message-error", role: "alert", hidden: true });
    this.form = h("form", { class: "message-form", onsubmit: (event) => {
      event.preventDefault();
      this.submit();
    } }, h("div", { class: "message-row" }, h("label", { class: "muted" }, "To ", this.recipient)), h("div", { class: "message-row" }, this.input, h("button", { type: "submit" }, "Send")), this.error);
    this.readOnly = h("p", { class: "muted message-note" }, "Spectators read the messages to everyone.");
    this.body = h("div", { class: "messages-body", id: `messages-body-${this.tableId}` }, this.list, this.form, this.readOnly);
    this.element = h("aside", { class: "messages-panel", "aria-label": "messages", hidden: true }, this.toggleButton, this.body);
    this.setOpen(this.open, false);
  }

  // ---------------------------------------------------------------- what the table page says

  /** Show the messages of seat ``key`` ("watch": a spectator's) at the table ``table``. The
   * panel is there only at tables where at least two people sit. */
  show(key, table) {
    const people = table.seats.filter((s) => s.kind === "human");
    const seatsChanged = !this.table || JSON.stringify(this.table.seats.map((s) => [s.name, s.kind])) !== JSON.stringify(table.seats.map((s) => [s.name, s.kind]));
    this.table = table;
    this.element.hidden = people.length < 2;
    if (this.element.hidden) return;
    if (key !== this.key || seatsChanged || !this.list.childElementCount) {
      this.key = key;
      this.drawRecipients();
      this.drawList();
    }
    this.drawBadge();
  }

  /** Hot-seat: the device is being passed on; nothing of the last seat's stays on screen. */
  hide() {
    this.key = null;
    this.list.replaceChildren();
    this.element.hidden = true;
  }

  /** A connection's reply, if it belongs to the channel: the messages a seat may read (on
   * connecting), a new one, or the server refusing one of ours. True when handled. */
  receive(key, message) {
    if (message.type === "messages") {
      this.lists.set(key, message.messages.slice());
      this.firsts.set(key, message.first || 0);
      if (key === this.key) this.drawList();
      this.drawBadge();
      return true;
    }
    if (message.type === "message") {
      if (message.ref !== undefined) this.sending.delete(`${key}:${message.ref}`);
      this.add(key, message.message);
      return true;
    }
    if (message.type === "error" && this.sending.has(`${key}:${message.ref}`)) {
      const text = this.sending.get(`${key}:${message.ref}`);
      this.sending.delete(`${key}:${message.ref}`);
      if (key === this.key) {
        if (!this.input.value) this.input.value = text;
        this.showError(message.error);
      }
      return true;
    }
    return false;
  }

  /** Open the panel and put the cursor in its box (the m key). */
  focus() {
    if (this.element.hidden) return;
    this.setOpen(true);
    if (!this.form.hidden) this.input.focus();
  }

  // ---------------------------------------------------------------- drawing

  setOpen(open, remember = true) {
    this.open = open;
    this.element.dataset.open = open ? "yes" : "no";
    this.toggleButton.setAttribute("aria-expanded", open ? "true" : "false");
    this.body.hidden = !open;
    if (remember) localStorage.setItem(OPEN_KEY, open ? "1" : "0");
    if (open) {
      this.list.scrollTop = this.list.scrollHeight;
      this.drawBadge();
    }
  }

  add(key, message) {
    if (!this.lists.has(key)) this.lists.set(key, []);
    this.lists.get(key).push(message);
    if (key === this.key) {
      this.list.querySelector(".message-empty")?.remove();
      this.list.append(this.item(message));
      this.list.scrollTop = this.list.scrollHeight;
    }
    this.drawBadge();
  }

  name(seat) {
    if (seat === this.key) return "you";
    const s = this.table && this.table.seats[seat];
    return s ? s.name : `seat ${seat}`;
  }

  item(message) {
    const mine = message.from === this.key;
    const whisper = message.to !== null && message.to !== undefined;
    const when = new Date(message.at * 1000);
    return h("li", { class: ["message", whisper ? "private" : "public", mine ? "mine" : ""].join(" "), "data-from": message.from, "data-to": whisper ? message.to : "all" },
      h("div", { class: "message-meta" },
        h("span", { class: "message-from" }, this.name(message.from)),
        whisper ? h("span", { class: "message-whisper" }, ` → ${this.name(message.to)}, privately`) : null,
        h("time", { datetime: when.toISOString(), title: when.toLocaleString() }, clock(message.at))),
      h("div", { class: "message-text" }, message.text));
  }

  drawList() {
    const messages = this.lists.get(this.key) || [];
    this.list.replaceChildren(...messages.map((m) => this.item(m)));
    if (!messages.length) this.list.append(h("li", { class: "message-empty muted" }, "No messages yet."));
    if (this.firsts.get(this.key) > 0) {
      const key = this.key;
      this.list.prepend(h("li", { class: "message-earlier" }, h("button", { type: "button", onclick: () => this.earlier(key) }, "Earlier messages")));
    }
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Fetch the page before the oldest message on hand, and show it above the others. */
  async earlier(key) {
    let page;
    try {
      page = await this.fetchPage(key, this.firsts.get(key));
    } catch (error) {
      this.showError(`Earlier messages could not be fetched: ${error.message}`);
      return;
    }
    this.lists.set(key, [...page.messages, ...(this.lists.get(key) || [])]);
    this.firsts.set(key, page.first);
    if (key === this.key) {
      // the button that asked is drawn anew: the focus stays at the top of the list, on the
      // next page's button if there is one more
      const hadFocus = this.list.contains(document.activeElement);
      this.drawList();
      this.list.scrollTop = 0;
      if (hadFocus) (this.list.querySelector(".message-earlier button") || this.list).focus();
    }
  }

  drawRecipients() {
    const watching = this.key === "watch" || this.key === null;
    this.form.hidden = watching;
    this.readOnly.hidden = !watching;
    if (watching) return;
    const chosen = this.recipient.value;
    const others = this.table.seats.filter((s) => s.kind === "human" && s.seat !== this.key);
    this.recipient.replaceChildren(h("option", { value: "" }, "everyone"),
      ...others.map((s) => h("option", { value: String(s.seat) }, `only ${s.name}${/\bseat\b/i.test(s.name) ? "" : ` (seat ${s.seat})`}`)));
    if ([...this.recipient.options].some((o) => o.value === chosen)) this.recipient.value = chosen;
  }

  /** The unread count: messages from others newer than the last one seen with the panel open. */
  drawBadge() {
    const key = this.key;
    const messages = (key !== null && this.lists.get(key)) || [];
    const seenKey = `spyglass.messages.seen.${this.tableId}.${key}`;
    let seen = Number(localStorage.getItem(seenKey) || 0);
    if (this.open && !this.element.hidden && messages.length) {
      const last = messages[messages.length - 1].at;
      if (last > seen) localStorage.setItem(seenKey, String((seen = last)));
    }
    const unread = messages.filter((m) => m.at > seen && m.from !== key).length;
    this.element.dataset.unread = String(unread);
    this.badge.hidden = this.open || !unread;
    this.badge.textContent = String(unread);
    this.toggleButton.setAttribute("aria-label", unread && !this.open ? `Messages, ${unread} unread` : "Messages");
  }

  showError(text) {
    this.error.hidden = !text;
    this.error.textContent = text || "";
  }

  submit() {
    const text = this.input.value.trim();
    if (!text || this.key === null || this.key === "watch") return;
    if (length(text) > MAX_TEXT) {
      this.showError(`A message is at most ${MAX_TEXT} characters; this one has ${length(text)}.`);
      return;
    }
    const to = this.recipient.value === "" ? null : Number(this.recipient.value);
    const ref = this.send(this.key, { type: "say", text, to });
    if (ref === null) {
      this.showError("Not connected to the server: reconnecting…");
      return;
    }
    this.sending.set(`${this.key}:${ref}`, text);
    this.input.value = "";
    this.showError(null);
  }
}
