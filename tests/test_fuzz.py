"""Fuzz tests: hostile text at every place the package reads text from outside.

Each target gets mutations of real inputs (positions, actions, records and protocol and
websocket messages from seeded games): characters replaced, inserted, deleted or repeated,
truncation, fields swapped for hostile tokens (5,000-digit and huge hexadecimal numbers,
``NaN``, ``1e309``, full-width and Arabic digits, suit symbols, NUL, lone surrogates, RTL
marks, 3,000 nested brackets), and JSON fields replaced by values of the wrong type. Each
asserts that the only errors are the documented ones (a :class:`ConquianError` or a clear
error reply) and that bad input changes nothing.

The ``test_regression_*`` tests pin the audit's findings (docs/reliability.md) one input
at a time. The example counts keep the whole file to about a minute on two cores.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import os
import queue
import random
import re
import subprocess
import sys
import textwrap
import threading
import urllib.parse
from collections import deque
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import conquian.bots.protocol as protocol
from conquian import (
    Action,
    ConquianError,
    Game,
    GameRecord,
    Match,
    MatchRecord,
    format_position,
    parse_action,
    parse_position,
)
from conquian.bots.protocol import (
    BotFailure,
    ExternalBot,
    act_message,
    hello_message,
    new_deal_message,
    result_message,
    serve,
)
from conquian.errors import RecordError
from conquian.observation import Observation
from conquian.tools.soak import choose, snapshot

FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)


SCALE = int(os.environ.get("CONQUIAN_FUZZ_SCALE", "1"))
"""How many times each target's examples to run (``CONQUIAN_FUZZ_SCALE=15`` for a long run)."""


def examples(count: int) -> settings:
    """The fuzz settings with ``count`` examples (times :data:`SCALE`)."""
    return settings(FUZZ, max_examples=count * SCALE, deadline=None)


SPECS = ("standard", "bicycle", "foster", "wikipedia", "standard,forcing=automatic")

HUGE = "9" * 5000
HUGE_HEX = "0x" + "f" * 5000
DEEP = "[" * 3000
HOSTILE_TEXT = (
    HUGE,
    HUGE_HEX,
    "-1",
    "0",
    str(2**64),
    "nan",
    "NaN",
    "inf",
    "1e309",
    "\uff11\uff12",  # full-width 12
    "\uff11",  # full-width 1
    "\u0663",  # Arabic-Indic 3
    "\u00b2",  # superscript 2: a digit to str.isdigit, not to int
    "\u278b",  # dingbat circled 2: the same
    "1\u00b2",
    "\u00bd",
    "\u2665",
    "7\u2665",
    "\uff2b\uff48",  # full-width Kh
    "K\u0301h",
    "\x00",
    "\ud800",
    "\udfff",
    "\u200f",
    "\u202e",
    "\ufeff",
    "",
    " ",
    "*",
    "-",
    "/",
    ":",
    "??",
    DEEP,
    "{" * 3000,
    '"',
    "\\",
    "\n",
    "\t",
    "\r",
    "0x10",
    "1_0",
    "+1",
    "\u0130",
    "\u00df",
)
SHORT_FORMS = ("take 6c 7c", "Kh", "yes", "no", "take", "pass 5c6c7c", "discard 10c", "noforce")
"""Action texts for people (``parse_action``), besides the canonical ones of the corpus."""
CHARS = st.one_of(st.characters(), st.sampled_from(["\ud800", "\x00", "\u2665", " ", "/", ":"]))


# ------------------------------------------------------------------ the corpus


def _play(spec: str, seed: int) -> Game:
    import random

    rng = random.Random(seed)
    game = Game(spec, seed=seed, dealer=seed % 2, stake=1 + seed % 3, players=("ana", "ben"))
    greed = (0.0, 0.7, 1.0)[seed % 3]
    while not game.state.is_over:
        game.push(choose(game.state, rng, greed))
    return game


@functools.cache
def corpus() -> dict[str, Any]:
    """Real inputs from seeded games, to be mutated."""
    positions: list[str] = []
    actions: set[str] = set()
    records: list[str] = []
    partial: list[GameRecord] = []
    acts: list[tuple[dict[str, Any], dict[str, Any], frozenset[str]]] = []
    for number, spec in enumerate(SPECS):
        for seed in range(2):
            game = _play(spec, 10 * number + seed)
            record = GameRecord.from_game(game, event="fuzz")
            records += [record.dumps(), record.for_player(seed).dumps()]
            states = game.states()
            positions += [format_position(s) for s in states[:: max(1, len(states) // 6)]]
            for event in game.history:
                actions.add(str(event.action))
            for cut in (0, len(game.history) // 3, len(game.history) // 2):
                partial.append(GameRecord.from_game(_prefix(game, cut)))
            replay = GameRecord.from_game(game).to_game()
            while replay.history and len(acts) < 4 * (number + 1):
                replay.pop()
                p = replay.state.to_act
                obs = replay.observation(p)
                if len(replay.history) % 7 == 0:
                    acts.append(
                        (
                            new_deal_message(p, replay.rules, 1000),
                            act_message(obs, 1000),
                            frozenset(str(a) for a in obs.legal_actions),
                        )
                    )
    match = Match("standard,match=n_deals,match_target=3", seed=5, players=("ana", "ben"))
    import random

    rng = random.Random(5)
    for _ in range(2):
        game = match.new_game()
        while not game.state.is_over:
            game.push(choose(game.state, rng, 0.7))
        match.settle()
    game = match.new_game()
    for _ in range(5):
        game.push(choose(game.state, rng, 0.7))
    return {
        "positions": positions,
        "actions": [*sorted(actions), *SHORT_FORMS],
        "records": records,
        "partial": partial,
        "matches": [MatchRecord.from_match(match).dumps()],
        "acts": acts,
        "last_obs": game.observation(game.state.to_act),
    }


def _prefix(game: Game, cut: int) -> Game:
    again = Game(game.rules, deck=game.deck, dealer=game.dealer, stake=game.stake)
    for event in game.history[:cut]:
        again.push(event.action)
    return again


# --------------------------------------------------------------- mutations


@st.composite
def mutated(draw: st.DrawFn, base: str) -> str:
    """``base`` with one to three random edits."""
    text = base
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.integers(0, 6))
        n = len(text)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 8)))
        if op == 0:
            text = text[:i] + draw(CHARS) + text[j:]
        elif op == 1:
            text = text[:i] + draw(st.sampled_from(HOSTILE_TEXT)) + text[i:]
        elif op == 2:
            text = text[:i] + text[j:]
        elif op == 3:
            text = text[:i]
        elif op == 4:
            runs = list(re.finditer(r"\d+", text))
            if runs:
                run = runs[draw(st.integers(0, len(runs) - 1))]
                number = draw(st.sampled_from((HUGE, HUGE_HEX, "-1", "0", "1e309", "nan")))
                text = text[: run.start()] + number + text[run.end() :]
        elif op == 5:
            fields = text.split(" ")
            k = draw(st.integers(0, len(fields) - 1))
            fields[k] = draw(st.sampled_from(HOSTILE_TEXT + tuple(fields)))
            text = " ".join(fields)
        else:
            text = text[:i] + text[i:j] * draw(st.integers(2, 40)) + text[j:]
    return text


def from_corpus(key: str) -> st.SearchStrategy[str]:
    return st.integers(0, 10**6).flatmap(lambda k: mutated(corpus()[key][k % len(corpus()[key])]))


_SLOT = "\u0000HOSTILE\u0000"
_SLOT_JSON = json.dumps(_SLOT)
JSON_HOSTILE = (
    "null",
    "[]",
    "{}",
    "true",
    "false",
    "-1",
    "0",
    "1.5",
    "2",
    str(2**70),
    HUGE,
    "-" + HUGE,
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    '"\\ud800"',
    '"\\u0000"',
    '"' + "x" * 5000 + '"',
    DEEP + "]" * 3000,
    "[[[[1]]]]",
    '{"type": "act"}',
    '"7\u2665"',
    '""',
    '"standard,max_seq_len=99"',
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data[:3]):
            yield (*prefix, index)
            yield from _paths(value, (*prefix, index))


@st.composite
def json_variant(draw: st.DrawFn, message: dict[str, Any]) -> str:
    """A JSON line: ``message`` with one field replaced by a hostile value (or deleted, or
    one more field added), or its text mutated."""
    if draw(st.integers(0, 3)) == 0:
        return draw(mutated(json.dumps(message)))
    data = json.loads(json.dumps(message))
    paths = list(_paths(data))
    path = draw(st.sampled_from(paths)) if paths else ("extra",)
    target = data
    for key in path[:-1]:
        target = target[key]
    how = draw(st.integers(0, 4))
    if how == 0 and isinstance(target, dict):
        del target[path[-1]]
    elif how == 1 and isinstance(target, dict):
        target["x" + str(path[-1])] = _SLOT
    else:
        target[path[-1]] = _SLOT
    return json.dumps(data).replace(_SLOT_JSON, draw(st.sampled_from(JSON_HOSTILE)))


def strict_json(text: str) -> Any:
    """JSON as a browser reads it: ``NaN`` and ``Infinity`` are errors."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: {constant} in {text[:100]!r}")

    return json.loads(text, parse_constant=refuse)


# ------------------------------------------------------------- positions


def check_position_text(text: str) -> None:
    try:
        state = parse_position(text)
    except ConquianError:
        return
    state.validate()
    again = format_position(state)
    assert format_position(parse_position(again)) == again


@examples(600)
@given(st.one_of(from_corpus("positions"), st.text(max_size=120)))
def test_fuzz_parse_position(text: str) -> None:
    check_position_text(text)


REFERENCE_POSITION = "standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1"


@pytest.mark.parametrize(
    "field, value",
    [
        (11, HUGE),
        (11, HUGE_HEX),
        (11, "1e309"),
        (11, "nan"),
        (11, "\u0663"),
        (11, "\uff11"),
        (2, "\uff11"),
        (2, "\u00b2"),
        (2, "\u278b"),
        (2, HUGE),
        (2, "00"),
        (3, "\u00b2"),
        (3, "\u278b"),
        (3, HUGE),
        (11, "\u00b2"),
        (0, "standard,base_stake=" + HUGE),
        (0, "standard,base_stake=\u00b2"),
        (0, "standard,base_stake=" + str(2**63)),
        (4, "\ud800"),
        (8, "7c:\u200f"),
        (0, "standard,max_seq_len=" + HUGE),
        (0, "standard,hand_size=" + HUGE),
        (0, "standard,max_seq_len=" + HUGE_HEX),
        (10, DEEP),
    ],
)
def test_regression_hostile_position_fields(field: int, value: str) -> None:
    fields = REFERENCE_POSITION.split(" ")
    fields[field] = value
    check_position_text(" ".join(fields))


# --------------------------------------------------------------- actions


@examples(600)
@given(st.one_of(from_corpus("actions"), st.text(max_size=60)))
def test_fuzz_action_parse(text: str) -> None:
    check_action_text(text)


def check_action_text(text: str) -> None:
    try:
        action = Action.parse(text)
    except ConquianError:
        return
    try:
        again = Action.parse(str(action))
    except ConquianError as exc:
        raise AssertionError(
            f"{text!r} reads as {action!r}, whose text {str(action)!r} does not"
        ) from exc
    assert again == action, f"{text!r} reads as {action!r}, whose text reads as {again!r}"


@pytest.mark.parametrize("text", ["take -", "pass -", "take  -", "TAKE -", "discard -"])
def test_regression_empty_table_texts(text: str) -> None:
    """Found by the fuzzer: ``take -`` read as a take with an empty table, whose text
    ``take`` does not read back."""
    check_action_text(text)


@examples(400)
@given(st.integers(0, 10**6), from_corpus("actions"))
def test_fuzz_parse_action_and_push_text(index: int, text: str) -> None:
    records = corpus()["partial"]
    game = records[index % len(records)].to_game()
    state = game.state
    before = snapshot(state)
    try:
        action = parse_action(state, text)
    except ConquianError:
        assert snapshot(state) == before, "a refused action changed the state"
    else:
        assert action in state.legal_actions() and snapshot(state) == before
    history = list(game.history)
    try:
        pushed = game.push_text(text)
    except ConquianError:
        assert game.history == history and snapshot(game.state) == before
    else:
        assert game.history[:-1] == history and game.history[-1].action == pushed


# --------------------------------------------------------------- records

TOML_HOSTILE = (
    HUGE,
    "-" + HUGE,
    HUGE_HEX,
    "0o" + "7" * 5000,
    "0b" + "1" * 20000,
    "1e309",
    "inf",
    "nan",
    "-inf",
    "-1",
    "0",
    "2",
    str(2**64),
    "true",
    '"x"',
    '""',
    "[]",
    "{}",
    "{a = 1}",
    "[1, 2]",
    '["p0 decline"]',
    DEEP,
    DEEP + "]" * 3000,
    "{a = " * 3000,
    '"\\ud800"',
    '"\u202e"',
    "1979-05-27T07:32:00Z",
    "1979-05-27",
    "'literal'",
    '"""multi\nline"""',
)


@st.composite
def toml_variant(draw: st.DrawFn, text: str) -> str:
    """A record with one ``key = value`` line's value replaced, or a hostile line added."""
    lines = text.split("\n")
    keyed = [i for i, line in enumerate(lines) if re.match(r"^\w+ = ", line)]
    value = draw(st.sampled_from(TOML_HOSTILE))
    if draw(st.integers(0, 4)) == 0:
        key = draw(st.sampled_from(("extra", "viewpoint", "seed", "balance", "meta")))
        lines.insert(draw(st.integers(0, len(lines))), f"{key} = {value}")
    else:
        i = draw(st.sampled_from(keyed))
        key = lines[i].split(" = ", 1)[0]
        lines[i] = f"{key} = {value}"
        if key == "actions":  # drop the old array's items
            j = i + 1
            while j < len(lines) and lines[j] != "]":
                j += 1
            del lines[i + 1 : j + 1]
    return "\n".join(lines)


def record_texts(key: str) -> st.SearchStrategy[str]:
    return st.integers(0, 10**6).flatmap(
        lambda k: st.one_of(
            toml_variant(corpus()[key][k % len(corpus()[key])]),
            mutated(corpus()[key][k % len(corpus()[key])]),
        )
    )


def check_record_text(text: str) -> None:
    """A record reads and replays, or is refused with a RecordError (a ConquianError);
    one that replays writes itself back and replays to the same end."""
    try:
        record = GameRecord.loads(text)
        game = record.to_game()
    except ConquianError:
        return
    end = format_position(game.state)
    again = GameRecord.loads(record.dumps()).to_game()
    assert format_position(again.state) == end
    for player in (0, 1):
        GameRecord.loads(record.for_player(player).dumps()).to_game()


def check_match_text(text: str) -> None:
    try:
        record = MatchRecord.loads(text)
        match = record.to_match()
    except ConquianError:
        return
    again = MatchRecord.loads(MatchRecord.from_match(match).dumps()).to_match()
    assert again.balance == match.balance and len(again.games) == len(match.games)


@examples(300)
@given(record_texts("records"))
def test_fuzz_game_record(text: str) -> None:
    check_record_text(text)


@examples(100)
@given(record_texts("matches"))
def test_fuzz_match_record(text: str) -> None:
    check_match_text(text)


RECORD_REGRESSIONS = {
    "seed: 5,000 digits": ("seed", HUGE),
    "stake: 5,000 digits": ("stake", HUGE),
    "dealer: 5,000 digits": ("dealer", HUGE),
    "seed: 5,000 hex digits": ("seed", HUGE_HEX),
    "stake: 5,000 hex digits": ("stake", HUGE_HEX),
    "actions: 3,000 [": ("actions", DEEP),
    "actions: 3,000 nested arrays": ("actions", DEEP + "]" * 3000),
    "meta: 3,000 nested tables": ("meta", "{a = " * 3000),
    "stake: inf": ("stake", "inf"),
    "seed: nan": ("seed", "nan"),
}


def _set_line(text: str, key: str, value: str) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(f"{key} = "):
            lines[i] = f"{key} = {value}"
            if key == "actions":
                j = i + 1
                while lines[j] != "]":
                    j += 1
                del lines[i + 1 : j + 1]
            return "\n".join(lines)
    head = lines.index("[meta]") if "[meta]" in lines else len(lines)
    lines.insert(head, f"{key} = {value}")
    return "\n".join(lines)


@pytest.mark.parametrize("key, value", RECORD_REGRESSIONS.values(), ids=RECORD_REGRESSIONS)
def test_regression_record_huge_and_deep(key: str, value: str) -> None:
    base = next(r for r in corpus()["records"] if "seed = " in r)
    check_record_text(_set_line(base, key, value))


@pytest.mark.parametrize("key, value", RECORD_REGRESSIONS.values(), ids=RECORD_REGRESSIONS)
def test_regression_match_record_huge_and_deep(key: str, value: str) -> None:
    base = corpus()["matches"][0]
    head, _, deals = base.partition("\n[[deal]]\n")
    if key in ("seed", "meta"):  # the match's own field
        text = _set_line(head, key, value) + "\n[[deal]]\n" + deals
    else:  # the first deal's
        text = head + "\n[[deal]]\n" + _set_line(deals, key, value)
    check_match_text(text)


def test_regression_lone_surrogate_in_a_record() -> None:
    """N2: a name with a lone surrogate read (tomllib takes any ``str``) but was written back
    as an escape that TOML refuses; such text is not UTF-8, so it is refused on reading."""
    base = next(r for r in corpus()["records"] if "players = " in r)
    text = re.sub(r'^players = \["', 'players = ["\ud800', base, count=1, flags=re.M)
    assert "\ud800" in text
    with pytest.raises(RecordError, match=r"line \d+ holds a character that is not Unicode"):
        GameRecord.loads(text)
    check_record_text(text)
    match = corpus()["matches"][0].replace('players = ["', 'players = ["\ud800', 1)
    with pytest.raises(RecordError, match="not Unicode text"):
        MatchRecord.loads(match)


def test_regression_character_beyond_the_bmp_in_a_record() -> None:
    """N3: a name with a character beyond U+FFFF (U+10000) was written as JSON's pair of
    surrogate escapes, which TOML refuses, so the record written could not be read back;
    it is written as one ``\\U`` escape now, and a lone surrogate in a game's name (it
    cannot be read from a record, but a program can name a player so) as U+FFFD."""
    base = next(r for r in corpus()["records"] if "players = " in r)
    text = re.sub(r'^players = \["', 'players = ["\U00010000', base, count=1, flags=re.M)
    assert "\U00010000" in text
    check_record_text(text)
    record = GameRecord.loads(text)
    written = record.dumps()
    assert "\\U00010000" in written and written.isascii()
    assert GameRecord.loads(written).players == record.players
    match_text = corpus()["matches"][0].replace('players = ["', 'players = ["\U0001f0a1', 1)
    check_match_text(match_text)
    again = MatchRecord.loads(MatchRecord.loads(match_text).dumps())
    assert again.players[0].startswith("\U0001f0a1")
    lone = replace(record, players=("\udcffana", *record.players[1:]))
    assert GameRecord.loads(lone.dumps()).players[0] == "\ufffdana"


def test_regression_match_record_huge_balance() -> None:
    base = corpus()["matches"][0]
    for value in (f"[{HUGE}, 0]", f"[{HUGE_HEX}, 0]", DEEP):
        check_match_text(re.sub(r"^balance = .*$", f"balance = {value}", base, flags=re.M))


def test_regression_conquian_replay_prints_no_traceback(tmp_path: Path) -> None:
    """F5: ``conquian replay FILE`` on a hostile record: an error line and status 1."""
    base = next(r for r in corpus()["records"] if "seed = " in r)
    for number, (key, value) in enumerate(
        [("seed", HUGE), ("actions", "[" * 100_000), ("stake", HUGE_HEX)]
    ):
        path = tmp_path / f"bad-{number}.toml"
        path.write_text(_set_line(base, key, value), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "conquian.cli", "replay", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "Traceback" not in done.stderr, (key, done.stderr[-600:])
        assert done.returncode in (0, 1), (key, done.returncode)


# ------------------------------------- the command line and the prompts (finding L7)

NUMBERS_TYPED = (
    "\u00b2",
    "\u278b",
    "\u0663",
    "\uff11",
    HUGE,
    "1" * 4301,
    "99999999999",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "12",
)
"""Numbers as a person might type them at a prompt: odd digits, huge ones, ordinary ones."""


def run_main(args: list[str], typed: str = "") -> tuple[int, str, str]:
    """``conquian.cli.main(args)`` in-process with ``typed`` as its input: the status, the
    output and the errors.  Any exception but SystemExit fails the caller."""
    from conquian.cli import main

    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(typed)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(args)
            except SystemExit as exc:  # argparse's refusals
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = stdin
    return status, out.getvalue(), err.getvalue()


def check_cli(args: list[str], typed: str = "") -> str:
    status, out, err = run_main(args, typed)
    assert status in (0, 1, 2), (args, status, err[-600:])
    assert "Traceback" not in out + err
    if status:
        assert err.strip(), (args, "refused without a word")
    return out


@examples(150)
@given(st.one_of(from_corpus("positions"), st.sampled_from(HOSTILE_TEXT)), st.booleans())
def test_fuzz_cli_legal(text: str, as_json: bool) -> None:
    check_cli(["legal", *(["--json"] if as_json else []), "--", text])


@functools.cache
def step_record(folder: str) -> str:
    """A finished two-player record and a three-player one, written once for the step viewer."""
    paths = []
    for spec in ("standard", "mexican"):
        game = Match(spec, seed=3).new_game()
        while not game.state.is_over:
            game.push(game.legal_actions()[-1])
        path = Path(folder) / f"{spec}.toml"
        path.write_text(GameRecord.from_game(game).dumps(), encoding="utf-8")
        paths.append(str(path))
    return "\n".join(paths)


@examples(60)
@given(
    st.lists(st.one_of(st.sampled_from(NUMBERS_TYPED), st.sampled_from(HOSTILE_TEXT)), max_size=8),
    st.sampled_from([None, "0", "1", "2", "3", "9", "\u00b2"]),
    st.booleans(),
)
def test_fuzz_replay_step_prompt(typed: list[str], view: str | None, three: bool) -> None:
    import tempfile

    folder = Path(tempfile.gettempdir()) / "conquian-fuzz-step"
    folder.mkdir(exist_ok=True)
    path = step_record(str(folder)).split("\n")[three]
    lines = [t.replace("\n", " ").replace("\r", " ") for t in typed]
    args = ["replay", "--step", "--plain", *(["--view", view] if view else []), path]
    check_cli(args, "".join(f"{line}\n" for line in lines))


@pytest.mark.parametrize("typed", NUMBERS_TYPED[:6])
def test_regression_replay_step_prompt_odd_number(tmp_path: Path, typed: str) -> None:
    """L7: ``²`` or 5,000 digits typed at the step viewer's prompt: refused, no traceback."""
    path = step_record(str(tmp_path)).split("\n")[0]
    out = check_cli(["replay", "--step", "--plain", path], f"{typed}\nq\n")
    assert "There are moves 0 to" in out or "Keys: n next, p back, q quit." in out


def play_session(save_dir: Path, typed: str, spec: str) -> str:
    """A new ``conquian play`` match against the easy bot, in-process, fed ``typed``."""
    from conquian.play.session import Session
    from conquian.play.storage import SavedMatch, Store
    from conquian.play.terminal_words import PERSON_NAME, bot_record_name, bot_record_names
    from conquian.play.ui import PlainScreen
    from conquian.rules import find_rules

    seats = find_rules(spec).num_players
    names = (
        (PERSON_NAME, bot_record_name("easy"))
        if seats == 2
        else (PERSON_NAME, *bot_record_names("easy", seats))
    )
    bot_seed = random.Random("bot:1").randrange(2**63)  # as conquian play --seed 1 has it
    saved = SavedMatch(
        rules=spec, match_seed=1, bot_seed=bot_seed, opponent="easy", names=names, humans=(0,)
    )
    out = io.StringIO()
    screen = PlainScreen(out=out, inp=io.StringIO(typed))
    status = Session(screen, Store(save_dir), saved).run()
    assert status == 0
    return out.getvalue()


PLAY_WORDS = ("take", "pass", "decline", "discard", "force", "no", "yes", "y", "n", "", "back")


@examples(40)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(NUMBERS_TYPED),
            st.sampled_from(PLAY_WORDS),
            st.sampled_from(HOSTILE_TEXT),
            st.sampled_from(NUMBERS_TYPED).map(lambda n: f"take {n}"),
        ),
        max_size=40,
    ),
    st.sampled_from(["standard", "standard,match=n_deals,match_target=2", "mexican"]),
)
def test_fuzz_play_prompts(typed: list[str], spec: str) -> None:
    import tempfile

    lines = [t.replace("\n", " ").replace("\r", " ") for t in typed]
    with tempfile.TemporaryDirectory() as folder:
        play_session(Path(folder), "".join(f"{line}\n" for line in lines), spec)


@pytest.mark.parametrize("typed", NUMBERS_TYPED[:6])
def test_regression_play_numbered_choice_odd_number(tmp_path: Path, typed: str) -> None:
    """L7: ``²`` or 5,000 digits at ``choose 1-2 (Enter: back)>``: refused, the game goes on."""
    # in the match of seed 1 these moves reach a take that can be made in two ways
    moves = ["take", "pass", "take", "pass", "take"]
    out = play_session(tmp_path, "\n".join([*moves, typed, "q"]) + "\n", "standard")
    assert out.count("choose 1-2 (Enter: back)> ") == 2
    assert "Type a number from 1 to 2, or press Enter to go back." in out


@examples(100)
@given(
    st.one_of(st.sampled_from(NUMBERS_TYPED), st.sampled_from(HOSTILE_TEXT), st.text(max_size=12))
)
def test_fuzz_level_menu(typed: str) -> None:
    from conquian.bots import LEVELS
    from conquian.play.session import read_level

    assert read_level(typed, list(LEVELS), "easy") in (None, *LEVELS)


# ----------------------------------------------------- the bot protocol: bot side


def run_serve(lines: list[str]) -> list[Any]:
    """``conquian bot greedy`` in-process on these input lines; its replies."""
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):
        status = serve("greedy", seed=1, stdin=stdin, stdout=stdout)
    assert status == 0
    return [strict_json(line) for line in stdout.getvalue().splitlines()]


def _expects_reply(line: str) -> bool:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("type") in ("hello", "act")


def check_session(lines: list[str], final_legal: frozenset[str]) -> None:
    """The bot answers each hello and act once, and still plays the valid ``act`` at the end."""
    replies = run_serve(lines)
    split = list(io.StringIO("".join(line + "\n" for line in lines)))
    for reply in replies:
        assert isinstance(reply, dict) and reply.get("type") in ("hello", "action", "error")
    answers = [r for r in replies if r["type"] != "error"]  # an error may answer garbage too
    assert len(answers) <= sum(_expects_reply(line) for line in split) <= len(replies), replies
    last = replies[-1]
    assert last["type"] == "action" and last["action"] in final_legal, last


@st.composite
def bot_sessions(draw: st.DrawFn) -> tuple[list[str], frozenset[str]]:
    acts = corpus()["acts"]
    new_deal, act, legal = acts[draw(st.integers(0, len(acts) - 1))]
    player = new_deal["player"]
    obs = Observation.from_dict(act["observation"])
    messages = [
        hello_message(),
        {"type": "set_option", "name": "budget_ms", "value": 50},
        new_deal,
        act,
        result_message(obs, player, None),
    ]
    lines = [json.dumps(m) for m in messages[:3]]
    for _ in range(draw(st.integers(1, 2))):
        lines.append(draw(json_variant(draw(st.sampled_from(messages)))))
    lines.append(json.dumps(act))
    return lines, legal


@examples(400)
@given(bot_sessions())
def test_fuzz_bot_side(session: tuple[list[str], frozenset[str]]) -> None:
    check_session(*session)


def _valid_start() -> tuple[list[str], dict[str, Any], frozenset[str]]:
    new_deal, act, legal = corpus()["acts"][0]
    return [json.dumps(hello_message()), json.dumps(new_deal)], act, legal


BOT_SIDE_REGRESSIONS = {
    "new_deal player [1]": '{"type":"new_deal","player":[1],"rules":"standard"}',
    "new_deal player 5,000 digits": '{"type":"new_deal","player":' + HUGE + ',"rules":"standard"}',
    "new_deal rules null": '{"type":"new_deal","player":0,"rules":null}',
    "100,000 [": "[" * 100_000,
    "3,000 [": DEEP,
    "hello with a 5,000-digit field": '{"type":"hello","x":' + HUGE + "}",
    "act with a 5,000-digit field": '{"type":"act","x":' + HUGE + "}",
    "act observation null": '{"type":"act","observation":null}',
    "act observation a list": '{"type":"act","observation":[1]}',
    "act time_limit_ms NaN": '{"type":"act","time_limit_ms":NaN,"observation":{}}',
    "set_option value Infinity": '{"type":"set_option","name":"budget_ms","value":Infinity}',
    "set_option value 5,000 digits": '{"type":"set_option","name":"budget_ms","value":'
    + HUGE
    + "}",
    "new_deal time_limit_ms -Infinity": '{"type":"new_deal","player":0,"rules":"standard",'
    '"time_limit_ms":-Infinity}',
}


@pytest.mark.parametrize("line", BOT_SIDE_REGRESSIONS.values(), ids=BOT_SIDE_REGRESSIONS)
def test_regression_bot_side(line: str) -> None:
    """F2: the bot ignores or answers ``error`` to a bad line, and plays on."""
    start, act, legal = _valid_start()
    check_session([*start, line, json.dumps(act)], legal)


def test_regression_bot_side_empty_legal_actions() -> None:
    """F2: an ``act`` whose observation has no legal action gets an ``error`` reply."""
    start, act, legal = _valid_start()
    empty = json.loads(json.dumps(act))
    empty["legal_actions"] = []
    empty["observation"]["legal_actions"] = []
    replies = run_serve([*start, json.dumps(empty), json.dumps(act)])
    assert replies[1]["type"] == "error" and replies[2]["action"] in legal


def test_regression_bot_side_process_garbage() -> None:
    """F2 as a real process: ``conquian bot greedy`` exits 0 after garbage, no traceback."""
    start, act, legal = _valid_start()
    lines = [
        *start,
        *BOT_SIDE_REGRESSIONS.values(),
        json.dumps(act),
        '{"type":"quit"}',
    ]
    done = subprocess.run(
        [sys.executable, "-m", "conquian.cli", "bot", "greedy"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr[-800:]
    assert done.returncode == 0
    replies = [strict_json(line) for line in done.stdout.splitlines()]
    assert replies[-1]["type"] == "action" and replies[-1]["action"] in legal


# ---------------------------------------------------- the bot protocol: host side


class FakeProcess:
    """Stands in for the bot program: answers ``hello`` and ``act`` with scripted lines, and
    writes scripted bytes to a real stderr pipe, read by the engine's own reader
    (:func:`~conquian.bots.protocol.read_stderr`) as a real program's stderr is.

    ``stderr`` maps ``hello`` and ``act`` to the bytes written before answering them, and
    ``end`` to those written after stdout closes (or when the engine stops the program).
    """

    script: ClassVar[dict[str, list[str | None]]] = {}
    stderr: ClassVar[dict[str, bytes]] = {}
    started: ClassVar[list[FakeProcess]] = []

    def __init__(self, argv: list[str], cwd: str | None) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=protocol.STDERR_LINES)
        self.stderr_written = bytearray()
        self.alive = True
        read_end, self._stderr_end = os.pipe()
        self._stderr_reader = threading.Thread(target=self._read_stderr, args=(read_end,))
        self._stderr_reader.start()
        self.started.append(self)

    def _read_stderr(self, read_end: int) -> None:
        with open(read_end, encoding="utf-8", errors="replace") as stream:  # as Popen opens it
            protocol.read_stderr(stream, self.stderr_tail)

    def _write_stderr(self, data: bytes) -> None:
        if self._stderr_end >= 0 and data:
            with open(self._stderr_end, "wb", closefd=False) as stream:
                stream.write(data)  # the reader drains the pipe meanwhile
            self.stderr_written += data

    def _end_stderr(self) -> None:
        """The last words, then the program's end: the reader reads to the end of stderr."""
        if self._stderr_end >= 0:
            self._write_stderr(self.stderr.get("end", b""))
            os.close(self._stderr_end)
            self._stderr_end = -1
        self._stderr_reader.join()

    def send(self, message: dict[str, Any]) -> None:
        json.dumps(message, allow_nan=False)  # the host writes JSON
        kind = message.get("type", "")
        self._write_stderr(self.stderr.get(kind, b""))
        for line in self.script.get(kind, []):
            self.lines.put(line)

    def running(self) -> bool:
        return self.alive

    def stop(self, grace_s: float) -> None:
        self.alive = False
        self._end_stderr()

    def exit_text(self) -> str:
        self._end_stderr()  # stdout has closed: the program ends
        return protocol._exit_text(0, self.stderr_tail)


HELLO_REPLY = '{"type":"hello","protocol":1,"name":"fake","options":{}}'


def expected_stderr_tail(data: bytes) -> list[str]:
    """What the host keeps of ``data`` written to a bot's stderr, worked out on the whole
    text at once: its last non-blank lines, each cut to the kept length."""
    text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    lines = [line[: protocol.STDERR_LINE_CHARS].rstrip() for line in text.split("\n")]
    return [line for line in lines if line][-protocol.STDERR_LINES :]


def host_act(
    monkeypatch: pytest.MonkeyPatch,
    hello: list[str | None],
    act: list[str | None],
    stderr: dict[str, bytes] | None = None,
) -> Action | BotFailure:
    """The host's answer to the scripted bot: the chosen action, or the BotFailure.

    Whatever the bot wrote to stderr, the host kept its last lines, each cut (bounded)."""
    monkeypatch.setattr(protocol, "_Process", FakeProcess)
    FakeProcess.script = {"hello": hello, "act": act}
    FakeProcess.stderr = stderr or {}
    FakeProcess.started = []
    obs: Observation = corpus()["last_obs"]
    bot = ExternalBot("fake-bot", time_limit_ms=20, handshake_timeout_s=0.02)
    try:
        bot.new_deal(obs.viewer, obs.rules)
        return bot.act(obs)
    except BotFailure as exc:
        assert str(exc).startswith("external bot ")
        _, _, last_words = str(exc).partition("(last stderr line: ")
        # the last line shortened to 120 characters, each escaped in at most 10 (\U0001abcd)
        assert len(last_words) <= 10 * 120 + 40
        return exc
    finally:
        bot.close()
        for process in FakeProcess.started:
            assert list(process.stderr_tail) == expected_stderr_tail(process.stderr_written)


STDERR_PIECES = (
    b"e" * (protocol.STDERR_LINE_CHARS + 1),  # just over the kept length
    b"e" * 70_000,  # over a pipe's buffer, no newline
    "\u00e9".encode() * 3000,  # two bytes a character
    b"\x00" * 3000,
    b"\xed\xa0\x80",  # a lone surrogate, as CESU bytes (not UTF-8)
    b"\xff\xfe\xc0\xaf",  # never UTF-8
    b"\xe2\x82",  # a character cut short
    b"x\n" * 2000,  # many short lines
    b"\n" * 100,
    b"\r",
    b"\r\n",
    b"out of cheese\n",
)


@st.composite
def stderr_bytes(draw: st.DrawFn) -> bytes:
    """What a hostile bot writes to stderr at one moment (rarely a 3 MiB line)."""
    if draw(st.integers(0, 40)) == 0:
        return b"e" * (3 << 20)
    pieces = st.one_of(st.sampled_from(STDERR_PIECES), st.binary(max_size=200))
    return b"".join(draw(st.lists(pieces, max_size=4)))


@st.composite
def bot_replies(draw: st.DrawFn) -> tuple[list[str | None], list[str | None]]:
    obs: Observation = corpus()["last_obs"]
    legal = [str(a) for a in obs.legal_actions]
    good = {"type": "action", "action": draw(st.sampled_from(legal)), "info": "fuzz"}
    hello: list[str | None] = [HELLO_REPLY]
    act: list[str | None] = []
    if draw(st.integers(0, 4)) == 0:
        hello = [draw(json_variant(json.loads(HELLO_REPLY)))]
    if draw(st.booleans()):
        act.append(draw(json_variant({"type": "info", "text": "thinking"})))
    act.append(draw(json_variant(good)))
    act.append(draw(st.sampled_from([None, json.dumps(good), "garbage"])))
    return hello, act


@examples(300)
@given(bot_replies(), st.dictionaries(st.sampled_from(["hello", "act", "end"]), stderr_bytes()))
def test_fuzz_host_side(
    replies: tuple[list[str | None], list[str | None]], stderr: dict[str, bytes]
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        answer = host_act(monkeypatch, *replies, stderr)
    if not isinstance(answer, BotFailure):
        assert answer in corpus()["last_obs"].legal_actions


HOST_SIDE_REGRESSIONS = {
    "action reply with a 5,000-digit field": '{"type":"action","action":"ACTION","n":' + HUGE + "}",
    "200,000 [": "[" * 200_000,
    "3,000 [": DEEP,
    "NaN action": '{"type":"action","action":NaN}',
    "action a list": '{"type":"action","action":["ACTION"]}',
}


@pytest.mark.parametrize("line", HOST_SIDE_REGRESSIONS.values(), ids=HOST_SIDE_REGRESSIONS)
def test_regression_host_side(monkeypatch: pytest.MonkeyPatch, line: str) -> None:
    """F1: one bad reply line is the bot's fault (BotFailure), never the host's crash."""
    legal = str(corpus()["last_obs"].legal_actions[0])
    answer = host_act(monkeypatch, [HELLO_REPLY], [line.replace("ACTION", legal)])
    assert isinstance(answer, BotFailure)


HOSTILE_STDERR = {
    "3 MiB without a newline, then a line": b"e" * (3 << 20) + b"\nthe end\n",
    "3 MiB of two-byte characters": "\u00e9".encode() * (3 << 20),
    "NUL": b"\x00" * 5000,
    "a lone surrogate": b"\xed\xa0\x80\n",
    "invalid UTF-8": b"\xff\xfeok\xc0\n",
    "20,000 short lines": b"".join(b"line %d\n" % i for i in range(20_000)),
    "a long line of blanks, then a line": b" " * 5000 + b"x\nafter\n",
}


@pytest.mark.parametrize("when", ["act", "end"])
@pytest.mark.parametrize("data", HOSTILE_STDERR.values(), ids=HOSTILE_STDERR)
def test_regression_host_side_stderr(
    monkeypatch: pytest.MonkeyPatch, data: bytes, when: str
) -> None:
    """M3: whatever a bot writes to stderr (while it plays, or after its stdout closes),
    the host keeps its last lines, each cut, and the failure quotes the last one shortened."""
    answer = host_act(monkeypatch, [HELLO_REPLY], [None], {when: data})
    assert isinstance(answer, BotFailure)
    kept = list(FakeProcess.started[0].stderr_tail)
    assert 0 < sum(map(len, kept)) <= protocol.STDERR_LINES * protocol.STDERR_LINE_CHARS
    assert f"(last stderr line: {protocol._shorten(kept[-1])!r})" in str(answer)


def test_regression_host_side_real_process() -> None:
    """F1 through a real pipe: a bot program that sends a 5,000-digit number, then 200,000
    ``[``, forfeits twice; the host goes on."""
    code = textwrap.dedent(
        """
        import sys
        bad = ['{"type":"action","action":"decline","n":' + "9" * 5000 + "}", "[" * 200000]
        for line in sys.stdin:
            if '"hello"' in line:
                print('{"type":"hello","protocol":1,"name":"bad"}', flush=True)
            elif '"act"' in line:
                print(bad.pop(0) if bad else "{}", flush=True)
        """
    )
    obs: Observation = corpus()["last_obs"]
    with ExternalBot([sys.executable, "-c", code], time_limit_ms=5000) as bot:
        for _ in range(2):
            bot.new_deal(obs.viewer, obs.rules)
            with pytest.raises(BotFailure):
                bot.act(obs)


# ------------------------------------------------------------------ websocket

web = pytest.importorskip("conquian.web.app")


class Seats:
    """The two seats of a game on an in-process server: a fresh socket for each message."""

    def __init__(self, client: Any, game_id: str, tokens: dict[int, str]) -> None:
        self.client, self.game_id, self.tokens = client, game_id, tokens

    @contextlib.contextmanager
    def socket(self, seat: int) -> Iterator[Any]:
        """A connection of ``seat`` that has said hello and read the state."""
        hello = json.dumps({"type": "hello", "token": self.tokens[seat]})
        with self.client.websocket_connect(f"/ws/{self.game_id}") as ws:
            received = ws_exchange(ws, hello)  # the seat token goes in the first message
            if any(m["type"] == "state" and m["seat"] == seat for m in received):
                yield ws
                return
        # a server from before the hello message takes the token in the URL
        url = f"/ws/{self.game_id}?token={self.tokens[seat]}"
        with self.client.websocket_connect(url) as ws:
            received = ws_exchange(ws, "{}")
            assert any(m["type"] == "state" and m["seat"] == seat for m in received)
            yield ws


@contextlib.contextmanager
def friend_game(tmp_path: Path) -> Iterator[tuple[Any, Any, Seats]]:
    """A web server in-process on a SQLite file, a friend game (both seats taken): the
    client, the game as the server holds it, and its seats."""
    from starlette.testclient import TestClient

    with TestClient(web.create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", bot_delay=0)) as c:
        made = c.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
        joined = c.post(f"/api/games/{made['id']}/join", json={"name": "Ben"}).json()
        seats = Seats(c, made["id"], {made["seat"]: made["token"], joined["seat"]: joined["token"]})
        with seats.socket(0):  # the game is live while a socket is open; keep it so
            with seats.socket(1):  # both have said hello: the first deal is dealt
                pass
            yield c, c.app.state.hub.rooms[made["id"]].live, seats


_pings = itertools.count()


def ws_exchange(ws: Any, text: str) -> list[Any]:
    """Send ``text``, then a ping: every message until its pong (the connection goes on)."""
    ws.send_text(text)
    sentinel = f"sentinel-{next(_pings)}"
    ws.send_text(json.dumps({"type": "ping", "id": sentinel}))
    received = []
    while True:
        message = strict_json(ws.receive_text())
        assert isinstance(message, dict) and message.get("type") in (
            "state",
            "error",
            "pong",
            "hint",
        ), message
        if message == {"type": "pong", "id": sentinel}:
            return received
        received.append(message)


def check_ws(live: Any, seats: Seats, seat: int, text: str) -> None:
    history = list(live.game.history)
    deal = live.match.deal_number
    shuffles = dict(live.shuffles)
    with seats.socket(seat) as ws:
        received = ws_exchange(ws, text)
    if live.game.history != history:  # only a legal act may change the game, and is acked
        assert any(m["type"] == "state" and "ack" in m for m in received), received
        if live.match.deal_number == deal:  # (an act that ends a deal starts the next)
            assert live.game.history[: len(history)] == history
    for deal, shuffle in shuffles.items():  # a seed given is never changed, nor another seat's
        now = live.shuffles[deal]
        assert (now.server_seed, now.commitment) == (shuffle.server_seed, shuffle.commitment)
        for other, before in enumerate(shuffle.client_seeds):
            if before is not None or other != seat:
                assert now.client_seeds[other] == before, (deal, other, text[:80])


_LEGAL = "LEGAL-ACTION"
"""Stands for a legal action of the moment (put in after drawing, which must not depend on
the game, whose position moves on from one example to the next)."""
WS_BASES = (
    {"type": "act", "action": _LEGAL, "id": 7},
    {"type": "act", "action": "decline", "id": "a"},
    {"type": "act", "action": "take 5c6c7c"},
    {"type": "ping", "id": 1},
    {"type": "rematch"},
    {"type": "hello", "token": "AAAAAAAAAAAAAAAAAAAAAAAA"},
    {"type": "seed", "deal": 2, "seed": "0123456789abcdef"},
    {"type": "hello", "token": "AAAAAAAAAAAAAAAAAAAAAAAA", "seed": "ff" * 16},
)


def ws_messages() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(WS_BASES).flatmap(json_variant), st.sampled_from(HOSTILE_TEXT))


def with_legal(text: str, live: Any) -> str:
    legal = [str(a) for a in live.game.legal_actions()] or ["decline"]
    return text.replace(_LEGAL, legal[len(text) % len(legal)])


def test_fuzz_websocket_messages(tmp_path: Path) -> None:
    with friend_game(tmp_path) as (_, live, seats):

        @examples(400)
        @given(st.integers(0, 1), ws_messages())
        def fuzz(seat: int, text: str) -> None:
            check_ws(live, seats, seat, with_legal(text, live))

        fuzz()


WS_REGRESSIONS = {
    "3,000 [": DEEP,
    "3,000 [ in an act": '{"type":"act","action":' + DEEP,
    "ping id NaN": '{"type":"ping","id":NaN}',
    "ping id 1e999": '{"type":"ping","id":1e999}',
    "ping id -Infinity": '{"type":"ping","id":-Infinity}',
    "legal act, id NaN": '{"type":"act","action":"' + _LEGAL + '","id":NaN}',
    "legal act, id 1e999": '{"type":"act","action":"' + _LEGAL + '","id":1e999}',
    "legal act, id 7": '{"type":"act","action":"' + _LEGAL + '","id":7}',
    "legal act, no id": '{"type":"act","action":"' + _LEGAL + '"}',
    "ping id 4,000 digits": '{"type":"ping","id":' + "9" * 4000 + "}",
}


@pytest.mark.parametrize("text", WS_REGRESSIONS.values(), ids=WS_REGRESSIONS)
def test_regression_websocket(tmp_path: Path, text: str) -> None:
    """F3 and F8: an error (or pong) in JSON, nothing changed, and the connection goes on."""
    with friend_game(tmp_path) as (_, live, seats):
        for seat in (0, 1):
            check_ws(live, seats, seat, with_legal(text, live))


@pytest.mark.parametrize("msg_id", [7, "a", None])
def test_regression_websocket_a_legal_act_is_acked(tmp_path: Path, msg_id: Any) -> None:
    """A legal act is played and acknowledged with its id (and the connection goes on)."""
    with friend_game(tmp_path) as (_, live, seats):
        for _ in range(3):
            seat = live.game.state.to_act
            message: dict[str, Any] = {"type": "act", "action": str(live.game.legal_actions()[0])}
            if msg_id is not None:
                message["id"] = msg_id
            before = len(live.game.history)
            with seats.socket(seat) as ws:
                received = ws_exchange(ws, json.dumps(message))
            assert len(live.game.history) == before + 1
            acks = [m["ack"] for m in received if m["type"] == "state" and "ack" in m]
            assert acks == [msg_id], received


JSON_HEADERS = {"Content-Type": "application/json"}
HTTP_BASES = (
    {"mode": "friend", "name": "Ana", "rules": "standard"},
    {"mode": "bot", "level": "easy", "name": "Ana"},
    {"name": "Ben", "invite": "AAAAAAAAAAAA"},
)


@st.composite
def http_bodies(draw: st.DrawFn) -> str:
    return draw(
        st.one_of(json_variant(draw(st.sampled_from(HTTP_BASES))), st.sampled_from(HOSTILE_TEXT))
    )


def test_fuzz_http_bodies(tmp_path: Path) -> None:
    with friend_game(tmp_path) as (client, _, seats):
        game_id = seats.game_id

        @examples(150)
        @given(http_bodies(), st.booleans())
        def fuzz(body: str, join: bool) -> None:
            url = f"/api/games/{game_id}/join" if join else "/api/games"
            answer = client.post(
                url, content=body.encode("utf-8", "surrogatepass"), headers=JSON_HEADERS
            )
            assert answer.status_code in (200, 201, 400, 404, 409, 413), (answer, body[:80])
            strict_json(answer.text)

        fuzz()


@pytest.mark.parametrize("body", [DEEP, "[" * 4000, '{"name":' + DEEP + "}"])
def test_regression_http_deep_nesting(tmp_path: Path, body: str) -> None:
    """F3: a deeply nested body is a 400, not a 500."""
    with friend_game(tmp_path) as (client, _, seats):
        game_id = seats.game_id
        for url in ("/api/games", f"/api/games/{game_id}/join"):
            answer = client.post(url, content=body, headers=JSON_HEADERS)
            assert answer.status_code == 400, (url, answer.status_code)


PATH_TOKENS = ("1", "\u00b2", "\u278b", "\u0663", "\uff11", "1" * 5000, "1" * 10, "%ED%A0%80", "..")


def test_fuzz_http_paths(tmp_path: Path) -> None:
    """L1 and the like: whatever a path holds where a deal's number (of a finished game) or
    a game's id goes, the answer is a documented status with a JSON error, never a 500."""
    from starlette.testclient import TestClient
    from web_helpers import finished_bot_game

    with TestClient(web.create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", bot_delay=0)) as c:
        game_id = finished_bot_game(c, 2)

        @examples(150)
        @given(
            st.sampled_from(["records/{}", "replay/{}", "{}", "{}/records", "{}/join"]),
            st.one_of(st.sampled_from(PATH_TOKENS + HOSTILE_TEXT), st.text(max_size=12)),
        )
        def fuzz(route: str, token: str) -> None:
            path = route.format(urllib.parse.quote(token, safe="%", errors="surrogatepass"))
            if route.startswith(("records", "replay")):  # a deal of the finished game
                path = f"{game_id}/{path}"
            answer = c.get(f"/api/games/{path}")
            assert answer.status_code in (200, 400, 403, 404, 405), (answer, path[:80])
            if answer.status_code != 200 and answer.headers["content-type"].startswith("app"):
                assert strict_json(answer.text)["error"]

        fuzz()
