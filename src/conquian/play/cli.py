"""Command-line hooks of ``conquian play`` and ``conquian replay --step``.

Wiring into :mod:`conquian.cli`::

    from .play.cli import add_play_parser, add_replay_step_options, run_replay_step, wants_replay_step

    add_play_parser(sub)                    # in build_parser(), with the other subcommands
    add_replay_step_options(p)              # right after the replay parser's own options
    # first lines of cmd_replay(args):
    if wants_replay_step(args):
        return run_replay_step(args)

``python -m conquian.play [options]`` runs the play command alone, and
``python -m conquian.play replay FILE --step`` the replay viewer.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..bots import BOT_NAMES, LEVEL_RATINGS, LEVELS
from ..bots.lesson import LESSON_RULES
from ..cards import DeckStyle
from ..errors import ConquianError
from ..present.i18n import LANGUAGES, choose_language, current_language, use_language
from ..present.words import level_word
from ..rules import MAX_PLAYERS, MatchKind, Rules, find_rules
from .replay import run_replay_step
from .session import (
    Session,
    ask_level,
    ask_players,
    ask_yes,
    check_opponent,
    pick_default_level,
    read_level,
)
from .storage import PlayError, SavedMatch, Store
from .terminal_words import (
    PERSON_NAME,
    backup_kept,
    bot_record_name,
    bot_record_names,
    command_error,
    continue_saved_prompt,
    deals_or_to,
    deals_too_few,
    hotseat_names,
    level_not_a_choice,
    level_ratings,
    no_save_found,
    opponent_chosen,
    opponent_note,
    play_help,
    resume_command,
    saved_where_line,
    speak_argparse,
    to_too_few,
)
from .ui import Screen, make_screen

__all__ = [
    "add_play_arguments",
    "add_play_parser",
    "add_replay_step_options",
    "cmd_play",
    "main",
    "run_replay_step",
    "wants_replay_step",
]


def level_option(text: str) -> str:
    """``--level``: a level by its name in the language in use or in English.

    >>> level_option("medium")
    'medium'
    """
    level = read_level(text, list(LEVELS), "") if text.strip() else None
    if not level:
        raise argparse.ArgumentTypeError(level_not_a_choice(text, list(LEVELS)))
    return level


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``conquian play``; sets ``func`` to :func:`cmd_play`."""
    words = play_help()
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--level",
        type=level_option,
        metavar="{" + ",".join(level_word(level) for level in LEVELS) + "}",
        help=words["level"].format(ratings=level_ratings(LEVEL_RATINGS)),
    )
    who.add_argument(
        "--bot",
        metavar="NAME",
        choices=[name for name in BOT_NAMES if name != "oracle"],
        help=words["bot"].format(names=", ".join(n for n in BOT_NAMES if n != "oracle")),
    )
    who.add_argument("--hotseat", action="store_true", help=words["hotseat"])
    parser.add_argument("--rules", help=words["rules"])
    parser.add_argument(
        "--deals",
        type=int,
        metavar="N",
        help=words["deals"],
    )
    parser.add_argument("--to", type=int, metavar="N", help=words["to"])
    parser.add_argument("--seed", type=int, help=words["seed"])
    parser.add_argument(
        "--deck",
        choices=[d.value for d in DeckStyle],
        help=words["deck"],
    )
    parser.add_argument("--resume", action="store_true", help=words["resume"])
    parser.add_argument("--plain", action="store_true", help=words["plain"])
    parser.add_argument(
        "--save-dir",
        metavar="DIR",
        help=words["save_dir"],
    )
    parser.set_defaults(func=cmd_play)


def language_in(argv: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line, read before its parser is built (so that the
    parser's help is written in that language), or None.

    >>> language_in(["play", "--lang", "es"]), language_in(["--lang=ru"]), language_in([])
    ('es', 'ru', None)
    """
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def add_language_option(parser: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """``--lang CODE``: the language of the words (default: the environment's, LANG...)."""
    parser.add_argument(
        "--lang",
        metavar="CODE",
        default=default,
        help=play_help()["lang"].format(codes=", ".join(LANGUAGES)),
    )


def add_play_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add the ``play`` subcommand (all its options and its handler) to ``conquian``."""
    words = play_help()
    parser = subparsers.add_parser("play", help=words["command"], description=words["description"])
    add_play_arguments(parser)
    return parser


def add_learn_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add the ``learn`` subcommand (the guided first hand) to ``conquian``."""
    words = play_help()
    parser = subparsers.add_parser(
        "learn", help=words["learn"], description=words["learn_description"]
    )
    parser.add_argument("--plain", action="store_true", help=words["plain"])
    parser.set_defaults(func=cmd_learn)
    return parser


def cmd_learn(args: argparse.Namespace) -> int:
    """The ``conquian learn`` handler: the guided first hand."""
    from .lesson import LessonSession

    screen = make_screen(args.plain, find_rules(LESSON_RULES).deck_style)
    return LessonSession(screen, Store()).run()


def add_replay_step_options(replay_parser: argparse.ArgumentParser) -> None:
    """Add ``--step``, ``--view P`` and ``--plain`` to the ``replay`` subcommand."""
    words = play_help()
    replay_parser.add_argument("--step", action="store_true", help=words["step"])
    replay_parser.add_argument(
        "--view",
        type=int,
        choices=range(MAX_PLAYERS),
        metavar="P",
        help=words["view"],
    )
    replay_parser.add_argument("--plain", action="store_true", help=words["step_plain"])


def wants_replay_step(args: argparse.Namespace) -> bool:
    """Whether ``conquian replay`` was asked for the step viewer (``--step`` or ``--view``)."""
    return bool(getattr(args, "step", False)) or getattr(args, "view", None) is not None


def _resume_command(args: argparse.Namespace) -> str:
    return resume_command(args.save_dir, args.plain)


MEXICAN_FIRST = frozenset({"es"})
"""The languages whose players are offered the Mexican game first (without ``--rules``)."""


def first_game() -> str:
    """The rules a new game has without ``--rules``: in Spanish the Mexican game (three
    players, the tercerilla, unless the person says how many), else the standard one."""
    return "mexican" if current_language() in MEXICAN_FIRST else "standard"


def _rules_of(args: argparse.Namespace) -> Rules:
    """The rules of a new match from the options (``--rules``, ``--deck``, ``--deals``)."""
    rules = find_rules(args.rules or first_game())
    if args.deck:
        rules = rules.with_flags(deck_style=DeckStyle(args.deck))
    if args.deals is not None:
        if args.deals < 1:
            raise PlayError(deals_too_few(args.deals))
        rules = rules.with_flags(match=MatchKind.N_DEALS, match_target=args.deals)
    if args.to is not None:
        if args.deals is not None:
            raise PlayError(deals_or_to())
        if args.to < 1:
            raise PlayError(to_too_few(args.to))
        rules = rules.with_flags(match=MatchKind.FIRST_TO, match_target=args.to)
    return rules


def _interactive(screen: Screen) -> bool:
    """Whether a person types at this screen (its input and output are a terminal)."""
    return screen.is_tty and sys.stdin.isatty()


def _new_saved(args: argparse.Namespace, screen: Screen) -> tuple[SavedMatch, str] | None:
    """A fresh match from the options, and a note on the opponent.

    Without ``--level``, ``--bot`` or ``--hotseat``, a person at a terminal chooses the level
    from a menu (None if they quit there); otherwise the level is picked for this machine."""
    rules = _rules_of(args)
    if args.rules is None and first_game() == "mexican" and _interactive(screen):
        players = ask_players(screen)  # the Mexican game's first question
        if players is None:
            return None
        args.rules = "mexican" if players == 3 else f"mexican,num_players={players}"
        rules = _rules_of(args)
    seats = rules.num_players
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    bot_seed = random.Random(f"bot:{seed}").randrange(2**63)
    note = ""
    if args.hotseat:
        opponent = None
        names = hotseat_names(seats)
        humans: tuple[int, ...] = tuple(range(seats))
    else:
        if args.bot:
            opponent = args.bot
        elif args.level:
            opponent = args.level
        else:
            opponent, seconds = pick_default_level(rules)
            rating = LEVEL_RATINGS.get(opponent) if seats == 2 else None
            if _interactive(screen):
                chosen = ask_level(screen, opponent, rated=seats == 2)
                if chosen is None:
                    return None
                opponent = chosen
                note = opponent_chosen(
                    opponent, LEVEL_RATINGS.get(opponent) if seats == 2 else None
                )
            else:
                note = opponent_note(opponent, seconds, rating)
        check_opponent(opponent)
        names = (PERSON_NAME, bot_record_name(opponent))
        if seats > 2:
            names = (PERSON_NAME, *bot_record_names(opponent, seats))
        humans = (0,)
    saved = SavedMatch(
        rules=rules.to_spec(),
        match_seed=seed,
        bot_seed=bot_seed,
        opponent=opponent,
        names=names,
        humans=humans,
    )
    return saved, note


def _speak_as_saved(saved: SavedMatch, args: argparse.Namespace) -> None:
    """A saved game goes on in its language, unless ``--lang`` says another."""
    if saved.lang and getattr(args, "lang", None) is None:
        use_language(saved.lang)


def _saved_to_offer(store: Store) -> SavedMatch | None:
    """The game saved in ``store``, if there is one that can be read."""
    if not store.has_save():
        return None
    try:
        return store.load()
    except PlayError:
        return None


def cmd_play(args: argparse.Namespace) -> int:
    """The ``conquian play`` handler."""
    store = Store(Path(args.save_dir) if args.save_dir else None)
    resumed = False
    note = ""
    if args.resume and store.has_save():
        saved = store.load()
        resumed = True
        _speak_as_saved(saved, args)
        screen = make_screen(args.plain, find_rules(saved.rules).deck_style)
    else:
        screen = make_screen(args.plain, _rules_of(args).deck_style)
        waiting = _saved_to_offer(store) if _interactive(screen) and not args.resume else None
        if waiting is not None and ask_yes(
            screen, continue_saved_prompt(waiting.rules, waiting.saved_at)
        ):
            saved, resumed = waiting, True
            _speak_as_saved(saved, args)
            screen = make_screen(args.plain, find_rules(saved.rules).deck_style)
        else:
            fresh = _new_saved(args, screen)
            if fresh is None:
                return 0
            saved, note = fresh
    if args.resume and not resumed:
        screen.say(no_save_found(store.root))
    elif not resumed and store.has_save():  # never lost: moved aside under a name of its own
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        backup = store.save_path.with_name(f"saved-game.{stamp}.json")
        number = 1
        while backup.exists():
            number += 1
            backup = store.save_path.with_name(f"saved-game.{stamp}-{number}.json")
        store.save_path.replace(backup)
        screen.say(backup_kept(backup))
    session = Session(screen, store, saved, resume_command=_resume_command(args))
    session.welcome(resumed, note)
    status = session.run()
    screen.say(saved_where_line(store.root))
    return status


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m conquian.play replay", description=play_help()["replay"]
    )
    parser.add_argument("file", help=play_help()["record_file"])
    add_replay_step_options(parser)
    add_language_option(parser, None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conquian.play``: the play command (or ``replay FILE --step``) on its own."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        use_language(choose_language(language_in(args_list)))
    except ValueError as exc:
        print(command_error(exc), file=sys.stderr)
        return 2
    speak_argparse()
    handler: Callable[[argparse.Namespace], int]
    if args_list[:1] == ["replay"]:
        args = _replay_parser().parse_args(args_list[1:])
        handler = run_replay_step
    else:
        parser = argparse.ArgumentParser(
            prog="conquian play", description=play_help()["description"]
        )
        add_play_arguments(parser)
        add_language_option(parser, None)
        args = parser.parse_args(args_list)
        handler = cmd_play
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except ConquianError as exc:
        print(command_error(exc), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
