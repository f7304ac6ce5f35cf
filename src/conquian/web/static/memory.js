// What this browser remembers (localStorage, under "conquian."): the player's name and
// options, the games played here, the last deal whose summary was closed, and what it knows
// of each game's fair shuffles.

/** @import { Card, ShuffleCommitment } from "./protocol.js" */

/**
 * A game played in this browser, listed on the home page.
 * @typedef {object} MyGame
 * @property {string} id
 * @property {string} token
 * @property {string} label
 * @property {number} at  when it was made or joined (ms since the epoch)
 */

/**
 * The result of the check of a finished deal's shuffle (fair.js), `ok` null where the page
 * cannot check it (no Web Crypto).
 * @typedef {{ok: boolean | null, checks: {ok: boolean, what: string}[]}} ShuffleCheck
 */

/**
 * What this browser knows of a game's fair shuffles: the seeds it made, the commitment it
 * was shown before each deal, the hand it was dealt in each deal, the deals it gave a seed
 * to, and (for this visit only) each deal's check: null while it runs.
 * @typedef {object} ShuffleMemory
 * @property {string[]} seeds
 * @property {Record<number, string>} shown
 * @property {Record<number, Card[]>} hands
 * @property {Record<number, boolean>} sent
 * @property {Record<number, ShuffleCheck | null>} checks
 */

/** @param {string} key */
const option = (key) => localStorage.getItem(`conquian.${key}`);

/** Who hears of each option the player chooses (app.js: the server, which keeps them with
 * his player). @type {(name: string, value: string | boolean) => void} */
let optionChosen = () => {};

/** @param {(name: string, value: string | boolean) => void} listener */
export const onOptionChosen = (listener) => (optionChosen = listener);

/** An option the player chose (the language, the deck, sound, automatic moves).
 * @param {string} name @param {string | boolean} value */
export const chosen = (name, value) => optionChosen(name, value);

/**
 * The options kept with the player on the server, here now (the language is the caller's):
 * whether any changed.
 * @param {{deck?: string, sound?: boolean, autoplay?: boolean}} settings
 * @returns {boolean}
 */
export function takeSettings(settings) {
  const kept = {
    deck: settings.deck,
    sound: typeof settings.sound === "boolean" ? (settings.sound ? "on" : "off") : undefined,
    autoplay: typeof settings.autoplay === "boolean" ? (settings.autoplay ? "on" : "off") : undefined,
  };
  let changed = false;
  for (const [name, value] of Object.entries(kept)) {
    if (value === undefined || option(name) === value) continue;
    localStorage.setItem(`conquian.${name}`, value);
    changed = true;
  }
  return changed;
}

/** The options of this browser, as the server keeps them. */
export const settingsHere = () => ({
  ...(option("deck") ? { deck: option("deck") } : {}),
  sound: soundOn(),
  ...(option("autoplay") ? { autoplay: option("autoplay") === "on" } : {}),
});

/** The name the player gave last. */
export const savedName = () => option("name") || "";

/** @param {string} name */
export const saveName = (name) => localStorage.setItem("conquian.name", name);

/** Whether the page plays its sounds (on until turned off: the switch is in the header). */
export const soundOn = () => option("sound") !== "off";

/** @param {boolean} on */
export const saveSound = (on) => {
  localStorage.setItem("conquian.sound", on ? "on" : "off");
  chosen("sound", on);
};

/** Whether the page declines the cards the player cannot use and makes the moves that leave
 * no choice: as the player chose, else `byDefault` (on against the computer, off between
 * people).
 * @param {boolean} byDefault */
export const autoPlayOption = (byDefault) => (option("autoplay") ? option("autoplay") === "on" : byDefault);

/** @param {boolean} on */
export const saveAutoPlay = (on) => {
  localStorage.setItem("conquian.autoplay", on ? "on" : "off");
  chosen("autoplay", on);
};

/** The last deal of a game whose summary the player closed.
 * @param {string} id */
export const seenDeal = (id) => Number(option(`seen.${id}`) || 0);

/** @param {string} id @param {number} deal */
export const saveSeenDeal = (id, deal) => localStorage.setItem(`conquian.seen.${id}`, String(deal));

/** The games played in this browser, the newest first.
 * @returns {MyGame[]} */
export function myGames() {
  try {
    return JSON.parse(option("games") || "[]");
  } catch {
    return [];
  }
}

/** Keep a game made or joined here (the last 20).
 * @param {string} id
 * @param {string} token
 * @param {string} label */
export function remember(id, token, label) {
  const mine = myGames().filter((g) => g.id !== id);
  mine.unshift({ id, token, label, at: Date.now() });
  localStorage.setItem("conquian.games", JSON.stringify(mine.slice(0, 20)));
}

/** What this browser knows of a game's fair shuffles, kept across reloads.
 * @param {string} id
 * @returns {ShuffleMemory} */
export function shuffleMemory(id) {
  try {
    const m = JSON.parse(option(`fair.${id}`) || "{}");
    return { seeds: m.seeds || [], shown: m.shown || {}, hands: m.hands || {}, sent: m.sent || {}, checks: {} };
  } catch {
    return { seeds: [], shown: {}, hands: {}, sent: {}, checks: {} };
  }
}

/** @param {string} id @param {ShuffleMemory} m */
export function saveShuffleMemory(id, m) {
  const { seeds, shown, hands, sent } = m;
  localStorage.setItem(`conquian.fair.${id}`, JSON.stringify({ seeds: seeds.slice(-40), shown, hands, sent }));
}

/** The commitment a create or join answer published, before this browser gives its seed.
 * @param {string} id
 * @param {ShuffleCommitment | null | undefined} shuffle */
export function rememberShuffle(id, shuffle) {
  if (!shuffle) return;
  const m = shuffleMemory(id);
  if (!(shuffle.deal in m.shown)) m.shown[shuffle.deal] = shuffle.commitment;
  saveShuffleMemory(id, m);
}
