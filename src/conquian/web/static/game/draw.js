// Drawing the game screen: the frame of the table once (again only when the seats change),
// then each region whose words or cards changed (what did not change stays as it is in the
// page), the hand's buttons, the log (the new lines added), the marks of the last moves, the
// focus; then the cards that moved travel from where they were (motion.js).

import { leaning, measure as measureMotion, snapshot, start as startMotion } from "../motion.js";
import { app } from "../page.js";
import { titleOf, versus } from "../seats.js";
import { escapeHTML as esc, t } from "../words.js";
import { inviteBanner, offlineBanner, waitingRoom, watchingBanner } from "./banners.js";
import { claimBanner } from "./clock.js";
import { chooser, hint, keys, lessonBox, moveButtons, prompt } from "./dock.js";
import { handClass, handFaces, handHTML, handLabel } from "./hand.js";
import { makeScene } from "./scene.js";
import { log, noMoves, options, score } from "./side.js";
import { summaryOverlay } from "./summary.js";
import { middle, mine, opponent } from "./table.js";

/**
 * @import { Card, StateMessage } from "../protocol.js"
 * @import { GameState } from "./state.js"
 * @import { Scene, Surroundings } from "./scene.js"
 */

/**
 * The frame of the table as drawn: its section, the element of each region, and what each
 * region holds (to draw again only what changed).
 * @typedef {object} Frame
 * @property {HTMLElement} section
 * @property {string} layout  the game, the seats and this player's seat it was made for
 * @property {Record<string, HTMLElement>} regions
 * @property {Record<string, string>} html
 * @property {string | null} faces  the hand's cards as drawn (handFaces)
 * @property {string | null} deck  the deck they were drawn in
 */

/**
 * Where a card new on the table comes from (an anchor of motion.js): the stock, the hand of
 * the player who laid or discarded it, the player who passed it on in the exchange.
 * @param {Scene} scene
 * @param {Card} card
 * @param {Element} el
 * @returns {string | null}
 */
function sourceOf({ obs, me, seats, moves }, card, el) {
  if (el.closest("#hand")) {
    const got = obs.exchange && obs.exchange.received;
    return got === card ? `backs-${(me + seats - 1) % seats}` : "stock";
  }
  if (el.closest("#centre")) {
    const by = Object.values(moves).find((e) => e.card === card && e.verb === "discard");
    return by ? `backs-${by.player}` : "stock";
  }
  const table = el.closest(".table[data-seat]");
  if (table instanceof HTMLElement) return Number(table.dataset.seat) === me ? "hand" : `backs-${table.dataset.seat}`;
  return null;
}

/**
 * Each region's HTML, as the scene has it (the hand and the log apart: drawn with care).
 * @param {Scene} scene
 * @returns {Record<string, string>}
 */
function regionsOf(scene) {
  const { game, s, watching, others } = scene;
  /** @type {Record<string, string>} */
  const regions = {
    banners: `${offlineBanner(game)}${watching ? watchingBanner() : ""}${inviteBanner(/** @type {StateMessage} */ (game.state), scene.around.joinLink)}${claimBanner(/** @type {StateMessage} */ (game.state))}`,
    middle: middle(scene),
    me: mine(scene),
    prompt: prompt(scene),
    toggle: `<button type="button" id="btn-side" class="ghost side-toggle" aria-expanded="${!!game.sideOpen}" aria-controls="side"><span class="long">${esc(t("Moves and score"))}</span><span class="short">${esc(t("Moves"))}</span></button>`,
    hint: hint(scene),
    lesson: lessonBox(scene),
    actions: watching || s.ended ? "" : moveButtons(game),
    chooser: chooser(scene),
    keys: keys(scene),
    score: score(scene),
    options: options(scene),
    "log-head": esc(t("Moves")),
    overlay: summaryOverlay(scene),
  };
  for (const p of others) regions[`opp-${p}`] = opponent(scene, p);
  return regions;
}

/**
 * A drawer of one game screen: it remembers the frame it drew and the card it last showed in
 * the centre (to lean it toward the player it is offered to next).
 */
export function gameDrawer() {
  /** @type {Frame | null} */
  let frame = null;
  /** @type {{centre: Card | null, toAct: number} | null} */
  let drawn = null;

  /**
   * The frame of the table: the places of the regions (a region that is a wrapper only,
   * .region, has no box of its own).  Made again when the seats change, or when another
   * screen was drawn meanwhile.
   * @param {Scene} scene
   * @returns {Frame}
   */
  const tableFrame = ({ game, seats, me, watching, others }) => {
    const layout = `${game.id}|${seats}|${me}|${watching}`;
    const section = document.getElementById("game-view");
    if (frame && frame.section === section && section && frame.layout === layout) return frame;
    /** @param {string} name */
    const region = (name) => `<div class="region" data-region="${name}"></div>`;
    const opps = others.map((p) => region(`opp-${p}`)).join("");
    app.innerHTML = `
  <section class="game" id="game-view">
    <div class="board">
      <div class="field">
        ${region("banners")}
        ${seats > 2 ? `<div class="others${seats > 3 ? " many" : ""}">${opps}</div>` : opps}
        ${region("middle")}
        ${region("me")}
      </div>
      <div class="dock" id="dock">
        ${region("lesson")}
        <div class="prompt-row"><div class="prompt" id="prompt" aria-live="polite" data-region="prompt"></div>${region("toggle")}</div>
        ${region("hint")}
        <div class="actions" id="actions" data-region="actions"></div>
        ${region("chooser")}
        <div class="hand" id="hand" data-anchor="hand" data-region="hand"></div>
        ${region("keys")}
      </div>
    </div>
    <aside class="side" id="side">
      ${region("score")}
      ${region("options")}
      <div class="panel log"><h2 data-region="log-head"></h2><div class="log-scroll"><ol id="log" data-region="log"></ol></div></div>
    </aside>
    ${region("overlay")}
  </section>`;
    const fresh = /** @type {HTMLElement} */ (document.getElementById("game-view"));
    /** @type {Record<string, HTMLElement>} */
    const regions = {};
    for (const el of fresh.querySelectorAll("[data-region]")) {
      if (el instanceof HTMLElement && el.dataset.region) regions[el.dataset.region] = el;
    }
    frame = { section: fresh, layout, regions, html: {}, faces: null, deck: null };
    return frame;
  };

  /**
   * Draw the game (a state must have come).  Returns the scene drawn, or null for the
   * waiting room before the first deal.
   * @param {GameState} game
   * @param {Surroundings} around
   * @returns {Scene | null}
   */
  return function drawGame(game, around) {
    const state = game.state;
    if (!state) return null;
    if (!state.obs) {
      document.title = t("Conquian — {title}", { title: titleOf(state.game) });
      app.innerHTML = waitingRoom(game, state, around.joinLink);
      app.dataset.seq = String(state.seq);
      return null;
    }
    document.body.classList.add("playing");
    const before = snapshot(app);
    const scene = makeScene(game, around);
    const { s, obs, me, seats, watching, moves, deck } = scene;
    document.title = t("Conquian — {title}", { title: versus(s.game.names.map((n) => n || "?")) });
    const hand = obs.hand || [];
    const discardPhase = obs.legal_actions.some((a) => a.startsWith("discard") || a.startsWith("exchange"));
    const regions = regionsOf(scene);
    const faces = handFaces(scene);
    const handNow = handHTML(scene);
    const logNow = log(scene);

    // Draw: the frame of the table once (again only when the seats change), then each region
    // whose words or cards changed; what did not change stays as it is in the page.
    const shown = tableFrame(scene);
    const sectionClass = `game${watching ? " watching" : ""}${game.sideOpen ? " side-open" : ""}`;
    if (shown.section.className !== sectionClass) shown.section.className = sectionClass;
    const changed = new Set();
    for (const [name, html] of Object.entries(regions)) {
      if (shown.html[name] === html) continue;
      shown.html[name] = html;
      shown.regions[name].innerHTML = html;
      changed.add(name);
    }
    // the hand: its cards, each drawn once; a card picked or hinted changes only its button
    const handBox = shown.regions.hand;
    const handClassName = `hand${discardPhase ? " discarding" : ""}`;
    if (handBox.className !== handClassName) handBox.className = handClassName;
    const label = handLabel(scene);
    if (handBox.getAttribute("aria-label") !== label) handBox.setAttribute("aria-label", label);
    if (faces !== null && shown.faces === faces && deck === shown.deck) {
      for (const btn of handBox.children) {
        if (!(btn instanceof HTMLElement)) continue;
        const c = btn.dataset.card || "";
        const cls = handClass(game, c);
        if (btn.dataset.dragged || btn.classList.contains("dragging")) {
          if (game.pending) continue; // dropped: it stays where it was dropped until the answer
          btn.style.transform = "";
          delete btn.dataset.dragged;
        }
        if (btn.className !== cls) btn.className = cls;
        const pressed = String(game.selected.has(c));
        if (btn.getAttribute("aria-pressed") !== pressed) btn.setAttribute("aria-pressed", pressed);
      }
    } else if (shown.html.hand !== handNow) {
      handBox.innerHTML = handNow;
      changed.add("hand");
    }
    shown.html.hand = handNow;
    shown.faces = faces;
    shown.deck = deck;
    // the log: the new lines added after the old ones
    const logBox = shown.regions.log;
    if (shown.html.log !== logNow) {
      const old = shown.html.log;
      if (old && old !== noMoves() && logNow.startsWith(old)) logBox.insertAdjacentHTML("beforeend", logNow.slice(old.length));
      else logBox.innerHTML = logNow;
      shown.html.log = logNow;
      changed.add("log");
    }
    app.dataset.seq = String(s.seq);
    app.dataset.deal = String(s.match.deal);
    // the last move of every other player, marked until this player moves
    const marked = new Set(Object.values(moves).map((e) => e.card).filter(Boolean));
    for (const el of shown.section.querySelectorAll(".field .last-move")) {
      if (!(el instanceof HTMLElement && marked.has(el.dataset.card || null))) el.classList.remove("last-move");
    }
    for (const c of marked) shown.section.querySelectorAll(`.field [data-card="${c}"]`).forEach((el) => el.classList.add("last-move"));
    // the button to press next has the focus (before the boxes are read: one layout for both)
    const next = document.getElementById("btn-next");
    const choice = document.querySelector(".choice");
    if (changed.has("overlay") && next) {
      next.focus({ preventScroll: true }); // Enter goes on; the dialog opens at its headline
      document.getElementById("summary-title")?.scrollIntoView({ block: "nearest" });
    }
    else if (changed.has("chooser") && game.chooser && choice instanceof HTMLElement) choice.focus();
    // the cards that moved travel from where they were: every box is read (one layout), then
    // the animations start
    const passed = obs.exchange && obs.exchange.passed;
    /** @type {[Card, string][]} */
    const gone = before && passed && before.hand.has(passed) && !hand.includes(passed) ? [[passed, `backs-${(me + 1) % seats}`]] : [];
    const plan = measureMotion(app, before, (c, el) => sourceOf(scene, c, el), gone);
    let leanStart = null;
    if (before && drawn && obs.centre && drawn.centre === obs.centre && drawn.toAct !== obs.to_act) {
      const target = obs.to_act === me ? handBox : document.querySelector(`.player.opp[data-seat="${obs.to_act}"]`);
      leanStart = leaning(document.querySelector("#centre .card"), target);
    }
    startMotion(plan);
    if (leanStart) leanStart();
    drawn = { centre: obs.centre, toAct: obs.to_act };
    return scene;
  };
}
