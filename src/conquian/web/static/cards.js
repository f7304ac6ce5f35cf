// Card faces drawn as SVG: the French deck (A-7, J, Q, K of spades, hearts, diamonds,
// clubs) and the Spanish deck (1-7, 10 sota, 11 caballo, 12 rey of espadas, copas,
// oros, bastos).  Cards arrive from the server in canonical French text ("Kh").  The cards'
// names (for screen readers) are in the page's language; the Spanish deck's are its own.

import { t } from "./words.js";

/** @import { Card } from "./protocol.js" */

/** The deck the cards are drawn in (a rules' "a_to_10" deck is drawn French).
 * @typedef {"french" | "spanish"} Deck */

const RANKS = "A234567JQK";
const SUITS = "shdc";
const FRENCH_RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"];
const SPANISH_RANKS = ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"];
const FRENCH_SYMBOLS = ["\u2660", "\u2665", "\u2666", "\u2663"];
// Translators: the French suits and face cards, in a card's name: "king of hearts".
const frenchNames = () => [t("spades"), t("hearts"), t("diamonds"), t("clubs")];
const rankNames = () => [t("ace"), "2", "3", "4", "5", "6", "7", t("jack"), t("queen"), t("king")];
const SPANISH_NAMES = ["espadas", "copas", "oros", "bastos"];
const SPANISH_RANK_NAMES = ["as", "2", "3", "4", "5", "6", "7", "sota", "caballo", "rey"];
const FRENCH_COLOURS = ["#1b1b1f", "#c8102e", "#c8102e", "#1b1b1f"];
const SPANISH_COLOURS = ["#1f4fa8", "#c8102e", "#b8860b", "#2e7d32"];

/** Rank (0-9) and suit (0-3) of a card token such as "Kh".
 * @param {Card} token
 * @example parseCard("Kh") // { rank: 9, suit: 1 }
 */
export function parseCard(token) {
  return { rank: RANKS.indexOf(token[0]), suit: SUITS.indexOf(token[1]) };
}

/** The card as a person reads it in the chosen deck ("K♥", "12 copas").
 * @param {Card} token
 * @param {Deck} deck
 */
export function cardLabel(token, deck) {
  const { rank, suit } = parseCard(token);
  if (deck === "spanish") return `${SPANISH_RANKS[rank]} ${SPANISH_NAMES[suit]}`;
  return FRENCH_RANKS[rank] + FRENCH_SYMBOLS[suit];
}

/** The card in words, for screen readers ("king of hearts", "rey de copas").
 * @param {Card} token
 * @param {Deck} deck
 */
export function cardName(token, deck) {
  const { rank, suit } = parseCard(token);
  if (deck === "spanish") return `${SPANISH_RANK_NAMES[rank]} de ${SPANISH_NAMES[suit]}`;
  return t("{rank} of {suit}", { rank: rankNames()[rank], suit: frenchNames()[suit] });
}

/** The colour a card's suit is printed in (style.css repeats these colours for the card
 * chips: .chip.fr, .chip.es, .sym).
 * @param {Card} token
 * @param {Deck} deck
 */
export function suitColour(token, deck) {
  const { suit } = parseCard(token);
  return (deck === "spanish" ? SPANISH_COLOURS : FRENCH_COLOURS)[suit];
}

// ---------------------------------------------------------------- Spanish suit shapes

/** One suit mark of the Spanish deck as SVG, centred on (x, y), about r across.
 * @callback SuitShape
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @returns {string}
 */

/** @type {SuitShape} */
function oro(x, y, r) {
  return `<g><circle cx="${x}" cy="${y}" r="${r}" fill="#f2c230" stroke="#8a6100" stroke-width="${r / 6}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="none" stroke="#b8860b" stroke-width="${r / 8}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.18}" fill="#c8102e"/></g>`;
}

/** @type {SuitShape} */
function copa(x, y, r) {
  const w = r * 1.1;
  return `<g stroke="#7a0a1c" stroke-width="${r / 8}" stroke-linejoin="round">` +
    `<path d="M${x - w} ${y - r} L${x + w} ${y - r} Q${x + w} ${y + r * 0.1} ${x} ${y + r * 0.2} ` +
    `Q${x - w} ${y + r * 0.1} ${x - w} ${y - r} Z" fill="#d4283f"/>` +
    `<rect x="${x - r * 0.15}" y="${y + r * 0.2}" width="${r * 0.3}" height="${r * 0.5}" fill="#f2c230"/>` +
    `<path d="M${x - r * 0.6} ${y + r} L${x + r * 0.6} ${y + r} L${x + r * 0.3} ${y + r * 0.7} ` +
    `L${x - r * 0.3} ${y + r * 0.7} Z" fill="#f2c230"/></g>`;
}

/** @type {SuitShape} */
function espada(x, y, r) {
  return `<g stroke="#0f2c66" stroke-width="${r / 10}">` +
    `<path d="M${x} ${y - r * 1.3} L${x + r * 0.22} ${y - r} L${x + r * 0.22} ${y + r * 0.45} ` +
    `L${x - r * 0.22} ${y + r * 0.45} L${x - r * 0.22} ${y - r} Z" fill="#9fb8e8"/>` +
    `<rect x="${x - r * 0.7}" y="${y + r * 0.45}" width="${r * 1.4}" height="${r * 0.22}" rx="${r * 0.1}" fill="#1f4fa8"/>` +
    `<rect x="${x - r * 0.13}" y="${y + r * 0.67}" width="${r * 0.26}" height="${r * 0.5}" fill="#f2c230"/>` +
    `<circle cx="${x}" cy="${y + r * 1.27}" r="${r * 0.16}" fill="#1f4fa8"/></g>`;
}

/** @type {SuitShape} */
function basto(x, y, r) {
  return `<g stroke="#1b4d1e" stroke-width="${r / 10}">` +
    `<path d="M${x - r * 0.28} ${y + r * 1.2} L${x - r * 0.45} ${y - r * 0.9} Q${x} ${y - r * 1.45} ` +
    `${x + r * 0.45} ${y - r * 0.9} L${x + r * 0.28} ${y + r * 1.2} Z" fill="#5a9b3c"/>` +
    `<circle cx="${x - r * 0.42}" cy="${y - r * 0.2}" r="${r * 0.14}" fill="#2e7d32"/>` +
    `<circle cx="${x + r * 0.38}" cy="${y + r * 0.35}" r="${r * 0.14}" fill="#2e7d32"/></g>`;
}

const SPANISH_SHAPES = [espada, copa, oro, basto];

/** A small suit mark (inline SVG) for text such as the move log.
 * @param {number} suit
 * @param {Deck} deck
 */
export function suitIcon(suit, deck) {
  if (deck !== "spanish") {
    return `<span class="sym suit-${suit}">${FRENCH_SYMBOLS[suit]}</span>`; // coloured by style.css
  }
  return `<svg class="sicon" viewBox="0 0 20 20" aria-hidden="true">${SPANISH_SHAPES[suit](10, 10, 6.5)}</svg>`;
}

// ---------------------------------------------------------------- faces

/** @type {Record<number, [number, number][]>} */
const PIPS = {
  // pip positions on a 60x84 card, by rank 1..7 (x, y)
  1: [[30, 42]],
  2: [[30, 24], [30, 60]],
  3: [[30, 20], [30, 42], [30, 64]],
  4: [[20, 24], [40, 24], [20, 60], [40, 60]],
  5: [[20, 22], [40, 22], [30, 42], [20, 62], [40, 62]],
  6: [[20, 22], [40, 22], [20, 42], [40, 42], [20, 62], [40, 62]],
  7: [[20, 20], [40, 20], [30, 31], [20, 44], [40, 44], [20, 64], [40, 64]],
};

// ---------------------------------------------------------------- French suit shapes

// each suit as a path one unit across, centred on (0, 0)
const FRENCH_PATHS = [
  // spade
  "M0 -1C.25 -.6 1 -.25 1 .2C1 .55 .7 .72 .45 .72C.25 .72 .1 .6 .05 .5C.08 .75 .2 .9 .38 1L-.38 1C-.2 .9 -.08 .75 -.05 .5" +
    "C-.1 .6 -.25 .72 -.45 .72C-.7 .72 -1 .55 -1 .2C-1 -.25 -.25 -.6 0 -1Z",
  // heart
  "M0 .92C-.22 .7 -1 .22 -1 -.34C-1 -.78 -.62 -1 -.32 -1C-.12 -1 0 -.86 0 -.72C0 -.86 .12 -1 .32 -1C.62 -1 1 -.78 1 -.34" +
    "C1 .22 .22 .7 0 .92Z",
  // diamond
  "M0 -1L.74 0L0 1L-.74 0Z",
  // club: see CLUB
  "",
];

// the club: three leaves and a stem
const CLUB =
  `<circle cx="0" cy="-.5" r=".36"/><circle cx="-.46" cy=".1" r=".36"/><circle cx=".46" cy=".1" r=".36"/>` +
  `<circle cx="0" cy="0" r=".22"/><path d="M-.07 0L.07 0C.1 .45 .2 .8 .36 1L-.36 1C-.2 .8 -.1 .45 -.07 0Z"/>`;

/**
 * @param {number} suit
 * @param {number} x
 * @param {number} y
 * @param {number} r
 */
function pip(suit, x, y, r, flip = false) {
  const turn = flip ? ` rotate(180)` : "";
  const at = `transform="translate(${x} ${y}) scale(${r})${turn}" fill="${FRENCH_COLOURS[suit]}"`;
  return suit === 3 ? `<g ${at}>${CLUB}</g>` : `<path ${at} d="${FRENCH_PATHS[suit]}"/>`;
}

// The court cards, drawn double-ended as printed decks are: the upper half a figure (a
// king with a crown and a beard, a queen with a tiara and a flower, a jack with a feathered
// cap), the lower half the same turned round.  Each suit has its own robe.
/** @type {[string, string][]} */
const ROBES = [
  ["#1f3f8a", "#c8102e"], // spades: blue, red lining
  ["#c8102e", "#1f3f8a"], // hearts: red, blue
  ["#d9a21b", "#c8102e"], // diamonds: gold, red
  ["#2e6b3a", "#d9a21b"], // clubs: green, gold
];
const SKIN = "#f6d7b0";
const GOLD = "#f2c230";
const LINE = "#3a2a1a";

/**
 * @param {number} rank
 * @param {number} suit
 */
function figure(rank, suit) {
  const [robe, lining] = ROBES[suit];
  const w = 0.45; // stroke width
  let out =
    // the robe and its collar
    `<path d="M13.5 42.5C14 34 18 31 30 31C42 31 46 34 46.5 42.5Z" fill="${robe}" stroke="${LINE}" stroke-width="${w}"/>` +
    `<path d="M21 31.6L30 38L39 31.6C36 31 33 30.8 30 30.8C27 30.8 24 31 21 31.6Z" fill="${lining}" stroke="${LINE}" stroke-width="${w}"/>` +
    `<path d="M24.5 31.2L30 35.2L35.5 31.2" fill="none" stroke="${GOLD}" stroke-width="1.1"/>` +
    `<path d="M18 37.5L18 42.5M42 37.5L42 42.5" stroke="${GOLD}" stroke-width="0.8"/>` +
    // neck and head
    `<rect x="28" y="27.5" width="4" height="3.6" fill="${SKIN}" stroke="${LINE}" stroke-width="${w}"/>` +
    `<ellipse cx="30" cy="24" rx="4.6" ry="5.2" fill="${SKIN}" stroke="${LINE}" stroke-width="${w}"/>` +
    `<circle cx="28.3" cy="23.4" r="0.55" fill="${LINE}"/><circle cx="31.7" cy="23.4" r="0.55" fill="${LINE}"/>` +
    `<path d="M28.8 26.4Q30 27.2 31.2 26.4" fill="none" stroke="#a33" stroke-width="0.5"/>`;
  if (rank === 9) {
    // the king: a beard, a crown of three points, a sword held up
    out +=
      `<path d="M25.6 24.6C25.8 29.5 28 31 30 31C32 31 34.2 29.5 34.4 24.6C33 27 31.5 27.6 30 27.6C28.5 27.6 27 27 25.6 24.6Z" fill="#8a5a2b" stroke="${LINE}" stroke-width="${w}"/>` +
      `<path d="M28.6 26.2Q30 25.6 31.4 26.2" fill="none" stroke="${LINE}" stroke-width="0.5"/>` +
      `<path d="M25 20.4L24.6 13.6L27.3 16.6L30 12.4L32.7 16.6L35.4 13.6L35 20.4Z" fill="${GOLD}" stroke="${LINE}" stroke-width="${w}"/>` +
      `<circle cx="30" cy="17.6" r="0.9" fill="${lining}"/><circle cx="24.6" cy="13.6" r="0.6" fill="${GOLD}" stroke="${LINE}" stroke-width="0.3"/>` +
      `<circle cx="35.4" cy="13.6" r="0.6" fill="${GOLD}" stroke="${LINE}" stroke-width="0.3"/>` +
      `<path d="M41.5 42L41.5 20" stroke="#9aa4b2" stroke-width="1.3"/><path d="M39 33.5L44 33.5" stroke="${GOLD}" stroke-width="1.2"/>`;
  } else if (rank === 8) {
    // the queen: long hair, a tiara with a jewel, a flower
    out =
      `<path d="M24.6 22C24 30 22.8 33 21.5 35L25.5 34C26 31 26 27 26.2 24Z M35.4 22C36 30 37.2 33 38.5 35L34.5 34C34 31 34 27 33.8 24Z" fill="#6b3f1f" stroke="${LINE}" stroke-width="${w}"/>` +
      out +
      `<path d="M25.2 21.5C25.5 17.5 27.5 18.6 30 18.6C32.5 18.6 34.5 17.5 34.8 21.5C33.5 19.8 31.8 19.6 30 19.6C28.2 19.6 26.5 19.8 25.2 21.5Z" fill="#6b3f1f"/>` +
      `<path d="M25.8 19L27 15.6L28.5 17.6L30 14.4L31.5 17.6L33 15.6L34.2 19Z" fill="${GOLD}" stroke="${LINE}" stroke-width="${w}"/>` +
      `<circle cx="30" cy="17.4" r="0.8" fill="${lining}"/>` +
      `<path d="M19 42L19 30" stroke="#2e7d32" stroke-width="0.8"/>` +
      `<circle cx="19" cy="28.6" r="1.9" fill="#e84a6f" stroke="${LINE}" stroke-width="0.4"/><circle cx="19" cy="28.6" r="0.7" fill="${GOLD}"/>`;
  } else {
    // the jack: hair to the ears, a cap with a feather, a halberd
    out +=
      `<path d="M25.4 23C25.2 27 25.6 28.6 26.6 29.4L26.6 24.4Z M34.6 23C34.8 27 34.4 28.6 33.4 29.4L33.4 24.4Z" fill="#b5782e" stroke="${LINE}" stroke-width="${w}"/>` +
      `<path d="M24.4 21.2C24 16.6 27 15.6 30.6 15.6C34.6 15.6 36.6 17.4 36 21.2C33.5 19.6 27 19.6 24.4 21.2Z" fill="${lining}" stroke="${LINE}" stroke-width="${w}"/>` +
      `<path d="M24.4 21.2C27 20 33.5 20 36 21.2" fill="none" stroke="${GOLD}" stroke-width="0.9"/>` +
      `<path d="M34.5 16.6C37 12 40 11.6 42.4 12.2C40 13 38 14.8 35.6 18Z" fill="#fff" stroke="${LINE}" stroke-width="${w}"/>` +
      `<path d="M18.5 42L18.5 17" stroke="#7a5a2a" stroke-width="0.9"/>` +
      `<path d="M18.5 14.5L20.6 18.5L18.5 17.6L16.4 18.5Z" fill="#9aa4b2" stroke="${LINE}" stroke-width="0.35"/>`;
  }
  return out;
}

/**
 * @param {number} rank
 * @param {number} suit
 */
function courtFace(rank, suit) {
  const colour = FRENCH_COLOURS[suit];
  // the suit in the corner the figure leaves free (the jack's halberd and the queen's
  // flower are on the left, the king's sword on the right)
  const half = `<g>${figure(rank, suit)}${pip(suit, rank === 9 ? 16.4 : 43.6, 17.4, 2.6)}</g>`;
  return (
    `<rect x="10.5" y="11.5" width="39" height="61" rx="2" fill="${suit % 3 ? "#fdf1ec" : "#eef1f8"}" stroke="${colour}" stroke-width="0.8"/>` +
    `${half}<g transform="rotate(180 30 42)">${half}</g>` +
    `<path d="M10.5 42L49.5 42" stroke="${colour}" stroke-width="0.6"/>` +
    `<rect x="10.5" y="11.5" width="39" height="61" rx="2" fill="none" stroke="${colour}" stroke-width="0.9"/>`
  );
}

/**
 * @param {number} rank
 * @param {number} suit
 */
function frenchFace(rank, suit) {
  const colour = FRENCH_COLOURS[suit];
  const label = FRENCH_RANKS[rank];
  let body = "";
  if (rank === 0) {
    body = pip(suit, 30, 42, 11);
  } else if (rank <= 6) {
    // the pips of the lower half upside down, as printed
    for (const [x, y] of PIPS[rank + 1]) body += pip(suit, x, y, 5.6, y > 44);
  } else {
    body = courtFace(rank, suit);
  }
  return body + corners(label, suit, colour);
}

/**
 * @param {string} label
 * @param {number} suit
 * @param {string} colour
 */
function corners(label, suit, colour) {
  /** @param {string} t */
  const corner = (t) =>
    `<g transform="${t}"><text x="6" y="12.5" font-size="10.5" font-weight="700" text-anchor="middle" ` +
    `font-family="Georgia, 'DejaVu Serif', serif" fill="${colour}">${label}</text>${pip(suit, 6, 18.6, 2.9)}</g>`;
  return corner("translate(0,0)") + corner("rotate(180 30 42)");
}

/**
 * @param {number} rank
 * @param {number} suit
 */
function spanishFace(rank, suit) {
  const shape = SPANISH_SHAPES[suit];
  const colour = SPANISH_COLOURS[suit];
  const label = SPANISH_RANKS[rank];
  // the broken frame of the Spanish deck: one gap per suit
  const gaps = ["", "8 3", "16 4", "4 2 1 2"][suit];
  let body = `<rect x="4" y="4" width="52" height="76" rx="3" fill="none" stroke="${colour}" ` +
    `stroke-width="1.2" stroke-dasharray="${gaps}"/>`;
  if (rank <= 6) {
    const n = rank + 1;
    const r = n === 1 ? 11 : n <= 3 ? 6.5 : 5.5;
    for (const [x, y] of PIPS[n]) body += shape(x, y, r);
  } else {
    const words = ["SOTA", "CABALLO", "REY"][rank - 7];
    body +=
      `<rect x="12" y="14" width="36" height="56" rx="4" fill="#fdf3d8" stroke="${colour}" stroke-width="0.8"/>` +
      shape(30, 36, 9) +
      `<text x="30" y="62" font-size="7" font-weight="700" text-anchor="middle" fill="${colour}">${words}</text>`;
  }
  /**
   * @param {number} x
   * @param {number} y
   */
  const corner = (x, y) =>
    `<text x="${x}" y="${y}" font-size="10" font-weight="700" text-anchor="middle" fill="${colour}">${label}</text>`;
  return body + corner(10, 14) + corner(50, 78);
}

// A card's drawing never changes for a given deck: each face is drawn once, and once the
// page is idle each is made an SVG image of its own (a blob: URL).  A card whose image has
// loaded is an <img> of it, which the browser lays out as one box and keeps decoded; until
// then (the first moments of the page) it is the drawing inline, dozens of elements to
// parse, style and lay out each time its part of the page is drawn again.
/** @type {Map<string, string>} */
const inline = new Map();
/** @type {Map<string, string>} */
const images = new Map(); // the faces whose image has loaded: key -> blob: URL
/** @type {Set<Deck>} */
const preloaded = new Set();
/** @type {HTMLImageElement[]} */
const kept = [];

/**
 * @param {Card | null} token
 * @param {Deck} deck
 */
const keyOf = (token, deck) => (token ? `${deck === "spanish" ? "es" : "fr"}:${token}` : "back");

/** One card face (``token`` such as "7h"), or a card back when null, as HTML.
 * @param {Card | null} token
 * @param {Deck} deck
 */
export function cardImage(token, deck) {
  const key = keyOf(token, deck);
  const url = images.get(key);
  if (url !== undefined) return `<img class="face" src="${url}" alt="" draggable="false">`;
  let svg = inline.get(key);
  if (svg === undefined) {
    svg = `<svg class="face" aria-hidden="true"${drawCard(token, deck).slice(4)}`;
    inline.set(key, svg);
  }
  if (!preloaded.has(deck) && typeof Image !== "undefined") preloadDeck(deck); // (not in node's tests)
  return svg;
}

/** Make the images of every face of `deck` (and the back), a few at a time while the page is
 * idle; each is used from the moment it has loaded.
 * @param {Deck} deck
 */
function preloadDeck(deck) {
  preloaded.add(deck);
  /** @type {(Card | null)[]} */
  const tokens = [null];
  for (const r of RANKS) for (const s of SUITS) tokens.push(r + s);
  /** @param {() => void} fn */
  const idle = (fn) => ("requestIdleCallback" in window ? requestIdleCallback(fn, { timeout: 1000 }) : setTimeout(fn, 50));
  const next = () => {
    for (const token of tokens.splice(0, 4)) {
      const key = keyOf(token, deck);
      if (images.has(key)) continue;
      const url = URL.createObjectURL(new Blob([drawCard(token, deck)], { type: "image/svg+xml" }));
      const img = new Image();
      img.onload = () => images.set(key, url);
      img.src = url;
      kept.push(img); // held, so that it stays decoded
    }
    if (tokens.length) idle(next);
  };
  idle(next);
}

/**
 * @param {Card | null} token
 * @param {Deck} deck
 */
function drawCard(token, deck) {
  const open = `<svg width="60" height="84" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg">`;
  if (!token) {
    return open +
      `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#7b1e2b" stroke="#3a0d14"/>` +
      `<rect x="4" y="4" width="52" height="76" rx="3" fill="none" stroke="#f3d9a4" stroke-width="1.2"/>` +
      `<path d="M4 4 L56 80 M56 4 L4 80 M30 4 L30 80 M4 42 L56 42" stroke="#a5394a" stroke-width="1"/>` +
      `<circle cx="30" cy="42" r="9" fill="#7b1e2b" stroke="#f3d9a4" stroke-width="1.2"/></svg>`;
  }
  const { rank, suit } = parseCard(token);
  const face = deck === "spanish" ? spanishFace(rank, suit) : frenchFace(rank, suit);
  return open +
    `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fffdf7" stroke="#6b6b6b"/>` +
    face + `</svg>`;
}
