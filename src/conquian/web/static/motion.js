// Cards that travel.  Before the table is drawn again, each card on it (found by its
// data-card) and each place cards come from or go to (data-anchor: the stock, a player's
// hidden hand) is measured; after, each card that moved is animated from where it was to
// where it is now (First, Last, Invert, Play), with the Web Animations API, on transforms
// only.  A card that was nowhere on the table comes from the place the page says (the stock,
// the hand of the player who discarded it).  Nothing waits for an animation: the page takes
// input at once, and every animation is over within MOVE_MS.  With the reader's
// prefers-reduced-motion, nothing moves.

export const MOVE_MS = 260;
const STAGGER_MS = 4;
const MAX_DELAY_MS = 36;
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const CARDS = "#hand [data-card], .field .table [data-card], #centre [data-card], #dead [data-card]";

/**
 * Where the cards and the anchors of the page were (snapshot), and the hand's elements.
 * @typedef {object} Snapshot
 * @property {Map<string, DOMRect>} cards
 * @property {Map<string, Element>} hand
 * @property {Map<string, DOMRect>} anchors
 */

/**
 * The animations to start: each card that moved (its element, from, to, delay) and the
 * copies of cards that left for a place the page does not show.
 * @typedef {{moves: [HTMLElement, DOMRect, DOMRect, number][], ghosts: [Element, DOMRect, DOMRect][]}} Plan
 */

/** @typedef {(card: string, el: Element) => string | null} SourceOf */

const reduce = matchMedia("(prefers-reduced-motion: reduce)");
let started = 0;

/** Whether cards move (not with prefers-reduced-motion). */
export const motionOn = () => !reduce.matches;

/** How many animations this page has started (the tests read it). */
export const animationsStarted = () => started;

/** @param {number} n */
function count(n) {
  started += n;
  document.documentElement.dataset.animations = String(started);
}

/** Where every card and every anchor of `root` is now (null when nothing moves).
 *
 * Only reads: every box is read in one go, after one layout at most.
 * @param {HTMLElement} root
 * @returns {Snapshot | null} */
export function snapshot(root) {
  if (!motionOn() || !root.querySelector(".board")) return null;
  const cards = new Map();
  const hand = new Map(); // the hand's elements: a copy of one flies where the page cannot show it
  for (const el of root.querySelectorAll(CARDS)) {
    const card = el instanceof HTMLElement && el.dataset.card;
    if (!card) continue;
    cards.set(card, el.getBoundingClientRect());
    if (el.closest("#hand")) hand.set(card, el);
  }
  const anchors = new Map();
  for (const el of root.querySelectorAll("[data-anchor]")) {
    if (el instanceof HTMLElement && el.dataset.anchor) anchors.set(el.dataset.anchor, el.getBoundingClientRect());
  }
  return { cards, hand, anchors };
}

/**
 * @param {Element} el
 * @param {DOMRect} from
 * @param {DOMRect} to
 */
function fly(el, from, to, delay = 0) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = from.width / to.width || 1;
  const sy = from.height / to.height || 1;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.02) return false;
  el.animate(
    [
      { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
      { transformOrigin: "0 0", transform: "none" },
    ],
    { duration: MOVE_MS - delay, delay, easing: EASE, fill: "backwards" },
  );
  return true;
}

/** What moved since `before` (a snapshot): the boxes of every card of `root` that moved,
 * read in one go (one layout); `start` then animates them (writes only), so that no read
 * waits for a layout a write has made stale.
 *
 * `sourceOf(card, element)` names the anchor a card new on the table comes from (or null);
 * `gone` lists [card, anchor] of cards that left the hand for a place the page does not
 * show (the card passed on in the exchange): a copy of each flies there and is removed.
 * @param {HTMLElement} root
 * @param {Snapshot | null} before
 * @param {SourceOf} sourceOf
 * @param {[string, string][]} [gone]
 * @returns {Plan | null} */
export function measure(root, before, sourceOf, gone = []) {
  if (!before || !motionOn()) return null;
  /** @type {Plan["moves"]} */
  const moves = [];
  let fresh = 0;
  for (const el of root.querySelectorAll(CARDS)) {
    if (!(el instanceof HTMLElement)) continue;
    const card = el.dataset.card;
    if (!card) continue;
    let from = before.cards.get(card);
    let delay = 0;
    if (!from) {
      const anchor = sourceOf(card, el);
      from = anchor ? before.anchors.get(anchor) : undefined;
      if (!from) continue;
      delay = Math.min(MAX_DELAY_MS, STAGGER_MS * fresh++);
    }
    const to = el.getBoundingClientRect();
    if (to.width) moves.push([el, from, to, delay]);
  }
  /** @type {Plan["ghosts"]} */
  const ghosts = [];
  for (const [card, anchor] of gone) {
    const from = before.cards.get(card);
    const target = root.querySelector(`[data-anchor="${anchor}"]`);
    const el = before.hand.get(card);
    if (from && target && el) ghosts.push([el, from, target.getBoundingClientRect()]);
  }
  return { moves, ghosts };
}

/** Start the animations `measure` found; how many.
 * @param {Plan | null} plan */
export function start(plan) {
  if (!plan) return 0;
  let n = 0;
  for (const [el, from, to, delay] of plan.moves) if (fly(el, from, to, delay)) n++;
  for (const [el, from, to] of plan.ghosts) {
    const ghost = document.createElement("div");
    ghost.className = "flying";
    ghost.append(el.isConnected ? el.cloneNode(true) : el);
    ghost.style.left = `${from.left}px`;
    ghost.style.top = `${from.top}px`;
    ghost.style.width = `${from.width}px`;
    ghost.style.height = `${from.height}px`;
    document.body.append(ghost);
    const moved = ghost.animate(
      [
        { transform: "none", opacity: 1 },
        { transform: `translate(${to.left - from.left}px, ${to.top - from.top}px) scale(0.5)`, opacity: 0.2 },
      ],
      { duration: MOVE_MS, easing: EASE, fill: "forwards" },
    );
    moved.onfinish = moved.oncancel = () => ghost.remove();
    n++;
  }
  count(n);
  return n;
}

/** Animate every card of `root` that moved since `before` (measure, then start).
 * @param {HTMLElement} root
 * @param {Snapshot | null} before
 * @param {SourceOf} sourceOf
 * @param {[string, string][]} [gone] */
export const play = (root, before, sourceOf, gone = []) => start(measure(root, before, sourceOf, gone));

/** The card offered round the table leans toward the player it is offered to now: its
 * boxes are read now, and the returned function starts the animation.
 * @param {Element | null} el
 * @param {Element | null} target
 * @returns {() => number} */
export function leaning(el, target) {
  if (!motionOn() || !el || !target) return () => 0;
  const a = el.getBoundingClientRect();
  const b = target.getBoundingClientRect();
  const dx = (b.left + b.width / 2 - (a.left + a.width / 2)) * 0.12;
  const dy = (b.top + b.height / 2 - (a.top + a.height / 2)) * 0.12;
  return () => {
    el.animate(
      [{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? 4 : -4}deg)` }, { transform: "none" }],
      { duration: MOVE_MS, easing: "ease-in-out" },
    );
    count(1);
    return 1;
  };
}

/** The card offered round the table leans toward the player it is offered to now.
 * @param {Element | null} el
 * @param {Element | null} target */
export const lean = (el, target) => leaning(el, target)();
