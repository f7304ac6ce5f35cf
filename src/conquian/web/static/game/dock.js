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
  if (now.match.over && now.match.abandoned !== null && now.match.abandoned !== undefined) {
    const gone = g.names[now.match.abandoned];
    const winner = g.names[1 - now.match.abandoned];
    return esc(t("{name} left the table; {winner} claimed the match.", { name: gone, winner }));
  }
  if (now.match.over) return esc(t("The match is over."));
  if (me !== null && !g.joined.every(Boolean)) return esc(seatWords().waitingFor(g.free));
  if (now.obs.legal_actions.length) return words(now.situation, deck);
  const who = now.obs.to_act;
  if (who === me) return esc(t("Your move is being sent…"));
  const name = g.names[who] || t("your opponent");
  return esc(g.kinds[who] === "bot" ? t("Waiting: {name} is thinking…", { name }) : t("Waiting: {name} to play…", { name }));
}

/** The keys of the move buttons in English, and the buttons shown together. */
const ENGLISH_KEYS = { take: "T", decline: "P", pass: "P", lay: "L", layoff: "O", force: "F", noforce: "N", discard: "D", exchange: "X", hint: "H" };
/** @type {(keyof typeof ENGLISH_KEYS)[][]} */
const TOGETHER = [["take", "decline", "layoff", "hint"], ["take", "pass", "lay", "layoff", "hint"], ["force", "noforce", "hint"], ["discard", "hint"], ["exchange", "hint"]];

/**
 * The key of each move button in the language in use (in Spanish T tomar, P pasar, P pagar,
 * C cambiar, I pista...): each translation ends with its letter; where a language's letters
 * are not one character each, or two buttons shown together would share one, the English
 * ones.
 * @returns {typeof ENGLISH_KEYS}
 */
export function moveKeys() {
  const said = {
    // Translators: the keyboard key of each move button: keep the text before the colon, and
    // put after it the one letter a player of your language would press (it may differ from
    // the English one; buttons shown together need different letters).
    take: t("Key of Take: T"),
    decline: t("Key of Decline: P"),
    pass: t("Key of Pass: P"),
    lay: t("Key of Lay & pass: L"),
    layoff: t("Key of Lay on a meld: O"),
    force: t("Key of Force: F"),
    noforce: t("Key of Let it go: N"),
    discard: t("Key of Discard: D"),
    exchange: t("Key of Pass it on: X"),
    hint: t("Key of Hint: H"),
  };
  const keys = /** @type {typeof ENGLISH_KEYS} */ (
    Object.fromEntries(Object.entries(said).map(([move, text]) => [move, text.slice(text.lastIndexOf(":") + 1).trim().toUpperCase()]))
  );
  const single = Object.values(keys).every((k) => [...k].length === 1 && k !== " ");
  const apart = TOGETHER.every((group) => new Set(group.map((move) => keys[move])).size === group.length);
  return single && apart ? keys : ENGLISH_KEYS;
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
  const key = moveKeys();
  const outs = s.takes.filter((f) => goesOut(s, f)).length;
  const take = !outs
    ? s.obs.phase === "forced" ? t("Take it (forced)") : t("Take")
    : outs === s.takes.length ? t("Take and go out") : t("Take (you can go out)");
  if (kinds.has("take")) b("btn-take", take, key.take, outs ? "primary out" : "primary");
  // Translators: refuse the card offered to you (pasar).
  if (kinds.has("decline")) b("btn-decline", t("Decline"), key.decline);
  if (kinds.has("pass")) {
    // Translators: let the card you turned from the stock go on (pasar).
    if (legal.includes("pass")) b("btn-pass", t("Pass"), key.pass);
    if (s.lays.length) b("btn-lay", t("Lay & pass"), key.lay);
  }
  // Translators: lay the centre card on another player's meld (rules that allow it).
  if (s.layoffs && s.layoffs.length) b("btn-layoff", t("Lay on a meld"), key.layoff);
  if (kinds.has("force")) b("btn-force", t("Force"), key.force, "primary");
  // Translators: do not force the player who refused the card.
  if (kinds.has("noforce")) b("btn-noforce", t("Let it go"), key.noforce);
  if (kinds.has("discard")) b("btn-discard", t("Discard"), key.discard, "primary");
  // Translators: give the picked card in the exchange (el cambio).
  if (kinds.has("exchange")) b("btn-exchange", t("Pass it on"), key.exchange, "primary");
  if (legal.length && s.game.hints) b("btn-hint", t("Hint"), key.hint, "ghost");
  return buttons.join("");
}

/**
 * The list of the ways to lay the cards, to choose one (by a click or its number).
 * @param {Scene} scene
 */
export function chooser({ game, obs, deck, names }) {
  if (!game.chooser) return "";
  const hint = game.hint;
  // Translators: a badge on the way to lay the cards that the hint suggests.
  const badge = esc(t("hint"));
  // Translators: a badge on a way to take the centre card that lays every card of the hand.
  const out = esc(t("goes out"));
  const outBadge = ` <span class="badge out">${out}</span>`;
  /** @param {{text: string}} a */
  const hintBadge = (a) => (hint && hint.action === a.text ? ` <span class="badge">${badge}</span>` : "");
  const layoff = game.chooser.word === "layoff";
  const title = layoff
    ? th("Choose whose meld to lay {card} on", { card: chip(obs.centre || "", deck) })
    : obs.centre
      ? th("Choose how to lay {card}", { card: chip(obs.centre, deck) })
      : esc(t("Choose how to lay the cards"));
  /** @param {{seat?: number}} a */
  const whose = (a) => (a.seat === undefined ? "" : `<span class="whose">${esc(t("{name}'s meld:", { name: names[a.seat] }))}</span> `);
  return `<div class="chooser" role="dialog" aria-label="${esc(t("Choose how to lay the cards"))}"><h3>${title}</h3><ol>${game.chooser.actions
    .map((a, i) => `<li><button class="choice${hint && hint.action === a.text ? " hinted" : ""}${a.out ? " out" : ""}" data-action="${esc(a.text)}" data-out="${!!a.out}"><kbd>${i + 1}</kbd> ${whose(a)}${a.melds.map((m) => `<span class="mini-meld">${m.map((c) => chip(c, deck)).join("")}</span>`).join("")}${a.out ? outBadge : ""}${hintBadge(a)}</button></li>`)
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
 * What the guided first hand says now (the learner's page only; "" elsewhere).
 * @param {Scene} scene
 */
export function lessonBox({ s, deck }) {
  const lines = s.lesson || [];
  if (!lines.length) return "";
  return `<div class="lesson" id="lesson" role="status">${lines.map((l) => `<p>${words(l, deck)}</p>`).join("")}</div>`;
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
