// A table: the seat's view drawn from the game's layout, moves by click, list or keyboard,
// the log, hints, undo (solo), stories to step through, the result, hot-seat hand-over, and
// the table's messages in a panel beside it (messages.js).

import { adoptFragment, api, forgetSeat, saveSeatToken, seatTokens, TableSocket } from "./api.js";
import { richText } from "./cards.js";
import { MessagePanel } from "./messages.js";
import { MoveController } from "./moves.js";
import { seatsDialog } from "./seats.js";
import { h, renderTable } from "./render.js";
import { dialog, game, notice, resultPanel, showRules, walkStory } from "./ui.js";

export async function tablePage(root, tableId) {
  const adopted = await adoptFragment(tableId);
  if (adopted && adopted.error) notice(adopted.error, "error");
  const page = new TablePage(root, tableId);
  await page.start();
  return page;
}

class TablePage {
  constructor(root, tableId) {
    this.root = root;
    this.id = tableId;
    this.tokens = seatTokens(tableId);
    this.mySeats = Object.keys(this.tokens).map(Number).sort((a, b) => a - b);
    this.messages = new Map(); // seat (or "watch") -> latest state message
    this.sockets = new Map();
    this.shown = null; // the seat whose view is on screen
    this.covered = null; // hot-seat: the seat the pass-the-device screen waits for
    this.info = null;
    this.walking = false;
    this.drawPending = false; // a draw is waiting for the next frame
    this.controller = new MoveController({
      onPlay: (move) => this.play(move.notation),
      onChange: () => this.drawMoves(),
    });
    // The panel stays in the page while the table is drawn again beside it, so what is being
    // typed survives every move.
    this.panel = new MessagePanel(tableId, {
      send: (key, message) => {
        const socket = this.sockets.get(key);
        return socket ? socket.send(message) : null;
      },
      fetchPage: (key, before) => api(`/api/tables/${encodeURIComponent(tableId)}/messages?before=${before}&limit=100`, { token: key === "watch" ? undefined : this.tokens[key] }),
    });
    this.area = h("div", { class: "table-area" });
    this.layout = h("div", { class: "table-with-messages" }, this.area, this.panel.element);
  }

  /** Put the table (or the pass-the-device screen) on the page, beside the messages. */
  place(...children) {
    this.area.replaceChildren(...children);
    if (!this.layout.isConnected) this.root.replaceChildren(this.layout);
  }

  handlers(key) {
    return {
      onState: (message) => this.receive(key, message),
      onReply: (message) => this.reply(key, message),
      onStatus: (status, code, error) => this.status(key, status, code, error),
    };
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "muted" }, "Connecting…"));
    if (this.mySeats.length) {
      for (const seat of this.mySeats) this.sockets.set(seat, new TableSocket(this.id, this.tokens[seat], this.handlers(seat)));
    } else {
      this.sockets.set("watch", new TableSocket(this.id, null, this.handlers("watch")));
    }
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /** A new key for one of this browser's seats: its socket is closed first (the server closes
   * every connection holding the old key), then opened again with the new one. */
  async rotateSeat(seat) {
    const old = this.sockets.get(seat);
    if (old) old.close();
    try {
      const rotated = await api(`/api/tables/${encodeURIComponent(this.id)}/token`, { method: "POST", token: this.tokens[seat] });
      saveSeatToken(this.id, seat, rotated.token);
      this.tokens[seat] = rotated.token;
      notice("This seat has a new key: any other copy of the old one no longer works.");
    } catch (error) {
      notice(error.message, "error");
    }
    this.sockets.set(seat, new TableSocket(this.id, this.tokens[seat], this.handlers(seat)));
  }

  status(key, status, code, error) {
    if (status === "closed" && code === 4401) {
      // this seat's key was replaced (the host re-invited the seat, or another copy of the
      // key asked for a new one): it is no longer this browser's
      forgetSeat(this.id, key);
      this.root.replaceChildren(h("div", { class: "error-page" }, h("h2", {}, "You no longer hold this seat"), h("p", {}, error || "this seat's key was replaced"), h("p", {}, h("a", { href: `/table/${this.id}` }, "Watch the table"), " · ", h("a", { href: "/" }, "Back to the lobby"))));
      return;
    }
    if (status === "closed" && !(code >= 4400 && code < 4500)) {
      if (!this.lost) notice("Connection to the server lost: reconnecting…", "error");
      this.lost = true;
    } else if (status === "open" && this.lost) {
      this.lost = false;
      // a move sent before the link broke may never have arrived: let it be made again
      if (this.controller.pending) {
        this.controller.resume();
        this.drawMoves();
      }
      notice("Reconnected.");
    }
    if (status === "closed" && code >= 4400 && code < 4500) {
      const why = code === 4403 ? "this browser's token holds no seat at this table" : code === 4404 ? "there is no such table" : `refused (${code})`;
      this.root.replaceChildren(h("div", { class: "error-page" }, h("h2", {}, "Cannot join the table"), h("p", {}, why), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
    }
  }

  reply(key, message) {
    if (this.panel.receive(key, message)) return;
    if (message.type === "error") {
      this.controller.resume();
      this.drawMoves();
      notice(message.rule && !message.error.includes(message.rule) ? `${message.error} (${message.rule})` : message.error, "error");
    } else if (message.type === "hint") {
      const a = message.action;
      notice(`Hint (${message.agent}): ${a.notation} — ${a.text}`, "hint");
      this.controller.hint(a);
      this.hinted = a.notation;
      this.drawMoves();
    }
  }

  async receive(key, message) {
    this.messages.set(key, message);
    if (!this.info) this.info = await game(message.table.game);
    this.drawSoon();
  }

  /** Draw the latest state once the browser paints next: when bots move faster than the page
   * can draw, the states between two paints are never drawn (nobody could have seen them). */
  drawSoon() {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.draw();
    });
  }

  latest() {
    let best = null;
    for (const m of this.messages.values()) if (!best || m.view.step > best.view.step) best = m;
    return best;
  }

  /** Whose view to show: the local seat to move, else the only local seat, else the last. */
  desiredSeat(latest) {
    if (!this.mySeats.length) return "watch";
    const current = latest.table.current_player;
    if (this.mySeats.includes(current)) return current;
    if (this.mySeats.length === 1) return this.mySeats[0];
    return this.shown ?? this.mySeats[0];
  }

  draw() {
    const latest = this.latest();
    if (!latest || !this.info) return;
    const want = this.desiredSeat(latest);
    const hotSeat = this.mySeats.length > 1;
    if (hotSeat && this.shown !== null && want !== this.shown) {
      this.cover(want, latest);
      return;
    }
    if (this.covered !== null) return;
    this.shown = want;
    const message = this.messages.get(want);
    if (!message) return;
    this.message = message;
    this.render(message);
    this.panel.show(want, message.table);
    this.stories(message);
  }

  /** Hot-seat: hide the last hand until the next person says they hold the device. */
  cover(seat, latest) {
    if (this.covered === seat) return;
    this.covered = seat;
    this.panel.hide();
    const name = latest.table.seats[seat].name;
    const button = h("button", { type: "button", class: "primary big", id: "show-hand", onclick: () => {
      this.covered = null;
      this.shown = seat;
      this.draw();
    } }, `I am ${name}: show my hand`);
    this.place(h("div", { class: "pass-device", role: "dialog", "aria-label": "pass the device" },
      h("h2", {}, `Pass the device to ${name}`),
      h("p", {}, "The last hand is hidden. When you hold the device, press the button."),
      button));
    button.focus();
  }

  stories(message) {
    if (this.walking || !this.info) return;
    const key = `spyglass.stories.${this.id}.${message.seat ?? "watch"}`;
    const seen = new Set(JSON.parse(localStorage.getItem(key) || "[]"));
    for (const region of this.info.layout) {
      if (region.kind !== "story") continue;
      const story = message.view.table[region.key];
      if (!story || !story.steps || !story.steps.length || seen.has(String(story.id))) continue;
      seen.add(String(story.id));
      localStorage.setItem(key, JSON.stringify([...seen]));
      this.walking = true;
      walkStory(story, { onDone: () => { this.walking = false; } });
      return;
    }
  }

  render(message) {
    const { table, view } = message;
    const info = this.info;
    document.title = `${info.title} · spyglass`;
    const current = table.current_player;
    const mine = message.seat !== null && message.seat !== undefined;
    let status;
    if (view.over) status = "Game over";
    else if (mine && current === message.seat) status = table.players > 1 ? `Your move, ${table.seats[current].name}` : "Your move";
    else status = `${table.seats[current].name} to move${table.seats[current].kind === "bot" ? " (bot thinking…)" : ""}`;
    const seats = h("ul", { class: "seat-list" }, table.seats.map((s) => h("li", {
      class: ["seat", s.seat === current ? "to-move" : "", s.seat === message.seat ? "me" : "", s.kind].join(" "),
    }, h("span", { class: `dot ${s.kind === "bot" ? "dot-bot" : s.connected ? "dot-on" : "dot-off"}`, title: s.kind === "bot" ? `bot: ${s.agent}` : s.connected ? "connected" : "not connected" }), s.name, /\bseat\b/i.test(s.name) ? "" : h("span", { class: "muted" }, ` · seat ${s.seat}`), s.seat === message.seat ? " (you)" : "")));
    const buttons = h("div", { class: "buttons table-buttons" },
      h("button", { type: "button", onclick: () => showRules(info.id), title: "rules (r)" }, "Rules"),
      table.players > 1 ? h("button", { type: "button", id: "seats", onclick: () => seatsDialog(this.id, table, this.mySeats, (seat) => this.rotateSeat(seat)) }, "Seats") : null,
      mine && message.legal.length ? h("button", { type: "button", id: "hint", onclick: () => this.hint(), title: "hint (h)" }, "Hint") : null,
      message.can_undo ? h("button", { type: "button", id: "undo", onclick: () => this.undo(), title: "undo (u)" }, "Undo") : null,
      view.over ? h("a", { class: "button", href: `/api/tables/${this.id}/record`, download: "" }, "Download record") : null,
      view.over ? h("a", { class: "button", href: `/table/${this.id}/replay` }, "Replay") : null,
      !mine && table.status !== "over" ? h("span", { class: "muted" }, "watching") : null,
      h("a", { class: "button", href: "/" }, "Lobby"));
    const head = h("header", { class: "table-head" },
      h("div", {}, h("h1", {}, info.title, info.edition ? h("small", { class: "muted" }, ` (${info.edition})`) : null),
        h("p", { class: "status", "aria-live": "polite" }, status, h("span", { class: "muted" }, ` · step ${view.step}`))),
      seats, buttons);
    const board = h("div", { class: "board" });
    this.movesBox = h("section", { class: "moves", "aria-label": "moves" });
    const log = h("ol", { class: "log-lines" }, (view.log || []).map((line) => h("li", {}, richText(line))));
    const side = h("aside", { class: "side" }, this.movesBox, h("section", { class: "log" }, h("h3", {}, "Log"), log));
    this.choiceBar = h("div", { class: "choice-bar", role: "group", "aria-label": "moves to choose" });
    const body = h("div", { class: "table-body" }, h("div", { class: "board-col" }, view.over ? resultPanel(view.result, table.seats) : null, this.choiceBar, board), side);
    this.place(h("div", {
      class: "table-page",
      "data-step": view.step,
      "data-seat": message.seat ?? "watch",
      "data-current": current ?? "none",
      "data-over": view.over ? "yes" : "no",
      "data-my-move": message.legal.length ? "yes" : "no",
    }, head, body));
    const reg = renderTable(board, view, info.layout, { onStory: (story) => walkStory(story) });
    this.controller.update(message.legal, reg, view.step);
    this.drawMoves();
    log.scrollTop = log.scrollHeight;
  }

  /** The buttons by the board: moves the board cannot show, or the ways to finish a choice. */
  drawChoices() {
    const bar = this.choiceBar;
    if (!bar) return;
    const choices = this.controller.choices();
    bar.replaceChildren(...choices.map((a) => h("button", {
      type: "button",
      class: `choice ${this.hinted === a.notation ? "hinted" : ""}`,
      "data-notation": a.notation,
      title: a.text,
      onclick: () => this.play(a.notation),
    }, richText(a.notation))));
    if (choices.length && this.controller.active) bar.prepend(h("span", { class: "muted" }, "Play it as: "));
    bar.hidden = !choices.length;
  }

  drawMoves() {
    this.drawChoices();
    const message = this.message;
    if (!message || !this.movesBox) return;
    const box = this.movesBox;
    const legal = message.legal;
    if (!legal.length) {
      box.replaceChildren(h("h3", {}, "Moves"), h("p", { class: "muted" }, message.view.over ? "The game is over." : "Waiting for the seat to move."));
      return;
    }
    const picked = this.controller.active;
    const shown = picked ? this.controller.candidates() : legal;
    const filter = (this.filter || "").trim().toLowerCase();
    const input = h("input", { id: "notation", type: "text", autocomplete: "off", spellcheck: "false", placeholder: "type a move or its number", "aria-label": "move notation", value: this.filter || "" });
    input.addEventListener("input", () => {
      this.filter = input.value;
      this.drawMoves();
      const again = document.getElementById("notation");
      again.focus();
      again.setSelectionRange(again.value.length, again.value.length);
    });
    const form = h("form", { class: "notation", onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      const number = /^\d+$/.test(text) ? Number(text) : null;
      if (number !== null && number >= 1 && number <= legal.length) this.play(legal[number - 1].notation);
      else this.play(text);
    } }, input, h("button", { type: "submit" }, "Play"));
    const list = h("ol", { class: "move-list" });
    legal.forEach((a, i) => {
      if (!shown.includes(a)) return;
      if (filter && !/^\d+$/.test(filter) && !(`${a.notation} ${a.text}`.toLowerCase().includes(filter))) return;
      list.append(h("li", { value: i + 1 }, h("button", {
        type: "button",
        class: `move ${this.hinted === a.notation ? "hinted" : ""}`,
        "data-notation": a.notation,
        disabled: this.controller.pending,
        onclick: () => this.play(a.notation),
      }, h("span", { class: "notation-text" }, richText(a.notation)), h("span", { class: "describe" }, richText(a.text)))));
    });
    const head = h("h3", {}, picked ? `Moves with your choice (${shown.length})` : `Your moves (${legal.length})`);
    box.replaceChildren(head,
      picked ? h("button", { type: "button", class: "small", onclick: () => this.controller.clear() }, "Clear choice (Esc)") : h("p", { class: "muted help" }, "Click the highlighted cards and places, pick from the list, or type a move."),
      form, list);
  }

  socket() {
    return this.sockets.get(this.shown);
  }

  play(notation) {
    const socket = this.socket();
    if (!socket || !this.message || this.controller.pending) return;
    this.filter = "";
    this.hinted = null;
    const sent = socket.send({ type: "act", action: notation, step: this.message.view.step });
    if (sent === null) {
      notice("Not connected to the server: reconnecting…", "error");
      return;
    }
    this.controller.wait(this.message.view.step);
    this.drawMoves();
  }

  hint() {
    const socket = this.socket();
    if (socket && socket.send({ type: "hint" }) !== null) notice("Thinking about a hint…");
  }

  undo() {
    const socket = this.socket();
    if (socket) socket.send({ type: "undo" });
  }

  key(event) {
    if (event.target.closest && event.target.closest("input, select, textarea") && event.key !== "Escape") return;
    if (document.querySelector(".overlay")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const message = this.message;
    if (!message) return;
    if (event.key === "Escape") {
      this.controller.clear();
      this.filter = "";
      this.drawMoves();
    } else if (event.key === "h" && message.legal.length) this.hint();
    else if (event.key === "u" && message.can_undo) this.undo();
    else if (event.key === "r") showRules(this.info.id);
    else if (event.key === "m" && !this.panel.element.hidden) {
      event.preventDefault(); // the m is not typed into the box it opens
      this.panel.focus();
    }
    else if ((event.key === "/" || /^[0-9]$/.test(event.key)) && message.legal.length) {
      event.preventDefault();
      this.filter = event.key === "/" ? "" : event.key;
      this.drawMoves();
      const input = document.getElementById("notation");
      if (input) {
        input.focus();
        input.setSelectionRange(input.value.length, input.value.length);
      }
    } else if (event.key === "?") {
      dialog("Keyboard", h("ul", {},
        h("li", {}, h("kbd", {}, "1"), "–", h("kbd", {}, "9"), " or ", h("kbd", {}, "/"), ": type a move's number or notation, then Enter"),
        h("li", {}, h("kbd", {}, "Tab"), " to a highlighted card or place, ", h("kbd", {}, "Enter"), " to choose it"),
        h("li", {}, h("kbd", {}, "Esc"), ": clear your choice"),
        h("li", {}, h("kbd", {}, "h"), ": hint · ", h("kbd", {}, "u"), ": undo (solo) · ", h("kbd", {}, "r"), ": rules"),
        this.panel.element.hidden ? null : h("li", {}, h("kbd", {}, "m"), ": write a message (", h("kbd", {}, "Enter"), " sends it)")));
    }
  }
}
