// The player's hands on the game: clicks (one listener for each kind of event, on #app: the
// regions are drawn again without anything to wire), a card dragged onto the centre, the
// keys, the options; and the moves the page makes by itself where there is nothing to decide.

import { cardLabel } from "../cards.js";
import { chip } from "../html.js";
import { autoPlayOption, saveAutoPlay, saveSound } from "../memory.js";
import { MOVE_MS } from "../motion.js";
import { app, toast } from "../page.js";
import { seatWords } from "../seats.js";
import { playSound, wakeSound } from "../sound.js";
import { escapeHTML as esc, t, th } from "../words.js";
import {
  againstComputer,
  askedRematch,
  askedReview,
  clearSelection,
  dealt,
  discardAction,
  onlyMove,
  summaryPending,
  takeChoices,
  toggleCard,
  toggleSide,
  withChooser,
} from "./state.js";

/**
 * @import { Deck } from "../cards.js"
 * @import { ClientMessage, GameEvent, Layoff, TakeForm } from "../protocol.js"
 * @import { GameState, Note } from "./state.js"
 */

/**
 * The game screen as input sees it.
 * @typedef {object} Controller
 * @property {() => GameState} get
 * @property {(next: GameState) => void} set  replace the game and draw it
 * @property {(message: ClientMessage) => boolean} send  (false, and said, when not connected)
 * @property {(action: string, note?: Note) => void} act  make a move (with a note of the page's
 *   own, said in the log when it is sent)
 * @property {() => void} closeSummary  the player continues after a deal's summary
 * @property {() => Deck} deck
 * @property {() => boolean} shown  the screen is still shown
 */

/** How long the page waits at least before a move it makes by itself (the card's arrival
 * is seen); as long as the computer waits before its moves where the server paces them
 * (`serve --bot-delay`, in `<body data-pace>`), and longer after a take (as the computer
 * does), so that a person can follow. */
const AUTO_MS = 280;
const TAKE_PAUSE = 2.5;
/** @param {GameEvent[]} history */
const autoWait = (history) => {
  const pace = Math.max(AUTO_MS, 1000 * (Number(document.body.dataset.pace) || 0));
  return history.slice(-2).some((e) => e.verb === "take") ? pace * TAKE_PAUSE : pace;
};

/** Run `then` once the cards that move now have arrived (a move made while they travel
 * would draw the page again in the middle of their flight).  A timer, not the animations'
 * end: a page that is not shown does not play them.
 * @param {() => void} then */
function afterMotion(then) {
  let left = 0;
  for (const a of document.getAnimations()) {
    if (a.playState !== "running" || !a.effect) continue;
    const timing = a.effect.getComputedTiming();
    left = Math.max(left, Number(timing.endTime) - Number(timing.localTime || 0));
  }
  if (left <= 0) return then();
  setTimeout(then, Math.min(left, MOVE_MS) + 20);
}

/**
 * The moves the page makes by itself, with the option on: it declines (or passes) a card the
 * player cannot use, and makes the only legal move, each said in the log so that nothing
 * happens unseen.  (#app's data-auto says what the page does: "scheduled", "off" where it
 * leaves the only move to the player, "" where the player decides.)
 * @param {Controller} ctl
 */
export function autoPlayer(ctl) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let plans = 0;
  return {
    /** Forget the move planned (its first wait only: see `plan`). */
    cancelTimer: () => clearTimeout(timer),
    /**
     * Plan the move where there is nothing to decide.  Each call cancels the moves planned
     * before it, including one already waiting in afterMotion (whose timer clearTimeout
     * cannot reach): the option just turned off, or a new state, makes no move of the old
     * plan.
     * @param {GameState} game
     */
    plan(game) {
      clearTimeout(timer);
      const plan = ++plans;
      app.dataset.auto = "";
      const only = onlyMove(game);
      const s = dealt(game.state);
      if (only === null || !s) return;
      // the guided first hand leaves every move to the learner: each is one to learn
      if (s.game.mode === "lesson" || !autoPlayOption(againstComputer(s))) return void (app.dataset.auto = "off");
      const seq = s.seq;
      app.dataset.auto = "scheduled";
      timer = setTimeout(
        () =>
          afterMotion(() => {
            if (plans !== plan) return;
            const now = ctl.get();
            if (!ctl.shown() || !now.state || now.state.seq !== seq || now.pending || summaryPending(now)) return void (app.dataset.auto = "");
            const centre = s.obs.centre ? chip(s.obs.centre, ctl.deck()) : "";
            const html =
              only === "decline" && centre
                ? th("Declined {card} automatically: it fits nothing of yours.", { card: centre })
                : only === "pass" && centre
                  ? th("Passed {card} automatically: it fits nothing of yours.", { card: centre })
                  : esc(t("Made the only possible move automatically."));
            ctl.act(only, { deal: s.match.deal, at: s.log.length, html });
          }),
        autoWait(s.obs.history || []),
      );
    },
  };
}

/**
 * A take (or a lay): made at once when the cards picked allow one way only, else chosen
 * from a list.
 * @param {Controller} ctl
 * @param {TakeForm[]} forms
 * @param {"take" | "lay"} word
 */
function chooseTake(ctl, forms, word) {
  const game = ctl.get();
  const candidates = takeChoices(game, forms, word);
  if (!candidates.length) {
    const deck = ctl.deck();
    const ways = forms.map((f) => (f.played.length ? f.played.map((c) => cardLabel(c, deck)).join(" ") : t("no hand cards"))).join("; ");
    toast(
      word === "take"
        ? t("No take lays exactly the cards you picked. Possible: {ways}.", { ways })
        : t("No lay lays exactly the cards you picked. Possible: {ways}.", { ways }),
      "error",
    );
    return;
  }
  if (candidates.length === 1) return ctl.act(candidates[0].text);
  ctl.set(withChooser(game, { word, actions: candidates }));
}

/**
 * A layoff: made at once where there is one, else chosen from a list (whose meld, and the
 * meld it makes).
 * @param {Controller} ctl
 * @param {Layoff[]} layoffs
 */
function chooseLayoff(ctl, layoffs) {
  if (layoffs.length === 1) return ctl.act(layoffs[0].text);
  const actions = layoffs.map((l) => ({ text: l.text, melds: [l.meld], out: false, seat: l.seat }));
  ctl.set(withChooser(ctl.get(), { word: "layoff", actions }));
}

/**
 * A discard (or the card passed on in the exchange) of the card picked.
 * @param {Controller} ctl
 * @param {"discard" | "exchange"} verb
 */
function discard(ctl, verb) {
  const found = discardAction(ctl.get(), verb);
  if ("action" in found) return ctl.act(found.action);
  if ("pick" in found) {
    toast(
      verb === "discard"
        ? t("First pick the card to discard: tap or click it (twice discards it at once).")
        : t("First pick the card to pass on: tap or click it (twice passes it at once)."),
      "error",
    );
    return;
  }
  const label = cardLabel(found.cannot, ctl.deck());
  toast(verb === "discard" ? t("{card} cannot be discarded now.", { card: label }) : t("{card} cannot be passed on now.", { card: label }), "error");
}

/**
 * A hand card picked, or no longer (the focus stays on the card it was on).
 * @param {Controller} ctl
 * @param {string} c
 */
function toggle(ctl, c) {
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.card : undefined;
  ctl.set(toggleCard(ctl.get(), c));
  const again = focused ? document.querySelector(`#hand [data-card="${focused}"]`) : null;
  if (again instanceof HTMLElement) again.focus();
}

/**
 * Drag a card of the hand onto the centre to discard it (or pass it on, in the exchange):
 * pointer events, so a finger does it as a mouse does; a click still picks the card.
 * @param {Controller} ctl
 * @param {HTMLElement} btn
 * @param {PointerEvent} down
 */
function startDrag(ctl, btn, down) {
  const card = btn.dataset.card || "";
  const verbOf = () => {
    const s = ctl.get().state;
    const legal = s && s.obs ? s.obs.legal_actions : [];
    return ["discard", "exchange"].find((v) => legal.includes(`${v} ${card}`));
  };
  const target = document.querySelector(".middle");
  if (down.button !== 0 || ctl.get().pending || !verbOf() || !target) return;
  let dragging = false;
  btn.setPointerCapture(down.pointerId); // the moves come here wherever the pointer goes
  /** @type {DOMRect | null} */
  let box = null; // the drop place, read once the drag starts
  /** @param {PointerEvent} e */
  const over = (e) => !!box && e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
  /** @param {PointerEvent} e */
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
  /** @param {PointerEvent} e */
  const end = (e) => {
    btn.removeEventListener("pointermove", moveTo);
    btn.removeEventListener("pointerup", end);
    btn.removeEventListener("pointercancel", end);
    target.classList.remove("drop");
    if (!dragging) return;
    btn.dataset.dragged = "1"; // not a click
    const verb = verbOf();
    if (e.type === "pointerup" && over(e) && verb) {
      ctl.act(`${verb} ${card}`);
      return;
    }
    btn.style.transform = "";
    btn.classList.remove("dragging");
  };
  btn.addEventListener("pointermove", moveTo);
  btn.addEventListener("pointerup", end);
  btn.addEventListener("pointercancel", end);
}

/**
 * The element of an event's target that matches `selector` (null if none).
 * @param {Event} e
 * @param {string} selector
 * @returns {HTMLElement | null}
 */
const closest = (e, selector) => {
  const found = e.target instanceof Element ? e.target.closest(selector) : null;
  return found instanceof HTMLElement ? found : null;
};

/**
 * Listen to the player on the game screen, until `signal` aborts.
 * @param {Controller} ctl
 * @param {{plan: (game: GameState) => void}} auto
 * @param {AbortSignal} signal
 */
export function listen(ctl, auto, signal) {
  const playing = () => !!ctl.get().state;

  app.addEventListener(
    "click",
    (e) => {
      const el = playing() ? closest(e, "button") : null;
      if (!el || !app.contains(el)) return;
      const game = ctl.get();
      const s = dealt(game.state);
      if (el.matches("#hand .card-btn")) {
        if (el.dataset.dragged) return void delete el.dataset.dragged;
        return toggle(ctl, el.dataset.card || "");
      }
      if (el.classList.contains("choice")) return ctl.act(el.dataset.action || "");
      if (el.classList.contains("btn-rematch")) {
        ctl.set(askedRematch(game));
        return void ctl.send({ type: "rematch", count: el.dataset.count === "reset" ? "reset" : "keep" });
      }
      if (el.classList.contains("share-link") || el.classList.contains("copy-invite")) {
        const input = document.getElementById(el.dataset.for || "");
        if (!(input instanceof HTMLInputElement)) return;
        const sharing = el.classList.contains("share-link");
        const text = (sharing && el.dataset.text) || input.value;
        // the phone's own sharing (WhatsApp, messages...), or a copy of the message
        if (sharing && typeof navigator.share === "function") return void navigator.share({ text }).catch(() => null);
        Promise.resolve()
          .then(() => navigator.clipboard.writeText(text))
          .then(() => toast(el.dataset.copied || seatWords().copied(el.dataset.label || "")))
          .catch(() => input.select());
        return;
      }
      /** @type {Record<string, () => void>} */
      const handlers = {
        "btn-take": () => s && chooseTake(ctl, s.takes, "take"),
        "centre-take": () => s && chooseTake(ctl, s.takes, "take"),
        "btn-lay": () => s && chooseTake(ctl, s.lays, "lay"),
        "btn-layoff": () => s && chooseLayoff(ctl, s.layoffs || []),
        "btn-decline": () => ctl.act("decline"),
        "btn-pass": () => ctl.act("pass"),
        "btn-force": () => ctl.act("force"),
        "btn-noforce": () => ctl.act("noforce"),
        "btn-discard": () => discard(ctl, "discard"),
        "btn-exchange": () => discard(ctl, "exchange"),
        "btn-hint": () => {
          if (ctl.send({ type: "hint" })) toast(t("Thinking about a hint…"));
        },
        "btn-cancel": () => ctl.set(withChooser(game, null)),
        "btn-side": () => ctl.set(toggleSide(game)),
        "btn-next": () => ctl.closeSummary(),
        "btn-review": () => {
          const deal = game.state && game.state.last && game.state.last.deal;
          if (deal && ctl.send({ type: "review", deal })) ctl.set(askedReview(game, deal));
        },
      };
      if (handlers[el.id]) handlers[el.id]();
    },
    { signal },
  );

  app.addEventListener(
    "dblclick",
    (e) => {
      const btn = playing() ? closest(e, "#hand .card-btn") : null;
      const s = dealt(ctl.get().state);
      if (!btn || !s) return;
      for (const verb of ["discard", "exchange"]) {
        if (s.obs.legal_actions.includes(`${verb} ${btn.dataset.card}`)) ctl.act(`${verb} ${btn.dataset.card}`);
      }
    },
    { signal },
  );

  app.addEventListener(
    "pointerdown",
    (e) => {
      const btn = playing() ? closest(e, "#hand .card-btn") : null;
      if (btn) startDrag(ctl, btn, e);
    },
    { signal },
  );

  app.addEventListener(
    "change",
    (e) => {
      if (!playing() || !(e.target instanceof HTMLInputElement)) return;
      if (e.target.id === "opt-auto") {
        saveAutoPlay(e.target.checked);
        auto.plan(ctl.get());
      } else if (e.target.id === "opt-sound") {
        saveSound(e.target.checked);
        if (e.target.checked && wakeSound()) playSound("take");
      }
    },
    { signal },
  );

  document.addEventListener(
    "keydown",
    (event) => {
      const game = ctl.get();
      if (!game.state) return;
      if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key;
      if (document.getElementById("summary")) {
        // Enter on a review's decision opens its board (a <summary>), not the next deal
        const opens = event.target instanceof Element && event.target.matches("summary");
        if ((key === "Enter" && !opens) || key === "Escape") {
          event.preventDefault();
          ctl.closeSummary();
        }
        return;
      }
      if (game.chooser) {
        const n = Number(key);
        if (n >= 1 && n <= game.chooser.actions.length) {
          event.preventDefault();
          ctl.act(game.chooser.actions[n - 1].text);
        } else if (key === "Escape") {
          ctl.set(withChooser(game, null));
        }
        return;
      }
      if (key === "ArrowRight" || key === "ArrowLeft") {
        const cards = [...document.querySelectorAll("#hand .card-btn")].filter((el) => el instanceof HTMLElement);
        if (!cards.length) return;
        const at = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
        const next = at < 0 ? 0 : (at + (key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
        cards[next].focus();
        event.preventDefault();
        return;
      }
      if (key === "Escape") {
        ctl.set(clearSelection(game));
        return;
      }
      const button = document.querySelector(`#actions button[data-key="${key.toUpperCase()}"]`);
      if (button instanceof HTMLButtonElement && !button.disabled) {
        event.preventDefault();
        button.click();
      }
    },
    { signal },
  );
}
