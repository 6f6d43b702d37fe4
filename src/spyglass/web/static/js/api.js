// Talking to the server: JSON over HTTP, live tables over WebSocket, seat tokens and host keys
// in this browser's storage. A seat reaches this browser in a link's fragment, which browsers
// never send to servers: #invite=... (claimed once: the server answers with the seat's token,
// for this browser alone) or, for the creator's own seats, #seat=N&token=... The page sends a
// token in a header or the socket's first message, never in an address.

export const TOKEN_HEADER = "X-Seat-Token";
export const HOST_HEADER = "X-Host-Key";

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

/** The host key of a table this browser created (it re-invites seats), or null. */
export function hostKey(tableId) {
  return localStorage.getItem(HOST + tableId);
}

export function saveHostKey(tableId, key) {
  localStorage.setItem(HOST + tableId, key);
}

/** Take a seat out of the address's fragment into storage, and the fragment out of the address
 * bar: a token as it is, an invite by claiming it. Returns {seat} or {error} or null. */
export async function adoptFragment(tableId) {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = params.get("seat");
  const token = params.get("token");
  const invite = params.get("invite");
  if (seat === null && !invite) return null;
  history.replaceState(null, "", location.pathname + location.search);
  if (seat !== null && token) {
    saveSeatToken(tableId, Number(seat), token);
    return { seat: Number(seat) };
  }
  if (!invite) return null;
  try {
    const claimed = await api(`/api/tables/${encodeURIComponent(tableId)}/claim`, { method: "POST", body: { invite } });
    saveSeatToken(tableId, claimed.seat, claimed.token);
    return { seat: claimed.seat };
  } catch (error) {
    return { error: error.status === 410 ? "This invite link has already been used (or the host replaced it). Ask the host for a new one." : error.message };
  }
}

/** One live connection for one seat (or a spectator): reconnects until closed. */
export class TableSocket {
  constructor(tableId, token, { onState, onReply, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onState = onState;
    this.onReply = onReply || (() => {});
    this.onStatus = onStatus || (() => {});
    this.closed = false;
    this.retry = 500;
    this.refs = 0;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify(this.token ? { type: "hello", token: this.token } : { type: "hello" }));
      this.retry = 500;
      this.onStatus("open");
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") this.onState(message);
      else {
        if (message.type === "error" && message.ref === undefined) this.lastError = message.error;
        this.onReply(message);
      }
    };
    ws.onclose = (event) => {
      this.onStatus("closed", event.code, this.lastError);
      if (this.closed || (event.code >= 4400 && event.code < 4500)) return;
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  send(message) {
    const ref = ++this.refs;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ ...message, ref }));
      return ref;
    }
    return null;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
