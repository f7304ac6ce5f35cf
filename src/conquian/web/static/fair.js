// The browser's own check of a provably fair shuffle (conquian.fair, algorithm
// hmac-sha256-fisher-yates/2): the revealed server seed, with the dealer and the number of
// players, must hash to the commitment shown before the deal (so the server could not choose
// who deals after seeing the seeds), one of the mixed-in client seeds must be this browser's,
// and the seeds must deal exactly the hand this browser was dealt.  It needs Web Crypto, which browsers
// give only to secure pages (https, or a server on this computer).

/** @import { Card, RevealedShuffle } from "./protocol.js" */
/** @import { ShuffleCheck } from "./memory.js" */

export const ALGORITHM = "hmac-sha256-fisher-yates/2";
/** The first version: its commitment is to the server seed alone, so it does not bind who deals. */
export const FIRST_ALGORITHM = "hmac-sha256-fisher-yates/1";
const SUITS = "shdc";
const RANKS = "A234567JQK";

/** The card of a deck's index (0-39: the ranks of spades, then hearts, diamonds, clubs).
 * @param {number} index
 * @returns {Card} */
export const cardOf = (index) => RANKS[index % 10] + SUITS[Math.floor(index / 10)];

/** 16 random bytes, in hexadecimal: this browser's seed for a shuffle. */
export function newSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return hex(bytes);
}

export const canCheck = () => Boolean(globalThis.crypto && crypto.subtle);

/** @param {Uint8Array} bytes */
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** @param {string} text  hexadecimal */
function bytesOf(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {Uint8Array[]} parts */
function join(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `value` as `size` bytes, the most significant first.
 * @param {number} value
 * @param {number} size */
function uint(value, size) {
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = value % 256;
    value = Math.floor(value / 256);
  }
  return out;
}

/** @param {string} textHex */
export async function sha256(textHex) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytesOf(textHex))));
}

/** The commitment that a revealed shuffle's server seed, dealer and number of players make
 * (version /1: the server seed's alone).
 * @param {{algorithm: string, server_seed: string, dealer: number, players?: number}} fair
 * @returns {Promise<string>} */
export async function commitmentOf({ algorithm, server_seed: seed, dealer, players = 2 }) {
  if (algorithm === FIRST_ALGORITHM) return sha256(seed);
  return sha256(hex(new TextEncoder().encode("conquian-deal/2")) + seed + hex(uint(dealer, 1)) + hex(uint(players, 1)));
}

/** The deck (card indices, top first) that the seeds give.
 * @param {string} serverHex
 * @param {string[]} clientHexes
 * @returns {Promise<number[]>} */
export async function fairDeck(serverHex, clientHexes) {
  const key = await crypto.subtle.importKey("raw", bytesOf(serverHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const parts = [new TextEncoder().encode("conquian-deck/1"), uint(clientHexes.length, 4)];
  for (const seed of clientHexes) {
    const b = bytesOf(seed);
    parts.push(uint(b.length, 4), b);
  }
  const head = join(parts);
  /** @type {number[]} */
  const words = [];
  let block = 0;
  /** @returns {Promise<number>} the next 32-bit word of the HMAC stream */
  const next = async () => {
    if (!words.length) {
      const digest = new DataView(await crypto.subtle.sign("HMAC", key, join([head, uint(block++, 8)])));
      for (let i = 0; i < 32; i += 4) words.push(digest.getUint32(i));
    }
    return /** @type {number} */ (words.shift());
  };
  const deck = Array.from({ length: 40 }, (_, i) => i);
  for (let k = 39; k > 0; k--) {
    const span = k + 1;
    const limit = 2 ** 32 - (2 ** 32 % span);
    let word = await next();
    while (word >= limit) word = await next();
    const j = word % span;
    [deck[k], deck[j]] = [deck[j], deck[k]];
  }
  return deck;
}

/** The hand of `seat` in a deck dealt as the rules deal: packets round the table, from the
 * seat after the dealer.
 * @param {number[]} deck
 * @param {number} seat
 * @param {{dealer: number, hand_size: number, packet: number, players?: number}} dealing
 * @returns {Card[]} */
export function dealtHand(deck, seat, { dealer, hand_size: handSize, packet, players = 2 }) {
  /** @type {Card[][]} */
  const hands = Array.from({ length: players }, () => []);
  let receiver = (dealer + 1) % players;
  let pos = 0;
  while (pos < players * handSize) {
    for (let i = 0; i < packet; i++) hands[receiver].push(cardOf(deck[pos++]));
    receiver = (receiver + 1) % players;
  }
  return hands[seat];
}

/** Check a finished deal's shuffle.  `shown`: the commitment this browser was shown before the
 * deal (or undefined); `mine`: the seeds this browser made; `hand`: the hand it was dealt (or
 * undefined).  Returns {ok, checks: [{ok, what}]}; the words are the caller's.
 * @param {RevealedShuffle} fair
 * @param {number | null} seat
 * @param {{shown: string | undefined, mine: string[], hand: Card[] | undefined}} known
 * @returns {Promise<ShuffleCheck>} */
export async function checkShuffle(fair, seat, { shown, mine, hand }) {
  /** @type {{ok: boolean, what: string}[]} */
  const checks = [];
  if (fair.algorithm !== ALGORITHM && fair.algorithm !== FIRST_ALGORITHM) return { ok: false, checks: [{ ok: false, what: "algorithm" }] };
  checks.push({ ok: (await commitmentOf(fair)) === fair.commitment, what: "commitment" });
  checks.push({ ok: fair.algorithm === ALGORITHM, what: "dealer" });
  if (shown !== undefined) checks.push({ ok: shown === fair.commitment, what: "shown" });
  if (seat !== null) checks.push({ ok: fair.client_seeds.some((s) => mine.includes(s)), what: "seed" });
  if (seat !== null && hand) {
    const dealt = dealtHand(await fairDeck(fair.server_seed, fair.client_seeds), seat, fair);
    const same = dealt.length === hand.length && dealt.every((c) => hand.includes(c));
    checks.push({ ok: same, what: "hand" });
  }
  return { ok: checks.every((c) => c.ok), checks };
}
