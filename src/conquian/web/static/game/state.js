// What the page holds of one game, and how each message and each click changes it: pure
// functions that return a new GameState and change nothing they are given (no DOM, no
// socket, no storage: game/screen.js does those).  Also what follows from a state: the state
// shown while a finished deal's summary is open, the last move of each other player, the
// ways to make a take with the cards picked.

import { events as readEvents } from "./events.js";

/**
 * @import { Card, Observation, ReviewMessage, ReviewProgressMessage, StateMessage, HintMessage,
 *   TakeAction, TakeForm, Words } from "../protocol.js"
 * @import { GameEvent } from "../protocol.js"
 */

/**
 * One way to make a take (or a lay, or a layoff) offered in the chooser; `out`: it lays every
 * card left in the hand; `seat`: a layoff, on that player's meld.
 * @typedef {TakeAction & {out: boolean, seat?: number}} Choice
 */

/**
 * The list of ways to lay the cards that the player chooses from.
 * @typedef {object} Chooser
 * @property {"take" | "lay" | "layoff"} word
 * @property {Choice[]} actions
 */

/**
 * A move the page made by itself, said in the log before the line of that move.
 * @typedef {object} Note
 * @property {number} deal
 * @property {number} at  the log's length when it was made
 * @property {string} html
 */

/**
 * The review of a finished deal: asked for, being worked out, or done.
 * @typedef {{type: "asked", deal: number} | ReviewProgressMessage | ReviewMessage} ReviewHeld
 */

/**
 * What the page holds of one game it shows.  Never changed: each message and each click
 * makes a new one (the functions below).
 * @typedef {object} GameState
 * @property {string} id
 * @property {string | null} token  this seat's secret (null: watching, or mine)
 * @property {boolean} mine  the seat is the one the visitor's player sat in (no token: the
 *   server knows him by his cookie, on any browser he signs in on)
 * @property {StateMessage | null} state  the last state received, its lists whole
 * @property {StateMessage | null} endedFrom  the last state seen of a deal that ended (shown
 *   until the player continues)
 * @property {ReadonlySet<Card>} selected  the hand cards picked
 * @property {Chooser | null} chooser
 * @property {HintMessage | null} hint  the hint for the state shown
 * @property {ReviewHeld | null} review
 * @property {number} seenDeal  the last deal whose summary the player closed
 * @property {boolean} pending  a move was sent; its state has not come yet
 * @property {boolean} offline  the connection is lost (the page connects again)
 * @property {boolean} sideOpen  the moves and the score are open (on a small screen)
 * @property {boolean} askedRematch
 * @property {readonly Note[]} notes
 */

/**
 * A dealt state as the page draws it, every part of it there; `ended`: made by shownState
 * from a deal that ended.
 * @typedef {StateMessage & {obs: Observation, origin: string, situation: Words, takes: TakeForm[],
 *   lays: TakeForm[], ended?: boolean}} DealtState
 */

/**
 * A game just opened.
 * @param {string} id
 * @param {string | null} token
 * @param {number} seenDeal
 * @param {boolean} [mine]  the visitor's player's seat, without its token
 * @returns {GameState}
 */
export function newGame(id, token, seenDeal, mine = false) {
  return {
    id,
    token,
    mine: mine && !token,
    state: null,
    endedFrom: null,
    selected: new Set(),
    chooser: null,
    hint: null,
    review: null,
    seenDeal,
    pending: false,
    offline: false,
    sideOpen: false,
    askedRematch: false,
    notes: [],
  };
}

/**
 * A state message with its whole lists: one sent with deltas holds the deal's log from
 * `log_from` on and the observation's history from `history_from` on; the items before those
 * are those of `last`, the last state received on the same connection (its lists whole).
 * Neither message is changed.
 * @param {StateMessage} msg
 * @param {StateMessage | null} last
 * @returns {StateMessage}
 *
 * @example
 * wholeLists({ ...msg, log: [["c"]], log_from: 2 }, { ...last, log: [["a"], ["b"], ["x"]] }).log
 * // [["a"], ["b"], ["c"]]
 */
export function wholeLists(msg, last) {
  let whole = msg;
  if (msg.log_from) {
    if (!last) throw new Error(`a state sent from log line ${msg.log_from} with no state before it`);
    whole = { ...whole, log: last.log.slice(0, msg.log_from).concat(msg.log) };
  }
  if (msg.obs && msg.history_from) {
    if (!last || !last.obs) throw new Error(`a state sent from history event ${msg.history_from} with no deal before it`);
    whole = { ...whole, obs: { ...msg.obs, history: last.obs.history.slice(0, msg.history_from).concat(msg.obs.history) } };
  }
  return whole;
}

/**
 * The game once a state message (its lists whole) has come: a new position forgets the
 * cards picked, the chooser and the hint; a deal that just ended keeps the last state seen
 * of it, to show it as it ended.
 * @param {GameState} game
 * @param {StateMessage} msg
 * @returns {GameState}
 */
export function receiveState(game, msg) {
  const before = game.state;
  const moved = !before || before.seq !== msg.seq;
  const ended = !!msg.last && !!before && !!before.obs && (!before.last || before.last.deal !== msg.last.deal);
  return {
    ...game,
    state: msg,
    pending: false,
    selected: moved ? new Set() : game.selected,
    chooser: moved ? null : game.chooser,
    hint: moved ? null : game.hint,
    endedFrom: ended ? before : game.endedFrom,
  };
}

/**
 * The game once an error has come: the move sent was refused, and a review asked for is
 * asked again by its button.
 * @param {GameState} game
 * @returns {GameState}
 */
export function receiveError(game) {
  return { ...game, pending: false, review: game.review && game.review.type !== "review" ? null : game.review };
}

/**
 * The game once a hint has come: kept if it is for the position shown.
 * @param {GameState} game
 * @param {HintMessage} hint
 * @returns {GameState}
 */
export function receiveHint(game, hint) {
  return game.state && hint.seq === game.state.seq ? { ...game, hint } : game;
}

/**
 * The game once a review, or its progress, has come (a progress after the review of the
 * same deal is late: ignored).
 * @param {GameState} game
 * @param {ReviewMessage | ReviewProgressMessage} msg
 * @returns {GameState}
 */
export function receiveReview(game, msg) {
  const done = game.review && game.review.type === "review" && game.review.deal === msg.deal;
  return msg.type === "review" || !done ? { ...game, review: msg } : game;
}

/**
 * The game once its connection is open: online, and a review being worked out forgotten (the
 * server forgot it).
 * @param {GameState} game
 * @returns {GameState}
 */
export function connected(game) {
  return { ...game, offline: false, review: game.review && game.review.type !== "review" ? null : game.review };
}

/** @param {GameState} game @returns {GameState} */
export const disconnected = (game) => ({ ...game, offline: true });

/** A move sent: nothing else is sent until its answer.
 * @param {GameState} game @returns {GameState} */
export const sent = (game) => ({ ...game, pending: true, chooser: null });

/** A hand card picked, or no longer.
 * @param {GameState} game @param {Card} card @returns {GameState} */
export function toggleCard(game, card) {
  const selected = new Set(game.selected);
  if (selected.has(card)) selected.delete(card);
  else selected.add(card);
  return { ...game, selected };
}

/** @param {GameState} game @returns {GameState} */
export const clearSelection = (game) => ({ ...game, selected: new Set() });

/** @param {GameState} game @param {Chooser | null} chooser @returns {GameState} */
export const withChooser = (game, chooser) => ({ ...game, chooser });

/** @param {GameState} game @returns {GameState} */
export const toggleSide = (game) => ({ ...game, sideOpen: !game.sideOpen });

/** @param {GameState} game @returns {GameState} */
export const withoutHint = (game) => ({ ...game, hint: null });

/** @param {GameState} game @returns {GameState} */
export const askedRematch = (game) => ({ ...game, askedRematch: true });

/** @param {GameState} game @param {number} deal @returns {GameState} */
export const askedReview = (game, deal) => ({ ...game, review: { type: "asked", deal } });

/** @param {GameState} game @param {Note} note @returns {GameState} */
export const noted = (game, note) => ({ ...game, notes: [...game.notes, note] });

/**
 * The summary of the last deal closed: the next deal is shown.
 * @param {GameState} game
 * @returns {GameState}
 */
export function closeSummary(game) {
  const last = game.state && game.state.last;
  return last ? { ...game, seenDeal: last.deal, endedFrom: null } : game;
}

/**
 * The state as dealt (null before the first deal is dealt).
 * @param {StateMessage | null} s
 * @returns {DealtState | null}
 */
export function dealt(s) {
  if (!s || !s.obs) return null;
  return { ...s, obs: s.obs };
}

/**
 * Whether the summary of a deal that ended is open (the player has not continued).
 * @param {GameState} game
 */
export function summaryPending(game) {
  const last = game.state && game.state.last;
  return !!last && last.deal > game.seenDeal;
}

/**
 * The state to draw: the deal that ended, as it ended (its tables and every hand, public
 * now), while its summary is open; the next deal, which the server may have dealt already,
 * is shown only once the player continues.
 * @param {GameState} game  a game with a dealt state
 * @returns {DealtState}
 */
export function shownState(game) {
  const s = dealt(game.state);
  if (!s) throw new Error("no deal to show yet");
  const last = s.last;
  if (!last || !summaryPending(game) || s.obs.phase === "over") return s;
  const base = game.endedFrom && game.endedFrom.obs && game.endedFrom.match.deal === last.deal ? game.endedFrom : null;
  const hands = last.hands || last.tables.map(() => []);
  const from = base && base.obs ? base.obs : s.obs;
  /** @type {Observation} */
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

/**
 * The last move of each other player since this player's own last move (all of them for a
 * spectator: since seat 0's), from the observation's history: {player: event}.
 * @param {DealtState} s
 * @returns {Record<number, GameEvent>}
 */
export function lastMoves(s) {
  const events = readEvents(s.obs.history);
  const me = s.seat === null ? 0 : s.seat;
  let from = 0;
  events.forEach((e, i) => {
    if (e.player === me) from = i + 1;
  });
  /** @type {Record<number, GameEvent>} */
  const moves = {};
  for (const e of events.slice(from)) if (e.player !== me) moves[e.player] = e;
  return moves;
}

/**
 * The events new in `msg`'s history since `before`'s (the same deal).
 * @param {StateMessage} before
 * @param {StateMessage} msg
 * @returns {GameEvent[]}
 */
export function newEvents(before, msg) {
  if (!before.obs || !msg.obs) return [];
  return readEvents(msg.obs.history.slice(before.obs.history.length));
}

/**
 * Whether a take lays every card left in the hand (it goes out).
 * @param {DealtState} s
 * @param {TakeForm} form
 */
export const goesOut = (s, form) => form.played.length === (s.obs.hand || []).length;

/**
 * @param {readonly Card[]} cards
 * @param {ReadonlySet<Card>} set
 */
const sameSet = (cards, set) => cards.length === set.size && cards.every((c) => set.has(c));

/**
 * The ways to make a take (or a lay) that lay exactly the hand cards picked (any, when none
 * is picked).
 * @param {GameState} game
 * @param {TakeForm[]} forms  the state's takes or lays
 * @param {"take" | "lay"} word
 * @returns {Choice[]}
 */
export function takeChoices(game, forms, word) {
  const s = dealt(game.state);
  if (!s) return [];
  const picked = game.selected.size ? forms.filter((f) => sameSet(f.played, game.selected)) : forms;
  const all = picked.flatMap((f) => {
    const out = word === "take" && goesOut(s, f);
    return f.actions.map((a) => ({ ...a, out }));
  });
  // going out needs no choice: the ways that go out are one (the first), every one wins
  const out = all.find((a) => a.out);
  return out ? [out, ...all.filter((a) => !a.out)] : all;
}

/**
 * The discard (or the card passed on in the exchange) that the cards picked make: the
 * action, or why there is none — no single card picked, or a card that may not go.
 * @param {GameState} game
 * @param {"discard" | "exchange"} verb
 * @returns {{action: string} | {pick: true} | {cannot: Card}}
 */
export function discardAction(game, verb) {
  const legal = game.state && game.state.obs ? game.state.obs.legal_actions : [];
  // one card that may go (the last card of the hand): nothing to pick
  const only = legal.filter((a) => a.startsWith(`${verb} `));
  if (!game.selected.size && only.length === 1) return { action: only[0] };
  if (game.selected.size !== 1) return { pick: true };
  const [card] = game.selected;
  const action = `${verb} ${card}`;
  return legal.includes(action) ? { action } : { cannot: card };
}

/**
 * Whether every other seat is the computer's (the page then makes the moves that leave no
 * choice unless the player said otherwise).
 * @param {StateMessage} s
 */
export const againstComputer = (s) => s.game.kinds.every((kind, p) => p === s.seat || kind === "bot");

/**
 * The move the page may make by itself: the only legal move of a seat, when nothing is
 * pending or being chosen (null: none).
 * @param {GameState} game
 * @returns {string | null}
 */
export function onlyMove(game) {
  const s = game.state;
  if (!s || !s.obs || s.seat === null || game.pending || game.chooser) return null;
  const legal = s.obs.legal_actions;
  return legal.length === 1 ? legal[0] : null;
}

/** Whether the page plays a seat (by its token, or as the visitor's player).
 * @param {GameState} game */
export const playsASeat = (game) => !!(game.token || game.mine);

/** The address of this seat in another match of the same players (the rematch).
 * @param {GameState} game @param {string} id */
export const seatLink = (game, id) => (game.token ? `#/g/${id}/${game.token}` : `#/mine/${id}`);
