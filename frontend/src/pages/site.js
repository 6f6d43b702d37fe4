// The player's pages: Your games (/me) and a profile (/players/NAME).

import { accountCorner } from "../account.js";
import { h } from "../dom.js";
import { profilePage, yourGamesPage } from "../players.js";

const root = document.getElementById("app");
const fail = (error) => {
  root.replaceChildren(h("p", { class: "error-page", role: "alert" }, `Something went wrong: ${error.message}`));
  throw error;
};
accountCorner();
const player = /^\/players\/([^/]+)\/?$/.exec(location.pathname);
if (player) profilePage(root, decodeURIComponent(player[1])).catch(fail);
else if (/^\/me\/?$/.test(location.pathname)) yourGamesPage(root).catch(fail);
else root.replaceChildren(h("p", { class: "error-page", role: "alert" }, "There is no such page."));
