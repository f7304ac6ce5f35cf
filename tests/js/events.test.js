// game/events.js: the one place that reads the text of the observation's history.

import assert from "node:assert/strict";
import { test } from "node:test";

import { parseEvent } from "../../src/conquian/web/static/game/events.js";
import { SERVER } from "./helpers.js";

test("each kind of event: its player, its verb and the card it is about", () => {
  const cases = [
    ["p1 take 5d6d7d (7d:t)", { player: 1, verb: "take", card: "7d" }],
    ["p0 take 2h3h4h/AhAdAc (4h:t)", { player: 0, verb: "take", card: "4h" }],
    ["p0 decline (5c:d)", { player: 0, verb: "decline", card: "5c" }],
    ["p0 pass (2c:t)", { player: 0, verb: "pass", card: "2c" }],
    ["p1 force (As:t)", { player: 1, verb: "force", card: "As" }],
    ["p0 discard Kh", { player: 0, verb: "discard", card: "Kh" }],
    ["p2 exchange 7c", { player: 2, verb: "exchange", card: "7c" }],
    ["p2 exchange ?", { player: 2, verb: "exchange", card: null }], // hidden from this viewer
    ["p1 noforce", { player: 1, verb: "noforce", card: null }],
  ];
  for (const [text, event] of cases) assert.deepEqual(parseEvent(text), event, text);
});

test("text that is no event is none", () => {
  for (const text of ["", null, undefined, "take 5d", "P1 take", "p take"]) assert.equal(parseEvent(text), null, String(text));
});

test("every event the server sent in a recorded match is read, with a card where it names one", () => {
  const verbs = new Set();
  let events = 0;
  for (const viewer of ["seat", "spectator"]) {
    for (const msg of SERVER.deltas[viewer]) {
      for (const text of msg.obs ? msg.obs.history : []) {
        const e = parseEvent(text);
        assert.ok(e, text);
        assert.equal(e.player, Number(text[1]));
        verbs.add(e.verb);
        if (/\(\w\w:\w\)|discard/.test(text)) assert.match(e.card || "", /^[A2-7JQK][shdc]$/, text);
        events++;
      }
    }
  }
  assert.ok(events > 100);
  const known = ["decline", "discard", "exchange", "force", "noforce", "pass", "take"];
  assert.deepEqual([...verbs].filter((v) => !known.includes(v)), []);
  for (const verb of ["decline", "discard", "pass", "take"]) assert.ok(verbs.has(verb), verb);
});
