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
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..bots import BOT_NAMES, LEVELS
from ..cards import DeckStyle
from ..errors import ConquianError
from ..present.i18n import LANGUAGES, choose_language, use_language
from ..present.terminal import (
    PERSON_NAME,
    backup_kept,
    bot_record_name,
    bot_record_names,
    command_error,
    deals_too_few,
    hotseat_names,
    no_save_found,
    opponent_note,
    resume_command,
    saved_where_line,
)
from ..rules import MatchKind, find_rules
from .replay import run_replay_step
from .session import Session, check_opponent, pick_default_level
from .storage import PlayError, SavedMatch, Store
from .ui import make_screen

__all__ = [
    "add_play_arguments",
    "add_play_parser",
    "add_replay_step_options",
    "cmd_play",
    "main",
    "run_replay_step",
    "wants_replay_step",
]

PLAY_DESCRIPTION = (
    "Play Conquian in the terminal against the computer (or --hotseat: two people at one "
    "screen). Type help at any prompt. The game is saved after every move; --resume "
    "continues it. Finished deals are saved as records you can replay."
)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``conquian play``; sets ``func`` to :func:`cmd_play`."""
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--level",
        choices=list(LEVELS),
        help="opponent strength (default: hard if it answers within about a second here, "
        "else medium)",
    )
    who.add_argument(
        "--bot",
        metavar="NAME",
        choices=[name for name in BOT_NAMES if name != "oracle"],
        help="opponent by bot name: " + ", ".join(n for n in BOT_NAMES if n != "oracle"),
    )
    who.add_argument("--hotseat", action="store_true", help="two people take turns at this screen")
    parser.add_argument(
        "--rules", default="standard", help="rules preset or spec (default standard)"
    )
    parser.add_argument(
        "--deals",
        type=int,
        metavar="N",
        help="play a match of N deals (default: the rules' match, standard: until a deal is won)",
    )
    parser.add_argument(
        "--seed", type=int, help="seed of the shuffles and the bot (default random)"
    )
    parser.add_argument(
        "--deck",
        choices=[d.value for d in DeckStyle],
        help="card labels: french (A-7 J Q K) or spanish (1-7 10 11 12); a_to_10 too",
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue the saved game (other options ignored)"
    )
    parser.add_argument(
        "--plain", action="store_true", help="plain text: no colour, no symbols, no frames"
    )
    parser.add_argument(
        "--save-dir",
        metavar="DIR",
        help="where games and records are kept "
        "(default $XDG_DATA_HOME/conquian or ~/.local/share/conquian)",
    )
    parser.set_defaults(func=cmd_play)


def add_language_option(parser: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """``--lang CODE``: the language of the words (default: the environment's, LANG...)."""
    parser.add_argument(
        "--lang",
        metavar="CODE",
        default=default,
        help="language of the words: " + ", ".join(LANGUAGES) + " (default: from LANG)",
    )


def add_play_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add the ``play`` subcommand (all its options and its handler) to ``conquian``."""
    parser = subparsers.add_parser(
        "play", help="play a game in the terminal", description=PLAY_DESCRIPTION
    )
    add_play_arguments(parser)
    return parser


def add_replay_step_options(replay_parser: argparse.ArgumentParser) -> None:
    """Add ``--step``, ``--view P`` and ``--plain`` to the ``replay`` subcommand."""
    replay_parser.add_argument(
        "--step",
        action="store_true",
        help="show the game move by move (n/right forward, p/left back, q quit)",
    )
    replay_parser.add_argument(
        "--view",
        type=int,
        choices=(0, 1, 2, 3),
        metavar="P",
        help="with --step: show only what player P (0 to 3) could see",
    )
    replay_parser.add_argument(
        "--plain", action="store_true", help="with --step: plain text, one command per line"
    )


def wants_replay_step(args: argparse.Namespace) -> bool:
    """Whether ``conquian replay`` was asked for the step viewer (``--step`` or ``--view``)."""
    return bool(getattr(args, "step", False)) or getattr(args, "view", None) is not None


def _resume_command(args: argparse.Namespace) -> str:
    return resume_command(args.save_dir, args.plain)


def _new_saved(args: argparse.Namespace) -> tuple[SavedMatch, str]:
    """A fresh match from the options, and a note on the opponent."""
    rules = find_rules(args.rules)
    seats = rules.num_players
    if args.deck:
        rules = rules.with_flags(deck_style=DeckStyle(args.deck))
    if args.deals is not None:
        if args.deals < 1:
            raise PlayError(deals_too_few(args.deals))
        rules = rules.with_flags(match=MatchKind.N_DEALS, match_target=args.deals)
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
            note = opponent_note(opponent, seconds)
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


def cmd_play(args: argparse.Namespace) -> int:
    """The ``conquian play`` handler."""
    store = Store(Path(args.save_dir) if args.save_dir else None)
    resumed = False
    note = ""
    if args.resume and store.has_save():
        saved = store.load()
        resumed = True
    else:
        saved, note = _new_saved(args)
    screen = make_screen(args.plain, find_rules(saved.rules).deck_style)
    if args.resume and not resumed:
        screen.say(no_save_found(store.root))
    elif not resumed and store.has_save():
        backup = store.save_path.with_name("saved-game.previous.json")
        store.save_path.replace(backup)
        screen.say(backup_kept(backup))
    session = Session(screen, store, saved, resume_command=_resume_command(args))
    session.welcome(resumed, note)
    status = session.run()
    screen.say(saved_where_line(store.root))
    return status


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m conquian.play replay", description="Step through a game record."
    )
    parser.add_argument("file", help="a record file (.toml)")
    add_replay_step_options(parser)
    add_language_option(parser, None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conquian.play``: the play command (or ``replay FILE --step``) on its own."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    handler: Callable[[argparse.Namespace], int]
    if args_list[:1] == ["replay"]:
        args = _replay_parser().parse_args(args_list[1:])
        handler = run_replay_step
    else:
        parser = argparse.ArgumentParser(prog="conquian play", description=PLAY_DESCRIPTION)
        add_play_arguments(parser)
        add_language_option(parser, None)
        args = parser.parse_args(args_list)
        handler = cmd_play
    try:
        use_language(choose_language(getattr(args, "lang", None)))
    except ValueError as exc:
        print(command_error(exc), file=sys.stderr)
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except ConquianError as exc:
        print(command_error(exc), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
