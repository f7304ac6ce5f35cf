// What the page does for the fair shuffles as the states come: it notes the commitments shown
// before each deal and the hand dealt, gives a seed to the next deal's shuffle, and checks a
// finished deal's shuffle once its server seed is revealed (fair.js).

import { canCheck, checkShuffle, newSeed } from "../fair.js";
import { saveShuffleMemory } from "../memory.js";

/** @import { ClientMessage, StateMessage } from "../protocol.js" */
/** @import { ShuffleMemory } from "../memory.js" */

/**
 * Note what the state says of the shuffles; give a seed to the next deal's shuffle; check a
 * finished deal's shuffle once its server seed is revealed (`checked` is called when the
 * check is done).
 * @param {string} id  the game
 * @param {ShuffleMemory} m  what this browser knows of its shuffles (kept up to date here)
 * @param {StateMessage} msg
 * @param {(message: ClientMessage) => boolean} send
 * @param {() => void} checked
 */
export function followShuffle(id, m, msg, send, checked) {
  const fair = msg.fair;
  if (!fair) return;
  const next = fair.next;
  if (next && !(next.deal in m.shown)) m.shown[next.deal] = next.commitment; // before the deal
  if (msg.obs && msg.obs.hand && !msg.log.length && !(msg.match.deal in m.hands)) m.hands[msg.match.deal] = msg.obs.hand;
  if (next && msg.seat !== null && !next.seeded[msg.seat] && !m.sent[next.deal]) {
    const seed = newSeed();
    m.seeds.push(seed);
    m.sent[next.deal] = true;
    send({ type: "seed", deal: next.deal, seed });
  }
  saveShuffleMemory(id, m);
  const last = msg.last;
  if (last && last.fair && !(last.deal in m.checks)) {
    m.checks[last.deal] = null; // being checked
    if (!canCheck()) {
      m.checks[last.deal] = { ok: null, checks: [] };
      return;
    }
    checkShuffle(last.fair, msg.seat, { shown: m.shown[last.deal], mine: m.seeds, hand: m.hands[last.deal] })
      .then((result) => (m.checks[last.deal] = result))
      .catch(() => (m.checks[last.deal] = { ok: false, checks: [{ ok: false, what: "error" }] }))
      .then(checked);
  }
}

/**
 * The hello of a connection: the language of the words wanted, deltas, and for a seat its
 * token and this browser's seed for the shuffle of the deal being shuffled (kept).
 * @param {string} id
 * @param {string | null} token
 * @param {string} lang
 * @param {ShuffleMemory} m
 * @param {boolean} [mine]  the seat of the visitor's player, known by his cookie
 * @returns {ClientMessage}
 */
export function hello(id, token, lang, m, mine = false) {
  // deltas: each state brings the moves of the deal from where the last one differs only
  /** @type {ClientMessage} */
  const said = { type: "hello", lang, deltas: true };
  if (token || mine) {
    if (token) said.token = token;
    else said.mine = true;
    said.seed = newSeed();
    m.seeds.push(said.seed);
    saveShuffleMemory(id, m);
  }
  return said;
}
