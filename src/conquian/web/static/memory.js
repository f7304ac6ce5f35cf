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

/** The name the player gave last. */
export const savedName = () => option("name") || "";

/** @param {string} name */
export const saveName = (name) => localStorage.setItem("conquian.name", name);

/** Whether the page plays its sounds (on until turned off: the switch is in the header). */
export const soundOn = () => option("sound") !== "off";

/** @param {boolean} on */
export const saveSound = (on) => localStorage.setItem("conquian.sound", on ? "on" : "off");

/** Whether the page declines the cards the player cannot use and makes the moves that leave
 * no choice: as the player chose, else `byDefault` (on against the computer, off between
 * people).
 * @param {boolean} byDefault */
export const autoPlayOption = (byDefault) => (option("autoplay") ? option("autoplay") === "on" : byDefault);

/** @param {boolean} on */
export const saveAutoPlay = (on) => localStorage.setItem("conquian.autoplay", on ? "on" : "off");

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
