// The review of this player's decisions in the deal that ended, in its summary: asked for
// with a button (in a game without hints, once the match is over), worked out by the server
// while its progress shows, then the winning chance move by move and each judged decision in
// words; a tap on one shows the position it was made in, as a small board, and a marked one
// (an inaccuracy, a mistake, a blunder) says the danger of the card it gave away.
// Functions of the state, as HTML.

import { card, chip, words } from "../html.js";
import { playsASeat } from "./state.js";
import { escapeHTML as esc, language, t, th, tn } from "../words.js";

/** @import { Card, LastDeal, Meld, ReviewDecision } from "../protocol.js" */
/** @import { Deck } from "../cards.js" */
/** @import { GameState } from "./state.js" */

/**
 * @param {GameState} game
 * @param {LastDeal} last  the deal that ended
 * @param {Deck} deck
 * @param {string[]} names  each seat's name as the table shows it
 */
export function reviewPart(game, last, deck, names) {
  const s = game.state;
  if (!s || s.seat === null || !playsASeat(game) || (!s.game.hints && !s.match.over)) return "";
  const r = game.review && game.review.deal === last.deal ? game.review : null;
  if (!r) return `<div class="review" id="review"><button id="btn-review">${esc(t("Review my moves"))}</button></div>`;
  if (r.type !== "review") {
    const said = r.type === "review_progress" ? r.words : "";
    return `<div class="review" id="review" data-state="working"><p class="small" aria-live="polite">${esc(said || t("Reviewing your moves…"))}</p></div>`;
  }
  const judged = r.decisions.filter((d) => d.words);
  return `<div class="review" id="review" data-state="done">
    <h3>${esc(t("Review of your moves"))}</h3>
    ${reviewChart(r.decisions)}
    <ul class="review-moves">${judged.map((d) => reviewMove(d, names, deck)).join("")}</ul>
    ${r.summary_words.map((l) => `<p class="small">${words(l, deck)}</p>`).join("")}
  </div>`;
}

/**
 * One judged decision in words, with the board of its position behind it (a tap on its line
 * shows it); a marked one also says the danger of the card it gave away.
 * @param {ReviewDecision} d
 * @param {string[]} names
 * @param {Deck} deck
 */
export function reviewMove(d, names, deck) {
  const line = words(d.words, deck);
  const danger = d.mark && d.feeds_words ? `<span class="review-danger">${words(d.feeds_words, deck)}</span>` : "";
  const board = reviewBoard(d, names, deck);
  const said = board ? `<details><summary>${line}${danger}</summary>${board}</details>` : `${line}${danger}`;
  return `<li${d.mark ? ` class="mark-${d.mark}"` : ""} data-move="${d.move}">${said}</li>`;
}

/**
 * The position a decision was made in, as the player saw it, drawn small: each other player
 * (his name, how many cards he held, his melds: the one the card given away fits marked),
 * the middle (the centre card and where it came from, the stock, the dead cards), then the
 * player's melds and his hand (the card he gave away ringed, the best one dashed as the
 * hint marks its card).  "" where the review has no position.
 * @param {ReviewDecision} d
 * @param {string[]} names
 * @param {Deck} deck
 */
export function reviewBoard(d, names, deck) {
  const b = d.board;
  if (!b) return "";
  const me = b.player;
  const seats = b.tables.length;
  const fed = d.feeds ? `${d.feeds.player}:${d.feeds.meld.join(" ")}` : "";
  /** @param {number} p */
  const table = (p) => {
    const melds = b.tables[p].map((m) => miniMeld(m, deck, fed === `${p}:${m.join(" ")}`)).join("");
    return `<div class="rb-table" role="group" aria-label="${esc(t("{name}'s table", { name: names[p] }))}">${melds || `<span class="empty">${esc(t("no melds yet"))}</span>`}</div>`;
  };
  /** @param {number} p */
  const other = (p) => `<div class="rb-seat" data-seat="${p}">
      <div class="rb-who"><span class="name">${esc(names[p])}</span> <span class="count">${esc(tn("{count} card in hand", "{count} cards in hand", b.hand_counts[p]))}</span></div>
      ${table(p)}</div>`;
  const others = Array.from({ length: seats - 1 }, (_, k) => other((me + 1 + k) % seats)).join("");
  // the centre card a pass let go is a card given away too
  const centre = b.centre
    ? `${card(b.centre, deck, d.played === "pass" ? "played" : "")}<span>${esc(d.centre_words || "")}</span>`
    : `<span>${esc(t("No card in the centre"))}</span>`;
  const dead = b.dead.length
    ? `<div class="rb-dead"><span>${esc(t("Dead cards ({count})", { count: b.dead.length }))}</span> ${b.dead.map((c) => chip(c, deck)).join(" ")}</div>`
    : "";
  /** @param {string} action @param {Card} c  whether the action gives card `c` away */
  const gives = (action, c) => action === `discard ${c}` || action === `exchange ${c}`;
  /** @param {Card} c */
  const mark = (c) => (gives(d.played, c) ? "played" : gives(d.best, c) ? "best" : "");
  return `<div class="review-board" data-move="${d.move}">
    ${others}
    <div class="rb-middle"><div class="rb-centre">${centre}</div><span class="rb-stock">${th("{count} in stock", { count: String(b.stock_count) })}</span>${dead}</div>
    <div class="rb-seat me" data-seat="${me}"><div class="rb-who"><span class="name">${esc(names[me])}</span></div>${table(me)}
      <div class="rb-hand" role="group" aria-label="${esc(t("Your hand"))}">${b.hand.map((c) => card(c, deck, mark(c))).join("")}</div></div>
  </div>`;
}

/**
 * One meld of the small board (marked: the card given away fits it).
 * @param {Meld} cards
 * @param {Deck} deck
 * @param {boolean} fed
 */
const miniMeld = (cards, deck, fed) => `<div class="meld${fed ? " fed" : ""}">${cards.map((c) => card(c, deck)).join("")}</div>`;

/**
 * The winning chance of each decision as the player played it (and, fainter, of the best
 * move), from 0% at the bottom to 100% at the top, marked on the left; a dot marks each
 * inaccuracy, mistake or blunder; a legend under it says which line is which.
 * @param {ReviewDecision[]} decisions
 */
export function reviewChart(decisions) {
  if (!decisions.length) return "";
  const w = 320;
  const h = 100;
  const pad = 8;
  const left = 34; // room for the percentages
  const n = decisions.length;
  /** @param {number} i */
  const x = (i) => (n === 1 ? (left + w - pad) / 2 : left + (i * (w - left - pad)) / (n - 1)).toFixed(1);
  /** @param {number} c */
  const y = (c) => (pad + (1 - c) * (h - 2 * pad)).toFixed(1);
  /** @param {"chance_played" | "chance_best"} key */
  const points = (key) => decisions.map((d, i) => `${x(i)},${y(d[key])}`).join(" ");
  const label = t("Your winning chance, move by move");
  const percent = new Intl.NumberFormat(language(), { style: "percent" });
  const ticks = [0, 0.5, 1]
    .map((c) => `<text class="tick" x="${left - 5}" y="${y(c)}">${esc(percent.format(c))}</text>`)
    .join("");
  const dots = decisions
    .map((d, i) => (d.mark ? `<circle class="mark-${d.mark}" cx="${x(i)}" cy="${y(d.chance_played)}" r="4"><title>${esc(d.mark_word || d.mark)}</title></circle>` : ""))
    .join("");
  // Translators: the legend of the review's chart: the line of the moves played, and that of the best moves.
  const legend = `<p class="review-legend small"><span class="key played"></span>${esc(t("Your moves"))} <span class="key best"></span>${esc(t("Best moves"))}</p>`;
  return `<svg class="review-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}">
    ${ticks}<line class="half" x1="${left}" y1="${y(0.5)}" x2="${w - pad}" y2="${y(0.5)}"></line>
    <polyline class="best" points="${points("chance_best")}"></polyline>
    <polyline class="played" points="${points("chance_played")}"></polyline>${dots}</svg>${legend}`;
}
