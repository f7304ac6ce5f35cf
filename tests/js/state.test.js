// game/state.js: the page's GameState and how each message changes it (pure: no DOM).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  againstComputer,
  closeSummary,
  connected,
  dealt,
  discardAction,
  lastMoves,
  newEvents,
  newGame,
  onlyMove,
  receiveError,
  receiveHint,
  receiveReview,
  receiveState,
  sent,
  shownState,
  summaryPending,
  takeChoices,
  toggleCard,
  wholeLists,
} from "../../src/conquian/web/static/game/state.js";
import { SERVER, frozen, sha256, stateMessage } from "./helpers.js";

describe("wholeLists: the deltas put back", () => {
  for (const viewer of ["seat", "spectator"]) {
    test(`every state of a match, for the ${viewer}, has the lists the server meant`, () => {
      const recorded = SERVER.deltas[viewer];
      let last = null;
      let connection = 0;
      let partial = 0;
      for (const [i, sent] of recorded.entries()) {
        if (sent.connection !== connection) {
          connection = sent.connection;
          last = null; // a connection made again starts from nothing
        }
        const msg = { type: "state", ...sent };
        const whole = wholeLists(frozen(msg), last && frozen(last));
        const lists = [whole.log, whole.obs === null ? null : whole.obs.history];
        assert.equal(sha256(JSON.stringify(lists)), sent.whole, `message ${i} (seq ${sent.seq})`);
        partial += sent.log_from > 0 || (sent.history_from || 0) > 0;
        last = whole;
      }
      // the recording has what the deltas are about: most states came in part, a line of the
      // log rewritten, states that start again from 0 in the middle of the match
      assert.ok(partial > recorded.length / 2, `${partial} of ${recorded.length}`);
      const rewrites = recorded.filter((m, i) => i > 0 && m.log_from > 0 && m.log_from < recorded[i - 1].log_from + recorded[i - 1].log.length);
      assert.ok(rewrites.length > 0);
      assert.ok(recorded.some((m) => m.seq > 1 && m.log_from === 0));
    });
  }

  test("the language changed and the connection made again start the lists anew", () => {
    const seat = SERVER.deltas.seat;
    const again = seat.find((m) => m.connection === 1);
    assert.equal(again.seq, 40);
    assert.equal(again.log_from, 0);
    assert.equal(again.history_from, 0);
    const spanish = seat.find((m, i) => i > 0 && m.seq === 25 && seat[i - 1].seq === 25);
    assert.equal(spanish.log_from, 0);
    assert.notEqual(spanish.whole, seat[seat.indexOf(spanish) - 1].whole); // the words are new
  });

  test("a state sent whole, or before the deal, is taken as it is", () => {
    const msg = frozen(stateMessage({ log_from: 0 }, {}));
    assert.equal(wholeLists(msg, null), msg);
    const waiting = frozen({ ...stateMessage(), obs: null, log: [], log_from: 0 });
    assert.equal(wholeLists(waiting, null), waiting);
  });

  test("a delta with no state before it is an error that says so", () => {
    const msg = frozen(stateMessage({ log: [["x"]], log_from: 3 }));
    assert.throws(() => wholeLists(msg, null), /log line 3 with no state before it/);
    const history = frozen(stateMessage({ log_from: 0, history_from: 2 }));
    assert.throws(() => wholeLists(history, null), /history event 2/);
  });

  test("the new items replace those from their index on", () => {
    const [a, b, c, d] = ["2s", "3s", "4s", "Kc"].map((card, i) => ({ player: i % 2, verb: "pass", card, source: "t" }));
    const last = frozen(stateMessage({ log: [["a"], ["b"], ["c"]] }, { history: [a, b, c] }));
    const msg = frozen(stateMessage({ log: [["C"], ["d"]], log_from: 2, history_from: 2 }, { history: [d] }));
    const whole = wholeLists(msg, last);
    assert.deepEqual(whole.log, [["a"], ["b"], ["C"], ["d"]]);
    assert.deepEqual(whole.obs.history, [a, b, d]);
  });
});

describe("receiveState and the other messages", () => {
  const game = frozen(newGame("g1", "tok", 0));

  test("a new position forgets the cards picked, the chooser and the hint", () => {
    const first = receiveState(game, frozen(stateMessage({ seq: 3 })));
    const busy = frozen({
      ...toggleCard(first, "Ah"),
      chooser: { word: "take", actions: [] },
      hint: { type: "hint", seq: 3, action: "discard Ah", words: [], why: "", why_words: [], reason: "" },
      pending: true,
    });
    const same = receiveState(busy, frozen(stateMessage({ seq: 3 })));
    assert.deepEqual([...same.selected], ["Ah"]);
    assert.ok(same.chooser && same.hint);
    assert.equal(same.pending, false);
    const moved = receiveState(busy, frozen(stateMessage({ seq: 4 })));
    assert.deepEqual([...moved.selected], []);
    assert.equal(moved.chooser, null);
    assert.equal(moved.hint, null);
  });

  test("the last state of a deal that ended is kept to show it as it ended", () => {
    const playing = frozen(stateMessage({ seq: 30 }));
    const before = receiveState(game, playing);
    const last = { deal: 1, winner: 0, termination: "out", value: 1, lines: [], tables: [[], []] };
    const ended = receiveState(before, frozen(stateMessage({ seq: 31, last, match: { ...playing.match, deal: 2 } })));
    assert.equal(ended.endedFrom, before.state);
    assert.ok(summaryPending(ended));
    // a later state of the new deal keeps it until the player continues
    const later = receiveState(ended, frozen(stateMessage({ seq: 32, last, match: { ...playing.match, deal: 2 } })));
    assert.equal(later.endedFrom, before.state);
    const closed = closeSummary(later);
    assert.equal(closed.seenDeal, 1);
    assert.equal(closed.endedFrom, null);
    assert.ok(!summaryPending(closed));
  });

  test("an error ends the wait for a move and forgets a review asked for", () => {
    const waiting = frozen({ ...game, pending: true, review: { type: "asked", deal: 1 } });
    const after = receiveError(waiting);
    assert.equal(after.pending, false);
    assert.equal(after.review, null);
    const done = frozen({ ...game, review: { type: "review", deal: 1 } });
    assert.equal(receiveError(done).review, done.review);
  });

  test("a hint is kept for the position it is for only", () => {
    const at = receiveState(game, frozen(stateMessage({ seq: 5 })));
    const hint = frozen({ type: "hint", seq: 5, action: "discard Ah", words: [], why: "", why_words: [], reason: "" });
    assert.equal(receiveHint(at, hint).hint, hint);
    assert.equal(receiveHint(at, { ...hint, seq: 4 }), at);
  });

  test("a review's progress after the review itself is late: ignored", () => {
    const review = frozen({ type: "review", deal: 1 });
    const done = receiveReview(game, review);
    const late = receiveReview(done, frozen({ type: "review_progress", deal: 1, done: 3, total: 9, words: "" }));
    assert.equal(late.review, review);
    const other = receiveReview(done, frozen({ type: "review_progress", deal: 2, done: 3, total: 9, words: "" }));
    assert.equal(other.review.deal, 2);
  });

  test("a connection opened is online, its review in progress forgotten", () => {
    const lost = frozen({ ...game, offline: true, review: { type: "review_progress", deal: 1 } });
    const back = connected(lost);
    assert.equal(back.offline, false);
    assert.equal(back.review, null);
  });

  test("a move sent closes the chooser and waits; its note goes with it", () => {
    const choosing = frozen({ ...game, chooser: { word: "take", actions: [] } });
    const after = sent(choosing);
    assert.equal(after.pending, true);
    assert.equal(after.chooser, null);
  });
});

describe("what follows from a state", () => {
  test("the summary shows the deal that ended, as it ended, until the player continues", () => {
    const last = {
      deal: 1,
      winner: 1,
      termination: "out",
      value: 1,
      lines: [],
      tables: [[["5d", "6d", "7d"]], [["Ks", "Kh", "Kd"]]],
      hands: [["Ah"], []],
    };
    const endedFrom = stateMessage(
      { seq: 40 },
      { history: [{ player: 1, verb: "take", card: "Kd", source: "d", melds: [["Ks", "Kh", "Kd"]] }], stock_count: 3 },
    );
    const next = stateMessage({ seq: 41, last, match: { deal: 2, balance: [-1, 1], stake: 2, over: false, leader: 1, scoring: "stake" } });
    const game = frozen({ ...newGame("g1", "tok", 0), state: next, endedFrom });
    const shown = shownState(game);
    assert.equal(shown.ended, true);
    assert.equal(shown.obs.phase, "over");
    assert.deepEqual(shown.obs.tables, last.tables);
    assert.deepEqual(shown.obs.hand, ["Ah"]);
    assert.deepEqual(shown.obs.hand_counts, [1, 0]);
    assert.deepEqual(shown.obs.history, endedFrom.obs.history);
    assert.equal(shown.obs.stock_count, 3);
    assert.equal(shown.match.deal, 1);
    assert.equal(shown.match.stake, 1); // the ended deal's stake, not the next one's
    assert.deepEqual(shown.obs.legal_actions, []);
    const continued = frozen({ ...game, seenDeal: 1 });
    assert.deepEqual(shownState(continued).obs.history, next.obs.history);
  });

  test("the last move of each other player since this player's own", () => {
    const pass = { player: 1, verb: "pass", card: "Qh", source: "t" };
    const history = [
      { player: 1, verb: "discard", card: "7d" },
      { player: 0, verb: "take", card: "7d", source: "d", melds: [["5d", "6d", "7d"]] },
      { player: 0, verb: "discard", card: "Kc" },
      { player: 1, verb: "decline", card: "Kc", source: "d" },
      pass,
    ];
    const s = dealt(stateMessage({}, { history }));
    assert.deepEqual(lastMoves(frozen(s)), { 1: pass });
    const watching = dealt(stateMessage({ seat: null }, { history: history.slice(2, 4) }));
    assert.deepEqual(lastMoves(frozen(watching)), { 1: history[3] });
  });

  test("the events new since the last state", () => {
    const discard = { player: 1, verb: "discard", card: "7d" };
    const take = { player: 0, verb: "take", card: "7d", source: "d", melds: [["5d", "6d", "7d"]] };
    const before = stateMessage({}, { history: [discard] });
    const after = stateMessage({}, { history: [discard, take, "junk"] });
    assert.deepEqual(newEvents(frozen(before), frozen(after)), [take]);
  });

  test("the takes that lay exactly the cards picked, and one way to go out however many there are", () => {
    const takes = [
      { played: ["5d", "6d"], actions: [{ text: "take 5d6d", melds: [["5d", "6d", "7d"]] }] },
      { played: ["Ah", "2h", "Kc"], actions: [{ text: "take Ah2hKc", melds: [] }, { text: "take Ah2hKc/x", melds: [] }] },
    ];
    const game = frozen({ ...newGame("g1", "tok", 0), state: stateMessage({ takes }) });
    assert.deepEqual(
      takeChoices(game, takes, "take").map((c) => [c.text, c.out]),
      [["take Ah2hKc", true], ["take 5d6d", false]], // the first way out first; every way out wins
    );
    const outOnly = frozen(toggleCard(toggleCard(toggleCard(game, "Ah"), "2h"), "Kc"));
    assert.deepEqual(takeChoices(outOnly, takes, "take").map((c) => c.text), ["take Ah2hKc"]); // no choice
    const picked = frozen(toggleCard(toggleCard(game, "6d"), "5d"));
    assert.deepEqual(takeChoices(picked, takes, "take").map((c) => c.text), ["take 5d6d"]);
    assert.deepEqual(takeChoices(picked, takes, "lay")[0].out, false); // a lay never goes out
    assert.deepEqual(takeChoices(frozen(toggleCard(game, "Qs")), takes, "take"), []);
  });

  test("a discard needs one card picked, one that may go", () => {
    const game = frozen({ ...newGame("g1", "tok", 0), state: stateMessage() });
    assert.deepEqual(discardAction(game, "discard"), { pick: true });
    assert.deepEqual(discardAction(frozen(toggleCard(game, "2h")), "discard"), { action: "discard 2h" });
    assert.deepEqual(discardAction(frozen(toggleCard(game, "7d")), "discard"), { cannot: "7d" });
    const last = frozen({ ...game, state: stateMessage({}, { legal_actions: ["exchange Kc"] }) });
    assert.deepEqual(discardAction(last, "exchange"), { action: "exchange Kc" }); // nothing to pick
  });

  test("the page moves by itself only where one move is left to a seat", () => {
    const only = frozen({ ...newGame("g1", "tok", 0), state: stateMessage({}, { legal_actions: ["decline"] }) });
    assert.equal(onlyMove(only), "decline");
    assert.equal(onlyMove(frozen({ ...only, pending: true })), null);
    assert.equal(onlyMove(frozen({ ...only, chooser: { word: "take", actions: [] } })), null);
    assert.equal(onlyMove(frozen({ ...only, state: stateMessage({ seat: null }, { legal_actions: ["decline"] }) })), null);
    assert.equal(onlyMove(frozen({ ...only, state: stateMessage() })), null); // three discards
  });

  test("against the computer: every other seat is a bot", () => {
    const s = stateMessage();
    assert.equal(againstComputer(frozen(s)), false);
    assert.equal(againstComputer(frozen({ ...s, game: { ...s.game, kinds: ["human", "bot"] } })), true);
  });
});
