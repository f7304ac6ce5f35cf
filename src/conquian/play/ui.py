"""Screens: plain text (standard library only) or Rich (colour, suit symbols, boxes).

Both print :class:`~conquian.present.spans.Span` lines and read lines of input, so the
game runs the same way on either; Rich is used when it is installed, the terminal
takes it, and ``--plain`` is not given.
"""

from __future__ import annotations

import contextlib
import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

from ..cards import DeckStyle
from ..present.letters import card_letters
from ..present.spans import CardLook, Line, Span, plain

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["PlainScreen", "RichScreen", "Screen", "make_screen", "rich_available"]

CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""Home, clear the screen, clear the scroll-back (xterm and most terminals)."""

SYMBOLS = "\u2660\u2665\u2666\u2663\u2502\u2014\u00b7\u256d\u2500"


def _encodes(encoding: str | None, text: str) -> bool:
    if not encoding:
        return False
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _printable(text: str, encoding: str | None) -> str:
    """``text`` with what the output cannot encode replaced by ``?``."""
    if not encoding or text.isascii():
        return text
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return text.encode(encoding, "replace").decode(encoding, "replace")
    return text


class Screen(ABC):
    """Where the game is shown and typed."""

    look: CardLook
    fancy: bool = False
    """True for the Rich screen."""

    @property
    @abstractmethod
    def is_tty(self) -> bool:
        """Whether output goes to a terminal."""

    @abstractmethod
    def say(self, *lines: Line | str) -> None:
        """Print lines."""

    @abstractmethod
    def board(self, title: Line, lines: Sequence[Line]) -> None:
        """Print the table in a frame."""

    @abstractmethod
    def ask(self, prompt: Line | str) -> str:
        """Read one line (raises EOFError at end of input, KeyboardInterrupt on Ctrl-C)."""

    @abstractmethod
    def write_raw(self, text: str) -> None:
        """Write control text (such as :data:`CLEAR`) straight to the terminal."""

    def new_screen(self) -> None:
        """Start a fresh view of the table (Rich clears the terminal; plain scrolls)."""
        self.say("")

    def clear(self) -> None:
        """Wipe the screen and its scroll-back, so nothing shown before can be read."""
        if self.is_tty:
            self.write_raw(CLEAR)
        else:
            self.write_raw("\n" * 60)

    def error(self, text: str) -> None:
        self.say([Span("\u2717 " if self.look.symbols else "! ", "bold red"), Span(text, "red")])

    @contextlib.contextmanager
    def thinking(self, text: str) -> Iterator[None]:
        """Shown while a bot thinks."""
        yield

    @contextlib.contextmanager
    def busy(self, text: str) -> Iterator[None]:
        """Shown during a long wait the person asked for (a line of ``text``; Rich shows it
        as a spinner while the wait lasts)."""
        self.say(text)
        yield


class PlainScreen(Screen):
    """Plain text on any terminal, without colour; cards as typed (``Kh``)."""

    def __init__(
        self,
        deck: DeckStyle = DeckStyle.FRENCH,
        out: TextIO | None = None,
        inp: TextIO | None = None,
    ) -> None:
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.look = CardLook(deck, symbols=False, letters=card_letters())

    @property
    def is_tty(self) -> bool:
        return self.out.isatty()

    def say(self, *lines: Line | str) -> None:
        encoding = getattr(self.out, "encoding", None)
        for line in lines:
            text = line if isinstance(line, str) else plain(line)
            self.out.write(_printable(text, encoding) + "\n")
        self.out.flush()

    def board(self, title: Line, lines: Sequence[Line]) -> None:
        rule = "-" * 72
        head = f"--- {plain(title)} "
        self.say(head + rule[len(head) :], *lines, rule)

    def ask(self, prompt: Line | str) -> str:
        text = prompt if isinstance(prompt, str) else plain(prompt)
        if self.inp is sys.stdin:
            self.out.flush()
            return input(text)
        self.out.write(text)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    def write_raw(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()


class RichScreen(Screen):
    """Colour, suit symbols and a framed table, through Rich."""

    fancy = True

    def __init__(self, deck: DeckStyle = DeckStyle.FRENCH, console: Console | None = None) -> None:
        from rich.console import Console

        self.console = console or Console(highlight=False)
        symbols = _encodes(self.console.encoding, SYMBOLS) and not self.console.legacy_windows
        self.look = CardLook(deck, symbols=symbols, letters=card_letters())

    @property
    def is_tty(self) -> bool:
        return self.console.is_terminal

    def _text(self, line: Line | str) -> Text:
        from rich.text import Text

        encoding = self.console.encoding
        if isinstance(line, str):
            return Text(_printable(line, encoding))
        text = Text()
        for span in line:
            text.append(_printable(span.text, encoding), span.style or None)
        return text

    def say(self, *lines: Line | str) -> None:
        for line in lines:
            self.console.print(self._text(line))

    def board(self, title: Line, lines: Sequence[Line]) -> None:
        from rich import box
        from rich.console import Group
        from rich.panel import Panel

        frame = box.ROUNDED if self.look.symbols else box.ASCII
        panel = Panel(
            Group(*[self._text(line) for line in lines]),
            title=self._text(title),
            title_align="left",
            box=frame,
            border_style="green",
            width=min(self.console.width, 84),
            padding=(0, 1),
        )
        self.console.print(panel)

    def ask(self, prompt: Line | str) -> str:
        return self.console.input(self._text(prompt))

    def write_raw(self, text: str) -> None:
        self.console.file.write(text)
        self.console.file.flush()

    def new_screen(self) -> None:
        if self.is_tty:
            self.write_raw(CLEAR)
        else:
            self.say("")

    @contextlib.contextmanager
    def thinking(self, text: str) -> Iterator[None]:
        if not self.is_tty:
            yield
            return
        with self.console.status(text):
            yield

    @contextlib.contextmanager
    def busy(self, text: str) -> Iterator[None]:
        if not self.is_tty:
            self.say(text)
            yield
            return
        with self.console.status(text):
            yield


def rich_available() -> bool:
    """Whether Rich can be imported."""
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def make_screen(plain_text: bool = False, deck: DeckStyle = DeckStyle.FRENCH) -> Screen:
    """The best screen for this terminal: Rich unless asked for plain text or not installed.

    ``TERM=dumb`` also gives plain text.
    """
    if plain_text or os.environ.get("TERM") == "dumb" or not rich_available():
        return PlainScreen(deck)
    return RichScreen(deck)
