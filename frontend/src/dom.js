// Building the page: an element with its attributes and children in one call. Nothing here
// writes a style attribute or HTML from text: the page runs under a Content-Security-Policy
// without 'unsafe-inline', so styles come from the style sheet or from element.style.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Children as ``append`` takes them, nested arrays flattened, nothing for null, undefined and
 * false. (A loop, not ``flat(Infinity)``: this runs for every element of a table's first
 * drawing, and the generic flattening was a good part of it.) */
function collect(children, into) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) collect(c, into);
    else into.push(c instanceof Node ? c : String(c));
  }
  return into;
}

function attach(node, attrs, children) {
  for (const k in attrs) {
    const v = attrs[k];
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    // through the CSSOM (an object, or a declaration list as text), which the policy allows: a
    // style attribute it would refuse
    else if (k === "style") {
      if (typeof v === "string") node.style.cssText = v;
      else Object.assign(node.style, v);
    }
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  if (children.length) node.append(...collect(children, []));
  return node;
}

/** An HTML element: h("button", {type: "button", onclick: f}, "Play"). */
export function h(tag, attrs = {}, ...children) {
  return attach(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function svg(tag, attrs = {}, ...children) {
  return attach(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Text for screen readers only (the style sheet hides it from the eye). */
export function spoken(text) {
  return h("span", { class: "visually-hidden" }, text);
}

/** Text for the eye only, with what a screen reader says instead. */
export function shown(text, instead) {
  return [h("span", { "aria-hidden": "true" }, text), spoken(instead)];
}

let ids = 0;
/** A fresh id for aria-labelledby and label-for pairs. */
export function uid(prefix = "id") {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** The elements in ``root`` that Tab reaches, in order. */
export function tabbable(root) {
  const selector = "a[href], button, input, select, textarea, summary, [tabindex]";
  return [...root.querySelectorAll(selector)].filter((el) => {
    if (el.disabled || el.tabIndex < 0 || el.closest("[inert], [hidden]")) return false;
    if (el.getAttribute("tabindex") === "-1") return false;
    if (el.type === "hidden") return false;
    return el.getClientRects().length > 0;
  });
}

/** A box that scrolls only when its content outgrows it (a wide grid, a long score table):
 * while it does, the keyboard must be able to reach it to scroll it, so it becomes a named,
 * focusable region; when it fits again it is a plain box, one Tab stop fewer. */
export function scrollBox(el, label) {
  const update = () => {
    const over = el.isConnected && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    if (over && el.getAttribute("tabindex") !== "0") {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", label);
    } else if (!over && el.getAttribute("tabindex") === "0" && document.activeElement !== el) {
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
    }
  };
  if (typeof ResizeObserver !== "undefined") {
    const watch = new ResizeObserver(update);
    watch.observe(el);
    if (el.firstElementChild) watch.observe(el.firstElementChild);
  }
  return el;
}
