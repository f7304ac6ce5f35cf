// game/events.js: the moves of the deal as the server sends them, each an object (its player,
// its verb and the card it was about).

import assert from "node:assert/strict";
import { test } from "node:test";

import { events } from "../../src/conquian/web/static/game/events.js";
import { SERVER } from "./helpers.js";

const CARD = /^[A2-7JQK][shdc]$/;
const VERBS = ["decline", "discard", "exchange", "force", "noforce", "pass", "take"];

test("each event is read as the server sent it", () => {
  const take = { player: 1, verb: "take", card: "7d", source: "t", melds: [["5d", "6d", "7d"]] };
  const hidden = { player: 2, verb: "exchange", card: null };
  assert.deepEqual(events([take, hidden]), [take, hidden]);
});

test("what is no event is left out", () => {
  assert.deepEqual(events(null), []);
  assert.deepEqual(events(undefined), []);
  assert.deepEqual(events(["p1 take 5d6d7d (7d:t)", null, 7, { verb: "take" }, { player: 0 }]), []);
});

test("every event the server sent in a recorded match has a seat, a verb and its card", () => {
  const verbs = new Set();
  let read = 0;
  for (const viewer of ["seat", "spectator"]) {
    for (const msg of SERVER.deltas[viewer]) {
      const history = msg.obs ? msg.obs.history : [];
      const found = events(history);
      assert.equal(found.length, history.length, "every item of the history is an event");
      for (const e of found) {
        assert.ok(Number.isInteger(e.player) && e.player >= 0 && e.player < 2, JSON.stringify(e));
        assert.ok(VERBS.includes(e.verb), e.verb);
        verbs.add(e.verb);
        if (e.verb !== "noforce") assert.match(e.card || "", CARD, JSON.stringify(e));
        if (e.verb === "take") assert.ok(e.melds && e.melds.flat().includes(e.card), JSON.stringify(e));
        if (e.verb !== "discard" && e.verb !== "exchange") assert.ok(["d", "p", "t", "u"].includes(e.source || ""));
        read++;
      }
    }
  }
  assert.ok(read > 100);
  for (const verb of ["decline", "discard", "pass", "take"]) assert.ok(verbs.has(verb), verb);
});
