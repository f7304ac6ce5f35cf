// words.js: messages, placeholders and plural forms (the plural trees evaluated without
// eval), as Python's gettext picks them.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, test } from "node:test";

import { escapeHTML, evaluate, language, pluralIndex, t, th, tn, useWords } from "../../src/conquian/web/static/words.js";
import { ROOT, SERVER } from "./helpers.js";

afterEach(() => useWords(null)); // English again

/** A catalogue as /api/words gives it, in a language of the recording. */
const catalogue = (lang, messages = {}) => ({ lang, languages: [], plural: SERVER.plural[lang], messages });

test("English without a catalogue: the message itself, its placeholders filled", () => {
  assert.equal(language(), "en");
  assert.equal(t("Deal {number} is over", { number: 3 }), "Deal 3 is over");
  assert.equal(t("{a} and {b}", { a: "x" }), "x and {b}"); // a part not given stays as it is
  assert.equal(t("Take"), "Take");
  assert.equal(tn("{count} card in hand", "{count} cards in hand", 1), "1 card in hand");
  assert.equal(tn("{count} card in hand", "{count} cards in hand", 0), "0 cards in hand");
  assert.equal(tn("{count} of {size} seats free", "{count} of {size} seats free", 2, { size: 3 }), "2 of 3 seats free");
});

test("a catalogue's words, and English for what it lacks", () => {
  useWords(catalogue("es", { Take: "Tomar", "Deal {number} is over": "Terminó la mano {number}" }));
  assert.equal(language(), "es");
  assert.equal(t("Take"), "Tomar");
  assert.equal(t("Deal {number} is over", { number: 2 }), "Terminó la mano 2");
  assert.equal(t("Pass"), "Pass");
});

test("something that is no catalogue: English", () => {
  for (const bad of [null, {}, { lang: "es", messages: {} }, "x", 3]) {
    assert.equal(useWords(bad).lang, "en");
    assert.equal(t("Take"), "Take");
  }
});

test("a plural message takes the form the language's rule picks", () => {
  const forms = ["{count} карта", "{count} карты", "{count} карт"];
  useWords(catalogue("ru", { "{count} card in hand": forms }));
  const said = (n) => tn("{count} card in hand", "{count} cards in hand", n);
  assert.equal(said(1), "1 карта");
  assert.equal(said(21), "21 карта");
  assert.equal(said(3), "3 карты");
  assert.equal(said(5), "5 карт");
  assert.equal(said(11), "11 карт");
  assert.equal(said(112), "112 карт");
  useWords(catalogue("es", { "{count} card in hand": ["{count} carta", "{count} cartas"] }));
  assert.equal(said(1), "1 carta");
  assert.equal(said(2_000_000), "2000000 cartas");
});

test("th: the message's own words escaped, its parts put in as they are", () => {
  useWords(catalogue("en", { "took {card}": "took <{card}> & co" }));
  assert.equal(th("took {card}", { card: "<b>7d</b>" }), "took &lt;<b>7d</b>&gt; &amp; co");
  assert.equal(escapeHTML(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  assert.equal(escapeHTML(3), "3");
});

test("each language's plural forms, 0 to 300, are those of Python's gettext", () => {
  for (const [code, plural] of Object.entries(SERVER.plural)) {
    useWords(catalogue(code));
    const picked = plural.forms.map((_, n) => pluralIndex(n));
    assert.deepEqual(picked, plural.forms, code);
  }
  assert.deepEqual(Object.keys(SERVER.plural).sort(), ["en", "es", "hr", "kn", "ru", "tr"]);
});

test("the recorded plural rules are those of the catalogues now (else: record them again)", () => {
  for (const [code, plural] of Object.entries(SERVER.plural)) {
    if (code === "en") continue;
    const po = readFileSync(new URL(`src/conquian/locale/${code}/LC_MESSAGES/conquian-web.po`, ROOT), "utf8");
    // the header: the first msgstr, its quoted lines joined, one field per "\n"
    const lines = po.slice(po.indexOf('msgstr ""')).split("\n\n")[0].match(/^"(.*)"$/gm);
    const fields = lines.map((l) => l.slice(1, -1)).join("").split("\\n");
    const rule = fields.find((f) => f.startsWith("Plural-Forms:"));
    const expression = rule.replace(/^Plural-Forms: nplurals=\d+; plural=/, "").replace(/;\s*$/, "").trim();
    assert.equal(expression, plural.expression, `${code}: run python tests/js/fixtures/record.py`);
  }
});

test("every operator of a plural tree, as C computes it", () => {
  const at = (tree, n) => evaluate(tree, n);
  assert.equal(at(["?", ["==", "n", 1], 7, 8], 1), 7);
  assert.equal(at(["?", ["==", "n", 1], 7, 8], 2), 8);
  assert.equal(at(["!", "n"], 0), 1);
  assert.equal(at(["!", "n"], 4), 0);
  assert.equal(at(["||", ["==", "n", 0], ["==", "n", 5]], 5), 1);
  assert.equal(at(["&&", ["<", "n", 5], [">", "n", 1]], 3), 1);
  assert.equal(at(["&&", ["<=", "n", 5], [">=", "n", 6]], 5), 0);
  assert.equal(at(["!=", "n", 1], 1), 0);
  assert.equal(at(["+", "n", 2], 3), 5);
  assert.equal(at(["-", "n", 2], 3), 1);
  assert.equal(at(["*", "n", 2], 3), 6);
  assert.equal(at(["/", "n", 2], 7), 3); // a whole number, as in C
  assert.equal(at(["%", "n", 10], 21), 1);
  assert.equal(at(["unknown", "n", 1], 1), 0);
});
