// What the game's views draw from, worked out once for each drawing: the state shown, who
// sits where as this page draws the table, the names, the last moves, and the few facts of
// the page around the game that the views need.  Pure: no DOM.

import { seatWords } from "../seats.js";
import { t } from "../words.js";
import { lastMoves, shownState } from "./state.js";

/**
 * @import { Observation } from "../protocol.js"
 * @import { Deck } from "../cards.js"
 * @import { ShuffleCheck } from "../memory.js"
 * @import { GameEvent } from "../protocol.js"
 * @import { DealtState, GameState } from "./state.js"
 */

/**
 * The facts of the page around the game that the views need.
 * @typedef {object} Surroundings
 * @property {Deck} deck  the deck the cards are drawn in
 * @property {boolean} touch  a touch screen (no keyboard hints)
 * @property {boolean} autoPlay  the option to make the moves that leave no choice is on
 * @property {boolean} sound  the sound option is on
 * @property {Record<number, ShuffleCheck | null>} checks  each finished deal's shuffle check
 * @property {string} joinLink  the address of this game's join page
 */

/**
 * @typedef {object} Scene
 * @property {GameState} game
 * @property {DealtState} s  the state shown
 * @property {Observation} obs  its observation
 * @property {Deck} deck
 * @property {boolean} watching  a spectator's page
 * @property {number} me  the seat drawn at the bottom: this player's (seat 0 for a spectator)
 * @property {number} seats
 * @property {number[]} others  the other seats in play order from the one after `me` (who
 *   sits on its right)
 * @property {string[]} names  each seat's name, this player's marked "(you)"
 * @property {Record<number, GameEvent>} moves  the last move of each other player
 * @property {Surroundings} around
 */

/**
 * The scene of a game with a dealt state.
 * @param {GameState} game
 * @param {Surroundings} around
 * @returns {Scene}
 */
export function makeScene(game, around) {
  const s = shownState(game);
  const obs = s.obs;
  const me = s.seat === null ? 0 : s.seat;
  const seats = obs.tables.length;
  const said = seatWords();
  return {
    game,
    s,
    obs,
    deck: around.deck,
    watching: s.seat === null,
    me,
    seats,
    others: Array.from({ length: seats - 1 }, (_, k) => (me + 1 + k) % seats),
    names: s.game.names.map((n, i) => (s.seat === i ? said.you(n) : n || t("Waiting for a player"))),
    moves: s.ended ? {} : lastMoves(s),
    around,
  };
}
