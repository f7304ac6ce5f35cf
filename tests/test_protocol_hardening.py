"""The bot protocol against hostile lines, through real subprocesses.

Host side (``conquian arena``, :class:`ExternalBot`): a bot that sends a line the host
cannot read (a huge integer, deep nesting, a line over the length limit) forfeits the
deal with a message naming the fault, and the match goes on.

Bot side (``conquian bot NAME``): a host line that cannot be read or used is answered
with an ``error`` message naming what is wrong, and the bot goes on serving.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conquian.bots import make_bot
from conquian.bots.protocol import MAX_LINE, BotFailure, ExternalBot, act_message
from conquian.bots.simple import GreedyBot, RandomBot
from conquian.errors import ConquianError
from conquian.game import Game
from conquian.tools.arena import run_match

ROOT = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
HUGE = "9" * 5000

# A bot that answers hello properly, then answers every act with the line BAD(legal).
ADVERSARY = """
import json, sys
def send(text):
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send(HELLO)
    elif kind == "quit":
        break
    elif kind == "act":
        send(BAD(message["legal_actions"]))
"""

GOOD_HELLO = json.dumps({"type": "hello", "protocol": 1, "name": "adversary"})

BAD_REPLIES = {
    # an extra field holding an integer of 5,000 digits (json.loads raises ValueError)
    "huge_int": (
        'lambda legal: \'{"type": "action", "action": "%s", "n": %s}\' % (legal[0], "9" * 5000)',
        "a number of more than 4300 digits",
    ),
    # 200,000 nested arrays (json.loads raises RecursionError)
    "deep_array": ("lambda legal: '[' * 200000", "nests too deeply"),
    # an object whose field nests too deeply
    "deep_field": (
        'lambda legal: \'{"type": "action", "action": "decline", "x": \' + "[" * 200000',
        "nests too deeply",
    ),
    # a line of 2 MiB
    "long_line": (
        'lambda legal: \'{"type": "action", "action": "%s", "pad": "%s"}\' '
        '% (legal[0], "x" * (2 << 20))',
        "longer than",
    ),
}


def write_adversary(directory: Path, kind: str, *, hello: str = GOOD_HELLO) -> str:
    """Write the adversary script for ``kind``; return its command line."""
    bad, _ = BAD_REPLIES[kind]
    path = directory / f"{kind}.py"
    path.write_text(f"HELLO = {hello!r}\nBAD = {bad}\n{ADVERSARY}", encoding="utf-8")
    return f"{PYTHON} {shlex.quote(str(path))}"


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )


# ------------------------------------------------------------------- host side


@pytest.mark.parametrize("kind", sorted(BAD_REPLIES))
def test_an_unreadable_reply_forfeits_the_deal_and_the_match_goes_on(
    tmp_path: Path, kind: str
) -> None:
    _, message = BAD_REPLIES[kind]
    command = write_adversary(tmp_path, kind)
    result = run_match(f"cmd:{command}", "greedy", 2, seed=5, time_limit_ms=5000)
    assert result.deals == 2 and len(result.games) == 4 and not result.interrupted
    assert result.losses == 4 and result.wins == 0
    assert len(result.failures) == 4 and result.bot_a.failures == 4
    for game in result.failures:
        assert game.failed == "a" and game.termination == "forfeit"
        assert game.failure is not None
        assert game.failure.startswith("external bot 'adversary' sent garbage")
        assert message in game.failure
        assert len(game.failure) < 400  # the line is quoted shortened, not whole


@pytest.mark.parametrize("kind", ["huge_int", "deep_array"])
def test_the_arena_command_survives_an_unreadable_reply(tmp_path: Path, kind: str) -> None:
    _, message = BAD_REPLIES[kind]
    command = write_adversary(tmp_path, kind)
    records = tmp_path / "records"
    result = run_cli(
        "arena",
        f"cmd:{command}",
        "greedy",
        "--deals",
        "2",
        "--seed",
        "3",
        "--json",
        "--records",
        str(records),
    )
    stderr = result.stderr.decode()
    assert result.returncode == 0, stderr
    assert "Traceback" not in stderr
    data = json.loads(result.stdout)
    assert data["games"] == 4 and data["deals"] == 2
    assert len(data["failures"]) == 4
    for failure in data["failures"]:
        assert failure["bot"] == "a" and message in failure["message"]
    # the forfeited games' records still replay
    for path in sorted(records.iterdir()):
        check = run_cli("replay", str(path), "--json")
        assert check.returncode == 0, check.stderr.decode()


@pytest.mark.parametrize(
    ("hello", "message"),
    [
        ('{"type": "hello", "protocol": 1, "name": "x", "n": ' + HUGE + "}", "4300 digits"),
        ("[" * 200000, "nests too deeply"),
        ('{"type": "hello", "protocol": true, "name": "x"}', "speaks protocol true"),
        ('{"type": "hello", "protocol": 1, "name": [[["x"]]]}', "no 'name'"),
        ('{"type": ["hello"], "protocol": 1, "name": "x"}', "no 'type' string"),
    ],
)
def test_an_unreadable_hello_is_a_bot_failure(tmp_path: Path, hello: str, message: str) -> None:
    command = write_adversary(tmp_path, "huge_int", hello=hello)
    bot = ExternalBot(command, handshake_timeout_s=20)
    try:
        with pytest.raises(BotFailure, match="external bot") as caught:
            bot.start()
        assert message in str(caught.value)
    finally:
        bot.kill()
    # and the arena refuses to start the match, with an error rather than a traceback
    result = run_cli("arena", f"cmd:{command}", "greedy", "--deals", "1")
    stderr = result.stderr.decode()
    assert result.returncode == 1 and "Traceback" not in stderr
    assert stderr.startswith("conquian: error: ") and message in stderr


# -------------------------------------------------------------------- bot side


def a_position() -> tuple[dict[str, Any], str]:
    """An act message of a real deal, and the action greedy answers to it."""
    game = Game(seed=12, dealer=1)
    obs = game.observation(game.state.to_act)
    bot = make_bot("greedy")
    bot.new_deal(game.state.to_act, game.rules)
    return act_message(obs, 1000), str(bot.act(obs))


HELLO = {"type": "hello", "protocol": 1, "engine": "test"}
NEW_DEAL = {"type": "new_deal", "player": 1, "rules": "standard", "time_limit_ms": 1000}


def serve_lines(lines: list[bytes]) -> tuple[list[dict[str, Any]], int, str]:
    """Feed raw lines to ``conquian bot greedy``; its replies, exit status and stderr."""
    result = run_cli("bot", "greedy", "--seed", "1", stdin=b"".join(lines))
    replies = [json.loads(line) for line in result.stdout.decode().splitlines()]
    return replies, result.returncode, result.stderr.decode()


def line(message: dict[str, Any] | str) -> bytes:
    text = message if isinstance(message, str) else json.dumps(message)
    return text.encode() + b"\n"


def empty_legal_act() -> dict[str, Any]:
    act, _ = a_position()
    act["legal_actions"] = []
    act["observation"]["legal_actions"] = []
    return act


BAD_HOST_LINES: dict[str, tuple[bytes, str]] = {
    "huge_int": (line('{"type": "hello", "x": ' + HUGE + "}"), "4300 digits"),
    "huge_int_act": (line('{"type": "act", "time_limit_ms": ' + HUGE + "}"), "4300 digits"),
    "deep_array": (line("[" * 100000), "nests too deeply"),
    "deep_object": (line('{"type": "act", "observation": ' + "[" * 100000), "nests too deeply"),
    "not_json": (line("good morning"), "not JSON"),
    "not_an_object": (line("[1, 2]"), "not a JSON object"),
    "no_type": (line({"player": 0}), "no 'type' string"),
    "type_not_a_string": (line({"type": ["act"]}), "no 'type' string"),
    "bad_utf8": (b'\xff\xfe{"type": "hello"}\n', "not JSON"),
    "too_long": (line('{"type": "hello", "pad": "' + "x" * (MAX_LINE + 10) + '"}'), "longer than"),
    "player_list": (line({**NEW_DEAL, "player": [1]}), "'player' must be 0 or 1"),
    "player_string": (line({**NEW_DEAL, "player": "1"}), "'player' must be 0 or 1"),
    "player_bool": (line({**NEW_DEAL, "player": True}), "'player' must be 0 or 1"),
    "player_huge": (line({**NEW_DEAL, "player": 10**100}), "'player' must be 0 or 1"),
    "player_missing": (line({"type": "new_deal", "rules": "standard"}), "'player'"),
    "rules_number": (line({**NEW_DEAL, "rules": 5}), "'rules' must be a string"),
    "rules_unknown": (line({**NEW_DEAL, "rules": "nosuchrules"}), "nosuchrules"),
    "rules_nested": (line({**NEW_DEAL, "rules": {"a": [[[1]]]}}), "'rules' must be a string"),
    "time_limit_string": (line({**NEW_DEAL, "time_limit_ms": "soon"}), "'time_limit_ms'"),
    "time_limit_negative": (line({**NEW_DEAL, "time_limit_ms": -5}), "'time_limit_ms'"),
    "time_limit_infinite": (line('{"type": "act", "time_limit_ms": 1e999}'), "'time_limit_ms'"),
    "time_limit_huge": (line({**NEW_DEAL, "time_limit_ms": 10**400}), "'time_limit_ms'"),
    "budget_huge": (
        line({"type": "set_option", "name": "budget_ms", "value": 10**400}),
        "'budget_ms'",
    ),
    "option_value": (
        line({"type": "set_option", "name": "budget_ms", "value": [300]}),
        "'budget_ms'",
    ),
    "option_name": (line({"type": "set_option", "name": [1], "value": 3}), "'name'"),
    "observation_list": (line({"type": "act", "observation": [1]}), "observation"),
    "observation_missing": (line({"type": "act"}), "observation"),
    "no_legal_action": (line(empty_legal_act()), "no legal action"),
}


@pytest.mark.parametrize("kind", sorted(BAD_HOST_LINES))
def test_conquian_bot_answers_a_bad_line_with_an_error_and_goes_on(kind: str) -> None:
    bad, message = BAD_HOST_LINES[kind]
    act, expected = a_position()
    replies, status, stderr = serve_lines(
        [line(HELLO), bad, line(NEW_DEAL), line(act), line({"type": "quit"})]
    )
    assert status == 0, stderr
    assert "Traceback" not in stderr
    assert [r["type"] for r in replies] == ["hello", "error", "action"], replies
    error = replies[1]
    assert set(error) == {"type", "message"} and isinstance(error["message"], str)
    assert message in error["message"], error["message"]
    assert len(error["message"]) < 400
    assert replies[2]["action"] == expected


def test_conquian_bot_survives_every_bad_line_in_one_session() -> None:
    act, expected = a_position()
    bad = [BAD_HOST_LINES[kind][0] for kind in sorted(BAD_HOST_LINES)]
    lines = [line(HELLO), *bad, line(NEW_DEAL), line(act), line({"type": "quit"})]
    replies, status, stderr = serve_lines(lines)
    assert status == 0, stderr
    assert "Traceback" not in stderr
    kinds = [r["type"] for r in replies]
    assert kinds == ["hello", *["error"] * len(bad), "action"], replies
    assert replies[-1]["action"] == expected


def test_unknown_message_types_and_blank_lines_still_get_no_reply() -> None:
    act, expected = a_position()
    replies, status, _ = serve_lines(
        [line(HELLO), b"\n", line({"type": "mystery", "x": [1]}), line(NEW_DEAL), line(act)]
    )
    assert status == 0
    assert [r["type"] for r in replies] == ["hello", "action"]
    assert replies[1]["action"] == expected


# -------------------------------------------------------- the baseline bots


@pytest.mark.parametrize("cls", [GreedyBot, RandomBot])
def test_baseline_bots_refuse_an_observation_without_legal_actions(cls: type) -> None:
    game = Game(seed=3)
    obs = dataclasses.replace(game.observation(game.state.to_act), legal_actions=())
    bot = cls()
    with pytest.raises(ConquianError, match="no legal action"):
        bot.act(obs)


def test_greedy_still_declines_when_nothing_melds() -> None:
    game = Game(seed=3)
    obs = game.observation(game.state.to_act)
    assert str(GreedyBot().act(obs)) in {str(a) for a in obs.legal_actions}
