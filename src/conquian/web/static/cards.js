// Card faces drawn as SVG: the French deck (A-7, J, Q, K of spades, hearts, diamonds,
// clubs) and the Spanish deck (1-7, 10 sota, 11 caballo, 12 rey of espadas, copas,
// oros, bastos).  Cards arrive from the server in canonical French text ("Kh").  The cards'
// names (for screen readers) are in the page's language; the Spanish deck's are its own.

import { t } from "./words.js";

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

/** Rank (0-9) and suit (0-3) of a card token such as "Kh". */
export function parseCard(token) {
  return { rank: RANKS.indexOf(token[0]), suit: SUITS.indexOf(token[1]) };
}

/** The card as a person reads it in the chosen deck ("K♥", "12 copas"). */
export function cardLabel(token, deck) {
  const { rank, suit } = parseCard(token);
  if (deck === "spanish") return `${SPANISH_RANKS[rank]} ${SPANISH_NAMES[suit]}`;
  return FRENCH_RANKS[rank] + FRENCH_SYMBOLS[suit];
}

/** The card in words, for screen readers ("king of hearts", "rey de copas"). */
export function cardName(token, deck) {
  const { rank, suit } = parseCard(token);
  if (deck === "spanish") return `${SPANISH_RANK_NAMES[rank]} de ${SPANISH_NAMES[suit]}`;
  return t("{rank} of {suit}", { rank: rankNames()[rank], suit: frenchNames()[suit] });
}

// style.css repeats these colours for the card chips (.chip.fr, .chip.es, .sym)
export function suitColour(token, deck) {
  const { suit } = parseCard(token);
  return (deck === "spanish" ? SPANISH_COLOURS : FRENCH_COLOURS)[suit];
}

// ---------------------------------------------------------------- Spanish suit shapes

function oro(x, y, r) {
  return `<g><circle cx="${x}" cy="${y}" r="${r}" fill="#f2c230" stroke="#8a6100" stroke-width="${r / 6}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="none" stroke="#b8860b" stroke-width="${r / 8}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.18}" fill="#c8102e"/></g>`;
}

function copa(x, y, r) {
  const w = r * 1.1;
  return `<g stroke="#7a0a1c" stroke-width="${r / 8}" stroke-linejoin="round">` +
    `<path d="M${x - w} ${y - r} L${x + w} ${y - r} Q${x + w} ${y + r * 0.1} ${x} ${y + r * 0.2} ` +
    `Q${x - w} ${y + r * 0.1} ${x - w} ${y - r} Z" fill="#d4283f"/>` +
    `<rect x="${x - r * 0.15}" y="${y + r * 0.2}" width="${r * 0.3}" height="${r * 0.5}" fill="#f2c230"/>` +
    `<path d="M${x - r * 0.6} ${y + r} L${x + r * 0.6} ${y + r} L${x + r * 0.3} ${y + r * 0.7} ` +
    `L${x - r * 0.3} ${y + r * 0.7} Z" fill="#f2c230"/></g>`;
}

function espada(x, y, r) {
  return `<g stroke="#0f2c66" stroke-width="${r / 10}">` +
    `<path d="M${x} ${y - r * 1.3} L${x + r * 0.22} ${y - r} L${x + r * 0.22} ${y + r * 0.45} ` +
    `L${x - r * 0.22} ${y + r * 0.45} L${x - r * 0.22} ${y - r} Z" fill="#9fb8e8"/>` +
    `<rect x="${x - r * 0.7}" y="${y + r * 0.45}" width="${r * 1.4}" height="${r * 0.22}" rx="${r * 0.1}" fill="#1f4fa8"/>` +
    `<rect x="${x - r * 0.13}" y="${y + r * 0.67}" width="${r * 0.26}" height="${r * 0.5}" fill="#f2c230"/>` +
    `<circle cx="${x}" cy="${y + r * 1.27}" r="${r * 0.16}" fill="#1f4fa8"/></g>`;
}

function basto(x, y, r) {
  return `<g stroke="#1b4d1e" stroke-width="${r / 10}">` +
    `<path d="M${x - r * 0.28} ${y + r * 1.2} L${x - r * 0.45} ${y - r * 0.9} Q${x} ${y - r * 1.45} ` +
    `${x + r * 0.45} ${y - r * 0.9} L${x + r * 0.28} ${y + r * 1.2} Z" fill="#5a9b3c"/>` +
    `<circle cx="${x - r * 0.42}" cy="${y - r * 0.2}" r="${r * 0.14}" fill="#2e7d32"/>` +
    `<circle cx="${x + r * 0.38}" cy="${y + r * 0.35}" r="${r * 0.14}" fill="#2e7d32"/></g>`;
}

const SPANISH_SHAPES = [espada, copa, oro, basto];

/** A small suit mark (inline SVG) for text such as the move log. */
export function suitIcon(suit, deck) {
  if (deck !== "spanish") {
    return `<span class="sym suit-${suit}">${FRENCH_SYMBOLS[suit]}</span>`; // coloured by style.css
  }
  return `<svg class="sicon" viewBox="0 0 20 20" aria-hidden="true">${SPANISH_SHAPES[suit](10, 10, 6.5)}</svg>`;
}

// ---------------------------------------------------------------- faces

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

function frenchFace(rank, suit) {
  const colour = FRENCH_COLOURS[suit];
  const sym = FRENCH_SYMBOLS[suit];
  const label = FRENCH_RANKS[rank];
  let body = "";
  if (rank === 0) {
    body = `<text x="30" y="53" font-size="30" text-anchor="middle" fill="${colour}">${sym}</text>`;
  } else if (rank <= 6) {
    for (const [x, y] of PIPS[rank + 1]) {
      body += `<text x="${x}" y="${y + 5}" font-size="14" text-anchor="middle" fill="${colour}">${sym}</text>`;
    }
  } else {
    body =
      `<rect x="14" y="16" width="32" height="52" rx="3" fill="${suit % 3 ? "#fbe3e6" : "#e4e7f2"}" ` +
      `stroke="${colour}" stroke-width="1"/>` +
      `<text x="30" y="47" font-size="24" font-weight="700" text-anchor="middle" ` +
      `font-family="Georgia, serif" fill="${colour}">${label}</text>` +
      `<text x="30" y="62" font-size="11" text-anchor="middle" fill="${colour}">${sym}</text>`;
  }
  return body + corners(label, sym, colour);
}

function corners(label, sym, colour) {
  const corner = (t) =>
    `<g transform="${t}"><text x="6" y="13" font-size="11" font-weight="700" text-anchor="middle" ` +
    `fill="${colour}">${label}</text><text x="6" y="23" font-size="9" text-anchor="middle" fill="${colour}">${sym}</text></g>`;
  return corner("translate(0,0)") + corner("rotate(180 30 42)");
}

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
  const corner = (x, y) =>
    `<text x="${x}" y="${y}" font-size="10" font-weight="700" text-anchor="middle" fill="${colour}">${label}</text>`;
  return body + corner(10, 14) + corner(50, 78);
}

/** The SVG of one card face (``token`` such as "7h"), or of a card back when null. */
export function cardSVG(token, deck) {
  const open = `<svg class="face" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`;
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
