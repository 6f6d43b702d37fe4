// Talking to the server: JSON over HTTP, live tables over WebSocket, and the seat tokens and
// host keys this browser holds. Every use of a token is in this file, so the way seats are
// claimed can change in one place. A seat reaches this browser in a link's fragment, which
// browsers never send to servers: #invite=CODE (claimed once: the server answers with the
// seat's token, for this browser alone) or, for the creator's own seats, #seat=N&token=...
// The page keeps tokens in this browser's storage and sends them in a header or in the
// socket's first message, never in an address.

import { mark } from "./marks.js";

export const TOKEN_HEADER = "X-Seat-Token";
export const HOST_HEADER = "X-Host-Key";
/** Every request that changes something carries this header: the server refuses a change
 * authenticated by the session cookie without it (no other site's page can send it without a
 * CORS preflight, which the server never answers). */
const CSRF = { "X-Requested-With": "spyglass" };

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.rule = body && body.rule;
  }
}

export async function api(path, { method = "GET", body, token, hostKey } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers[TOKEN_HEADER] = token;
  if (hostKey) headers[HOST_HEADER] = hostKey;
  if (method !== "GET") Object.assign(headers, CSRF);
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** Games' descriptions and layouts, fetched once per page. */
const gameCache = new Map();
let everyGame = null; // the fetch of every game, once started

/** Every game (the lobby; a table that does not know its game yet). */
export function allGames() {
  if (!everyGame) {
    everyGame = api("/api/games");
    everyGame.then((games) => {
      for (const g of games) if (!gameCache.has(g.id)) gameCache.set(g.id, Promise.resolve(g));
    }, () => {
      everyGame = null;
    });
  }
  return everyGame;
}

/** One game's description and layout (from the fetch of every game, if one is on its way). */
export function gameInfo(id) {
  if (!gameCache.has(id)) {
    const one = everyGame
      ? everyGame.then((games) => games.find((g) => g.id === id) || api(`/api/games/${encodeURIComponent(id)}`))
      : api(`/api/games/${encodeURIComponent(id)}`);
    gameCache.set(id, one);
    one.catch(() => gameCache.delete(id));
  }
  return gameCache.get(id);
}

/** A game's description that came with a table's connection (see TableSocket): later
 * ``gameInfo`` calls for it ask the server nothing. */
export function learnGame(game) {
  gameCache.set(game.id, Promise.resolve(game));
}

// ------------------------------------------------------------------ seat tokens

const KEY = "spyglass.seats.";

/** The seats this browser holds at a table: {seat: token}. */
export function seatTokens(tableId) {
  try {
    return JSON.parse(localStorage.getItem(KEY + tableId) || "{}");
  } catch {
    return {};
  }
}

export function saveSeatToken(tableId, seat, token) {
  const seats = seatTokens(tableId);
  seats[seat] = token;
  localStorage.setItem(KEY + tableId, JSON.stringify(seats));
}

export function forgetSeat(tableId, seat) {
  const seats = seatTokens(tableId);
  delete seats[seat];
  localStorage.setItem(KEY + tableId, JSON.stringify(seats));
}

const HOST = "spyglass.host.";

/** The host key of a table this browser created (it lets the host re-invite seats), or null. */
export function hostKey(tableId) {
  try {
    return localStorage.getItem(HOST + tableId);
  } catch {
    return null;
  }
}

export function saveHostKey(tableId, key) {
  if (key) localStorage.setItem(HOST + tableId, key);
}

// ------------------------------------------------------------------ the account

const ACCOUNT = "spyglass.account";
const DEVICE = "spyglass.device-keys";

/** The name of the account this browser was last logged in as (a hint that saves guests a
 * request; the session itself is an HttpOnly cookie no script reads), or null. */
export function accountHint() {
  try {
    return localStorage.getItem(ACCOUNT);
  } catch {
    return null;
  }
}

/** Note who is logged in (null: nobody). Logging out forgets the device keys this browser was
 * given: they ended with the session. */
export function setAccountHint(name) {
  try {
    if (name) {
      localStorage.setItem(ACCOUNT, name);
      return;
    }
    localStorage.removeItem(ACCOUNT);
    for (const [table, seat] of JSON.parse(localStorage.getItem(DEVICE) || "[]")) forgetSeat(table, seat);
    localStorage.removeItem(DEVICE);
  } catch {
    // storage refused: nothing kept, nothing to forget
  }
}

let accountNow = null;
/** The logged-in account ({name, created}) or null, asked once per page (``/api/session``,
 * which answers a guest with null: no failed request in the console). */
export function currentAccount() {
  if (!accountNow) {
    accountNow = api("/api/session").then(({ account }) => {
      setAccountHint(account ? account.name : null);
      return account;
    }, (error) => {
      accountNow = null;
      throw error;
    });
  }
  return accountNow;
}

/** Every seat token this browser holds, as the sign-up and log-in requests take them (so a
 * guest who signs up keeps the tables they were playing). */
export function heldSeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(KEY)) continue;
      const table = key.slice(KEY.length);
      for (const token of Object.values(seatTokens(table))) out.push({ table, token });
    }
  } catch {
    // no storage: no seats
  }
  return out.slice(0, 200); // the server's limit per request
}

/** Sign up or log in (``how``: "signup" or "login") with the seats this browser holds. */
export async function enter(how, name, password) {
  const answer = await api(`/api/account/${how}`, { method: "POST", body: { name, password, seats: heldSeats() } });
  setAccountHint(answer.account.name);
  accountNow = Promise.resolve(answer.account);
  return answer;
}

export async function leave(everywhere = false) {
  try {
    await api(`/api/account/${everywhere ? "logout-everywhere" : "logout"}`, { method: "POST" });
  } finally {
    setAccountHint(null);
    accountNow = Promise.resolve(null);
  }
}

/** A seat this browser just took (a claimed invite, a join, a rematch, its creator's link)
 * joins the account, if someone is logged in here; a refusal costs nothing (the seat stays
 * this browser's). A guest's browser asks nothing. */
async function keepForAccount(tableId, token) {
  if (!accountHint()) return;
  await api("/api/account/seats", { method: "POST", body: { seats: [{ table: tableId, token }] } }).catch(() => {});
}

/** Keep a seat this browser was given (join, rematch), for the account too (awaited before
 * the page moves on, so the request is not cut short). */
export async function takeSeat(tableId, seat, token) {
  saveSeatToken(tableId, seat, token);
  await keepForAccount(tableId, token);
}

/** A logged-in browser that holds no seat at a table asks for a device key to the account's
 * seat there (one it took on another device); null when the account has none. */
async function deviceKey(tableId) {
  if (!accountHint()) return null;
  try {
    const key = await api(`/api/tables/${encodeURIComponent(tableId)}/device-key`, { method: "POST" });
    saveSeatToken(tableId, key.seat, key.token);
    const keys = JSON.parse(localStorage.getItem(DEVICE) || "[]");
    keys.push([tableId, key.seat]);
    localStorage.setItem(DEVICE, JSON.stringify(keys));
    return key.seat;
  } catch (error) {
    if (error.status === 401) setAccountHint(null); // the session ended meanwhile
    return null;
  }
}

/** Take a seat out of the address's fragment into storage, and the fragment out of the address
 * bar: a token as it is, an invite by claiming it. Returns {seat}, {error} or null (nothing to
 * take). */
export async function adoptFragment(tableId) {
  const params = new URLSearchParams(location.hash.slice(1));
  const invite = params.get("invite");
  const given = fragmentSeat();
  if (params.get("seat") === null && !invite) return null;
  history.replaceState(null, "", location.pathname + location.search);
  if (given) {
    await takeSeat(tableId, given.seat, given.token);
    return { seat: given.seat };
  }
  if (!invite) return null;
  try {
    const claimed = await api(`/api/tables/${encodeURIComponent(tableId)}/claim`, { method: "POST", body: { invite } });
    await takeSeat(tableId, claimed.seat, claimed.token);
    return { seat: claimed.seat };
  } catch (error) {
    return { error: error.status === 410 ? "This invite link has already been used (or the host replaced it). Ask the host for a new one." : error.message };
  }
}

// ------------------------------------------------------------------ the live table

/** A table's WebSocket address (on this page's own server). */
export function socketAddress(tableId) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/api/tables/${encodeURIComponent(tableId)}/ws`;
}

/** A connection's first message: the seat's token (none for a spectator) and, with ``game``,
 * a request for the game's description and layout before the first state. */
export function hello(token, game) {
  const message = token ? { type: "hello", token } : { type: "hello" };
  if (game) message.game = true;
  return JSON.stringify(message);
}

/** The seat a table's address holds in its fragment, {seat, token}, or null. The fragment
 * stays where it is (``adoptFragment`` takes it away). */
export function fragmentSeat() {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  const token = params.get("token");
  return seat !== null && token ? { seat: Number(seat), token } : null;
}

/** How long to wait before each attempt to reconnect (ms), then the last one over and over. */
const RETRY = [500, 1000, 2000, 3000, 5000];
/** A ping every so often; no word from the server within the grace after it means the link
 * is dead even if the socket has not noticed (a sleeping laptop, a dropped network). */
const PING_EVERY = 20000;
const PING_GRACE = 8000;

/** One live connection for one seat (or a spectator): reconnects until closed.
 * ``onStatus(status, detail)``: "open"; "closed" with {code, retryIn} (ms until the next
 * attempt); "refused" with {code, error} (4000 + an HTTP status: the server will not have it;
 * ``error``, the server's last word on the connection: 4401 means the seat's key was replaced). */
export class TableSocket {
  /** Without handlers, what comes is kept until ``attach`` gives them. ``early``: the
   * connection the page's head opened already for this token (early.js), taken over with
   * what it received. */
  constructor(tableId, token, handlers = null, early = null) {
    this.tableId = tableId;
    this.token = token;
    this.held = [];
    this.onState = (m) => this.held.push(["onState", m]);
    this.onReply = (m) => this.held.push(["onReply", m]);
    this.onStatus = (s, d) => this.held.push(["onStatus", s, d]);
    if (handlers) this.attach(handlers);
    this.closed = false;
    this.attempt = 0;
    this.refs = 0;
    this.timer = null;
    this.heartbeat = null;
    this.lastHeard = 0;
    this.lastError = null; // the server's reason, sent before it closes a connection
    // the first connection asks for the game's description and layout with the table's first
    // state, so the page draws at once without a request of its own
    this.wantGame = true;
    this.onOnline = () => this.retryNow();
    this.onOffline = () => this.lost(1006);
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
    this.connect(early);
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.ready;
  }

  connect(early = null) {
    clearTimeout(this.timer);
    this.timer = null;
    const ws = early ? early.ws : new WebSocket(socketAddress(this.tableId));
    this.ws = ws;
    this.ready = false;
    const opened = () => {
      this.ready = true;
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.beat();
      this.onStatus("open", {});
    };
    ws.onopen = () => {
      ws.send(hello(this.token, this.wantGame));
      mark("hello");
      opened();
    };
    ws.onmessage = (event) => {
      mark("first-message");
      this.lastHeard = Date.now();
      const message = JSON.parse(event.data);
      if (message.type === "pong") return;
      if (message.type === "game") {
        learnGame(message.game);
        this.wantGame = false;
      } else if (message.type === "state") this.onState(message);
      else {
        // an error that answers no request of ours is the server's reason for closing
        if (message.type === "error" && message.ref === undefined) this.lastError = message.error;
        this.onReply(message);
      }
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return; // a connection given up on already
      if (event.code >= 4400 && event.code < 4500) {
        this.stop();
        this.onStatus("refused", { code: event.code, error: this.lastError });
        return;
      }
      this.lost(event.code);
    };
    if (early) {
      // the head's script sent the hello (asking for the game) if the socket is open; what
      // came on it, and its end if it ended, are taken as if they came now
      if (ws.readyState === WebSocket.OPEN) opened();
      for (const event of early.received) ws.onmessage(event);
      if (early.ended) ws.onclose(early.ended);
    }
  }

  /** Hand what comes to ``onState``, ``onReply`` and ``onStatus``, starting with what came
   * before. */
  attach({ onState, onReply, onStatus }) {
    this.onState = onState;
    this.onReply = onReply || (() => {});
    this.onStatus = onStatus || (() => {});
    const held = this.held;
    this.held = [];
    for (const [kind, ...args] of held) this[kind](...args);
  }

  /** The link is gone (closed, or silent too long): say so, and try again after a while. */
  lost(code) {
    if (this.closed || this.timer !== null) return;
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    clearInterval(this.heartbeat);
    if (ws) {
      ws.onclose = ws.onmessage = ws.onopen = null;
      try {
        ws.close();
      } catch {
        // already closing
      }
    }
    const wait = RETRY[Math.min(this.attempt, RETRY.length - 1)];
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), wait);
    this.onStatus("closed", { code, retryIn: wait });
  }

  /** Try to reconnect now rather than at the next attempt's time. */
  retryNow() {
    if (this.closed || this.open) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.connect();
  }

  beat() {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (!this.open) return;
      if (Date.now() - this.lastHeard > PING_EVERY + PING_GRACE) {
        this.lost(1006);
        return;
      }
      this.ws.send(JSON.stringify({ type: "ping" }));
    }, PING_EVERY);
  }

  /** Send a message; returns its ``ref``, or null when not connected (nothing was sent). */
  send(message) {
    if (!this.open) return null;
    const ref = ++this.refs;
    this.ws.send(JSON.stringify({ ...message, ref }));
    return ref;
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
  }

  close() {
    this.stop();
    if (this.ws) this.ws.close();
  }
}

/** The global the head's script (early.js) leaves its connections in. */
export const EARLY = "__spyglassEarly";

/** The connections the head's script opened to ``tableId``, by token ("" for a spectator's),
 * each {ws, received, ended}; taken once (an empty map after that, or without that script). */
function takeEarly(tableId) {
  const early = window[EARLY];
  delete window[EARLY];
  return early && early.table === tableId ? early.sockets : new Map();
}

/** Open a table's connections at once, before the table's code has even loaded: one per seat
 * this browser holds there (a spectator's if none; an invite in the address is claimed first).
 * The game's description and layout come first on each (the hello asks for them). The table
 * page attaches to what this returns; ``error`` says why an invite could not be claimed. */
export async function openTable(tableId) {
  const adopted = await adoptFragment(tableId);
  if (!Object.keys(seatTokens(tableId)).length) await deviceKey(tableId);
  const tokens = seatTokens(tableId);
  const seats = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  const sockets = new Map();
  // the connections the page's head opened while it was parsed (early.js), by token
  const early = takeEarly(tableId);
  for (const key of seats.length ? seats : ["watch"]) {
    const token = key === "watch" ? null : tokens[key];
    sockets.set(key, new TableSocket(tableId, token, null, early.get(token ?? "")));
    early.delete(token ?? "");
  }
  for (const unused of early.values()) unused.ws.close(); // e.g. an invite was claimed meanwhile
  return { tokens, seats, sockets, error: adopted && adopted.error ? adopted.error : null };
}
