// A quick-match game's clock on the table: beside the name of the person it waits for, the
// time left for his decision (his 30 s, then his bank), counting down each second; beside a
// person who is away, that a computer plays for him.  The server keeps the clock and makes
// what falls due (web/clock.py); the page only shows it.

import { escapeHTML as esc, t } from "../words.js";

/** @import { ClockPart } from "../protocol.js" */

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
  const away = clock.away[p] ? ` <span class="badge away">${esc(t("away: a computer plays for this player"))}</span>` : "";
  if (clock.seat !== p || clock.due === null) return away;
  const due = localDue(clock);
  const left = (due - Date.now()) / 1000;
  const label = esc(t("Time left"));
  const low = left < 10 ? " low" : "";
  return ` <span class="clock${low}" data-due="${due}" role="timer" aria-label="${label}">${clockText(left)}</span>${away}`;
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
