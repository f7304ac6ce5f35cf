// The page's requests (server.js): a browser the server does not know yet asks who it is
// first and alone, so that no two requests make two players for it.

import assert from "node:assert/strict";
import { test } from "node:test";

import { STATIC } from "./helpers.js";

/** A fetch that answers each request only when the test says so, and logs them. */
function heldFetch() {
  const sent = [];
  const fetch = (path, init = {}) =>
    new Promise((resolve) => {
      const answer = (status, data) => resolve({ ok: status < 400, status, json: async () => data });
      sent.push({ path, method: init.method || "GET", answer });
    });
  return { sent, fetch };
}

/** Let every promise ready to run, run. */
const settle = () => new Promise((resolve) => { setImmediate(resolve); });

test("the first request asks who the browser is, and the others wait for its answer", async () => {
  const { sent, fetch } = heldFetch();
  globalThis.fetch = fetch;
  const { api } = await import(new URL("server.js?first", STATIC).href);
  const quick = api("/api/quick", { form: "mexican2" }); // pressed before the page knew
  const me = api("/api/me");
  await settle();
  assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), ["GET /api/me"]);
  sent[0].answer(200, { id: "p1" });
  await settle();
  assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), ["GET /api/me", "POST /api/quick", "GET /api/me"]);
  sent[1].answer(201, { ticket: "t1" });
  sent[2].answer(200, { id: "p1" });
  assert.deepEqual(await quick, { ticket: "t1" });
  assert.deepEqual(await me, { id: "p1" });
  // known now: a request goes at once
  const later = api("/api/games", { mode: "bot" });
  await settle();
  assert.equal(sent.length, 4);
  sent[3].answer(400, { error: "bad" });
  await assert.rejects(later, /bad/);
});

test("the page's own first question is answered by that request, and a failed one is asked again", async () => {
  const { sent, fetch } = heldFetch();
  globalThis.fetch = fetch;
  const { api } = await import(new URL("server.js?again", STATIC).href);
  const first = api("/api/me");
  const other = api("/api/leaderboard");
  await settle();
  assert.equal(sent.length, 1);
  sent[0].answer(503, { error: "down" });
  await assert.rejects(first, /down/);
  await settle(); // the other request goes on (the server will say what it says)
  assert.deepEqual(sent.map((r) => r.path), ["/api/me", "/api/leaderboard"]);
  sent[1].answer(200, []);
  assert.deepEqual(await other, []);
  const again = api("/api/me"); // not known yet: asked again, alone, and answered once
  await settle();
  assert.equal(sent.length, 3);
  sent[2].answer(200, { id: "p2" });
  assert.deepEqual(await again, { id: "p2" });
  assert.equal(sent.length, 3);
});

test("signed out, the page forgets who it was: the next request asks again, alone", async () => {
  const { sent, fetch } = heldFetch();
  globalThis.fetch = fetch;
  const { api, forgetWho } = await import(new URL("server.js?forget", STATIC).href);
  const first = api("/api/me");
  await settle();
  sent[0].answer(200, { id: "ana" });
  assert.deepEqual(await first, { id: "ana" });
  const signOut = api("/api/signout", { everywhere: false }); // known: sent at once
  await settle();
  assert.equal(sent.length, 2);
  sent[1].answer(200, { signed_out: true });
  await signOut;
  forgetWho();
  const who = api("/api/me"); // who the browser is now: asked first
  const home = api("/api/lobby"); // the home screen's request waits for that answer
  await settle();
  assert.deepEqual(sent.slice(2).map((r) => `${r.method} ${r.path}`), ["GET /api/me"]);
  sent[2].answer(429, { error: "Too many requests" }); // the server is busy: said, and asked again
  await assert.rejects(who, /Too many/);
  await settle();
  assert.deepEqual(sent.slice(3).map((r) => r.path), ["/api/lobby"]);
  sent[3].answer(200, { tables: [] });
  assert.deepEqual(await home, { tables: [] });
  const again = api("/api/me");
  await settle();
  assert.equal(sent.length, 5);
  sent[4].answer(200, { id: "guest2" });
  assert.deepEqual(await again, { id: "guest2" });
});
