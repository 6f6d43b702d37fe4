// The browser front-end's build. esbuild bundles the scripts of each page (lobby, table,
// replay, the player's pages; the board kit for tools and tests) and the two style sheets; every file is named by
// its content hash, so the server can let browsers keep it for a year; each is compressed
// with gzip and Brotli once, here, so the server never compresses a static file; and the
// four HTML pages are written with the hashed names, the styles and every module a page
// needs listed up front (no waterfall of imports). The server (src/spyglass/web/assets.py)
// reads manifest.json.
//
//   node build.mjs           build into ../src/spyglass/web/static, replacing what is there
//   node build.mjs --check   build in memory; fail if the committed files differ from it
//
// The output is committed: `make run` and an installed wheel need no Node. The manifest holds
// a hash of the sources, so a test can tell when someone changed them without building.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import * as esbuild from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, "..", "src", "spyglass", "web", "static");
const CHECK = process.argv.includes("--check");

/** The pages' script entries (each built on its own, split where it imports dynamically),
 * the style sheets, and the board kit (for tools and tests), bundled on its own. */
const SCRIPTS = ["lobby", "table", "replay", "site"];
const KIT = "board";
const STYLES = ["lobby", "table"];
const DESCRIPTION =
  "Play tabletop games of espionage, solo card puzzles and trading in the browser: alone, " +
  "hot-seat or online with invite links, against bots, with rules, hints and replays.";
/** The HTML pages: which script and style each loads, and the classic script written into the
 * page's head, if any (run while the page is parsed: the table's opens its connections). */
const PAGES = {
  lobby: { script: "lobby", style: "lobby", title: "spyglass: tabletop games to play online" },
  table: { script: "table", style: "table", inline: "early", title: "A table · spyglass" },
  replay: { script: "replay", style: "table", title: "A replay · spyglass" },
  site: { script: "site", style: "lobby", title: "Your games · spyglass" },
};
/** Browsers the output must run in (everything since early 2022). */
const TARGET = ["es2020", "chrome100", "firefox100", "safari15.4"];

function sha256(data) {
  return createHash("sha256").update(data).digest("hex");
}

function files(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...files(path));
    else found.push(path);
  }
  return found;
}

/** One hash of everything the output is made from (tests/web/test_assets.py computes the same
 * from Python): each file's path under frontend/ and the hash of its bytes, in path order. */
function sourceHash() {
  const paths = [join(HERE, "build.mjs"), join(HERE, "package-lock.json"), join(HERE, "page.html"), ...files(join(HERE, "src"))];
  const lines = paths
    .map((p) => relative(HERE, p).split(sep).join("/"))
    .sort()
    .map((rel) => `${rel}\0${sha256(readFileSync(join(HERE, rel)))}\n`);
  return sha256(lines.join(""));
}

/** A short content hash for a file's name, in the alphabet esbuild uses. */
function nameHash(data) {
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes = createHash("sha256").update(data).digest();
  let out = "";
  for (let i = 0; i < 8; i++) out += digits[bytes[i] % 32];
  return out;
}

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Every output file: name -> bytes (hashed files, pages, manifest). */
async function build() {
  const common = {
    absWorkingDir: HERE,
    bundle: true,
    format: "esm",
    minify: true,
    target: TARGET,
    charset: "utf8",
    legalComments: "none",
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    outdir: "out",
    write: false,
    metafile: true,
    logLevel: "warning",
  };
  // One build per page, so a page never loads another page's code. Within a page, a module
  // it imports dynamically is a chunk of its own (esbuild's splitting), with what it shares
  // with the entry in a third: the table page's entry, a few kB, opens the connection while
  // the table's code is still being fetched and compiled. Every chunk the entry needs at
  // start-up is preloaded by the page (below), so a cold load is one round of requests: the
  // page, then its style sheet, scripts and icon in parallel (at most six over HTTP/1.1).
  const results = [
    await esbuild.build({ ...common, entryPoints: STYLES.map((s) => `src/css/${s}.css`) }),
    ...(await Promise.all(SCRIPTS.map((s) => esbuild.build({ ...common, splitting: true, entryPoints: [`src/pages/${s}.js`] })))),
    await esbuild.build({ ...common, entryPoints: [`src/pages/${KIT}.js`] }),
  ];
  const out = new Map();
  const byEntry = {}; // "table.js" -> "table-HASH.js"
  const imports = {}; // output name -> the names it imports statically
  for (const result of results) {
    for (const [path, meta] of Object.entries(result.metafile.outputs)) {
      const name = path.slice("out/".length);
      // (a module imported dynamically is an entry point of its own to esbuild: not ours)
      if (/^src\/(pages|css)\//.test(meta.entryPoint || "")) byEntry[meta.entryPoint.split("/").pop()] = name;
      imports[name] = meta.imports
        .filter((i) => i.kind === "import-statement" || i.kind === "dynamic-import")
        .map((i) => ({ path: i.path.slice("out/".length), later: i.kind === "dynamic-import" }));
    }
    for (const file of result.outputFiles) out.set(relative(join(HERE, "out"), file.path).split(sep).join("/"), Buffer.from(file.contents));
  }

  const icon = readFileSync(join(HERE, "src", "icon.svg"));
  const iconName = `icon-${nameHash(icon)}.svg`;
  out.set(iconName, icon);
  byEntry["icon.svg"] = iconName;

  /** The modules a page preloads, depth first, each once: what its script imports, and what
   * the script itself imports dynamically at start-up (the table's code, which the table page's
   * entry asks for as soon as it has opened the connection) with their imports. A chunk
   * imported dynamically by a chunk is loaded when it is needed (after the first drawing), not
   * preloaded. */
  const needs = (name, top = true, seen = new Set()) => {
    for (const dep of imports[name] || []) {
      if (seen.has(dep.path) || (dep.later && !top)) continue;
      seen.add(dep.path);
      needs(dep.path, false, seen);
    }
    return seen;
  };
  // A script written into a page: one classic script (no module: it runs the moment the parser
  // reaches it, before the style sheet has arrived), allowed by the hash of its text in the
  // page's Content-Security-Policy (the manifest lists it; assets.py adds it to the header).
  const inline = {};
  for (const name of new Set(Object.values(PAGES).map((p) => p.inline).filter(Boolean))) {
    const result = await esbuild.build({ ...common, format: "iife", metafile: false, entryPoints: [`src/${name}.js`], entryNames: "[name]" });
    const text = result.outputFiles[0].text.trim();
    if (/<\/script|<!--/i.test(text)) throw new Error(`src/${name}.js: its text cannot be written into a page`);
    inline[name] = { text, hash: `sha256-${createHash("sha256").update(text).digest("base64")}` };
  }
  const scriptHashes = {};
  const template = readFileSync(join(HERE, "page.html"), "utf8");
  const hashed = [...out.keys()].sort();
  const pages = {};
  for (const [page, spec] of Object.entries(PAGES)) {
    const script = byEntry[`${spec.script}.js`];
    const early = spec.inline ? inline[spec.inline] : null;
    const head = [
      // before the style sheet: a script after it would wait for it
      ...(early ? [`<script>${early.text}</script>`] : []),
      `<link rel="stylesheet" href="/static/${byEntry[`${spec.style}.css`]}">`,
      ...[...needs(script)].map((dep) => `<link rel="modulepreload" href="/static/${dep}">`),
      `<script type="module" src="/static/${script}"></script>`,
    ].join("\n");
    const html = template
      .replaceAll("{{title}}", escapeHtml(spec.title))
      .replaceAll("{{description}}", escapeHtml(DESCRIPTION))
      .replaceAll("{{icon}}", `/static/${iconName}`)
      .replaceAll("{{head}}", head);
    const written = html.split("<script>").length - 1;
    if (/\{\{|<style|style=/.test(html) || written !== (early ? 1 : 0)) throw new Error(`page.html: an unfilled placeholder or inline script or style in ${page}`);
    pages[page] = `${page}.html`;
    if (early) scriptHashes[page] = [early.hash];
    out.set(`${page}.html`, Buffer.from(html));
  }
  const manifest = {
    comment: "Written by frontend/build.mjs: do not edit. The server reads it (spyglass/web/assets.py).",
    source: sourceHash(),
    pages,
    scripts: scriptHashes,
    entries: Object.fromEntries(Object.entries(byEntry).sort()),
    files: hashed,
  };
  out.set("manifest.json", Buffer.from(JSON.stringify(manifest, null, 1) + "\n"));
  return out;
}

/** The compressed forms of a file that are smaller than it. */
function compressed(name, data) {
  if (name === "manifest.json") return [];
  const forms = [
    [`${name}.gz`, zlib.gzipSync(data, { level: 9 })],
    [
      `${name}.br`,
      zlib.brotliCompressSync(data, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
    ],
  ];
  return forms.filter(([, body]) => body.length < data.length);
}

function decompress(name, data) {
  return name.endsWith(".br") ? zlib.brotliDecompressSync(data) : zlib.gunzipSync(data);
}

async function main() {
  const out = await build();
  if (CHECK) {
    // Compressors differ between Node versions, so the compressed files are checked by what
    // they decompress to, not byte for byte.
    const problems = [];
    const committed = existsSync(OUT) ? readdirSync(OUT).sort() : [];
    const expected = new Set();
    for (const [name, data] of out) {
      expected.add(name);
      const path = join(OUT, name);
      if (!existsSync(path)) problems.push(`missing: ${name}`);
      else if (!readFileSync(path).equals(data)) problems.push(`differs: ${name}`);
      for (const [form] of compressed(name, data)) {
        expected.add(form);
        const formPath = join(OUT, form);
        if (!existsSync(formPath)) problems.push(`missing: ${form}`);
        else if (!decompress(form, readFileSync(formPath)).equals(data)) problems.push(`differs: ${form}`);
      }
    }
    for (const name of committed) if (!expected.has(name)) problems.push(`left over: ${name}`);
    if (problems.length) {
      console.error(`The built front-end in ${relative(process.cwd(), OUT) || "."} is not what the sources make (run make assets):`);
      for (const p of problems) console.error(`  ${p}`);
      process.exit(1);
    }
    console.log(`the built front-end matches its sources (${out.size} files)`);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  const written = new Set();
  let raw = 0;
  let br = 0;
  for (const [name, data] of out) {
    writeFileSync(join(OUT, name), data);
    written.add(name);
    raw += data.length;
    const forms = compressed(name, data);
    for (const [form, body] of forms) {
      writeFileSync(join(OUT, form), body);
      written.add(form);
    }
    const brotli = forms.find(([form]) => form.endsWith(".br"));
    br += brotli ? brotli[1].length : data.length;
  }
  for (const name of readdirSync(OUT)) if (!written.has(name)) rmSync(join(OUT, name), { recursive: true });
  console.log(`built ${out.size} files into ${relative(process.cwd(), OUT)}: ${raw} bytes, ${br} with Brotli`);
}

await main();
