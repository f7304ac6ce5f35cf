// The Conquian browser client.  It holds no rules: it draws what the server sends
// (this seat's observation, the legal actions, the moves in words) and sends back
// one of the legal actions.  This module routes; each screen is a module of its own
// (screens/, and game/ for the game).  Routes live in the URL fragment:
//   #/                      home: new game, your games, the lobby
//   #/g/ID/TOKEN            play a seat (the token is the seat's secret: it stays in the
//                           fragment, which is never sent, and goes to the server only in
//                           the websocket's first message)
//   #/join/ID               take a free seat of a public game (from the lobby)
//   #/join/ID/CODE          take the seat of an invitation (the code is a secret like the
//                           token: it stays in the fragment and goes only in the join's body)
//   #/watch/ID              watch a game (public information only)
//   #/mine/ID               play the seat the visitor's player sat in (he is known by his
//                           cookie: any browser he signs in on), its review too
//   #/replay/ID/DEAL        step through a finished deal
//   #/rules[/SPEC]          how to play (a game's own rules with its spec)
//   #/leaderboard[/FORM[/PERIOD]]  the best players of a game form
//   #/player/ID             a player's profile: name, ratings, games
//   #/account               who you are: your name, how you sign in, your archive
//   #/quick/TICKET          play now: the wait for a table (then the game's own address)
//   #/signin                sign in to your account (a passkey, a password, a recovery code)
//
// Every sentence of the page goes through the catalogue (words.js: t, tn, th); the words the
// server builds (the moves, the situation, the end of a deal, errors, the rules) come in the
// language of this page's connection.  The keys of the buttons (T, P, D...) are the same in
// every language.  How the modules fit together, and how they are checked: docs/web.md.

import { showGame } from "./game/screen.js";
import { onOptionChosen, takeSettings } from "./memory.js";
import { api, chooseLanguage, defaultDeck, drawLanguage, drawSoundSwitch, keepLanguage, onDeckChoice, onLanguageChoice, onSoundSwitch, watchNetwork } from "./page.js";
import { showAccount, showSignIn } from "./screens/account.js";
import { showHome } from "./screens/home.js";
import { showJoin } from "./screens/join.js";
import { showLeaderboard } from "./screens/leaderboard.js";
import { showProfile } from "./screens/profile.js";
import { showQuick } from "./screens/quick.js";
import { showReplay } from "./screens/replay.js";
import { showRules } from "./screens/rules.js";
import { loadWords } from "./words.js";

/** @import { Screen } from "./page.js" */

/** The screen shown now. @type {Screen | null} */
let screen = null;

/** Each route's screen, from the parts of the address's fragment after its first (null:
 * the parts do not make one, and the home page is shown).
 * @type {Record<string, (id: string | undefined, extra: string | undefined) => Screen | null>} */
const SCREENS = {
  g: (id, extra) => (id && extra ? showGame(id, extra) : null),
  watch: (id) => (id ? showGame(id, null) : null),
  mine: (id) => (id ? showGame(id, null, true) : null),
  quick: (id) => (id ? showQuick(id) : null),
  join: (id, extra) => (id ? showJoin(id, extra || null) : null),
  replay: (id, extra) => (id && extra ? showReplay(id, extra) : null),
  rules: (id) => showRules(id || "standard"),
  leaderboard: (id, extra) => showLeaderboard(id, extra),
  player: (id) => (id ? showProfile(id) : null),
  account: () => showAccount(signedIn),
  signin: () => showSignIn(signedIn),
};

/** Show the screen of the address's fragment (the one shown before is closed). */
function route() {
  if (screen) screen.close();
  document.body.classList.remove("playing");
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const [page, id, extra] = parts;
  screen = (Object.hasOwn(SCREENS, page) && SCREENS[page](id, extra)) || showHome();
}

/** Another language from the menu: kept in a cookie, the page's words fetched and drawn
 * again, and the screen spoken in it (a game asks its connection for the server's words in
 * it; another screen is drawn anew).
 * @param {string} code */
async function switchLanguage(code) {
  chooseLanguage(code);
  await loadWords(code);
  drawLanguage();
  if (!(screen && screen.relanguage && screen.relanguage())) route();
}

/**
 * The settings kept with the player (GET /api/me, or the answer of a sign-in), here now: the
 * deck, sound and automatic moves, and the language, in which the page is spoken again.
 * @param {{language?: string, deck?: string, sound?: boolean, autoplay?: boolean}} settings
 */
async function takeKeptSettings(settings) {
  const changed = takeSettings(settings);
  defaultDeck();
  drawSoundSwitch();
  if (settings.language && settings.language !== document.documentElement.lang) {
    keepLanguage(settings.language);
    await loadWords(settings.language);
    drawLanguage();
    if (!(screen && screen.relanguage && screen.relanguage())) route();
  } else if (changed && screen && screen.redraw) screen.redraw();
}

/** Signed in (or out): the page takes the player's settings and goes where it is sent.
 * @param {{settings?: Record<string, any>}} me @param {string} [next] */
async function signedIn(me, next = "#/account") {
  await takeKeptSettings(me.settings || {});
  if (location.hash === next) route();
  else location.hash = next;
}

watchNetwork();
// The language the server wrote this page in (?lang=, the cookie or Accept-Language); a
// language asked for in the address is kept, as if chosen from the menu.
const askedLanguage = new URLSearchParams(location.search).get("lang");
if (askedLanguage && document.documentElement.lang === askedLanguage.split("-")[0].toLowerCase()) {
  chooseLanguage(document.documentElement.lang);
}
await loadWords(document.documentElement.lang || undefined);
onDeckChoice(() => screen && screen.redraw && screen.redraw());
onSoundSwitch(() => screen && screen.redraw && screen.redraw());
onLanguageChoice(switchLanguage);
drawLanguage();
// each option the player chooses is kept with his player on the server, for his other browsers
onOptionChosen((name, value) => {
  api("/api/me/settings", { [name]: value }).catch(() => null);
});
window.addEventListener("hashchange", route);
route();
api("/api/me")
  .then(async (/** @type {{guest: boolean, settings: Record<string, any>}} */ me) => {
    // an account's settings follow him from browser to browser
    if (!me.guest) await takeKeptSettings(me.settings || {});
  })
  .catch(() => null);
