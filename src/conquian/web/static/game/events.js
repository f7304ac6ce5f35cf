// The events of an observation's history, as the server sends them: one object a move
// (web/messages.py, `Event`: its player, its verb and the card it was about).  The page reads
// them as they come; nothing reads a move from text.

/** @import { GameEvent } from "../protocol.js" */

/**
 * The events the page can use: each an object with its player and verb (anything else the
 * history might hold is left out, so the page draws what it can).
 * @param {readonly unknown[] | null | undefined} history
 * @returns {GameEvent[]}
 *
 * @example
 * events([{ player: 1, verb: "take", card: "7d", source: "t", melds: [["5d", "6d", "7d"]] }])
 */
export function events(history) {
  /** @type {GameEvent[]} */
  const out = [];
  for (const item of history || []) {
    if (item && typeof item === "object" && "player" in item && "verb" in item) {
      out.push(/** @type {GameEvent} */ (item));
    }
  }
  return out;
}
