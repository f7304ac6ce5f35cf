"""The terminal's own words: what ``conquian play`` and ``conquian replay --step`` say.

Game words that any front end could show (a move, the situation, who pays, the
player notes on the board) are in :mod:`conquian.present.words`; this module holds
the sentences only the terminal shows: its prompts, notes, errors about what was
typed, the labels of the drawn table, and the replay viewer's header, footer and keys.
``conquian.play`` calls these and holds no sentence of its own (except ``--help``).

Grouped by where a person reads them, so a translator can work through them in order:

1. names and titles           6. the list of ways to take
2. prompts                    7. the log and hints
3. notes at the start         8. the end of a deal, saving
4. the turn                   9. errors of the play command
5. what was typed, refused   10. the table's labels
                             11. the replay viewer

Widths matter in a few places (the table's labels line up in columns); each such
function says so.  Commands (``conquian play --resume``, ``hint``, ``n``) are what a
person types, and must stay as the program reads them.

>>> from conquian.present.spans import plain
>>> plain(saved_message("conquian play --resume"))
'Game saved. Continue it with: conquian play --resume'
>>> PROMPTS[Phase.OFFER]
'take or decline> '
>>> hotseat_prompt("Ana", PROMPTS[Phase.DISCARD])
'Ana, discard> '
"""

from __future__ import annotations

from collections.abc import Sequence

from ..state import Phase
from .spans import BOLD, CMD, DIM, GOOD, NOTE, CardLook, Line, Span

__all__ = [
    "ANSWER_YES_OR_NO",
    "BOT_NAME",
    "CENTRE_LABEL",
    "DEAD_LABEL",
    "DEFAULT_PROMPT",
    "HAND_LABEL",
    "HOTSEAT_NAMES",
    "KEYS_HELP",
    "NEW_MATCH_PROMPT",
    "NEXT_DEAL_PROMPT",
    "NO_CARD_TO_TAKE",
    "NO_MOVES_YET",
    "NO_OPPONENT_SAVED",
    "OTHER_RULES_SAVED",
    "PERSON_NAME",
    "PROMPTS",
    "REPLAY_PROMPT",
    "SEEN_LABEL",
    "STOCK_LABEL",
    "TABLE_LABEL",
    "THANKS",
    "TURN_STYLE",
    "UNFINISHED_DEAL",
    "WRONG_MATCH_SAVED",
    "also_spans",
    "backup_kept",
    "bot_record_name",
    "bot_sees_everything",
    "bot_thinking",
    "cannot_resume",
    "cannot_take",
    "choice_line",
    "choose_number",
    "choose_prompt",
    "command_error",
    "deal_start_line",
    "deals_too_few",
    "game_title",
    "hint_lines",
    "hint_thinking",
    "hotseat_prompt",
    "illegal_bot_action",
    "log_heading",
    "middle_labels",
    "move_line",
    "no_save_found",
    "no_such_move",
    "no_take_lays",
    "not_understood",
    "numbered",
    "opponent_note",
    "pass_device_lines",
    "player_labels",
    "ready_prompt",
    "record_edge",
    "record_lines",
    "redacted_view",
    "replay_footer",
    "replay_header",
    "replay_label",
    "replay_title",
    "resume_command",
    "resumed_line",
    "saved_message",
    "saved_where_line",
    "stock_count",
    "this_view_label",
    "turn_line",
    "ways_heading",
    "welcome_line",
    "you_label",
]

TURN_STYLE = "bold yellow"
"""Style of what asks for the player's attention: whose turn it is, passing the device."""

# ------------------------------------------------------------------ 1. names and titles

PERSON_NAME = "You"
"""The name of the person playing a bot, as written in the save and the records.

The replay viewer recognises it to speak to "you"; records already written keep the
English name, so a translation should keep reading it too."""

BOT_NAME = "Bot"
"""The computer player in sentences ("Bot discarded Kh")."""

HOTSEAT_NAMES = ("Player 1", "Player 2")
"""The two people of a hot-seat game (also written in the save and the records)."""


def bot_record_name(opponent: str) -> str:
    """The bot's name in the save, the records and the table's heading: ``Bot (hard)``.

    The replay viewer shortens a name at its first ``" ("``.
    """
    return f"{BOT_NAME} ({opponent})"


def bot_seat_name(seat: int) -> str:
    """A bot's name at a table with several: ``Bot 2`` for seat 2."""
    return f"{BOT_NAME} {seat}"


def bot_record_names(opponent: str, seats: int) -> tuple[str, ...]:
    """The bots' names in the save and the records: ``Bot 1 (hard)``, ``Bot 2 (hard)``..."""
    return tuple(f"{bot_seat_name(p)} ({opponent})" for p in range(1, seats))


def hotseat_names(seats: int) -> tuple[str, ...]:
    """The people at a hotseat table: ``Player 1`` to ``Player 4``."""
    return tuple(f"Player {p + 1}" for p in range(seats))


def on_your_right_note() -> str:
    """Beside the player who plays after you."""
    return "on your right, plays after you"


def you_label(label: str) -> str:
    """A hot-seat player's heading on his own screen: ``Player 1 (you)``."""
    return f"{label} (you)"


def game_title(spec: str) -> Line:
    """The title in the table's frame, naming the rules unless they are the standard ones."""
    extra = "" if spec == "standard" else f" ({spec} rules)"
    return [Span(f" Conquian{extra} ", BOLD)]


# -------------------------------------------------------------------------- 2. prompts

PROMPTS = {
    Phase.OFFER: "take or decline> ",
    Phase.TURN: "take or pass> ",
    Phase.FORCE: "force or no> ",
    Phase.FORCED: "take (forced)> ",
    Phase.DISCARD: "discard> ",
}
"""The prompt for a move, by phase (the words in it are commands)."""

DEFAULT_PROMPT = "> "
"""The prompt of a phase without its own."""

NEW_MATCH_PROMPT = "new match? [Y/n]> "
NEXT_DEAL_PROMPT = "next deal? [Y/n]> "
ANSWER_YES_OR_NO = "Please answer y or n."
"""After an answer to a yes-or-no prompt that is neither."""


def hotseat_prompt(name: str, prompt: str) -> str:
    """A prompt addressed to one of two people at the screen: ``Player 1, discard> ``."""
    return f"{name}, {prompt}"


def ready_prompt(name: str) -> str:
    """Waits for the next hot-seat player to sit down."""
    return f"{name}, press Enter when ready> "


def choose_prompt(count: int) -> str:
    """The prompt under the numbered list of ways to take."""
    return f"choose 1-{count} (Enter: back)> "


REPLAY_PROMPT = "replay> "
"""The replay viewer's prompt in plain mode."""

# ------------------------------------------------------------------ 3. notes at the start


def welcome_line() -> Line:
    """Under the first table of a new game."""
    return [
        Span("Welcome to Conquian! ", GOOD),
        Span("Type "),
        Span("help", CMD),
        Span(" at any prompt to learn how to play."),
    ]


def resumed_line(when: str) -> Line:
    """Under the first table of a resumed game; ``when`` is the date and time it was saved."""
    return [Span(f"Resumed the game saved {when}.", NOTE)]


def opponent_note(opponent: str, seconds: float) -> str:
    """Which level was chosen for a new game, and how to choose another."""
    return (
        f"Your opponent: the {opponent} bot (it answered in {seconds:.1f} s here; "
        "--level easy|medium|hard|expert to change)."
    )


def no_save_found(root: object) -> str:
    """``--resume`` without a saved game."""
    return f"There is no saved game in {root}; starting a new one."


def backup_kept(backup: object) -> str:
    """A new game started over an unfinished one, whose save was moved aside."""
    return f"The unfinished game saved before was kept as {backup}."


# ---------------------------------------------------------------------------- 4. the turn


def turn_line(name: str | None, situation: Line) -> Line:
    """Whose turn it is (``name`` in a hot-seat game, else None: "Your turn") and what to decide."""
    turn = "Your turn" if name is None else f"{name}, your turn"
    return [Span(turn + ": ", TURN_STYLE), *situation]


def also_spans() -> Line:
    """After the choices of a move: the commands that are always there."""
    return [
        Span("   (also: ", DIM),
        Span("hint help log quit", DIM),
        Span(")", DIM),
    ]


def name_list(names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cy``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def pass_device_lines(name: str, other: str) -> tuple[Line, str]:
    """Between two hot-seat turns: hand the device to ``name``; ``other`` looks away."""
    return (
        [Span(f"Pass the device to {name}.", TURN_STYLE)],
        f"{other}, please look away: the next screen shows {name}'s hand.",
    )


def bot_thinking(name: str, look: CardLook) -> str:
    """Shown while a slow bot decides."""
    return f"{name} is thinking{look.ellipsis}"


# ---------------------------------------------------------------- 5. what was typed, refused


def cannot_take(centre: str) -> str:
    """``take`` typed when the centre card (written as typed) fits nothing of the player's."""
    return f"{centre} does not fit anything of yours, so you cannot take it."


NO_CARD_TO_TAKE = "There is no card to take now."
"""``take`` typed when there is no centre card to take (when forcing, or discarding)."""


def no_take_lays(cards: str) -> str:
    """``take`` with real cards (written as typed) that no legal take lays exactly."""
    return f"No legal take lays exactly {cards}."


def not_understood(text: str) -> str:
    """A line that is no command."""
    return f"I don't understand {text!r}."


def choose_number(count: int) -> str:
    """An answer to the numbered list that is not one of its numbers."""
    return f"Type a number from 1 to {count}, or press Enter to go back."


# ------------------------------------------------------------------ 6. the list of ways to take


def ways_heading(count: int, take: bool) -> str:
    """Above the numbered list of the ``count`` ways to take (or, ``take`` False, to lay
    cards and pass)."""
    doing = "take it" if take else "lay cards and pass"
    return f"{count} ways to {doing}; your table would be:"


def choice_line(number: int, form: str, width: int, table: Line, look: CardLook) -> Line:
    """One way in the list: its number, how it is typed (padded to ``width``) and the table
    it makes."""
    return [
        Span(f"  {number:>2}. "),
        Span(form.ljust(width), CMD),
        Span("  \u2192  " if look.symbols else "  ->  ", DIM),
        *table,
    ]


# ------------------------------------------------------------------------ 7. the log and hints


def log_heading(deal: int) -> Line:
    """Above the ``log`` command's list of moves."""
    return [Span(f"Deal {deal}, every move so far:", BOLD)]


NO_MOVES_YET = "  (no moves yet)"
"""The ``log`` of a deal without a move."""


def numbered(number: int, line: Line) -> Line:
    """A line of the log, numbered."""
    return [Span(f"  {number:>2}. "), *line]


def hint_thinking(look: CardLook) -> str:
    """Shown while the hint is worked out."""
    return f"Thinking{look.ellipsis}"


def hint_lines(action: Line, reason: str) -> tuple[Line, Line]:
    """The move the hint bot would make (``action``, in words) and its reason (the bot's own
    words, or empty)."""
    return (
        [Span("Hint: ", NOTE), *action],
        [Span("  why: ", DIM), Span(reason or "-", DIM)],
    )


# ------------------------------------------------------------------ 8. the end of a deal, saving

THANKS = "Thanks for playing!"
"""The last line when the person stops after a match."""


def resume_command(save_dir: str | None = None, plain: bool = False) -> str:
    """The command that continues the saved game (typed as is: not to be translated)."""
    command = "conquian play --resume"
    if save_dir:
        command += f" --save-dir {save_dir}"
    if plain:
        command += " --plain"
    return command


def saved_message(command: str) -> Line:
    """After a quit or between deals: the game is saved and ``command`` continues it."""
    return [
        Span("Game saved. ", GOOD),
        Span("Continue it with: "),
        Span(command, CMD),
    ]


def record_lines(path: object) -> tuple[Line, Line]:
    """Where the finished deal's record was written, and the command that replays it."""
    return (
        [Span("Record saved: "), Span(str(path), BOLD)],
        [Span("Watch it again: "), Span(f"conquian replay {path} --step", CMD)],
    )


def saved_where_line(root: object) -> Line:
    """The last line of ``conquian play``: where its files are."""
    return [Span(f"(Saved games and records are kept in {root})", DIM)]


# ------------------------------------------------------------ 9. errors of the play command


def command_error(message: object) -> str:
    """An error that stops the command, on standard error."""
    return f"conquian: error: {message}"


def bot_sees_everything(name: str) -> str:
    """A bot that cheats was asked for as the opponent."""
    return f"The {name} bot sees every card; it is for measurements, not for play."


def illegal_bot_action(action: object) -> str:
    """A bot chose an action that is not legal (a bug in the bot)."""
    return f"The bot chose an action that is not legal: {action}."


def deals_too_few(deals: int) -> str:
    """``--deals`` below one."""
    return f"--deals must be at least 1, got {deals}."


NO_OPPONENT_SAVED = "The saved game names no opponent for a computer seat."
"""A save whose computer seat has no bot."""
WRONG_MATCH_SAVED = "the saved match is not the one this save describes"
"""Why a save cannot be resumed (continues :func:`cannot_resume`)."""
OTHER_RULES_SAVED = "the saved match is played under other rules"
"""Why a save cannot be resumed (continues :func:`cannot_resume`)."""


def cannot_resume(reason: object) -> str:
    """The saved game does not replay."""
    return f"The saved game cannot be resumed: {reason}"


def redacted_view(viewpoint: int, view: int) -> str:
    """``--view`` names the other player of a record redacted to one player's view."""
    return f"This record is redacted to p{viewpoint}'s view; it cannot show p{view}'s."


# ---------------------------------------------------------------------- 10. the table's labels

CENTRE_LABEL = "Centre:"
STOCK_LABEL = "Stock:"
SEEN_LABEL = "Seen:"
"""The labels of the middle of the table (the centre card, the stock, the cards seen)."""
DEAD_LABEL = "Dead:"
"""The label of the dead cards, on the stock's line."""
TABLE_LABEL = "table:"
HAND_LABEL = "hand:"
"""The labels of a player's melds and hand."""


def middle_labels() -> tuple[str, str, str]:
    """The centre, stock and seen labels, padded to one column (the widest and two spaces)."""
    labels = (CENTRE_LABEL, STOCK_LABEL, SEEN_LABEL)
    width = max(len(label) for label in labels) + 2
    centre, stock, seen = (label.ljust(width) for label in labels)
    return centre, stock, seen


def player_labels() -> tuple[str, str]:
    """A player's table and hand labels, indented and padded to one column."""
    labels = (TABLE_LABEL, HAND_LABEL)
    width = max(len(label) for label in labels) + 1
    table, hand = (f"  {label.ljust(width)}" for label in labels)
    return table, hand


def stock_count(count: int) -> str:
    """The number of cards in the stock, padded so that the dead cards after it stay put."""

    def text(n: int) -> str:
        return f"{n:>2} {'card' if n == 1 else 'cards'}"

    return text(count).ljust(max(len(text(1)), len(text(2))))


# ------------------------------------------------------------------------ 11. the replay viewer


def replay_title(filename: str) -> str:
    """The replay viewer's title, framed as the table's."""
    return f"Replay: {filename}"


def replay_label(player: int, name: str) -> str:
    """A player as headed in the replay viewer: ``p0 You``."""
    return f"p{player} {name}"


def this_view_label(label: str) -> str:
    """The heading of the player whose view the replay shows."""
    return f"{label} (this view)"


def replay_header(
    move: int, last: int, dealer: int, stake: int, rules: str, look: CardLook
) -> Line:
    """The replay's first line: which move of how many, the dealer, the stake, the rules."""
    dot = look.sep
    return [
        Span(f"Move {move} of {last}", BOLD),
        Span(dot, DIM),
        Span(f"dealer p{dealer}"),
        Span(dot, DIM),
        Span(f"stake {stake}"),
        Span(dot, DIM),
        Span(f"rules {rules}"),
    ]


def deal_start_line(moves: int) -> Line:
    """Under the table at move 0."""
    return [Span("The deal. ", BOLD), Span(f"{moves} moves follow.")]


def move_line(move: int, words: Sequence[Span]) -> Line:
    """Under the table: the move just shown, in words."""
    return [Span(f"Move {move}: ", BOLD), *words]


UNFINISHED_DEAL = "This deal is unfinished: hands stay hidden (use --view P)."
"""Under a record of a deal in play, shown without ``--view``."""


def replay_footer(keys: bool, look: CardLook) -> Line:
    """The keys (``keys``: single keys on a terminal) or the commands typed as lines."""
    if keys:
        arrows = ("\u2192", "\u2190") if look.symbols else ("right", "left")
        return [
            Span(f"n/{arrows[0]}", CMD),
            Span(" next   "),
            Span(f"p/{arrows[1]}", CMD),
            Span(" back   "),
            Span("g/G", CMD),
            Span(" first/last   "),
            Span("q", CMD),
            Span(" quit"),
        ]
    return [
        Span("Enter or n", CMD),
        Span(" next, "),
        Span("p", CMD),
        Span(" back, a move number to jump, "),
        Span("q", CMD),
        Span(" quit"),
    ]


def no_such_move(last: int) -> str:
    """A move number past the record."""
    return f"There are moves 0 to {last}."


def record_edge(at_end: bool, last: int) -> Line:
    """Forward at the last move (``at_end``) or back at the first."""
    edge = "end" if at_end else "start"
    return [Span(f"This is the {edge} of the record ({last} moves).", DIM)]


KEYS_HELP = "Keys: n next, p back, q quit."
"""After a key the replay viewer does not know."""
