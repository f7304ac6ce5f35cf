// Play now: the home page's button, which asks the server for a table of a game form with
// players of one's level (POST /api/quick), and the wait (#/quick/TICKET) until one is
// seated (GET /api/quick/TICKET?wait=20, which the server answers as soon as the player is
// seated), which may be cancelled (DELETE).  Computers
// take the seats nobody takes within the server's wait; they are named as computers.

import { remember } from "../memory.js";
import { api, app, byId, element, errorText, toast } from "../page.js";
import { games } from "../seats.js";
import { escapeHTML as esc, t, tn } from "../words.js";
import { FORMS, formName } from "./leaderboard.js";

/** @import { Screen } from "../page.js" */

/**
 * @typedef {object} QuickTicket
 * @property {string} ticket
 * @property {string} form
 * @property {"waiting" | "seated" | "cancelled"} status
 * @property {number} since  when the player asked (s since the epoch)
 * @property {number} bots_after  seconds before computers fill the empty seats
 * @property {string} [game]
 * @property {number} [seat]
 * @property {string} [token]
 * @property {number} [computers]
 */

/** The forms in the order the home page offers its games. */
const quickForms = () =>
  games()
    .map((g) => FORMS.find(([, spec]) => spec === g[3]))
    .filter((f) => f !== undefined)
    .map((f) => /** @type {string} */ (f[0]));

/** The home page's panel: a game form and the button. */
export const quickPanel = () => `<section class="panel play-now" id="play-now-panel">
    <h2>${esc(t("Play now"))}</h2>
    <p class="small">${esc(t("Play with people of your level; computer players take the seats nobody takes in a few seconds."))}</p>
    <div class="play-now-row">
      <label>${esc(t("Game"))} <select id="quick-form">${quickForms()
        .map((f) => `<option value="${f}">${esc(formName(f))}</option>`)
        .join("")}</select></label>
      <button type="button" id="play-now" class="primary">${esc(t("Play now"))}</button>
    </div>
    <label class="check"><input type="checkbox" id="quick-anyone"> ${esc(t("Meet guests and players with an account alike"))}</label>
  </section>`;

/** The panel's button: a ticket, then the wait.
 * @param {() => string} name  the name the player typed (his from now on; "": unchanged) */
export function wireQuickPanel(name) {
  let asking = false;
  byId("play-now").addEventListener("click", async () => {
    if (asking) return;
    asking = true;
    try {
      /** @type {QuickTicket} */
      const ticket = await api("/api/quick", {
        form: element("quick-form", HTMLSelectElement).value,
        anyone: element("quick-anyone", HTMLInputElement).checked,
        ...(name() ? { name: name() } : {}),
      });
      if (!seated(ticket)) location.hash = `#/quick/${encodeURIComponent(ticket.ticket)}`;
    } catch (err) {
      asking = false;
      toast(errorText(err), "error");
    }
  });
}

/** A seated ticket's game, remembered in this browser and opened; false while waiting.
 * @param {QuickTicket} ticket */
function seated(ticket) {
  if (ticket.status !== "seated" || !ticket.game || !ticket.token) return false;
  const computers = ticket.computers || 0;
  const label = computers
    ? tn("{game}, with {count} computer", "{game}, with {count} computers", computers, { game: formName(ticket.form) })
    : formName(ticket.form);
  remember(ticket.game, ticket.token, label);
  location.hash = `#/g/${ticket.game}/${ticket.token}`;
  return true;
}

/**
 * The wait for a table: how long it has been, until the server seats the player.
 * @param {string} id  the ticket
 * @returns {Screen}
 */
export function showQuick(id) {
  document.title = t("Conquian — play now");
  let closed = false;
  /** @type {QuickTicket | null} */
  let last = null;
  app.innerHTML = `<section class="panel play-now waiting" aria-live="polite">
    <h1 id="quick-title">${esc(t("Looking for players…"))}</h1>
    <p id="quick-waited" class="small"></p>
    <p id="quick-note" class="small"></p>
    <p><button type="button" id="quick-cancel">${esc(t("Cancel"))}</button></p>
  </section>`;
  const draw = () => {
    if (!last) return;
    const waited = Math.max(0, Math.round(Date.now() / 1000 - last.since));
    byId("quick-title").textContent = t("Looking for players: {game}", { game: formName(last.form) });
    byId("quick-waited").textContent = tn("Waiting for {count} second.", "Waiting for {count} seconds.", waited);
    byId("quick-note").textContent = t("Computer players take the empty seats after {count} s.", { count: Math.round(last.bots_after) });
  };
  const poll = async () => {
    if (closed) return;
    try {
      /** @type {QuickTicket} */
      const ticket = await api(`/api/quick/${encodeURIComponent(id)}?wait=${last ? 20 : 0}`);
      if (closed) return;
      last = ticket;
      if (ticket.status === "cancelled") {
        location.hash = "#/";
        return;
      }
      if (seated(ticket)) return;
      draw();
      poll(); // the server answers as soon as the player is seated
      return;
    } catch (err) {
      if (closed) return;
      toast(errorText(err), "error");
    }
    setTimeout(poll, 2000);
  };
  const counting = setInterval(draw, 1000);
  byId("quick-cancel").addEventListener("click", async () => {
    try {
      const response = await fetch(`/api/quick/${encodeURIComponent(id)}`, { method: "DELETE" });
      /** @type {QuickTicket} */
      const ticket = await response.json();
      if (!seated(ticket)) location.hash = "#/";
    } catch (err) {
      toast(errorText(err), "error");
    }
  });
  poll();
  return {
    close: () => {
      closed = true;
      clearInterval(counting);
    },
  };
}
