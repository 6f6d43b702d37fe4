// A table: the seat's view drawn from the game's layout, moves by click, list or keyboard,
// the log, hints, undo (solo), stories to step through, the result, hot-seat hand-over, the
// Seats dialog (seats.js), and the table's messages in a panel beside it (messages.js).
//
// The page is built once and then updated in place at every state: the status line (the one
// live region screen readers hear: whose move it is and what just happened), the seats, the
// buttons, the move box (never rebuilt while someone types in it), the log (new lines added).
// The board keeps every region whose value did not change. When the element with the focus
// is drawn anew, the focus goes deterministically to the same card or place, else to the
// nearest one that can be chosen in the same region, else to the first button by the board,
// else to the region itself while others move; when the seat's turn comes back, it moves on
// from there to the new choices. So Tab never has to cross the board again after a move.

import { accountCorner } from "./account.js";
import { api, forgetSeat, gameInfo, hostKey, openTable, saveHostKey, saveSeatToken, TableSocket, takeSeat } from "./api.js";
import { named, richText, setSeatNames } from "./cards.js";
import { Clocks, timeoutLines } from "./clock.js";
import { dialog, dialogOpen } from "./dialog.js";
import { h, spoken } from "./dom.js";
import { MessagePanel } from "./messages.js";
import { MoveController } from "./moves.js";
import { notice } from "./notices.js";
import { Board } from "./render.js";
import { resultPanel } from "./result.js";
import { showRules } from "./rules.js";
import { seatsDialog } from "./seats.js";
import { walkStory } from "./story.js";
import { mark } from "./marks.js";
import { TurnSignal } from "./turn.js";

/** The table page, on the connections ``openTable`` opened (api.js). */
export async function tablePage(root, tableId, opening = openTable(tableId)) {
  mark("table-code");
  const opened = await opening;
  if (opened.error) notice(opened.error, "error"); // an invite that could not be claimed
  const page = new TablePage(root, tableId, opened);
  page.start();
  return page;
}

/** The board's cards and places, and the handles (titles) of places that have them. */
const ITEMS = "[data-card]:not([data-card='']), [data-place], [data-handle]";

/** A board item's place name: a handle stands for its place. */
function placeOf(el) {
  return el.dataset.handle ?? el.dataset.place;
}

/** Whether ``el`` can be chosen now (a live card or place, or a button not turned off). */
function usable(el) {
  if (!el || !el.isConnected || el.closest("[hidden], [inert]")) return false;
  if (el.matches(ITEMS)) return el.getAttribute("tabindex") === "0";
  return !el.disabled && el.getAttribute("aria-disabled") !== "true";
}

/** Of ``items``, [position, element] pairs, the element nearest to position ``index`` (the
 * next one first, then the one before), or null. */
function nearest(items, index) {
  if (!items.length) return null;
  if (index < 0) return items[0][1];
  let best = null;
  let gap = Infinity;
  for (const [i, item] of items) {
    const d = i >= index ? i - index : index - i + 0.5;
    if (d < gap) {
      gap = d;
      best = item;
    }
  }
  return best;
}

class TablePage {
  constructor(root, tableId, opened) {
    this.root = root;
    this.id = tableId;
    this.tokens = opened.tokens;
    this.mySeats = opened.seats;
    this.messages = new Map(); // seat (or "watch") -> latest state message
    this.sockets = opened.sockets;
    this.linked = new Map(); // seat key -> whether its socket is connected
    this.shown = null; // the seat whose view is on screen
    this.covered = null; // hot-seat: the seat the pass-the-device screen waits for
    this.info = null;
    this.walking = false;
    this.drawPending = false; // a draw is waiting for the next frame
    this.offline = false;
    this.retries = 0; // failed attempts to reconnect since the link was lost
    this.built = false;
    this.filter = "";
    this.hinted = null;
    this.parked = null; // the region (or board) holding the focus while others move
    this.uncovered = false; // hot-seat: the hand was just shown; focus its first choice
    this.lastLog = null;
    this.clocks = new Clocks();
    this.turn = new TurnSignal();
    this.afterKey = null; // what the end-of-game (or waiting) panel shows, to draw it only when it changes
    this.rematching = false;
    this.cornered = false; // the top bar's account corner is drawn (after the table: cornerOnce)
    this.controller = new MoveController({
      onPlay: (move) => this.play(move.notation),
      onChange: () => this.withFocus(() => this.drawMoves()),
    });
    // The panel stays in the page while the table is updated beside it, so what is being
    // typed survives every move.
    this.panel = new MessagePanel(tableId, {
      send: (key, message) => {
        const socket = this.sockets.get(key);
        return socket ? socket.send(message) : null;
      },
      // older messages, a page at a time (a connection brings only the latest page)
      fetchPage: (key, before) => api(`/api/tables/${encodeURIComponent(tableId)}/messages?before=${before}&limit=100`, { token: key === "watch" ? undefined : this.tokens[key] }),
    });
    this.area = h("div", { class: "table-area" });
    this.layout = h("div", { class: "table-with-messages" }, this.area, this.panel.element);
  }

  // ---------------------------------------------------------------- connections

  handlers(key) {
    return {
      onState: (message) => this.receive(key, message),
      onReply: (message) => this.reply(key, message),
      onStatus: (status, detail) => this.status(key, status, detail),
    };
  }

  start() {
    this.root.replaceChildren(h("p", { class: "muted loading", role: "status" }, "Connecting…"));
    for (const [key, socket] of this.sockets) socket.attach(this.handlers(key));
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /** A new key for one of this browser's seats: its connection is closed first (the server
   * closes every connection holding the old key), then opened again with the new one. */
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

  status(key, status, detail) {
    if (status === "refused" && detail.code === 4401) {
      // this seat's key was replaced (the host re-invited the seat, or another copy of the key
      // asked for a new one): it is no longer this browser's
      for (const socket of this.sockets.values()) socket.close();
      forgetSeat(this.id, key);
      this.root.replaceChildren(h("div", { class: "error-page", role: "alert" },
        h("h1", {}, "You no longer hold this seat"),
        h("p", {}, detail.error || "this seat's key was replaced"),
        h("p", {}, h("a", { href: `/table/${encodeURIComponent(this.id)}` }, "Watch the table"), " · ", h("a", { href: "/" }, "Back to the lobby"))));
      this.cornerOnce();
      return;
    }
    if (status === "refused") {
      for (const socket of this.sockets.values()) socket.close();
      const code = detail.code;
      const why = code === 4403 ? "this browser's token holds no seat at this table" : code === 4404 ? "there is no such table" : `refused (${code})`;
      this.root.replaceChildren(h("div", { class: "error-page", role: "alert" }, h("h1", {}, "Cannot join the table"), h("p", {}, why), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
      this.cornerOnce();
      return;
    }
    if (status === "closed") {
      this.retries += 1;
      if (this.built) {
        this.page.dataset.retries = String(this.retries);
        this.nextTry.textContent = `Next try in ${Math.max(1, Math.round(detail.retryIn / 1000))} s.`;
      }
    } else if (status === "open") {
      this.retries = 0;
      if (this.built) this.page.dataset.retries = "0";
    }
    this.linked.set(key, status === "open"); // undefined until the first try: connecting
    const offline = [...this.linked.values()].some((up) => up === false);
    if (offline === this.offline) return;
    this.offline = offline;
    if (!offline) {
      // a move sent before the link broke may never have arrived: let it be made again
      if (this.controller.pending) this.controller.resume();
      notice("Reconnected: the table is live again.");
    }
    this.controller.setOffline(offline);
    if (this.built) {
      this.withFocus(() => {
        this.updateHead(this.message);
        this.drawAfter(this.message);
        this.drawMoves();
      });
    } else if (offline) {
      this.root.replaceChildren(h("p", { class: "loading", role: "status" }, "Cannot reach the server: trying again…"));
    }
  }

  reply(key, message) {
    if (this.panel.receive(key, message)) return;
    if (message.type === "error") {
      this.controller.resume();
      this.withFocus(() => this.drawMoves());
      notice(message.rule && !message.error.includes(message.rule) ? `${message.error} (${message.rule})` : message.error, "error");
    } else if (message.type === "hint") {
      const a = message.action;
      notice(richText(`Hint (${message.agent}): ${a.notation} — ${a.text}`), "hint");
      this.controller.hint(a);
      this.hinted = a.notation;
      this.withFocus(() => this.drawMoves());
    }
  }

  async receive(key, message) {
    message.arrived = performance.now(); // the clocks count down from here
    this.messages.set(key, message);
    // the description came first on the connection (api.js): no request unless it did not
    if (!this.info) this.info = await gameInfo(message.table.game);
    // the first state is drawn at once: there is nothing on screen to keep up with yet
    if (!this.built && !this.drawPending) this.draw();
    else this.drawSoon();
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
    this.withFocus(() => this.render(message));
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
      this.uncovered = true;
      this.draw();
    } }, `I am ${name}: show my hand`);
    this.area.replaceChildren(h("section", { class: "pass-device", "aria-labelledby": "pass-title" },
      h("h1", { id: "pass-title" }, `Pass the device to ${name}`),
      h("p", {}, "The last hand is hidden. When you hold the device, press the button."),
      button));
    this.announce(`Pass the device to ${name}.`);
    button.focus();
    this.cornerOnce();
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
      walkStory(story, { onDone: () => { this.walking = false; }, restore: () => this.comeBack() });
      return;
    }
  }

  // ---------------------------------------------------------------- the page, built once

  build() {
    const info = this.info;
    this.status_ = h("span", { class: "status-main" });
    this.event = h("span", { class: "status-event" });
    // The one live region of the table: its text changes, the element stays.
    this.statusLine = h("p", { class: "status", id: "status", role: "status", "aria-live": "polite", "aria-atomic": "true" }, this.status_, this.event);
    this.stepLine = h("p", { class: "step muted" });
    this.seatList = h("ul", { class: "seat-list", "aria-label": "seats" });
    this.hintButton = h("button", { type: "button", id: "hint", title: "hint (h)", onclick: () => this.hint() }, "Hint");
    this.undoButton = h("button", { type: "button", id: "undo", title: "undo (u)", onclick: () => this.undo() }, "Undo");
    this.recordLink = h("a", { class: "button", href: `/api/tables/${encodeURIComponent(this.id)}/record`, download: "" }, "Download record");
    this.replayLink = h("a", { class: "button", href: `/table/${encodeURIComponent(this.id)}/replay` }, "Replay");
    this.watching = h("span", { class: "muted" }, "watching");
    this.seatsButton = h("button", { type: "button", id: "seats", onclick: () => this.showSeats() }, "Seats");
    this.signals = h("span", { class: "buttons signals" }, this.turn.soundButton, this.turn.notifyButton);
    const buttons = h("div", { class: "buttons table-buttons" },
      h("button", { type: "button", onclick: () => showRules(info.id, { restore: () => this.comeBack() }), title: "rules (r)" }, "Rules"),
      h("button", { type: "button", onclick: () => this.keysHelp(), title: "keys (?)" }, "Keys"),
      this.seatsButton, this.hintButton, this.undoButton, this.recordLink, this.replayLink, this.watching, this.signals,
      h("a", { class: "button", href: "/" }, "Lobby"));
    const head = h("header", { class: "table-head" },
      h("div", {}, h("h1", {}, info.title, info.edition ? h("small", { class: "muted" }, ` (${info.edition})`) : null), this.statusLine, this.stepLine),
      this.seatList, buttons);
    this.retryButton = h("button", { type: "button", class: "small", onclick: () => this.retry() }, "Try now");
    this.nextTry = h("span", {});
    this.offlineBar = h("div", { class: "offline-bar", hidden: true },
      h("strong", {}, "Offline."), " The link to the server is lost: nothing can be played until it is back. The page keeps trying to reconnect. ", this.nextTry, " ", this.retryButton);
    this.resultSlot = h("div", { class: "result-slot" });
    this.choiceBar = h("div", { class: "choice-bar", role: "group", "aria-label": "moves to choose", hidden: true });
    this.boardBox = h("div", { class: "board", tabindex: "-1", role: "group", "aria-label": "the table" });
    this.board = new Board(this.boardBox, info.layout, { onStory: (story) => walkStory(story, { restore: () => this.comeBack() }) });

    this.movesTitle = h("h2", { id: "moves-title" }, "Moves");
    this.movesHelp = h("p", { class: "muted help" });
    this.clearButton = h("button", { type: "button", class: "small", hidden: true, onclick: () => this.controller.clear() }, "Clear choice (Esc)");
    this.input = h("input", { id: "notation", type: "text", autocomplete: "off", spellcheck: "false", placeholder: "type a move or its number", "aria-label": "move notation" });
    this.input.addEventListener("input", () => {
      this.filter = this.input.value;
      this.withFocus(() => this.drawList());
    });
    this.playButton = h("button", { type: "submit" }, "Play");
    this.form = h("form", { class: "notation", onsubmit: (event) => {
      event.preventDefault();
      this.submitNotation();
    } }, this.input, this.playButton);
    this.moveList = h("ol", { class: "move-list", "aria-labelledby": "moves-title" });
    this.waiting = h("p", { class: "muted waiting" });
    this.movesBox = h("section", { class: "moves", "aria-labelledby": "moves-title" }, this.movesTitle, this.movesHelp, this.clearButton, this.form, this.waiting, this.moveList);
    this.logList = h("ol", { class: "log-lines", tabindex: "0", "aria-labelledby": "log-title" });
    const side = h("aside", { class: "side", "aria-label": "moves and log" }, this.movesBox,
      h("section", { class: "log", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, "Log"), this.logList));
    this.body = h("div", { class: "table-body" }, h("div", { class: "board-col" }, this.resultSlot, this.choiceBar, this.boardBox), side);
    this.page = h("div", { class: "table-page" }, head, this.offlineBar, this.body);
    this.built = true;
  }

  /** Put the table on the page (after the pass-the-device screen, or the first time). */
  placeTable() {
    if (this.area.childNodes.length !== 1 || this.area.firstChild !== this.page) this.area.replaceChildren(this.page);
    if (!this.layout.isConnected) this.root.replaceChildren(this.layout);
    this.cornerOnce();
  }

  /** The account corner of the top bar, asked for once the page shows what it is for (the
   * table, the pass-the-device screen, or why there is no table), after that has been painted:
   * neither its request nor its drawing competes with the table's first drawing. */
  cornerOnce() {
    if (this.cornered) return;
    this.cornered = true;
    requestAnimationFrame(() => setTimeout(accountCorner, 0));
  }

  render(message) {
    mark("draw");
    if (!this.built) this.build();
    const { table, view } = message;
    // names for "seat N" in everything drawn from the view; the board draws its regions
    // again when a name changed (a seat joined, a bot took over)
    if (setSeatNames(table.seats.map((s) => s.name))) this.board.parts = [];
    this.clocks.update(table.clock, message.arrived ?? performance.now());
    const waitingSeat = this.mySeats.includes(table.current_player) && table.status === "playing" && table.started !== false;
    this.turn.update(message.legal.length > 0 || (waitingSeat && this.mySeats.length > 1), this.info.title, table.current_player !== null && table.seats[table.current_player] ? table.seats[table.current_player].name : "", this.id);
    const data = this.page.dataset;
    data.step = view.step;
    data.seat = message.seat ?? "watch";
    data.current = table.current_player ?? "none";
    data.over = view.over || table.status === "over" ? "yes" : "no";
    data.myMove = message.legal.length ? "yes" : "no";
    this.updateLog([...(view.log || []), ...timeoutLines(table.clock)]);
    this.updateHead(message);
    this.drawAfter(message);
    const reg = this.board.draw(view);
    this.controller.update(message.legal, reg, view.step);
    this.drawMoves();
    this.placeTable();
    mark("drawn");
  }

  /** The status line, the seats and the buttons. */
  updateHead(message) {
    const { table, view } = message;
    const current = table.current_player;
    const mine = message.seat !== null && message.seat !== undefined;
    const over = view.over || table.status === "over";
    const summary = (table.result && table.result.summary) || (view.result && view.result.summary) || "";
    let status;
    if (this.offline) status = "Offline: reconnecting…";
    else if (over) status = `Game over. ${named(summary)}`.trim();
    else if (table.started === false) status = "Waiting for players to join.";
    else if (mine && current === message.seat) status = table.players > 1 ? `Your move, ${table.seats[current].name}.` : "Your move.";
    else status = `${table.seats[current].name} to move${table.seats[current].kind === "bot" ? " (bot thinking…)" : ""}.`;
    this.announce(status, this.offline || !this.lastLog ? "" : named(this.lastLog));
    this.page.dataset.online = this.offline ? "no" : "yes";
    this.stepLine.textContent = `step ${view.step}`;
    this.offlineBar.hidden = !this.offline;
    this.seatList.replaceChildren(...table.seats.map((s) => this.seatItem(s, message, current)));
    const off = (button, yes) => button.setAttribute("aria-disabled", yes ? "true" : "false");
    this.hintButton.hidden = !mine || over;
    off(this.hintButton, this.offline || !message.legal.length);
    this.undoButton.hidden = !mine || table.players > 1 || over;
    off(this.undoButton, this.offline || !message.can_undo);
    this.recordLink.hidden = this.replayLink.hidden = !over;
    this.watching.hidden = mine || over;
    this.signals.hidden = !mine || over || table.players < 2;
    this.seatsButton.hidden = table.players < 2;
  }

  /** Above the board: while an open table waits, who it waits for (and, for its host, the
   * start with bots); once the game is over, the result, ratings and the rematch. Drawn again
   * only when what it shows changed, so a button in it keeps the focus. */
  drawAfter(message) {
    const { table, view } = message;
    const over = view.over || table.status === "over";
    const mine = this.mySeats.length > 0;
    const key = JSON.stringify([table.started, over, over ? table.result : null, over ? view.result : null, table.rematch, mine, table.seats.map((s) => [s.name, s.open]), this.rematching, this.offline]);
    if (key === this.afterKey) return;
    this.afterKey = key;
    if (table.rematch && mine && !this.rematching && this.rematchSeen !== table.rematch) {
      this.rematchSeen = table.rematch;
      notice("A rematch is ready: press Join the rematch to take your seat in it.");
    }
    if (table.started === false) {
      this.resultSlot.replaceChildren(this.waitingPanel(table));
      return;
    }
    if (!over) {
      this.resultSlot.replaceChildren();
      return;
    }
    const panel = resultPanel(view.over ? view.result : null, table.seats, table.result || null);
    if (mine) {
      const asked = !!table.rematch;
      // offline: shown but turned off (aria-disabled keeps it focusable), as the move controls
      const button = h("button", { type: "button", class: "primary", id: "rematch", "aria-describedby": "rematch-help", "aria-disabled": this.offline ? "true" : "false", disabled: this.rematching, onclick: () => this.whenOnline(() => this.rematch()) }, asked ? "Join the rematch" : "Rematch");
      panel.append(h("div", { class: "rematch-bar buttons" }, button,
        h("span", { class: "muted", id: "rematch-help" }, asked ? "A rematch is set: the same players, the seats moved round, a new deal." : table.players > 1 ? "The same players and bots, the seats moved round, a new deal." : "A new deal of the same game.")));
    } else if (table.rematch) {
      panel.append(h("p", {}, h("a", { href: `/table/${encodeURIComponent(table.rematch)}` }, "Watch the rematch")));
    }
    this.resultSlot.replaceChildren(panel);
  }

  /** An open table that waits for players: its empty seats, and the host's start. */
  waitingPanel(table) {
    const open = table.seats.filter((s) => s.open || (s.kind === "human" && !s.claimed));
    const host = hostKey(this.id);
    const start = host ? h("button", { type: "button", class: "primary", id: "start-with-bots", "aria-disabled": this.offline ? "true" : "false", onclick: () => this.whenOnline(() => this.startNow(host)) }, "Start with bots in the empty seats") : null;
    return h("section", { class: "waiting-panel", "aria-labelledby": "waiting-title" },
      h("h2", { id: "waiting-title" }, "Waiting for players"),
      h("p", {}, `The game starts when every seat is taken: ${open.map((s) => `seat ${s.seat}`).join(", ") || "none"} ${open.length === 1 ? "is" : "are"} still empty. Anyone can join an open seat from the lobby's open tables.`),
      start ? h("div", { class: "buttons" }, start) : null);
  }

  /** ``action`` if the table is online; offline, only a notice of why nothing happens. */
  whenOnline(action) {
    if (this.offline) notice("Offline: this waits until the link to the server is back.", "error");
    else action();
  }

  async startNow(host) {
    try {
      await api(`/api/tables/${encodeURIComponent(this.id)}/start`, { method: "POST", hostKey: host, body: {} });
    } catch (error) {
      notice(error.message, "error");
    }
  }

  /** Ask for (or follow) the rematch with every seat this browser holds, and go there: each
   * request gets this browser's own seat of the new table. */
  async rematch() {
    if (this.rematching) return;
    this.rematching = true;
    this.afterKey = null;
    if (this.message) this.drawAfter(this.message);
    let target = null;
    try {
      for (const seat of this.mySeats) {
        const made = await api(`/api/tables/${encodeURIComponent(this.id)}/rematch`, { method: "POST", token: this.tokens[seat] });
        await takeSeat(made.id, made.seat, made.token);
        saveHostKey(made.id, made.host_key);
        target = made.id;
      }
    } catch (error) {
      notice(`No rematch: ${error.message}`, "error");
    }
    if (target) {
      location.assign(`/table/${encodeURIComponent(target)}`);
      return;
    }
    this.rematching = false;
    this.afterKey = null;
    if (this.message) this.drawAfter(this.message);
  }

  showSeats() {
    if (!this.message) return;
    seatsDialog(this.id, this.message.table, this.mySeats, (seat) => this.rotateSeat(seat), { restore: () => this.comeBack() });
  }

  seatItem(s, message, current) {
    const me = s.seat === message.seat || (this.mySeats.includes(s.seat) && message.seat !== undefined);
    let dot;
    let said;
    if (s.kind === "bot") [dot, said] = ["dot-bot", `bot: ${s.agent}`];
    else if (me && this.offline) [dot, said] = ["dot-lost", "offline"];
    else if (s.connected) [dot, said] = ["dot-on", "connected"];
    else [dot, said] = ["dot-off", "not connected"];
    if (s.open) [dot, said] = ["dot-off", "open: waiting for someone to join"];
    const face = this.clocks.face(s.seat);
    return h("li", { class: ["seat", s.seat === current ? "to-move" : "", s.seat === message.seat ? "me" : "", s.kind].join(" "), "data-seat": s.seat },
      h("span", { class: `dot ${dot}`, title: said, "aria-hidden": "true" }),
      h("span", { class: "seat-name" }, s.open ? "open seat" : s.name),
      /\bseat\b/i.test(s.name) ? "" : h("span", { class: "muted" }, ` · seat ${s.seat}`),
      s.seat === message.seat ? " (you)" : "",
      face ? [" ", spoken(", time left "), face] : null,
      spoken(`, ${said}${s.seat === current ? ", to move" : ""}`));
  }

  /** The live status line: whose move it is, and the latest event of the log. */
  announce(status, event = "") {
    if (!this.built) return;
    if (this.status_.textContent !== status) this.status_.textContent = status;
    const text = event ? ` Last: ${event}` : "";
    if (this.event.textContent !== text) this.event.textContent = text;
  }

  /** The log: lines added at its end; drawn again only if its beginning changed (an undo). */
  updateLog(lines) {
    const list = this.logList;
    const shownLines = list.children.length;
    const same = shownLines <= lines.length && (shownLines === 0 || list.lastElementChild.dataset.text === lines[shownLines - 1]);
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    if (!same) list.replaceChildren();
    for (const line of lines.slice(list.children.length)) list.append(h("li", { "data-text": line }, richText(line)));
    if (atEnd || !same) list.scrollTop = list.scrollHeight;
    this.lastLog = lines.length ? lines[lines.length - 1] : null;
  }

  // ---------------------------------------------------------------- moves

  /** The buttons by the board: moves the board cannot show, or the ways to finish a choice. */
  drawChoices() {
    const bar = this.choiceBar;
    const choices = this.controller.choices();
    bar.replaceChildren(...choices.map((a) => h("button", {
      type: "button",
      class: `choice ${this.hinted === a.notation ? "hinted" : ""}`,
      "data-notation": a.notation,
      title: a.text,
      "aria-describedby": null,
      onclick: () => this.play(a.notation),
    }, richText(a.notation), spoken(`: ${a.text}`))));
    if (choices.length && this.controller.active) bar.prepend(h("span", { class: "muted" }, "Play it as: "));
    bar.hidden = !choices.length;
  }

  drawMoves() {
    if (!this.built || !this.message) return;
    this.drawChoices();
    const message = this.message;
    const legal = message.legal;
    const blocked = this.offline || this.controller.pending;
    const picked = this.controller.active;
    const count = picked ? this.controller.candidates().length : legal.length;
    this.movesTitle.textContent = !legal.length ? "Moves" : picked ? `Moves with your choice (${count})` : `Your moves (${legal.length})`;
    this.movesHelp.textContent = "Choose the highlighted cards and places, pick from the list, or type a move.";
    this.movesHelp.hidden = !legal.length || picked;
    this.clearButton.hidden = !picked;
    const waiting = !legal.length ? (message.view.over ? "The game is over." : "Waiting for the seat to move.") : this.offline ? "Offline: moves are held until the link is back." : "";
    this.waiting.textContent = waiting;
    this.waiting.hidden = !waiting;
    // Read-only rather than disabled: a field that is turned off loses the focus.
    this.input.readOnly = !legal.length || this.offline;
    this.input.setAttribute("aria-disabled", this.input.readOnly ? "true" : "false");
    this.playButton.setAttribute("aria-disabled", this.input.readOnly || blocked ? "true" : "false");
    // Kept for a seat while others move (read-only), so the focus can wait in it.
    this.form.hidden = message.seat === null || message.seat === undefined || message.view.over;
    this.drawList();
  }

  /** The list of moves, filtered by what is typed in the box (the box itself stays). */
  drawList() {
    const message = this.message;
    if (!message) return;
    const legal = message.legal;
    const blocked = this.offline || this.controller.pending;
    const shown = this.controller.active ? this.controller.candidates() : legal;
    const filter = (this.filter || "").trim().toLowerCase();
    const items = [];
    legal.forEach((a, i) => {
      if (!shown.includes(a)) return;
      if (filter && !/^\d+$/.test(filter) && !`${a.notation} ${a.text}`.toLowerCase().includes(filter)) return;
      items.push(h("li", { value: i + 1 }, h("button", {
        type: "button",
        class: `move ${this.hinted === a.notation ? "hinted" : ""}`,
        "data-notation": a.notation,
        "aria-disabled": blocked ? "true" : "false",
        onclick: () => this.play(a.notation),
      }, h("span", { class: "notation-text" }, richText(a.notation)), h("span", { class: "describe" }, richText(a.text)))));
    });
    this.moveList.replaceChildren(...items);
    this.moveList.hidden = !items.length;
  }

  submitNotation() {
    const text = this.input.value.trim();
    const legal = this.message ? this.message.legal : [];
    if (!text || this.input.readOnly) return;
    const number = /^\d+$/.test(text) ? Number(text) : null;
    if (number !== null && number >= 1 && number <= legal.length) this.play(legal[number - 1].notation);
    else this.play(text);
  }

  socket() {
    return this.sockets.get(this.shown);
  }

  play(notation) {
    const socket = this.socket();
    if (!socket || !this.message || this.controller.pending) return;
    if (this.offline) {
      notice("Offline: the move cannot be sent until the link to the server is back.", "error");
      return;
    }
    const sent = socket.send({ type: "act", action: notation, step: this.message.view.step });
    if (sent === null) {
      notice("Not connected to the server: reconnecting…", "error");
      return;
    }
    this.filter = "";
    this.input.value = "";
    this.hinted = null;
    this.controller.wait(this.message.view.step);
    this.withFocus(() => this.drawMoves());
  }

  hint() {
    if (this.hintButton.getAttribute("aria-disabled") === "true") return;
    const socket = this.socket();
    if (socket && socket.send({ type: "hint" }) !== null) notice("Thinking about a hint…");
  }

  undo() {
    if (this.undoButton.getAttribute("aria-disabled") === "true") return;
    const socket = this.socket();
    if (socket) socket.send({ type: "undo" });
  }

  retry() {
    for (const socket of this.sockets.values()) socket.retryNow();
  }

  // ---------------------------------------------------------------- focus

  /** Run ``change`` (which may draw parts of the page anew) and put the focus back. */
  withFocus(change) {
    const before = this.focusKey();
    change();
    this.restoreFocus(before);
  }

  /** The registered cards and places of a region, in the page's order. */
  items(region) {
    return region ? [...region.querySelectorAll(ITEMS)] : [];
  }

  /** What has the focus, told in terms that survive a new drawing. */
  focusKey() {
    const el = document.activeElement;
    if (!this.built || !el || el === document.body || !this.page.contains(el)) return this.uncovered ? { zone: "uncovered" } : null;
    if (el === this.parked) return { zone: "parked", el, region: el.dataset.key ?? null };
    if (this.choiceBar.contains(el) && el.dataset.notation !== undefined) {
      return { zone: "choices", el, notation: el.dataset.notation, index: [...this.choiceBar.querySelectorAll("button")].indexOf(el) };
    }
    if (this.moveList.contains(el) && el.dataset.notation !== undefined) {
      return { zone: "list", el, notation: el.dataset.notation, index: [...this.moveList.querySelectorAll("button")].indexOf(el) };
    }
    if (this.boardBox.contains(el)) {
      const region = el.closest(".region");
      const items = this.items(region);
      const same = items.filter((x) => x.dataset.card === el.dataset.card && placeOf(x) === placeOf(el));
      return {
        zone: "board",
        el,
        region: region ? region.dataset.key : null,
        card: el.dataset.card,
        place: placeOf(el),
        occurrence: same.indexOf(el),
        index: items.indexOf(el),
      };
    }
    return { zone: "other", el };
  }

  /** The first choice: a button by the board, else the first card or place to choose. */
  firstChoice() {
    const button = [...this.choiceBar.querySelectorAll("button")].find(usable);
    if (button) return button;
    return this.items(this.boardBox).find(usable) || null;
  }

  regionNode(key) {
    return key === null || key === undefined ? null : this.boardBox.querySelector(`.region[data-key="${CSS.escape(String(key))}"]`);
  }

  /** The same card or place in the region, else the nearest one that can be chosen there. */
  onBoard(key) {
    const region = this.regionNode(key.region);
    if (!region) return null;
    const items = this.items(region);
    const same = items.filter((x) => x.dataset.card === key.card && placeOf(x) === key.place);
    const exact = same[key.occurrence] || (same.length === 1 ? same[0] : null);
    if (usable(exact)) return exact;
    return nearest(items.map((el, i) => [i, el]).filter(([, el]) => usable(el)), key.index);
  }

  /** Where the focus waits while nothing can be chosen: the region it was in, or the board. */
  park(regionKey) {
    const over = this.message && this.message.view.over ? this.resultSlot.querySelector(".result") : null;
    const target = over || this.regionNode(regionKey) || this.boardBox;
    this.parked = target;
    return target;
  }

  restoreFocus(key) {
    if (!key) return;
    const here = document.activeElement;
    if (key.zone === "uncovered") {
      this.uncovered = false;
      const first = this.firstChoice();
      if (first) first.focus();
      return;
    }
    let target = null;
    if (key.zone === "parked") {
      if (key.el.isConnected && here !== key.el) return; // the person moved on
      const region = this.regionNode(key.region);
      // the region drawn anew takes the place of the old one; nothing to choose: it waits
      target = this.items(region).find(usable) || this.firstChoice() || this.park(key.region);
    } else if (key.zone === "other") {
      if (key.el.isConnected && !key.el.closest("[hidden]")) return;
      target = this.firstChoice() || (usable(this.input) ? this.input : null) || this.park(null);
    } else if (key.zone === "choices" || key.zone === "list") {
      if (usable(key.el) && here === key.el) return;
      const box = key.zone === "choices" ? this.choiceBar : this.moveList;
      const buttons = [...box.querySelectorAll("button")];
      target = buttons.find((b) => b.dataset.notation === key.notation && usable(b));
      target = target || nearest(buttons.map((b, i) => [i, b]).filter(([, b]) => usable(b)), key.index);
      if (!target && key.zone === "list" && !this.form.hidden) target = this.input;
      target = target || this.firstChoice();
      if (!target && key.el.isConnected && here === key.el) return; // a move on its way
      target = target || this.park(null);
    } else if (key.zone === "board") {
      if (here === key.el && (usable(key.el) || this.controller.pending)) return; // still there
      target = this.onBoard(key) || [...this.choiceBar.querySelectorAll("button")].find(usable);
      if (!target && key.el.isConnected && here === key.el) {
        if (!this.firstChoice()) return; // others are moving: it waits where it is
      }
      target = target || this.firstChoice() || this.park(key.region);
    }
    if (target && target !== document.activeElement) target.focus({ preventScroll: false });
  }

  /** Where focus goes when a dialog closes and the element that opened it is gone. */
  comeBack() {
    return this.firstChoice() || (this.built && !this.form.hidden ? this.input : null) || (this.built ? this.boardBox : null);
  }

  // ---------------------------------------------------------------- keys

  keysHelp() {
    dialog("Keyboard", h("ul", { class: "keys" },
      h("li", {}, h("kbd", {}, "Tab"), " reaches the outlined cards and places, then ", h("kbd", {}, "Enter"), " or ", h("kbd", {}, "Space"), " chooses one; after a move the focus stays by the card or place you used"),
      h("li", {}, h("kbd", {}, "1"), "–", h("kbd", {}, "9"), " or ", h("kbd", {}, "/"), ": type a move's number or notation, then ", h("kbd", {}, "Enter")),
      h("li", {}, h("kbd", {}, "Esc"), ": clear your choice"),
      h("li", {}, h("kbd", {}, "h"), ": hint · ", h("kbd", {}, "u"), ": undo (solo) · ", h("kbd", {}, "r"), ": rules · ", h("kbd", {}, "?"), ": these keys"),
      this.panel.element.hidden ? null : h("li", {}, h("kbd", {}, "m"), ": write a message (", h("kbd", {}, "Enter"), " sends it)")),
    { restore: () => this.comeBack() });
  }

  key(event) {
    if (event.target.closest && event.target.closest("input, select, textarea") && event.key !== "Escape") return;
    if (dialogOpen()) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const message = this.message;
    if (!message || !this.built) return;
    if (event.key === "Escape") {
      this.controller.clear();
      this.filter = "";
      this.input.value = "";
      this.withFocus(() => this.drawMoves());
    } else if (event.key === "h" && message.legal.length) this.hint();
    else if (event.key === "u" && message.can_undo) this.undo();
    else if (event.key === "r") showRules(this.info.id, { restore: () => this.comeBack() });
    else if (event.key === "m" && !this.panel.element.hidden) {
      event.preventDefault(); // the m is not typed into the box it opens
      this.panel.focus();
    } else if ((event.key === "/" || /^[0-9]$/.test(event.key)) && message.legal.length && !this.offline) {
      event.preventDefault();
      this.filter = event.key === "/" ? "" : event.key;
      this.input.value = this.filter;
      this.drawList();
      this.input.focus();
      this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    } else if (event.key === "?") {
      this.keysHelp();
    }
  }
}
