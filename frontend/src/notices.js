// Notices: short messages in the corner ("Reconnected.", a refused move, a hint) that go away
// by themselves. They are added to one container that is in the page from the start and is a
// polite live region, so screen readers read each notice once, as it comes.

import { h } from "./dom.js";

/** Show ``content`` (text or a node) for a few seconds. ``kind``: info, error or hint. */
export function notice(content, kind = "info") {
  const area = document.getElementById("notices");
  if (!area) return null;
  const note = h("div", { class: `notice notice-${kind}` }, content);
  area.append(note);
  setTimeout(() => note.remove(), kind === "error" ? 8000 : 4000);
  return note;
}
