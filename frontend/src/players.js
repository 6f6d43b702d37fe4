// The player's pages: *Your games* (/me: the live tables, those waiting for your move first,
// then the finished ones with their results) and a profile (/players/NAME: ratings per game
// and the game history with each game's replay).

import { api, currentAccount } from "./api.js";
import { enterDialog } from "./account.js";
import { h } from "./dom.js";

/** A rating as people compare them: the ordinal (mu − 3 sigma), one decimal. */
export function ratingText(r) {
  return r && typeof r.ordinal === "number" ? r.ordinal.toFixed(1) : "—";
}

/** "+1.9" or "−0.4": a rating change, from ``rating`` {before, after}. */
export function ratingChange(rating) {
  if (!rating || !rating.before || !rating.after) return "";
  const d = rating.after.ordinal - rating.before.ordinal;
  return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(1)}`;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function others(entry) {
  return entry.seats.filter((s) => s.seat !== entry.seat).map((s) => s.name).join(", ") || "alone";
}

/** How long until a clock's ``deadline`` (server time, seconds): "40 min", "5 h 10 min". */
export function timeLeft(deadline, now = Date.now() / 1000) {
  const minutes = Math.max(0, Math.floor((deadline - now) / 60));
  if (minutes < 1) return "under a minute";
  const [d, hr, min] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  if (d) return hr ? `${d} d ${hr} h` : `${d} d`;
  if (hr) return min ? `${hr} h ${min} min` : `${hr} h`;
  return `${min} min`;
}

function liveRow(g) {
  const left = g.deadline ? h("span", { class: "time-left" }, ` · ${timeLeft(g.deadline)} left`) : null;
  const state = g.your_move ? [h("strong", { class: "your-move" }, "Your move"), left] : g.status === "archived" ? "archived" : g.to_move_name ? [`${g.to_move_name} to move`, left] : `step ${g.step}`;
  return h("tr", { class: g.your_move ? "waiting-for-you" : "", "data-table": g.id },
    h("td", {}, h("a", { href: g.link }, g.title)),
    h("td", { class: "names" }, others(g)),
    h("td", {}, state),
    h("td", {}, when(g.updated)));
}

function resultCell(g) {
  const r = g.result || {};
  const place = r.winner ? h("strong", {}, "won") : r.rank ? `place ${r.rank}` : "";
  const change = ratingChange(r.rating);
  return [place, r.summary ? h("span", { class: "muted" }, ` · ${r.summary}`) : null, change ? h("span", { class: "rating-change" }, ` (rating ${change})`) : null];
}

function finishedRow(g) {
  return h("tr", { "data-table": g.id },
    h("td", {}, g.title),
    h("td", { class: "names" }, others(g)),
    h("td", { class: "result-cell" }, resultCell(g)),
    h("td", {}, when(g.updated)),
    h("td", {}, h("a", { href: g.replay }, "replay")));
}

function gamesTable(caption, columns, rows, empty) {
  if (!rows.length) return h("p", { class: "muted" }, empty);
  return h("div", { class: "table-scroll" }, h("table", { class: "tables" },
    h("caption", { class: "visually-hidden" }, caption),
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows)));
}

export async function yourGamesPage(root) {
  document.title = "Your games · spyglass";
  const account = await currentAccount();
  if (!account) {
    root.replaceChildren(h("section", { class: "intro" }, h("h1", {}, "Your games"),
      h("p", {}, "Log in to see the tables of your account on this device. Guests find their tables in the lobby's list."),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", onclick: () => enterDialog("login") }, "Log in"),
        h("button", { type: "button", onclick: () => enterDialog("signup") }, "Sign up"))));
    return;
  }
  const games = await api("/api/account/games");
  const waiting = games.live.filter((g) => g.your_move).length;
  root.replaceChildren(
    h("h1", {}, "Your games"),
    h("p", { class: "muted" }, waiting ? `${waiting} table${waiting > 1 ? "s" : ""} waiting for your move.` : "No table is waiting for your move.", " ", h("a", { href: `/players/${encodeURIComponent(games.name)}` }, "Your profile and ratings")),
    h("section", { "aria-labelledby": "live-title" }, h("h2", { id: "live-title" }, "Live tables"),
      gamesTable("live tables, those waiting for your move first (the least time left first)", ["game", "with", "state", "last move"], games.live.map(liveRow), "No live table. Start one from the lobby.")),
    h("section", { "aria-labelledby": "finished-title" }, h("h2", { id: "finished-title" }, "Finished"),
      gamesTable("finished tables, newest first", ["game", "with", "result", "ended", "replay"], games.finished.map(finishedRow), "No finished game yet.")));
}

export async function profilePage(root, name) {
  let profile;
  try {
    profile = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    root.replaceChildren(h("p", { class: "error-page", role: "alert" }, error.status === 404 ? `There is no player "${name}".` : `The profile could not be loaded: ${error.message}`));
    return;
  }
  document.title = `${profile.name} · spyglass`;
  const ratings = gamesTable("ratings per game, best first", ["game", "rating", "games", "mu", "sigma"],
    profile.ratings.map((r) => h("tr", {}, h("td", {}, r.title), h("td", {}, h("strong", {}, ratingText(r))), h("td", {}, String(r.games)), h("td", {}, r.mu.toFixed(2)), h("td", {}, r.sigma.toFixed(2)))),
    "No rated game yet (games of two or more seats with an account are rated).");
  root.replaceChildren(
    h("h1", { class: "player-name" }, profile.name),
    h("p", { class: "muted" }, `Playing since ${new Date(profile.created * 1000).toLocaleDateString()} · ${profile.played} game${profile.played === 1 ? "" : "s"} played, ${profile.won} won`),
    h("section", { "aria-labelledby": "ratings-title" }, h("h2", { id: "ratings-title" }, "Ratings"), ratings,
      h("p", { class: "muted help" }, "A rating is mu − 3 sigma: low until enough games make it certain.")),
    h("section", { "aria-labelledby": "history-title" }, h("h2", { id: "history-title" }, "History"),
      gamesTable("finished games, newest first", ["game", "with", "result", "ended", "replay"], profile.history.map(finishedRow), "No finished game yet.")));
}
