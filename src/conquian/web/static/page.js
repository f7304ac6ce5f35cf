// The frame every screen is drawn in (index.html): the header's menus of decks and languages,
// the notice shown offline, the toast, and the server's HTTP API.  The screens draw into
// `app`.

import { chosen, saveSound, soundOn } from "./memory.js";
import { escapeHTML as esc, language, languages, t } from "./words.js";
import { api, forgetWho } from "./server.js";

/** @import { Deck } from "./cards.js" */

/** The page's requests (server.js), for the screens. */
export { api, forgetWho };

/**
 * What is shown in `app`: one screen at a time (app.js routes).
 * @typedef {object} Screen
 * @property {() => void} close  leave it: its connection closed, its listeners gone
 * @property {() => void} [redraw]  draw it again (in another deck)
 * @property {() => boolean} [relanguage]  speak the language chosen now without leaving it
 *   (false: it cannot, draw it anew)
 */

/**
 * The element of the page with this id (index.html has it: an error otherwise).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/**
 * The element of the page with this id, of the kind the caller expects.
 * @template {HTMLElement} E
 * @param {string} id
 * @param {new () => E} kind  HTMLInputElement, HTMLSelectElement...
 * @returns {E}
 */
export function element(id, kind) {
  const el = byId(id);
  if (!(el instanceof kind)) throw new Error(`#${id} is not a ${kind.name}`);
  return el;
}

/** Where the screens are drawn. */
export const app = byId("app");
const toastBox = byId("toast");
const deckSelect = element("deck", HTMLSelectElement);
const langSelect = element("lang", HTMLSelectElement);
const offlineBox = byId("offline");
/** A touch screen: no keyboard hints, a tap for a click. */
export const touchScreen = matchMedia("(hover: none), (pointer: coarse)");

/** Without a network the page still opens (the service worker keeps its files) and says so. */
export function watchNetwork() {
  const sayOnline = () => (offlineBox.hidden = navigator.onLine);
  window.addEventListener("online", sayOnline);
  window.addEventListener("offline", sayOnline);
  sayOnline();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
}

// ------------------------------------------------------------------ the deck

const DECK_KEY = "conquian.deck";
/** @param {string | null} value @returns {Deck} */
const asDeck = (value) => (value === "spanish" ? "spanish" : "french");

/** The deck chosen in the header, kept in this browser (null: none chosen). */
const deckChoice = () => {
  const chosen = localStorage.getItem(DECK_KEY);
  return chosen ? asDeck(chosen) : null;
};

/** The deck the cards are drawn in: the one chosen in the header, else the game's own (the
 * rules' deck, in which the server also writes the cards of its errors and hints).  The
 * header's menu shows it. */
export const deck = () => asDeck(deckSelect.value);

/** Draw the cards in the deck chosen, else in ``first`` (a screen of no game: the deck of
 * the game offered first).
 * @param {string} [first] */
export function defaultDeck(first = "french") {
  deckSelect.value = deckChoice() || first;
}

/** Draw the cards of a game in its rules' deck, unless the reader chose one.
 * @param {string} gameDeck */
export function followDeck(gameDeck) {
  if (!deckChoice()) deckSelect.value = asDeck(gameDeck);
}

/** Keep the deck the reader chooses in the header, and call `changed` then.
 * @param {() => void} changed */
/**
 * The sound switch of the header (shown while a game is played): on by default, pressed to
 * turn the table's sounds off or on again; `changed` draws the page again (its options).
 * @param {() => void} changed
 */
export function onSoundSwitch(changed) {
  drawSoundSwitch();
  element("sound", HTMLButtonElement).addEventListener("click", () => {
    saveSound(!soundOn());
    drawSoundSwitch();
    changed();
  });
}

/** The sound switch as the option is now (the table's options may have changed it). */
export const drawSoundSwitch = () => element("sound", HTMLButtonElement).setAttribute("aria-pressed", String(soundOn()));

/** @param {() => void} changed */
export function onDeckChoice(changed) {
  defaultDeck();
  deckSelect.addEventListener("change", () => {
    localStorage.setItem(DECK_KEY, deckSelect.value);
    chosen("deck", deckSelect.value);
    changed();
  });
}

// ------------------------------------------------------------------ the language

const COOKIE = "conquian_lang";

/** Remember the reader's choice for a year (the server reads it too).
 * @param {string} code */
export function chooseLanguage(code) {
  keepLanguage(code);
  chosen("language", code);
}

/** Keep the language in the cookie (the server's choice for the player, from his settings).
 * @param {string} code */
export function keepLanguage(code) {
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; SameSite=Lax`;
}

/** The language menu, the page's own words (index.html's) and its language, as the words
 * spoken now (words.js) have them. */
export function drawLanguage() {
  document.documentElement.lang = language();
  translatePage();
  langSelect.innerHTML = languages()
    .map(({ code, name }) => `<option value="${esc(code)}" lang="${esc(code)}"${code === language() ? " selected" : ""}>${esc(name)}</option>`)
    .join("");
  langSelect.value = language();
}

/** Call `chosen` with the language the reader chooses from the menu.
 * @param {(code: string) => void} chosen */
export function onLanguageChoice(chosen) {
  langSelect.addEventListener("change", () => chosen(langSelect.value));
}

/** The words of index.html: each element marked data-t="English" gets its translation, and
 * each attribute ATTR of an element marked data-t-ATTR="English" too (the server wrote the
 * page in the reader's language already; this is for a change of language). */
function translatePage() {
  for (const el of document.querySelectorAll("[data-t]")) {
    if (el instanceof HTMLElement && el.dataset.t) el.textContent = t(el.dataset.t);
  }
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.getAttributeNames()) {
      if (attr.startsWith("data-t-")) el.setAttribute(attr.slice(7), t(el.getAttribute(attr) || ""));
    }
  }
}

// ------------------------------------------------------------------ the toast and the API

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * Say something for a few seconds (an error for longer): `message` as text, or `html` (made
 * by the caller, its words escaped) when given.
 * @param {string} message
 * @param {"info" | "error"} [kind]
 * @param {string | null} [html]
 */
export function toast(message, kind = "info", html = null) {
  if (html === null) toastBox.textContent = message;
  else toastBox.innerHTML = html;
  toastBox.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toastBox.className = ""), kind === "error" ? 6000 : 3500);
}

/** Take the toast away at once. */
export function hideToast() {
  toastBox.className = "";
}

/** The message of an error thrown (an Error's, else the thing itself as text).
 * @param {unknown} err */
export const errorText = (err) => (err instanceof Error ? err.message : String(err));
