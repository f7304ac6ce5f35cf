// The home page (#/): the new-game form (against the computer, or friends and computers in
// the seats chosen), the games played in this browser, and the lobby.

import { card } from "../html.js";
import { myGames, remember, rememberShuffle, saveName, savedName } from "../memory.js";
import { api, app, byId, defaultDeck, deck, element, errorText, toast } from "../page.js";
import { gamePitch, games, levelWord, levels, seatWords } from "../seats.js";
import { escapeHTML as esc, language, t, tn } from "../words.js";
import { formName } from "./leaderboard.js";
import { loadLobby } from "./lobby.js";
import { finishedItems } from "./profile.js";
import { quickPanel, wireQuickPanel } from "./quick.js";

/** @import { Screen } from "../page.js" */
/** @import { SeatAnswer } from "../protocol.js" */
/** @import { FinishedGame } from "./profile.js" */

/** Each level's two-player rating, greedy = 1000 (the server writes them into the page).
 * @returns {Record<string, string>} */
const ratings = () =>
  Object.fromEntries((document.body.dataset.ratings || "").split(" ").filter(Boolean).map((pair) => pair.split(":")));

/** How long a game lasts: [the rules' flags, words]; "" is one deal won (a rematch carries
 * la cuenta, the count, on).
 * @returns {[string, string][]} */
const lengths = () => [
  ["", t("One deal won (a rematch keeps the count)")],
  ...[3, 5].map((n) => /** @type {[string, string]} */ ([`match=n_deals,match_target=${n}`, tn("{count} deal", "{count} deals", n)])),
  ...[3, 5].map((n) => /** @type {[string, string]} */ ([`match=first_to,match_target=${n}`, tn("First to win {count} deal", "First to win {count} deals", n)])),
];

/**
 * The player's finished games, kept by the server (from any browser of his), newest first:
 * each with its players, and its replay.
 * @param {string} player
 */
function showFinished(player) {
  api(`/api/players/${encodeURIComponent(player)}/games`)
    .then((/** @type {{games: FinishedGame[]}} */ found) => {
      if (!found.games.length) return;
      byId("finished-list").innerHTML = finishedItems(found.games, true);
      byId("finished").hidden = false;
    })
    .catch(() => null);
}

/** @returns {Screen} */
export function showHome() {
  const name = savedName();
  defaultDeck(games()[0][3] === "standard" ? "french" : "spanish");
  document.title = t("Conquian");
  const mine = myGames();
  const said = seatWords();
  const RATINGS = ratings();
  // Translators: the label of the menu of the games (two players, tercerilla...).
  const gameLabel = esc(t("Game"));
  app.innerHTML = `
    <section class="home">
      <div class="hero">
        <div class="fan" id="fan">${["Ah", "2h", "3h"].map((c) => card(c, deck())).join("")}</div>
        <div>
          <h1>${esc(t("Conquian"))}</h1>
          <p><span id="pitch">${esc(gamePitch(games()[0][3]))}</span>
          <a href="#/rules${games()[0][3] === "standard" ? "" : "/mexican"}" id="how-to-play">${esc(t("How to play"))}</a></p>
          <p><button type="button" id="learn" class="learn">${esc(t("Learn to play"))}</button> <span class="small">${esc(t("One guided hand against the computer, step by step."))}</span></p>
        </div>
      </div>
      ${quickPanel()}
      <form id="new-game" class="panel">
        <h2>${esc(t("New game"))}</h2>
        <label>${esc(t("Your name"))} <input id="name" name="name" maxlength="24" autocomplete="nickname" value="${esc(name)}" placeholder="${esc(t("Player {number}", { number: 1 }))}"></label>
        <p class="small" id="my-ratings" hidden></p>
        <label>${gameLabel} <select id="game-rules">${games().map(([v, label]) => `<option value="${v}">${esc(label)}</option>`).join("")}</select></label>
        <label>${esc(t("How long"))} <select id="game-length">${lengths().map(([v, label]) => `<option value="${v}">${esc(label)}</option>`).join("")}</select></label>
        <fieldset>
          <legend>${esc(t("Against the computer"))}</legend>
          <div class="levels">${levels().map(([v, label]) => `<label class="level"><input type="radio" name="level" value="${v}" ${v === "medium" ? "checked" : ""}> ${esc(label)}${RATINGS[v] ? ` <span class="rating">${esc(RATINGS[v])}</span>` : ""}</label>`).join("")}</div>
          <p class="small" id="ratings-note">${esc(t("The number is the level's rating between two players: 1000 is a typical Conquian program, and a level 100 above another wins about 64 of 100 decided deals against it."))}</p>
          <label class="check"><input type="checkbox" id="hints-bot" checked> ${esc(t("Hints: I may ask for a hint"))}</label>
          <button type="submit" id="play-bot" class="primary">${esc(t("Play the computer"))}</button>
        </fieldset>
        <fieldset id="friends">
          <legend>${esc(said.friendsLegend)}</legend>
          <p class="small" id="friends-note"></p>
          <div class="seat-picks" id="seat-picks"></div>
          <p class="small" id="pick-summary" aria-live="polite"></p>
          <label class="check"><input type="checkbox" id="public"> ${esc(said.publicLabel)}</label>
          <label class="check"><input type="checkbox" id="hints-friends"> ${esc(t("Hints: the players may ask for hints"))}</label>
          <label class="check" id="rated-label"><input type="checkbox" id="rated"> ${esc(t("Rated: the game counts for the players' ratings"))}</label>
          <label class="check"><input type="checkbox" id="clock-friends"> ${esc(t("Clock: 30 s a decision, then a bank of 60 s; a computer decides for whoever runs out"))}</label>
          <label class="check"><input type="checkbox" id="chat-friends"> ${esc(t("Chat: the players may write to each other, not only the set phrases"))}</label>
          <button type="button" id="play-friend"></button>
        </fieldset>
      </form>
      <section class="panel">
        <h2>${esc(t("Your games"))}</h2>
        ${mine.length ? `<ul class="list">${mine.map((g) => `<li><a href="#/g/${g.id}/${g.token}">${esc(g.label)}</a> <span class="small">${esc(new Date(g.at).toLocaleString(language()))}</span></li>`).join("")}</ul>` : `<p class="small">${esc(t("Games you play in this browser are listed here."))}</p>`}
        <div id="finished" hidden><h3>${esc(t("Finished"))}</h3><ul class="list" id="finished-list"></ul><p class="small"><a href="#/account" id="keep-link">${esc(t("Keep your games on any device: your account"))}</a></p></div>
      </section>
      <section class="panel" id="lobby">
        <h2>${esc(t("Lobby"))} <button type="button" id="refresh" class="small-btn">${esc(t("Refresh"))}</button></h2>
        <div id="lobby-list"><p class="small">${esc(t("Loading…"))}</p></div>
      </section>
    </section>`;
  const nameInput = element("name", HTMLInputElement);
  const rulesSelect = element("game-rules", HTMLSelectElement);
  const game = () => games().find(([v]) => v === rulesSelect.value) || games()[0];
  const picks = () => [...document.querySelectorAll("#seat-picks select")].map((el) => /** @type {HTMLSelectElement} */ (el).value);
  const drawPicks = () => {
    const seats = game()[2];
    const before = picks();
    const box = byId("seat-picks");
    box.hidden = seats === 2; // one other seat: a friend (or the computer, above)
    // the ratings are those of the two-player game: shown for it only
    document.querySelector("#new-game .levels")?.classList.toggle("rated", seats === 2);
    byId("ratings-note").hidden = seats !== 2;
    box.innerHTML = Array.from({ length: seats - 1 }, (_, k) => {
      const seat = k + 1;
      const chosen = before[k] || "person";
      /** @param {string} value @param {string} label */
      const option = (value, label) => `<option value="${value}"${value === chosen ? " selected" : ""}>${esc(label)}</option>`;
      return `<label class="seat-pick"><span>${esc(said.seatLabel(seat, seats))}</span>
        <select id="seat-${seat}" data-seat="${seat}">${option("person", said.person)}
        <optgroup label="${esc(said.computerGroup)}">${levels().map(([v]) => option(`bot:${v}`, said.computer(v))).join("")}</optgroup></select></label>`;
    }).join("");
    byId("friends-note").textContent = said.friendsNote(seats);
    box.querySelectorAll("select").forEach((el) => el.addEventListener("change", sayPicks));
    sayPicks();
  };
  const sayPicks = () => {
    const chosen = picks();
    const people = chosen.filter((v) => v === "person").length;
    const bots = chosen.length - people;
    const summary = byId("pick-summary");
    summary.hidden = game()[2] === 2;
    summary.textContent = summary.hidden ? "" : said.pickSummary(people, bots);
    byId("play-friend").textContent = said.createButton(people, bots);
    // only games between people are rated
    const rated = element("rated", HTMLInputElement);
    rated.disabled = bots > 0;
    if (bots > 0) rated.checked = false;
  };
  const sayGame = () => {
    const spec = game()[3];
    byId("pitch").textContent = gamePitch(spec); // the page's words follow the game chosen
    byId("how-to-play").setAttribute("href", spec === "standard" ? "#/rules" : "#/rules/mexican");
    defaultDeck(spec === "standard" ? "french" : "spanish");
    byId("fan").innerHTML = ["Ah", "2h", "3h"].map((c) => card(c, deck())).join("");
  };
  rulesSelect.addEventListener("change", () => {
    drawPicks();
    sayGame();
  });
  drawPicks();
  let starting = false;
  /** @param {"bot" | "seats"} mode */
  const start = async (mode) => {
    if (starting) return; // one game however often the button is pressed
    const player = nameInput.value.trim();
    saveName(player);
    const level = document.querySelector("input[name=level]:checked")?.getAttribute("value") || undefined;
    const [, title] = game();
    const chosen = picks();
    const length = element("game-length", HTMLSelectElement).value;
    /** @type {Record<string, unknown>} */
    const body = { name: player || null, rules: length ? `${rulesSelect.value},${length}` : rulesSelect.value };
    if (mode === "bot") Object.assign(body, { mode, level, hints: element("hints-bot", HTMLInputElement).checked });
    else {
      body.seats = chosen.map((v) => (v === "person" ? { kind: "person" } : { kind: "bot", level: v.slice(4) }));
      body.public = element("public", HTMLInputElement).checked;
      body.hints = element("hints-friends", HTMLInputElement).checked;
      if (element("rated", HTMLInputElement).checked) body.rated = true;
      if (element("clock-friends", HTMLInputElement).checked) body.clock = true;
      if (element("chat-friends", HTMLInputElement).checked) body.chat = true;
    }
    const people = mode === "bot" ? 0 : chosen.filter((v) => v === "person").length;
    const bots = chosen.length - people;
    starting = true;
    try {
      /** @type {SeatAnswer} */
      const made = await api("/api/games", body);
      remember(made.id, made.token, said.myGameLabel(title, people, bots, levelWord(level || "")));
      rememberShuffle(made.id, made.shuffle);
      location.hash = `#/g/${made.id}/${made.token}`;
    } catch (err) {
      starting = false;
      toast(errorText(err), "error");
    }
  };
  byId("new-game").addEventListener("submit", (e) => {
    e.preventDefault();
    start("bot");
  });
  byId("play-friend").addEventListener("click", () => start("seats"));
  byId("learn").addEventListener("click", async () => {
    if (starting) return;
    starting = true;
    const player = nameInput.value.trim();
    saveName(player);
    try {
      /** @type {SeatAnswer} */
      const made = await api("/api/games", { mode: "lesson", name: player || null });
      remember(made.id, made.token, t("Learn to play"));
      location.hash = `#/g/${made.id}/${made.token}`;
    } catch (err) {
      starting = false;
      toast(errorText(err), "error");
    }
  });
  // who this visitor is on this server: his player's name, until he types his own
  api("/api/me")
    .then((/** @type {{id: string, name: string, ratings: Record<string, {rating: number, provisional: boolean}>}} */ me) => {
      if (!nameInput.value && me.name) nameInput.placeholder = me.name;
      showFinished(me.id);
      const mine = Object.entries(me.ratings || {});
      if (!mine.length) return;
      // a provisional rating (its first ten games) is shown with a question mark
      const value = (/** @type {{rating: number, provisional: boolean}} */ r) => String(r.rating) + (r.provisional ? "?" : "");
      const said = mine.map(([form, r]) => t("{game}: {rating}", { game: formName(form), rating: value(r) }));
      const line = byId("my-ratings");
      line.textContent = `${t("Your ratings")} — ${said.join(" · ")}`;
      line.hidden = false;
    })
    .catch(() => null);
  wireQuickPanel(() => {
    saveName(nameInput.value.trim());
    return nameInput.value.trim();
  });
  byId("refresh").addEventListener("click", loadLobby);
  loadLobby();
  return { close: () => {} };
}
