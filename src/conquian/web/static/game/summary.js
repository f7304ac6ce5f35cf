// The summary of a deal that ended, over the table until the player continues: the result in
// words, every table and hand, the check of the shuffle, the review of the player's moves,
// and at the end of the match the rematch, the records and the replays.  Functions of the
// scene, as HTML.

import { card, melds, words } from "../html.js";
import { escapeHTML as esc, t, th, tn } from "../words.js";
import { reviewPart } from "./review.js";
import { playsASeat, seatLink, summaryPending } from "./state.js";

/** @import { LastDeal, MatchFacts } from "../protocol.js" */
/** @import { ShuffleCheck } from "../memory.js" */
/** @import { GameState } from "./state.js" */
/** @import { Scene } from "./scene.js" */

/** What each check of a shuffle says: [passed, failed].
 * @returns {Record<string, [string, string]>} */
const checkWords = () => ({
  commitment: [t("the server's seed and the dealer, revealed now, are the ones it committed to"), t("the server's revealed seed and dealer do not match its commitment")],
  shown: [t("that commitment was shown to you before the deal"), t("the commitment is not the one you were shown before the deal")],
  dealer: [t("it binds who deals"), t("it did not bind who deals (a shuffle drawn by an older version)")],
  seed: [t("your browser's seed was mixed into the shuffle"), t("your browser's seed is not among the seeds of the shuffle")],
  hand: [t("the seeds deal exactly the hand you were dealt"), t("the seeds do not deal the hand you were dealt")],
  algorithm: ["", t("the shuffle's algorithm is not one this page knows")],
  error: ["", t("the check could not be completed")],
});

/**
 * What the check of a finished deal's shuffle found (or that it runs, or cannot run here).
 * @param {LastDeal} last
 * @param {ShuffleCheck | null | undefined} result  undefined or null: not done yet
 */
export function shuffleCheck(last, result) {
  if (!last.fair) return "";
  const commitment = `<code>${esc(last.fair.commitment.slice(0, 16))}…</code>`;
  if (result === undefined || result === null) return `<p class="fair small" id="fair-check">${esc(t("Checking the shuffle…"))}</p>`;
  if (result.ok === null)
    return `<p class="fair small" id="fair-check">${th("This page cannot check the shuffle (browsers allow it only on https pages). Download the deal's record and run {command}.", { command: "<code>conquian verify</code>" })}</p>`;
  const said = checkWords();
  // Translators: joins the checks of the shuffle in one sentence ("…; …").
  const checks = result.checks.map((c) => said[c.what][c.ok ? 0 : 1]).filter(Boolean).join(t("; "));
  const parts = { commitment, checks: esc(checks) };
  // in plain words first; the commitment and each check behind "Details"
  const plainly = result.ok
    ? t("✓ Fair shuffle: your browser checked that nobody could choose the cards.")
    : t("✗ The shuffle check failed: these cards may not have been shuffled fairly.");
  return `<div class="fair small ${result.ok ? "ok" : "bad"}" id="fair-check" data-ok="${result.ok}"><p>${esc(plainly)}</p>
    <details><summary>${esc(t("Details"))}</summary><p>${
      result.ok ? th("✓ Fair shuffle (commitment {commitment}): {checks}.", parts) : th("✗ The shuffle check failed (commitment {commitment}): {checks}.", parts)
    }</p></details></div>`;
}

/**
 * At the end of the match: the rematch (to ask for, or to go to), each deal's record and
 * replay.
 * @param {GameState} game
 */
export function matchOverButtons(game) {
  const s = game.state;
  if (!s) return "";
  const g = s.game;
  if (g.mode === "lesson") {
    // the guided first hand's end: a real game, or the lesson again
    return `<div class="over-buttons"><a class="button primary lesson-done" href="#/">${esc(t("Play a real game"))}</a>
      ${playsASeat(game) && !g.rematch ? `<button class="btn-rematch" data-count="reset">${esc(t("The lesson again"))}</button>` : ""}
      ${g.rematch && playsASeat(game) ? `<a class="button go-rematch" href="${seatLink(game, g.rematch)}">${esc(t("The lesson again"))}</a>` : ""}</div>`;
  }
  const rematch = g.rematch
    ? playsASeat(game)
      ? `<a class="button primary go-rematch" href="${seatLink(game, g.rematch)}">${esc(t("Go to the rematch"))}</a>`
      : `<a class="button" href="#/watch/${g.rematch}">${esc(t("Watch the rematch"))}</a>`
    : playsASeat(game)
      ? `<button class="primary btn-rematch" data-count="keep">${esc(t("Rematch"))}</button>
         <button class="btn-rematch" data-count="reset">${esc(t("Rematch, the count from zero"))}</button>`
      : "";
  const deals = Array.from({ length: s.match.deal }, (_, i) => i + 1);
  const several = deals.length > 1;
  /** @param {number} d */
  // Translators: a button that downloads a deal's record (a file), and one that replays it.
  const record = (d) => esc(several ? t("Record {number}", { number: d }) : t("Record"));
  /** @param {number} d */
  const replay = (d) => esc(several ? t("Replay {number}", { number: d }) : t("Replay"));
  return `<div class="over-buttons">${rematch}
    ${deals.map((d) => `<a class="button" href="/api/games/${g.id}/records/${d}" download>${record(d)}</a> <a class="button replay-link" href="#/replay/${g.id}/${d}">${replay(d)}</a>`).join(" ")}</div>`;
}

/**
 * La cuenta, the count over the matches played one the rematch of the other ("" for one).
 * @param {MatchFacts} match
 * @param {string[]} names
 */
export function countLine(match, names) {
  if (match.count_matches < 2) return "";
  /** @param {number} n */
  const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
  const totals = names.map((n, p) => `${esc(n)} ${signed(match.count[p])}`).join(" · ");
  return `<p class="count-line" id="cuenta-line"><strong>${esc(tn("The count over {count} match", "The count over {count} matches", match.count_matches))}:</strong> ${totals}</p>`;
}

/**
 * The summary of the deal that ended, while it is open.
 * @param {Scene} scene
 */
export function summaryOverlay({ game, names, deck, around }) {
  const s = game.state;
  const last = s && s.last;
  if (!s || !last || !summaryPending(game)) return "";
  const over = s.match.over;
  const hands = last.hands || last.tables.map(() => []);
  const order = [...last.tables.keys()];
  const seatsHtml = order
    .map((p) => {
      const held = hands[p] || [];
      const handLabel = t("{name}'s hand", { name: names[p] });
      return `<div class="final" data-seat="${p}">
        <div class="who"><span class="name">${esc(names[p])}</span>${p === last.winner ? ` <span class="badge">${esc(t("winner"))}</span>` : ""}</div>
        <div class="table final-table${p === last.winner ? " winning" : ""}">${melds(last.tables[p], deck)}</div>
        <div class="final-hand" data-seat="${p}" aria-label="${esc(handLabel)}">${
          held.length ? held.map((c) => card(c, deck)).join("") : `<span class="small">${esc(t("no card left in hand"))}</span>`
        }</div></div>`;
    })
    .join("");
  return `<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="summary-title">
    <div class="summary panel" id="summary">
      <h2 id="summary-title" data-over="${over}">${esc(over ? t("Game over") : t("Deal {number} is over", { number: last.deal }))}</h2>
      ${(s.lesson || []).map((l) => `<p class="lesson-end">${words(l, deck)}</p>`).join("")}
      ${last.lines.map((l) => `<p>${words(l, deck)}</p>`).join("")}
      ${countLine(s.match, names)}
      <div class="finals">${seatsHtml}</div>
      ${shuffleCheck(last, around.checks[last.deal])}
      ${reviewPart(game, last, deck, names)}
      ${over ? matchOverButtons(game) : ""}
      <button id="btn-next" class="${over ? "" : "primary"}">${esc(over ? t("Look at the table") : t("Next deal"))} <kbd>Enter</kbd></button>
    </div></div>`;
}
