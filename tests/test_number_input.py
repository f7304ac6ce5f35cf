"""Numbers typed on the command line and at prompts (finding L7 of the 2026-12-06 audit):
digits that ``str.isdigit`` takes and ``int`` refuses (``²``, ``➋``), digits of other
scripts (``٣``, full-width ``1``), numbers of thousands of digits, and seats the record does not have
are refused with a clear message, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conquian import Game, GameRecord
from conquian.match import Match

HUGE = "7" * 5000
PLAY_ARGS = ("--level", "easy", "--plain", "--seed", "1")
ODD_DIGITS = ["²", "➋", "٣", "\uff11"]
POSITION = (
    "standard discard {player} {dealer} 3s5hQh6d7dJdQdAc3c6c 6sJsKs2h6hAd2d4c - JcQcKc - - "
    "4hKd5sJhAh7h2s2c5c3h5d4s7c3dKhQsAs4d7s 1"
)


def run_cli(
    *args: str, typed: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-2000:]


def record_file(tmp_path: Path, rules: str) -> Path:
    game = Match(
        rules, seed=5, players=tuple(f"p{p}" for p in range(Match(rules).rules.num_players))
    ).new_game()
    for _ in range(12):
        game.push(game.legal_actions()[-1])
    path = tmp_path / f"{rules}.toml"
    path.write_text(GameRecord.from_game(game).dumps(), encoding="utf-8")
    return path


@pytest.fixture
def two_players(tmp_path: Path) -> Path:
    return record_file(tmp_path, "standard")


def test_view_of_a_seat_the_record_does_not_have_is_refused(two_players: Path) -> None:
    for view in ("2", "3"):
        result = run_cli("replay", "--step", "--plain", "--view", view, str(two_players))
        no_traceback(result)
        assert result.returncode == 1
        assert f"This record has no player p{view}: its players are p0 to p1." in result.stderr


def test_redact_takes_any_seat_of_the_record(tmp_path: Path, two_players: Path) -> None:
    three = record_file(tmp_path, "mexican")
    result = run_cli("replay", "--redact", "2", str(three))
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    redacted = GameRecord.loads(result.stdout)
    assert redacted.viewpoint == 2 and redacted.seed is None
    result = run_cli("replay", "--redact", "2", str(two_players))
    no_traceback(result)
    assert result.returncode == 1
    assert "The record has no player p2: its players are p0 to p1." in result.stderr
    result = run_cli("replay", "--redact", "-1", str(two_players))
    no_traceback(result)
    assert result.returncode == 2 and "--redact" in result.stderr


def test_a_record_refuses_to_redact_for_a_seat_it_does_not_have() -> None:
    game = Game(seed=1)
    game.push(game.legal_actions()[0])
    record = GameRecord.from_game(game)
    for seat in (-1, 2):
        with pytest.raises(Exception, match=f"no player p{seat}"):
            record.for_player(seat)


def test_odd_numbers_at_the_replay_prompt_are_refused(two_players: Path) -> None:
    typed = "\n".join([*ODD_DIGITS, HUGE, "99999999999", "3", "q"]) + "\n"
    result = run_cli("replay", "--step", "--plain", str(two_players), typed=typed)
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    # the huge numbers are moves the record does not have; the odd digits are no command
    assert result.stdout.count("There are moves 0 to 12.") == 2
    assert result.stdout.count("Keys: n next, p back, q quit.") == len(ODD_DIGITS)
    assert "Move 3:" in result.stdout  # and a move number still jumps


@pytest.mark.parametrize("field", ["player", "dealer"])
@pytest.mark.parametrize("typed", [*ODD_DIGITS, HUGE, "00"])
def test_odd_numbers_in_a_position_are_refused(field: str, typed: str) -> None:
    seats = {"player": "0", "dealer": "0", field: typed}
    result = run_cli("legal", "--", POSITION.format(**seats))
    no_traceback(result)
    assert result.returncode == 1
    assert f"The {field} field must be 0 or 1" in result.stderr
    assert len(result.stderr) < 400


def test_odd_numbers_at_the_numbered_choice_of_play_are_refused(tmp_path: Path) -> None:
    # these moves of the seed-1 game reach a take that can be made in two ways
    typed = "\n".join(["take", "pass", "take", "pass", "take", *ODD_DIGITS, HUGE, "q"]) + "\n"
    result = subprocess.run(
        [sys.executable, "-m", "conquian.play", *PLAY_ARGS, "--save-dir", str(tmp_path)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
    )
    no_traceback(result)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "choose 1-2 (Enter: back)> " in result.stdout
    assert result.stdout.count("Type a number from 1 to 2, or press Enter to go back.") == (
        len(ODD_DIGITS) + 1
    )


def test_odd_numbers_at_the_level_menu_are_refused() -> None:
    from conquian.play.session import read_level

    for typed in [*ODD_DIGITS, HUGE]:
        assert read_level(typed, ["easy", "hard"], "hard") is None
    assert read_level("2", ["easy", "hard"], "easy") == "hard"


def test_review_of_a_player_given_as_a_huge_number_is_refused(two_players: Path) -> None:
    result = run_cli("review", "--player", "p" + HUGE, str(two_players))
    no_traceback(result)
    assert result.returncode == 1
    assert "The record has no player" in result.stderr
