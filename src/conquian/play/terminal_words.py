"""The terminal's own words: what ``conquian play`` and ``conquian replay --step`` say.

Game words that any front end could show (a move, the situation, who pays, the
player notes on the board, the commands as typed) are in :mod:`conquian.present.words`;
this module holds the sentences only the terminal shows: its prompts, notes, the choices
open and the help, errors about what was typed, the labels of the drawn table, the replay
viewer's header, footer and keys, and the command line's ``--help`` and argparse words.
``conquian.play`` calls these and holds no sentence of its own.  They are the messages of
the ``conquian-terminal`` catalogue (:data:`TERMINAL_WORDS`).

Grouped by where a person reads them, so a translator can work through them in order:

1. names and titles           7. the log and hints
2. prompts                    8. the end of a deal, saving
3. notes at the start         9. errors of the play command
4. the turn, the choices     10. the table's labels
5. what was typed, refused   11. the replay viewer
6. the list of ways to take  12. the command line's help
                             13. the help command

Widths matter in a few places (the table's labels line up in columns); each such
function says so.  Commands (``conquian play --resume``, ``hint``, ``n``) are what a
person types, and must stay as the program reads them.

>>> from conquian.present.spans import plain
>>> plain(saved_message("conquian play --resume"))
'Game saved. Continue it with: conquian play --resume'
>>> prompt_for(Phase.OFFER)
'take or decline> '
>>> hotseat_prompt("Ana", prompt_for(Phase.DISCARD))
'Ana, discard> '
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..actions import Action, ActionKind
from ..cards import DeckStyle
from ..errors import InvalidNotationError
from ..melds import partition_mask
from ..observation import Observation
from ..present.errors import no_matching_lay
from ..present.i18n import Domain, fill
from ..present.rules_text import help_summary
from ..present.spans import BOLD, CMD, DIM, GOOD, NOTE, CardLook, Line, Span, melds_spans, plain
from ..present.words import (
    COMMANDS,
    Names,
    command,
    layoff_short_forms,
    level_word,
    score_text,
    take_short_forms,
    you,
)
from ..rules import Forcing, MeldWithoutTake, Rules
from ..state import Phase

TERMINAL_WORDS = Domain("conquian-terminal")
"""The words only the terminal and the command line say (this module's sentences:
prompts, notes, the help, ``--help`` and argparse's words)."""

_ = TERMINAL_WORDS.gettext
ngettext = TERMINAL_WORDS.ngettext

__all__ = [
    "ARGPARSE_MESSAGES",
    "BOT_NAME",
    "HELP_WIDTH",
    "MAX_SHORT_FORMS",
    "PERSON_NAME",
    "RECEIVED_STYLE",
    "TERMINAL_WORDS",
    "TURN_STYLE",
    "also_spans",
    "answer_yes_or_no",
    "backup_kept",
    "bot_label",
    "bot_record_name",
    "bot_record_names",
    "bot_seat_name",
    "bot_sees_everything",
    "bot_thinking",
    "cannot_resume",
    "cannot_take",
    "choice_line",
    "choose_number",
    "choose_prompt",
    "command_error",
    "continue_saved_prompt",
    "dead_label",
    "deal_start_line",
    "deals_too_few",
    "game_title",
    "goes_out",
    "help_text",
    "hint_lines",
    "hint_thinking",
    "hotseat_names",
    "hotseat_prompt",
    "illegal_bot_action",
    "keys_help",
    "layoff_result",
    "layoff_ways_heading",
    "level_menu",
    "level_not_a_choice",
    "level_not_understood",
    "level_prompt",
    "level_ratings",
    "level_trait",
    "log_heading",
    "middle_labels",
    "move_line",
    "name_list",
    "new_match_prompt",
    "next_deal_prompt",
    "no_card_to_take",
    "no_moves_yet",
    "no_opponent_saved",
    "no_save_found",
    "no_such_move",
    "no_take_lays",
    "no_words",
    "not_understood",
    "numbered",
    "on_your_right_note",
    "opponent_chosen",
    "opponent_note",
    "options_line",
    "other_rules_saved",
    "pass_device_lines",
    "person_label",
    "play_help",
    "player_labels",
    "players_menu",
    "players_not_understood",
    "players_prompt",
    "prompt_for",
    "ready_prompt",
    "record_edge",
    "record_lines",
    "redacted_view",
    "replay_footer",
    "replay_header",
    "replay_label",
    "replay_prompt",
    "replay_title",
    "resume_command",
    "resumed_line",
    "review_offer_line",
    "review_stopped_line",
    "review_words",
    "reviewing_text",
    "saved_message",
    "saved_where_line",
    "shown_name",
    "speak_argparse",
    "stock_count",
    "thanks",
    "this_view_label",
    "turn_line",
    "typing_error",
    "unfinished_deal",
    "ways_heading",
    "welcome_line",
    "wrong_match_saved",
    "yes_words",
    "you_label",
]

TURN_STYLE = "bold yellow"
RECEIVED_STYLE = "underline reverse"
"""How the hand marks the card the exchange just brought."""
"""Style of what asks for the player's attention: whose turn it is, passing the device."""

# ------------------------------------------------------------------ 1. names and titles

PERSON_NAME = "You"
"""The name of the person playing a bot, as written in the save and the records.

The replay viewer recognises it to speak to "you"; records already written keep the
English name, so a translation should keep reading it too."""


def person_label() -> str:
    """The person playing the bots, as headed on the table (the save keeps PERSON_NAME)."""
    return you()


BOT_NAME = "Bot"
"""The computer player in sentences ("Bot discarded Kh")."""


def bot_record_name(opponent: str) -> str:
    """The bot's name in the save, the records and the table's heading: ``Bot (hard)``.

    The replay viewer shortens a name at its first ``" ("``.
    """
    return f"{BOT_NAME} ({opponent})"


def shown_name(stored: str) -> str:
    """A name as a record or a save stores it, as the language in use shows it: the person
    playing the bots as "you" (``Tú``), a bot with its level in the language (``Bot 1
    (difícil)``); any other name as it is.

    >>> shown_name("Ana"), shown_name("Bot 2 (hard)"), shown_name("You")
    ('Ana', 'Bot 2 (hard)', 'You')
    """
    if stored == PERSON_NAME:
        return person_label()
    head, _sep, level = stored.partition(" (")
    if level.endswith(")") and (head == BOT_NAME or head.startswith(BOT_NAME + " ")):
        return bot_label(stored, level.removesuffix(")"))
    return stored


def bot_seat_name(seat: int) -> str:
    """A bot's name at a table with several: ``Bot 2`` for seat 2."""
    return f"{BOT_NAME} {seat}"


def bot_record_names(opponent: str, seats: int) -> tuple[str, ...]:
    """The bots' names in the save and the records: ``Bot 1 (hard)``, ``Bot 2 (hard)``..."""
    return tuple(f"{bot_seat_name(p)} ({opponent})" for p in range(1, seats))


def bot_label(record_name: str, opponent: str) -> str:
    """A bot's heading on the table: its name in the save with the level in the language in
    use (``Bot (difícil)`` for ``Bot (hard)`` in Spanish); another name as it is."""
    suffix = f" ({opponent})"
    if not record_name.endswith(suffix):
        return record_name
    return f"{record_name.removesuffix(suffix)} ({level_word(opponent)})"


def hotseat_names(seats: int) -> tuple[str, ...]:
    """The people at a hotseat table: ``Player 1`` to ``Player 4`` (in the language in
    use when the game starts: the names are then kept in the save and the records)."""
    return tuple(_("Player {number}").format(number=p + 1) for p in range(seats))


def on_your_right_note() -> str:
    """Beside the player who plays after you."""
    return _("on your right, plays after you")


def you_label(label: str) -> str:
    """A hot-seat player's heading on his own screen: ``Player 1 (you)``."""
    return _("{name} (you)").format(name=label)


def game_title(spec: str) -> Line:
    """The title in the table's frame, naming the rules unless they are the standard ones."""
    if spec == "standard":
        return [Span(" " + _("Conquian") + " ", BOLD)]
    named = {  # the Mexican games by their names, not by their flags
        "mexican": _("Mexican Conquian: tercerilla"),
        "mexican,num_players=2": _("Mexican Conquian for two"),
        "mexican,num_players=4": _("Mexican Conquian for four"),
    }
    title = named.get(spec) or _("Conquian ({rules} rules)").format(rules=spec)
    return [Span(" " + title + " ", BOLD)]


# -------------------------------------------------------------------------- 2. prompts


def prompt_for(phase: Phase) -> str:
    """The prompt for a move, by phase (the words in it are commands)."""
    prompts = {
        # Translators: the words of the prompts are commands the player types:
        # the commands (msgctxt "command") of the conquian catalogue
        Phase.OFFER: _("take or decline> "),
        Phase.TURN: _("take or pass> "),
        Phase.FORCE: _("force or no> "),
        Phase.FORCED: _("take (forced)> "),
        Phase.DISCARD: _("discard> "),
        Phase.EXCHANGE: _("exchange> "),
    }
    return prompts.get(phase, "> ")


def new_match_prompt() -> str:
    # Translators: Y and n are the answers typed (see yes_words and no_words)
    return _("new match? [Y/n]> ")


def continue_saved_prompt(rules: str, when: str) -> str:
    """A new game asked for while one is saved: go on with the saved one instead?"""
    # Translators: Y and n are the answers typed (see yes_words and no_words)
    return _("A game is saved ({rules} rules, {when}). Go on with it? [Y/n]> ").format(
        rules=rules, when=when.replace("T", " ")
    )


def count_goes_on_line(names: Names, count: Sequence[int]) -> Line:
    """Before the question of a new match: the count goes on in it, unless one types 0."""
    text = ", ".join(score_text(names, p, count) for p in range(len(count)))
    return fill(
        _("The count goes on in a new match ({count}); type 0 to start it from zero."),
        DIM,
        count=text,
    )


def next_deal_prompt() -> str:
    return _("next deal? [Y/n]> ")


def review_words() -> frozenset[str]:
    """Answers to the question after a deal that ask for its review (r and review always
    work)."""
    # Translators: what a player types, after a deal, to see the review of his moves,
    # separated by spaces (r and review always work); the first is shown in the offer
    return frozenset({"r", "review", *_("r review").lower().split()})


def review_offer_line(path: object, player: int) -> Line:
    """After a deal: how to see the review of the player's moves, now or later."""
    key = _("r review").split()[0]
    return fill(
        # Translators: {key} is the first of the words typed to ask for a review
        _(
            "To see a review of your moves in this deal, answer {key} (it takes a few seconds); later: {command}"
        ),
        key=Span(key, BOLD),
        command=Span(f"conquian review {path} --player {player}", CMD),
    )


def reviewing_text() -> str:
    """Shown while the deal is reviewed."""
    return _("Reviewing your moves in this deal… (Ctrl-C stops the review)")


def review_stopped_line() -> str:
    """After Ctrl-C stopped the review of a deal (the game goes on)."""
    return _("Review stopped.")


def answer_yes_or_no() -> str:
    """After an answer to a yes-or-no prompt that is neither."""
    return _("Please answer y or n.")


def yes_words() -> frozenset[str]:
    """Answers that mean yes (the English ones always work)."""
    # Translators: the answers that mean yes, separated by spaces (y and yes always work)
    return frozenset({"y", "yes", *_("y yes").lower().split()})


def no_words() -> frozenset[str]:
    """Answers that mean no (the English ones always work)."""
    # Translators: the answers that mean no, separated by spaces (n and no always work)
    return frozenset({"n", "no", *_("n no").lower().split()})


def hotseat_prompt(name: str, prompt: str) -> str:
    """A prompt addressed to one of two people at the screen: ``Player 1, discard> ``."""
    return _("{name}, {prompt}").format(name=name, prompt=prompt)


def ready_prompt(name: str) -> str:
    """Waits for the next hot-seat player to sit down."""
    return _("{name}, press Enter when ready> ").format(name=name)


def choose_prompt(count: int) -> str:
    """The prompt under the numbered list of ways to take."""
    return _("choose 1-{count} (Enter: back)> ").format(count=count)


def replay_prompt() -> str:
    """The replay viewer's prompt in plain mode."""
    return _("replay> ")


# ------------------------------------------------------------------ 3. notes at the start


def welcome_line() -> Line:
    """Under the first table of a new game."""
    return [
        Span(_("Welcome to Conquian! "), GOOD),
        *fill(
            _("Type {help} at any prompt to learn how to play; {learn} teaches you step by step."),
            help=Span(command("help"), CMD),
            learn=Span("conquian learn", CMD),
        ),
    ]


def lesson_stopped_line() -> Line:
    """When the learner stops the guided hand before its end."""
    return fill(
        _("Lesson stopped. {learn} starts it again from the beginning."),
        learn=Span("conquian learn", CMD),
    )


def resumed_line(when: str) -> Line:
    """Under the first table of a resumed game; ``when`` is the date and time it was saved."""
    return fill(_("Resumed the game saved {when}."), NOTE, when=when)


def opponent_note(opponent: str, seconds: float, rating: int | None = None) -> str:
    """Which level was chosen for a new game (with its rating, in a two-player game), and how
    to choose another."""
    if rating is None:
        return _(
            "Your opponent: the {level} bot (it answered in {seconds} s here; "
            "--level beginner|easy|medium|hard|expert to change)."
        ).format(level=opponent, seconds=f"{seconds:.1f}")
    return _(
        "Your opponent: the {level} bot, rated {rating} (it answered in {seconds} s here; "
        "--level beginner|easy|medium|hard|expert to change)."
    ).format(level=opponent, rating=rating, seconds=f"{seconds:.1f}")


def level_trait(level: str) -> str:
    """How a level plays, in a few words for the level menu."""
    return {
        "beginner": _("often misses a take or discards carelessly"),
        "easy": _("slips about every other move"),
        "medium": _("slips now and then"),
        "hard": _("never slips; plays by sound rules of thumb"),
        "expert": _("looks ahead over sampled deals of the hidden cards"),
    }.get(level, "")


def level_menu(levels: Sequence[str], ratings: dict[str, int] | None, default: str) -> list[Line]:
    """The level menu of a new game: each level numbered, with its rating (``ratings``: in a
    two-player game; None leaves them out) and how it plays; ``default`` is marked.

    >>> from conquian.present.spans import plain
    >>> lines = [plain(line) for line in level_menu(["easy", "hard"], {"easy": 824, "hard": 1022}, "hard")]
    >>> lines[1]
    '  1  easy  824  slips about every other move'
    >>> lines[2].endswith("rules of thumb (Enter)")
    True
    """
    width = max(len(level_word(level)) for level in levels)
    lines: list[Line] = [[Span(_("Choose your opponent:"), BOLD)]]
    for number, level in enumerate(levels, 1):
        row = [Span(f"  {number}  "), Span(level_word(level).ljust(width), BOLD)]
        if ratings is not None:
            rating = ratings.get(level)
            row.append(Span(f" {rating:>4}" if rating is not None else " " * 5))
        trait = level_trait(level)
        if level == default:
            # Translators: marks the level chosen by pressing Enter in the level menu.
            trait = _("{trait} (Enter)").format(trait=trait)
        row.append(Span(f"  {trait}", DIM if level != default else ""))
        lines.append(row)
    if ratings is not None:
        lines.append(
            [
                Span(
                    _(
                        "The number is the level's rating between two players: 1000 is a "
                        "typical Conquian program, and a level 100 above another wins about "
                        "64 of 100 decided deals against it."
                    ),
                    DIM,
                )
            ]
        )
    return lines


def players_menu() -> list[Line]:
    """The first question of a new game of the Mexican form: how many play."""
    return [
        [Span(_("How many play?"), BOLD)],
        [Span("  2  "), Span(_("two players"))],
        [Span("  3  "), Span(_("three: tercerilla")), Span(" (Enter)", DIM)],
        [Span("  4  "), Span(_("four players"))],
    ]


def players_prompt() -> str:
    """The prompt of :func:`players_menu`."""
    return _("players (2-4, Enter: 3)> ")


def players_not_understood(text: str) -> str:
    """What was typed at the players' question is not 2, 3 or 4."""
    return _("{typed!r} is not a number of players: type 2, 3 or 4, or press Enter for 3.").format(
        typed=text
    )


def level_prompt(count: int, default: str) -> str:
    """The prompt of the level menu."""
    return _("level (1-{count}, Enter: {level})> ").format(count=count, level=level_word(default))


def level_not_understood(text: str, count: int, default: str) -> str:
    """What was typed at the level menu is not a level."""
    return _(
        "{typed} is not one of the levels: type its number (1 to {count}) or its name, "
        "or press Enter for {level}."
    ).format(typed=repr(text[:30]), count=count, level=level_word(default))


def opponent_chosen(level: str, rating: int | None = None) -> str:
    """The level chosen in the level menu (with its rating, in a two-player game), and how
    to start with it at once next time."""
    if rating is None:
        return _(
            "Your opponent: the {level} bot (conquian play --level {option} starts with it "
            "at once)."
        ).format(level=level_word(level), option=level)
    return _(
        "Your opponent: the {level} bot, rated {rating} (conquian play --level {option} "
        "starts with it at once)."
    ).format(level=level_word(level), rating=rating, option=level)


def level_not_a_choice(typed: str, levels: Sequence[str]) -> str:
    """``--level`` given a name that is no level, in argparse's words and the language's
    level names."""
    choices = ", ".join(repr(level_word(level)) for level in levels)
    return _("invalid choice: %(value)r (choose from %(choices)s)") % {
        "value": typed,
        "choices": choices,
    }


def level_ratings(ratings: dict[str, int]) -> str:
    """The levels with their ratings, as the help lists them: ``easy 823, medium 922``."""
    return ", ".join(f"{level_word(level)} {rating}" for level, rating in ratings.items())


def no_save_found(root: object) -> str:
    """``--resume`` without a saved game."""
    return _("There is no saved game in {folder}; starting a new one.").format(folder=root)


def backup_kept(backup: object) -> str:
    """A new game started over an unfinished one, whose save was moved aside."""
    return _("The unfinished game saved before was kept as {file}.").format(file=backup)


# --------------------------------------------------------------- 4. the turn, the choices


def turn_line(name: str | None, situation: Line) -> Line:
    """Whose turn it is (``name`` in a hot-seat game, else None: "Your turn") and what to decide."""
    turn = _("Your turn: ") if name is None else _("{name}, your turn: ").format(name=name)
    return [Span(turn, TURN_STYLE), *situation]


def also_spans() -> Line:
    """After the choices of a move: the commands that are always there."""
    names = " ".join(command(c) for c in ("hint", "help", "log", "quit"))
    return fill(_("   (also: {commands})"), DIM, commands=names)


def name_list(names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cy``."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def pass_device_lines(name: str, other: str) -> tuple[Line, str]:
    """Between two hot-seat turns: hand the device to ``name``; ``other`` looks away."""
    return (
        fill(_("Pass the device to {name}."), TURN_STYLE, name=name),
        _("{others}, please look away: the next screen shows {name}'s hand.").format(
            others=other, name=name
        ),
    )


def bot_thinking(name: str, look: CardLook) -> str:
    """Shown while a slow bot decides."""
    return _("{name} is thinking").format(name=name) + look.ellipsis


MAX_SHORT_FORMS = 3
"""The most ways to take (or to lay and pass) that :func:`options_line` spells out."""


def options_line(obs: Observation, look: CardLook) -> Line:
    """The choices open now, written as they are typed (only legal choices)."""
    kinds = {a.kind for a in obs.legal_actions}
    out: list[Line] = []
    if ActionKind.TAKE in kinds:
        forms = take_short_forms(obs, look)
        takes = sum(len(actions) for _text, actions in forms)
        shown = [
            (text, actions) for text, actions in forms if text != command("take") or takes == 1
        ]
        out += [
            [Span(text, CMD), *(_goes_out() if all(goes_out(a, obs) for a in actions) else [])]
            for text, actions in shown[:MAX_SHORT_FORMS]
        ]
        if takes > 1:  # plain 'take' lists every way
            out.append(
                [Span(command("take"), CMD), *fill(_(" (list all {count} ways)"), count=takes)]
            )
    if ActionKind.LAYOFF in kinds:
        out += _layoff_options(obs, look)
    if ActionKind.DECLINE in kinds:
        out.append([Span(command("decline"), CMD)])
    if ActionKind.PASS in kinds:
        lays = take_short_forms(obs, look, ActionKind.PASS)
        out.append([Span(command("pass"), CMD)])
        out += [
            [Span(text, CMD), Span(_(" (lay them, then pass)") if i == 0 else "")]
            for i, (text, _actions) in enumerate(lays[:MAX_SHORT_FORMS])
        ]
    if ActionKind.FORCE in kinds:
        out.append([Span(command("force"), CMD)])
    if ActionKind.NO_FORCE in kinds:
        out.append([Span(command("no"), CMD)])
    if ActionKind.DISCARD in kinds:
        example = max(a.card for a in obs.legal_actions if a.kind is ActionKind.DISCARD)
        out.append(
            [
                Span(command("discard"), CMD),
                *fill(
                    _(" any card of your hand, e.g. {card}"),
                    card=Span(look.label(example), CMD),
                ),
            ]
        )
    if ActionKind.EXCHANGE in kinds:
        example = max(a.card for a in obs.legal_actions if a.kind is ActionKind.EXCHANGE)
        out.append(
            [
                Span(command("exchange"), CMD),
                *fill(
                    _(" any card of your hand to pass it to the next player, e.g. {card}"),
                    card=Span(look.label(example), CMD),
                ),
            ]
        )
    line: Line = [Span(_("You can: "))]
    for i, option in enumerate(out):
        if i:
            line.append(Span(" | ", DIM))
        line += option
    return line


def _layoff_options(obs: Observation, look: CardLook) -> list[Line]:
    """The ways to lay the centre card on another player's meld, as typed (``layoff 5c 6c
    7c``: the meld, as it lies), the first few spelled out, then the word that lists them
    all."""
    forms = layoff_short_forms(obs, look)
    out: list[Line] = [
        [
            Span(text, CMD),
            Span(_(" (lay it on that meld, then discard)") if i == 0 else ""),
        ]
        for i, (text, _action) in enumerate(forms[:MAX_SHORT_FORMS])
    ]
    if len(forms) > MAX_SHORT_FORMS:
        out.append(
            [Span(command("layoff"), CMD), *fill(_(" (list all {count} ways)"), count=len(forms))]
        )
    return out


# ---------------------------------------------------------------- 5. what was typed, refused


def cannot_take(centre: str) -> str:
    """``take`` typed when the centre card (written as typed) fits nothing of the player's."""
    return _("{card} does not fit anything of yours, so you cannot take it.").format(card=centre)


def no_card_to_take() -> str:
    """``take`` typed when there is no centre card to take (when forcing, or discarding)."""
    return _("There is no card to take now.")


def no_take_lays(cards: str) -> str:
    """``take`` with real cards (written as typed) that no legal take lays exactly."""
    return plain(no_matching_lay(True, cards))


def not_understood(text: str) -> str:
    """A line that is no command."""
    return _("I don't understand {text}.").format(text=repr(text))


def typing_error(exc: InvalidNotationError, look: CardLook) -> str:
    """A move typed that cannot be read, in words (cards as ``look`` labels them)."""
    word = command(exc.word) if exc.word in COMMANDS else exc.word
    if exc.fault == "not_a_card":
        return _("{text} is not a card (type the value, then the suit: e.g. {example}).").format(
            text=repr(exc.token), example=look.label(17)
        )
    if exc.fault == "written_twice":
        return _("{card} is written twice.").format(card=exc.token)
    if exc.fault == "rank_not_in_hand":
        return _("You have no {rank} in your hand.").format(rank=exc.token)
    if exc.fault == "needs_card":
        return _("{command} needs a card, e.g. {example}.").format(
            command=repr(word), example=repr(f"{word} {look.label(19)}")
        )
    if exc.fault == "one_card":
        return _("{command} takes exactly one card, not {text}.").format(
            command=repr(word), text=repr(exc.token)
        )
    if exc.fault == "nothing_after":
        return _("{command} takes nothing after it, not {text}.").format(
            command=repr(word), text=repr(exc.token)
        )
    return _("That cannot be read as a move: {detail}").format(detail=exc)


def which_card(cards: str) -> str:
    """A rank typed alone that is several cards of the hand, each of which could be played."""
    return _("Which one: {cards}? Type the card with its suit.").format(cards=cards)


def choose_number(count: int) -> str:
    """An answer to the numbered list that is not one of its numbers."""
    return _("Type a number from 1 to {count}, or press Enter to go back.").format(count=count)


# ------------------------------------------------------------------ 6. the list of ways to take


def ways_heading(count: int, take: bool) -> str:
    """Above the numbered list of the ``count`` ways to take (or, ``take`` False, to lay
    cards and pass)."""
    if take:
        return ngettext(
            "{count} way to take it; your table would be:",
            "{count} ways to take it; your table would be:",
            count,
        ).format(count=count)
    return ngettext(
        "{count} way to lay cards and pass; your table would be:",
        "{count} ways to lay cards and pass; your table would be:",
        count,
    ).format(count=count)


def layoff_ways_heading(count: int) -> str:
    """Above the numbered list of the ``count`` ways to lay the centre card on another
    player's meld."""
    return ngettext(
        "{count} way to lay it on another player's meld; that meld would be:",
        "{count} ways to lay it on another player's meld; that meld would be:",
        count,
    ).format(count=count)


def layoff_result(action: Action, obs: Observation, names: Names, look: CardLook) -> Line:
    """In the list of ways to lay the centre card off: whose meld it goes on, and the meld
    with it (``Ana: 4c 5c 6c 7c``)."""
    meld = action.melds[0] | 1 << obs.centre if action.melds and obs.centre >= 0 else 0
    # Translators: {player} is the player whose meld the centre card would go on
    return fill(
        _("{player}: {meld}"), player=names.subj(action.seat), meld=melds_spans(look, (meld,))
    )


def choice_line(
    number: int, form: str, width: int, table: Line, look: CardLook, out: bool = False
) -> Line:
    """One way in the list: its number, how it is typed (padded to ``width``) and the table
    it makes; ``out``: that table goes out, and the line says so."""
    return [
        Span(f"  {number:>2}. "),
        Span(form.ljust(width), CMD),
        Span("  \u2192  " if look.symbols else "  ->  ", DIM),
        *table,
        *(_goes_out() if out else []),
    ]


def _goes_out() -> Line:
    # Translators: after a way to take (or to lay cards) that goes out, in the list of ways
    return [Span(" ("), Span(_("goes out"), BOLD), Span(")")]


def goes_out(action: Action, obs: Observation) -> bool:
    """Whether ``action`` ends the deal: a take that lays every card of the hand (a lay before
    passing, or a layoff on another player's meld, never does)."""
    if action.kind is not ActionKind.TAKE:
        return False
    return not obs.hand_mask & ~partition_mask(action.melds)


# ------------------------------------------------------------------------ 7. the log and hints


def log_heading(deal: int) -> Line:
    """Above the ``log`` command's list of moves."""
    return fill(_("Deal {deal}, every move so far:"), BOLD, deal=deal)


def no_moves_yet() -> str:
    """The ``log`` of a deal without a move."""
    return "  " + _("(no moves yet)")


def numbered(number: int, line: Line) -> Line:
    """A line of the log, numbered."""
    return [Span(f"  {number:>2}. "), *line]


def hint_thinking(look: CardLook) -> str:
    """Shown while the hint is worked out."""
    return _("Thinking") + look.ellipsis


def hint_lines(action: Line, reason: str) -> tuple[Line, Line]:
    """The move the hint bot would make (``action``, in words) and its reason (the bot's own
    words, or empty)."""
    return (
        [Span(_("Hint: "), NOTE), *action],
        fill(_("  why: {reason}"), DIM, reason=reason or "-"),
    )


# ------------------------------------------------------------------ 8. the end of a deal, saving


def thanks() -> str:
    """The last line when the person stops after a match."""
    return _("Thanks for playing!")


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
        Span(_("Game saved. "), GOOD),
        *fill(_("Continue it with: {command}"), command=Span(command, CMD)),
    ]


def record_lines(path: object) -> tuple[Line, Line]:
    """Where the finished deal's record was written, and the command that replays it."""
    return (
        fill(_("Record saved: {file}"), file=Span(str(path), BOLD)),
        fill(
            _("Watch it again: {command}"),
            command=Span(f"conquian replay {path} --step", CMD),
        ),
    )


def saved_where_line(root: object) -> Line:
    """The last line of ``conquian play``: where its files are."""
    return fill(_("(Saved games and records are kept in {folder})"), DIM, folder=str(root))


# ------------------------------------------------------------ 9. errors of the play command


def command_error(message: object) -> str:
    """An error that stops the command, on standard error."""
    return _("conquian: error: {message}").format(message=message)


def bot_sees_everything(name: str) -> str:
    """A bot that cheats was asked for as the opponent."""
    return _("The {name} bot sees every card; it is for measurements, not for play.").format(
        name=name
    )


def illegal_bot_action(action: object) -> str:
    """A bot chose an action that is not legal (a bug in the bot)."""
    return _("The bot chose an action that is not legal: {action}.").format(action=action)


def deals_too_few(deals: int) -> str:
    """``--deals`` below one."""
    return _("--deals must be at least 1, got {deals}.").format(deals=deals)


def to_too_few(target: int) -> str:
    """``--to`` below one."""
    return _("--to must be at least 1, got {target}.").format(target=target)


def deals_or_to() -> str:
    """``--deals`` and ``--to`` together."""
    return _("Give --deals or --to, not both: a match is played to a number of deals or of points.")


def no_opponent_saved() -> str:
    """A save whose computer seat has no bot."""
    return _("The saved game names no opponent for a computer seat.")


def wrong_match_saved() -> str:
    """Why a save cannot be resumed (continues :func:`cannot_resume`)."""
    return _("the saved match is not the one this save describes")


def other_rules_saved() -> str:
    """Why a save cannot be resumed (continues :func:`cannot_resume`)."""
    return _("the saved match is played under other rules")


def cannot_resume(reason: object) -> str:
    """The saved game does not replay."""
    return _("The saved game cannot be resumed: {reason}").format(reason=reason)


def redacted_view(viewpoint: int, view: int) -> str:
    """``--view`` names the other player of a record redacted to one player's view."""
    return _("This record is redacted to p{viewpoint}'s view; it cannot show p{view}'s.").format(
        viewpoint=viewpoint, view=view
    )


def no_such_view(view: int, players: int) -> str:
    """``--view`` names a seat that the record does not have."""
    return _("This record has no player p{view}: its players are p0 to p{last}.").format(
        view=view, last=players - 1
    )


# ---------------------------------------------------------------------- 10. the table's labels


def dead_label() -> str:
    """The label of the dead cards, on the stock's line."""
    return _("Dead:")


def middle_labels() -> tuple[str, str, str]:
    """The centre, stock and seen labels, padded to one column (the widest and two spaces)."""
    labels = (_("Centre:"), _("Stock:"), _("Seen:"))
    width = max(len(label) for label in labels) + 2
    centre, stock, seen = (label.ljust(width) for label in labels)
    return centre, stock, seen


def player_labels() -> tuple[str, str]:
    """A player's table and hand labels, indented and padded to one column."""
    labels = (_("table:"), _("hand:"))
    width = max(len(label) for label in labels) + 1
    table, hand = (f"  {label.ljust(width)}" for label in labels)
    return table, hand


def stock_count(count: int) -> str:
    """The number of cards in the stock, padded so that the dead cards after it stay put."""

    def text(n: int) -> str:
        return ngettext("{count} card", "{count} cards", n).format(count=f"{n:>2}")

    return text(count).ljust(max(len(text(1)), len(text(2))))


# ------------------------------------------------------------------------ 11. the replay viewer


def replay_title(filename: str) -> str:
    """The replay viewer's title, framed as the table's."""
    return _("Replay: {file}").format(file=filename)


def replay_label(player: int, name: str) -> str:
    """A player as headed in the replay viewer: ``p0 You`` (``p0 Tú`` in Spanish)."""
    return f"p{player} {shown_name(name)}"


def this_view_label(label: str) -> str:
    """The heading of the player whose view the replay shows."""
    return _("{name} (this view)").format(name=label)


def replay_header(
    move: int, last: int, dealer: int, stake: int, rules: str, look: CardLook
) -> Line:
    """The replay's first line: which move of how many, the dealer, the stake, the rules."""
    dot = look.sep
    return [
        Span(_("Move {move} of {last}").format(move=move, last=last), BOLD),
        Span(dot, DIM),
        Span(_("dealer p{dealer}").format(dealer=dealer)),
        Span(dot, DIM),
        Span(_("stake {stake}").format(stake=stake)),
        Span(dot, DIM),
        Span(_("rules {rules}").format(rules=rules)),
    ]


def deal_start_line(moves: int) -> Line:
    """Under the table at move 0."""
    return [
        Span(_("The deal. "), BOLD),
        Span(ngettext("{count} move follows.", "{count} moves follow.", moves).format(count=moves)),
    ]


def move_line(move: int, words: Sequence[Span]) -> Line:
    """Under the table: the move just shown, in words."""
    return [Span(_("Move {move}: ").format(move=move), BOLD), *words]


def unfinished_deal() -> str:
    """Under a record of a deal in play, shown without ``--view``."""
    return _("This deal is unfinished: hands stay hidden (use --view P).")


def replay_footer(keys: bool, look: CardLook) -> Line:
    """The keys (``keys``: single keys on a terminal) or the commands typed as lines."""
    if keys:
        arrows = ("\u2192", "\u2190") if look.symbols else (_("right"), _("left"))
        return fill(
            _("{next} next   {back} back   {ends} first/last   {quit} quit"),
            next=Span(f"n/{arrows[0]}", CMD),
            back=Span(f"p/{arrows[1]}", CMD),
            ends=Span("g/G", CMD),
            quit=Span("q", CMD),
        )
    return fill(
        _("{enter} next, {back} back, a move number to jump, {quit} quit"),
        enter=Span(_("Enter or n"), CMD),
        back=Span("p", CMD),
        quit=Span("q", CMD),
    )


def no_such_move(last: int) -> str:
    """A move number past the record."""
    return _("There are moves 0 to {last}.").format(last=last)


def record_edge(at_end: bool, last: int) -> Line:
    """Forward at the last move (``at_end``) or back at the first."""
    if at_end:
        text = ngettext(
            "This is the end of the record ({count} move).",
            "This is the end of the record ({count} moves).",
            last,
        )
    else:
        text = ngettext(
            "This is the start of the record ({count} move).",
            "This is the start of the record ({count} moves).",
            last,
        )
    return fill(text.format(count=last), DIM)


def keys_help() -> str:
    """After a key the replay viewer does not know."""
    return _("Keys: n next, p back, q quit.")


# ------------------------------------------------------------ 12. the command line's help


def play_help() -> dict[str, str]:
    """The help of ``conquian play`` (``--help``): its description and each option's line.
    Option names and values (``--resume``, ``french``) are typed: they stay as they are."""
    return {
        "command": _("play a game in the terminal"),
        "description": _(
            "Play Conquian in the terminal against the computer (or --hotseat: two to four "
            "people at one screen). Type help at any prompt. The game is saved after every "
            "move; --resume continues it. Finished deals are saved as records you can replay."
        ),
        "level": _(
            "opponent strength, each with its two-player rating ({ratings}; a level 100 "
            "points above another wins about 64 of 100 decided deals against it); default: "
            "expert if it answers within about a second here, else hard"
        ),
        "bot": _("opponent by bot name: {names}"),
        "hotseat": _("two to four people take turns at this screen"),
        "rules": _(
            "rules preset or spec (default: in Spanish the Mexican game, asking how many "
            "play; else standard)"
        ),
        "deals": _(
            "play a match of N deals (default: the rules' match, standard: until a deal is won)"
        ),
        "to": _(
            "play a match to N: the first to win N stake units (or N points) wins it; the count"
            " runs on from one match to the next until you start it from zero"
        ),
        "seed": _("seed of the shuffles and the bot (default random)"),
        "deck": _("card labels: french (A-7 J Q K) or spanish (1-7 10 11 12); a_to_10 too"),
        "resume": _("continue the saved game (other options ignored)"),
        "plain": _("plain text: no colour, no symbols, no frames"),
        "save_dir": _(
            "where games and records are kept "
            "(default $XDG_DATA_HOME/conquian or ~/.local/share/conquian)"
        ),
        "lang": _("language of the words: {codes} (default: from LANG)"),
        "step": _("show the game move by move (n/right forward, p/left back, q quit)"),
        "view": _("with --step: show only what player P (0 to 3) could see"),
        "step_plain": _("with --step: plain text, one command per line"),
        "replay": _("Step through a game record."),
        "learn": _("learn to play: a guided first hand against the computer"),
        "learn_description": _(
            "Learn Conquian in one hand of the Mexican game against the computer, step by "
            "step: the exchange, taking, paying, passing, forcing and going out. Nothing is "
            "saved; it starts again each time."
        ),
        "record_file": _("a record file (.toml)"),
    }


def N_(message: str) -> str:
    """Marks a message for the catalogue without translating it here."""
    return message


ARGPARSE_MESSAGES = (
    # Translators: the words of Python's argparse, which writes every command's --help and
    # its errors; keep the %(name)s and %s placeholders exactly
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("not allowed with argument %s"),
)
"""The messages of :mod:`argparse` a person reads (see :func:`speak_argparse`)."""


def speak_argparse() -> None:
    """Make :mod:`argparse` write its usage, headings and errors in the language in use
    (it looks its words up through the module's own ``_``)."""
    import argparse

    argparse._ = _  # type: ignore[attr-defined]


# ------------------------------------------------------------------- 13. the help command


def _command_rows(rules: Rules, look: CardLook) -> list[tuple[str, str]]:
    """The commands of the terminal, with example cards in the game's own labels."""
    six, seven, king = look.label(35), look.label(36), look.label(19)
    take, pass_ = command("take"), command("pass")
    refuse = ", ".join(dict.fromkeys((command("decline"), pass_)))
    rows = [
        (
            f"{take} {six} {seven}",
            _("take the centre card, laying {one} and {two} from your hand with it").format(
                one=six, two=seven
            ),
        ),
        (take, _("take it; if there are several ways, choose from a numbered list")),
        (refuse, _("refuse the centre card ({no} also works)").format(no=command("no"))),
    ]
    if rules.meld_without_take is MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD:
        rows.append(
            (
                f"{pass_} {six} {seven}",
                _("lay {one} and {two} from your hand, then pass the turned card").format(
                    one=six, two=seven
                ),
            )
        )
    if rules.layoff_on_opponent:
        layoff = command("layoff")
        rows += [
            (
                f"{layoff} {six}",
                _(
                    "lay the centre card on another player's meld that holds {card}, then discard"
                ).format(card=six),
            ),
            (layoff, _("lay it on another player's meld; if there are several, choose")),
        ]
    rows.append(
        (
            king,
            _("discard {card} after a take (or: {discard} {card})").format(
                card=king, discard=command("discard")
            ),
        )
    )
    if rules.forcing is Forcing.OPTIONAL:
        rows.append(
            (
                f"{command('force')}, {command('no')}",
                _("force your opponent to take the card he refused, or let it go"),
            )
        )
    rows += [
        (command("hint"), _("what the strongest bot would do, and why")),
        (command("log"), _("every move of this deal")),
        (command("table"), _("show the table again")),
        (command("rules"), _("the rules in full")),
        (command("quit"), _("save and stop (play --resume)")),
    ]
    return rows


HELP_WIDTH = 89
"""The widest line of :func:`help_text`."""


def _typing_words(rules: Rules, look: CardLook) -> str:
    """How cards are typed, for the deck of ``rules``, in the language's letters."""
    deck = rules.deck_style
    ranks = " ".join(look.letters.rank_labels(deck))
    suits = " ".join(look.letters.suit_labels(deck))
    if deck is DeckStyle.SPANISH:
        ranks = _(
            "Cards are typed rank then suit: {ranks} and {suits} (espadas, copas, oros, "
            "bastos), e.g. {example}."
        ).format(ranks=ranks, suits=suits, example=look.label(17))
    else:
        ranks = _("Cards are typed rank then suit: {ranks} and {suits}, e.g. {example}.").format(
            ranks=ranks, suits=suits, example=look.label(17)
        )
    alone = _(
        "A rank alone will do where one card of your hand has it: {example} lays your 5 and your 7."
    ).format(example=f"{command('take')} 5 7")
    ranks = f"{ranks} {alone}"
    if look.symbols:
        case = _("Upper or lower case; suit symbols such as {example} work too.").format(
            example="7\u2665"
        )
    else:
        case = _("Upper or lower case; suit symbols work too.")
    return f"{ranks} {case}"


def help_text(rules: Rules, look: CardLook) -> str:
    """How to play these rules and the terminal's commands (with suit symbols only where
    the screen shows them)."""
    lines = [_("How to play Conquian")]
    for paragraph in help_summary(rules):
        lines += textwrap.wrap(paragraph, HELP_WIDTH, initial_indent="  ", subsequent_indent="  ")
    lines += ["", _("Commands")]
    lines += [f"  {command.ljust(13)}  {what}" for command, what in _command_rows(rules, look)]
    lines += textwrap.wrap(
        _typing_words(rules, look), HELP_WIDTH, initial_indent="  ", subsequent_indent="  "
    )
    return "\n".join(lines)
