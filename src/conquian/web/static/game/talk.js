// Table talk: a few set phrases and faces a player sends to the table, each shown to every
// reader in his own language beside the speaker's name for a few seconds; and, at a friends'
// table whose host allows it, a line he writes (200 characters at most).  A reader may mute a
// player (this browser keeps it for the visit).  The server only relays the phrase's name
// ({"type": "say", "phrase": ...} → {"type": "said", "seat", "phrase"}) or the text
// ({"type": "say", "text": ...}), at most one every few seconds from a seat, and never from a
// spectator.

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

/** The most characters written at a time (the server's limit too). */
const TEXT_MOST = 200;

/** What each seat said last (a phrase's name, or the text written), and until when it is
 * shown. @type {Map<number, {phrase?: string, text?: string, until: number}>} */
const spoken = new Map();
/** The seats this reader muted. @type {Set<number>} */
const muted = new Set();
let paletteOpen = false;

/** A phrase heard, or a line written: shown beside its speaker's name (unless he is muted);
 * a line stays longer.
 * @param {{seat: number, phrase?: string, text?: string}} msg */
export function heard(msg) {
  if (muted.has(msg.seat)) return;
  const until = Date.now() + (msg.text ? 2 * SHOWN_MS : SHOWN_MS);
  spoken.set(msg.seat, { phrase: msg.phrase, text: msg.text, until });
}

/** The phrase seat `p` said a moment ago, as a bubble that mutes him when pressed (HTML).
 * @param {number} p */
export function talkBubble(p) {
  const said = spoken.get(p);
  if (!said || said.until < Date.now() || muted.has(p)) return "";
  const text = said.text || (phrases().find(([name]) => name === said.phrase) || [said.phrase, ""])[1];
  if (!text) return "";
  const mute = esc(t("Mute this player"));
  return ` <button type="button" class="talk${said.text ? " written" : ""}" data-mute="${p}" title="${mute}">${esc(text)}</button>`;
}

/** The player's talk button and, while open, its phrases, and a line to write where the
 * host allows it (HTML).
 * @param {boolean} [chat]  the players may write to each other */
export function talkPalette(chat = false) {
  const label = esc(t("Write to the table"));
  const line = chat
    ? `<form class="talk-line" id="talk-line"><input id="talk-text" maxlength="${TEXT_MOST}" autocomplete="off" aria-label="${label}" placeholder="${label}"><button type="submit">${esc(t("Send"))}</button></form>`
    : "";
  const list = paletteOpen
    ? `<div class="talk-palette" id="talk-palette">${phrases()
        .map(([name, text]) => `<button type="button" data-say="${name}">${esc(text)}</button>`)
        .join("")}${line}</div>`
    : "";
  const sayLabel = esc(t("Say something to the table"));
  return ` <button type="button" class="talk-btn" id="talk-btn" aria-expanded="${paletteOpen}" aria-label="${sayLabel}" title="${sayLabel}"><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="M4 4h16v11H9l-5 4z" fill="currentColor"/></svg></button>${list}`;
}

/**
 * The table's clicks of talk: the button opens the phrases, a phrase is sent, a line written
 * is sent, a bubble mutes its speaker; `redraw` draws the table again.
 * @param {HTMLElement} root
 * @param {(phrase: string) => void} say
 * @param {(text: string) => void} write
 * @param {() => void} redraw
 * @param {AbortSignal} signal
 */
export function listenTalk(root, say, write, redraw, signal) {
  root.addEventListener(
    "submit",
    (e) => {
      const form = /** @type {HTMLElement} */ (e.target);
      if (form.id !== "talk-line") return;
      e.preventDefault();
      const input = /** @type {HTMLInputElement | null} */ (form.querySelector("#talk-text"));
      const text = input ? input.value.trim() : "";
      if (!text) return;
      write(text.slice(0, TEXT_MOST));
      paletteOpen = false;
      redraw();
    },
    { signal },
  );
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
