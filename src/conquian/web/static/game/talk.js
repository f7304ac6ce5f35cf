// Table talk: a few set phrases and faces a player sends to the table (no free text), each
// shown to every reader in his own language beside the speaker's name for a few seconds.  A
// reader may mute a player (this browser keeps it for the visit).  The server only relays
// the phrase's name ({"type": "say", "phrase": ...} → {"type": "said", "seat", "phrase"}),
// at most one every few seconds from a seat, and never from a spectator.

import { escapeHTML as esc, t } from "../words.js";

/** The phrases, by the name the server knows them by, in the reader's words.
 * @returns {[string, string][]} */
export const phrases = () => [
  ["hello", t("Hello!")],
  ["luck", t("Good luck!")],
  ["nice", t("Nice one!")],
  ["thanks", t("Thanks!")],
  ["hurry", t("Come on, play!")],
  ["oops", t("Oops!")],
  ["wow", t("Wow!")],
  ["gg", t("Good game!")],
  ["bye", t("Bye!")],
  ["clap", "👏"],
  ["smile", "😄"],
  ["surprised", "😮"],
  ["sleepy", "😴"],
  ["please", "🙏"],
  ["clover", "🍀"],
];

/** How long a phrase stays beside the speaker's name (ms). */
export const SHOWN_MS = 6000;

/** What each seat said last, and until when it is shown. @type {Map<number, {phrase: string, until: number}>} */
const spoken = new Map();
/** The seats this reader muted. @type {Set<number>} */
const muted = new Set();
let paletteOpen = false;

/** A phrase heard: shown beside its speaker's name (unless he is muted).
 * @param {{seat: number, phrase: string}} msg */
export function heard(msg) {
  if (muted.has(msg.seat)) return;
  spoken.set(msg.seat, { phrase: msg.phrase, until: Date.now() + SHOWN_MS });
}

/** The phrase seat `p` said a moment ago, as a bubble that mutes him when pressed (HTML).
 * @param {number} p */
export function talkBubble(p) {
  const said = spoken.get(p);
  if (!said || said.until < Date.now() || muted.has(p)) return "";
  const text = (phrases().find(([name]) => name === said.phrase) || [said.phrase, ""])[1];
  if (!text) return "";
  const mute = esc(t("Mute this player"));
  return ` <button type="button" class="talk" data-mute="${p}" title="${mute}">${esc(text)}</button>`;
}

/** The player's talk button and, while open, its phrases (HTML). */
export function talkPalette() {
  const list = paletteOpen
    ? `<div class="talk-palette" id="talk-palette">${phrases()
        .map(([name, text]) => `<button type="button" data-say="${name}">${esc(text)}</button>`)
        .join("")}</div>`
    : "";
  const label = esc(t("Say something to the table"));
  return ` <button type="button" class="talk-btn" id="talk-btn" aria-expanded="${paletteOpen}" aria-label="${label}" title="${label}"><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="M4 4h16v11H9l-5 4z" fill="currentColor"/></svg></button>${list}`;
}

/**
 * The table's clicks of talk: the button opens the phrases, a phrase is sent, a bubble
 * mutes its speaker; `redraw` draws the table again.
 * @param {HTMLElement} root
 * @param {(phrase: string) => void} say
 * @param {() => void} redraw
 * @param {AbortSignal} signal
 */
export function listenTalk(root, say, redraw, signal) {
  root.addEventListener(
    "click",
    (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      const button = target.closest("[data-say], #talk-btn, [data-mute]");
      if (!button) return;
      e.preventDefault();
      if (button.id === "talk-btn") paletteOpen = !paletteOpen;
      else if (button.hasAttribute("data-say")) {
        say(button.getAttribute("data-say") || "");
        paletteOpen = false;
      } else {
        muted.add(Number(button.getAttribute("data-mute")));
        spoken.delete(Number(button.getAttribute("data-mute")));
      }
      redraw();
    },
    { signal },
  );
}
