// The lobby's page (/ and /new/GAME, which opens that game's New table form).

import { accountCorner } from "../account.js";
import { lobbyPage, newTable } from "../lobby.js";
import { h } from "../dom.js";

async function start() {
  const root = document.getElementById("app");
  try {
    const games = await lobbyPage(root);
    const m = /^\/new\/([^/]+)\/?$/.exec(location.pathname);
    if (m) {
      const id = decodeURIComponent(m[1]);
      const game = games.find((g) => g.id === id);
      const card = () => document.querySelector(`.game-card[data-game="${CSS.escape(id)}"] button.primary`);
      if (game && !game.unavailable) await newTable(game, { restore: card });
      else if (game) root.prepend(h("p", { class: "error-page", role: "alert" }, `${game.title} is unavailable: ${game.unavailable}`));
      else root.prepend(h("p", { class: "error-page", role: "alert" }, `There is no game "${id}".`));
    }
  } catch (error) {
    root.replaceChildren(h("p", { class: "error-page", role: "alert" }, `Something went wrong: ${error.message}`));
    throw error;
  }
}

start();
accountCorner();
