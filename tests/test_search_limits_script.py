"""``scripts/search_limits.py``: the variants of the search measured against ``greedy``."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from conquian.actions import ActionKind
from conquian.bots.base import Budget
from conquian.bots.features import keep_score
from conquian.cards import ALL_CARDS_MASK
from conquian.game import Game
from conquian.state import GameState, Phase

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
from search_limits import JointSearch, likeliest_discards, play_deal


def test_every_variant_plays_whole_legal_deals() -> None:
    """Each game of a duplicate deal ends (Game.push checks every move), with a result."""
    for spec in ("joint:4", "search:4", "told:4"):
        results = play_deal((spec, 14, 3))
        assert len(results) == 2 and all(r in (1, -1, None) for r in results), spec


def test_the_likeliest_discards_put_a_card_that_feeds_the_next_table_behind_its_equal() -> None:
    """After a take, the discards the joint search tries first: every legal discard once, and
    of two cards worth the same to the hand, the one that fits the next player's table later."""

    def feeding(state: GameState, card: int) -> bool:
        return any(m | 1 << card in state.melds.valid for m in state.tables[1 - state.to_act])

    def worth(state: GameState, card: int) -> float:
        melded = state.dead_mask
        for mask in state.table_masks:
            melded |= mask
        return keep_score(card, state.hands[state.to_act], ALL_CARDS_MASK & ~melded)

    seed, checked = 5, 0
    state = Game("standard", seed=seed, dealer=0).state
    while checked < 5:  # positions with two equal cards, one feeding and one not
        legal = state.legal_actions()
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        state.apply(takes[0] if takes else legal[0])
        if state.phase is Phase.DISCARD:
            ranked = [a.card for a in likeliest_discards(state)]
            assert sorted(ranked) == sorted(a.card for a in state.legal_actions())
            for i, x in enumerate(ranked):
                for y in ranked[i + 1 :]:
                    if worth(state, x) == worth(state, y) and feeding(state, x) != feeding(
                        state, y
                    ):
                        assert not feeding(state, x), (x, y)
                        checked += 1
        if state.is_over:
            seed += 1
            state = Game("standard", seed=seed, dealer=0).state


def test_the_joint_search_answers_with_a_legal_action() -> None:
    game = Game("standard", seed=9, dealer=1)
    bot = JointSearch(rng=random.Random(1), budget=Budget(iterations=4))
    for player in (0, 1):
        bot.new_deal(player, game.rules)
    seen = 0
    while not game.state.is_over and seen < 30:
        obs = game.observation(game.state.to_act)
        action = bot.act(obs)
        assert action in obs.legal_actions
        game.push(action)
        seen += 1
    assert seen > 5
