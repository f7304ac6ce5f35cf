"""The coach: ``conquian hint`` answers the same every time, from the player's view only,
and the hints and the review are one estimate that agrees with itself."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conquian.actions import Action
from conquian.bots import make_bot
from conquian.bots.coach import (
    HINT_SAMPLES,
    Advice,
    action_results,
    advice_reason,
    advise,
    feeds,
    hint,
    position_key,
)
from conquian.bots.review import ReviewSettings, judge_decision, player_decisions
from conquian.cards import CARDS, mask_indices
from conquian.cards import parse_cards_mask as parse_mask
from conquian.match import Match
from conquian.notation import format_position, parse_position
from conquian.observation import Observation, observe
from conquian.present.hints import reason_words
from conquian.present.spans import CardLook, plain
from conquian.records import GameRecord
from conquian.seats import Seat, SeatDriver

FEEDING = (
    "standard discard 0 0 As5s6h5c JsJhJc 3h3d3c/KsKhKdKc AhAdAc/7s7h7d7c - "
    "Qs2h4h6dQd2c4c 2s3sQc4s5d5h6c6s4dQh2dJd 1"
)
"""Player 0 to discard; As fits player 1's aces, and player 1 holds three cards (a set he
has not shown, JsJhJc)."""


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def bot_observations(seed: int, player: int = 0) -> list[tuple[Observation, Action]]:
    """Each decision with a choice of ``player`` in a deal between two heuristic bots."""
    match = Match("standard", seed=seed, players=("a", "b"))
    seats = [Seat("a", make_bot("heuristic")), Seat("b", make_bot("greedy"))]
    driver = SeatDriver(seats, match=match, bot_seed=seed)
    game = driver.start()
    while not game.state.is_over:
        turn = driver.bot_turn()
        driver.push(turn.player, turn.decide())
    driver.settle()
    record = GameRecord.from_game(match.games[0])
    found, _ = player_decisions(record, player)
    return [(obs, action) for _, obs, action in found if len(obs.legal_actions) > 1]


def test_the_hint_command_answers_the_same_twice_in_text_and_json() -> None:
    first = run_cli("hint", FEEDING)
    assert first.returncode == 0, first.stderr
    assert run_cli("hint", FEEDING).stdout == first.stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith(f"Hint for player 0, from {HINT_SAMPLES} sampled deals")
    assert "Second best:" in lines[1]
    # the danger is named: the card, whose table, his meld and how many cards he holds
    assert "fits player 1's A" in lines[1] and "he holds 3 cards" in lines[1]
    assert len(lines) == 2 + 4  # every discard, with its chance

    data = json.loads(run_cli("hint", FEEDING, "--json").stdout)
    assert json.loads(run_cli("hint", FEEDING, "--json").stdout) == data
    assert data["player"] == 0 and data["samples"] == HINT_SAMPLES
    assert data["best"] == data["candidates"][0]["action"]
    assert {c["action"] for c in data["candidates"]} == {
        "discard As",
        "discard 5s",
        "discard 6h",
        "discard 5c",
    }
    chances = [c["chance"] for c in data["candidates"]]
    assert chances == sorted(chances, reverse=True)
    assert data["feeds"] == {"player": 1, "meld": ["Ah", "Ad", "Ac"], "hand_count": 3}
    # nothing of player 1's hand or of the stock is shown: the words name no such card
    hidden = parse_position(FEEDING)
    secret = hidden.hands[1] | sum(1 << c for c in hidden.stock)
    shown = json.dumps(data)
    assert not [str(CARDS[c]) for c in mask_indices(secret) if f'"{CARDS[c]}' in shown]


def test_the_hint_depends_on_what_the_player_sees_only() -> None:
    """Other hidden cards behind the same view give the same key and the same hint."""
    state = parse_position(FEEDING)
    other = FEEDING.replace("JsJhJc", "2sQc4s").replace("2s3sQc4s", "JsJhJc3s")
    swapped = parse_position(other)
    assert format_position(swapped) != format_position(state)
    one, two = observe(state, 0), observe(swapped, 0)
    assert position_key(one) == position_key(two)
    assert advise(one, samples=40) == advise(two, samples=40)
    assert position_key(one) != position_key(observe(state, 1))


def test_the_hint_names_the_danger_of_feeding_a_table() -> None:
    obs = observe(parse_position(FEEDING), 0)
    assert feeds(obs, Action.parse("discard As")) == (1, parse_mask("Ah Ad Ac"), 3)
    assert feeds(obs, Action.parse("discard 6h")) is None
    advice, why = hint(obs, samples=60)
    assert why.feeds == 1 and why.feeds_count == 3
    assert why.feeds_card == parse_mask("As").bit_length() - 1
    assert why.action == advice.best


def test_a_longer_estimate_repeats_the_shorter_ones_deals_first() -> None:
    obs = observe(parse_position(FEEDING), 0)
    actions = list(obs.legal_actions)
    short = action_results(obs, actions, samples=30, seed="s")
    long = action_results(obs, actions, samples=60, seed="s")
    assert [r[:30] for r in long] == short


@pytest.mark.parametrize("seed", [3, 8])
def test_the_review_agrees_with_the_hint(seed: int) -> None:
    """Where the hint calls one move clearly better than another, the review of that
    decision, which spends more samples on the same deals first, ranks them the same way;
    and a move the review marks is never the hint's."""
    settings = ReviewSettings(samples=120)
    checked = marked = 0
    for obs, played in bot_observations(seed):
        advice = advise(obs, samples=60)
        decision = judge_decision(obs, played, settings)
        review = advise(obs, samples=120, include=played)
        assert decision.best == review.best and decision.chance_best == review.chances[0]
        for action in advice.actions[1:]:
            if advice.clearly_worse(action) and action in review.actions:
                checked += 1
                assert review.chance(advice.best) >= review.chance(action), (obs, action)
        if decision.mark is not None:
            marked += 1
            assert played != advice.best
    assert checked >= 3


def test_a_hint_verdict_does_not_move_with_the_seed() -> None:
    """The coach calls a move better only beyond the noise: over other seeds the same
    pairs keep their order."""
    flips = pairs = 0
    for obs, _ in bot_observations(5)[:3]:
        first = advise(obs, samples=HINT_SAMPLES)
        for action in first.actions[1:]:
            if not first.clearly_worse(action):
                continue
            for seed in (1, 2):
                other = advise(obs, samples=HINT_SAMPLES, seed=seed)
                pairs += 1
                flips += other.chance(first.best) < other.chance(action)
    assert pairs >= 4 and flips == 0


def test_a_second_best_discard_names_the_pair_it_would_break() -> None:
    """Where the best discard is a lone card and the second best, clearly worse, breaks up a
    pair, the reason names the pair; about as good, it says nothing of it."""
    state = parse_position(
        "standard discard 0 1 5h5dKcQd Kd As2s3s4s/7h7d7c Ah2h3h/JsJhJd/QsQhQc - - * 1"
    )
    obs = observe(state, 0)
    lone, pair = Action.parse("discard Kc"), Action.parse("discard 5h")
    clear = Advice(actions=(lone, pair), chances=(0.7, 0.4), errors=(0.0, 0.05), samples=200)
    why = advice_reason(obs, clear)
    assert why.second == pair and why.drop == pytest.approx(0.3)
    assert why.second_breaks == parse_mask("5h 5d")
    words = plain(reason_words(why, CardLook(), ("Ana", "Memo")))
    assert words.endswith("5h goes with your 5d.")
    close = Advice(actions=(lone, pair), chances=(0.7, 0.6), errors=(0.0, 0.05), samples=200)
    assert advice_reason(obs, close).second_breaks == 0
    assert "goes with" not in plain(reason_words(advice_reason(obs, close), CardLook()))
