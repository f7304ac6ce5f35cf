// The page's files as a whole: the modules app.js loads, the service worker's list of the
// files the page needs to open offline, index.html's preloads, and the modules that must
// load without a DOM.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { STATIC } from "./helpers.js";

const IMPORT = /^import\s(?:[^;]*?\sfrom\s)?"([^"]+)";/gms;

/** The modules `name` loads (its static imports; JSDoc's @import loads nothing).
 * @param {string} name  a path under the static folder */
function importsOf(name) {
  const text = readFileSync(new URL(name, STATIC), "utf8");
  const base = new URL(name, STATIC);
  return [...text.matchAll(IMPORT)].map((m) => fileURLToPath(new URL(m[1], base)).slice(fileURLToPath(STATIC).length));
}

/** Every module the page loads, from app.js. */
function graph() {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    importsOf(name).forEach(visit);
  };
  visit("app.js");
  return seen;
}

/** Every .js file under the static folder. */
function scripts(dir = "") {
  return readdirSync(new URL(dir || ".", STATIC), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? scripts(`${dir}${e.name}/`) : e.name.endsWith(".js") ? [`${dir}${e.name}`] : [],
  );
}

test("the page loads every module of the static folder, none twice by another path", () => {
  const loaded = graph();
  assert.ok(loaded.has("game/screen.js") && loaded.has("game/state.js") && loaded.has("screens/home.js"));
  // protocol.js holds types only (named in comments): never loaded; sw.js is the worker
  const files = scripts().filter((f) => f !== "protocol.js" && f !== "sw.js");
  assert.deepEqual([...loaded].sort(), files.sort());
});

test("the service worker keeps every file the page needs to open offline", () => {
  const sw = readFileSync(new URL("sw.js", STATIC), "utf8");
  const shell = JSON.parse(sw.match(/const SHELL = (\[[^\]]*\]);/)[1].replace(/,\s*\]/, "]"));
  const needed = [...graph()].map((f) => `/static/${f}`);
  for (const file of needed) assert.ok(shell.includes(file), `${file} is not in sw.js's SHELL`);
  for (const file of ["/", "/static/style.css", "/manifest.webmanifest"]) assert.ok(shell.includes(file), file);
  const statics = shell.filter((f) => f.startsWith("/static/"));
  const present = new Set(readdirSync(STATIC, { recursive: true }).map((f) => `/static/${f}`));
  for (const file of statics) assert.ok(present.has(file), `${file} is in SHELL but not in the folder`);
});

test("index.html preloads every module app.js loads (fetched at once, not level by level)", () => {
  const html = readFileSync(new URL("index.html", STATIC), "utf8");
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\/static\/([^"]+)">/g)].map((m) => m[1]);
  assert.equal(new Set(preloaded).size, preloaded.length);
  assert.deepEqual(preloaded.sort(), [...graph()].filter((f) => f !== "app.js").sort());
  assert.match(html, /<script type="module" src="\/static\/app.js"><\/script>/);
});

test("the modules that hold no DOM load in node (no window, no document)", async () => {
  assert.equal(typeof globalThis.document, "undefined");
  for (const name of ["words.js", "cards.js", "html.js", "seats.js", "game/events.js", "game/state.js", "game/scene.js", "game/table.js", "game/dock.js", "game/hand.js", "game/side.js", "game/summary.js", "game/review.js", "game/banners.js"]) {
    const module = await import(new URL(name, STATIC).href);
    assert.ok(Object.keys(module).length > 0, name);
  }
});
