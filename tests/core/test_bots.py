"""The bot ladder: legality, secrecy, reproducibility and a few tactical checks."""

from __future__ import annotations

import random

import pytest

from conquian import Game, find_rules, observe, parse_position
from conquian.actions import ActionKind
from conquian.bots import BOT_NAMES, LEVELS, Budget, make_bot
from conquian.bots.features import Knowledge, keep_score
from conquian.bots.search import (
    DISCARD_WEIGHT,
    HandModel,
    HandSampler,
    determinize,
    hidden_card_weights,
    refusal_conflicts,
)
from conquian.cards import parse_cards_mask
from conquian.errors import ConquianError

FAST = Budget(iterations=6)


def play_game(names: tuple[str, str], seed: int, rules: str = "standard") -> Game:
    bots = [
        make_bot(name, rng=random.Random(seed * 7 + i), budget=FAST) for i, name in enumerate(names)
    ]
    game = Game(rules, seed=seed, dealer=seed % 2)
    for seat, bot in enumerate(bots):
        bot.new_deal(seat, game.rules)
    while not game.state.is_over:
        seat = game.state.to_act
        obs = game.observation(seat)
        bot = bots[seat]
        action = bot.act_with_state(obs, game.state) if bot.sees_everything else bot.act(obs)
        assert action in obs.legal_actions, (bot.name, str(action))
        game.push(action)
    return game


@pytest.mark.parametrize("rules", ["standard", "bicycle", "foster", "wikipedia"])
@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_plays_only_legal_actions(name: str, rules: str) -> None:
    for seed in range(2):
        game = play_game((name, "greedy"), seed, rules)
        assert game.state.outcome() is not None


def test_bots_are_reproducible_with_the_same_seed() -> None:
    for name in ("random", "heuristic", "search"):
        first = [str(e.action) for e in play_game((name, name), 5).history]
        again = [str(e.action) for e in play_game((name, name), 5).history]
        assert first == again


def test_levels_and_names() -> None:
    assert list(LEVELS) == ["beginner", "easy", "medium", "hard", "expert"]
    slips = [LEVELS[level].slip for level in LEVELS]
    assert slips == sorted(slips, reverse=True) and slips[-1] == 0.0
    for level in LEVELS:
        assert make_bot(level).name in BOT_NAMES
    assert make_bot("Expert").name == "search"
    with pytest.raises(ConquianError, match="Unknown bot 'grandmaster'"):
        make_bot("grandmaster")


def test_the_lower_levels_slip_and_the_others_do_not() -> None:
    """Over the same positions, a slipping level departs from ``hard`` now and then, more
    often the lower it is; ``hard`` itself is ``heuristic`` without slips."""
    departures = {}
    for level in ("beginner", "easy", "medium", "hard"):
        count = decisions = 0
        for seed in range(6):
            game = Game(seed=seed)
            steady = make_bot("heuristic")
            slipping = make_bot(level, rng=random.Random(seed))
            while not game.state.is_over:
                obs = game.observation(game.state.to_act)
                best = steady.act(obs)
                if len(obs.legal_actions) > 1:
                    decisions += 1
                    count += slipping.act(obs) != best
                game.push(best)
        departures[level] = count / decisions
    assert departures["hard"] == 0.0
    assert departures["beginner"] > departures["easy"] > departures["medium"] > 0.0


def test_oracle_refuses_to_play_without_the_state() -> None:
    game = Game(seed=1)
    oracle = make_bot("oracle", budget=FAST)
    obs = game.observation(game.state.to_act)
    with pytest.raises(RuntimeError, match="full state"):
        oracle.act(obs)
    assert oracle.act_with_state(obs, game.state) in obs.legal_actions


def test_bots_take_and_go_out_when_they_can() -> None:
    state = parse_position("standard offer 0 1 JhQh2d * As2s3s4s/5h5d5c - Kh:d - * 1")
    obs = observe(state, 0)
    for name in ("greedy", "heuristic", "search"):
        action = make_bot(name, rng=random.Random(1), budget=FAST).act(obs)
        assert action.kind is ActionKind.TAKE, name
        assert state.child(action).phase.value == "discard"
    out = parse_position("standard offer 0 1 JhQhKh * As2s3s4s/5h5d5c - 7h:d - * 1")
    obs = observe(out, 0)
    for name in ("greedy", "heuristic", "search"):
        action = make_bot(name, rng=random.Random(1), budget=FAST).act(obs)
        assert out.child(action).winner == 0, name


def test_heuristic_does_not_discard_a_card_that_fits_the_opponent_table() -> None:
    # 7c is as isolated in player 0's hand as Ks or Ad, but it extends 4c 5c 6c.
    state = parse_position("standard discard 0 1 7cAd6dQhQd2h3hKs * 2s3s4s 4c5c6c - - * 1")
    choice = make_bot("heuristic").act(observe(state, 0))
    assert choice.kind is ActionKind.DISCARD
    assert str(choice) != "discard 7c"
    greedy_choice = make_bot("greedy").act(observe(state, 0))
    assert greedy_choice.kind is ActionKind.DISCARD


def test_heuristic_never_forces_an_opponent_who_would_go_out() -> None:
    # Player 1 has ten melded and no hand; forcing 4s on him would make him go out.
    state = parse_position("standard force 0 1 * - - As2s3s/5s5h5d5c/JhQhKh 4s:d - * 1")
    obs = observe(state, 0)
    assert obs.hand_counts[1] == 0
    assert make_bot("heuristic").act(obs).kind is ActionKind.NO_FORCE
    forced = state.child(make_bot("greedy").act(obs))  # the baseline forces anyway
    assert forced.phase.value == "forced"
    assert all(forced.child(take).winner == 1 for take in forced.legal_actions())


def test_determinizations_agree_with_the_observation() -> None:
    rng = random.Random(3)
    game = play_game(("greedy", "greedy"), 11)
    for cut in (5, 12, 20):
        replayed = Game(seed=11, dealer=11 % 2)
        for event in game.history[:cut]:
            replayed.push(event.action)
        if replayed.state.is_over:
            continue
        for player in (0, 1):
            obs = replayed.observation(player)
            knowledge = Knowledge.from_observation(obs)
            weights = hidden_card_weights(knowledge)
            sampler = HandSampler(obs, weights, HandModel(obs), rng)
            for _ in range(5):
                det = determinize(obs, sampler.draw(), rng)
                det.validate()
                assert observe(det, player).to_dict() == observe(replayed.state, player).to_dict()


def test_refusal_conflicts_counts_pairs_that_would_have_melded() -> None:
    hand = parse_cards_mask("5h 5d Kc")
    assert refusal_conflicts(hand, parse_cards_mask("5s")) == 1
    assert refusal_conflicts(hand, parse_cards_mask("6h")) == 0
    assert refusal_conflicts(parse_cards_mask("4h 6h"), parse_cards_mask("5h")) == 1


def test_a_discard_makes_hands_with_more_isolated_cards_unlikely() -> None:
    model = HandModel(Game(seed=2).observation(0))
    five_spades = parse_cards_mask("5s").bit_length() - 1
    model.discards = [(five_spades, 0)]  # he threw 5s, which paired with a card he kept
    assert model.odds(parse_cards_mask("5h 5d")) == 1.0  # every card as connected as 5s
    lonely_king = model.odds(parse_cards_mask("5h Kc"))  # he would rather have thrown Kc
    assert lonely_king == pytest.approx(DISCARD_WEIGHT)


def test_hand_sampler_draws_likely_hands_more_often() -> None:
    game = play_game(("greedy", "greedy"), 5)
    for cut in range(len(game.history), 0, -1):
        replayed = Game(seed=5, dealer=5 % 2)
        for event in game.history[:cut]:
            replayed.push(event.action)
        obs = replayed.observation(0)
        model = HandModel(obs)
        if not replayed.state.is_over and model.refusals and obs.hand_counts[1] >= 3:
            break
    else:
        raise AssertionError("no position with refusals")
    weights = hidden_card_weights(Knowledge.from_observation(obs))
    rng = random.Random(8)
    sampled = HandSampler(obs, weights, model, rng)
    drawn = [sampled.draw() for _ in range(300)]
    assert all(h.bit_count() == obs.hand_counts[1] and not h & ~obs.unknown_mask for h in drawn)
    uniform = [
        sum(1 << c for c in rng.sample(sorted(weights), obs.hand_counts[1])) for _ in range(300)
    ]
    mean_odds = sum(map(model.odds, drawn)) / len(drawn)
    assert mean_odds > sum(map(model.odds, uniform)) / len(uniform)


def test_keep_score_prefers_connected_cards() -> None:
    hand = parse_cards_mask("5h 5d 6h Kc As")
    available = hand | parse_cards_mask("5s 4h 7h Ks")
    five = parse_cards_mask("5h").bit_length() - 1
    king = parse_cards_mask("Kc").bit_length() - 1
    assert keep_score(five, hand, available) > keep_score(king, hand, available)


def test_stronger_bots_beat_random() -> None:
    wins = {"greedy": 0, "heuristic": 0}
    losses = {"greedy": 0, "heuristic": 0}
    for name in wins:
        for seed in range(30):
            for seats in ((name, "random"), ("random", name)):
                outcome = play_game(seats, seed).state.outcome()
                assert outcome is not None
                if outcome.winner is None:
                    continue
                if seats[outcome.winner] == name:
                    wins[name] += 1
                else:
                    losses[name] += 1
    for name in wins:
        assert wins[name] > 1.5 * losses[name], (name, wins[name], losses[name])


def test_rules_reach_the_bots() -> None:
    rules = find_rules("bicycle")
    bot = make_bot("heuristic")
    bot.new_deal(1, rules)
    assert bot.player == 1 and bot.rules == rules
