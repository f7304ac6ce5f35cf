"""The seat driver (``conquian.seats.SeatDriver``): whose turn, bot moves seeded by position, bad
moves refused without change, settling; and a terminal save of the first format resumes."""

from __future__ import annotations

import json
import random

import pytest

from conquian import ConquianError, GameRecord, IllegalActionError, Match, MatchRecord
from conquian.bots import make_bot
from conquian.game import Game
from conquian.play.storage import SavedMatch
from conquian.seats import Seat, SeatDriver

MANY_DEALS = "standard,match=n_deals,match_target=9"


def bot_driver(seed: int, bot_seed: int | None = 7) -> SeatDriver:
    match = Match(MANY_DEALS, seed=seed, players=("random", "heuristic"))
    seats = [Seat("random", make_bot("random")), Seat("heuristic", make_bot("heuristic"))]
    return SeatDriver(seats, match=match, bot_seed=bot_seed)


def play_out(driver: SeatDriver, deals: int) -> list[str]:
    moves = []
    for _ in range(deals):
        game = driver.start()
        while not game.state.is_over:
            turn = driver.bot_turn()
            action = turn.decide()
            driver.push(turn.player, action)
            moves.append(f"p{turn.player} {action}")
        driver.settle()
    return moves


def test_bot_moves_are_seeded_by_position() -> None:
    first, second = bot_driver(3), bot_driver(3)
    assert play_out(first, 3) == play_out(second, 3)
    assert first.match is not None and second.match is not None
    assert first.match.balance == second.match.balance
    assert len(first.match.results) == 3


def test_a_resumed_table_makes_the_same_moves() -> None:
    """Set up again from a match record mid-deal, the bots go on as if never stopped."""
    whole = bot_driver(5)
    expected = play_out(whole, 2)
    partial = bot_driver(5)
    game = partial.start()
    for _ in range(9):
        turn = partial.bot_turn()
        partial.push(turn.player, turn.decide())
    assert partial.match is not None
    text = MatchRecord.from_match(partial.match).dumps()
    resumed = SeatDriver(
        [Seat("random", make_bot("random")), Seat("heuristic", make_bot("heuristic"))],
        match=MatchRecord.loads(text).to_match(),
        bot_seed=7,
    )
    resumed.resume_bots()
    moves = [f"p{e.player} {e.action}" for e in game.history]
    resumed_game = resumed.deal
    assert resumed_game is not None
    while not resumed_game.state.is_over:
        turn = resumed.bot_turn()
        action = turn.decide()
        resumed.push(turn.player, action)
        moves.append(f"p{turn.player} {action}")
    resumed.settle()
    moves += play_out(resumed, 1)
    assert moves == expected


def test_people_and_bots_take_turns_and_bad_moves_change_nothing() -> None:
    match = Match("standard", seed=11, players=("ana", "bot"))
    driver = SeatDriver([Seat("ana"), Seat("bot", make_bot("greedy"))], match=match, bot_seed=1)
    with pytest.raises(ConquianError):
        driver.bot_turn()  # no deal yet
    game = driver.start()
    rng = random.Random(2)
    while not game.state.is_over:
        player = driver.to_act
        assert player is not None
        if driver.bot_to_act() is None:
            with pytest.raises(ConquianError):
                driver.bot_turn()
            before = game.state.summary()
            with pytest.raises(IllegalActionError):
                driver.push(1 - player, game.legal_actions()[0])  # not his turn
            assert game.state.summary() == before and len(game.history) == len(driver.deal.history)
            driver.push(player, rng.choice(game.legal_actions()))
        else:
            turn = driver.bot_turn(player)
            assert turn.obs.viewer == player and turn.state is None  # greedy sees its view only
            driver.push(player, turn.decide())
    assert driver.to_act is None and driver.deal_is_over
    ends = driver.would_end_match()
    result = driver.settle()
    assert result is not None and result.number == 1
    assert match.is_over == ends
    assert driver.deal is None
    with pytest.raises(ConquianError):
        driver.settle()


def test_the_oracle_alone_is_handed_the_full_state() -> None:
    game = Game("standard", seed=4)
    driver = SeatDriver(
        [Seat("oracle", make_bot("oracle")), Seat("greedy", make_bot("greedy"))], game.rules
    )
    driver.start(game)
    while driver.bot_to_act() != 0:
        turn = driver.bot_turn()
        driver.push(turn.player, turn.decide())
    turn = driver.bot_turn()
    assert turn.state is not None and turn.state.hands == game.state.hands
    assert turn.state is not game.state  # a copy: the bot cannot change the deal


def test_a_table_without_a_match_plays_the_deals_it_is_given() -> None:
    driver = SeatDriver(
        [Seat("a", make_bot("greedy")), Seat("b", make_bot("random"))], Match().rules
    )
    with pytest.raises(ConquianError):
        driver.start()
    game = driver.start(Game(seed=9))
    assert driver.dealt == [0, 1]
    while not game.state.is_over:
        turn = driver.bot_turn()
        driver.push(turn.player, turn.decide())
    assert driver.settle() is None and driver.deal is None


def test_a_first_format_save_resumes_as_a_match_record() -> None:
    """Saves written before match records (``conquian-play/1``) still resume."""
    match = Match(MANY_DEALS, seed=21, players=("You", "Bot (easy)"))
    rng = random.Random(3)
    finished = []
    for _ in range(2):
        game = match.new_game()
        while not game.state.is_over:
            game.push(rng.choice(game.legal_actions()))
        finished.append(GameRecord.from_game(game).dumps())
        match.settle()
    current = match.new_game()
    for _ in range(5):
        current.push(rng.choice(current.legal_actions()))
    old = {
        "format": "conquian-play/1",
        "saved_at": "2026-11-30T10:00:00",
        "rules": MANY_DEALS,
        "match_seed": 21,
        "bot_seed": 5,
        "opponent": "easy",
        "names": ["You", "Bot (easy)"],
        "humans": [0],
        "dealer": match.dealer,
        "balance": match.balance,
        "draws_in_a_row": match.draws_in_a_row,
        "records": [],
        "finished": finished,
        "current": GameRecord.from_game(current).dumps(),
    }
    saved = SavedMatch.from_json(json.dumps(old))
    assert saved.match is not None
    again = MatchRecord.loads(saved.match).to_match()
    assert again.balance == match.balance and len(again.results) == 2
    assert again.deal is not None and again.deal.history == current.history
    assert json.loads(saved.to_json(bytes(32)))["format"] == "conquian-play/2"
