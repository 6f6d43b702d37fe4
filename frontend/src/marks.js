// Named moments of a page's first drawing, on the browser's performance timeline (User
// Timing), where the first-paint benchmark (benchmarks/web_first_paint.py) and the browser's
// developer tools read them: the critical path of a cold load, step by step. Each is noted
// once per page (the head's script and the modules each have their own copy of this file,
// hence the look at the timeline itself), and costs nothing to speak of.

const noted = new Set();

/** Note the moment ``name`` (as "spyglass:NAME"), the first time only. */
export function mark(name) {
  if (noted.has(name)) return;
  noted.add(name);
  const full = `spyglass:${name}`;
  if (typeof performance === "undefined" || !performance.mark || performance.getEntriesByName(full).length) return;
  performance.mark(full);
}
