"""``conquian replay FILE --step``: a game record shown move by move.

Keys (on a terminal with the Rich screen): ``n``, space, Enter or → forward;
``p``, ``b`` or ← back; ``g``/``G`` first/last; ``q`` quits.  In plain mode (or
when input is not a terminal) the same letters are read as lines, and a number
jumps to that move.

Without ``--view`` both hands are shown once the deal is over (a finished
record); with ``--view P`` only what player P could see.  A redacted record is
always shown from its own player's view.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import select
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from ..actions import Action
from ..cards import DeckStyle
from ..notation import small_number
from ..observation import PublicEvent, observe, public_event
from ..present.spans import BOLD, NOTE, Line, Span
from ..present.words import Names, describe_events, outcome_lines
from ..records import GameRecord, load_record
from ..rules import find_rules
from ..state import GameState
from .board import Board, board_lines
from .storage import PlayError
from .terminal_words import (
    PERSON_NAME,
    deal_start_line,
    keys_help,
    move_line,
    no_such_move,
    no_such_view,
    record_edge,
    redacted_view,
    replay_footer,
    replay_header,
    replay_label,
    replay_prompt,
    replay_title,
    this_view_label,
    unfinished_deal,
)
from .ui import Screen, make_screen

__all__ = ["ReplayViewer", "run_replay_step", "step_replay"]

NEXT, PREV, FIRST, LAST, QUIT = "next", "prev", "first", "last", "quit"
_KEYS = {
    "n": NEXT,
    " ": NEXT,
    "\r": NEXT,
    "\n": NEXT,
    "right": NEXT,
    "down": NEXT,
    "p": PREV,
    "b": PREV,
    "left": PREV,
    "up": PREV,
    "g": FIRST,
    "home": FIRST,
    "G": LAST,
    "end": LAST,
    "q": QUIT,
    "Q": QUIT,
    "esc": QUIT,
}
_LINES = {
    "": NEXT,
    "n": NEXT,
    "next": NEXT,
    "p": PREV,
    "prev": PREV,
    "back": PREV,
    "b": PREV,
    "g": FIRST,
    "first": FIRST,
    "last": LAST,
    "q": QUIT,
    "quit": QUIT,
    "exit": QUIT,
}
_ESCAPES = {
    "[C": "right",
    "OC": "right",
    "[D": "left",
    "OD": "left",
    "[A": "up",
    "OA": "up",
    "[B": "down",
    "OB": "down",
    "[H": "home",
    "OH": "home",
    "[1~": "home",
    "[F": "end",
    "OF": "end",
    "[4~": "end",
    "": "esc",
}


class ReplayViewer:
    """Steps through a record's positions on a screen."""

    def __init__(self, screen: Screen, record: GameRecord, view: int | None, title: str) -> None:
        self.screen = screen
        self.record = record
        self.view = view
        self.title = title
        steps = list(record.iter_replay())
        self.states: list[GameState] = [state for _, _, state in steps]
        self.events: list[PublicEvent] = []
        for (_, _, before), (_, action, _) in itertools.pairwise(steps):
            assert isinstance(action, Action)
            self.events.append(public_event(before, action))
        self.finished = self.states[-1].is_over
        short = tuple(_short(name) for name in record.players)
        # a record of `conquian play` calls the person "You": keep the grammar right
        me = next((p for p in range(len(short)) if short[p] == PERSON_NAME), None)
        self.names = Names(short, me=me)

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def lines(self, k: int) -> list[Line]:
        """The screen of move ``k`` (0 = the deal)."""
        state = self.states[k]
        history = tuple(self.events[:k])
        look = self.screen.look
        viewer = 0 if self.view is None else self.view
        obs = observe(state, viewer, history)
        n = len(state.hands)
        if self.view is not None:
            hands: list[int | None] = [None] * n
            hands[self.view] = obs.hand_mask
        elif self.finished:
            hands = [observe(state, p).hand_mask for p in range(n)]
        else:
            hands = [None] * n
        labels = [replay_label(p, self.record.players[p]) for p in range(n)]
        if self.view is not None:
            labels[self.view] = this_view_label(labels[self.view])
        log = describe_events(history, self.names, look, state.rules.cards_to_win)
        header = [replay_header(k, self.last, state.dealer, state.stake, self.record.rules, look)]
        board = Board(
            obs=obs,
            names=self.names,
            labels=tuple(labels),
            hands=tuple(hands),
            bottom=viewer,
            header=header,
            log=log,
            log_size=5,
        )
        lines = board_lines(board, look)
        lines.append([])
        if k == 0:
            lines.append(deal_start_line(len(self.events)))
        else:
            lines.append(move_line(k, log[-1] if log else []))
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            shown = (hands[0] or 0, hands[1] or 0)
            lines += outcome_lines(outcome, obs.tables, shown, self.names, look)
        if not self.finished and self.view is None:
            lines.append([Span(unfinished_deal(), NOTE)])
        return lines

    def show(self, k: int, footer: Line) -> None:
        self.screen.new_screen()
        self.screen.board([Span(f" {self.title} ", BOLD)], self.lines(k))
        self.screen.say(footer)

    def run(self, keys: bool) -> int:
        """Show the record; ``keys`` reads single keys, else lines."""
        k = 0
        footer = replay_footer(keys, self.screen.look)
        try:
            with _key_reader(keys) as read:
                while True:
                    self.show(k, footer)
                    while True:
                        command = read(self.screen)
                        if command.isascii() and command.isdigit():
                            target = small_number(command)
                            if target is not None and target <= self.last:
                                k = target
                                break
                            self.screen.error(no_such_move(self.last))
                            continue
                        if command == QUIT:
                            return 0
                        if command == NEXT and k < self.last:
                            k += 1
                            break
                        if command == PREV and k > 0:
                            k -= 1
                            break
                        if command == FIRST:
                            k = 0
                            break
                        if command == LAST:
                            k = self.last
                            break
                        if command in (NEXT, PREV):
                            self.screen.say(record_edge(command == NEXT, self.last))
                        else:
                            self.screen.error(keys_help())
        except EOFError:
            return 0
        except KeyboardInterrupt:
            self.screen.say("")
            return 130


def _short(name: str) -> str:
    return name.split(" (")[0] or name


@contextlib.contextmanager
def _key_reader(keys: bool) -> Iterator[Callable[[Screen], str]]:
    """A function reading one command: a key in cbreak mode, or a line."""
    if keys:
        try:
            import termios
            import tty
        except ImportError:  # pragma: no cover - not POSIX
            keys = False
    if not keys:

        def read_line(screen: Screen) -> str:
            text = screen.ask(replay_prompt()).strip()
            return _LINES.get(text.lower(), text or NEXT)

        yield read_line
        return
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)

    def read_key(screen: Screen) -> str:
        data = os.read(fd, 1)
        if not data:
            raise EOFError
        if data == b"\x1b":
            seq = b""
            while len(seq) < 4 and select.select([fd], [], [], 0.05)[0]:
                seq += os.read(fd, 1)
                if seq[-1:].isalpha() or seq.endswith(b"~"):
                    break
            return _KEYS.get(_ESCAPES.get(seq.decode(errors="replace"), "?"), "?")
        char = data.decode(errors="replace")
        return _KEYS.get(char, char)

    try:
        yield read_key
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def step_replay(
    path: str | Path,
    view: int | None = None,
    plain_text: bool = False,
    screen: Screen | None = None,
) -> int:
    """Show the record at ``path`` move by move; returns the exit status.

    :raises RecordError: if the record cannot be read or does not replay.
    :raises PlayError: if ``view`` contradicts a redacted record.
    """
    record = load_record(str(path))
    if view is not None and not 0 <= view < len(record.players):
        raise PlayError(no_such_view(view, len(record.players)))
    if record.viewpoint is not None:
        if view is not None and view != record.viewpoint:
            raise PlayError(redacted_view(record.viewpoint, view))
        view = record.viewpoint
    rules_deck = _deck_of(record)
    screen = screen or make_screen(plain_text, rules_deck)
    viewer = ReplayViewer(screen, record, view, replay_title(Path(path).name))
    keys = screen.fancy and sys.stdin.isatty() and screen.is_tty
    return viewer.run(keys)


def _deck_of(record: GameRecord) -> DeckStyle:
    return find_rules(record.rules).deck_style


def run_replay_step(args: argparse.Namespace) -> int:
    """The ``--step`` / ``--view`` handler of ``conquian replay`` (see :mod:`conquian.play.cli`)."""
    view = getattr(args, "view", None)
    return step_replay(args.file, view=view, plain_text=bool(getattr(args, "plain", False)))
