// The game screen (#/g/ID/TOKEN to play a seat, #/watch/ID to watch): it holds the game (a
// GameState, replaced at each message and click), draws it after each change, and does what
// the pure state cannot: the connection, the sounds, the browser's memory, the fair
// shuffles' seeds and checks.

import { words } from "../html.js";
import { autoPlayOption, saveSeenDeal, seenDeal, shuffleMemory, soundOn } from "../memory.js";
import { app, deck, drawSoundSwitch, followDeck, hideToast, toast, touchScreen } from "../page.js";
import { playSound } from "../sound.js";
import { escapeHTML as esc, language, t } from "../words.js";
import { gameDrawer } from "./draw.js";
import { followShuffle, hello } from "./fairness.js";
import { autoPlayer, listen } from "./input.js";
import { gameSocket } from "./socket.js";
import { SHOWN_MS, heard, listenTalk } from "./talk.js";
import { listenConduct } from "./conduct.js";
import {
  againstComputer,
  closeSummary,
  connected,
  disconnected,
  newEvents,
  newGame,
  noted,
  playsASeat,
  receiveError,
  receiveHint,
  receiveReview,
  receiveState,
  seatLink,
  sent,
  withoutHint,
} from "./state.js";

/** @import { Screen } from "../page.js" */
/** @import { ClientMessage, StateMessage } from "../protocol.js" */
/** @import { Controller } from "./input.js" */
/** @import { GameState } from "./state.js" */

/** @param {"deal" | "take" | "discard" | "force" | "end"} kind */
function sound(kind) {
  if (soundOn()) playSound(kind);
}

/**
 * The sound of what just happened: a deal dealt, a card taken or discarded, a force, the
 * end of a deal.
 * @param {StateMessage | null} before
 * @param {StateMessage} msg
 */
function cue(before, msg) {
  if (!soundOn() || !msg.obs) return;
  if (msg.last && (!before || !before.last || before.last.deal !== msg.last.deal)) return before && sound("end");
  if (!before || !before.obs || before.match.deal !== msg.match.deal) return sound("deal");
  const verbs = new Set(newEvents(before, msg).map((e) => e.verb));
  if (verbs.has("force")) sound("force");
  else if (verbs.has("take")) sound("take");
  else if (verbs.has("discard") || verbs.has("exchange")) sound("discard");
}

/**
 * @param {string} id  the game
 * @param {string | null} token  the seat's secret (null: watch the game, or play mine)
 * @param {boolean} [mine]  play the seat of the visitor's player (no token)
 * @returns {Screen}
 */
export function showGame(id, token, mine = false) {
  let game = newGame(id, token, seenDeal(id), mine);
  let shown = true;
  const fair = shuffleMemory(id);
  const listening = new AbortController();
  const drawGame = gameDrawer();

  const draw = () => {
    const state = game.state;
    if (!shown || !state) return;
    drawSoundSwitch();
    const scene = drawGame(game, {
      deck: deck(),
      touch: touchScreen.matches,
      autoPlay: autoPlayOption(againstComputer(state)),
      sound: soundOn(),
      checks: fair.checks,
      joinLink: `${location.origin}${location.pathname}#/join/${state.game.id}`,
    });
    if (scene && !scene.s.ended) auto.plan(game);
  };
  /** @param {GameState} next */
  const set = (next) => {
    game = next;
    draw();
  };
  /** @param {ClientMessage} message */
  const send = (message) => {
    if (socket.send(message)) return true;
    toast(t("Not connected to the server; reconnecting…"), "error");
    return false;
  };

  /** @type {Controller} */
  const ctl = {
    get: () => game,
    set,
    send,
    act: (action, note) => {
      auto.cancelTimer();
      if (game.pending) return;
      if (!socket.act(action)) {
        toast(t("Not connected to the server; reconnecting…"), "error");
        return;
      }
      set(sent(note ? noted(game, note) : game));
    },
    closeSummary: () => {
      game = closeSummary(game);
      saveSeenDeal(id, game.seenDeal);
      if (soundOn() && game.state && !game.state.match.over) sound("deal");
      draw();
    },
    deck,
    shown: () => shown,
  };
  const auto = autoPlayer(ctl);

  app.innerHTML = `<p class="loading">${esc(t("Connecting…"))}</p>`;
  const socket = gameSocket(id, {
    opened: () => {
      game = connected(game);
      // who we are: the seat token goes in the first message, never in the URL, with this
      // browser's seed for the shuffle of the deal being shuffled, and the language of the
      // words we want
      return hello(id, token, language(), fair, game.mine);
    },
    state: (msg) => {
      const before = game.state;
      game = receiveState(game, msg);
      cue(before, msg);
      followDeck(msg.game.deck);
      followShuffle(id, fair, msg, send, draw);
      if (msg.game.rematch && game.askedRematch && playsASeat(game)) {
        location.hash = seatLink(game, msg.game.rematch);
        return;
      }
      draw();
    },
    message: (msg) => {
      if (msg.type === "error") {
        game = receiveError(game);
        toast(msg.message, "error", msg.words ? words(msg.words, deck()) : null);
        if (game.state) draw();
        else app.innerHTML = `<section class="panel narrow"><h2>${esc(t("Cannot open this game"))}</h2><p class="error">${esc(msg.message)}</p><a href="#/">${esc(t("Back"))}</a></section>`;
      } else if (msg.type === "review" || msg.type === "review_progress") {
        set(receiveReview(game, msg));
      } else if (msg.type === "said") {
        heard(msg);
        draw();
        setTimeout(() => shown && draw(), SHOWN_MS + 100); // its bubble gone
      } else if (msg.type === "hint") {
        hideToast();
        const before = game;
        game = receiveHint(game, msg);
        if (game !== before) draw();
      }
    },
    lost: () => {
      game = disconnected(game);
      draw();
    },
  });
  listen(ctl, auto, listening.signal);
  listenTalk(app, (phrase) => socket.send({ type: "say", phrase }), (text) => send({ type: "say", text }), draw, listening.signal);
  app.addEventListener("click", (e) => {
    if (/** @type {HTMLElement} */ (e.target).closest("#claim-btn")) send({ type: "claim" });
  }, { signal: listening.signal });
  listenConduct(app, id, (seat) => (game.state ? game.state.game.names[seat] : ""), listening.signal);

  return {
    close: () => {
      shown = false;
      auto.cancelTimer();
      listening.abort();
      socket.close();
    },
    redraw: draw,
    relanguage: () => {
      if (!game.state || !socket.open()) return false;
      game = withoutHint(game);
      socket.send({ type: "lang", lang: language() });
      draw();
      return true;
    },
  };
}
