// The Conquian browser client.  It holds no rules: it draws what the server sends
// (this seat's observation, the legal actions, the moves in words) and sends back
// one of the legal actions.  Routes live in the URL fragment:
//   #/                      home: new game, your games, the lobby
//   #/g/ID/TOKEN            play a seat (the token is the seat's secret: it stays in the
//                           fragment, which is never sent, and goes to the server only in
//                           the websocket's first message)
//   #/join/ID               take a free seat of a public game (from the lobby)
//   #/join/ID/CODE          take the seat of an invitation (the code is a secret like the
//                           token: it stays in the fragment and goes only in the join's body)
//   #/watch/ID              watch a game (public information only)
//   #/replay/ID/DEAL        step through a finished deal
//   #/rules[/SPEC]          how to play (a game's own rules with its spec)
//
// Every sentence of the page goes through the catalogue (words.js: t, tn, th); the words the
// server builds (the moves, the situation, the end of a deal, errors, the rules) come in the
// language of this page's connection.  The keys of the buttons (T, P, D...) are the same in
// every language.

import { cardImage, cardLabel, cardName, parseCard, suitIcon } from "./cards.js";
import { canCheck, checkShuffle, newSeed } from "./fair.js";
import { MOVE_MS, leaning, measure as measureMotion, snapshot, start as startMotion } from "./motion.js";
import { playSound, wakeSound } from "./sound.js";
import { chooseLanguage, escapeHTML, language, languages, loadWords, t, th, tn, translatePage } from "./words.js";

const app = document.getElementById("app");
const toastBox = document.getElementById("toast");
const deckSelect = document.getElementById("deck");
const langSelect = document.getElementById("lang");
const esc = escapeHTML;
const offlineBox = document.getElementById("offline");
// a touch screen: no keyboard hints, a tap for a click
const touchScreen = matchMedia("(hover: none), (pointer: coarse)");

// Without a network the page still opens (the service worker keeps its files) and says so.
const sayOnline = () => (offlineBox.hidden = navigator.onLine);
window.addEventListener("online", sayOnline);
window.addEventListener("offline", sayOnline);
sayOnline();
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

// The language the server wrote this page in (?lang=, the cookie or Accept-Language); a
// language asked for in the address is kept, as if chosen from the menu.
const askedLanguage = new URLSearchParams(location.search).get("lang");
if (askedLanguage && document.documentElement.lang === askedLanguage.split("-")[0].toLowerCase()) {
  chooseLanguage(document.documentElement.lang);
}
await loadWords(document.documentElement.lang || undefined);

// [value sent, label, seats, the spec the server gives the game back as]
const games = () => [
  ["standard", t("Two players (standard)"), 2, "standard"],
  ["tercerilla", t("Three players: tercerilla (Mexican)"), 3, "mexican"],
  ["mexican,num_players=4", t("Four players (Mexican)"), 4, "mexican,num_players=4"],
  ["mexican,num_players=2", t("Two players, Mexican"), 2, "mexican,num_players=2"],
];
// each level's two-player rating, greedy = 1000 (the server writes them into the page)
const RATINGS = Object.fromEntries(
  (document.body.dataset.ratings || "").split(" ").filter(Boolean).map((pair) => pair.split(":")),
);
const levels = () => [
  ["beginner", t("Beginner")],
  ["easy", t("Easy")],
  ["medium", t("Medium")],
  ["hard", t("Hard")],
  ["expert", t("Expert")],
];
// a computer player's level inside a sentence, as the server writes it in the computer's name
const levelWord = (level) =>
  // Translators: the levels of a computer player, in its name: "Computer (easy)".
  ({ beginner: t("beginner"), easy: t("easy"), medium: t("medium"), hard: t("hard"), expert: t("expert") })[level] || level;

// Every sentence about seats, invitations and the lobby, in one place (as checkWords holds
// the shuffle check's); made again when the language changes.
const seatWords = () => ({
  // the seats of the new-game form, counted from the creator's (seat 0)
  seatLabel: (seat, seats) =>
    seat === 1
      ? t("Seat {number} · on your right, plays after you", { number: seat + 1 })
      : seat === seats - 1
        ? t("Seat {number} · on your left, plays before you", { number: seat + 1 })
        : t("Seat {number}", { number: seat + 1 }),
  person: t("A friend (invitation link)"),
  computerGroup: t("A computer player"),
  computer: (level) => t("Computer: {level}", { level: levelWord(level) }),
  friendsLegend: t("Against friends"),
  friendsNote: (seats) =>
    seats > 2
      ? t("Choose who sits in each other seat. Every friend gets an invitation link of their own, which seats them once.")
      : t("Create a game and send your friend the invitation link."),
  pickSummary: (people, bots) => {
    if (!people) return t("Every other seat is a computer player.");
    const links = tn("{count} invitation link", "{count} invitation links", people);
    if (!bots) return t("{links} to send.", { links });
    const computers = tn("{count} computer player", "{count} computer players", bots);
    return t("{links} to send, {computers} at the table.", { links, computers });
  },
  createButton: (people, bots) =>
    !bots ? (people > 1 ? t("Create a game for friends") : t("Create a game for a friend")) : people ? t("Create the table") : t("Play the computer"),
  publicLabel: t("List it in the lobby, so that anyone may take a free seat"),
  myGameLabel: (game, people, bots, level) =>
    !people
      ? t("{game} against the computer ({level})", { game, level })
      : bots
        ? t("{game} with friends and the computer", { game })
        : t("{game} with friends", { game }),
  joinedLabel: (game, host) => t("{game} with {host}", { game, host }),
  // the waiting room
  inviteHead: (count) =>
    count > 1
      ? t("Send each friend their own invitation link: each one takes one seat, once.")
      : t("Send this invitation link to your friend: it takes the free seat, once."),
  inviteLobby: t("The game is listed in the lobby too: anyone may take a free seat from there."),
  sharedLink: (count) => (count > 1 ? t("Send this link to your friends (one link for every free seat):") : t("Send this link to your friend:")),
  invitesElsewhere: t("The invitation links are with the player who made the game."),
  copy: t("Copy"),
  copied: (label) => t("The link for {seat} is copied.", { seat: label.toLocaleLowerCase(language()) }),
  waitingFor: (free) => tn("Waiting for one more player to join…", "Waiting for {count} more players to join…", free),
  freeSeat: t("free seat"),
  freeInvited: t("free: waiting for the invited friend"),
  you: (name) => {
    const who = name || t("You");
    return t("{name} (you)", { name: who });
  },
  // the lobby
  // Translators: "1 of 3 seats free": {count} seats are free of the {size} at the table.
  seatsFree: (free, size) => tn("{count} of {size} seats free", "{count} of {size} seats free", free, { size }),
  gameTitle: (rules, size) => {
    const known = games().find(([, , n, spec]) => spec === rules && n === size);
    return known ? known[1] : t("{size} players ({rules} rules)", { size, rules });
  },
  nobodyWaiting: t("No one is waiting right now."),
  noGames: t("No games right now."),
  openHead: t("Open games"),
  playingHead: t("Being played"),
  join: t("Join"),
  watch: t("Watch"),
  // the join page
  joinHead: t("Join a game"),
  invited: (host, game) => t("{host} invites you to a seat at a game of Conquian — {game}.", { host, game }),
  lobbyJoin: (host, game) => t("{host}'s game of Conquian — {game}.", { host, game }),
  byInvitation: t("The seats of this game are taken by invitation: open the invitation link you were sent."),
  allTaken: t("Every seat of this game is taken."),
  watchIt: t("Watch it"),
  takeSeat: t("Take your seat"),
});
let SEAT_WORDS = seatWords();

// The deck the cards are drawn in: the one chosen in the header, else the game's own (the
// rules' deck, in which the server also writes the cards of its errors and hints).
let deckChoice = localStorage.getItem("conquian.deck");
let deck = deckChoice || "french";
deckSelect.value = deck;
deckSelect.addEventListener("change", () => {
  deck = deckChoice = deckSelect.value;
  localStorage.setItem("conquian.deck", deck);
  rerender();
});

function followDeck(gameDeck) {
  if (deckChoice) return;
  deck = gameDeck === "spanish" ? "spanish" : "french";
  deckSelect.value = deck;
}

// The player's options, kept in this browser: sound (off until turned on), and whether the
// page declines the cards the player cannot use and makes the moves that leave no choice
// (until chosen: on against the computer, off between people).
const option = (key) => localStorage.getItem(`conquian.${key}`);
const soundOn = () => option("sound") === "on";
const againstComputer = (s) => s.game.kinds.every((kind, p) => p === s.seat || kind === "bot");
const autoPlayOn = (s) => (option("autoplay") ? option("autoplay") === "on" : againstComputer(s));

function sound(kind) {
  if (soundOn()) playSound(kind);
}

let view = null; // the current screen: {kind, ...}
let socket = null;

// ------------------------------------------------------------------ language

function drawLanguages() {
  langSelect.innerHTML = languages()
    .map(({ code, name }) => `<option value="${esc(code)}" lang="${esc(code)}"${code === language() ? " selected" : ""}>${esc(name)}</option>`)
    .join("");
  langSelect.value = language();
}

// Another language from the menu: kept in a cookie, the page's words fetched and drawn again,
// and the game's connection asked for the server's words in it.
async function switchLanguage(code) {
  chooseLanguage(code);
  await loadWords(code);
  SEAT_WORDS = seatWords();
  translatePage();
  drawLanguages();
  if (view && view.kind === "game" && view.state && socket && socket.readyState === WebSocket.OPEN) {
    view.hint = null;
    socket.send(JSON.stringify({ type: "lang", lang: language() }));
    renderGame(view);
  } else {
    route();
  }
}

langSelect.addEventListener("change", () => switchLanguage(langSelect.value));
translatePage();
drawLanguages();

// ------------------------------------------------------------------ helpers

function toast(message, kind = "info", html = null) {
  if (html === null) toastBox.textContent = message;
  else toastBox.innerHTML = html;
  toastBox.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (toastBox.className = ""), kind === "error" ? 6000 : 3500);
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || t("The server answered {status}.", { status: response.status }));
  return data;
}

function chip(token) {
  const { rank, suit } = parseCard(token);
  const label = deck === "spanish" ? ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"][rank] : "A234567JQK"[rank];
  // the colour comes from the style sheet (.chip.fr / .chip.es): no inline style, for the CSP
  return `<span class="chip ${deck === "spanish" ? "es" : "fr"} suit-${suit}" data-card="${token}" title="${esc(cardName(token, deck))}">${label}${suitIcon(suit, deck)}</span>`;
}

function words(segments) {
  return (segments || []).map((s) => (typeof s === "string" ? esc(s) : chip(s.card))).join("");
}

function card(token, extra = "") {
  const name = token ? cardName(token, deck) : t("hidden card");
  return `<span class="card ${extra}" data-card="${token || ""}" role="img" aria-label="${esc(name)}">${cardImage(token, deck)}</span>`;
}

function meld(cards, extra = "") {
  return `<div class="meld">${cards.map((c) => card(c, extra)).join("")}</div>`;
}

function melds(list) {
  if (!list.length) return `<div class="empty">${esc(t("no melds yet"))}</div>`;
  return list.map((m) => meld(m)).join("");
}

function myGames() {
  try {
    return JSON.parse(localStorage.getItem("conquian.games") || "[]");
  } catch {
    return [];
  }
}

function remember(id, token, label) {
  const mine = myGames().filter((g) => g.id !== id);
  mine.unshift({ id, token, label, at: Date.now() });
  localStorage.setItem("conquian.games", JSON.stringify(mine.slice(0, 20)));
}

// What this browser knows of a game's fair shuffles, kept across reloads: the seeds it made,
// the commitment it was shown before each deal, the hand it was dealt in each deal, and the
// result of each check.
function shuffleMemory(id) {
  try {
    const m = JSON.parse(localStorage.getItem(`conquian.fair.${id}`) || "{}");
    return { seeds: m.seeds || [], shown: m.shown || {}, hands: m.hands || {}, sent: m.sent || {}, checks: {} };
  } catch {
    return { seeds: [], shown: {}, hands: {}, sent: {}, checks: {} };
  }
}

function saveShuffleMemory(id, m) {
  const { seeds, shown, hands, sent } = m;
  localStorage.setItem(`conquian.fair.${id}`, JSON.stringify({ seeds: seeds.slice(-40), shown, hands, sent }));
}

// The commitment a create or join answer published, before this browser gives its seed.
function rememberShuffle(id, shuffle) {
  if (!shuffle) return;
  const m = shuffleMemory(id);
  if (!(shuffle.deal in m.shown)) m.shown[shuffle.deal] = shuffle.commitment;
  saveShuffleMemory(id, m);
}

function closeSocket() {
  if (socket) {
    socket.onclose = null;
    socket.close();
    socket = null;
  }
}

// ------------------------------------------------------------------ routing

function route() {
  closeSocket();
  document.body.classList.remove("playing");
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const [page, id, extra] = parts;
  if (page === "g" && id && extra) return showGame(id, extra);
  if (page === "watch" && id) return showGame(id, null);
  if (page === "join" && id) return showJoin(id, extra || null);
  if (page === "replay" && id && extra) return showReplay(id, extra);
  if (page === "rules") return showRules(id || "standard");
  return showHome();
}

function rerender() {
  if (view && view.render) view.render();
}

window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);
if (document.readyState !== "loading") route();

// ------------------------------------------------------------------ home

function showHome() {
  const name = localStorage.getItem("conquian.name") || "";
  view = { kind: "home" };
  deck = deckChoice || "french";
  deckSelect.value = deck;
  document.title = t("Conquian");
  const mine = myGames();
  // Translators: the label of the menu of the games (two players, tercerilla...).
  const gameLabel = esc(t("Game"));
  app.innerHTML = `
    <section class="home">
      <div class="hero">
        <div class="fan">${["Ah", "2h", "3h"].map((c) => card(c)).join("")}</div>
        <div>
          <h1>${esc(t("Conquian"))}</h1>
          <p>${esc(t("The two-player, 40-card ancestor of rummy. Meld exactly 11 cards to win; every card you take goes straight onto your table."))}
          <a href="#/rules">${esc(t("How to play"))}</a></p>
        </div>
      </div>
      <form id="new-game" class="panel">
        <h2>${esc(t("New game"))}</h2>
        <label>${esc(t("Your name"))} <input id="name" name="name" maxlength="24" autocomplete="nickname" value="${esc(name)}" placeholder="${esc(t("Player {number}", { number: 1 }))}"></label>
        <label>${gameLabel} <select id="game-rules">${games().map(([v, label]) => `<option value="${v}">${esc(label)}</option>`).join("")}</select></label>
        <fieldset>
          <legend>${esc(t("Against the computer"))}</legend>
          <div class="levels">${levels().map(([v, label]) => `<label class="level"><input type="radio" name="level" value="${v}" ${v === "medium" ? "checked" : ""}> ${esc(label)}${RATINGS[v] ? ` <span class="rating">${esc(RATINGS[v])}</span>` : ""}</label>`).join("")}</div>
          <p class="small" id="ratings-note">${esc(t("The number is the level's rating between two players: 1000 is a typical Conquian program, and a level 100 above another wins about 64 of 100 decided deals against it."))}</p>
          <label class="check"><input type="checkbox" id="hints-bot" checked> ${esc(t("Hints: I may ask for a hint"))}</label>
          <button type="submit" id="play-bot" class="primary">${esc(t("Play the computer"))}</button>
        </fieldset>
        <fieldset id="friends">
          <legend>${esc(SEAT_WORDS.friendsLegend)}</legend>
          <p class="small" id="friends-note"></p>
          <div class="seat-picks" id="seat-picks"></div>
          <p class="small" id="pick-summary" aria-live="polite"></p>
          <label class="check"><input type="checkbox" id="public"> ${esc(SEAT_WORDS.publicLabel)}</label>
          <label class="check"><input type="checkbox" id="hints-friends"> ${esc(t("Hints: the players may ask for hints"))}</label>
          <button type="button" id="play-friend"></button>
        </fieldset>
      </form>
      <section class="panel">
        <h2>${esc(t("Your games"))}</h2>
        ${mine.length ? `<ul class="list">${mine.map((g) => `<li><a href="#/g/${g.id}/${g.token}">${esc(g.label)}</a> <span class="small">${esc(new Date(g.at).toLocaleString(language()))}</span></li>`).join("")}</ul>` : `<p class="small">${esc(t("Games you play in this browser are listed here."))}</p>`}
      </section>
      <section class="panel" id="lobby">
        <h2>${esc(t("Lobby"))} <button type="button" id="refresh" class="small-btn">${esc(t("Refresh"))}</button></h2>
        <div id="lobby-list"><p class="small">${esc(t("Loading…"))}</p></div>
      </section>
    </section>`;
  const nameInput = document.getElementById("name");
  const rulesSelect = document.getElementById("game-rules");
  const game = () => games().find(([v]) => v === rulesSelect.value) || games()[0];
  const picks = () => [...document.querySelectorAll("#seat-picks select")].map((el) => el.value);
  const drawPicks = () => {
    const seats = game()[2];
    const before = picks();
    const box = document.getElementById("seat-picks");
    box.hidden = seats === 2; // one other seat: a friend (or the computer, above)
    // the ratings are those of the two-player game: shown for it only
    document.querySelector("#new-game .levels").classList.toggle("rated", seats === 2);
    document.getElementById("ratings-note").hidden = seats !== 2;
    box.innerHTML = Array.from({ length: seats - 1 }, (_, k) => {
      const seat = k + 1;
      const chosen = before[k] || "person";
      const option = (value, label) => `<option value="${value}"${value === chosen ? " selected" : ""}>${esc(label)}</option>`;
      return `<label class="seat-pick"><span>${esc(SEAT_WORDS.seatLabel(seat, seats))}</span>
        <select id="seat-${seat}" data-seat="${seat}">${option("person", SEAT_WORDS.person)}
        <optgroup label="${esc(SEAT_WORDS.computerGroup)}">${levels().map(([v]) => option(`bot:${v}`, SEAT_WORDS.computer(v))).join("")}</optgroup></select></label>`;
    }).join("");
    document.getElementById("friends-note").textContent = SEAT_WORDS.friendsNote(seats);
    box.querySelectorAll("select").forEach((el) => el.addEventListener("change", sayPicks));
    sayPicks();
  };
  const sayPicks = () => {
    const chosen = picks();
    const people = chosen.filter((v) => v === "person").length;
    const bots = chosen.length - people;
    const summary = document.getElementById("pick-summary");
    summary.hidden = game()[2] === 2;
    summary.textContent = summary.hidden ? "" : SEAT_WORDS.pickSummary(people, bots);
    document.getElementById("play-friend").textContent = SEAT_WORDS.createButton(people, bots);
  };
  rulesSelect.addEventListener("change", drawPicks);
  drawPicks();
  let starting = false;
  const start = async (mode) => {
    if (starting) return; // one game however often the button is pressed
    const player = nameInput.value.trim();
    localStorage.setItem("conquian.name", player);
    const level = (document.querySelector("input[name=level]:checked") || {}).value;
    const [, title] = game();
    const chosen = picks();
    const body = { name: player || null, rules: rulesSelect.value };
    if (mode === "bot") Object.assign(body, { mode, level, hints: document.getElementById("hints-bot").checked });
    else {
      body.seats = chosen.map((v) => (v === "person" ? { kind: "person" } : { kind: "bot", level: v.slice(4) }));
      body.public = document.getElementById("public").checked;
      body.hints = document.getElementById("hints-friends").checked;
    }
    const people = mode === "bot" ? 0 : chosen.filter((v) => v === "person").length;
    const bots = chosen.length - people;
    starting = true;
    try {
      const made = await api("/api/games", body);
      remember(made.id, made.token, SEAT_WORDS.myGameLabel(title, people, bots, levelWord(level)));
      rememberShuffle(made.id, made.shuffle);
      location.hash = `#/g/${made.id}/${made.token}`;
    } catch (err) {
      starting = false;
      toast(err.message, "error");
    }
  };
  document.getElementById("new-game").addEventListener("submit", (e) => {
    e.preventDefault();
    start("bot");
  });
  document.getElementById("play-friend").addEventListener("click", () => start("seats"));
  document.getElementById("refresh").addEventListener("click", loadLobby);
  loadLobby();
}

async function loadLobby() {
  const box = document.getElementById("lobby-list");
  if (!box) return;
  try {
    const lobby = await api("/api/lobby");
    const entry = (g, link, label, extra) =>
      `<li class="lobby-game" data-game="${esc(g.id)}"><div><strong>${esc(SEAT_WORDS.gameTitle(g.rules, g.size))}</strong>
        <div class="seat-line small">${extra}${seatLine(g.seats)}</div></div> <a class="button" href="${link}">${esc(label)}</a></li>`;
    const open = lobby.open.map((g) => entry(g, `#/join/${esc(g.id)}`, SEAT_WORDS.join, `<span class="free-count">${esc(SEAT_WORDS.seatsFree(g.free, g.size))}</span> `));
    const live = lobby.playing.map((g) => entry(g, `#/watch/${esc(g.id)}`, SEAT_WORDS.watch, ""));
    box.innerHTML =
      `<h3>${esc(SEAT_WORDS.openHead)}</h3>${open.length ? `<ul class="list">${open.join("")}</ul>` : `<p class="small">${esc(SEAT_WORDS.nobodyWaiting)}</p>`}` +
      `<h3>${esc(SEAT_WORDS.playingHead)}</h3>${live.length ? `<ul class="list">${live.join("")}</ul>` : `<p class="small">${esc(SEAT_WORDS.noGames)}</p>`}`;
  } catch (err) {
    box.innerHTML = `<p class="error">${esc(err.message)}</p>`;
  }
}

// ------------------------------------------------------------------ join

// A game's seats in one line: who sits, the computer players, the free seats.  ``seats`` as
// the lobby gives them ({kind, name, free}); seatsOf makes them of a game's facts.
function seatLine(seats) {
  return seats
    .map((seat) => (seat.free ? `<span class="seat free">${esc(SEAT_WORDS.freeSeat)}</span>` : `<span class="seat${seat.kind === "bot" ? " bot" : ""}">${esc(seat.name)}</span>`))
    .join(`<span class="sep" aria-hidden="true"> · </span>`);
}

function seatsOf(g) {
  return g.names.map((name, p) => ({ kind: g.kinds[p], name, free: !g.joined[p] }));
}

function titleOf(g) {
  return SEAT_WORDS.gameTitle(g.rules, g.names.length);
}

async function showJoin(id, invite) {
  view = { kind: "join" };
  const name = localStorage.getItem("conquian.name") || "";
  app.innerHTML = `<section class="panel narrow"><h2>${esc(SEAT_WORDS.joinHead)}</h2><p id="join-info">${esc(t("Loading…"))}</p>
    <p id="join-seats" class="seat-line small"></p>
    <form id="join-form"><label>${esc(t("Your name"))} <input id="name" maxlength="24" value="${esc(name)}" placeholder="${esc(t("Your name"))}"></label>
    <button class="primary" id="join-btn" type="submit">${esc(SEAT_WORDS.takeSeat)}</button></form>
    <p id="join-error" class="error" role="alert"></p></section>`;
  // this page's own form (the page may be drawn again meanwhile: never listen twice)
  const form = document.getElementById("join-form");
  const said = document.getElementById("join-error");
  let joining = false;
  let title = "";
  let host = "";
  const watchLink = `<a href="#/watch/${esc(id)}">${esc(SEAT_WORDS.watchIt)}</a>`;
  try {
    const info = await api(`/api/games/${encodeURIComponent(id)}`);
    title = titleOf(info);
    host = info.names[0];
    const free = info.joined.some((j) => !j);
    const closed = !invite && info.by_invitation;
    document.getElementById("join-info").innerHTML = !free
      ? th("{said} {link}.", { said: esc(SEAT_WORDS.allTaken), link: watchLink })
      : closed
        ? th("{said} {link}.", { said: esc(SEAT_WORDS.byInvitation), link: watchLink })
        : esc(invite ? SEAT_WORDS.invited(host, title) : SEAT_WORDS.lobbyJoin(host, title));
    document.getElementById("join-seats").innerHTML = `<span class="free-count">${esc(SEAT_WORDS.seatsFree(info.free, info.names.length))}</span> ${seatLine(seatsOf(info))}`;
    form.hidden = !free || closed;
  } catch (err) {
    document.getElementById("join-info").textContent = err.message;
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (joining) return; // one seat per person, however often the button is pressed
    joining = true;
    said.textContent = "";
    const player = form.querySelector("#name").value.trim();
    localStorage.setItem("conquian.name", player);
    // the invitation code goes in the body, never in a URL
    const body = invite ? { name: player || null, invite } : { name: player || null };
    try {
      const joined = await api(`/api/games/${encodeURIComponent(id)}/join`, body);
      remember(id, joined.token, SEAT_WORDS.joinedLabel(title, host));
      rememberShuffle(id, joined.shuffle);
      location.hash = `#/g/${id}/${joined.token}`;
    } catch (err) {
      joining = false;
      said.innerHTML = th("{said} {link}.", { said: esc(err.message), link: watchLink });
    }
  });
}

// ------------------------------------------------------------------ the game

function showGame(id, token) {
  const game = {
    kind: "game",
    id,
    token,
    state: null,
    selected: new Set(),
    chooser: null, // {title, actions}
    hint: null,
    seenDeal: Number(localStorage.getItem(`conquian.seen.${id}`) || 0),
    fair: shuffleMemory(id),
    askedRematch: false,
    nextId: 1,
    pending: false,
    retries: 0,
    notes: [], // what the page did by itself: {deal, at (the log's length then), html}
    endedFrom: null, // the last state seen of a deal that ended (shown until Continue)
    autoTimer: null,
    render: () => renderGame(game),
  };
  view = game;
  app.innerHTML = `<p class="loading">${esc(t("Connecting…"))}</p>`;
  connect(game);
}

function connect(game) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(game.id)}`);
  socket = ws;
  let received = null; // the last state this socket brought, its lists whole
  ws.onopen = () => {
    game.retries = 0;
    game.offline = false;
    if (game.review && game.review.type !== "review") game.review = null; // the server forgot it
    // who we are: the seat token goes in the first message, never in the URL
    // with this browser's seed for the shuffle of the deal being shuffled, and the language
    // of the words we want
    // deltas: each state brings the moves of the deal from where the last one differs only
    const hello = { type: "hello", lang: language(), deltas: true };
    if (game.token) {
      hello.token = game.token;
      hello.seed = newSeed();
      game.fair.seeds.push(hello.seed);
      saveShuffleMemory(game.id, game.fair);
    }
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "state") {
      wholeLists(msg, received);
      received = msg;
      const before = game.state;
      game.state = msg;
      game.pending = false;
      if (!before || before.seq !== msg.seq) {
        game.selected.clear();
        game.chooser = null;
        game.hint = null;
      }
      if (msg.last && before && before.obs && (!before.last || before.last.deal !== msg.last.deal)) game.endedFrom = before;
      cue(before, msg);
      followDeck(msg.game.deck);
      followShuffle(game, msg);
      if (msg.game.rematch && game.askedRematch && game.token) {
        location.hash = `#/g/${msg.game.rematch}/${game.token}`;
        return;
      }
      renderGame(game);
    } else if (msg.type === "error") {
      game.pending = false;
      if (game.review && game.review.type !== "review") game.review = null; // asked again by the button
      toast(msg.message, "error", msg.words ? words(msg.words) : null);
      if (game.state) renderGame(game);
      else app.innerHTML = `<section class="panel narrow"><h2>${esc(t("Cannot open this game"))}</h2><p class="error">${esc(msg.message)}</p><a href="#/">${esc(t("Back"))}</a></section>`;
    } else if (msg.type === "review" || msg.type === "review_progress") {
      const done = game.review && game.review.type === "review" && game.review.deal === msg.deal;
      if (msg.type === "review" || !done) game.review = msg;
      renderGame(game);
    } else if (msg.type === "hint") {
      toastBox.className = "";
      if (game.state && msg.seq === game.state.seq) {
        game.hint = msg;
        renderGame(game);
      }
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    game.offline = true;
    if (game.state) renderGame(game);
    const wait = Math.min(5000, 300 * 2 ** game.retries++);
    setTimeout(() => {
      if (view === game) connect(game);
    }, wait);
  };
}

// A state sent with deltas holds the deal's log and the observation's history from
// log_from and history_from on; the items before those are the last state's.
function wholeLists(msg, last) {
  if (msg.log_from) msg.log = last.log.slice(0, msg.log_from).concat(msg.log);
  if (msg.obs && msg.history_from) {
    msg.obs.history = last.obs.history.slice(0, msg.history_from).concat(msg.obs.history);
  }
}

// An event of the observation's history as the server sends it (its player, its verb and
// the card it concerned: the centre card, or the card discarded or passed on; null for
// another player's exchange choice).
function parseEvent(event) {
  if (!event || typeof event !== "object") return null;
  return { player: event.player, verb: event.verb, card: event.card || null };
}

// The sound of what just happened: a deal dealt, a card taken or discarded, a force, the
// end of a deal.
function cue(before, msg) {
  if (!soundOn() || !msg.obs) return;
  if (msg.last && (!before || !before.last || before.last.deal !== msg.last.deal)) return before && sound("end");
  if (!before || !before.obs || before.match.deal !== msg.match.deal) return sound("deal");
  const events = msg.obs.history.slice(before.obs.history.length).map(parseEvent).filter(Boolean);
  const verbs = new Set(events.map((e) => e.verb));
  if (verbs.has("force")) sound("force");
  else if (verbs.has("take")) sound("take");
  else if (verbs.has("discard") || verbs.has("exchange")) sound("discard");
}

// Note what the state says of the shuffles; give a seed to the next deal's shuffle; check a
// finished deal's shuffle once its server seed is revealed.
function followShuffle(game, msg) {
  const m = game.fair;
  const fair = msg.fair;
  if (!fair) return;
  const next = fair.next;
  if (next && !(next.deal in m.shown)) m.shown[next.deal] = next.commitment; // before the deal
  if (msg.obs && msg.obs.hand && !msg.log.length && !(msg.match.deal in m.hands)) m.hands[msg.match.deal] = msg.obs.hand;
  if (next && msg.seat !== null && !next.seeded[msg.seat] && !m.sent[next.deal]) {
    const seed = newSeed();
    m.seeds.push(seed);
    m.sent[next.deal] = true;
    send(game, { type: "seed", deal: next.deal, seed });
  }
  saveShuffleMemory(game.id, m);
  const last = msg.last;
  if (last && last.fair && !(last.deal in m.checks)) {
    m.checks[last.deal] = null; // being checked
    if (!canCheck()) {
      m.checks[last.deal] = { ok: null, checks: [] };
      return;
    }
    checkShuffle(last.fair, msg.seat, { shown: m.shown[last.deal], mine: m.seeds, hand: m.hands[last.deal] })
      .then((result) => (m.checks[last.deal] = result))
      .catch(() => (m.checks[last.deal] = { ok: false, checks: [{ ok: false, what: "error" }] }))
      .then(() => renderGame(game));
  }
}

// What each check of a shuffle says: [passed, failed]
const checkWords = () => ({
  commitment: [t("the server's seed, revealed now, is the one it committed to"), t("the server's revealed seed does not match its commitment")],
  shown: [t("that commitment was shown to you before the deal"), t("the commitment is not the one you were shown before the deal")],
  seed: [t("your browser's seed was mixed into the shuffle"), t("your browser's seed is not among the seeds of the shuffle")],
  hand: [t("the seeds deal exactly the hand you were dealt"), t("the seeds do not deal the hand you were dealt")],
  algorithm: ["", t("the shuffle's algorithm is not one this page knows")],
  error: ["", t("the check could not be completed")],
});

function shuffleCheck(game, last) {
  if (!last.fair) return "";
  const result = game.fair.checks[last.deal];
  const commitment = `<code>${esc(last.fair.commitment.slice(0, 16))}…</code>`;
  if (result === undefined || result === null) return `<p class="fair small" id="fair-check">${esc(t("Checking the shuffle…"))}</p>`;
  if (result.ok === null)
    return `<p class="fair small" id="fair-check">${th("This page cannot check the shuffle (browsers allow it only on https pages). Download the deal's record and run {command}.", { command: "<code>conquian verify</code>" })}</p>`;
  const said = checkWords();
  // Translators: joins the checks of the shuffle in one sentence ("…; …").
  const checks = result.checks.map((c) => said[c.what][c.ok ? 0 : 1]).filter(Boolean).join(t("; "));
  const parts = { commitment, checks: esc(checks) };
  return `<p class="fair small ${result.ok ? "ok" : "bad"}" id="fair-check" data-ok="${result.ok}">${
    result.ok ? th("✓ Fair shuffle (commitment {commitment}): {checks}.", parts) : th("✗ The shuffle check failed (commitment {commitment}): {checks}.", parts)
  }</p>`;
}

function send(game, message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast(t("Not connected to the server; reconnecting…"), "error");
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function act(game, text) {
  clearTimeout(game.autoTimer);
  if (game.pending) return;
  if (send(game, { type: "act", action: text, id: game.nextId++ })) {
    game.pending = true;
    game.chooser = null;
    renderGame(game);
  }
}

const sameSet = (a, b) => a.length === b.size && a.every((c) => b.has(c));

// A take goes out when it lays every card left in the hand.
const goesOut = (s, form) => form.played.length === (s.obs.hand || []).length;

function chooseTake(game, forms, word) {
  const selected = game.selected;
  const out = (f) => word === "take" && goesOut(game.state, f);
  const picked = selected.size ? forms.filter((f) => sameSet(f.played, selected)) : forms;
  const candidates = picked.flatMap((f) => f.actions.map((a) => ({ ...a, out: out(f) })));
  if (!candidates.length) {
    const ways = forms.map((f) => (f.played.length ? f.played.map((c) => cardLabel(c, deck)).join(" ") : t("no hand cards"))).join("; ");
    toast(
      word === "take"
        ? t("No take lays exactly the cards you picked. Possible: {ways}.", { ways })
        : t("No lay lays exactly the cards you picked. Possible: {ways}.", { ways }),
      "error",
    );
    return;
  }
  if (candidates.length === 1) return act(game, candidates[0].text);
  game.chooser = { word, actions: candidates };
  renderGame(game);
}

function phaseButtons(game) {
  const s = game.state;
  const legal = s.obs.legal_actions;
  const kinds = new Set(legal.map((a) => a.split(" ")[0]));
  const buttons = [];
  const b = (id, label, key, cls = "") => buttons.push(`<button id="${id}" class="${cls}" data-key="${key}" ${game.pending || game.offline ? "disabled" : ""}>${esc(label)} <kbd>${key}</kbd></button>`);
  // Translators: the buttons of a move, each with its key (the same in every language).
  const outs = s.takes.filter((f) => goesOut(s, f)).length;
  const take = !outs
    ? s.obs.phase === "forced" ? t("Take it (forced)") : t("Take")
    : outs === s.takes.length ? t("Take and go out") : t("Take (you can go out)");
  if (kinds.has("take")) b("btn-take", take, "T", outs ? "primary out" : "primary");
  // Translators: refuse the card offered to you (pasar).
  if (kinds.has("decline")) b("btn-decline", t("Decline"), "P");
  if (kinds.has("pass")) {
    // Translators: let the card you turned from the stock go on (pasar).
    if (legal.includes("pass")) b("btn-pass", t("Pass"), "P");
    if (s.lays.length) b("btn-lay", t("Lay & pass"), "L");
  }
  if (kinds.has("force")) b("btn-force", t("Force"), "F", "primary");
  // Translators: do not force the player who refused the card.
  if (kinds.has("noforce")) b("btn-noforce", t("Let it go"), "N");
  if (kinds.has("discard")) b("btn-discard", t("Discard"), "D", "primary");
  // Translators: give the picked card in the exchange (el cambio).
  if (kinds.has("exchange")) b("btn-exchange", t("Pass it on"), "X", "primary");
  if (legal.length && s.game.hints) b("btn-hint", t("Hint"), "H", "ghost");
  return buttons.join("");
}

function statusLine(game) {
  const s = game.state;
  const g = s.game;
  const me = s.seat;
  if (s.match.over) return esc(t("The match is over."));
  if (me !== null && !g.joined.every(Boolean)) return esc(SEAT_WORDS.waitingFor(g.free));
  if (s.obs.legal_actions.length) return words(s.situation);
  const who = s.obs.to_act;
  if (who === me) return esc(t("Your move is being sent…"));
  const name = g.names[who] || t("your opponent");
  return esc(g.kinds[who] === "bot" ? t("Waiting: {name} is thinking…", { name }) : t("Waiting: {name} to play…", { name }));
}

// The invitations of the free seats (to the page of the player who made the game), or the
// game's own link when its seats are taken by it (a game of the previous version).
function inviteBanner(game) {
  const s = game.state;
  const g = s.game;
  if (s.seat === null || g.joined.every(Boolean)) return "";
  const base = `${location.origin}${location.pathname}#/join/${g.id}`;
  const invitations = s.invitations || [];
  const seats = g.names.length;
  if (invitations.length) {
    const rows = invitations
      .map(({ seat, code }) => {
        const label = SEAT_WORDS.seatLabel(seat, seats);
        return `<div class="invite-row"><label for="invite-${seat}">${esc(label)}</label>
          <input id="invite-${seat}" class="invite-link" data-seat="${seat}" readonly value="${esc(`${base}/${code}`)}">
          <button type="button" class="copy-invite" data-for="invite-${seat}" data-label="${esc(label)}">${esc(SEAT_WORDS.copy)}</button></div>`;
      })
      .join("");
    return `<div class="banner invite" id="invite"><p>${esc(SEAT_WORDS.inviteHead(invitations.length))}</p>${rows}${
      g.by_invitation ? "" : `<p class="small">${esc(SEAT_WORDS.inviteLobby)}</p>`
    }</div>`;
  }
  if (g.by_invitation) return `<div class="banner invite" id="invite"><p>${esc(SEAT_WORDS.invitesElsewhere)}</p></div>`;
  return `<div class="banner invite" id="invite"><p>${esc(SEAT_WORDS.sharedLink(g.free))}</p>
    <div class="invite-row"><input id="invite-link" class="invite-link" readonly value="${esc(base)}">
    <button type="button" class="copy-invite" data-for="invite-link" data-label="${esc(SEAT_WORDS.freeSeat)}">${esc(SEAT_WORDS.copy)}</button></div></div>`;
}

const offlineBanner = (game) => (game.offline ? `<div class="banner error">${esc(t("Connection lost — reconnecting…"))}</div>` : "");

function renderWaiting(game) {
  const s = game.state;
  const g = s.game;
  const missing = g.free > 0;
  const said = missing ? SEAT_WORDS.waitingFor(g.free) : t("Shuffling: waiting for every player to add a seed to the shuffle…");
  const code = s.fair && s.fair.next ? `<code>${esc(s.fair.next.commitment)}</code>` : "";
  const commitment = code ? `<p class="small">${th("Commitment to the first deal's shuffle: {commitment}", { commitment: code })}</p>` : "";
  const seats = g.names
    .map((n, p) => {
      const free = !g.joined[p];
      const who = p === s.seat ? SEAT_WORDS.you(n) : free ? (g.by_invitation ? SEAT_WORDS.freeInvited : SEAT_WORDS.freeSeat) : n;
      return `<li class="${free ? "free" : g.kinds[p] === "bot" ? "bot" : ""}" data-seat="${p}"><span class="seat-no">${p + 1}</span> <span>${esc(who)}</span></li>`;
    })
    .join("");
  document.title = t("Conquian — {title}", { title: titleOf(g) });
  app.innerHTML = `
  <section class="game waiting-room">
    <div class="board">
      ${offlineBanner(game)}
      ${inviteBanner(game)}
      <div class="prompt" id="prompt" aria-live="polite">${esc(said)}</div>
      <ol class="seat-list" id="seat-list" aria-label="${esc(titleOf(g))}">${seats}</ol>
      ${commitment}
    </div>
  </section>`;
  app.dataset.seq = String(s.seq);
}

// Translators: between the players' names, as in "Ana vs Ben".
const versus = (names) => names.join(t(" vs "));

// The deal that ended, as it ended (its tables and every hand, public now), while its
// summary is open: the next deal, which the server may have dealt already, is shown only
// once the player continues.
function summaryPending(game) {
  const last = game.state && game.state.last;
  return !!last && last.deal > game.seenDeal;
}

function shownState(game) {
  const s = game.state;
  const last = s.last;
  if (!summaryPending(game) || s.obs.phase === "over") return s;
  const base = game.endedFrom && game.endedFrom.match.deal === last.deal ? game.endedFrom : null;
  const hands = last.hands || last.tables.map(() => []);
  const from = base ? base.obs : s.obs;
  const obs = {
    ...from,
    phase: "over",
    tables: last.tables,
    hand: s.seat === null ? undefined : hands[s.seat],
    hand_counts: hands.map((h) => h.length),
    centre: null,
    legal_actions: [],
    dead: base ? from.dead : [],
    stock_count: base ? from.stock_count : 0,
    history: base ? from.history : [],
    exchange: undefined,
  };
  const match = { ...s.match, deal: last.deal, stake: base ? base.match.stake : s.match.stake };
  return { ...s, obs, match, log: base ? base.log : [], situation: [], takes: [], lays: [], origin: "", ended: true };
}

// The last move of each other player since this player's own last move (all of them for a
// spectator: since seat 0's), from the observation's history: {player: event}.
function lastMoves(s) {
  const events = (s.obs.history || []).map(parseEvent);
  const me = s.seat === null ? 0 : s.seat;
  let from = 0;
  events.forEach((e, i) => {
    if (e && e.player === me) from = i + 1;
  });
  const moves = {};
  for (const e of events.slice(from)) if (e && e.player !== me) moves[e.player] = e;
  return moves;
}

// A player's last move in a few words, with its card drawn in the deck shown.
function moveWords(e) {
  const card = e.card ? chip(e.card) : "";
  // Translators: the last move of another player, shown by the player's name until you move.
  const said = {
    take: () => th("took {card}", { card }),
    discard: () => th("discarded {card}", { card }),
    pass: () => th("passed {card}", { card }),
    decline: () => th("declined {card}", { card }),
    force: () => esc(t("forced the card on the player who declined it")),
    noforce: () => esc(t("let the declined card go")),
    exchange: () => esc(t("passed a card on")),
  }[e.verb];
  return said && (e.card || !["take", "discard", "pass", "decline"].includes(e.verb)) ? said() : "";
}

// Where a card new on the table comes from (an anchor of motion.js): the stock, the hand of
// the player who laid or discarded it, the player who passed it on in the exchange.
function sourceOf(s, card, el, moves) {
  const seats = s.obs.tables.length;
  const me = s.seat === null ? 0 : s.seat;
  if (el.closest("#hand")) {
    const got = s.obs.exchange && s.obs.exchange.received;
    return got === card ? `backs-${(me + seats - 1) % seats}` : "stock";
  }
  if (el.closest("#centre")) {
    const by = Object.values(moves).find((e) => e.card === card && e.verb === "discard");
    return by ? `backs-${by.player}` : "stock";
  }
  const table = el.closest(".table[data-seat]");
  if (table) return Number(table.dataset.seat) === me ? "hand" : `backs-${table.dataset.seat}`;
  return null;
}

// The class of a card of the hand: picked, hinted.
const handClass = (game, c) =>
  `card-btn${game.selected.has(c) ? " selected" : ""}${game.hint && game.hint.action === `discard ${c}` ? " hinted" : ""}`;

// The frame of the table: the places of the regions renderGame fills (a region that is a
// wrapper only, .region, has no box of its own).  Made again when the seats change, or when
// another screen was drawn meanwhile; it remembers what each region holds.
function tableFrame(game, { seats, me, watching, others }) {
  const layout = `${game.id}|${seats}|${me}|${watching}`;
  const section = document.getElementById("game-view");
  if (game.shown && game.shown.section === section && section && game.shown.layout === layout) return game.shown;
  const region = (name) => `<div class="region" data-region="${name}"></div>`;
  const opps = others.map((p) => region(`opp-${p}`)).join("");
  app.innerHTML = `
  <section class="game" id="game-view">
    <div class="board">
      <div class="field">
        ${region("banners")}
        ${seats > 2 ? `<div class="others${seats > 3 ? " many" : ""}">${opps}</div>` : opps}
        ${region("middle")}
        ${region("me")}
      </div>
      <div class="dock" id="dock">
        <div class="prompt-row"><div class="prompt" id="prompt" aria-live="polite" data-region="prompt"></div>${region("toggle")}</div>
        ${region("hint")}
        <div class="actions" id="actions" data-region="actions"></div>
        ${region("chooser")}
        <div class="hand" id="hand" data-anchor="hand" data-region="hand"></div>
        ${region("keys")}
      </div>
    </div>
    <aside class="side" id="side">
      ${region("score")}
      ${region("options")}
      <div class="panel log"><h2 data-region="log-head"></h2><div class="log-scroll"><ol id="log" data-region="log"></ol></div></div>
    </aside>
    ${region("overlay")}
  </section>`;
  const fresh = document.getElementById("game-view");
  const regions = {};
  for (const el of fresh.querySelectorAll("[data-region]")) regions[el.dataset.region] = el;
  game.shown = { section: fresh, layout, regions, html: {}, faces: null, deck: null };
  return game.shown;
}

function renderGame(game) {
  if (view !== game || !game.state) return;
  if (!game.state.obs) return renderWaiting(game);
  document.body.classList.add("playing");
  const before = snapshot(app);
  const s = shownState(game);
  const g = s.game;
  const obs = s.obs;
  const me = s.seat === null ? 0 : s.seat;
  const seats = obs.tables.length;
  // the other players in play order from the one after you (he sits on your right)
  const others = Array.from({ length: seats - 1 }, (_, k) => (me + 1 + k) % seats);
  const watching = s.seat === null;
  const names = g.names.map((n, i) => (s.seat === i ? SEAT_WORDS.you(n) : n || t("Waiting for a player")));
  document.title = t("Conquian — {title}", { title: versus(g.names.map((n) => n || "?")) });
  const hand = obs.hand || [];
  const legal = obs.legal_actions;
  const discardPhase = legal.some((a) => a.startsWith("discard") || a.startsWith("exchange"));
  const balance = s.match.balance;
  const score = (p) => (balance[p] > 0 ? `+${balance[p]}` : `${balance[p]}`);
  const myBacks = Array.from({ length: obs.hand_counts[me] }, () => card(null, "back")).join("");
  const moves = s.ended ? {} : lastMoves(s);
  const takeable = !watching && s.takes.length && obs.centre && !game.pending;
  const takeLabel = takeable ? t("Take {card}", { card: cardName(obs.centre, deck) }) : "";
  const centreCard = takeable
    ? `<button class="centre-take" id="centre-take" aria-label="${esc(takeLabel)}">${card(obs.centre, "big")}</button>`
    : card(obs.centre, "big");
  const centre = obs.centre
    ? `${centreCard}<div class="origin">${esc(s.origin)}</div>`
    : `<div class="slot"></div><div class="origin">${esc(obs.phase === "over" ? t("Deal over") : t("No card in the centre"))}</div>`;
  const toAct = (p) => obs.phase !== "over" && !s.match.over && obs.to_act === p ? " to-act" : "";
  const backs = (p) => Array.from({ length: obs.hand_counts[p] }, () => card(null, "back")).join("");
  const inHand = (p) => esc(tn("{count} card in hand", "{count} cards in hand", obs.hand_counts[p]));
  const right = (p) => (seats > 2 && p === (me + 1) % seats ? ` <span class="count">${esc(t("on your right, plays after you"))}</span>` : "");
  const tableOf = (p) => esc(t("{name}'s table", { name: names[p] }));
  const stockTitle = esc(t("Cards left in the stock"));
  const lastSaid = (p) => {
    const said = moves[p] ? moveWords(moves[p]) : "";
    return said ? ` <span class="last-said" id="last-${p}">${said}</span>` : "";
  };
  const oppBlock = (p) => `<div class="player opp${toAct(p)}${moves[p] ? " moved" : ""}" data-seat="${p}">
        <div class="who"><span class="name">${esc(names[p])}</span> <span class="count" id="${seats === 2 ? "opp-count" : `count-${p}`}">${inHand(p)}</span>${right(p)}${lastSaid(p)}</div>
        <div class="backs" data-anchor="backs-${p}">${backs(p)}</div>
        <div class="table" id="table-${p}" data-seat="${p}" aria-label="${tableOf(p)}">${melds(obs.tables[p])}</div>
      </div>`;
  // Translators: a badge on the way to lay the cards that the hint suggests.
  const badge = esc(t("hint"));
  // Translators: a badge on a way to take the centre card that lays every card of the hand.
  const outBadge = ` <span class="badge out">${esc(t("goes out"))}</span>`;
  const hintBadge = (a) => (game.hint && game.hint.action === a.text ? ` <span class="badge">${badge}</span>` : "");
  const chooser = game.chooser
    ? `<div class="chooser" role="dialog" aria-label="${esc(t("Choose how to lay the cards"))}"><h3>${obs.centre ? th("Choose how to lay {card}", { card: chip(obs.centre) }) : esc(t("Choose how to lay the cards"))}</h3><ol>${game.chooser.actions
        .map((a, i) => `<li><button class="choice${game.hint && game.hint.action === a.text ? " hinted" : ""}${a.out ? " out" : ""}" data-action="${esc(a.text)}" data-out="${!!a.out}"><kbd>${i + 1}</kbd> ${a.melds.map((m) => `<span class="mini-meld">${m.map(chip).join("")}</span>`).join("")}${a.out ? outBadge : ""}${hintBadge(a)}</button></li>`)
        .join("")}</ol><button id="btn-cancel" class="ghost">${esc(t("Cancel"))} <kbd>Esc</kbd></button></div>`
    : "";
  const why = game.hint ? (game.hint.why_words ? words(game.hint.why_words) : esc(game.hint.why || "")) : "";
  const hint = game.hint ? `<div class="hint"><strong>${esc(t("Hint:"))}</strong> ${words(game.hint.words)}${why ? ` <span class="small">— ${why}</span>` : ""}</div>` : "";
  // Translators: no dead cards yet.
  const noDead = esc(t("none"));
  // Translators: the heading of the score of the match (several deals).
  const matchHead = esc(t("Match"));
  // Translators: the facts of the match under the score, joined by " · ".
  const facts = [
    t("Deal {number}", { number: s.match.deal }),
    t("stake {stake}", { stake: s.match.stake }),
    tn("{count} card to go out", "{count} cards to go out", g.cards_to_win),
  ].map(esc);
  const hintsSaid = g.hints ? t("Hints are on in this game.") : t("Hints are off in this game: the player who made it chose so.");
  // what the page did by itself, in the log before the move it made
  const items = s.log.map((l) => `<li>${words(l)}</li>`);
  const notes = game.notes.filter((n) => n.deal === s.match.deal);
  for (const n of notes.slice().reverse()) items.splice(Math.min(n.at, items.length), 0, `<li class="auto">${n.html}</li>`);
  const keys = touchScreen.matches
    ? t("Tap cards to pick them, then a button; drag a card onto the centre to discard it.")
    : t("Pick cards with a click (or arrow keys and Space), then press a button or its key.");
  const options = watching
    ? ""
    : `<label class="check"><input type="checkbox" id="opt-auto"${autoPlayOn(s) ? " checked" : ""}> ${esc(t("Decline cards I cannot use, and make the moves that leave no choice"))}</label>`;
  const regions = {
    banners: `${offlineBanner(game)}${watching ? `<div class="banner">${esc(t("You are watching: only public information is shown."))}</div>` : ""}${inviteBanner(game)}`,
    middle: `<div class="middle">
        <div class="stock" title="${stockTitle}" data-anchor="stock">${obs.stock_count ? card(null, "back") : `<div class="slot"></div>`}<div class="label">${th("{count} in stock", { count: `<span id="stock-count">${obs.stock_count}</span>` })}</div></div>
        <div class="centre${takeable ? " takeable" : ""}" id="centre">${centre}</div>
        <div class="dead"><div class="label">${esc(t("Dead cards ({count})", { count: obs.dead.length }))}</div><div class="chips" id="dead">${obs.dead.map(chip).join(" ") || `<span class="small">${noDead}</span>`}</div></div>
      </div>`,
    me: `<div class="player me${toAct(me)}">
        <div class="table" id="table-${me}" data-seat="${me}" aria-label="${tableOf(me)}">${melds(obs.tables[me])}</div>
        <div class="who"><span class="name">${esc(names[me])}</span>${watching ? ` <span class="count">${inHand(me)}</span>` : ""}</div>
      </div>`,
    prompt: s.ended ? esc(t("The deal is over.")) : statusLine(game),
    toggle: `<button type="button" id="btn-side" class="ghost side-toggle" aria-expanded="${!!game.sideOpen}" aria-controls="side">${esc(t("Moves and score"))}</button>`,
    hint,
    actions: watching || s.ended ? "" : phaseButtons(game),
    chooser,
    keys: !watching && hand.length && !s.ended ? `<p class="small keys">${esc(keys)}</p>` : "",
    score: `<div class="panel score">
        <h2>${matchHead}</h2>
        <table>${names.map((n, p) => `<tr><td>${esc(n)}</td><td class="num" id="score-${p}">${score(p)}</td></tr>`).join("")}</table>
        <p class="small">${facts.join(" · ")} · <a id="rules-link" href="#/rules/${encodeURIComponent(g.rules)}" target="_blank" rel="noopener">${esc(t("{rules} rules", { rules: g.rules }))}</a></p>
        <p class="small hints-state" id="hints-state" data-hints="${!!g.hints}">${esc(hintsSaid)}</p>
        ${s.match.over ? matchOverButtons(game) : ""}
      </div>`,
    options: `<div class="panel options">
        <h2>${esc(t("Options"))}</h2>
        ${options}
        <label class="check"><input type="checkbox" id="opt-sound"${soundOn() ? " checked" : ""}> ${esc(t("Sound"))}</label>
      </div>`,
    "log-head": esc(t("Moves")),
    overlay: summaryOverlay(game, names),
  };
  for (const p of others) regions[`opp-${p}`] = oppBlock(p);
  // the hand: its cards, each drawn once; a card picked or hinted changes only its button
  const faces = watching || (!hand.length && obs.phase !== "over") ? null : hand.map((c) => `${c}:${cardName(c, deck)}`).join(" ");
  const handHTML = watching
    ? myBacks
    : !hand.length && obs.phase !== "over"
      ? `<span class="empty">${esc(t("Your hand is empty: the next card you take goes out."))}</span>`
      : hand.map((c) => `<button class="${handClass(game, c)}" data-card="${c}" aria-pressed="${game.selected.has(c)}" aria-label="${esc(cardName(c, deck))}">${cardImage(c, deck)}</button>`).join("");
  const log = items.join("") || `<li class="small">${esc(t("No moves yet."))}</li>`;

  // Draw: the frame of the table once (again only when the seats change), then each region
  // whose words or cards changed; what did not change stays as it is in the page.
  const shown = tableFrame(game, { seats, me, watching, others });
  const sectionClass = `game${watching ? " watching" : ""}${game.sideOpen ? " side-open" : ""}`;
  if (shown.section.className !== sectionClass) shown.section.className = sectionClass;
  const changed = new Set();
  for (const [name, html] of Object.entries(regions)) {
    if (shown.html[name] === html) continue;
    shown.html[name] = html;
    shown.regions[name].innerHTML = html;
    changed.add(name);
  }
  const handBox = shown.regions.hand;
  const handClassName = `hand${discardPhase ? " discarding" : ""}`;
  if (handBox.className !== handClassName) handBox.className = handClassName;
  if (handBox.getAttribute("aria-label") !== t("Your hand")) handBox.setAttribute("aria-label", t("Your hand"));
  if (faces !== null && shown.faces === faces && `${deck}` === shown.deck) {
    for (const btn of handBox.children) {
      const c = btn.dataset.card;
      const cls = handClass(game, c);
      if (btn.dataset.dragged || btn.classList.contains("dragging")) {
        if (game.pending) continue; // dropped: it stays where it was dropped until the answer
        btn.style.transform = "";
        delete btn.dataset.dragged;
      }
      if (btn.className !== cls) btn.className = cls;
      const pressed = String(game.selected.has(c));
      if (btn.getAttribute("aria-pressed") !== pressed) btn.setAttribute("aria-pressed", pressed);
    }
  } else if (shown.html.hand !== handHTML) {
    handBox.innerHTML = handHTML;
    changed.add("hand");
  }
  shown.html.hand = handHTML;
  shown.faces = faces;
  shown.deck = `${deck}`;
  const logBox = shown.regions.log;
  if (shown.html.log !== log) {
    const old = shown.html.log;
    if (old && old !== `<li class="small">${esc(t("No moves yet."))}</li>` && log.startsWith(old)) logBox.insertAdjacentHTML("beforeend", log.slice(old.length));
    else logBox.innerHTML = log;
    shown.html.log = log;
    changed.add("log");
  }
  app.dataset.seq = String(s.seq);
  app.dataset.deal = String(s.match.deal);
  // the last move of every other player, marked until this player moves
  const marked = new Set(Object.values(moves).map((e) => e.card).filter(Boolean));
  for (const el of shown.section.querySelectorAll(".field .last-move")) if (!marked.has(el.dataset.card)) el.classList.remove("last-move");
  for (const c of marked) shown.section.querySelectorAll(`.field [data-card="${c}"]`).forEach((el) => el.classList.add("last-move"));
  // the button to press next has the focus (before the boxes are read: one layout for both)
  if (changed.has("overlay") && document.getElementById("btn-next")) document.getElementById("btn-next").focus();
  else if (changed.has("chooser") && game.chooser) document.querySelector(".choice")?.focus();
  // the cards that moved travel from where they were: every box is read (one layout), then
  // the animations start
  const passed = obs.exchange && obs.exchange.passed;
  const gone = before && passed && before.hand.has(passed) && !hand.includes(passed) ? [[passed, `backs-${(me + 1) % seats}`]] : [];
  const plan = measureMotion(app, before, (c, el) => sourceOf(s, c, el, moves), gone);
  const drawn = game.drawn;
  let leanStart = null;
  if (before && drawn && obs.centre && drawn.centre === obs.centre && drawn.toAct !== obs.to_act) {
    const target = obs.to_act === me ? handBox : document.querySelector(`.player.opp[data-seat="${obs.to_act}"]`);
    leanStart = leaning(document.querySelector("#centre .card"), target);
  }
  startMotion(plan);
  if (leanStart) leanStart();
  game.drawn = { centre: obs.centre, toAct: obs.to_act };
  if (!s.ended) autoPlay(game);
}

// With the option on, the page makes a move where there is nothing to decide: it declines
// (or passes) a card the player cannot use, and makes the only legal move, each said in the
// log so that nothing happens unseen.
function autoPlay(game) {
  clearTimeout(game.autoTimer);
  // each call cancels the moves scheduled before it, including one already waiting in
  // afterMotion (whose timer clearTimeout cannot reach): the option just turned off, or a
  // new state, makes no move of the old plan
  const plan = (game.autoPlan = (game.autoPlan || 0) + 1);
  const s = game.state;
  const legal = s.obs.legal_actions;
  // (app's data-auto says what the page does: "scheduled", "off" where it leaves the only
  // move to the player, "" where the player decides)
  app.dataset.auto = "";
  if (s.seat === null || legal.length !== 1 || game.pending || game.chooser) return;
  if (!autoPlayOn(s)) return void (app.dataset.auto = "off");
  const [only] = legal;
  const seq = s.seq;
  app.dataset.auto = "scheduled";
  game.autoTimer = setTimeout(() => afterMotion(() => {
    if (game.autoPlan !== plan) return;
    if (view !== game || game.state.seq !== seq || game.pending || summaryPending(game)) return void (app.dataset.auto = "");
    const centre = s.obs.centre ? chip(s.obs.centre) : "";
    const html =
      only === "decline" && centre
        ? th("Declined {card} automatically: it fits nothing of yours.", { card: centre })
        : only === "pass" && centre
          ? th("Passed {card} automatically: it fits nothing of yours.", { card: centre })
          : esc(t("Made the only possible move automatically."));
    game.notes.push({ deal: s.match.deal, at: s.log.length, html });
    act(game, only);
  }), AUTO_MS);
}

// how long the page waits before a move it makes by itself (the card's arrival is seen)
const AUTO_MS = 280;

/** Run `then` once the cards that move now have arrived (a move made while they travel
 * would draw the page again in the middle of their flight).  A timer, not the animations'
 * end: a page that is not shown does not play them. */
function afterMotion(then) {
  let left = 0;
  for (const a of document.getAnimations()) {
    if (a.playState !== "running") continue;
    const timing = a.effect.getComputedTiming();
    left = Math.max(left, timing.endTime - (timing.localTime || 0));
  }
  if (left <= 0) return then();
  setTimeout(then, Math.min(left, MOVE_MS) + 20);
}

function matchOverButtons(game) {
  const s = game.state;
  const g = s.game;
  const rematch = g.rematch
    ? game.token
      ? `<a class="button primary go-rematch" href="#/g/${g.rematch}/${game.token}">${esc(t("Go to the rematch"))}</a>`
      : `<a class="button" href="#/watch/${g.rematch}">${esc(t("Watch the rematch"))}</a>`
    : game.token
      ? `<button class="primary btn-rematch">${esc(t("Rematch"))}</button>`
      : "";
  const deals = Array.from({ length: s.match.deal }, (_, i) => i + 1);
  const several = deals.length > 1;
  // Translators: a button that downloads a deal's record (a file), and one that replays it.
  const record = (d) => esc(several ? t("Record {number}", { number: d }) : t("Record"));
  const replay = (d) => esc(several ? t("Replay {number}", { number: d }) : t("Replay"));
  return `<div class="over-buttons">${rematch}
    ${deals.map((d) => `<a class="button" href="/api/games/${g.id}/records/${d}" download>${record(d)}</a> <a class="button replay-link" href="#/replay/${g.id}/${d}">${replay(d)}</a>`).join(" ")}</div>`;
}

function summaryOverlay(game, names) {
  const s = game.state;
  const last = s.last;
  if (!summaryPending(game)) return "";
  const over = s.match.over;
  const hands = last.hands || last.tables.map(() => []);
  const order = [...last.tables.keys()];
  const seatsHtml = order
    .map((p) => {
      const held = hands[p] || [];
      const handLabel = t("{name}'s hand", { name: names[p] });
      return `<div class="final" data-seat="${p}">
        <div class="who"><span class="name">${esc(names[p])}</span>${p === last.winner ? ` <span class="badge">${esc(t("winner"))}</span>` : ""}</div>
        <div class="table final-table${p === last.winner ? " winning" : ""}">${melds(last.tables[p])}</div>
        <div class="final-hand" data-seat="${p}" aria-label="${esc(handLabel)}">${
          held.length ? held.map((c) => card(c)).join("") : `<span class="small">${esc(t("no card left in hand"))}</span>`
        }</div></div>`;
    })
    .join("");
  return `<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="summary-title">
    <div class="summary panel" id="summary">
      <h2 id="summary-title" data-over="${over}">${esc(over ? t("Game over") : t("Deal {number} is over", { number: last.deal }))}</h2>
      ${last.lines.map((l) => `<p>${words(l)}</p>`).join("")}
      <div class="finals">${seatsHtml}</div>
      ${shuffleCheck(game, last)}
      ${reviewPart(game, last)}
      ${over ? matchOverButtons(game) : ""}
      <button id="btn-next" class="${over ? "" : "primary"}">${esc(over ? t("Look at the table") : t("Next deal"))} <kbd>Enter</kbd></button>
    </div></div>`;
}

// The review of this player's decisions in the deal that ended: asked for with a button
// (in a game without hints, once the match is over), worked out by the server while its
// progress shows, then the winning chance move by move and each judged decision in words.
function reviewPart(game, last) {
  const s = game.state;
  if (s.seat === null || !game.token || (!s.game.hints && !s.match.over)) return "";
  const r = game.review && game.review.deal === last.deal ? game.review : null;
  if (!r) return `<div class="review" id="review"><button id="btn-review">${esc(t("Review my moves"))}</button></div>`;
  if (r.type !== "review") {
    return `<div class="review" id="review" data-state="working"><p class="small" aria-live="polite">${esc(r.words || t("Reviewing your moves…"))}</p></div>`;
  }
  const judged = r.decisions.filter((d) => d.words);
  return `<div class="review" id="review" data-state="done">
    <h3>${esc(t("Review of your moves"))}</h3>
    ${reviewChart(r.decisions)}
    <ul class="review-moves">${judged.map((d) => `<li class="${d.mark ? `mark-${d.mark}` : ""}" data-move="${d.move}">${words(d.words)}</li>`).join("")}</ul>
    ${r.summary_words.map((l) => `<p class="small">${words(l)}</p>`).join("")}
  </div>`;
}

// The winning chance of each decision as the player played it (and, fainter, of the best
// move), from 0% at the bottom to 100% at the top, marked on the left; a dot marks each
// inaccuracy, mistake or blunder; a legend under it says which line is which.
function reviewChart(decisions) {
  if (!decisions.length) return "";
  const w = 320;
  const h = 100;
  const pad = 8;
  const left = 34; // room for the percentages
  const n = decisions.length;
  const x = (i) => (n === 1 ? (left + w - pad) / 2 : left + (i * (w - left - pad)) / (n - 1)).toFixed(1);
  const y = (c) => (pad + (1 - c) * (h - 2 * pad)).toFixed(1);
  const points = (key) => decisions.map((d, i) => `${x(i)},${y(d[key])}`).join(" ");
  const label = t("Your winning chance, move by move");
  const percent = new Intl.NumberFormat(language(), { style: "percent" });
  const ticks = [0, 0.5, 1]
    .map((c) => `<text class="tick" x="${left - 5}" y="${y(c)}">${esc(percent.format(c))}</text>`)
    .join("");
  const dots = decisions
    .map((d, i) => (d.mark ? `<circle class="mark-${d.mark}" cx="${x(i)}" cy="${y(d.chance_played)}" r="4"><title>${esc(d.mark_word || d.mark)}</title></circle>` : ""))
    .join("");
  // Translators: the legend of the review's chart: the line of the moves played, and that of the best moves.
  const legend = `<p class="review-legend small"><span class="key played"></span>${esc(t("Your moves"))} <span class="key best"></span>${esc(t("Best moves"))}</p>`;
  return `<svg class="review-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}">
    ${ticks}<line class="half" x1="${left}" y1="${y(0.5)}" x2="${w - pad}" y2="${y(0.5)}"></line>
    <polyline class="best" points="${points("chance_best")}"></polyline>
    <polyline class="played" points="${points("chance_played")}"></polyline>${dots}</svg>${legend}`;
}

// Drag a card of the hand onto the centre to discard it (or pass it on, in the exchange):
// pointer events, so a finger does it as a mouse does; a click still picks the card.
function startDrag(game, btn, down) {
  const verbOf = () => ["discard", "exchange"].find((v) => game.state.obs.legal_actions.includes(`${v} ${btn.dataset.card}`));
  if (down.button !== 0 || game.pending || !verbOf()) return;
  const target = document.querySelector(".middle");
  let dragging = false;
  btn.setPointerCapture(down.pointerId); // the moves come here wherever the pointer goes
  let box = null; // the drop place, read once the drag starts
  const over = (e) => e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
  const moveTo = (e) => {
    const dx = e.clientX - down.clientX;
    const dy = e.clientY - down.clientY;
    if (!dragging && Math.hypot(dx, dy) < 8) return;
    if (!dragging) {
      dragging = true;
      box = target.getBoundingClientRect();
      btn.classList.add("dragging");
    }
    btn.style.transform = `translate(${dx}px, ${dy}px)`;
    target.classList.toggle("drop", over(e));
  };
  const end = (e) => {
    btn.removeEventListener("pointermove", moveTo);
    btn.removeEventListener("pointerup", end);
    btn.removeEventListener("pointercancel", end);
    target.classList.remove("drop");
    if (!dragging) return;
    btn.dataset.dragged = "1"; // not a click
    const verb = verbOf();
    if (e.type === "pointerup" && over(e) && verb) {
      act(game, `${verb} ${btn.dataset.card}`);
      return;
    }
    btn.style.transform = "";
    btn.classList.remove("dragging");
  };
  btn.addEventListener("pointermove", moveTo);
  btn.addEventListener("pointerup", end);
  btn.addEventListener("pointercancel", end);
}

// The game's controls answer through the page (one listener for each kind of event, on
// #app): the regions are drawn again without anything to wire.
const playing = () => (view && view.kind === "game" && view.state ? view : null);
const handCard = (e) => e.target.closest && e.target.closest("#hand .card-btn");

app.addEventListener("click", (e) => {
  const game = playing();
  const el = game && e.target.closest && e.target.closest("button");
  if (!el || !app.contains(el)) return;
  const s = game.state;
  if (el.matches("#hand .card-btn")) {
    if (el.dataset.dragged) return void delete el.dataset.dragged;
    return toggle(game, el.dataset.card);
  }
  if (el.classList.contains("choice")) return act(game, el.dataset.action);
  if (el.classList.contains("btn-rematch")) {
    game.askedRematch = true;
    return void send(game, { type: "rematch" });
  }
  if (el.classList.contains("copy-invite")) {
    const input = document.getElementById(el.dataset.for);
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(input.value))
      .then(() => toast(SEAT_WORDS.copied(el.dataset.label)))
      .catch(() => input.select());
    return;
  }
  const handlers = {
    "btn-take": () => chooseTake(game, s.takes, "take"),
    "centre-take": () => chooseTake(game, s.takes, "take"),
    "btn-lay": () => chooseTake(game, s.lays, "lay"),
    "btn-decline": () => act(game, "decline"),
    "btn-pass": () => act(game, "pass"),
    "btn-force": () => act(game, "force"),
    "btn-noforce": () => act(game, "noforce"),
    "btn-discard": () => discard(game),
    "btn-exchange": () => discard(game, "exchange"),
    "btn-hint": () => {
      if (send(game, { type: "hint" })) toast(t("Thinking about a hint…"));
    },
    "btn-cancel": () => {
      game.chooser = null;
      renderGame(game);
    },
    "btn-side": () => {
      game.sideOpen = !game.sideOpen;
      renderGame(game);
    },
    "btn-next": () => closeSummary(game),
    "btn-review": () => {
      const deal = game.state.last && game.state.last.deal;
      if (deal && send(game, { type: "review", deal })) {
        game.review = { type: "asked", deal };
        renderGame(game);
      }
    },
  };
  if (handlers[el.id]) handlers[el.id]();
});

app.addEventListener("dblclick", (e) => {
  const game = playing();
  const btn = game && handCard(e);
  if (!btn) return;
  for (const verb of ["discard", "exchange"])
    if (game.state.obs.legal_actions.includes(`${verb} ${btn.dataset.card}`)) act(game, `${verb} ${btn.dataset.card}`);
});

app.addEventListener("pointerdown", (e) => {
  const game = playing();
  const btn = game && handCard(e);
  if (btn) startDrag(game, btn, e);
});

app.addEventListener("change", (e) => {
  const game = playing();
  if (!game) return;
  if (e.target.id === "opt-auto") {
    localStorage.setItem("conquian.autoplay", e.target.checked ? "on" : "off");
    autoPlay(game);
  } else if (e.target.id === "opt-sound") {
    localStorage.setItem("conquian.sound", e.target.checked ? "on" : "off");
    if (e.target.checked && wakeSound()) playSound("take");
  }
});

function closeSummary(game) {
  game.seenDeal = game.state.last.deal;
  game.endedFrom = null;
  localStorage.setItem(`conquian.seen.${game.id}`, String(game.seenDeal));
  if (soundOn() && !game.state.match.over) sound("deal");
  renderGame(game);
}

function toggle(game, c) {
  if (game.selected.has(c)) game.selected.delete(c);
  else game.selected.add(c);
  const focused = document.activeElement?.dataset?.card;
  renderGame(game);
  if (focused) document.querySelector(`#hand [data-card="${focused}"]`)?.focus();
}

function discard(game, verb = "discard") {
  const legal = game.state.obs.legal_actions;
  // one card that may go (the last card of the hand): nothing to pick
  const only = legal.filter((a) => a.startsWith(`${verb} `));
  if (!game.selected.size && only.length === 1) return act(game, only[0]);
  if (game.selected.size !== 1) {
    toast(verb === "discard" ? t("Pick the one card to discard (or double-click it).") : t("Pick the one card to pass on (or double-click it)."), "error");
    return;
  }
  const [c] = game.selected;
  const text = `${verb} ${c}`;
  if (!legal.includes(text)) {
    const label = cardLabel(c, deck);
    toast(verb === "discard" ? t("{card} cannot be discarded now.", { card: label }) : t("{card} cannot be passed on now.", { card: label }), "error");
    return;
  }
  act(game, text);
}

document.addEventListener("keydown", (event) => {
  if (!view || view.kind !== "game" || !view.state) return replayKeys(event);
  if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
  const game = view;
  const key = event.key;
  if (document.getElementById("summary")) {
    if (key === "Enter" || key === "Escape") {
      event.preventDefault();
      closeSummary(game);
    }
    return;
  }
  if (game.chooser) {
    const n = Number(key);
    if (n >= 1 && n <= game.chooser.actions.length) {
      event.preventDefault();
      act(game, game.chooser.actions[n - 1].text);
    } else if (key === "Escape") {
      game.chooser = null;
      renderGame(game);
    }
    return;
  }
  if (key === "ArrowRight" || key === "ArrowLeft") {
    const cards = [...document.querySelectorAll("#hand .card-btn")];
    if (!cards.length) return;
    const at = cards.indexOf(document.activeElement);
    const next = at < 0 ? 0 : (at + (key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards[next].focus();
    event.preventDefault();
    return;
  }
  if (key === "Escape") {
    game.selected.clear();
    renderGame(game);
    return;
  }
  const button = document.querySelector(`#actions button[data-key="${key.toUpperCase()}"]`);
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

// ------------------------------------------------------------------ replay

async function showReplay(id, deal) {
  const replay = { kind: "replay", at: 0, frames: null, render: () => renderReplay(replay) };
  view = replay;
  app.innerHTML = `<p class="loading">${esc(t("Loading the replay…"))}</p>`;
  try {
    const data = await api(`/api/games/${encodeURIComponent(id)}/replay/${encodeURIComponent(deal)}`);
    Object.assign(replay, data, { id });
    renderReplay(replay);
  } catch (err) {
    app.innerHTML = `<section class="panel narrow"><h2>${esc(t("No replay"))}</h2><p class="error">${esc(err.message)}</p><a href="#/">${esc(t("Back"))}</a></section>`;
  }
}

function renderReplay(r) {
  if (view !== r || !r.frames) return;
  const f = r.frames[r.at];
  const last = r.frames.length - 1;
  const seats = r.players.length;
  const side = (p) => `<div class="player" data-seat="${p}">
      <div class="who"><span class="name">${esc(r.players[p])}</span> <span class="count">${esc(t("{count} in hand", { count: f.hands[p].length }))}</span></div>
      <div class="chips hand-chips">${f.hands[p].map(chip).join(" ")}</div>
      <div class="table">${melds(f.tables[p])}</div></div>`;
  // the first seat below, the others above in play order (as the table draws them)
  const others = Array.from({ length: seats - 1 }, (_, k) => side(k + 1)).join("");
  const button = (id, label, text) => `<button id="${id}" aria-label="${esc(label)}">${esc(text)}</button>`;
  const slider = esc(t("Move"));
  app.innerHTML = `<section class="replay panel">
    <h2>${esc(t("Replay of deal {number}: {players}", { number: r.deal, players: versus(r.players) }))} <span class="small">(${esc(r.result)})</span></h2>
    <div class="replay-controls">
      ${button("rp-first", t("First position"), t("« First"))}
      ${button("rp-prev", t("Previous move"), t("‹ Back"))}
      <input id="rp-slider" type="range" min="0" max="${last}" value="${r.at}" aria-label="${slider}">
      ${button("rp-next", t("Next move"), t("Next ›"))}
      ${button("rp-last", t("Last position"), t("Last »"))}
      <span id="rp-step">${r.at} / ${last}</span>
    </div>
    <p class="prompt" id="rp-words">${r.at ? words(f.words) : esc(t("The deal, before the first move."))}</p>
    ${seats > 2 ? `<div class="others">${others}</div>` : others}
    <div class="middle"><div class="stock"><div class="label">${esc(t("{count} in stock", { count: f.stock_count }))}</div></div>
      <div class="centre">${f.centre ? card(f.centre, "big") : `<div class="slot"></div>`}</div>
      <div class="dead"><div class="label">${esc(t("Dead cards"))}</div><div class="chips">${f.dead.map(chip).join(" ")}</div></div></div>
    ${side(0)}
    <p class="small">${esc(t("Keys: ← → step, Home / End."))} <a href="/api/games/${r.id}/records/${r.deal}" download>${esc(t("Download the record"))}</a></p>
  </section>`;
  const go = (n) => {
    r.at = Math.max(0, Math.min(last, n));
    renderReplay(r);
  };
  document.getElementById("rp-first").onclick = () => go(0);
  document.getElementById("rp-prev").onclick = () => go(r.at - 1);
  document.getElementById("rp-next").onclick = () => go(r.at + 1);
  document.getElementById("rp-last").onclick = () => go(last);
  document.getElementById("rp-slider").oninput = (e) => go(Number(e.target.value));
}

function replayKeys(event) {
  if (!view || view.kind !== "replay" || !view.frames) return;
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  const r = view;
  const moves = { ArrowRight: r.at + 1, ArrowLeft: r.at - 1, Home: 0, End: r.frames.length - 1 };
  if (event.key in moves) {
    event.preventDefault();
    r.at = Math.max(0, Math.min(r.frames.length - 1, moves[event.key]));
    renderReplay(r);
  }
}

// ------------------------------------------------------------------ rules

// Every rule fact on this page comes from the server (/api/rules), for the game's own rules,
// in the page's language; only how this page is used (keys and buttons) is written here.
function marked(segments) {
  return (segments || [])
    .map((s) => (typeof s === "string" ? esc(s) : s.strong !== undefined ? `<strong>${esc(s.strong)}</strong>` : `<em>${esc(s.em)}</em>`))
    .join("");
}

function howSection(section) {
  const heading = section.heading ? `<h2>${esc(section.heading)}</h2>` : "";
  if (section.steps) return `${heading}<ol>${section.steps.map((l) => `<li>${marked(l)}</li>`).join("")}</ol>`;
  return heading + section.paragraphs.map((l) => `<p>${marked(l)}</p>`).join("");
}

async function showRules(spec) {
  const page = { kind: "rules" };
  view = page;
  document.title = t("Conquian — rules");
  const keys = Object.fromEntries(
    Object.entries({ take: "T", pass: "P", discard: "D", force: "F", noforce: "N", hint: "H", first: "1", last: "9" }).map(([k, v]) => [k, `<kbd>${v}</kbd>`]),
  );
  app.innerHTML = `<section class="panel rules">
    <h1>${esc(t("How to play Conquian"))}</h1>
    <div id="rules-how"><p class="small">${esc(t("Loading…"))}</p></div>
    <h2>${esc(t("In this game"))}</h2>
    <p>${th("Pick cards from your hand (click, or arrow keys and Space), then press {take} Take, {pass} Decline / Pass, {discard} Discard, {force} Force, {noforce} Let it go, or {hint} for a hint. When a card can be laid in several ways, you choose one from a list (keys {first}–{last}).", keys)}</p>
    <h2 id="rules-heading">${esc(t("Every rule"))}</h2>
    <pre id="rules-text">${esc(t("Loading…"))}</pre>
  </section>`;
  try {
    const data = await api(`/api/rules?rules=${encodeURIComponent(spec)}&lang=${encodeURIComponent(language())}`);
    if (view !== page) return;
    document.getElementById("rules-how").innerHTML = data.how.map(howSection).join("");
    document.getElementById("rules-heading").textContent = data.heading;
    document.getElementById("rules-text").textContent = data.text;
  } catch (err) {
    if (view !== page) return;
    document.getElementById("rules-how").innerHTML = "";
    document.getElementById("rules-text").textContent = err.message;
  }
}
