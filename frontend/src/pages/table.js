// A table's page (/table/ID). The connection opens the moment this small module runs (once an
// invite in the address, if any, is claimed); the table's code, which the page preloads beside
// it, is evaluated meanwhile and takes over the connection (whatever came before it is kept
// for it).

import { accountCorner } from "../account.js";
import { openTable } from "../api.js";
import { h } from "../dom.js";

const root = document.getElementById("app");
const m = /^\/table\/([^/]+)\/?$/.exec(location.pathname);
const fail = (error) => {
  root.replaceChildren(h("p", { class: "error-page", role: "alert" }, `Something went wrong: ${error.message}`));
  throw error;
};
if (m) {
  const id = decodeURIComponent(m[1]);
  const opening = openTable(id);
  accountCorner();
  import("../table.js").then(({ tablePage }) => tablePage(root, id, opening)).catch(fail);
} else {
  root.replaceChildren(h("p", { class: "error-page", role: "alert" }, "This is not a table's address."));
}
