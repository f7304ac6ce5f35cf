// The game's views are functions of the state: what a spectator and a player are told.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { inviteBanner } from "../../src/conquian/web/static/game/banners.js";
import { handLabel } from "../../src/conquian/web/static/game/hand.js";
import { makeScene } from "../../src/conquian/web/static/game/scene.js";
import { newGame } from "../../src/conquian/web/static/game/state.js";
import { mine, opponent } from "../../src/conquian/web/static/game/table.js";
import { useWords } from "../../src/conquian/web/static/words.js";
import { SERVER, frozen } from "./helpers.js";

afterEach(() => useWords(null));

const AROUND = { deck: "french", touch: false, autoPlay: false, sound: false, checks: {}, joinLink: "http://x/#/join/g" };

/** The scene of the recorded three-player game, as its spectator (or seat `seat`) sees it. */
function sceneOf(seat) {
  const watching = SERVER.watching;
  const state = seat === null ? watching : { ...watching, seat, obs: { ...watching.obs, player: seat, hand: ["Ah"] } };
  const game = frozen({ ...newGame(state.game.id, seat === null ? null : "token", 0), state });
  return makeScene(game, AROUND);
}

/** Every word a view says, its tags and attributes' names left out. */
const said = (html) => html.replace(/<[^>]*>/g, " ") + [...html.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]).join(" ");

test("a spectator of three players is told nothing about 'you'", () => {
  const scene = sceneOf(null);
  assert.equal(scene.watching, true);
  assert.equal(scene.seats, 3);
  const words = [...scene.others.map((p) => opponent(scene, p)), mine(scene), handLabel(scene), inviteBanner(scene.s, AROUND.joinLink)].map(said).join(" ");
  assert.doesNotMatch(words, /\byou(r)?\b/i);
  assert.match(handLabel(scene), /^Player 1's hand$/);
  useWords({ lang: "es", languages: [], plural: SERVER.plural.es, messages: { "on your right, plays after you": "a tu derecha, juega después de ti" } });
  assert.doesNotMatch(scene.others.map((p) => opponent(scene, p)).join(" "), /derecha/);
});

test("a player of three is told who sits on the right and plays next", () => {
  const scene = sceneOf(0);
  assert.equal(scene.watching, false);
  assert.deepEqual(scene.others, [1, 2]);
  assert.match(opponent(scene, 1), /on your right, plays after you/);
  assert.doesNotMatch(opponent(scene, 2), /on your right/);
  assert.equal(handLabel(scene), "Your hand");
  assert.equal(scene.names[0], "Player 1 (you)");
});
