// The table page's first script, written into the page itself (build.mjs inlines it, and the
// page's Content-Security-Policy allows it by its hash): it runs while the page is parsed,
// before the style sheet and the modules have arrived, and opens the table's connections at
// once, one per seat this browser holds there (a spectator's if none). What comes on them is
// kept until the table's code takes them over (openTable in api.js), so the first state is
// usually there before that code is. The seat's token stays in the fragment (never sent in an
// address); the hello carries it, as always. An invite to claim, or an account that may hold
// a seat on another device, needs requests first: then nothing is opened here, and the
// table's code opens the connections itself, as it always can.

import { accountHint, EARLY, fragmentSeat, hello, seatTokens, socketAddress } from "./api.js";
import { mark } from "./marks.js";

function open(tableId, token) {
  const ws = new WebSocket(socketAddress(tableId));
  const early = { ws, received: [], ended: null };
  ws.onopen = () => {
    ws.send(hello(token, true));
    mark("hello");
  };
  ws.onmessage = (event) => {
    early.received.push(event);
    mark("first-message");
  };
  ws.onclose = (event) => {
    early.ended = event;
  };
  return early;
}

mark("head");
const m = /^\/table\/([^/]+)\/?$/.exec(location.pathname);
if (m && !new URLSearchParams(location.hash.slice(1)).has("invite")) {
  const tableId = decodeURIComponent(m[1]);
  const tokens = seatTokens(tableId);
  const given = fragmentSeat();
  if (given) tokens[given.seat] = given.token;
  const held = [...new Set(Object.values(tokens))];
  if (held.length || !accountHint()) {
    const sockets = new Map();
    for (const token of held.length ? held : [""]) sockets.set(token, open(tableId, token || null));
    window[EARLY] = { table: tableId, sockets };
  }
}
