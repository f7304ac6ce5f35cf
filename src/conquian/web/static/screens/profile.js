// A player's profile (#/player/ID): his name, since when he plays, his rating in each game
// form with its games and wins, and his finished games, newest first, each with its replay
// and its records (GET /api/players/ID and /api/players/ID/games).  Nothing private: what
// anyone may see of him.

import { api, app, byId, errorText } from "../page.js";
import { escapeHTML as esc, language, t, tn } from "../words.js";
import { formName } from "./leaderboard.js";

/** @import { Screen } from "../page.js" */

/**
 * @typedef {object} Profile
 * @property {string} id
 * @property {string} name
 * @property {number} since
 * @property {Record<string, {rating: number, games: number, wins: number, provisional: boolean}>} ratings
 * @property {number} games  finished games, rated or not
 */

/**
 * @typedef {object} FinishedGame
 * @property {string} id
 * @property {number} ended
 * @property {string[]} players
 * @property {number[] | null} rating  [before, after] in a rated game
 */

/** A page of finished games as list items: each one's replay and record, and (``mine``: the
 * reader's own games) his seat of it, with the review of his moves.
 * @param {FinishedGame[]} games @param {boolean} mine */
export const finishedItems = (games, mine) =>
  games
    .map((g) => {
      const id = encodeURIComponent(g.id);
      const change = g.rating ? ` <span class="rating">${esc(`${g.rating[0]} → ${g.rating[1]}`)}</span>` : "";
      const review = mine ? ` <a class="small" href="#/mine/${id}">${esc(t("Review my moves"))}</a>` : "";
      return `<li><a href="#/replay/${id}/1">${esc(g.players.join(" · "))}</a>${change} <span class="small">${esc(new Date(g.ended * 1000).toLocaleString(language()))}</span>${review} <a class="small" href="/api/games/${id}/records/1" download>${esc(t("Record"))}</a></li>`;
    })
    .join("");

/**
 * @param {string} id
 * @returns {Screen}
 */
export function showProfile(id) {
  document.title = t("Conquian — player");
  app.innerHTML = `<section class="panel profile" id="profile"><p class="small">${esc(t("Loading…"))}</p></section>`;
  let closed = false;
  Promise.all([api(`/api/players/${encodeURIComponent(id)}`), api("/api/me")])
    .then(([/** @type {Profile} */ found, /** @type {{id: string}} */ me]) => {
      if (closed) return;
      document.title = `${found.name} — ${t("Conquian")}`;
      const forms = Object.entries(found.ratings);
      byId("profile").innerHTML = `<h1>${esc(found.name)}</h1>
        <p class="small">${esc(t("Plays since {date}", { date: new Date(found.since * 1000).toLocaleDateString(language()) }))} · ${esc(tn("{count} finished game", "{count} finished games", found.games))}${me.id === found.id ? ` · <a href="#/account">${esc(t("Your account"))}</a>` : ""}</p>
        <h2>${esc(t("Ratings"))}</h2>
        ${
          forms.length
            ? `<table class="ratings"><thead><tr><th>${esc(t("Game"))}</th><th>${esc(t("Rating"))}</th><th>${esc(t("Rated games"))}</th><th>${esc(t("Won"))}</th></tr></thead><tbody>${forms
                .map(([form, r]) => `<tr><td>${esc(formName(form))}</td><td class="rating">${esc(String(r.rating) + (r.provisional ? "?" : ""))}</td><td>${r.games}</td><td>${r.wins}</td></tr>`)
                .join("")}</tbody></table>
              <p class="small">${esc(t("A question mark: a provisional rating, in the player's first ten rated games."))}</p>`
            : `<p class="small">${esc(t("No rated games yet."))}</p>`
        }
        <h2>${esc(t("Games"))}</h2>
        <ul class="list" id="profile-games"></ul>
        <p id="no-games" class="small" hidden>${esc(t("No finished games yet."))}</p>
        <p id="more-games-box" hidden><button type="button" id="more-games">${esc(t("Older games"))}</button></p>`;
      /** @param {number | null} before */
      const page = (before) =>
        api(`/api/players/${encodeURIComponent(id)}/games${before ? `?before=${before}` : ""}`).then((/** @type {{games: FinishedGame[], next: number | null}} */ got) => {
          if (closed) return;
          byId("profile-games").insertAdjacentHTML("beforeend", finishedItems(got.games, me.id === found.id));
          byId("no-games").hidden = before !== null || got.games.length > 0;
          byId("more-games-box").hidden = got.next === null;
          byId("more-games").onclick = () => page(got.next);
        });
      return page(null);
    })
    .catch((err) => {
      if (!closed) byId("profile").innerHTML = `<p class="error">${esc(errorText(err))}</p>`;
    });
  return {
    close: () => {
      closed = true;
    },
  };
}
