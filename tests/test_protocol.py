"""The bot protocol, through real subprocesses: our bots served, the example bot, bad bots."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import conquian.bots
from conquian.actions import Action
from conquian.bots import Bot, make_bot
from conquian.bots.protocol import (
    PROTOCOL_VERSION,
    BotFailure,
    ExternalBot,
    act_message,
    result_message,
    serve,
)
from conquian.cards import CARDS, mask_indices, parse_cards_mask
from conquian.errors import ConquianError, InvalidNotationError
from conquian.game import Game
from conquian.observation import Observation, parse_public_event
from conquian.rules import PRESETS
from conquian.tools.arena import run_match

ROOT = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
CARD = re.compile(r"[A2-7JQK][shdc]")

# A bot script starts with this: read messages, answer hello; MODE decides the rest.
BOT_HEAD = """
import json, sys, time
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()
acts = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send({"type": "hello", "protocol": 1, "name": NAME})
    elif kind == "quit":
        break
    elif kind == "act":
        acts += 1
        legal = message["legal_actions"]
"""

BAD_BOTS = {
    # a line that is not JSON
    "garbage": ("print('I will take the card, thank you', flush=True)", "sent garbage"),
    # a well-formed action that is not legal
    "illegal": ("send({'type': 'action', 'action': 'take AsAhAd'})", "sent an illegal action"),
    # never answers an act
    "silent": ("time.sleep(60)", "did not answer act within 300 ms"),
    # plays three moves, then falls over
    "crash": (
        "if acts > 3:\n"
        "            print('out of cheese', file=sys.stderr, flush=True)\n"
        "            sys.exit(3)\n"
        "        send({'type': 'action', 'action': legal[-1]})",
        "exited with status 3",
    ),
    # an action that cannot be read
    "unreadable": ("send({'type': 'action', 'action': 'grab'})", "sent an unreadable action"),
    # not an action message
    "wrongtype": ("send({'type': 'hello', 'protocol': 1, 'name': 'x'})", "not 'action'"),
    # gives up
    "giveup": ("send({'type': 'error', 'message': 'no idea'})", "gave up: no idea"),
}


def write_bot(directory: Path, name: str, act_code: str, extra: str = "") -> str:
    """Write a bot script; return its ``cmd:`` spec."""
    path = directory / f"{name}.py"
    path.write_text(f"NAME = {name!r}\n{extra}\n{BOT_HEAD}        {act_code}\n")
    return f"cmd:{PYTHON} {shlex.quote(str(path))}"


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    # "python" in a cmd: line must be this interpreter, whatever the PATH holds
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
    )


def assert_no_bot_processes_left(directory: Path) -> None:
    """No process runs a script of ``directory`` any more."""
    deadline = time.monotonic() + 5
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
                except OSError:
                    continue
                if str(directory) in cmdline:
                    found.append(cmdline)
        if not found or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not found


# ------------------------------------------------------------ end to end, CLI


def test_example_bot_plays_a_match_through_the_cli() -> None:
    result = run_cli(
        "arena", "cmd:python examples/my_bot.py", "greedy", "--deals", "3", "--json", "--seed", "2"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 6 and data["deals"] == 3
    assert data["failures"] == []
    assert data["wins"] + data["losses"] + data["draws"] == 6
    assert data["bot_a"]["name"] == "my_bot (example)"
    assert data["bot_a"]["moves"] > 0 and data["bot_a"]["ms_per_move_p50"] > 0


def test_our_bot_served_over_the_protocol_through_the_cli() -> None:
    result = run_cli(
        "arena",
        "cmd:python -m conquian.cli bot greedy",
        "random",
        "--deals",
        "3",
        "--seed",
        "8",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 6 and data["failures"] == []
    assert data["bot_a"]["name"] == "conquian greedy"
    # greedy is deterministic: over the protocol it plays exactly as in the process
    local = run_match("greedy", "random", 3, seed=8)
    assert (data["wins"], data["losses"], data["draws"]) == (
        local.wins,
        local.losses,
        local.draws,
    )


def test_served_bot_plays_identically_to_the_local_one(tmp_path: Path) -> None:
    served = run_match(f"cmd:{PYTHON} -m conquian.cli bot greedy", "random", 4, seed=21)
    local = run_match("greedy", "random", 4, seed=21)
    assert [(g.winner, g.actions) for g in served.games] == [
        (g.winner, g.actions) for g in local.games
    ]
    assert served.bot_a.name == "conquian greedy"
    both = run_match(
        f"cmd:{PYTHON} -m conquian.cli bot greedy", f"cmd:{PYTHON} examples/my_bot.py", 2, seed=1
    )
    assert len(both.games) == 4 and not both.failures


# ------------------------------------------------------------- bad bots


@pytest.mark.parametrize("kind", sorted(BAD_BOTS))
def test_a_misbehaving_bot_loses_each_deal_and_the_match_goes_on(tmp_path: Path, kind: str) -> None:
    code, message = BAD_BOTS[kind]
    spec = write_bot(tmp_path, kind, code)
    result = run_match(spec, "greedy", 3, seed=4, time_limit_ms=300 if kind == "silent" else 5000)
    assert result.deals == 3 and len(result.games) == 6 and not result.interrupted
    assert result.losses == 6 and result.wins == 0
    assert result.stake_balance == -6
    assert len(result.failures) == 6
    for game in result.failures:
        assert game.failed == "a" and game.winner == "b" and game.termination == "forfeit"
        assert game.failure is not None
        assert f"external bot {kind!r}" in game.failure and message in game.failure
        if kind == "crash":
            assert "out of cheese" in game.failure  # the last line it wrote to stderr
    assert result.bot_a.failures == 6 and result.bot_b.failures == 0
    data = result.to_dict()
    assert [f["bot"] for f in data["failures"]] == ["a"] * 6
    assert_no_bot_processes_left(tmp_path)


def test_a_bot_that_crashes_once_is_restarted_and_plays_on(tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    code = (
        f"if acts == 2 and not os.path.exists({str(marker)!r}):\n"
        f"            open({str(marker)!r}, 'w').close()\n"
        "            sys.exit(5)\n"
        "        send({'type': 'action', 'action': legal[0]})"
    )
    spec = write_bot(tmp_path, "flaky", code, extra="import os")
    result = run_match("greedy", spec, 3, seed=6)
    assert len(result.games) == 6
    assert [(g.deal, g.game, g.failed) for g in result.failures] == [(0, 0, "b")]
    failure = result.failures[0].failure
    assert failure is not None and "exited with status 5" in failure
    assert sum(g.termination != "forfeit" for g in result.games) == 5


def test_bad_bots_through_the_cli_name_the_fault(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "illegal", BAD_BOTS["illegal"][0])
    result = run_cli("arena", "random", spec, "--deals", "2", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "Forfeits (4):" in result.stdout
    assert "external bot 'illegal' sent an illegal action 'take AsAhAd'" in result.stdout
    assert "A wins / losses / draws    4 / 0 / 0" in result.stdout


def test_a_bot_that_cannot_start_or_greet_stops_the_match(tmp_path: Path) -> None:
    with pytest.raises(ConquianError, match="cannot start"):
        run_match(f"cmd:{tmp_path}/no-such-program", "greedy", 1)
    old = tmp_path / "old.py"
    old.write_text(
        "import json, sys\n"
        "sys.stdin.readline()\n"
        "print(json.dumps({'type': 'hello', 'protocol': 0, 'name': 'old'}), flush=True)\n"
    )
    with pytest.raises(ConquianError, match="speaks protocol 0"):
        run_match(f"cmd:{PYTHON} {old}", "greedy", 1)
    mute = tmp_path / "mute.py"
    mute.write_text("import sys\nsys.stdin.read()\n")
    bot = ExternalBot(f"{PYTHON} {mute}", handshake_timeout_s=0.3)
    with pytest.raises(BotFailure, match="did not answer hello within 300 ms"):
        bot.start()
    bot.close()
    assert not bot.running


def test_info_lines_options_and_a_wrong_option(tmp_path: Path) -> None:
    spec = write_bot(
        tmp_path,
        "chatty",
        "send({'type': 'info', 'text': 'thinking'})\n"
        "        print('', flush=True)\n"
        "        send({'type': 'action', 'action': legal[0], 'info': 'first'})",
    )
    result = run_match(spec, "random", 2, seed=3)
    assert not result.failures
    command = [sys.executable, "-m", "conquian.cli", "bot", "greedy"]
    with ExternalBot(command, options={"budget_ms": 50}) as served:
        served.start()
        assert served.bot_options == {"budget_ms": None}
        game = Game(seed=1)
        served.new_deal(game.state.to_act, game.rules)
        obs = game.observation(game.state.to_act)
        assert served.act(obs) in obs.legal_actions
        assert served.reason  # the served bot says why
    assert not served.running
    unknown = ExternalBot(
        [sys.executable, "-m", "conquian.cli", "bot", "greedy"], options={"depth": 3}
    )
    with pytest.raises(BotFailure, match="does not offer the option 'depth'"):
        unknown.start()
    unknown.close()


# --------------------------------------------------------- hidden information


def card_tokens(value: Any) -> Iterator[str]:
    """Every card written in any string of a JSON value (keys are lowercase words)."""
    if isinstance(value, str):
        yield from CARD.findall(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_tokens(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_tokens(item)


def all_keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from all_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_keys(item)


def hidden_cards(game: Game, player: int) -> set[str]:
    """The opponent's hand and the unturned stock, as card labels."""
    state = game.state
    mask = state.hands[1 - player]
    for index in state.stock[state.stock_pos :]:
        mask |= 1 << index
    return {str(CARDS[i]) for i in mask_indices(mask)}


SPY_BOT = """
import json, random, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line)  # every message received, logged before any reply
    log.flush()
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "spy"}), flush=True)
    elif message["type"] == "act":
        action = random.choice(message["legal_actions"])
        print(json.dumps({"type": "action", "action": action}), flush=True)
    elif message["type"] == "quit":
        break
"""


def test_an_external_bot_never_receives_hidden_cards(tmp_path: Path) -> None:
    log = tmp_path / "stdin.log"
    script = tmp_path / "spy.py"
    script.write_text(SPY_BOT)
    bot = ExternalBot([sys.executable, str(script), str(log)])
    checked = 0

    def new_lines(count: int, hidden: set[str]) -> None:
        nonlocal checked
        deadline = time.monotonic() + 5
        lines = log.read_text().split("\n")[:-1]  # complete lines only
        while len(lines) < checked + count and time.monotonic() < deadline:
            time.sleep(0.01)
            lines = log.read_text().split("\n")[:-1]  # complete lines only
        assert len(lines) >= checked + count
        for line in lines[checked:]:
            message = json.loads(line)
            assert not set(all_keys(message)) & {"seed", "deck", "stock", "hands"}
            leaked = set(card_tokens(message)) & hidden
            assert not leaked, (message["type"], leaked)
        checked = len(lines)

    seen_own_cards = 0
    try:
        bot.start()
        new_lines(1, set())  # hello
        for seed in range(6):
            game = Game(PRESETS["standard"] if seed % 3 else "bicycle", seed=seed, dealer=seed % 2)
            me = seed % 2
            other = make_bot("greedy", rng=random.Random(seed))
            other.new_deal(1 - me, game.rules)
            hidden = hidden_cards(game, me)
            bot.new_deal(me, game.rules)
            new_lines(1, hidden)
            while not game.state.is_over:
                player = game.state.to_act
                obs = game.observation(player)
                if player == me:
                    hidden = hidden_cards(game, me)
                    action = bot.act(obs)
                    new_lines(1, hidden)
                    seen_own_cards += len(
                        set(card_tokens(act_message(obs, 1))) & {str(c) for c in obs.hand}
                    )
                else:
                    action = other.act(obs)
                game.push(action)
            outcome = game.state.outcome()
            assert outcome is not None
            bot.deal_over(game.observation(me), outcome.winner)
            new_lines(1, hidden_cards(game, me))
    finally:
        bot.close()
    assert checked > 50
    assert seen_own_cards > 50  # the check is not vacuous: cards are found in messages


def test_result_message_reports_the_end_for_this_player() -> None:
    game = Game(seed=4)
    while not game.state.is_over:
        game.push(game.legal_actions()[0])
    outcome = game.state.outcome()
    assert outcome is not None
    for player in (0, 1):
        message = result_message(game.observation(player), outcome.winner, None)
        expected = (
            "draw" if outcome.winner is None else "win" if outcome.winner == player else "loss"
        )
        assert message["result"] == expected
        assert message["outcome"]["termination"] == outcome.termination.value
    forfeit = result_message(game.observation(0), 1, "external bot 'x' sent garbage")
    assert forfeit["outcome"] == {"winner": 1, "termination": "forfeit"}
    assert forfeit["result"] == "loss" and forfeit["reason"].endswith("garbage")


# ----------------------------------------------------------------- bot side


def converse(lines: list[dict[str, Any]], *args: str) -> tuple[list[dict[str, Any]], int]:
    result = subprocess.run(
        [sys.executable, "-m", "conquian.cli", "bot", *args],
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return [json.loads(line) for line in result.stdout.splitlines()], result.returncode


def test_conquian_bot_answers_like_the_bot_itself() -> None:
    game = Game(seed=12, dealer=1)
    local = make_bot("greedy")
    messages: list[dict[str, Any]] = [
        {"type": "hello", "protocol": PROTOCOL_VERSION},
        {"type": "set_option", "name": "budget_ms", "value": 20},
        {"type": "new_deal", "player": 0, "rules": "standard", "time_limit_ms": 1000},
    ]
    expected = []
    for _ in range(12):
        obs = game.observation(game.state.to_act)
        local.new_deal(game.state.to_act, game.rules)
        action = local.act(obs)
        messages.append(act_message(obs, 1000))
        expected.append(str(action))
        game.push(action)
    messages.append({"type": "act", "observation": {"player": 0}, "legal_actions": []})
    messages.append({"type": "mystery"})  # ignored
    messages.append({"type": "quit"})
    replies, status = converse(messages, "greedy", "--seed", "1")
    assert status == 0
    hello, *actions, error = replies
    assert hello["type"] == "hello" and hello["protocol"] == PROTOCOL_VERSION
    assert hello["name"] == "conquian greedy" and "budget_ms" in hello["options"]
    assert [a["action"] for a in actions] == expected
    assert all(a["type"] == "action" for a in actions)
    assert error["type"] == "error" and "no 'rules' field" in error["message"]


def test_conquian_bot_refuses_unknown_and_all_seeing_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    replies, status = converse([{"type": "hello", "protocol": 1}], "grandmaster")
    assert status == 1 and replies == []

    class Peeker(Bot):
        name = "peeker"
        sees_everything = True

        def act(self, obs: Observation) -> Action:
            return obs.legal_actions[0]

    monkeypatch.setitem(conquian.bots._CLASSES, "oracle", Peeker)
    with pytest.raises(ConquianError, match="cannot play over the protocol"):
        serve("oracle")


# --------------------------------------------------------- Observation.from_dict


def test_observation_round_trips_through_json() -> None:
    rng = random.Random(5)
    count = 0
    for preset in PRESETS:
        for seed in range(8):
            game = Game(preset, seed=seed, dealer=seed % 2)
            while True:
                for player in (0, 1):
                    obs = game.observation(player)
                    data = json.loads(json.dumps(obs.to_dict()))
                    back = Observation.from_dict(data)
                    assert back == obs
                    assert back.to_dict() == obs.to_dict()
                    count += 1
                if game.state.is_over:
                    break
                game.push(rng.choice(game.legal_actions()))
    assert count > 500


def test_public_events_round_trip() -> None:
    game = Game(seed=30)
    rng = random.Random(1)
    while not game.state.is_over:
        game.push(rng.choice(game.legal_actions()))
    assert len(game.history) > 10
    for event in game.history:
        assert parse_public_event(str(event)) == event


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"phase": "sleeping"}, "'phase': unknown value"),
        ({"hand": ["Zz"]}, "'hand'"),
        ({"hand": ["5c5c"]}, "written twice"),
        ({"player": 2}, "'player' must be 0 or 1"),
        ({"stock_count": "many"}, "'stock_count' must be a int"),
        ({"tables": [[]]}, "two tables"),
        ({"history": ["p3 decline"]}, "is not an event"),
        ({"history": ["p0 decline"]}, "must end with the centre card"),
        ({"legal_actions": ["grab"]}, "Unknown action"),
        ({"rules": "nosuchrules"}, "'rules'"),
        ({"outcome": {"winner": 5, "termination": "out"}}, "bad winner"),
        ({"centre_source": "x"}, "'centre_source'"),
    ],
)
def test_observation_from_dict_names_what_is_wrong(change: dict[str, Any], message: str) -> None:
    game = Game(seed=3)
    game.push(game.legal_actions()[-1])
    data = game.observation(game.state.to_act).to_dict()
    assert data["centre"] is not None
    data.update(change)
    with pytest.raises(InvalidNotationError, match=re.escape(message)):
        Observation.from_dict(data)
    missing = game.observation(0).to_dict()
    del missing["dead"]
    with pytest.raises(InvalidNotationError, match="no 'dead' field"):
        Observation.from_dict(missing)


def test_act_message_carries_the_legal_actions_of_the_observation() -> None:
    game = Game(seed=9)
    obs = game.observation(game.state.to_act)
    message = act_message(obs, 750)
    assert message["time_limit_ms"] == 750
    assert message["legal_actions"] == [str(a) for a in obs.legal_actions]
    assert message["legal_actions"] == message["observation"]["legal_actions"]
    assert [Action.parse(a) for a in message["legal_actions"]] == list(obs.legal_actions)
    assert parse_cards_mask(" ".join(message["observation"]["hand"])) == obs.hand_mask
