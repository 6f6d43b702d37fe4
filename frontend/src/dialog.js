// Modal dialogs (the rules, the keys, the lobby's New table, the invite links, stories). While
// one is open the rest of the page is inert: no click, no Tab and no screen reader reaches
// behind it. Focus goes into the dialog when it opens, Tab and Shift+Tab go round inside it,
// and when it closes focus goes back to where it was (or, if that is gone, to what the opener
// names).

import { h, tabbable, uid } from "./dom.js";

const open = []; // the dialogs open now, the last on top

/** Open a modal dialog; returns {close, box}. ``focus``: the element to focus first (default:
 * the first field or button in the body, else the dialog itself); ``restore``: a function
 * giving the element to focus on closing when the one focused at opening is gone; Escape and
 * a click beside the dialog close it unless it is ``sticky``. */
export function dialog(title, body, { sticky = false, className = "", onClose, focus, restore } = {}) {
  const opener = document.activeElement;
  const titleId = uid("dialog-title");
  const closeButton = sticky ? null : h("button", { type: "button", class: "close", "aria-label": "Close" }, "×");
  const box = h("div", { class: `dialog ${className}`.trim(), role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, tabindex: "-1" },
    h("div", { class: "dialog-head" }, h("h2", { id: titleId }, title), closeButton),
    body);
  const overlay = h("div", { class: "overlay" }, box);
  // The page behind becomes inert; the notices stay live above everything.
  const made = [];
  for (const el of document.body.children) {
    if (el === overlay || el.id === "notices" || el.inert) continue;
    el.inert = true;
    made.push(el);
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    overlay.remove();
    open.splice(open.indexOf(entry), 1);
    for (const el of made) el.inert = false;
    document.removeEventListener("keydown", onKey, true);
    let back = opener && opener.isConnected && opener !== document.body ? opener : null;
    if (back && back.closest("[inert]")) back = null;
    if (!back && restore) back = restore();
    if (back) back.focus();
    if (onClose) onClose();
  };
  const entry = { box, close };
  const onKey = (event) => {
    if (open[open.length - 1] !== entry) return; // a dialog above this one has the keys
    if (event.key === "Escape") {
      event.stopPropagation();
      event.preventDefault();
      if (!sticky) close();
    } else if (event.key === "Tab") {
      const stops = tabbable(box);
      if (!stops.length) {
        event.preventDefault();
        box.focus();
        return;
      }
      const first = stops[0];
      const last = stops[stops.length - 1];
      const at = document.activeElement;
      if (event.shiftKey && (at === first || at === box || !box.contains(at))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (at === last || !box.contains(at))) {
        event.preventDefault();
        first.focus();
      }
    }
  };
  overlay.addEventListener("click", (event) => {
    if (event.target === overlay && !sticky) close();
  });
  if (closeButton) closeButton.addEventListener("click", close);
  document.addEventListener("keydown", onKey, true);
  document.body.append(overlay);
  open.push(entry);
  const first = focus || body.querySelector("[autofocus], input:not([type=hidden]), select, textarea, button.primary, button, a[href]");
  (first && first.getClientRects().length ? first : box).focus();
  return entry;
}

/** Whether a dialog is open (the table's keys wait while one is). */
export function dialogOpen() {
  return open.length > 0;
}
