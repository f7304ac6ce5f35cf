// The page's words in the reader's language: the server's "conquian-web" catalogue, as JSON
// from /api/words (see conquian/web/languages.py).  Every sentence of the page goes through
//   t("Deal {number} is over", { number: 3 })                     a message, {placeholders} filled
//   tn("{count} card in hand", "{count} cards in hand", n, {...})  a plural ({count} is n)
// A message the catalogue lacks is shown in English, never an error.  The plural form is the
// one the catalogue's Plural-Forms expression picks (as Python's gettext does); the server
// sends that expression as a tree, evaluated here without eval (the content security policy
// forbids it).  No DOM here: the page (page.js) marks the document's language and keeps the
// reader's choice.

/** @import { PluralTree, WordsAnswer } from "./protocol.js" */

/** @type {WordsAnswer} */
const ENGLISH = { lang: "en", languages: [], plural: { nplurals: 2, rule: ["!=", "n", 1] }, messages: {} };
let catalogue = ENGLISH;

/** Fetch the words of `lang` (none: the language the server negotiates for this browser:
 * the cookie, else Accept-Language) and speak them.  On any failure the page speaks English.
 * @param {string} [lang]
 * @returns {Promise<WordsAnswer>}
 */
export async function loadWords(lang) {
  const url = lang ? `/api/words?lang=${encodeURIComponent(lang)}` : "/api/words";
  try {
    const response = await fetch(url);
    return useWords(response.ok ? await response.json() : null);
  } catch {
    return useWords(null);
  }
}

/** Speak the words of a catalogue as /api/words gives it (anything else: English).
 * @param {unknown} data
 * @returns {WordsAnswer} the catalogue spoken now
 *
 * @example
 * useWords({ lang: "es", languages: [], plural: { nplurals: 2, rule: ["!=", "n", 1] }, messages: { Take: "Tomar" } });
 * t("Take"); // "Tomar"
 */
export function useWords(data) {
  const found = /** @type {Partial<WordsAnswer> | null} */ (data);
  catalogue = found && found.messages && found.plural ? /** @type {WordsAnswer} */ (found) : ENGLISH;
  return catalogue;
}

export const language = () => catalogue.lang;
export const languages = () => catalogue.languages;

/** @typedef {Record<string, string | number>} Parts  the values of a message's {placeholders} */

/**
 * @param {string} text
 * @param {Parts} [parts]
 */
const fill = (text, parts) =>
  parts ? text.replace(/\{([a-z_]+)\}/g, (whole, name) => (name in parts ? String(parts[name]) : whole)) : text;

/** A message in the reader's language, its {placeholders} filled from `parts` (as text).
 * @param {string} message
 * @param {Parts} [parts]
 */
export function t(message, parts) {
  const found = catalogue.messages[message];
  return fill(typeof found === "string" ? found : message, parts);
}

/** A message with a singular and a plural, for the number `n` ({count} is n).
 * @param {string} one
 * @param {string} many
 * @param {number} n
 * @param {Parts} [parts]
 */
export function tn(one, many, n, parts) {
  const found = catalogue.messages[one];
  let text = n === 1 ? one : many;
  if (Array.isArray(found) && found.length) text = found[Math.min(pluralIndex(n), found.length - 1)];
  return fill(text, { count: n, ...parts });
}

/** A message as HTML: its own words escaped, its `parts` put in as they are (HTML the caller
 * made: escape the text ones).
 * @param {string} message
 * @param {Parts} [parts]
 */
export function th(message, parts) {
  return fill(escapeHTML(t(message)), parts);
}

const ENTITIES = /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" });

/** Text made safe to put in HTML, between tags or in a quoted attribute.
 * @param {unknown} text
 * @example escapeHTML('<b title="x">') // "&lt;b title=&quot;x&quot;&gt;"
 */
export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Which plural form the language uses for `n` (an index into a message's forms).
 * @param {number} n
 */
export function pluralIndex(n) {
  return Number(evaluate(catalogue.plural.rule, n)) || 0;
}

/** The value of a plural expression's tree for `n`, as C computes it (a comparison is 1 or
 * 0, a division drops the fraction).
 * @param {PluralTree} tree
 * @param {number} n
 * @returns {number}
 * @example evaluate(["?", ["==", "n", 1], 0, 1], 3) // 1
 */
export function evaluate(tree, n) {
  if (typeof tree === "number") return tree;
  if (tree === "n") return n;
  const [op, a, b, c] = tree;
  /** @param {PluralTree} e */
  const x = (e) => evaluate(e, n);
  switch (op) {
    case "?": return x(a) ? x(b) : x(c);
    case "!": return x(a) ? 0 : 1;
    case "||": return x(a) || x(b) ? 1 : 0;
    case "&&": return x(a) && x(b) ? 1 : 0;
    case "==": return x(a) === x(b) ? 1 : 0;
    case "!=": return x(a) !== x(b) ? 1 : 0;
    case "<": return x(a) < x(b) ? 1 : 0;
    case "<=": return x(a) <= x(b) ? 1 : 0;
    case ">": return x(a) > x(b) ? 1 : 0;
    case ">=": return x(a) >= x(b) ? 1 : 0;
    case "+": return x(a) + x(b);
    case "-": return x(a) - x(b);
    case "*": return x(a) * x(b);
    case "/": return Math.trunc(x(a) / x(b));
    case "%": return x(a) % x(b);
    default: return 0;
  }
}
