// A finished table's replay (/table/ID/replay).

import { accountCorner } from "../account.js";
import { h } from "../dom.js";
import { replayPage } from "../replay.js";

const root = document.getElementById("app");
const m = /^\/table\/([^/]+)\/replay\/?$/.exec(location.pathname);
if (m) {
  replayPage(root, decodeURIComponent(m[1])).catch((error) => {
    root.replaceChildren(h("p", { class: "error-page", role: "alert" }, `Something went wrong: ${error.message}`));
    throw error;
  });
} else {
  root.replaceChildren(h("p", { class: "error-page", role: "alert" }, "This is not a replay's address."));
}
accountCorner();
