// The review of a deal: each judged decision in words, and under a marked one the danger of
// the card it gave away and the board of its position (review.js), as HTML strings.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { reviewBoard, reviewMove } from "../../src/conquian/web/static/game/review.js";
import { useWords } from "../../src/conquian/web/static/words.js";
import { frozen } from "./helpers.js";

afterEach(() => useWords(null)); // English again

const NAMES = ["Ana (you)", "Ben"];

/** A blunder of seat 0: it discarded 5s, which fits Ben's 2s 3s 4s; 5c was best. */
const BLUNDER = frozen({
  deal: 1,
  index: 6,
  move: 7,
  phase: "discard",
  legal_count: 4,
  played: "discard 5s",
  best: "discard 5c",
  chance_played: 0.2,
  chance_best: 0.6,
  drop: 0.4,
  clear: true,
  mark: "blunder",
  centre: null,
  position: "standard discard 0 0 As5s6h5c * 3h3d3c/KsKhKdKc AhAdAc/2s3s4s - Qs2h4h6dQd2c4c * 1",
  board: {
    player: 0,
    hand: ["As", "5s", "6h", "5c"],
    tables: [[["3h", "3d", "3c"], ["Ks", "Kh", "Kd", "Kc"]], [["2s", "3s", "4s"], ["Ah", "Ad", "Ac"]]],
    centre: null,
    centre_source: null,
    dead: ["Qs", "2h", "4h"],
    hand_counts: [4, 4],
    stock_count: 12,
  },
  feeds: { player: 1, meld: ["2s", "3s", "4s"], hand_count: 4 },
  centre_words: null,
  words: ["  7. discard ", { card: "5s" }, ": 20% to win; better discard ", { card: "5c" }, ": 60% (blunder)"],
  mark_word: "blunder",
  feeds_words: [{ card: "5s" }, " fits Ben's ", { card: "2s" }, " ", { card: "3s" }, " ", { card: "4s" }, " and he holds 4 cards: he may go out with it."],
});

/** Every card an HTML string draws (faces and chips), in order. */
const drawn = (html) => [...html.matchAll(/data-card="([^"]*)"/g)].map((m) => m[1]).filter(Boolean);

/** The text a person reads, its tags left out. */
const text = (html) => html.replace(/<svg[\s\S]*?<\/svg>/g, "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();

test("a marked decision: its line and its danger open the board of its position", () => {
  const html = reviewMove(BLUNDER, NAMES, "french");
  assert.match(html, /^<li class="mark-blunder" data-move="7"><details><summary>/);
  const summary = html.slice(html.indexOf("<summary>"), html.indexOf("</summary>"));
  // the line and the danger, their cards as chips
  assert.match(summary, /discard <span class="chip fr suit-0" data-card="5s"/);
  assert.match(summary, /<span class="review-danger"><span class="chip[^"]*" data-card="5s"[^>]*>.*fits Ben&#39;s /);
  assert.deepEqual(drawn(summary), ["5s", "5c", "5s", "2s", "3s", "4s"]);
  assert.match(html.slice(html.indexOf("</summary>")), /^<\/summary><div class="review-board" data-move="7">/);
});

test("the board: every table named, the counts, the centre, the dead cards and the hand", () => {
  const html = reviewBoard(BLUNDER, NAMES, "french");
  // the other player first (his name, his cards in hand, his melds), then the middle, then the player's own
  const said = text(html);
  assert.equal(said, "Ben 4 cards in hand No card in the centre 12 in stock Dead cards (3) Q ♠ 2 ♥ 4 ♥ Ana (you)");
  assert.match(html, /aria-label="Ben&#39;s table"/);
  assert.match(html, /aria-label="Ana \(you\)&#39;s table"/);
  assert.match(html, /aria-label="Your hand"/);
  // the cards: Ben's melds, the dead cards, the player's melds and hand, each as the table draws it
  assert.deepEqual(drawn(html), ["2s", "3s", "4s", "Ah", "Ad", "Ac", "Qs", "2h", "4h", "3h", "3d", "3c", "Ks", "Kh", "Kd", "Kc", "As", "5s", "6h", "5c"]);
  assert.equal((html.match(/<span class="card /g) || []).length, 17); // faces: the dead cards are chips
  assert.match(html, /<span class="card " data-card="2s" role="img" aria-label="2 of spades"><svg class="face"/);
  // the meld the card given away fits, the card given away and the best one are marked
  assert.match(html, /<div class="meld fed"><span class="card " data-card="2s"/);
  assert.equal((html.match(/class="meld fed"/g) || []).length, 1);
  assert.match(html, /class="card played" data-card="5s"/);
  assert.match(html, /class="card best" data-card="5c"/);
  assert.match(html, /class="card " data-card="As"/);
});

test("the board shows only what the data holds: a hidden card is never drawn", () => {
  const html = reviewBoard(BLUNDER, NAMES, "french");
  const b = BLUNDER.board;
  const given = new Set([...b.hand, ...b.tables.flat(2), ...b.dead]);
  assert.deepEqual(new Set(drawn(html)), given);
  assert.doesNotMatch(html, /class="card back"|hidden card/); // no backs: the counts say it
});

test("a centre card, where it came from, and a table with no melds; in the Spanish deck and words", () => {
  useWords({
    lang: "es",
    languages: [],
    plural: { nplurals: 2, rule: ["!=", "n", 1] },
    messages: {
      "{name}'s table": "Juegos de {name}",
      "no melds yet": "todavía sin juegos",
      "{count} card in hand": ["{count} carta en la mano", "{count} cartas en la mano"],
      "{count} in stock": "{count} en la baceta",
      "Your hand": "Tu mano",
    },
  });
  const pass = frozen({
    ...BLUNDER,
    played: "pass",
    best: "take 7h7d7c",
    mark: "mistake",
    centre: "7c",
    board: { ...BLUNDER.board, tables: [[], [["Ah", "Ad", "Ac"]]], centre: "7c", centre_source: "stock", dead: [], hand_counts: [4, 1] },
    feeds: null,
    feeds_words: null,
    centre_words: "sacada de la baceta por ti",
  });
  const html = reviewMove(pass, ["Ana (tú)", "Ben"], "spanish");
  assert.match(html, /^<li class="mark-mistake"/);
  assert.doesNotMatch(html, /review-danger|class="meld fed"|card best/);
  const said = text(html.slice(html.indexOf('<div class="review-board"')));
  assert.equal(said, "Ben 1 carta en la mano sacada de la baceta por ti 12 en la baceta Ana (tú) todavía sin juegos");
  // the card the pass let go ringed as a card given away
  assert.match(html, /<div class="rb-centre"><span class="card played" data-card="7c" role="img" aria-label="7 de bastos">/);
  assert.match(html, /aria-label="Juegos de Ben"/);
  assert.match(html, /aria-label="Tu mano"/);
  assert.doesNotMatch(html, /Dead cards/); // none: no line for them
});

test("a decision without a mark opens its board too, without a danger; one without a position has its words only", () => {
  const fine = frozen({ ...BLUNDER, mark: null, mark_word: null });
  const shown = reviewMove(fine, NAMES, "french");
  assert.match(shown, /^<li data-move="7"><details><summary> {2}7\. discard /);
  assert.match(shown, /review-board/);
  assert.doesNotMatch(shown, /review-danger|mark-/);
  const blind = frozen({ ...BLUNDER, board: null });
  const html = reviewMove(blind, NAMES, "french");
  assert.doesNotMatch(html, /<details|review-board/);
  assert.match(html, /review-danger/);
  assert.equal(reviewBoard(blind, NAMES, "french"), "");
});
