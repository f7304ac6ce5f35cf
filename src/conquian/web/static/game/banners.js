// The banners over the table (the connection lost, watching, the invitations of the free
// seats) and the waiting room before the first deal: functions of the state, as HTML.

import { seatWords, titleOf } from "../seats.js";
import { escapeHTML as esc, t, th } from "../words.js";

/** @import { StateMessage } from "../protocol.js" */
/** @import { GameState } from "./state.js" */

/** @param {GameState} game */
export const offlineBanner = (game) => (game.offline ? `<div class="banner error">${esc(t("Connection lost — reconnecting…"))}</div>` : "");

/** What a spectator is told over the table. */
export const watchingBanner = () => `<div class="banner">${esc(t("You are watching: only public information is shown."))}</div>`;

/**
 * The invitations of the free seats (to the page of the player who made the game), or the
 * game's own link when its seats are taken by it (a game of the previous version).
 * @param {StateMessage} s
 * @param {string} joinLink  the address of the game's join page
 */
export function inviteBanner(s, joinLink) {
  const g = s.game;
  if (s.seat === null || g.joined.every(Boolean)) return "";
  const said = seatWords();
  const invitations = s.invitations || [];
  const seats = g.names.length;
  if (invitations.length) {
    const rows = invitations
      .map(({ seat, code }) => {
        // (the invitations go to the creator's page only: the seats are counted from seat 0)
        const label = said.seatLabel(seat, seats);
        return `<div class="invite-row"><label for="invite-${seat}">${esc(label)}</label>
          <input id="invite-${seat}" class="invite-link" data-seat="${seat}" readonly value="${esc(`${joinLink}/${code}`)}">
          <button type="button" class="copy-invite" data-for="invite-${seat}" data-label="${esc(label)}">${esc(said.copy)}</button></div>`;
      })
      .join("");
    // one link for the whole table: each free seat's number and code ("1.CODE.2.CODE"), so
    // that each friend picks a free seat
    const table = `${joinLink}/${invitations.map(({ seat, code }) => `${seat}.${code}`).join(".")}`;
    const watch = joinLink.replace(/#\/join\//, "#/watch/");
    const host = g.names[s.seat] || "";
    const game = titleOf(g);
    return `<div class="banner invite" id="invite"><p>${esc(said.tableLinkHead(invitations.length))}</p>
      ${shareRow("invite-table", table, said.tableLinkCopied, said.shareText(host, game, table))}
      <p class="small">${esc(said.watchLinkHead)}</p>
      ${shareRow("watch-link", watch, said.watchLinkCopied, said.watchText(host, game, watch))}
      ${invitations.length > 1 ? `<details class="small"><summary>${esc(said.seatByLink)}</summary>${rows}</details>` : ""}${
        g.by_invitation ? "" : `<p class="small">${esc(said.inviteLobby)}</p>`
      }</div>`;
  }
  if (g.by_invitation) return `<div class="banner invite" id="invite"><p>${esc(said.invitesElsewhere)}</p></div>`;
  return `<div class="banner invite" id="invite"><p>${esc(said.sharedLink(g.free))}</p>
    <div class="invite-row"><input id="invite-link" class="invite-link" readonly value="${esc(joinLink)}">
    <button type="button" class="copy-invite" data-for="invite-link" data-label="${esc(said.freeSeat)}">${esc(said.copy)}</button></div></div>`;
}

/**
 * A link to send: shared through the phone's own sharing (Web Share API) with a message
 * ready, or copied where there is none.
 * @param {string} id
 * @param {string} link
 * @param {string} copied  what the toast says once it is copied
 * @param {string} text  the message shared with it
 */
function shareRow(id, link, copied, text) {
  const said = seatWords();
  return `<div class="invite-row"><input id="${id}" class="invite-link" readonly value="${esc(link)}">
    <button type="button" class="primary share-link" data-for="${id}" data-text="${esc(text)}" data-copied="${esc(copied)}">${esc(said.share)}</button>
    <button type="button" class="copy-invite" data-for="${id}" data-copied="${esc(copied)}">${esc(said.copy)}</button></div>`;
}

/**
 * The waiting room: the seats taken and free, before the first deal is dealt.
 * @param {GameState} game
 * @param {StateMessage} s  the state (not dealt yet)
 * @param {string} joinLink
 */
export function waitingRoom(game, s, joinLink) {
  const g = s.game;
  const said = seatWords();
  const missing = g.free > 0;
  const prompt = missing ? said.waitingFor(g.free) : t("Shuffling: waiting for every player to add a seed to the shuffle…");
  const code = s.fair && s.fair.next ? `<code>${esc(s.fair.next.commitment)}</code>` : "";
  // the shuffle's commitment: for those who check, behind "Fair shuffle"
  const commitment = code
    ? `<details class="small"><summary>${esc(t("Fair shuffle"))}</summary><p>${th("Commitment to the first deal's shuffle: {commitment}", { commitment: code })}</p></details>`
    : "";
  const seats = g.names
    .map((n, p) => {
      const free = !g.joined[p];
      const who = p === s.seat ? said.you(n) : free ? (g.by_invitation ? said.freeInvited : said.freeSeat) : n;
      return `<li class="${free ? "free" : g.kinds[p] === "bot" ? "bot" : ""}" data-seat="${p}"><span class="seat-no">${p + 1}</span> <span>${esc(who)}</span></li>`;
    })
    .join("");
  return `
  <section class="game waiting-room">
    <div class="board">
      ${offlineBanner(game)}
      ${inviteBanner(s, joinLink)}
      <div class="prompt" id="prompt" aria-live="polite">${esc(prompt)}</div>
      <ol class="seat-list" id="seat-list" aria-label="${esc(titleOf(g))}">${seats}</ol>
      ${commitment}
    </div>
  </section>`;
}
