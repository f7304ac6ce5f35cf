// The join page: #/join/ID takes a free seat of a public game (from the lobby), and
// #/join/ID/CODE the seat of an invitation (the code is a secret like the token: it stays in
// the fragment and goes only in the join's body).

import { remember, rememberShuffle, saveName, savedName } from "../memory.js";
import { api, app, byId, element, errorText } from "../page.js";
import { seatLine, seatsOf, seatWords, titleOf } from "../seats.js";
import { escapeHTML as esc, t, th } from "../words.js";

/** @import { Screen } from "../page.js" */
/** @import { GameFacts, SeatAnswer } from "../protocol.js" */

/**
 * @param {string} id
 * @param {string | null} invite
 * @returns {Screen}
 */
export function showJoin(id, invite) {
  const name = savedName();
  const said = seatWords();
  // a table's link holds each free seat's number and invitation ("1.CODE.2.CODE"): the
  // friend picks one of the seats still free
  const parts = invite && invite.includes(".") ? invite.split(".") : [];
  /** @type {Map<number, string>} */
  const codes = new Map();
  for (let k = 0; k + 1 < parts.length; k += 2) codes.set(Number(parts[k]), parts[k + 1]);
  app.innerHTML = `<section class="panel narrow"><h2>${esc(said.joinHead)}</h2><p id="join-info">${esc(t("Loading…"))}</p>
    <p id="join-seats" class="seat-line small"></p>
    <form id="join-form"><fieldset id="seat-choice" hidden><legend>${esc(said.pickSeat)}</legend></fieldset>
    <label>${esc(t("Your name"))} <input id="name" maxlength="24" value="${esc(name)}" placeholder="${esc(t("Your name"))}"></label>
    <button class="primary" id="join-btn" type="submit">${esc(said.takeSeat)}</button></form>
    <p id="join-error" class="error" role="alert"></p></section>`;
  // this page's own form (the page may be drawn again meanwhile: never listen twice)
  const form = element("join-form", HTMLFormElement);
  const nameInput = element("name", HTMLInputElement);
  const error = byId("join-error");
  let joining = false;
  let title = "";
  let host = "";
  const watchLink = `<a href="#/watch/${esc(id)}">${esc(said.watchIt)}</a>`;
  const describe = async () => {
    try {
      /** @type {GameFacts} */
      const info = await api(`/api/games/${encodeURIComponent(id)}`);
      if (!form.isConnected) return; // another screen meanwhile
      title = titleOf(info);
      host = info.names[0];
      const free = info.joined.some((j) => !j);
      const closed = !invite && info.by_invitation;
      byId("join-info").innerHTML = !free
        ? th("{said} {link}.", { said: esc(said.allTaken), link: watchLink })
        : closed
          ? th("{said} {link}.", { said: esc(said.byInvitation), link: watchLink })
          : esc(invite ? said.invited(host, title) : said.lobbyJoin(host, title));
      byId("join-seats").innerHTML = `<span class="free-count">${esc(said.seatsFree(info.free, info.names.length))}</span> ${seatLine(seatsOf(info))}`;
      const open = [...codes.keys()].filter((seat) => info.joined[seat] === false);
      const choice = byId("seat-choice");
      choice.hidden = open.length < 2;
      choice.innerHTML = `<legend>${esc(said.pickSeat)}</legend>${open
        .map((seat, k) => `<label class="check"><input type="radio" name="seat" value="${seat}"${k ? "" : " checked"}> ${esc(said.joinSeatLabel(seat, info.names.length, host))}</label>`)
        .join("")}`;
      form.hidden = !free || closed || (codes.size > 0 && !open.length);
    } catch (err) {
      if (form.isConnected) byId("join-info").textContent = errorText(err);
    }
  };
  const described = describe();
  // a press before the game is described waits for it (the button is there at once: the
  // form must never be sent as a plain form, which would leave the page)
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (joining) return; // one seat per person, however often the button is pressed
    joining = true;
    await described;
    if (form.hidden || !form.isConnected) return; // no seat to take after all
    error.textContent = "";
    const player = nameInput.value.trim();
    saveName(player);
    // the invitation code goes in the body, never in a URL
    const picked = Number(document.querySelector("#seat-choice input[name=seat]:checked")?.getAttribute("value") ?? [...codes.keys()][0]);
    const code = codes.size ? codes.get(picked) : invite;
    const body = code ? { name: player || null, invite: code } : { name: player || null };
    try {
      /** @type {SeatAnswer} */
      const joined = await api(`/api/games/${encodeURIComponent(id)}/join`, body);
      remember(id, joined.token, said.joinedLabel(title, host));
      rememberShuffle(id, joined.shuffle);
      location.hash = `#/g/${id}/${joined.token}`;
    } catch (err) {
      joining = false;
      error.innerHTML = th("{said} {link}.", { said: esc(errorText(err)), link: watchLink });
    }
  });
  return { close: () => {} };
}
