// cards.js: the cards' labels and names, in both decks.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { cardImage, cardLabel, cardName, parseCard, suitColour, suitIcon } from "../../src/conquian/web/static/cards.js";
import { chip } from "../../src/conquian/web/static/html.js";
import { useWords } from "../../src/conquian/web/static/words.js";

const CARDS = [..."A234567JQK"].flatMap((rank) => [..."shdc"].map((suit) => rank + suit));

afterEach(() => useWords(null)); // English again

test("a token's rank and suit", () => {
  assert.deepEqual(parseCard("As"), { rank: 0, suit: 0 });
  assert.deepEqual(parseCard("7d"), { rank: 6, suit: 2 });
  assert.deepEqual(parseCard("Kh"), { rank: 9, suit: 1 });
  assert.deepEqual(parseCard("Jc"), { rank: 7, suit: 3 });
  const seen = new Set(CARDS.map((c) => JSON.stringify(parseCard(c))));
  assert.equal(seen.size, 40);
});

test("the French deck: labels with the suit's sign, names in words", () => {
  assert.equal(cardLabel("Kh", "french"), "K\u2665");
  assert.equal(cardLabel("As", "french"), "A\u2660");
  assert.equal(cardLabel("7d", "french"), "7\u2666");
  assert.equal(cardLabel("Jc", "french"), "J\u2663");
  assert.equal(cardName("Kh", "french"), "king of hearts");
  assert.equal(cardName("As", "french"), "ace of spades");
  assert.equal(cardName("Qd", "french"), "queen of diamonds");
  assert.equal(cardName("5c", "french"), "5 of clubs");
  assert.equal(new Set(CARDS.map((c) => cardLabel(c, "french"))).size, 40);
  assert.equal(new Set(CARDS.map((c) => cardName(c, "french"))).size, 40);
});

test("the Spanish deck: its own numbers and suits, named in Spanish whatever the page's language", () => {
  assert.equal(cardLabel("Kh", "spanish"), "12 copas");
  assert.equal(cardLabel("As", "spanish"), "1 espadas");
  assert.equal(cardLabel("Jd", "spanish"), "10 oros");
  assert.equal(cardLabel("Qc", "spanish"), "11 bastos");
  assert.equal(cardName("Kh", "spanish"), "rey de copas");
  assert.equal(cardName("As", "spanish"), "as de espadas");
  assert.equal(cardName("Jd", "spanish"), "sota de oros");
  assert.equal(cardName("Qc", "spanish"), "caballo de bastos");
  assert.equal(new Set(CARDS.map((c) => cardLabel(c, "spanish"))).size, 40);
  useWords({ lang: "tr", languages: [], plural: { nplurals: 2, rule: ["!=", "n", 1] }, messages: { "{rank} of {suit}": "{suit} {rank}" } });
  assert.equal(cardName("Kh", "spanish"), "rey de copas");
});

test("the French names follow the page's language", () => {
  useWords({
    lang: "es",
    languages: [],
    plural: { nplurals: 2, rule: ["!=", "n", 1] },
    messages: { "{rank} of {suit}": "{rank} de {suit}", king: "rey", hearts: "corazones" },
  });
  assert.equal(cardName("Kh", "french"), "rey de corazones");
  assert.equal(cardName("As", "french"), "ace de spades"); // a word the catalogue lacks: English
});

test("suit marks, colours and chips in each deck", () => {
  assert.equal(suitIcon(1, "french"), '<span class="sym suit-1">\u2665</span>');
  assert.match(suitIcon(2, "spanish"), /^<svg class="sicon"/);
  assert.equal(suitColour("Kh", "french"), suitColour("Kd", "french"));
  assert.notEqual(suitColour("Kh", "spanish"), suitColour("Kd", "spanish"));
  assert.match(chip("Kh", "french"), /class="chip fr suit-1" data-card="Kh" title="king of hearts">K<span class="sym suit-1">/);
  assert.match(chip("Kh", "spanish"), /class="chip es suit-1" data-card="Kh" title="rey de copas">12<svg/);
});

test("a face drawn in node (no DOM) is its SVG, each card its own, the back apart", () => {
  const faces = new Set(CARDS.map((c) => cardImage(c, "french")));
  assert.equal(faces.size, 40);
  assert.match(cardImage(null, "french"), /^<svg class="face" aria-hidden="true"/);
  assert.notEqual(cardImage("Kh", "spanish"), cardImage("Kh", "french"));
});
