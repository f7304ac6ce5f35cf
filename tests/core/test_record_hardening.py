"""Game and match records with hostile numbers and nesting: refused with a RecordError that
names what is wrong, never another exception."""

from __future__ import annotations

import random
import re

import pytest

from conquian import Game, GameRecord, Match, MatchRecord, RecordError
from conquian.records import MAX_SEED, MAX_STAKE

HUGE = "9" * 5000  # more digits than Python reads by default (4300)
FAR = "9" * 4000  # readable, but far out of any range a record uses


def game_record_text() -> str:
    game = Game(seed=3, players=("ana", "ben"))
    rng = random.Random(3)
    for _ in range(5):
        game.push(rng.choice(game.legal_actions()))
    return GameRecord.from_game(game, event="test").dumps()


def match_record_text() -> str:
    match = Match(seed=17, players=("ana", "ben"))
    rng = random.Random(17)
    game = match.new_game()
    while not game.state.is_over:
        game.push(rng.choice(game.legal_actions()))
    match.settle()
    match.new_game().push(match.deal.legal_actions()[0])  # type: ignore[union-attr]
    return MatchRecord.from_match(match).dumps()


def set_field(text: str, key: str, value: str) -> str:
    """``text`` with every ``key = ...`` line's value replaced."""
    changed, count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", text)
    assert count, key
    return changed


GAME_CASES = [
    ("stake", HUGE, "more than 4300 digits"),
    ("dealer", HUGE, "more than 4300 digits"),
    ("seed", HUGE, "more than 4300 digits"),
    ("seed", "-" + HUGE, "more than 4300 digits"),
    ("stake", FAR, "'stake'"),
    ("seed", FAR, "'seed'"),
    ("seed", "-" + FAR, "'seed'"),
    ("seed", str(MAX_SEED), "'seed'"),
    ("stake", str(MAX_STAKE + 1), "'stake'"),
    ("dealer", FAR, "'dealer'"),
    ("players", "[" * 5000, "nests too deeply"),
    ("actions", "[" * 200000, "nests too deeply"),
    ("result", "{a = " * 3000 + "1" + "}" * 3000, "nests too deeply"),
    ("deck", "[[[[[[[1]]]]]]]", "'deck'"),
]


@pytest.mark.parametrize(("key", "value", "message"), GAME_CASES)
def test_game_record_refuses_hostile_values(key: str, value: str, message: str) -> None:
    text = set_field(game_record_text(), key, value)
    with pytest.raises(RecordError) as caught:
        GameRecord.loads(text)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 400  # the value is not quoted whole


def test_game_record_refuses_hostile_meta() -> None:
    text = game_record_text() + "deep = " + "[" * 100000 + "\n"
    with pytest.raises(RecordError, match="nests too deeply"):
        GameRecord.loads(text)
    text = game_record_text() + f"number = {HUGE}\n"
    with pytest.raises(RecordError, match="4300 digits"):
        GameRecord.loads(text)


def test_game_record_refuses_a_meta_number_too_long_to_write() -> None:
    # a hexadecimal integer is read whatever its length, but cannot be written in decimal
    text = game_record_text() + "number = 0x" + "f" * 4000 + "\n"
    with pytest.raises(RecordError, match="meta field 'number'"):
        GameRecord.loads(text)
    text = set_field(game_record_text(), "dealer", "0x" + "f" * 4000)
    with pytest.raises(RecordError, match="'dealer' must be 0 or 1, got a number of 16000 bits"):
        GameRecord.loads(text)


def test_game_record_refuses_an_action_line_with_a_huge_player_number() -> None:
    text = game_record_text()
    first = re.search(r'(?m)^  "(p\d) ', text)
    assert first is not None
    text = text.replace(f'"{first.group(1)} ', f'"p{HUGE} ', 1)
    record = GameRecord.loads(text)
    with pytest.raises(RecordError, match="Action 1") as caught:
        record.replay()
    assert "p0 <action>" in str(caught.value) and len(str(caught.value)) < 400


def test_seeds_and_stakes_in_range_still_load() -> None:
    text = game_record_text()
    for seed in (0, 2**64 - 1, -5, MAX_SEED - 1, -(MAX_SEED - 1)):
        record = GameRecord.loads(set_field(text, "seed", str(seed)))
        assert record.seed == seed
    record = GameRecord.loads(set_field(text, "stake", str(MAX_STAKE)))
    assert record.stake == MAX_STAKE
    record.replay()  # the deck is the record's, so any seed replays


MATCH_CASES = [
    ("seed", HUGE, "more than 4300 digits"),
    ("seed", FAR, "'seed'"),
    ("balance", f"[{HUGE}, 1]", "more than 4300 digits"),
    ("balance", f"[{FAR}, -{FAR}]", "'balance'"),
    ("stake", HUGE, "more than 4300 digits"),
    ("stake", FAR, "'stake'"),
    ("dealer", FAR, "'dealer'"),
    ("players", "[" * 5000, "nests too deeply"),
    ("rules", "[" * 200000, "nests too deeply"),
]


@pytest.mark.parametrize(("key", "value", "message"), MATCH_CASES)
def test_match_record_refuses_hostile_values(key: str, value: str, message: str) -> None:
    text = set_field(match_record_text(), key, value)
    with pytest.raises(RecordError) as caught:
        MatchRecord.loads(text)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 400


def test_match_record_refuses_deep_deal_tables() -> None:
    text = match_record_text() + "\n[[deal]]\nx = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n"
    with pytest.raises(RecordError, match="nests too deeply"):
        MatchRecord.loads(text)


def test_a_match_record_in_range_still_loads_and_replays() -> None:
    text = match_record_text()
    again = MatchRecord.loads(text)
    assert again.dumps() == text
    again.to_match()
