// A quick-match game's clock on the table: the time left beside the name of the person it
// waits for, counted from the server's time; a person away is said to be played for.

import assert from "node:assert/strict";
import { test } from "node:test";

import { claimBanner, clockBadge, clockText } from "../../src/conquian/web/static/game/clock.js";

test("the time left is written as minutes and seconds, never below zero", () => {
  assert.equal(clockText(90), "1:30");
  assert.equal(clockText(9.2), "0:10");
  assert.equal(clockText(-3), "0:00");
});

test("the clock is beside the person it waits for only, from the server's time", () => {
  // the server's clock is 1000 s behind this page's: the time left is what the server says
  const clock = { seat: 1, due: 1090, now: 1000, banks: [60, 60], away: [true, false] };
  const badge = clockBadge(clock, 1);
  assert.match(badge, /class="clock" data-due="\d+"/);
  assert.match(badge, />1:30</);
  assert.doesNotMatch(badge, /away/);
  const other = clockBadge(clock, 0);
  assert.doesNotMatch(other, /class="clock/);
  assert.match(other, /class="badge away"/); // a computer plays for seat 0
  assert.equal(clockBadge(undefined, 0), "");
  assert.equal(clockBadge({ ...clock, seat: -2, due: null, away: [false, false] }, 1), "");
  // ten seconds or fewer left: shown as running low
  assert.match(clockBadge({ ...clock, due: 1005 }, 1), /class="clock low"/);
});

test("a person with no connection: his grace counting down, then that he left", () => {
  const clock = { seat: 0, due: 1090, now: 1000, banks: [60, 60], away: [false, false], gone: [null, 1045], left: [false, false] };
  const badge = clockBadge(clock, 1);
  assert.match(badge, /class="badge away gone"/);
  assert.match(badge, /class="clock" data-due="\d+"[^>]*>0:45</); // 45 s left to come back
  assert.doesNotMatch(clockBadge(clock, 0), /gone/); // Ana is here
  const ran = clockBadge({ ...clock, left: [false, true] }, 1);
  assert.match(ran, /class="badge away gone"/);
  assert.doesNotMatch(ran, /class="clock/); // no time left to count
  // a computer plays for him once away: that is said instead
  assert.doesNotMatch(clockBadge({ ...clock, away: [false, true] }, 1), /gone/);
});

test("the claim is offered to the other player of a table of two once the grace ran out", () => {
  const clock = { seat: 1, due: 1090, now: 1000, banks: [60, 60], away: [false, false], gone: [null, 990], left: [false, true] };
  const state = { seat: 0, clock, match: { over: false }, game: { names: ["Ana", "Ben"] } };
  const banner = claimBanner(/** @type {any} */ (state));
  assert.match(banner, /id="claim-btn"/);
  assert.match(banner, /Ben/);
  assert.equal(claimBanner(/** @type {any} */ ({ ...state, seat: null })), ""); // a spectator
  assert.equal(claimBanner(/** @type {any} */ ({ ...state, seat: 1 })), ""); // Ben himself
  assert.equal(claimBanner(/** @type {any} */ ({ ...state, match: { over: true } })), "");
  const three = { ...state, game: { names: ["Ana", "Ben", "Cy"] } }; // a computer takes his seat there
  assert.equal(claimBanner(/** @type {any} */ (three)), "");
  const within = { ...state, clock: { ...clock, left: [false, false] } };
  assert.equal(claimBanner(/** @type {any} */ (within)), "");
});
