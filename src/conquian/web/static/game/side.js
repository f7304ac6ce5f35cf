// The side of the table: the score of the match, the options, and the log of the moves (with
// the moves the page made by itself).  Functions of the scene, as HTML.

import { words } from "../html.js";
import { escapeHTML as esc, t, tn } from "../words.js";
import { matchOverButtons } from "./summary.js";

/** @import { Scene } from "./scene.js" */

/**
 * The score of the match: each player's balance, the facts of the deal, the rules, the hints.
 * @param {Scene} scene
 */
export function score({ s, game, names }) {
  const g = s.game;
  const balance = s.match.balance;
  /** @param {number} n */
  const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
  /** @param {number} p */
  const points = (p) => signed(balance[p]);
  // la cuenta: shown beside the match once a rematch carried it on
  const counted = s.match.count_matches > 1;
  const countHead = counted
    ? `<tr><th></th><th class="num">${esc(t("Match"))}</th><th class="num" title="${esc(tn("The count over {count} match", "The count over {count} matches", s.match.count_matches))}">${esc(t("Count"))}</th></tr>`
    : "";
  /** @param {number} p */
  const count = (p) => (counted ? `<td class="num cuenta" id="cuenta-${p}">${signed(s.match.count[p])}</td>` : "");
  // Translators: the heading of the score of the match (several deals).
  const matchHead = esc(t("Match"));
  // Translators: the facts of the match under the score, joined by " · ".
  const facts = [
    t("Deal {number}", { number: s.match.deal }),
    t("stake {stake}", { stake: s.match.stake }),
    tn("{count} card to go out", "{count} cards to go out", g.cards_to_win),
  ].map(esc);
  const hintsSaid = g.hints ? t("Hints are on in this game.") : t("Hints are off in this game: the player who made it chose so.");
  return `<div class="panel score">
        <h2>${matchHead}</h2>
        <table>${countHead}${names.map((n, p) => `<tr><td>${esc(n)}</td><td class="num" id="score-${p}">${points(p)}</td>${count(p)}</tr>`).join("")}</table>
        ${counted ? `<p class="small" id="cuenta-said">${esc(tn("The count over {count} match", "The count over {count} matches", s.match.count_matches))}</p>` : ""}
        <p class="small">${facts.join(" · ")} · <a id="rules-link" href="#/rules/${encodeURIComponent(g.rules)}" target="_blank" rel="noopener">${esc(t("{rules} rules", { rules: g.rules }))}</a></p>
        <p class="small hints-state" id="hints-state" data-hints="${!!g.hints}">${esc(hintsSaid)}</p>
        ${s.match.over ? matchOverButtons(game) : ""}
      </div>`;
}

/**
 * The options: the moves the page makes by itself (not for a spectator), the sound.
 * @param {Scene} scene
 */
export function options({ watching, around }) {
  const auto = watching
    ? ""
    : `<label class="check"><input type="checkbox" id="opt-auto"${around.autoPlay ? " checked" : ""}> ${esc(t("Decline cards I cannot use, and make the moves that leave no choice"))}</label>`;
  return `<div class="panel options">
        <h2>${esc(t("Options"))}</h2>
        ${auto}
        <label class="check"><input type="checkbox" id="opt-sound"${around.sound ? " checked" : ""}> ${esc(t("Sound"))}</label>
      </div>`;
}

/** The log's one line when the deal has no move yet. */
export const noMoves = () => `<li class="small">${esc(t("No moves yet."))}</li>`;

/**
 * The moves of the deal, one item each, with what the page did by itself before the move it
 * made.
 * @param {Scene} scene
 */
export function log({ s, game, deck }) {
  const items = s.log.map((l) => `<li>${words(l, deck)}</li>`);
  const notes = game.notes.filter((n) => n.deal === s.match.deal);
  for (const n of notes.slice().reverse()) items.splice(Math.min(n.at, items.length), 0, `<li class="auto">${n.html}</li>`);
  return items.join("") || noMoves();
}
