// The page's words in the reader's language: the server's "conquian-web" catalogue, as JSON
// from /api/words (see conquian/web/languages.py).  Every sentence of the page goes through
//   t("Deal {number} is over", { number: 3 })                     a message, {placeholders} filled
//   tn("{count} card in hand", "{count} cards in hand", n, {...})  a plural ({count} is n)
// A message the catalogue lacks is shown in English, never an error.  The plural form is the
// one the catalogue's Plural-Forms expression picks (as Python's gettext does); the server
// sends that expression as a tree, evaluated here without eval (the content security policy
// forbids it).

const COOKIE = "conquian_lang";
const ENGLISH = { lang: "en", languages: [], plural: { nplurals: 2, rule: ["!=", "n", 1] }, messages: {} };
let catalogue = ENGLISH;

/** Fetch the words of `lang` (none: the language the server negotiates for this browser:
 * the cookie, else Accept-Language).  On any failure the page speaks English. */
export async function loadWords(lang) {
  const url = lang ? `/api/words?lang=${encodeURIComponent(lang)}` : "/api/words";
  try {
    const response = await fetch(url);
    const data = response.ok ? await response.json() : null;
    catalogue = data && data.messages && data.plural ? data : ENGLISH;
  } catch {
    catalogue = ENGLISH;
  }
  document.documentElement.lang = catalogue.lang;
  return catalogue;
}

export const language = () => catalogue.lang;
export const languages = () => catalogue.languages;

/** Remember the reader's choice for a year (the server reads it too). */
export function chooseLanguage(code) {
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; SameSite=Lax`;
}

const fill = (text, parts) =>
  parts ? text.replace(/\{([a-z_]+)\}/g, (whole, name) => (name in parts ? String(parts[name]) : whole)) : text;

/** A message in the reader's language, its {placeholders} filled from `parts` (as text). */
export function t(message, parts) {
  const found = catalogue.messages[message];
  return fill(typeof found === "string" ? found : message, parts);
}

/** A message with a singular and a plural, for the number `n` ({count} is n). */
export function tn(one, many, n, parts) {
  const found = catalogue.messages[one];
  let text = n === 1 ? one : many;
  if (Array.isArray(found) && found.length) text = found[Math.min(pluralIndex(n), found.length - 1)];
  return fill(text, { count: n, ...parts });
}

/** A message as HTML: its own words escaped, its `parts` put in as they are (HTML the caller
 * made: escape the text ones). */
export function th(message, parts) {
  return fill(escapeHTML(t(message)), parts);
}

export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** Which plural form the language uses for `n` (an index into a message's forms). */
export function pluralIndex(n) {
  return Number(evaluate(catalogue.plural.rule, n)) || 0;
}

function evaluate(tree, n) {
  if (typeof tree === "number") return tree;
  if (tree === "n") return n;
  const [op, a, b, c] = tree;
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

/** The words of index.html: each element marked data-t="English" gets its translation, and
 * each attribute ATTR of an element marked data-t-ATTR="English" too (the server wrote the
 * page in the reader's language already; this is for a change of language). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("*")) {
    for (const attr of el.getAttributeNames()) {
      if (attr.startsWith("data-t-")) el.setAttribute(attr.slice(7), t(el.getAttribute(attr)));
    }
  }
}
