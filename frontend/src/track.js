// The track region: a numbered row of spaces, the first ``used`` of them spent (a turn's
// Action Points), with a caption; or several tracks, each with a title.
// Value: {"spaces": n, "used": k, "caption": "..."} or a list of those with "title".

import { richText } from "./cards.js";
import { h } from "./dom.js";

function el(tag, cls, ...children) {
  return h(tag, { class: cls }, ...children);
}

function oneTrack(value) {
  const spaces = Math.max(0, Number(value.spaces) || 0);
  const used = Math.min(spaces, Math.max(0, Number(value.used) || 0));
  const box = el("div", "track");
  box.dataset.spaces = String(spaces);
  box.dataset.used = String(used);
  box.dataset.left = String(spaces - used);
  if (value.title) box.append(el("div", "track-title", richText(value.title)));
  const row = el("ol", "track-spaces");
  row.setAttribute("aria-label", `${used} of ${spaces} used, ${spaces - used} left`);
  for (let i = 1; i <= spaces; i++) {
    const space = el("li", `track-space ${i <= used ? "spent" : "open"}`, String(i));
    space.title = i <= used ? `${i}: used` : `${i}: left`;
    space.setAttribute("aria-hidden", "true"); // the list's name says it all at once
    row.append(space);
  }
  box.append(row);
  if (value.caption) box.append(el("div", "track-caption", richText(value.caption)));
  return box;
}

/** The track primitive: returns the element to put in the page. */
export function renderTrack(value) {
  if (Array.isArray(value)) return el("div", "tracks", ...value.map((v) => oneTrack(v || {})));
  return oneTrack(value || {});
}
