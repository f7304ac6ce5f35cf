// What the server sends the page, as JSDoc types: the websocket's messages (docs/web.md,
// "Messages"; web/hub.py's view and the hint, review and error messages) and the answers of
// the HTTP API the page reads.  Written from what the server sends now; nothing here runs
// (the other modules name these types in their comments only, so the browser never loads
// this file).  A field the page does not read is listed when the server always sends it.

export {};

// ---------------------------------------------------------------- words and cards

/**
 * A card in the server's canonical French text: "Kh", "7d", "As" (rank A234567JQK, suit
 * shdc).  The page draws it in the deck chosen.
 * @typedef {string} Card
 */

/**
 * A line of words in the connection's language, its cards as cards: `["Ana took ",
 * {card: "7d"}, "."]`.
 * @typedef {(string | {card: Card})[]} Words
 */

/**
 * A line of the rules page: text, and `{strong}` or `{em}` marks.
 * @typedef {(string | {strong: string} | {em: string})[]} MarkedLine
 */

/** @typedef {Card[]} Meld  the cards of one meld, in order */

/** @typedef {"french" | "spanish" | "a_to_10"} DeckStyle  a rules' deck */

/** @typedef {"offer" | "turn" | "force" | "forced" | "discard" | "over" | "exchange"} Phase */

// ---------------------------------------------------------------- the state message

/**
 * The game's public facts (hub.py, `LiveMatch.summary`), the same for every viewer.
 * @typedef {object} GameFacts
 * @property {string} id
 * @property {string} mode  "friend", "bot", "mixed", "quick" (play now) or "lesson" (the guided first hand)
 * @property {string | null} level  the computer players' level (a game against them)
 * @property {string} status  "open", "playing"...
 * @property {string[]} names  each seat's name, in the connection's language ("" while free)
 * @property {("human" | "bot")[]} kinds
 * @property {(string | null)[]} levels  each computer seat's level (null for a person's)
 * @property {boolean[]} joined  which seats are taken
 * @property {number} free  how many seats are free
 * @property {boolean} by_invitation  the free seats are taken by invitation only
 * @property {string | null} rematch  the id of the rematch, once there is one
 * @property {boolean} rated  a game between people that changes their ratings when it ends
 * @property {boolean} [clock]  its decisions have a clock (quick match, or the host's choice)
 * @property {boolean} [chat]  its players may write to each other (the host's choice)
 * @property {string} rules  the rules' spec
 * @property {DeckStyle} deck
 * @property {number} cards_to_win
 * @property {boolean} hints  the players may ask for hints
 */

/**
 * The match (several deals) so far.
 * @typedef {object} MatchFacts
 * @property {number} deal  the deal in play (0 before the first; once over, the last)
 * @property {number[]} balance  each seat's score
 * @property {number} stake  what the deal in play is worth
 * @property {boolean} over
 * @property {number | null} leader
 * @property {"stake" | "points"} scoring
 * @property {number[]} count  la cuenta: each seat's total over this match and the matches
 *   before it, one the rematch of the other
 * @property {number} count_matches  how many matches the count holds (1: this one only)
 * @property {number | null} abandoned  the seat of the person who left the match unfinished,
 *   the other claiming it
 */

/**
 * The exchange of the Mexican game (el cambio): the card this seat passed on and the one it
 * received, each once known.
 * @typedef {object} Exchange
 * @property {Card | null} passed
 * @property {Card | null} received
 */

/**
 * One move of the deal (web/messages.py, `Event`; the core's `PublicEvent.to_dict`).
 * @typedef {object} GameEvent
 * @property {number} player  who made it
 * @property {string} verb  take, decline, pass, force, noforce, discard, exchange
 * @property {Card | null} card  the centre card it was about, or the card discarded or passed
 *   on; null for another player's exchange choice
 * @property {string} [source]  where the centre card came from: "d", "p", "t", "u"
 * @property {number} [owner]  who turned or paid it (with more than two players)
 * @property {Meld[][]} [melds]  a take's new table
 */

/**
 * One seat's observation (conquian.observation's `to_dict`): what that seat may know.  A
 * spectator's has no `hand` nor `exchange`, and no legal actions.
 * @typedef {object} Observation
 * @property {number | null} player  the seat observing (null: a spectator)
 * @property {string} rules
 * @property {Phase} phase
 * @property {number} to_act
 * @property {number} dealer
 * @property {Card[]} [hand]  this seat's hand (absent for a spectator)
 * @property {Meld[][]} tables  each seat's melds on the table
 * @property {Card | null} centre  the card offered
 * @property {string | null} centre_source  where it came from: "d", "p", "t", "u"
 * @property {Card[]} dead
 * @property {Card[]} seen
 * @property {number} stock_count
 * @property {number[]} hand_counts
 * @property {number} stake
 * @property {string[]} legal_actions  in notation.md's text ("take 5c6c7c/JhJdJc")
 * @property {GameEvent[]} history  the deal's moves, each as data (the viewer's view of them)
 * @property {{winner: number | null, termination: string} | null} outcome
 * @property {number | null} [centre_owner]  with more than two players
 * @property {number | null} [offeree]  with more than two players
 * @property {Exchange} [exchange]  with the exchange rule (not for a spectator)
 */

/**
 * One way to lay the hand cards of a take (or of a lay-and-pass): the action's text and the
 * melds it leaves on the table.
 * @typedef {object} TakeAction
 * @property {string} text
 * @property {Meld[]} melds
 */

/**
 * The legal takes (or lays) that lay the same hand cards (`played`).
 * @typedef {object} TakeForm
 * @property {Card[]} played
 * @property {TakeAction[]} actions
 */

/**
 * A finished deal's revealed shuffle: anyone may deal the same deck again.
 * @typedef {object} RevealedShuffle
 * @property {string} algorithm
 * @property {string} commitment  the SHA-256 of the server's seed, the dealer and the number of players, published before the deal
 * @property {string} server_seed  hexadecimal
 * @property {string[]} client_seeds  the players' seeds, mixed in
 * @property {number} dealer
 * @property {number} hand_size
 * @property {number} packet
 * @property {number} players
 */

/**
 * The last finished deal (web/messages.py, `DealEnd`): its result in words, every table, and every
 * hand as it ended (public once the deal is over).
 * @typedef {object} LastDeal
 * @property {number} deal
 * @property {number | null} winner
 * @property {string} termination
 * @property {number} value
 * @property {Words[]} lines
 * @property {Meld[][]} tables
 * @property {Card[][]} [hands]
 * @property {RevealedShuffle} [fair]
 */

/**
 * The shuffles' commitments published so far: of the deal in play, and of the deal being
 * shuffled with the seats whose seed it has.
 * @typedef {object} FairFacts
 * @property {string} algorithm
 * @property {{deal: number, commitment: string, dealer: number}} [current]
 * @property {{deal: number, commitment: string, dealer: number, seeded: boolean[]}} [next]
 */

/**
 * A seat's invitation, to the creator's connections only, while the seat is free.
 * @typedef {object} Invitation
 * @property {number} seat
 * @property {string} code
 */

/**
 * A legal layoff: the centre card laid on another player's meld.
 * @typedef {object} Layoff
 * @property {string} text  the action ("layoff 2 5c6c7c")
 * @property {number} seat  whose meld
 * @property {Card[]} meld  the meld with the centre card on it
 */

/**
 * `{"type": "state"}`: everything this connection may see now, after every change
 * (web/messages.py, `StateMessage`).  Before the first deal is dealt, `obs` is null and the
 * words are empty.  Sent with
 * deltas (the page's hello asks for them), `log` holds the lines from `log_from` on and
 * `obs.history` the events from `history_from` on; the page puts the whole lists back
 * (game/state.js, `wholeLists`) before anything reads them.
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {GameFacts} game
 * @property {number | null} seat  this connection's seat (null: watching)
 * @property {Observation | null} obs
 * @property {number} seq  actions so far
 * @property {Words[]} log  the deal's moves in words
 * @property {MatchFacts} match
 * @property {LastDeal | null} last
 * @property {FairFacts | null} fair
 * @property {string} origin  where the centre card came from, in words ("" for none)
 * @property {Words} situation  what this seat decides now, in words (empty unless to act)
 * @property {TakeForm[]} takes
 * @property {TakeForm[]} lays
 * @property {Invitation[]} [invitations]
 * @property {number} [log_from]
 * @property {number} [history_from]
 * @property {Layoff[]} [layoffs]  the legal layoffs (rules with layoff_on_opponent)
 * @property {Words[]} [lesson]  the guided first hand (the learner's page): what it says now
 * @property {ClockPart} [clock]  a quick-match game's clock
 * @property {number | string | null} [ack]  the id of this connection's action it answers
 */

/**
 * Whom a quick-match game waits for, and until when (the server's times, in seconds).
 * @typedef {object} ClockPart
 * @property {number} seat  the person to decide; -1 while the seeds are awaited; -2 nobody
 * @property {number | null} due
 * @property {number} now  the server's time as it sent this
 * @property {number[]} banks  each seat's bank left
 * @property {boolean[]} away  each seat: a computer plays for him until he decides himself
 * @property {(number | null)[]} gone  each seat whose person has no connection: when his
 *   grace ends; null: he is here
 * @property {boolean[]} left  each seat: his grace ran out (at a table of two the other may
 *   claim the match; at a larger one a computer plays for him)
 */

// ---------------------------------------------------------------- the other messages

/**
 * `{"type": "hint"}`: the move the hint bot would make now, for the state `seq`.
 * @typedef {object} HintMessage
 * @property {"hint"} type
 * @property {number} seq
 * @property {string} action
 * @property {Words} words  the move in words
 * @property {string} why  the reason in words
 * @property {Words} why_words  the same, its cards as cards
 * @property {string} reason  the reason's language-neutral code
 */

/**
 * `{"type": "review_progress"}`: a review being worked out.
 * @typedef {object} ReviewProgressMessage
 * @property {"review_progress"} type
 * @property {number} deal
 * @property {number} done
 * @property {number} total
 * @property {string} words
 */

/**
 * What the reviewed player saw when he decided, for a small board: his hand, every table,
 * the centre card, the dead cards, how many cards each hand and the stock held.
 * @typedef {object} ReviewBoard
 * @property {number} player
 * @property {Card[]} hand
 * @property {Meld[][]} tables
 * @property {Card | null} centre
 * @property {string | null} centre_source
 * @property {Card[]} dead
 * @property {number[]} hand_counts
 * @property {number} stock_count
 */

/**
 * The player whose meld the card given away fits, that meld, and the cards he held.
 * @typedef {object} ReviewFeeds
 * @property {number} player
 * @property {Meld} meld
 * @property {number} hand_count
 */

/**
 * One decision of a review (`conquian review --json`, review.md); a judged one has `words`,
 * `mark_word` and `feeds_words` (null: the card given away fits no meld).
 * @typedef {object} ReviewDecision
 * @property {number} deal
 * @property {number} index
 * @property {number} move
 * @property {string} phase
 * @property {number} legal_count
 * @property {string} played
 * @property {string} best
 * @property {number} chance_played
 * @property {number} chance_best
 * @property {number | null} drop
 * @property {"inaccuracy" | "mistake" | "blunder" | null} mark
 * @property {Card | null} centre
 * @property {string | null} position  the position string of what the player saw
 * @property {ReviewBoard | null} board
 * @property {ReviewFeeds | null} feeds
 * @property {string | null} centre_words  where the centre card came from, in words
 * @property {Words} [words]
 * @property {string | null} [mark_word]
 * @property {Words | null} [feeds_words]
 */

/**
 * `{"type": "review"}`: this player's decisions in a finished deal, judged.
 * @typedef {object} ReviewMessage
 * @property {"review"} type
 * @property {number} deal
 * @property {number} player
 * @property {string} rules
 * @property {number} samples
 * @property {number} seed
 * @property {ReviewDecision[]} decisions
 * @property {Record<string, number | null>} summary
 * @property {Words[]} summary_words
 */

/**
 * `{"type": "error"}`: what was wrong with a message or a move; nothing changed.
 * @typedef {object} ErrorMessage
 * @property {"error"} type
 * @property {string} message
 * @property {Words} [words]  the message with its cards as cards
 * @property {number | string | null} [id]
 */

/**
 * `{"type": "pong"}`: the answer to a ping (the page sends none; a message it ignores).
 * @typedef {object} PongMessage
 * @property {"pong"} type
 * @property {number | string | null} id
 */

/**
 * `{"type": "said"}`: a player's table talk: a set phrase (its name; the page words it), or
 * the line he wrote where the host allows it.
 * @typedef {object} SaidMessage
 * @property {"said"} type
 * @property {number} seat
 * @property {string} [phrase]
 * @property {string} [text]
 */

/** @typedef {StateMessage | HintMessage | ReviewProgressMessage | ReviewMessage | ErrorMessage | PongMessage | SaidMessage} ServerMessage */

// ---------------------------------------------------------------- what the page sends

/**
 * The page's messages: who it is, a move, a seed for the next shuffle, a hint, a rematch, a
 * review, another language.
 * @typedef {{type: "hello", lang: string, deltas: boolean, token?: string, mine?: boolean, seed?: string}
 *   | {type: "act", action: string, id: number}
 *   | {type: "seed", deal: number, seed: string}
 *   | {type: "hint"} | {type: "rematch", count?: "keep" | "reset"} | {type: "review", deal: number}
 *   | {type: "lang", lang: string} | {type: "say", phrase: string} | {type: "say", text: string} | {type: "claim"}} ClientMessage
 */

// ---------------------------------------------------------------- the HTTP API

/**
 * The commitment to the shuffle of the deal being shuffled (a create or join answer).
 * @typedef {{deal: number, commitment: string, dealer: number}} ShuffleCommitment
 */

/**
 * `POST /api/games` and `POST /api/games/ID/join`: the seat taken and its secret token.
 * @typedef {object} SeatAnswer
 * @property {string} id
 * @property {number} seat
 * @property {string} token
 * @property {ShuffleCommitment | null} shuffle
 * @property {Invitation[]} [invitations]
 */

/**
 * A seat as the lobby gives it.
 * @typedef {object} LobbySeat
 * @property {"human" | "bot"} kind
 * @property {string} name  "" while free
 * @property {string | null} level
 * @property {boolean} free
 */

/**
 * A public game in the lobby.
 * @typedef {object} LobbyGame
 * @property {string} id
 * @property {string} mode
 * @property {string | null} level
 * @property {string} rules
 * @property {number} size
 * @property {number} free
 * @property {string[]} players
 * @property {LobbySeat[]} seats
 */

/** `GET /api/lobby`. @typedef {{open: LobbyGame[], playing: LobbyGame[]}} Lobby */

/**
 * One position of a replay: the public observation with every hand, and the move that led
 * to it in words.
 * @typedef {object} ReplayFrame
 * @property {Card[][]} hands
 * @property {Meld[][]} tables
 * @property {Card | null} centre
 * @property {Card[]} dead
 * @property {number} stock_count
 * @property {Words} words
 */

/**
 * `GET /api/games/ID/replay/DEAL`.
 * @typedef {object} ReplayAnswer
 * @property {number} deal
 * @property {string[]} players
 * @property {string} result
 * @property {ReplayFrame[]} frames
 */

/**
 * A section of how to play: a heading with paragraphs or numbered steps.
 * @typedef {{heading: string | null, steps?: MarkedLine[], paragraphs?: MarkedLine[]}} HowSection
 */

/**
 * `GET /api/rules`.
 * @typedef {object} RulesAnswer
 * @property {string} rules
 * @property {string} text  every rule in words, as `conquian rules` prints them
 * @property {string} flags  every flag with its value, under its heading
 * @property {string} heading
 * @property {HowSection[]} how
 */

/**
 * `GET /api/words`: the page's catalogue in a language (web/languages.py).
 * @typedef {object} WordsAnswer
 * @property {string} lang
 * @property {{code: string, name: string}[]} languages
 * @property {{nplurals: number, expression?: string, rule: PluralTree}} plural
 * @property {Record<string, string | string[]>} messages  a plural message has its forms
 */

/**
 * A Plural-Forms expression as a tree: a number, "n", or [operator, operands...].
 * @typedef {number | "n" | [string, ...PluralTree[]]} PluralTree
 */
