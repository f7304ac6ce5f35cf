"""The search's hand model with three and four players: one model per other player."""

from __future__ import annotations

import random

import pytest

from conquian.bots import make_bot
from conquian.bots.features import Knowledge, discard_danger
from conquian.bots.search import HandModel, HandsSampler, hidden_card_weights
from conquian.cards import ALL_CARDS_MASK
from conquian.game import Game
from conquian.melds import meld_table
from conquian.observation import observe
from conquian.sample import determinize
from conquian.state import Phase


def played(rules: str, seed: int, bots: tuple[str, ...], stop: int) -> Game:
    """A game of ``rules`` played by ``bots`` for ``stop`` actions (or to its end)."""
    game = Game(rules, seed=seed, dealer=seed % len(bots))
    players = [make_bot(name, rng=random.Random(seed * 10 + p)) for p, name in enumerate(bots)]
    while not game.state.is_over and len(game.history) < stop:
        p = game.state.to_act
        game.push(players[p].act(game.observation(p)))
    return game


@pytest.mark.parametrize(
    ("rules", "n"), [("tercerilla", 3), ("mexican,num_players=4,hand_size=7", 4)]
)
def test_sampled_hands_agree_with_the_observation(rules: str, n: int) -> None:
    rng = random.Random(2)
    checked = 0
    for seed in range(6):
        for stop in (1, 4, 9, 16, 25):
            game = played(rules, seed, ("heuristic",) * n, stop)
            if game.state.is_over:
                continue
            for viewer in range(n):
                obs = game.observation(viewer)
                sampler = HandsSampler(obs, rng)
                for _ in range(4):
                    hands = sampler.draw()
                    assert sorted(hands) == sorted(obs.others)
                    union = 0
                    unseen = ALL_CARDS_MASK & ~obs.seen_mask & ~obs.hand_mask
                    for p, hand in hands.items():
                        assert hand.bit_count() == obs.hand_counts[p]
                        assert not hand & union and not hand & ~unseen
                        union |= hand
                    passed = obs.passed >= 0 and obs.phase is not Phase.EXCHANGE
                    if passed and unseen >> obs.passed & 1:  # passed, not seen since
                        assert hands[obs.opponent] >> obs.passed & 1
                    state = determinize(obs, hands, rng)
                    state.validate()
                    assert [state.hands[p] for p in obs.others] == [hands[p] for p in obs.others]
                    assert observe(state, viewer).to_dict() == observe(game.state, viewer).to_dict()
                    checked += 1
    assert checked > 100


def test_each_other_player_has_his_own_model() -> None:
    """Player 2 (the seat before player 0) refused cards: hands of player 2 that could have
    melded them are drawn far less often than at random, and player 1 is not judged by them."""
    for seed in range(40):
        for stop in range(60, 5, -1):
            game = played("tercerilla", seed, ("heuristic",) * 3, stop)
            if game.state.is_over:
                continue
            obs = game.observation(0)
            model_2 = HandModel(obs, 2)
            if len(model_2.refusals) >= 2 and obs.hand_counts[2] >= 5:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no position where player 2 refused two cards")
    model_1 = HandModel(obs, 1)
    assert model_1.refusals != model_2.refusals
    rng = random.Random(5)
    sampler = HandsSampler(obs, rng)
    drawn = [sampler.draw() for _ in range(400)]
    uniform = []
    for _ in range(400):
        cards = sorted(sampler.weights[1])  # the live cards
        rng.shuffle(cards)
        uniform.append(sum(1 << c for c in cards[: obs.hand_counts[2]]))
    sampled_odds = sum(model_2.odds(h[2]) for h in drawn) / len(drawn)
    uniform_odds = sum(model_2.odds(h) for h in uniform) / len(uniform)
    assert sampled_odds > 1.5 * uniform_odds


def test_the_weights_are_per_player() -> None:
    game = played("tercerilla", 3, ("heuristic",) * 3, 30)
    obs = game.observation(0)
    k = Knowledge.from_observation(obs)
    assert [r.player for r in k.rivals] == [1, 2]
    assert k.opp_table == k.rivals[0].table and k.opp_refused == k.rivals[0].refused
    one, two = (hidden_card_weights(k, r) for r in k.rivals)
    assert one.keys() == two.keys() == set(hidden_card_weights(k))
    assert hidden_card_weights(k) == one


def test_a_discard_is_judged_by_every_player_it_is_offered_to() -> None:
    """A card that fits the table of the seat before is dangerous, not only the next seat's."""
    for seed in range(60):
        game = played("tercerilla", seed, ("greedy",) * 3, 40)
        if game.state.is_over or not game.state.tables[2]:
            continue
        obs = game.observation(0)
        k = Knowledge.from_observation(obs)
        melds = meld_table(obs.rules.max_seq_len)
        fitting = [
            c for c in range(40)
            if any(m | 1 << c in melds.valid for m in obs.tables[2])
            and not any(m | 1 << c in melds.valid for m in obs.tables[1])
        ]  # fmt: skip
        if fitting:
            assert discard_danger(k, melds, fitting[0]) == 0.9
            return
    raise AssertionError("no position with a card fitting only player 2's table")


def test_search_plays_three_and_four_player_games_to_the_end() -> None:
    for rules, n in (("tercerilla", 3), ("mexican,num_players=4,hand_size=7", 4)):
        game = Game(rules, seed=8)
        bots = [make_bot("hard", rng=random.Random(p)) for p in range(n)]
        while not game.state.is_over:
            p = game.state.to_act
            action = bots[p].act(game.observation(p))
            assert action in game.state.legal_actions()
            game.push(action)
        assert game.state.outcome() is not None
