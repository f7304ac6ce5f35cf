// The pieces of HTML the screens are made of: cards, melds, and words with cards in them,
// drawn in the deck given.  Every text put in is escaped here.

import { cardImage, cardName, parseCard, suitIcon } from "./cards.js";
import { escapeHTML as esc, t } from "./words.js";

/** @import { Card, Meld, Words } from "./protocol.js" */
/** @import { Deck } from "./cards.js" */

const SPANISH_LABELS = ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"];

/**
 * A card in a line of words: its rank and suit, small.
 * @param {Card} token
 * @param {Deck} deck
 */
export function chip(token, deck) {
  const { rank, suit } = parseCard(token);
  const label = deck === "spanish" ? SPANISH_LABELS[rank] : "A234567JQK"[rank];
  // the colour comes from the style sheet (.chip.fr / .chip.es): no inline style, for the CSP
  return `<span class="chip ${deck === "spanish" ? "es" : "fr"} suit-${suit}" data-card="${token}" title="${esc(cardName(token, deck))}">${label}${suitIcon(suit, deck)}</span>`;
}

/**
 * Words from the server, their cards as chips.
 * @param {Words | null | undefined} segments
 * @param {Deck} deck
 */
export function words(segments, deck) {
  return (segments || []).map((s) => (typeof s === "string" ? esc(s) : chip(s.card, deck))).join("");
}

/**
 * A card face (or, for null, a card's back), named for screen readers.
 * @param {Card | null} token
 * @param {Deck} deck
 * @param {string} [extra]  more classes
 */
export function card(token, deck, extra = "") {
  const name = token ? cardName(token, deck) : t("hidden card");
  return `<span class="card ${extra}" data-card="${token || ""}" role="img" aria-label="${esc(name)}">${cardImage(token, deck)}</span>`;
}

/**
 * @param {Meld} cards
 * @param {Deck} deck
 */
export function meld(cards, deck) {
  return `<div class="meld">${cards.map((c) => card(c, deck)).join("")}</div>`;
}

/**
 * A player's melds on the table.
 * @param {Meld[]} list
 * @param {Deck} deck
 */
export function melds(list, deck) {
  if (!list.length) return `<div class="empty">${esc(t("no melds yet"))}</div>`;
  return list.map((m) => meld(m, deck)).join("");
}
