// The lobby: every registered game with its rules, a form to set a table, recent tables.

import { allGames, api, saveHostKey, seatTokens, takeSeat } from "./api.js";
import { dialog } from "./dialog.js";
import { h, uid } from "./dom.js";
import { inviteRow } from "./invite.js";
import { notice } from "./notices.js";
import { showRules } from "./rules.js";

const RATING_NAMES = ["complexity", "weight", "footprint", "strategy", "tactics", "luck"];

export async function lobbyPage(root) {
  document.title = "spyglass: tabletop games to play online";
  const list = h("div", { class: "game-list" });
  const recent = h("div", { class: "recent" }, "Loading…");
  const waiting = h("div", { class: "open-tables" }, "Loading…");
  root.replaceChildren(
    h("section", { class: "intro" }, h("h1", {}, "spyglass"), h("p", {}, "Tabletop games of espionage, solo puzzles and trading. Choose a game to set up a table: play alone, hot-seat on one device, or online with invite links or open seats; bots can take any seat.")),
    h("section", { "aria-labelledby": "open-title" }, h("h2", { id: "open-title" }, "Open tables"), waiting),
    h("section", { "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, "Games"), list),
    h("section", { "aria-labelledby": "tables-title" }, h("h2", { id: "tables-title" }, "Tables"), recent),
  );
  loadRecent(recent); // beside the games, not after them
  loadOpen(waiting);
  const games = await allGames();
  for (const g of games) list.append(gameCard(g));
  return games;
}

function gameCard(g) {
  const players = g.players[0] === g.players[1] ? `${g.players[0]} player${g.players[0] > 1 ? "s" : ""}` : `${g.players[0]}–${g.players[1]} players`;
  const ratings = g.ratings ? RATING_NAMES.map((k) => `${k} ${g.ratings[k]}`).join(" · ") : "";
  const title = uid("game");
  if (g.unavailable) {
    // a game whose data will not load: listed, marked, with the reason, and nothing to start
    return h("article", { class: "game-card unavailable", "data-game": g.id, "aria-labelledby": title },
      h("h3", { id: title }, g.title),
      h("p", { class: "muted" }, players),
      h("p", { class: "problem" }, `Unavailable: ${g.unavailable}`));
  }
  return h("article", { class: "game-card", "data-game": g.id, "aria-labelledby": title },
    h("h3", { id: title }, g.title),
    h("p", { class: "muted" }, players, g.edition ? ` · ${g.edition}` : ""),
    h("p", {}, g.summary),
    ratings ? h("p", { class: "ratings muted" }, ratings) : null,
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", "aria-describedby": title, onclick: () => newTable(g) }, "New table"),
      h("button", { type: "button", "aria-describedby": title, onclick: () => showRules(g.id) }, "Rules")));
}

async function loadRecent(box) {
  try {
    const tables = await api("/api/tables?limit=30");
    if (!tables.length) {
      box.replaceChildren(h("p", { class: "muted" }, "No tables yet."));
      return;
    }
    const rows = tables.map((t) => {
      const mine = Object.keys(seatTokens(t.id)).length > 0;
      const seats = t.seats.map((s) => s.name).join(", ");
      return h("tr", {},
        h("td", {}, t.title),
        h("td", { class: "names" }, seats),
        h("td", {}, t.status === "over" ? "finished" : `step ${t.step}`),
        h("td", {},
          t.status === "over"
            ? h("a", { href: `/table/${t.id}/replay` }, "replay")
            : h("a", { href: `/table/${t.id}` }, mine ? "continue" : "watch")));
    });
    const head = h("tr", {}, ["game", "players", "state", "open"].map((name) => h("th", { scope: "col" }, name)));
    box.replaceChildren(h("div", { class: "table-scroll" }, h("table", { class: "tables" }, h("caption", { class: "visually-hidden" }, "recent tables"), h("thead", {}, head), h("tbody", {}, rows))));
  } catch (error) {
    box.textContent = `Tables could not be listed: ${error.message}`;
  }
}

/** How a clock reads: "10 min + 5 s", "1 day per move". */
export function clockText(clock) {
  if (!clock) return "no clock";
  const span = (s) => (s % 86400 === 0 ? `${s / 86400} day${s === 86400 ? "" : "s"}` : s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);
  if (clock.kind === "turn") return `${span(clock.seconds)} per move`;
  return `${span(clock.seconds)}${clock.increment ? ` + ${clock.increment} s a move` : ""}`;
}

/** The open tables waiting for players, each empty seat with its Join button. */
async function loadOpen(box) {
  let tables;
  try {
    tables = await api("/api/lobby?limit=30");
  } catch (error) {
    box.textContent = `Open tables could not be listed: ${error.message}`;
    return;
  }
  if (!tables.length) {
    box.replaceChildren(h("p", { class: "muted" }, "No table is waiting for players. Make one with open seats: anyone may join it from here."));
    return;
  }
  const rows = tables.map((t) => h("tr", { "data-table": t.id },
    h("td", {}, t.title),
    h("td", { class: "names" }, t.seats.filter((s) => !s.open).map((s) => s.name).join(", ")),
    h("td", {}, clockText(t.clock)),
    h("td", {}, t.open_seats.map((seat) => h("button", { type: "button", class: "small join open-seat", "data-seat": seat, onclick: () => joinDialog(t, seat) }, `Join as seat ${seat}`)))));
  const head = h("tr", {}, ["game", "seated", "clock", "empty seats"].map((name) => h("th", { scope: "col" }, name)));
  box.replaceChildren(h("div", { class: "table-scroll" }, h("table", { class: "tables" }, h("caption", { class: "visually-hidden" }, "open tables waiting for players"), h("thead", {}, head), h("tbody", {}, rows))));
}

/** Ask for a name, take the seat, and go to the table. */
function joinDialog(table, seat) {
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const name = h("input", { id: "join-name", type: "text", maxlength: 40, autocomplete: "nickname", placeholder: `seat ${seat}`, "aria-describedby": "join-help" });
  const submit = h("button", { type: "submit", class: "primary" }, "Join the table");
  const form = h("form", { class: "join-form new-table" },
    h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), name, h("span", { class: "muted help", id: "join-help" }, "shown to the others at the table (logged in: your account's name)")),
    error, h("div", { class: "buttons" }, submit));
  const d = dialog(`Join ${table.title}, seat ${seat}`, form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const body = { seat };
    if (name.value.trim()) body.name = name.value.trim();
    try {
      const joined = await api(`/api/tables/${encodeURIComponent(table.id)}/join`, { method: "POST", body });
      await takeSeat(table.id, joined.seat, joined.token);
      d.close();
      location.assign(`/table/${table.id}`);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      submit.disabled = false;
      name.focus();
    }
  });
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  const help = option.help ? uid("help") : null;
  let input;
  if (option.choices) {
    input = h("select", { id, name: option.name, "aria-describedby": help }, option.choices.map((c) => h("option", { value: String(c), selected: c === option.default }, String(c))));
  } else if (typeof option.default === "boolean") {
    input = h("input", { id, name: option.name, type: "checkbox", checked: option.default, "aria-describedby": help });
  } else if (typeof option.default === "number") {
    input = h("input", { id, name: option.name, type: "number", value: option.default, min: option.minimum ?? undefined, max: option.maximum ?? undefined, "aria-describedby": help });
  } else {
    input = h("input", { id, name: option.name, type: "text", value: option.default, "aria-describedby": help });
  }
  return h("div", { class: "field" }, h("label", { for: id }, option.name.replace(/_/g, " ")), input, help ? h("span", { class: "muted help", id: help }, option.help) : null);
}

function readOption(option, form) {
  const input = form.querySelector(`[name="${option.name}"]`);
  if (typeof option.default === "boolean") return input.checked;
  if (typeof option.default === "number") return Number(input.value);
  if (option.choices && typeof option.choices[0] === "number") return Number(input.value);
  return input.value;
}

/** The set-up form of a table: options, players, seats, seed. ``restore`` gives the element
 * to focus when the dialog closes if the one that opened it is gone. */
export async function newTable(g, { restore } = {}) {
  const agents = await api("/api/agents");
  // Only the agents that play this game (expectimax: solo games; the solver: Syndicate).
  const playing = agents.agents.filter((a) => !a.games || a.games.includes(g.id));
  const form = h("form", { class: "new-table", "data-game": g.id });
  const options = h("fieldset", {}, h("legend", {}, "Options"));
  for (const o of g.options) options.append(optionInput(o));
  if (g.options.length) form.append(options);
  const [low, high] = g.players;
  const count = h("select", { id: "players", name: "players" });
  for (let n = low; n <= high; n++) count.append(h("option", { value: n, selected: n === Math.min(Math.max(low, 4), high) }, String(n)));
  form.append(h("div", { class: "field" }, h("label", { for: "players" }, "Players"), count));
  const seatsBox = h("fieldset", { class: "seats" }, h("legend", {}, "Seats"));
  form.append(seatsBox);
  const drawSeats = () => {
    const n = Number(count.value);
    const rows = [];
    for (let seat = 0; seat < n; seat++) {
      const who = h("select", { name: `who-${seat}`, "aria-label": `seat ${seat}` },
        h("option", { value: "here", selected: seat === 0 }, "person on this device"),
        n > 1 ? h("option", { value: "invite" }, "person with an invite link") : null,
        n > 1 ? h("option", { value: "open", class: "open-choice" }, "open to anyone (lobby)") : null,
        h("option", { value: "bot", selected: seat > 0 }, "bot"));
      const agent = h("select", { name: `agent-${seat}`, "aria-label": `seat ${seat} agent` }, playing.map((a) => h("option", { value: a.name, selected: a.name === agents.default }, a.name)));
      const budget = h("input", { name: `budget-${seat}`, type: "number", min: 1, max: agents.max_budget, placeholder: "budget", "aria-label": `seat ${seat} budget (iterations)`, size: 6 });
      const name = h("input", { name: `name-${seat}`, type: "text", maxlength: 40, placeholder: `seat ${seat}`, "aria-label": `seat ${seat} name` });
      const sync = () => {
        const bot = who.value === "bot";
        agent.hidden = !bot;
        const takes = playing.find((a) => a.name === agent.value)?.takes_budget;
        budget.hidden = !bot || !takes;
      };
      who.addEventListener("change", sync);
      agent.addEventListener("change", sync);
      sync();
      rows.push(h("div", { class: "seat-row" }, h("span", { class: "seat-no", "aria-hidden": "true" }, `Seat ${seat}`), who, agent, budget, name));
    }
    seatsBox.replaceChildren(h("legend", {}, "Seats"), ...rows);
    syncPrivate();
  };
  // A private table is invite only: no seat of it can be open to anyone.
  const syncPrivate = () => {
    const closed = form.querySelector("#private")?.checked;
    for (const option of form.querySelectorAll("option.open-choice")) {
      option.disabled = !!closed;
      if (closed && option.selected) option.parentElement.value = "invite";
    }
  };
  count.addEventListener("change", drawSeats);
  drawSeats();
  form.append(h("div", { class: "field" }, h("label", { for: "private" }, "Private"), h("input", { id: "private", name: "private", type: "checkbox", "aria-describedby": "private-help", onchange: () => syncPrivate() }), h("span", { class: "muted help", id: "private-help" }, "not listed in the lobby: only people with a link find it (no open seats)")));
  if (high > 1) form.append(clockFields());
  form.append(h("div", { class: "field" }, h("label", { for: "seed" }, "Deal"), h("input", { id: "seed", name: "seed", type: "number", min: 0, placeholder: "random", "aria-describedby": "seed-help" }), h("span", { class: "muted help", id: "seed-help" }, "a seed number replays the same deal")));
  const submit = h("button", { type: "submit", class: "primary" }, "Start the table");
  form.append(h("div", { class: "buttons" }, submit, h("button", { type: "button", onclick: () => showRules(g.id) }, "Rules")));
  const d = dialog(`New table: ${g.title}`, form, { restore });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const n = Number(count.value);
    const seats = [];
    const local = [];
    const invited = [];
    for (let seat = 0; seat < n; seat++) {
      const who = form.querySelector(`[name="who-${seat}"]`).value;
      const name = form.querySelector(`[name="name-${seat}"]`).value.trim() || undefined;
      if (who === "bot") {
        const budgetText = form.querySelector(`[name="budget-${seat}"]`);
        const spec = { kind: "bot", agent: form.querySelector(`[name="agent-${seat}"]`).value, name };
        if (!budgetText.hidden && budgetText.value) spec.budget = Number(budgetText.value);
        seats.push(spec);
      } else if (who === "open") {
        seats.push({ kind: "human", open: true });
      } else {
        seats.push({ kind: "human", name, invite: who !== "here" });
        (who === "here" ? local : invited).push(seat);
      }
    }
    const body = { game: g.id, players: n, seats, options: {}, private: form.querySelector("#private").checked };
    const clock = readClock(form);
    if (clock) body.clock = clock;
    for (const o of g.options) body.options[o.name] = readOption(o, form);
    const seed = form.querySelector("#seed").value;
    if (seed !== "") body.seed = Number(seed);
    try {
      const created = await api("/api/tables", { method: "POST", body });
      await Promise.all(created.seats.filter((s) => local.includes(s.seat)).map((s) => takeSeat(created.id, s.seat, s.token)));
      saveHostKey(created.id, created.host_key);
      d.close();
      if (invited.length) showInvites(created, invited);
      else location.assign(`/table/${created.id}`);
    } catch (error) {
      notice(error.message, "error");
      submit.disabled = false;
      submit.focus();
    }
  });
  return d;
}

/** The clock fields of the set-up form: none, real-time (minutes and an increment) or
 * turn-based (hours or days per move), and what a time-out does. */
function clockFields() {
  const kind = h("select", { id: "clock-kind", name: "clock-kind" },
    h("option", { value: "" }, "none"),
    h("option", { value: "realtime" }, "real-time: minutes per player"),
    h("option", { value: "turn" }, "turn-based: time per move"));
  const minutes = h("input", { id: "clock-minutes", type: "number", min: 1, max: 43200, value: 10, "aria-describedby": "clock-help" });
  const increment = h("input", { id: "clock-increment", type: "number", min: 0, max: 3600, value: 5 });
  const amount = h("input", { id: "clock-amount", type: "number", min: 1, max: 30, value: 1 });
  const unit = h("select", { id: "clock-unit", "aria-label": "unit of the time per move" }, h("option", { value: "3600" }, "hours"), h("option", { value: "86400", selected: true }, "days"));
  const onTimeout = h("select", { id: "clock-timeout" }, h("option", { value: "bot" }, "a bot takes the seat"), h("option", { value: "lose" }, "the player loses"));
  const real = h("div", { class: "clock-choice", hidden: true },
    h("div", { class: "field" }, h("label", { for: "clock-minutes" }, "Minutes each"), minutes),
    h("div", { class: "field" }, h("label", { for: "clock-increment" }, "Seconds added a move"), increment));
  const turn = h("div", { class: "clock-choice", hidden: true },
    h("div", { class: "field" }, h("label", { for: "clock-amount" }, "Time per move"), h("span", { class: "buttons" }, amount, unit)));
  const after = h("div", { class: "field clock-choice", hidden: true }, h("label", { for: "clock-timeout" }, "On time-out"), onTimeout);
  kind.addEventListener("change", () => {
    real.hidden = kind.value !== "realtime";
    turn.hidden = kind.value !== "turn";
    after.hidden = !kind.value;
  });
  return h("fieldset", { class: "clock" }, h("legend", {}, "Clock"),
    h("div", { class: "field" }, h("label", { for: "clock-kind" }, "Clock"), kind, h("span", { class: "muted help", id: "clock-help" }, "people's seats only; bots have none")),
    real, turn, after);
}

function readClock(form) {
  const kind = form.querySelector("#clock-kind");
  if (!kind || !kind.value) return null;
  const onTimeout = form.querySelector("#clock-timeout").value;
  if (kind.value === "realtime") {
    return { kind: "realtime", seconds: Math.round(Number(form.querySelector("#clock-minutes").value) * 60), increment: Number(form.querySelector("#clock-increment").value) || 0, on_timeout: onTimeout };
  }
  return { kind: "turn", seconds: Number(form.querySelector("#clock-amount").value) * Number(form.querySelector("#clock-unit").value), on_timeout: onTimeout };
}

function showInvites(created, invited) {
  const origin = location.origin;
  const rows = created.seats.filter((s) => invited.includes(s.seat)).map((s) => inviteRow(s.seat, s.name, origin + s.link));
  const watch = origin + created.spectate;
  const go = h("a", { class: "button primary", href: `/table/${created.id}` }, "Go to the table");
  dialog("Invite the players", h("div", {},
    h("p", {}, "Send each person their own link. It works once: whoever opens it first takes the seat, and only their browser can see its hand. If a link goes astray, give the seat a new one from the table's Seats button."),
    ...rows,
    h("p", {}, "Anyone can watch (without seeing hands) at ", h("a", { href: created.spectate }, watch), "."),
    h("div", { class: "buttons" }, go)), { sticky: true, focus: go });
}
