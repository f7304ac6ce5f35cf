// Conduct at a table: a player presses another person's name to report him (why, and a
// note) or block him (never seated together again in a quick match).  The page names the
// seat, never a player's id (a game's messages carry none): POST /api/games/ID/seats/N/...

import { api, errorText, toast } from "../page.js";
import { escapeHTML as esc, t } from "../words.js";

/** Why a player may be reported, as the server names the reasons, in the reader's words.
 * @returns {[string, string][]} */
export const reasons = () => [
  ["cheating", t("Cheating")],
  ["abuse", t("Abusive")],
  ["leaving", t("Leaves games")],
  ["name", t("Offensive name")],
  ["other", t("Something else")],
];

/**
 * The form to report (or block) the person in `seat`, named `name` (HTML).
 * @param {number} seat @param {string} name
 */
export function conductForm(seat, name) {
  return `<form class="conduct panel" id="conduct" data-seat="${seat}">
    <h3>${esc(t("Report or block {name}", { name }))}</h3>
    <label>${esc(t("Why?"))} <select id="conduct-reason">${reasons()
      .map(([value, label]) => `<option value="${value}">${esc(label)}</option>`)
      .join("")}</select></label>
    <label>${esc(t("Note (optional)"))} <textarea id="conduct-note" maxlength="500" rows="3"></textarea></label>
    <label class="check"><input type="checkbox" id="conduct-block" checked> ${esc(t("Block this player too: never seated together again"))}</label>
    <p><button type="submit" class="primary">${esc(t("Send the report"))}</button>
      <button type="button" id="conduct-only-block">${esc(t("Only block"))}</button>
      <button type="button" id="conduct-cancel">${esc(t("Cancel"))}</button></p>
  </form>`;
}

/**
 * The table's presses of a person's name, and the form they open.
 * @param {HTMLElement} root
 * @param {string} gameId
 * @param {(seat: number) => string} nameOf
 * @param {AbortSignal} signal
 */
export function listenConduct(root, gameId, nameOf, signal) {
  const close = () => document.getElementById("conduct")?.remove();
  /** @param {string} what @param {object} body @param {string} said */
  const send = async (what, body, said) => {
    const form = document.getElementById("conduct");
    if (!form) return;
    try {
      await api(`/api/games/${encodeURIComponent(gameId)}/seats/${form.dataset.seat}/${what}`, body);
      toast(said);
      close();
    } catch (err) {
      toast(errorText(err), "error");
    }
  };
  root.addEventListener(
    "click",
    (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      const name = target.closest("button.name[data-seat]");
      if (name) {
        close();
        const seat = Number(name.getAttribute("data-seat"));
        document.body.insertAdjacentHTML("beforeend", conductForm(seat, nameOf(seat)));
        return;
      }
    },
    { signal },
  );
  document.body.addEventListener(
    "click",
    (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      if (target.id === "conduct-cancel") close();
      else if (target.id === "conduct-only-block") send("block", { block: true }, t("Blocked."));
    },
    { signal },
  );
  document.body.addEventListener(
    "submit",
    (e) => {
      const form = /** @type {HTMLElement} */ (e.target);
      if (form.id !== "conduct") return;
      e.preventDefault();
      const reason = /** @type {HTMLSelectElement} */ (document.getElementById("conduct-reason")).value;
      const note = /** @type {HTMLTextAreaElement} */ (document.getElementById("conduct-note")).value;
      const block = /** @type {HTMLInputElement} */ (document.getElementById("conduct-block")).checked;
      send("report", { reason, note, block }, t("Report sent. Thank you."));
    },
    { signal },
  );
  signal.addEventListener("abort", close);
}
