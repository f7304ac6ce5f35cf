// The events of an observation's history, as the server writes them now: one line of text
// each ("p1 take 5d6d7d (7d:t)").  This is the only place that reads that text; once the
// server sends each event as data (its player, verb and cards), this function is the one
// to replace.

/** @import { Card } from "../protocol.js" */

/**
 * What the page needs of one event: who made it, what kind of move it was, and the card it
 * is about (the centre card a take took, or the card discarded, passed or passed on).
 * @typedef {object} GameEvent
 * @property {number} player
 * @property {string} verb  take, decline, pass, force, noforce, discard, exchange...
 * @property {Card | null} card  null when the event names none (or one hidden from this viewer)
 */

const EVENT = /^p(\d+) (\w+)(?: ([^ (]+))?(?: \((\w\w):\w*\))?/;

/**
 * The verb of an event of the observation's history, its player and the card it names (the
 * centre card in brackets, or the card discarded or passed); null for text it cannot read.
 * @param {string | null | undefined} text
 * @returns {GameEvent | null}
 *
 * @example
 * parseEvent("p1 take 5d6d7d (7d:t)") // { player: 1, verb: "take", card: "7d" }
 * parseEvent("p0 discard Kh")         // { player: 0, verb: "discard", card: "Kh" }
 * parseEvent("p1 exchange ?")         // { player: 1, verb: "exchange", card: null } (hidden)
 */
export function parseEvent(text) {
  const m = EVENT.exec(text || "");
  if (!m) return null;
  const [, player, verb, arg, centre] = m;
  const card = centre || (verb === "discard" || verb === "exchange" ? arg : null);
  return { player: Number(player), verb, card: card && card !== "?" ? card : null };
}
