// A table's page (/table/ID): its connection opens as soon as this script runs.

import { h } from "../dom.js";
import { tablePage } from "../table.js";

const root = document.getElementById("app");
const m = /^\/table\/([^/]+)\/?$/.exec(location.pathname);
if (m) {
  tablePage(root, decodeURIComponent(m[1])).catch((error) => {
    root.replaceChildren(h("p", { class: "error-page", role: "alert" }, `Something went wrong: ${error.message}`));
    throw error;
  });
} else {
  root.replaceChildren(h("p", { class: "error-page", role: "alert" }, "This is not a table's address."));
}
