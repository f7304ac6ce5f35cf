// Shared by the page's unit tests: the recorded server messages, and small state messages
// made to order.

import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";

/** The static folder of the page, and the repository's root. */
export const STATIC = new URL("../../src/conquian/web/static/", import.meta.url);
export const ROOT = new URL("../../", import.meta.url);

/** What the server sent (tests/js/fixtures/record.py writes it). */
export const SERVER = JSON.parse(readFileSync(new URL("fixtures/server.json", import.meta.url), "utf8"));

/** @param {string} text */
export const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/** A deep copy that cannot be changed (a test fails if a pure function changes its input). */
export function frozen(value) {
  const copy = structuredClone(value);
  const freeze = (v) => {
    if (v && typeof v === "object") {
      Object.freeze(v);
      Object.values(v).forEach(freeze);
    }
    return v;
  };
  return freeze(copy);
}

/**
 * A dealt state message for `seat` (null: a spectator) of a two-player game, with what a
 * test changes in `parts` (and `obs` in `obsParts`).
 */
export function stateMessage(parts = {}, obsParts = {}) {
  return {
    type: "state",
    game: {
      id: "g1",
      mode: "friend",
      level: null,
      status: "playing",
      names: ["Ana", "Ben"],
      kinds: ["human", "human"],
      levels: [null, null],
      joined: [true, true],
      free: 0,
      by_invitation: false,
      rematch: null,
      rules: "standard",
      deck: "french",
      cards_to_win: 11,
      hints: true,
    },
    seat: 0,
    seq: 1,
    log: [["Ana took ", { card: "7d" }]],
    match: { deal: 1, balance: [0, 0], stake: 1, over: false, leader: null, scoring: "stake" },
    last: null,
    fair: null,
    origin: "",
    situation: [],
    takes: [],
    lays: [],
    ...parts,
    obs: {
      player: 0,
      rules: "standard",
      phase: "discard",
      to_act: 0,
      dealer: 1,
      hand: ["Ah", "2h", "Kc"],
      tables: [[["5d", "6d", "7d"]], []],
      centre: null,
      centre_source: null,
      dead: [],
      seen: [],
      stock_count: 19,
      hand_counts: [3, 10],
      stake: 1,
      legal_actions: ["discard Ah", "discard 2h", "discard Kc"],
      history: [
        { player: 1, verb: "discard", card: "7d" },
        { player: 0, verb: "take", card: "7d", source: "d", melds: [["5d", "6d", "7d"]] },
      ],
      outcome: null,
      ...obsParts,
    },
  };
}
