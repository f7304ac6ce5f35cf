// The leaderboards (#/leaderboard[/FORM[/PERIOD]]): the best players of each game form who are
// no longer provisional, this week, this month or of all time (GET /api/leaderboard).

import { api, app, byId, element, errorText } from "../page.js";
import { games } from "../seats.js";
import { escapeHTML as esc, t, tn } from "../words.js";

/** @import { Screen } from "../page.js" */

/** The rated forms, each with the spec of its rules (the home page's names for them). */
export const FORMS = /** @type {const} */ ([
  ["classic", "standard"],
  ["tercerilla", "mexican"],
  ["mexican2", "mexican,num_players=2"],
  ["mexican4", "mexican,num_players=4"],
]);

/** @param {string} form */
export function formName(form) {
  const spec = (FORMS.find(([f]) => f === form) || [form, form])[1];
  const found = games().find((g) => g[3] === spec);
  return found ? found[1] : form;
}

/** @returns {[string, string][]} */
const periods = () => [
  ["week", t("This week")],
  ["month", t("This month")],
  ["all", t("All time")],
];

/**
 * @typedef {object} Leader
 * @property {string} id
 * @property {string} name
 * @property {number} rating
 * @property {number} games
 */

/**
 * @param {string | undefined} asked  the form in the address
 * @param {string | undefined} askedPeriod
 * @returns {Screen}
 */
export function showLeaderboard(asked, askedPeriod) {
  const form = FORMS.some(([f]) => f === asked) ? /** @type {string} */ (asked) : games()[0][3] === "standard" ? "classic" : "tercerilla";
  const period = periods().some(([p]) => p === askedPeriod) ? /** @type {string} */ (askedPeriod) : "all";
  document.title = t("Conquian — leaderboard");
  app.innerHTML = `<section class="panel leaderboard">
    <h1>${esc(t("Leaderboard"))}</h1>
    <div class="board-picks">
      <label>${esc(t("Game"))} <select id="board-form">${FORMS.map(([f]) => `<option value="${f}"${f === form ? " selected" : ""}>${esc(formName(f))}</option>`).join("")}</select></label>
      <label>${esc(t("When"))} <select id="board-period">${periods().map(([p, label]) => `<option value="${p}"${p === period ? " selected" : ""}>${esc(label)}</option>`).join("")}</select></label>
    </div>
    <div id="board-list" aria-live="polite"><p class="small">${esc(t("Loading…"))}</p></div>
    <p class="small">${esc(t("Players with ten rated games or more; a rated game is one between people, chosen when the table is made."))}</p>
  </section>`;
  const go = () => {
    location.hash = `#/leaderboard/${element("board-form", HTMLSelectElement).value}/${element("board-period", HTMLSelectElement).value}`;
  };
  byId("board-form").addEventListener("change", go);
  byId("board-period").addEventListener("change", go);
  api(`/api/leaderboard?form=${encodeURIComponent(form)}&period=${encodeURIComponent(period)}`)
    .then((/** @type {{players: Leader[]}} */ found) => {
      const list = byId("board-list");
      list.innerHTML = found.players.length
        ? `<ol class="leaders">${found.players.map((p) => `<li><a class="name" href="#/player/${encodeURIComponent(p.id)}">${esc(p.name)}</a> <span class="rating">${esc(String(p.rating))}</span> <span class="small">${esc(tn("{count} game", "{count} games", p.games))}</span></li>`).join("")}</ol>`
        : `<p>${esc(t("Nobody yet: play ten rated games to be listed."))}</p>`;
    })
    .catch((err) => {
      byId("board-list").innerHTML = `<p class="error">${esc(errorText(err))}</p>`;
    });
  return { close: () => {} };
}
