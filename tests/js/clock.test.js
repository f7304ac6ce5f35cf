// A quick-match game's clock on the table: the time left beside the name of the person it
// waits for, counted from the server's time; a person away is said to be played for.

import assert from "node:assert/strict";
import { test } from "node:test";

import { clockBadge, clockText } from "../../src/conquian/web/static/game/clock.js";

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
