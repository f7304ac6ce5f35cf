// seats.js: the kinds of game, the Mexican game first for Spanish readers.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { gamePitch, games } from "../../src/conquian/web/static/seats.js";
import { useWords } from "../../src/conquian/web/static/words.js";
import { SERVER } from "./helpers.js";

afterEach(() => useWords(null)); // English again

const catalogue = (/** @type {string} */ lang) => ({ lang, languages: [], plural: SERVER.plural[lang] ?? SERVER.plural.en, messages: {} });

test("in English the classic two-player game comes first", () => {
  assert.deepEqual(games().map(([value]) => value), ["standard", "tercerilla", "mexican,num_players=2", "mexican,num_players=4"]);
  assert.match(gamePitch("standard"), /11 cards/);
});

test("in Spanish the Mexican game comes first, the tercerilla at its head, and the page says so", () => {
  useWords(catalogue("es"));
  assert.deepEqual(games().map(([value]) => value), ["tercerilla", "mexican,num_players=2", "mexican,num_players=4", "standard"]);
  assert.deepEqual(games().map(([, , seats]) => seats), [3, 2, 4, 2]);
  assert.match(gamePitch(games()[0][3]), /nine to go out/);
  assert.doesNotMatch(gamePitch("mexican,num_players=4"), /11 cards/);
});
