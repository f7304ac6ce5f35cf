// The review of this player's decisions in the deal that ended, in its summary: asked for
// with a button (in a game without hints, once the match is over), worked out by the server
// while its progress shows, then the winning chance move by move and each judged decision in
// words.  Functions of the state, as HTML.

import { words } from "../html.js";
import { playsASeat } from "./state.js";
import { escapeHTML as esc, language, t } from "../words.js";

/** @import { LastDeal, ReviewDecision } from "../protocol.js" */
/** @import { Deck } from "../cards.js" */
/** @import { GameState } from "./state.js" */

/**
 * @param {GameState} game
 * @param {LastDeal} last  the deal that ended
 * @param {Deck} deck
 */
export function reviewPart(game, last, deck) {
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
    <ul class="review-moves">${judged.map((d) => `<li class="${d.mark ? `mark-${d.mark}` : ""}" data-move="${d.move}">${words(d.words, deck)}</li>`).join("")}</ul>
    ${r.summary_words.map((l) => `<p class="small">${words(l, deck)}</p>`).join("")}
  </div>`;
}

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
