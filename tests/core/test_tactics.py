"""The tactics suite: every level finds the clearly right move (a slip of the lower levels
never loses at once).

The positions are in ``data/tactics.toml`` (see its header). The search levels run with
an iteration budget and no time limit, so that the machine's load cannot change a choice.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from conquian.actions import Action
from conquian.bots import make_bot
from conquian.bots.base import Budget
from conquian.bots.heuristic import HeuristicBot
from conquian.notation import parse_position
from conquian.observation import observe

DATA = Path(__file__).parent / "data" / "tactics.toml"
POSITIONS: list[dict[str, Any]] = tomllib.loads(DATA.read_text("utf-8"))["position"]
LEVELS: dict[str, Budget | None] = {
    "beginner": None,
    "easy": None,
    "medium": None,
    "hard": None,
    "expert": Budget(iterations=150),
}
"""Every level: the lower ones slip, but never with a move that loses at once."""
THEMES = {"no_feed", "take_out", "no_force_out", "no_unsafe_take", "hidden_meld"}


def _ids() -> list[str]:
    return [f"{i}-{p['theme']}" for i, p in enumerate(POSITIONS)]


def test_suite_is_well_formed() -> None:
    assert len(POSITIONS) >= 12
    assert {p["theme"] for p in POSITIONS} == THEMES
    for item in POSITIONS:
        state = parse_position(item["position"])
        state.validate()
        legal = state.legal_actions()
        right = [Action.parse(text) for text in item["right"]]
        assert right and all(a in legal for a in right), item["position"]
        assert len(right) < len(legal), "a position where every move is right tests nothing"
        assert item["why"].strip()


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("item", POSITIONS, ids=_ids())
def test_level_finds_the_right_move(level: str, item: dict[str, Any]) -> None:
    state = parse_position(item["position"])
    player = state.to_act
    obs = observe(state, player)
    right = {Action.parse(text) for text in item["right"]}
    for seed in (1, 2):
        bot = make_bot(level, rng=random.Random(seed), budget=LEVELS[level])
        bot.new_deal(player, state.rules)
        action = bot.act(obs)
        assert action in right, f"{level} played {action} ({item['why']})"


@pytest.mark.parametrize("item", POSITIONS, ids=_ids())
def test_a_slip_is_never_a_move_that_loses_at_once(item: dict[str, Any]) -> None:
    state = parse_position(item["position"])
    player = state.to_act
    obs = observe(state, player)
    right = {Action.parse(text) for text in item["right"]}
    played = set()
    for seed in range(12):
        bot = HeuristicBot(rng=random.Random(seed))
        bot.slip = 1.0
        bot.new_deal(player, state.rules)
        played.add(bot.act(obs))
    assert played <= right, f"a slip played {played - right} ({item['why']})"
    if item["theme"] == "no_feed" and len(right) > 1:
        assert len(played) > 1, "a careless discard picks among the safe cards"
