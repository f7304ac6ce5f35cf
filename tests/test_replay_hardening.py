"""``conquian replay FILE`` on records with hostile numbers and nesting: exit status 1 and
one line naming what is wrong, never a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conquian import Game, GameRecord

HUGE = "9" * 5000


def record_text() -> str:
    game = Game(seed=8, players=("ana", "ben"))
    for _ in range(4):
        game.push(game.legal_actions()[-1])
    return GameRecord.from_game(game).dumps()


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


CASES = {
    "huge_stake": (("stake", HUGE), "more than 4300 digits"),
    "huge_seed": (("seed", HUGE), "more than 4300 digits"),
    "huge_dealer": (("dealer", HUGE), "more than 4300 digits"),
    "far_seed": (("seed", "9" * 4000), "'seed'"),
    "far_stake": (("stake", "9" * 4000), "'stake'"),
    "deep_actions": (("actions", "[" * 200000), "nests too deeply"),
    "deep_players": (("players", "[" * 3000), "nests too deeply"),
    "deep_table": (("result", "{a = " * 3000 + "1" + "}" * 3000), "nests too deeply"),
}


@pytest.mark.parametrize("kind", sorted(CASES))
@pytest.mark.parametrize("extra", [[], ["--json"], ["--redact", "0"]])
def test_replay_names_what_is_wrong(tmp_path: Path, kind: str, extra: list[str]) -> None:
    (key, value), message = CASES[kind]
    text, count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", record_text())
    assert count == 1
    path = tmp_path / f"{kind}.toml"
    path.write_text(text, encoding="utf-8")
    result = run_cli("replay", str(path), *extra)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("conquian: error: ")
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1 and len(result.stderr) < 400


def test_replay_still_reads_a_good_record(tmp_path: Path) -> None:
    path = tmp_path / "good.toml"
    path.write_text(record_text(), encoding="utf-8")
    result = run_cli("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
