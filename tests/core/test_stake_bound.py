"""Stakes stay within what a record holds (finding M4 of the 2026-12-06 audit): a
``base_stake`` above :data:`~conquian.rules.MAX_STAKE` is refused by the rules, naming the
flag and the limit, and a stake that draws keep raising stops at the limit, so that every
match the rules accept writes records that read back."""

from __future__ import annotations

import random

import pytest

from conquian import ConquianError, Game, GameRecord, Match, MatchRecord
from conquian.actions import ActionKind
from conquian.notation import parse_position
from conquian.records import MAX_STAKE
from conquian.rules import find_rules


@pytest.mark.parametrize(
    "spec",
    [
        "standard,base_stake=1000000000000000000000000000000",
        f"standard,base_stake={MAX_STAKE + 1}",
        "standard,base_stake=" + "9" * 5000,
        "standard,base_stake=0",
    ],
)
def test_a_base_stake_a_record_cannot_hold_is_refused_naming_the_flag(spec: str) -> None:
    with pytest.raises(ConquianError, match="base_stake") as refused:
        find_rules(spec)
    # the limit, or (for a number too long to read) how long it may be
    limit = "at most 100 digits" if len(spec) > 100 else f"from 1 to {MAX_STAKE}"
    assert limit in str(refused.value)


def test_the_largest_base_stake_is_accepted() -> None:
    assert find_rules(f"standard,base_stake={MAX_STAKE}").base_stake == MAX_STAKE


@pytest.mark.parametrize("digit", ["²", "➋", "٣", "\uff11"])
def test_a_flag_given_a_digit_that_is_not_ascii_is_refused(digit: str) -> None:
    with pytest.raises(ConquianError, match="base_stake must be a whole number"):
        find_rules(f"standard,base_stake={digit}")


def draw(game: Game) -> None:
    """Play the deal out by declining and passing every card: the stock runs out, a draw."""
    while not game.state.is_over:
        actions = game.legal_actions()
        passive = [a for a in actions if a.kind in (ActionKind.DECLINE, ActionKind.PASS)]
        game.push(passive[0] if passive else actions[0])


def win(game: Game, rng: random.Random) -> None:
    """Play the deal out at random, taking whenever one may, until it ends."""
    while not game.state.is_over:
        actions = game.legal_actions()
        takes = [a for a in actions if a.kind is ActionKind.TAKE]
        game.push(rng.choice(takes or actions))


@pytest.mark.parametrize(
    "spec",
    [
        "standard,draw_stake=double_compound",
        f"standard,draw_stake=double_compound,base_stake={MAX_STAKE // 3}",
        f"standard,draw_stake=double_next,base_stake={MAX_STAKE}",
        f"standard,draw_stake=carry,base_stake={MAX_STAKE // 2}",
    ],
)
def test_a_long_run_of_draws_writes_records_that_read_back(spec: str) -> None:
    match = Match(spec, seed=7, players=("ana", "ben"))
    draws = 70  # 2**70 times the base stake, were it not bounded
    for _ in range(draws):
        draw(match.new_game())
        match.settle()
    assert match.draws_in_a_row == draws
    assert match.deal_value() == MAX_STAKE
    rng = random.Random(3)
    while not match.is_over:
        win(match.new_game(), rng)
        match.settle()
    last = match.games[-1]
    assert last.state.stake == MAX_STAKE and last.state.outcome().winner is not None
    assert max(match.balance) == MAX_STAKE
    # every deal's own record, and the match's, read back and set the match up again
    for game in match.games[-3:]:
        record = GameRecord.loads(GameRecord.from_game(game).dumps())
        assert record.stake == game.state.stake
        assert record.final_state().outcome() == game.state.outcome()
    again = MatchRecord.loads(MatchRecord.from_match(match).dumps()).to_match()
    assert again.balance == match.balance and again.is_over


def test_a_position_with_a_stake_a_record_cannot_hold_is_refused() -> None:
    text = "standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * {}"
    assert parse_position(text.format(MAX_STAKE)).stake == MAX_STAKE
    for stake in (str(MAX_STAKE + 1), "9" * 5000, "²", "٣"):
        with pytest.raises(ConquianError, match="stake"):
            parse_position(text.format(stake))
