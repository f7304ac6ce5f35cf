// The lobby, on the home page: the public games with a free seat (to join) and those being
// played (to watch).

import { api, errorText } from "../page.js";
import { seatLine, seatWords } from "../seats.js";
import { escapeHTML as esc } from "../words.js";

/** @import { Lobby, LobbyGame } from "../protocol.js" */

/** Fetch the lobby and draw it into the home page's #lobby-list (if it is still shown). */
export async function loadLobby() {
  const box = document.getElementById("lobby-list");
  if (!box) return;
  const said = seatWords();
  try {
    /** @type {Lobby} */
    const lobby = await api("/api/lobby");
    /**
     * @param {LobbyGame} g
     * @param {string} link
     * @param {string} label
     * @param {string} extra
     */
    const entry = (g, link, label, extra) =>
      `<li class="lobby-game" data-game="${esc(g.id)}"><div><strong>${esc(said.gameTitle(g.rules, g.size))}</strong>
        <div class="seat-line small">${extra}${seatLine(g.seats)}</div></div> <a class="button" href="${link}">${esc(label)}</a></li>`;
    const open = lobby.open.map((g) => entry(g, `#/join/${esc(g.id)}`, said.join, `<span class="free-count">${esc(said.seatsFree(g.free, g.size))}</span> `));
    const live = lobby.playing.map((g) => entry(g, `#/watch/${esc(g.id)}`, said.watch, ""));
    box.innerHTML =
      `<h3>${esc(said.openHead)}</h3>${open.length ? `<ul class="list">${open.join("")}</ul>` : `<p class="small">${esc(said.nobodyWaiting)}</p>`}` +
      `<h3>${esc(said.playingHead)}</h3>${live.length ? `<ul class="list">${live.join("")}</ul>` : `<p class="small">${esc(said.noGames)}</p>`}`;
  } catch (err) {
    box.innerHTML = `<p class="error">${esc(errorText(err))}</p>`;
  }
}
