"""The ``conquian`` command line, run as real subprocesses."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conquian import Game
from conquian.cards import CARDS
from conquian.notation import format_position, parse_position
from conquian.records import GameRecord
from conquian.rules import FLAG_NAMES, find_rules

POSITION = "standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1"
SUBCOMMANDS = [
    "play",
    "rules",
    "legal",
    "replay",
    "selfplay",
    "bench",
    "arena",
    "arena-combine",
    "serve",
    "bot",
]


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def console_script() -> list[str]:
    """The installed ``conquian`` script next to the interpreter (``-m`` if there is none)."""
    for name in ("conquian", "conquian.exe"):
        script = Path(sys.executable).with_name(name)
        if script.exists():
            return [str(script)]
    return [sys.executable, "-m", "conquian.cli"]


def error_of(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("conquian: error: ")
    assert "Traceback" not in result.stderr
    return result.stderr


# --------------------------------------------------------------------------- help


def test_help_from_console_script() -> None:
    result = subprocess.run(
        [*console_script(), "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: conquian")
    for sub in SUBCOMMANDS:
        assert sub in result.stdout


def test_help_and_no_arguments() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    assert "usage: conquian" in result.stdout
    for sub in SUBCOMMANDS:
        assert sub in result.stdout
    bare = run_cli()
    assert bare.returncode == 0
    assert "usage: conquian" in bare.stdout


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip().startswith("conquian ")


@pytest.mark.parametrize(
    ("sub", "options"),
    [
        ("rules", ["preset", "--json"]),
        ("legal", ["position", "--json"]),
        ("replay", ["file", "--json", "--positions", "--redact"]),
        ("selfplay", ["--games", "--seed", "--rules", "--out", "--ray", "--jobs", "--json"]),
        ("bench", ["--seconds", "--rules", "--no-anchors", "--json", "--env"]),
    ],
)
def test_subcommand_help(sub: str, options: list[str]) -> None:
    result = run_cli(sub, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: conquian {sub}")
    for option in options:
        assert option in result.stdout


def test_unknown_subcommand() -> None:
    result = run_cli("dance")
    assert result.returncode == 2
    assert "dance" in result.stderr


# --------------------------------------------------------------------------- rules


def test_rules_plain_words() -> None:
    result = run_cli("rules")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Conquian for two players (standard rules).")
    assert "ace low, 7 next to J, no wrap-around" in out
    assert "runs of 3 to 8 cards" in out
    assert "Flags:" in out
    flags = out[out.index("Flags:") :]
    rules = find_rules("standard")
    for name in FLAG_NAMES:
        value = getattr(rules, name)
        text = value.value if hasattr(value, "value") else str(value)
        assert any(line.split() == [name, text] for line in flags.splitlines()), name
    assert "Presets:" in out and "foster" in out


@pytest.mark.parametrize("preset", ["bicycle", "foster", "wikipedia"])
def test_rules_each_preset(preset: str) -> None:
    result = run_cli("rules", preset)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Conquian for two players ({preset} rules).")
    assert "Flags:" in result.stdout


def test_rules_spec_with_flag() -> None:
    result = run_cli("rules", "standard,max_seq_len=10")
    assert result.returncode == 0, result.stderr
    assert "runs of 3 to 10 cards" in result.stdout
    assert any(line.split() == ["max_seq_len", "10"] for line in result.stdout.splitlines())


def test_rules_json() -> None:
    result = run_cli("rules", "foster", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["spec"] == "foster"
    assert data["flags"] == find_rules("foster").to_dict()
    assert set(data["flags"]) == set(FLAG_NAMES)


def test_rules_unknown_preset() -> None:
    err = error_of(run_cli("rules", "standart"))
    assert "standart" in err
    assert "standard" in err  # the presets are listed


def test_rules_unknown_flag_and_bad_value() -> None:
    err = error_of(run_cli("rules", "standard,colour=blue"))
    assert "colour" in err
    err = error_of(run_cli("rules", "standard,max_seq_len=11"))
    assert "max_seq_len" in err and "11" in err


# --------------------------------------------------------------------------- legal


def test_legal_text() -> None:
    result = run_cli("legal", POSITION)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Player 0" in lines[0] and "offer" in lines[0]
    assert [line.strip() for line in lines[1:]] == ["take 3s4s5s6s", "decline"]


def test_legal_json() -> None:
    result = run_cli("legal", POSITION, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)  # exactly one JSON document
    assert isinstance(data, dict)
    assert data["legal_actions"] == ["take 3s4s5s6s", "decline"]
    assert data["phase"] == "offer" and data["player"] == 0
    assert data["position"] == format_position(parse_position(POSITION))
    assert parse_position(data["position"]).legal_actions() == (
        parse_position(POSITION).legal_actions()
    )


def test_legal_over_position() -> None:
    won = "standard over 0 1 - * AsAhAdAc/2s2h2d2c/3s3h3d - - - * 2"
    result = run_cli("legal", won, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["legal_actions"] == [] and data["phase"] == "over" and data["player"] is None
    text = run_cli("legal", won)
    assert text.returncode == 0
    assert "over" in text.stdout and "player 0 wins" in text.stdout


@pytest.mark.parametrize(
    ("position", "clue"),
    [
        ("standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - 1", "12 fields"),
        ("standard offer 0 1 KhKd2c7hJdQcXz * 3s4s5s - 6s:d - * 1", "Xz"),
        ("standard offer 0 1 KhKd2c7hJdQc3s * 3s4s5s - 6s:d - * 1", "3s"),
        ("standard dance 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1", "dance"),
        ("standart offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1", "standart"),
        ("standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - - 1", "missing"),
        ("standard offer 0 1 KhKd2c7hJdQcAh * 3s4s6s - 5s:d - * 1", "not a meld"),
        ("standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:x - * 1", "x"),
        ("standard offer 2 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1", "player"),
        ("standard offer 0 1 KhKd2c7hJdQcAhAd * 3s4s5s - 6s:d - * 1", "Player 0"),
    ],
)
def test_legal_bad_position(position: str, clue: str) -> None:
    for extra in ([], ["--json"]):
        err = error_of(run_cli("legal", position, *extra))
        assert clue in err, err


# --------------------------------------------------------------------------- selfplay and replay


@pytest.fixture(scope="module")
def selfplay_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("selfplay") / "records"
    result = run_cli("selfplay", "--games", "5", "--seed", "3", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "5 random games" in result.stdout
    return out


def record_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.toml"))


def test_selfplay_writes_records(selfplay_dir: Path) -> None:
    files = record_files(selfplay_dir)
    assert [f.name for f in files] == [f"game-{n:05d}.toml" for n in range(1, 6)]
    for path in files:
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        final = record.final_state()
        assert final.is_over
        assert record.result != "*"


def test_selfplay_games_depend_on_the_seed_and_their_number_only(
    selfplay_dir: Path, tmp_path: Path
) -> None:
    """The first five games of a longer run are the five of a run of five (so the games
    can be played in any order, or as Ray tasks, and be the same)."""
    longer = tmp_path / "longer"
    result = run_cli("selfplay", "--games", "8", "--seed", "3", "--out", str(longer))
    assert result.returncode == 0, result.stderr
    assert len(record_files(longer)) == 8
    for path in record_files(selfplay_dir):
        assert (longer / path.name).read_bytes() == path.read_bytes(), path.name
    other = tmp_path / "other"
    assert run_cli("selfplay", "--games", "1", "--seed", "4", "--out", str(other)).returncode == 0
    first = record_files(selfplay_dir)[0]
    assert (other / first.name).read_bytes() != first.read_bytes()


def test_replay_accepts_selfplay_records(selfplay_dir: Path) -> None:
    for path in record_files(selfplay_dir):
        result = run_cli("replay", str(path), "--json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["valid"] is True
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        assert data["actions"] == len(record.actions)
        assert data["result"] == record.result
        assert data["final_position"] == format_position(record.final_state())


def test_replay_text_and_positions(selfplay_dir: Path) -> None:
    path = record_files(selfplay_dir)[0]
    record = GameRecord.loads(path.read_text(encoding="utf-8"))
    result = run_cli("replay", str(path), "--positions")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Rules: standard")
    assert lines[-1] == f"Result: {record.result}"
    numbered = [line for line in lines if line[:5].strip().rstrip(".").isdigit()]
    assert len(numbered) == len(record.actions)
    for number, line in enumerate(numbered, start=1):
        assert line.split()[1:3] == record.actions[number - 1].split()[:2]
    positions = [line.strip() for line in lines if line.startswith("      ")]
    states = record.replay()[1:]
    assert positions == [format_position(s) for s in states]
    assert all(format_position(parse_position(p)) == p for p in positions)


def test_selfplay_is_deterministic_and_json(tmp_path: Path, selfplay_dir: Path) -> None:
    out = tmp_path / "again"
    result = run_cli("selfplay", "--games", "5", "--seed", "3", "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 5
    assert sum(data["wins"]) + data["draws"] == 5
    assert data["mean_decisions"] > 0
    for a, b in zip(record_files(selfplay_dir), record_files(out), strict=True):
        assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8")


def test_selfplay_other_rules(tmp_path: Path) -> None:
    result = run_cli(
        "selfplay", "--games", "2", "--seed", "1", "--rules", "foster", "--out", str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    for path in record_files(tmp_path):
        check = run_cli("replay", str(path), "--json")
        assert check.returncode == 0, check.stderr
        assert json.loads(check.stdout)["rules"] == "foster"


def replace_action(text: str, number: int, new: str) -> str:
    """Replace the ``number``-th (1-based) action line of a record's text."""
    lines = text.splitlines()
    start = lines.index("actions = [")
    assert lines[start + number].startswith('  "')
    lines[start + number] = f'  "{new}",'
    return "\n".join(lines) + "\n"


def tampered_copy(selfplay_dir: Path, tmp_path: Path) -> tuple[Path, str]:
    source = record_files(selfplay_dir)[1]
    record = GameRecord.loads(source.read_text(encoding="utf-8"))
    before = record.replay()[4]
    player = before.to_act
    card = next(i for i in range(40) if not before.hands[player] >> i & 1)
    bad = f"p{player} discard {CARDS[card]}"
    text = replace_action(source.read_text(encoding="utf-8"), 5, bad)
    path = tmp_path / "tampered.toml"
    path.write_text(text, encoding="utf-8")
    return path, str(CARDS[card])


def test_replay_tampered_record(selfplay_dir: Path, tmp_path: Path) -> None:
    path, card = tampered_copy(selfplay_dir, tmp_path)
    for extra in ([], ["--json"], ["--redact", "0"]):
        err = error_of(run_cli("replay", str(path), *extra))
        assert "Action 5" in err
        assert card in err
        assert "hand" in err or "not possible" in err  # why it is illegal


def test_replay_wrong_player_prefix(selfplay_dir: Path, tmp_path: Path) -> None:
    source = record_files(selfplay_dir)[2]
    text = source.read_text(encoding="utf-8")
    record = GameRecord.loads(text)
    line = record.actions[2]
    flipped = ("p1" if line.startswith("p0") else "p0") + line[2:]
    path = tmp_path / "flipped.toml"
    path.write_text(replace_action(text, 3, flipped), encoding="utf-8")
    err = error_of(run_cli("replay", str(path)))
    assert "Action 3" in err and "turn" in err


def test_replay_redact(selfplay_dir: Path, tmp_path: Path) -> None:
    source = record_files(selfplay_dir)[0]
    full = GameRecord.loads(source.read_text(encoding="utf-8"))
    final = full.final_state()
    for player in (0, 1):
        result = run_cli("replay", str(source), "--redact", str(player))
        assert result.returncode == 0, result.stderr
        text = result.stdout
        assert f"viewpoint = {player}" in text
        deck = next(line for line in text.splitlines() if line.startswith("deck = "))
        never_seen = final.hands[1 - player].bit_count() + final.stock_count
        assert deck.count("??") >= never_seen
        assert "seed" not in text
        redacted = GameRecord.loads(text)
        assert redacted == full.for_player(player)
        assert redacted.actions == full.actions
        path = tmp_path / f"redacted{player}.toml"
        path.write_text(text, encoding="utf-8")
        check = run_cli("replay", str(path), "--json")
        assert check.returncode == 0, check.stderr
        assert json.loads(check.stdout)["result"] == full.result
        shown = run_cli("replay", str(path))
        assert f"Redacted record: the view of p{player}" in shown.stdout


def test_replay_of_a_four_player_record_names_everyone_and_redacts_each_seat(
    tmp_path: Path,
) -> None:
    """Issue 39's outside check: every player's name in replay's output, --redact any seat."""
    game = Game("mexican,num_players=4", seed=5, players=("Ana", "Ben", "Cy", "Dora"))
    rng = random.Random(5)
    while not game.state.is_over:
        game.push(rng.choice(game.legal_actions()))
    path = tmp_path / "four.toml"
    path.write_text(GameRecord.from_game(game).dumps(), encoding="utf-8")
    shown = run_cli("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "Players: p0 Ana, p1 Ben, p2 Cy, p3 Dora" in shown.stdout
    for seat in range(4):
        redacted = run_cli("replay", str(path), "--redact", str(seat))
        assert redacted.returncode == 0, redacted.stderr
        assert f"viewpoint = {seat}" in redacted.stdout


def test_replay_bad_files(tmp_path: Path) -> None:
    err = error_of(run_cli("replay", str(tmp_path / "nope.toml")))
    assert "nope.toml" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("format = \n", encoding="utf-8")
    assert "TOML" in error_of(run_cli("replay", str(bad)))
    bad.write_text('format = "conquian-record/1"\nrules = "standard"\n', encoding="utf-8")
    assert "'deck'" in error_of(run_cli("replay", str(bad)))
    redact = run_cli("replay", str(bad), "--redact", "4")  # no record has a seat 4
    assert redact.returncode == 2 and "--redact" in redact.stderr


def test_bad_counts_name_the_option() -> None:
    result = run_cli("selfplay", "--games", "-1")
    assert result.returncode == 2
    assert "--games must be at least 0, got -1" in result.stderr
    result = run_cli("bench", "--seconds", "0")
    assert result.returncode == 2
    assert "--seconds must be positive, got 0.0" in result.stderr


# --------------------------------------------------------------------------- bench


def test_bench_json() -> None:
    result = run_cli("bench", "--seconds", "0.5", "--json", "--no-anchors")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("games_per_s", "decisions_per_s", "copy_us", "redeal_us"):
        assert key in data, key
        assert isinstance(data[key], int | float) and data[key] > 0
    assert data["decisions_per_s"] > data["games_per_s"]
    assert data["rules"] == "standard"
    assert data["build"] == bench_build()
    assert not any(key.startswith(("openspiel", "rlcard")) for key in data)


def test_bench_env_json() -> None:
    result = run_cli("bench", "--env", "--seconds", "0.3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("env_steps_per_s", "raw_decisions_per_s", "env_decisions_per_s", "ratio"):
        assert isinstance(data[key], int | float) and data[key] > 0, key
    assert data["env_steps_per_s"] > data["env_decisions_per_s"]
    assert data["ratio"] == pytest.approx(data["raw_decisions_per_s"] / data["env_decisions_per_s"])
    assert data["ratio_per_step"] == pytest.approx(
        data["raw_decisions_per_s"] / data["env_steps_per_s"]
    )
    assert data["ratio_per_step"] < data["ratio"]
    assert data["build"] == bench_build()


def bench_build() -> str:
    """The build that ``conquian bench`` should report: the one these tests import."""
    import conquian.state

    return "compiled" if conquian.state.__file__.endswith(".so") else "pure"
