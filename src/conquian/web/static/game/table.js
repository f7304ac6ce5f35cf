// The table: each other player (name, cards in hand, last move, melds), the middle (the
// stock, the card in the centre, the dead cards) and this player's melds.  Functions of the
// scene, as HTML.

import { clockBadge } from "./clock.js";
import { talkBubble, talkPalette } from "./talk.js";
import { cardName } from "../cards.js";
import { card, chip, melds } from "../html.js";
import { escapeHTML as esc, t, th, tn } from "../words.js";

/** @import { Deck } from "../cards.js" */
/** @import { GameEvent } from "../protocol.js" */
/** @import { Scene } from "./scene.js" */

/**
 * A player's last move in a few words, with its card drawn in the deck shown ("" for a move
 * the page does not say).
 * @param {GameEvent} e
 * @param {Deck} deck
 */
export function moveWords(e, deck) {
  const shown = e.card ? chip(e.card, deck) : "";
  /** @type {Partial<Record<string, () => string>>} */
  const ways =
    // Translators: the last move of another player, shown by the player's name until you move.
    {
      take: () => th("took {card}", { card: shown }),
      discard: () => th("discarded {card}", { card: shown }),
      pass: () => th("passed {card}", { card: shown }),
      decline: () => th("declined {card}", { card: shown }),
      force: () => esc(t("forced the card on the player who declined it")),
      noforce: () => esc(t("let the declined card go")),
      exchange: () => esc(t("passed a card on")),
      layoff: () => th("laid {card} on a meld of another", { card: shown }),
    };
  const said = ways[e.verb];
  return said && (e.card || !["take", "discard", "pass", "decline"].includes(e.verb)) ? said() : "";
}

/**
 * Whether seat `p` is to act now (its block is marked).
 * @param {Scene} scene
 * @param {number} p
 */
const toAct = ({ obs, s }, p) => (obs.phase !== "over" && !s.match.over && obs.to_act === p ? " to-act" : "");

/** @param {Scene} scene @param {number} p */
const inHand = ({ obs }, p) =>
  `<span class="long">${esc(tn("{count} card in hand", "{count} cards in hand", obs.hand_counts[p]))}</span><span class="short">${esc(tn("{count} card", "{count} cards", obs.hand_counts[p]))}</span>`;

/** @param {Scene} scene @param {number} p */
const tableOf = ({ names }, p) => esc(t("{name}'s table", { name: names[p] }));

/**
 * Where seat `p` sits from this player's seat, said when more than two play: the seat on
 * the right plays next.  Nothing for a spectator, who has no seat to count from.
 * @param {Scene} scene
 * @param {number} p
 */
function whereFromYou({ watching, seats, me }, p) {
  if (watching || seats <= 2 || p !== (me + 1) % seats) return "";
  return ` <span class="count where"><span class="long">${esc(t("on your right, plays after you"))}</span><span class="short">${esc(t("plays after you"))}</span></span>`;
}

/** How many people sit at the table (table talk is for them, not for one against computers).
 * @param {Scene} scene */
const people = (scene) => scene.s.game.kinds.filter((k) => k !== "bot").length;

/** Another player's name: a person's is a button (report or block him) for a player.
 * @param {Scene} scene @param {number} p */
function nameOf(scene, p) {
  const name = esc(scene.names[p]);
  if (scene.watching || scene.s.game.kinds[p] === "bot") return `<span class="name">${name}</span>`;
  return `<button type="button" class="name" data-seat="${p}" title="${esc(t("Report or block {name}", { name: scene.names[p] }))}">${name}</button>`;
}

/**
 * Another player's place at the table.
 * @param {Scene} scene
 * @param {number} p
 */
export function opponent(scene, p) {
  const { obs, seats, moves, deck } = scene;
  const backs = Array.from({ length: obs.hand_counts[p] }, () => card(null, deck, "back")).join("");
  const said = moves[p] ? moveWords(moves[p], deck) : "";
  const lastSaid = said ? ` <span class="last-said" id="last-${p}">${said}</span>` : "";
  return `<div class="player opp${toAct(scene, p)}${moves[p] ? " moved" : ""}" data-seat="${p}">
        <div class="who">${nameOf(scene, p)}${clockBadge(scene.s.clock, p)}${talkBubble(p)} <span class="count" id="${seats === 2 ? "opp-count" : `count-${p}`}">${inHand(scene, p)}</span>${whereFromYou(scene, p)}${lastSaid}</div>
        <div class="backs" data-anchor="backs-${p}">${backs}</div>
        <div class="table" id="table-${p}" data-seat="${p}" aria-label="${tableOf(scene, p)}">${melds(obs.tables[p], deck)}</div>
      </div>`;
}

/**
 * Whether the card in the centre is a button that takes it.
 * @param {Scene} scene
 */
export const takeable = ({ watching, s, obs, game }) => !watching && s.takes.length > 0 && !!obs.centre && !game.pending;

/**
 * The middle of the table: the stock, the card in the centre (where it came from), the dead
 * cards.
 * @param {Scene} scene
 */
export function middle(scene) {
  const { obs, s, deck } = scene;
  const canTake = takeable(scene);
  const takeLabel = canTake && obs.centre ? t("Take {card}", { card: cardName(obs.centre, deck) }) : "";
  const centreCard = takeLabel
    ? `<button class="centre-take" id="centre-take" aria-label="${esc(takeLabel)}">${card(obs.centre, deck, "big")}</button>`
    : card(obs.centre, deck, "big");
  const centre = obs.centre
    ? `${centreCard}<div class="origin">${esc(s.origin)}</div>`
    : `<div class="slot"></div><div class="origin">${esc(obs.phase === "over" ? t("Deal over") : t("No card in the centre"))}</div>`;
  const stockTitle = esc(t("Cards left in the stock"));
  // Translators: no dead cards yet.
  const noDead = esc(t("none"));
  return `<div class="middle">
        <div class="stock" title="${stockTitle}" data-anchor="stock">${obs.stock_count ? card(null, deck, "back") : `<div class="slot"></div>`}<div class="label">${th("{count} in stock", { count: `<span id="stock-count">${obs.stock_count}</span>` })}</div></div>
        <div class="centre${canTake ? " takeable" : ""}" id="centre">${centre}</div>
        <div class="dead"><div class="label">${esc(t("Dead cards ({count})", { count: obs.dead.length }))}</div><div class="chips" id="dead">${obs.dead.map((c) => chip(c, deck)).join(" ") || `<span class="small">${noDead}</span>`}</div></div>
      </div>`;
}

/**
 * This player's place (a spectator's: seat 0's): the melds, the name, and for a spectator
 * the count of the hand (whose backs the hand's region shows).
 * @param {Scene} scene
 */
export function mine(scene) {
  const { obs, me, names, watching, deck } = scene;
  return `<div class="player me${toAct(scene, me)}">
        <div class="table" id="table-${me}" data-seat="${me}" aria-label="${tableOf(scene, me)}">${melds(obs.tables[me], deck)}</div>
        <div class="who"><span class="name">${esc(names[me])}</span>${clockBadge(scene.s.clock, me)}${talkBubble(me)}${watching ? ` <span class="count">${inHand(scene, me)}</span>` : ""}${!watching && people(scene) > 1 ? talkPalette(!!scene.s.game.chat) : ""}</div>
      </div>`;
}
