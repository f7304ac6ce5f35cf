// The game's seats in words: the kinds of game and the computer's levels, who sits where,
// invitations, the lobby.  Shared by the home page, the join page and the game.

import { escapeHTML as esc, language, t, tn } from "./words.js";

/** @import { GameFacts, LobbySeat } from "./protocol.js" */

/**
 * A kind of game of the new-game form: [value sent, label, seats, the spec the server gives
 * the game back as].
 * @typedef {[string, string, number, string]} GameKind
 */

/** The languages whose players are offered the Mexican game first. */
const MEXICAN_FIRST = ["es"];

/** The kinds of game, the first the one offered first: in Spanish the Mexican game by how
 * many play (three, the tercerilla, first), elsewhere the classic two-player game.
 * @returns {GameKind[]} */
export const games = () => {
  const classic = /** @type {GameKind} */ (["standard", t("Two players (standard)"), 2, "standard"]);
  /** @type {GameKind[]} */
  const mexican = [
    ["tercerilla", t("Three players: tercerilla (Mexican)"), 3, "mexican"],
    ["mexican,num_players=2", t("Two players, Mexican"), 2, "mexican,num_players=2"],
    ["mexican,num_players=4", t("Four players (Mexican)"), 4, "mexican,num_players=4"],
  ];
  return MEXICAN_FIRST.includes(language().split("-")[0]) ? [...mexican, classic] : [classic, ...mexican];
};

/** What the home page says of a kind of game (its spec as the server gives it back).
 * @param {string} spec */
export function gamePitch(spec) {
  return spec === "standard"
    ? t("The two-player, 40-card ancestor of rummy. Meld exactly 11 cards to win; every card you take goes straight onto your table.")
    : t("Conquián as it is played in Mexico: two to four players, the Spanish deck, eight cards each and a card passed round in the exchange; lay down nine to go out.");
}
/** The computer's levels: [value sent, label].
 * @returns {[string, string][]} */
export const levels = () => [
  ["beginner", t("Beginner")],
  ["easy", t("Easy")],
  ["medium", t("Medium")],
  ["hard", t("Hard")],
  ["expert", t("Expert")],
];
/** A computer player's level inside a sentence, as the server writes it in the computer's name.
 * @param {string} level */
export function levelWord(level) {
  /** @type {Record<string, string>} */
  const said =
    // Translators: the levels of a computer player, in its name: "Computer (easy)".
    { beginner: t("beginner"), easy: t("easy"), medium: t("medium"), hard: t("hard"), expert: t("expert") };
  return said[level] || level;
}

/** Every sentence about seats, invitations and the lobby, in one place (as checkWords holds
 * the shuffle check's), in the language spoken now.  The words that place a seat from "you"
 * ("on your right, plays after you") are for the player of seat 0 (who makes the game and
 * invites the others) or of the seat they are counted from, never for a spectator. */
export const seatWords = () => ({
  // the seats of the new-game form, counted from the creator's (seat 0)
  /** @param {number} seat @param {number} seats */
  seatLabel: (seat, seats) =>
    seat === 1
      ? t("Seat {number} · on your right, plays after you", { number: seat + 1 })
      : seat === seats - 1
        ? t("Seat {number} · on your left, plays before you", { number: seat + 1 })
        : t("Seat {number}", { number: seat + 1 }),
  // the seats of the join page, counted from the host's (seat 0): the friend has none yet
  /** @param {number} seat @param {number} seats @param {string} host */
  joinSeatLabel: (seat, seats, host) =>
    seat === 1
      ? t("Seat {number} · on {host}'s right, plays after {host}", { number: seat + 1, host })
      : seat === seats - 1
        ? t("Seat {number} · on {host}'s left, plays before {host}", { number: seat + 1, host })
        : t("Seat {number} · across from {host}", { number: seat + 1, host }),
  person: t("A friend (invitation link)"),
  computerGroup: t("A computer player"),
  /** @param {string} level */
  computer: (level) => t("Computer: {level}", { level: levelWord(level) }),
  friendsLegend: t("Against friends"),
  /** @param {number} seats */
  friendsNote: (seats) =>
    seats > 2
      ? t("Choose who sits in each other seat. Every friend gets an invitation link of their own, which seats them once.")
      : t("Create a game and send your friend the invitation link."),
  /** @param {number} people @param {number} bots */
  pickSummary: (people, bots) => {
    if (!people) return t("Every other seat is a computer player.");
    const links = tn("{count} invitation link", "{count} invitation links", people);
    if (!bots) return t("{links} to send.", { links });
    const computers = tn("{count} computer player", "{count} computer players", bots);
    return t("{links} to send, {computers} at the table.", { links, computers });
  },
  /** @param {number} people @param {number} bots */
  createButton: (people, bots) =>
    !bots ? (people > 1 ? t("Create a game for friends") : t("Create a game for a friend")) : people ? t("Create the table") : t("Play the computer"),
  publicLabel: t("List it in the lobby, so that anyone may take a free seat"),
  /** @param {string} game @param {number} people @param {number} bots @param {string} level */
  myGameLabel: (game, people, bots, level) =>
    !people
      ? t("{game} against the computer ({level})", { game, level })
      : bots
        ? t("{game} with friends and the computer", { game })
        : t("{game} with friends", { game }),
  /** @param {string} game @param {string} host */
  joinedLabel: (game, host) => t("{game} with {host}", { game, host }),
  // the waiting room
  /** @param {number} count */
  inviteHead: (count) =>
    count > 1
      ? t("Send each friend their own invitation link: each one takes one seat, once.")
      : t("Send this invitation link to your friend: it takes the free seat, once."),
  inviteLobby: t("The game is listed in the lobby too: anyone may take a free seat from there."),
  /** @param {number} count */
  sharedLink: (count) => (count > 1 ? t("Send this link to your friends (one link for every free seat):") : t("Send this link to your friend:")),
  invitesElsewhere: t("The invitation links are with the player who made the game."),
  /** @param {number} count */
  tableLinkHead: (count) =>
    count > 1
      ? t("One link for the whole table: send it to your friends, each picks a free seat.")
      : t("Send this link to your friend: it takes the free seat."),
  watchLinkHead: t("A link to watch the game (it shows no one's cards):"),
  seatByLink: t("One link for each seat"),
  share: t("Share"),
  /** @param {string} host @param {string} game @param {string} link */
  shareText: (host, game, link) => t("{host} invites you to play Conquián — {game}. Pick your seat here: {link}", { host, game, link }),
  /** @param {string} host @param {string} game @param {string} link */
  watchText: (host, game, link) => t("Watch {host}'s game of Conquián — {game} — here: {link}", { host, game, link }),
  tableLinkCopied: t("The table's link is copied."),
  watchLinkCopied: t("The link to watch the game is copied."),
  pickSeat: t("Your seat"),
  copy: t("Copy"),
  /** @param {string} label */
  copied: (label) => t("The link for {seat} is copied.", { seat: label.toLocaleLowerCase(language()) }),
  /** @param {number} free */
  waitingFor: (free) => tn("Waiting for one more player to join…", "Waiting for {count} more players to join…", free),
  freeSeat: t("free seat"),
  freeInvited: t("free: waiting for the invited friend"),
  /** @param {string} name */
  you: (name) => {
    const who = name || t("You");
    return t("{name} (you)", { name: who });
  },
  // the lobby
  /** @param {number} free @param {number} size */
  // Translators: "1 of 3 seats free": {count} seats are free of the {size} at the table.
  seatsFree: (free, size) => tn("{count} of {size} seats free", "{count} of {size} seats free", free, { size }),
  /** @param {string} rules @param {number} size */
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
  /** @param {string} host @param {string} game */
  invited: (host, game) => t("{host} invites you to a seat at a game of Conquian — {game}.", { host, game }),
  /** @param {string} host @param {string} game */
  lobbyJoin: (host, game) => t("{host}'s game of Conquian — {game}.", { host, game }),
  byInvitation: t("The seats of this game are taken by invitation: open the invitation link you were sent."),
  allTaken: t("Every seat of this game is taken."),
  watchIt: t("Watch it"),
  takeSeat: t("Take your seat"),
});

/** @typedef {ReturnType<typeof seatWords>} SeatWords */

/**
 * A seat of a game in one line: who sits, the computer players, the free seats.
 * @typedef {object} SeatShown
 * @property {string} kind  "human" or "bot"
 * @property {string} name
 * @property {boolean} free
 */

/**
 * A game's seats in one line.  `seats` as the lobby gives them; seatsOf makes them of a
 * game's facts.
 * @param {SeatShown[] | LobbySeat[]} seats
 */
export function seatLine(seats) {
  const said = seatWords();
  return seats
    .map((seat) => (seat.free ? `<span class="seat free">${esc(said.freeSeat)}</span>` : `<span class="seat${seat.kind === "bot" ? " bot" : ""}">${esc(seat.name)}</span>`))
    .join(`<span class="sep" aria-hidden="true"> · </span>`);
}

/** @param {GameFacts} g @returns {SeatShown[]} */
export function seatsOf(g) {
  return g.names.map((name, p) => ({ kind: g.kinds[p], name, free: !g.joined[p] }));
}

/** The game's kind in words ("Three players: tercerilla (Mexican)").
 * @param {GameFacts} g */
export function titleOf(g) {
  return seatWords().gameTitle(g.rules, g.names.length);
}

/** The players' names in one line.
 * @param {string[]} names */
// Translators: between the players' names, as in "Ana vs Ben".
export const versus = (names) => names.join(t(" vs "));
