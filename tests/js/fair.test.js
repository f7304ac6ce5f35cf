// fair.js: the browser's check of a shuffle binds the dealer, as conquian.fair does.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ALGORITHM, FIRST_ALGORITHM, checkShuffle, commitmentOf } from "../../src/conquian/web/static/fair.js";

const SEED = "00".repeat(31) + "01";
// conquian.fair.commitment(bytes.fromhex(SEED), 1, 3), worked out in Python
const COMMITTED = "118d41be64e5f49caf250da5db8991126f0d87816dc9f6219fe4423f00f34039";

test("the commitment is the Python one, and another dealer makes another", async () => {
  assert.equal(await commitmentOf({ algorithm: ALGORITHM, server_seed: SEED, dealer: 1, players: 3 }), COMMITTED);
  assert.notEqual(await commitmentOf({ algorithm: ALGORITHM, server_seed: SEED, dealer: 0, players: 3 }), COMMITTED);
  assert.notEqual(await commitmentOf({ algorithm: ALGORITHM, server_seed: SEED, dealer: 1, players: 2 }), COMMITTED);
});

const revealed = (/** @type {Partial<import("../../src/conquian/web/static/protocol.js").RevealedShuffle>} */ more) => ({
  algorithm: ALGORITHM,
  commitment: COMMITTED,
  server_seed: SEED,
  client_seeds: ["ab"],
  dealer: 1,
  hand_size: 10,
  packet: 5,
  players: 3,
  ...more,
});

test("a shuffle whose dealer was swapped after the seeds fails the check", async () => {
  const honest = await checkShuffle(revealed({}), null, { shown: COMMITTED, mine: [], hand: undefined });
  assert.equal(honest.ok, true);
  const swapped = await checkShuffle(revealed({ dealer: 2 }), null, { shown: COMMITTED, mine: [], hand: undefined });
  assert.equal(swapped.ok, false);
  assert.deepEqual(swapped.checks.find((c) => c.what === "commitment"), { ok: false, what: "commitment" });
});

test("a shuffle of the first version is not called fair: it did not bind the dealer", async () => {
  const old = "ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5"; // sha256(SEED)
  const result = await checkShuffle(revealed({ algorithm: FIRST_ALGORITHM, commitment: old }), null, { shown: old, mine: [], hand: undefined });
  assert.equal(result.ok, false);
  assert.deepEqual(
    result.checks.map((c) => [c.what, c.ok]),
    [["commitment", true], ["dealer", false], ["shown", true]],
  );
});
