// This player's hand: a button for each card (picked, hinted), or a spectator's view of seat
// 0's hand (its backs).  Functions of the scene.

import { cardImage, cardName } from "../cards.js";
import { card } from "../html.js";
import { escapeHTML as esc, t } from "../words.js";

/** @import { Card } from "../protocol.js" */
/** @import { GameState } from "./state.js" */
/** @import { Scene } from "./scene.js" */

/**
 * The classes of a card of the hand: picked, hinted.
 * @param {GameState} game
 * @param {Card} c
 */
export const handClass = (game, c) =>
  `card-btn${game.selected.has(c) ? " selected" : ""}${game.hint && game.hint.action === `discard ${c}` ? " hinted" : ""}${received(game) === c ? " received" : ""}`;

/**
 * The card this player received in the exchange, once told (null: none).
 * @param {GameState} game
 */
const received = (game) => {
  const obs = game.state && game.state.obs;
  return (obs && obs.exchange && obs.exchange.received) || null;
};

/**
 * The hand's cards and their names, in one string: the same string, the same buttons (then
 * only their classes change); null where the hand is no buttons of cards.
 * @param {Scene} scene
 */
export function handFaces({ watching, obs, deck }) {
  const hand = obs.hand || [];
  if (watching || (!hand.length && obs.phase !== "over")) return null;
  return hand.map((c) => `${c}:${cardName(c, deck)}`).join(" ");
}

/**
 * The hand, as HTML.
 * @param {Scene} scene
 */
export function handHTML({ watching, obs, me, game, deck }) {
  const hand = obs.hand || [];
  if (watching) return Array.from({ length: obs.hand_counts[me] }, () => card(null, deck, "back")).join("");
  if (!hand.length && obs.phase !== "over") return `<span class="empty">${esc(t("Your hand is empty: the next card you take goes out."))}</span>`;
  return hand
    .map((c) => {
      const name = received(game) === c ? t("{card}, received in the exchange", { card: cardName(c, deck) }) : cardName(c, deck);
      return `<button class="${handClass(game, c)}" data-card="${c}" aria-pressed="${game.selected.has(c)}" aria-label="${esc(name)}" title="${esc(name)}">${cardImage(c, deck)}</button>`;
    })
    .join("");
}

/**
 * What the hand is called for screen readers: this player's hand, or (to a spectator, who
 * sees the backs of seat 0's hand) that player's.
 * @param {Scene} scene
 */
export const handLabel = ({ watching, names, me }) => (watching ? t("{name}'s hand", { name: names[me] }) : t("Your hand"));
