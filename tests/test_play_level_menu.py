"""The level menu of ``conquian play``: shown to a person at a terminal who gave no level.

The menu is driven in a real pseudo-terminal, as a person would use it; with input from a
pipe, or with ``--level``, it is not shown.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from conquian.bots import LEVEL_RATINGS, LEVELS
from conquian.play.session import read_level
from conquian.play.terminal_words import level_menu
from conquian.present.i18n import speaking
from conquian.present.spans import plain

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "conquian.cli"]


class Terminal:
    """A ``conquian`` command in a pseudo-terminal: what it wrote, and keys typed to it."""

    def __init__(self, *args: str, home: Path) -> None:
        master, slave = pty.openpty()
        env = {
            **os.environ,
            "TERM": "dumb",
            "COLUMNS": "100",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
        env.pop("LANGUAGE", None)
        self.process = subprocess.Popen(
            [*CLI, *args, "--save-dir", str(home)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env=env,
        )
        os.close(slave)
        self.master = master
        self.output = ""

    def read_until(self, text: str, limit: float = 60.0) -> str:
        """Read until ``text`` has been written (or the command ends); everything so far."""
        deadline = time.monotonic() + limit
        while text not in self.output:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never came; the terminal shows:\n{self.output}"
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the command ended and the terminal closed
                data = b""
            if not data:
                raise AssertionError(f"ended before {text!r}; the terminal shows:\n{self.output}")
            self.output += data.decode(errors="replace").replace("\r\n", "\n")
        return self.output

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def close(self) -> int:
        code = self.process.wait(timeout=60)
        os.close(self.master)
        return code


def test_read_level_takes_numbers_names_and_enter() -> None:
    levels = list(LEVELS)
    assert read_level("", levels, "hard") == "hard"
    assert read_level("  1 ", levels, "hard") == "beginner"
    assert read_level("5", levels, "hard") == "expert"
    assert read_level("Medium", levels, "hard") == "medium"
    for typed in ("0", "6", "-1", "²", "hardest", "1 2"):
        assert read_level(typed, levels, "hard") is None, typed
    with speaking("es"):
        assert read_level("difícil", levels, "expert") == "hard"
        assert read_level("hard", levels, "expert") == "hard"  # English always works


def test_the_menu_lists_every_level_with_its_rating_and_marks_the_default() -> None:
    lines = [plain(line) for line in level_menu(list(LEVELS), LEVEL_RATINGS, "hard")]
    rows = lines[1 : 1 + len(LEVELS)]
    for number, (row, level) in enumerate(zip(rows, LEVELS, strict=True), 1):
        assert row.split()[:3] == [str(number), level, str(LEVEL_RATINGS[level])]
    assert [row.endswith("(Enter)") for row in rows] == [lv == "hard" for lv in LEVELS]
    assert "1000 is a typical Conquian program" in lines[-1]
    # three or four players: the two-player ratings are left out
    unrated = [plain(line) for line in level_menu(list(LEVELS), None, "hard")]
    assert len(unrated) == 1 + len(LEVELS)
    assert not any(str(rating) in line for line in unrated for rating in LEVEL_RATINGS.values())


def test_a_person_at_a_terminal_chooses_the_level(tmp_path: Path) -> None:
    term = Terminal("play", "--plain", "--seed", "7", home=tmp_path)
    shown = term.read_until("Enter: ")
    assert "Choose your opponent:" in shown
    for level, rating in LEVEL_RATINGS.items():
        assert level in shown and str(rating) in shown
    term.type("9")
    assert "'9' is not one of the levels" in term.read_until("is not one of the levels")
    term.type("easy")
    shown = term.read_until("Your opponent:")
    term.read_until("> ")
    assert f"the easy bot, rated {LEVEL_RATINGS['easy']}" in shown and "--level easy" in shown
    term.type("quit")
    assert term.close() == 0
    saved = json.loads((tmp_path / "saved-game.json").read_text())
    assert saved["opponent"] == "easy"


def test_enter_takes_the_level_picked_for_this_machine(tmp_path: Path) -> None:
    term = Terminal("play", "--plain", "--seed", "7", home=tmp_path)
    prompt_line = term.read_until("Enter: ").rsplit("\n", 1)[-1]
    default = prompt_line.split("Enter: ", 1)[1].split(")", 1)[0]
    assert default in ("expert", "hard")
    term.read_until("> ")
    term.type("")
    assert f"the {default} bot" in term.read_until("Your opponent:") + term.read_until("> ")
    term.type("quit")
    assert term.close() == 0
    assert json.loads((tmp_path / "saved-game.json").read_text())["opponent"] == default


def test_quit_at_the_menu_starts_no_game(tmp_path: Path) -> None:
    term = Terminal("play", "--plain", home=tmp_path)
    term.read_until("> ")
    term.type("quit")
    assert term.close() == 0
    assert not (tmp_path / "saved-game.json").exists()


def test_the_menu_is_not_shown_with_a_level_or_piped_input(tmp_path: Path) -> None:
    term = Terminal("play", "--plain", "--level", "medium", home=tmp_path / "a")
    shown = term.read_until("> ")
    assert "Choose your opponent" not in shown and "the medium bot" not in shown
    term.type("quit")
    assert term.close() == 0
    piped = subprocess.run(
        [*CLI, "play", "--plain", "--save-dir", str(tmp_path / "b")],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
    )
    assert piped.returncode == 0, piped.stderr
    assert "Choose your opponent" not in piped.stdout
    assert "it answered in" in piped.stdout  # the level picked for this machine, as before
