// The keys of the move buttons follow the page's language, or stay English where the
// language's letters would not work.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { moveKeys } from "../../src/conquian/web/static/game/dock.js";
import { useWords } from "../../src/conquian/web/static/words.js";

const PLURAL = { nplurals: 2, rule: ["!=", "n", 1] };
/** @param {Record<string, string>} messages */
const speak = (messages) => useWords({ lang: "es", languages: [], plural: PLURAL, messages });
const SPANISH = {
  "Key of Take: T": "Tecla de Tomar: T",
  "Key of Decline: P": "Tecla de Pasar: P",
  "Key of Pass: P": "Tecla de Pasar: P",
  "Key of Lay & pass: L": "Tecla de Bajar y pasar: B",
  "Key of Lay on a meld: O": "Tecla de Ponerla en otro juego: O",
  "Key of Discard: D": "Tecla de Pagar: P",
  "Key of Pass it on: X": "Tecla de Cambiar: c",
  "Key of Hint: H": "Tecla de Pista: I",
};

afterEach(() => useWords(null)); // English again

test("in English the keys are T P L O F N D X H", () => {
  assert.deepEqual(Object.values(moveKeys()).join(""), "TPPLOFNDXH");
});

test("in Spanish the keys are the language's letters, in capitals", () => {
  speak(SPANISH);
  const keys = moveKeys();
  assert.equal(keys.take, "T");
  assert.equal(keys.discard, "P"); // pagar: never shown beside pasar
  assert.equal(keys.exchange, "C");
  assert.equal(keys.hint, "I");
  assert.equal(keys.force, "F"); // not translated: the English letter
  assert.equal(keys.layoff, "O");
});

test("a layoff's key may not be one shown beside it", () => {
  speak({ ...SPANISH, "Key of Lay on a meld: O": "Tecla de Ponerla en otro juego: T" }); // beside tomar
  assert.equal(moveKeys().layoff, "O");
  assert.equal(moveKeys().take, "T");
});

test("letters that two buttons shown together would share, or that are no letter, give the English keys", () => {
  speak({ ...SPANISH, "Key of Hint: H": "Tecla de Pista: P" }); // pista beside pasar
  assert.equal(moveKeys().hint, "H");
  assert.equal(moveKeys().take, "T");
  speak({ ...SPANISH, "Key of Take: T": "Tecla de Tomar: To" });
  assert.equal(moveKeys().lay, "L");
});
