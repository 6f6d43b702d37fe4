// The single page: routes by address to the lobby, a table or a replay.

import { lobbyPage, newTable } from "./lobby.js";
import { replayPage } from "./replay.js";
import { tablePage } from "./table.js";
import { game } from "./ui.js";

async function route() {
  const root = document.getElementById("app");
  const path = location.pathname;
  let m;
  try {
    if ((m = /^\/table\/([^/]+)\/replay\/?$/.exec(path))) await replayPage(root, decodeURIComponent(m[1]));
    else if ((m = /^\/table\/([^/]+)\/?$/.exec(path))) await tablePage(root, decodeURIComponent(m[1]));
    else if ((m = /^\/new\/([^/]+)\/?$/.exec(path))) {
      await lobbyPage(root);
      newTable(await game(decodeURIComponent(m[1])));
    } else await lobbyPage(root);
  } catch (error) {
    root.textContent = `Something went wrong: ${error.message}`;
    throw error;
  }
}

route();
