// Stepping through a story (Espionage's walking back the dog: a city's scoring replayed turn
// by turn) in a dialog, one step at a time.

import { richText } from "./cards.js";
import { dialog } from "./dialog.js";
import { h } from "./dom.js";

export function walkStory(story, { onDone, restore } = {}) {
  let index = 0;
  const title = h("h3", { class: "story-title" });
  const lines = h("div", { class: "story-lines", "aria-live": "polite" });
  const counter = h("span", { class: "muted" });
  const back = h("button", { type: "button", onclick: () => go(index - 1) }, "← Back");
  const next = h("button", { type: "button", class: "primary", onclick: () => (index + 1 < story.steps.length ? go(index + 1) : d.close()) }, "Next →");
  const skip = h("button", { type: "button", onclick: () => d.close() }, "Skip");
  const body = h("div", { class: "story-walk" }, title, lines, h("div", { class: "buttons" }, back, next, skip, counter));
  const keys = (event) => {
    if (event.key === "ArrowRight") go(Math.min(index + 1, story.steps.length - 1));
    if (event.key === "ArrowLeft") go(Math.max(index - 1, 0));
  };
  function go(i) {
    if (i < 0 || i >= story.steps.length) return;
    index = i;
    const step = story.steps[i];
    title.replaceChildren(richText(step.title || ""));
    lines.replaceChildren(...(step.lines || []).map((l) => h("div", { class: /^\s/.test(l) ? "indent" : "" }, richText(l))));
    counter.textContent = `${i + 1} of ${story.steps.length}`;
    // a button that is disabled loses the focus: the one pressed keeps it instead
    back.setAttribute("aria-disabled", i === 0 ? "true" : "false");
    next.textContent = i + 1 < story.steps.length ? "Next →" : "Done";
  }
  const d = dialog(story.title || "Story", body, {
    className: "wide",
    focus: next,
    restore,
    onClose: () => {
      document.removeEventListener("keydown", keys);
      if (onDone) onDone();
    },
  });
  document.addEventListener("keydown", keys);
  go(0);
  return d;
}
