"""The tactics suite: every level from ``medium`` up finds the clearly right move.

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
from conquian.notation import parse_position
from conquian.observation import observe

DATA = Path(__file__).parent / "data" / "tactics.toml"
POSITIONS: list[dict[str, Any]] = tomllib.loads(DATA.read_text("utf-8"))["position"]
LEVELS: dict[str, Budget | None] = {
    "medium": None,
    "hard": Budget(iterations=50),
    "expert": Budget(iterations=150),
}
THEMES = {"no_feed", "take_out", "no_force_out", "no_unsafe_take"}


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
