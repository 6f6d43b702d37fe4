// A table's page (/table/ID). This small module is all that runs before the connection opens
// (once an invite in the address, if any, is claimed); the table's code, a chunk of its own
// that the page preloads beside it, is evaluated meanwhile and takes over the connection
// (whatever came before it is kept for it). The account corner of the top bar waits until the
// table is drawn (table.js).

import { openTable } from "../api.js";
import { h } from "../dom.js";
import { mark } from "../marks.js";

mark("entry");
const root = document.getElementById("app");
const m = /^\/table\/([^/]+)\/?$/.exec(location.pathname);
const fail = (error) => {
  root.replaceChildren(h("p", { class: "error-page", role: "alert" }, `Something went wrong: ${error.message}`));
  throw error;
};
if (m) {
  const id = decodeURIComponent(m[1]);
  const opening = openTable(id);
  import("../table.js").then(({ tablePage }) => tablePage(root, id, opening)).catch(fail);
} else {
  root.replaceChildren(h("p", { class: "error-page", role: "alert" }, "This is not a table's address."));
}
