// A quick-match game's clock on the table: beside the name of the person it waits for, the
// time left for his decision (his 30 s, then his bank), counting down each second; beside a
// person who is away, that a computer plays for him; beside one who lost his connection, the
// grace he has left to come back; and, at a table of two whose other player's grace ran out,
// the offer to claim the match.  The server keeps the clock and makes what falls due
// (web/clock.py, web/absence.py); the page only shows it.

import { escapeHTML as esc, t } from "../words.js";

/** @import { ClockPart, StateMessage } from "../protocol.js" */

/** Each clock received, with when it is due by this page's own clock (ms).
 * @type {WeakMap<ClockPart, number>} */
const dueHere = new WeakMap();

/** @param {ClockPart} clock */
function localDue(clock) {
  let due = dueHere.get(clock);
  if (due === undefined) {
    // the server's time when it sent this, against this page's now: their clocks may differ
    due = Date.now() + ((clock.due || 0) - clock.now) * 1000;
    dueHere.set(clock, due);
  }
  return due;
}

/** Seconds as m:ss. @param {number} seconds */
export const clockText = (seconds) => {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/**
 * What the clock says beside seat `p`'s name (HTML; "" for nothing).
 * @param {ClockPart | undefined} clock
 * @param {number} p
 */
export function clockBadge(clock, p) {
  if (!clock) return "";
  const away = clock.away[p] ? ` <span class="badge away">${esc(t("away: a computer plays for this player"))}</span>` : goneBadge(clock, p);
  if (clock.seat !== p || clock.due === null) return away;
  const due = localDue(clock);
  const left = (due - Date.now()) / 1000;
  const label = esc(t("Time left"));
  const low = left < 10 ? " low" : "";
  return ` <span class="clock${low}" data-due="${due}" role="timer" aria-label="${label}">${clockText(left)}</span>${away}`;
}

/**
 * Beside a person with no connection: the grace he has left to come back, counting down;
 * once it ran out, that he left (HTML; "" while he is here).
 * @param {ClockPart} clock
 * @param {number} p
 */
function goneBadge(clock, p) {
  const ends = clock.gone ? clock.gone[p] : null;
  if (ends === null || ends === undefined) return "";
  if (clock.left[p]) return ` <span class="badge away gone">${esc(t("left the table"))}</span>`;
  const due = Date.now() + (ends - clock.now) * 1000;
  const label = esc(t("Time left to come back"));
  return ` <span class="badge away gone">${esc(t("disconnected"))} <span class="clock" data-due="${due}" role="timer" aria-label="${label}">${clockText((due - Date.now()) / 1000)}</span></span>`;
}

/**
 * Over the table of two, to the player whose opponent's grace ran out: he may claim the
 * match (a win) or wait, the clock making the other's decisions meanwhile (HTML).
 * @param {StateMessage} s
 */
export function claimBanner(s) {
  const clock = s.clock;
  if (!clock || !clock.left || s.seat === null || s.match.over || s.game.names.length !== 2) return "";
  const other = 1 - s.seat;
  if (!clock.left[other]) return "";
  const said = t("{name} left the table. You can claim the match (it counts as a win) or wait: meanwhile the clock plays for him.", { name: s.game.names[other] });
  return `<div class="banner claim" id="claim-banner">${esc(said)} <button type="button" class="primary" id="claim-btn">${esc(t("Claim the match"))}</button></div>`;
}

/** Count the clocks on the page down, each second. */
function tick() {
  for (const el of document.querySelectorAll(".clock[data-due]")) {
    const left = (Number(el.getAttribute("data-due")) - Date.now()) / 1000;
    el.textContent = clockText(left);
    el.classList.toggle("low", left < 10);
  }
}

if (typeof window !== "undefined") setInterval(tick, 1000);
