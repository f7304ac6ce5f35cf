// The dock under the table: what to do now (the prompt), the buttons of the moves, the
// chooser of the ways to lay the cards, the hint, and how to use the keys.  Functions of the
// scene, as HTML (the hand itself: game/hand.js).

import { chip, words } from "../html.js";
import { seatWords } from "../seats.js";
import { escapeHTML as esc, t, th } from "../words.js";
import { dealt, goesOut } from "./state.js";

/** @import { GameState } from "./state.js" */
/** @import { Scene } from "./scene.js" */

/**
 * What the player is told to do (or is waiting for) now.
 * @param {Scene} scene
 */
export function prompt({ s, game, deck }) {
  if (s.ended) return esc(t("The deal is over."));
  const now = dealt(game.state) || s;
  const g = now.game;
  const me = now.seat;
  if (now.match.over) return esc(t("The match is over."));
  if (me !== null && !g.joined.every(Boolean)) return esc(seatWords().waitingFor(g.free));
  if (now.obs.legal_actions.length) return words(now.situation, deck);
  const who = now.obs.to_act;
  if (who === me) return esc(t("Your move is being sent…"));
  const name = g.names[who] || t("your opponent");
  return esc(g.kinds[who] === "bot" ? t("Waiting: {name} is thinking…", { name }) : t("Waiting: {name} to play…", { name }));
}

/**
 * The buttons of the moves this player may make now, each with its key.
 * @param {GameState} game
 */
export function moveButtons(game) {
  const s = dealt(game.state);
  if (!s) return "";
  const legal = s.obs.legal_actions;
  const kinds = new Set(legal.map((a) => a.split(" ")[0]));
  /** @type {string[]} */
  const buttons = [];
  /**
   * @param {string} id
   * @param {string} label
   * @param {string} key
   */
  const b = (id, label, key, cls = "") => buttons.push(`<button id="${id}" class="${cls}" data-key="${key}" ${game.pending || game.offline ? "disabled" : ""}>${esc(label)} <kbd>${key}</kbd></button>`);
  // Translators: the buttons of a move, each with its key (the same in every language).
  const outs = s.takes.filter((f) => goesOut(s, f)).length;
  const take = !outs
    ? s.obs.phase === "forced" ? t("Take it (forced)") : t("Take")
    : outs === s.takes.length ? t("Take and go out") : t("Take (you can go out)");
  if (kinds.has("take")) b("btn-take", take, "T", outs ? "primary out" : "primary");
  // Translators: refuse the card offered to you (pasar).
  if (kinds.has("decline")) b("btn-decline", t("Decline"), "P");
  if (kinds.has("pass")) {
    // Translators: let the card you turned from the stock go on (pasar).
    if (legal.includes("pass")) b("btn-pass", t("Pass"), "P");
    if (s.lays.length) b("btn-lay", t("Lay & pass"), "L");
  }
  if (kinds.has("force")) b("btn-force", t("Force"), "F", "primary");
  // Translators: do not force the player who refused the card.
  if (kinds.has("noforce")) b("btn-noforce", t("Let it go"), "N");
  if (kinds.has("discard")) b("btn-discard", t("Discard"), "D", "primary");
  // Translators: give the picked card in the exchange (el cambio).
  if (kinds.has("exchange")) b("btn-exchange", t("Pass it on"), "X", "primary");
  if (legal.length && s.game.hints) b("btn-hint", t("Hint"), "H", "ghost");
  return buttons.join("");
}

/**
 * The list of the ways to lay the cards, to choose one (by a click or its number).
 * @param {Scene} scene
 */
export function chooser({ game, obs, deck }) {
  if (!game.chooser) return "";
  const hint = game.hint;
  // Translators: a badge on the way to lay the cards that the hint suggests.
  const badge = esc(t("hint"));
  // Translators: a badge on a way to take the centre card that lays every card of the hand.
  const out = esc(t("goes out"));
  const outBadge = ` <span class="badge out">${out}</span>`;
  /** @param {{text: string}} a */
  const hintBadge = (a) => (hint && hint.action === a.text ? ` <span class="badge">${badge}</span>` : "");
  return `<div class="chooser" role="dialog" aria-label="${esc(t("Choose how to lay the cards"))}"><h3>${obs.centre ? th("Choose how to lay {card}", { card: chip(obs.centre, deck) }) : esc(t("Choose how to lay the cards"))}</h3><ol>${game.chooser.actions
    .map((a, i) => `<li><button class="choice${hint && hint.action === a.text ? " hinted" : ""}${a.out ? " out" : ""}" data-action="${esc(a.text)}" data-out="${!!a.out}"><kbd>${i + 1}</kbd> ${a.melds.map((m) => `<span class="mini-meld">${m.map((c) => chip(c, deck)).join("")}</span>`).join("")}${a.out ? outBadge : ""}${hintBadge(a)}</button></li>`)
    .join("")}</ol><button id="btn-cancel" class="ghost">${esc(t("Cancel"))} <kbd>Esc</kbd></button></div>`;
}

/**
 * The hint asked for: the move, and why.
 * @param {Scene} scene
 */
export function hint({ game, deck }) {
  const h = game.hint;
  if (!h) return "";
  const why = h.why_words ? words(h.why_words, deck) : esc(h.why || "");
  return `<div class="hint"><strong>${esc(t("Hint:"))}</strong> ${words(h.words, deck)}${why ? ` <span class="small">— ${why}</span>` : ""}</div>`;
}

/**
 * How to pick cards and make a move, on this screen.
 * @param {Scene} scene
 */
export function keys({ watching, obs, s, around }) {
  if (watching || !(obs.hand || []).length || s.ended) return "";
  const said = around.touch
    ? t("Tap cards to pick them, then a button; drag a card onto the centre to discard it.")
    : t("Pick cards with a click (or arrow keys and Space), then press a button or its key.");
  return `<p class="small keys">${esc(said)}</p>`;
}
