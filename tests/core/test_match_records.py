"""Match records, ``GameRecord.to_game`` and ``Match.would_end``: a match saves, loads and is
set up again exactly, and a record that was tampered with is refused, naming what is wrong."""

from __future__ import annotations

import copy
import random

import pytest

from conquian import Game, GameRecord, Match, MatchRecord, RecordError
from conquian.records import parse_action_line


def play_deal(game: Game, rng: random.Random, stop_after: int | None = None) -> None:
    moves = 0
    while not game.state.is_over and (stop_after is None or moves < stop_after):
        game.push(rng.choice(game.legal_actions()))
        moves += 1


def played_match(rules: str, seed: int, deals: int, *, unfinished: bool = False) -> Match:
    """A match with ``deals`` settled deals (fewer if it ends), and one in play if asked."""
    match = Match(rules, seed=seed, players=("ana", "ben"))
    rng = random.Random(seed)
    for _ in range(deals):
        if match.is_over:
            break
        play_deal(match.new_game(), rng)
        match.settle()
    if unfinished and not match.is_over:
        play_deal(match.new_game(), rng, stop_after=7)
    return match


def same_match(a: Match, b: Match) -> None:
    assert a.balance == b.balance
    assert a.results == b.results
    assert (a.dealer, a.draws_in_a_row, a.is_over) == (b.dealer, b.draws_in_a_row, b.is_over)
    assert [g.history for g in a.games] == [g.history for g in b.games]
    assert [g.deck for g in a.games] == [g.deck for g in b.games]
    assert (a.deal is None) == (b.deal is None)
    if a.deal is not None and b.deal is not None:
        assert a.deal.legal_actions() == b.deal.legal_actions()
        assert a.deal.state.hands == b.deal.state.hands
    # and both go on the same way: the next deal is the same deal
    if not a.is_over and a.deal is None and b.deal is None:
        assert a.new_game().deck == b.new_game().deck


@pytest.mark.parametrize(
    ("rules", "seed", "deals", "unfinished"),
    [
        ("standard", 1, 5, True),
        ("standard,match=n_deals,match_target=4", 2, 6, False),
        ("standard,draw_stake=double_compound,match=first_to,match_target=5", 3, 9, True),
        ("standard,scoring=points,draw_stake=none,match=n_deals,match_target=3", 4, 3, False),
        ("foster", 5, 3, True),
        ("bicycle", 6, 0, True),
    ],
)
def test_a_match_record_sets_the_match_up_again(
    rules: str, seed: int, deals: int, unfinished: bool
) -> None:
    match = played_match(rules, seed, deals, unfinished=unfinished)
    record = MatchRecord.from_match(match, event="test")
    text = record.dumps()
    again = MatchRecord.loads(text)
    assert again == record
    same_match(again.to_match(), match)


def test_a_match_record_without_a_seed_replays_its_decks() -> None:
    match = played_match("standard", 8, 3, unfinished=True)
    record = MatchRecord.from_match(match)
    unseeded = MatchRecord(record.rules, record.players, None, record.deals, record.balance)
    same_match(MatchRecord.loads(unseeded.dumps()).to_match(), match)


def test_a_deck_not_dealt_from_the_seed_is_refused() -> None:
    match = played_match("standard", 9, 3)
    record = MatchRecord.from_match(match)
    deals = list(record.deals)
    second = deals[1]
    swapped = (second.deck[1], second.deck[0], *second.deck[2:])
    deals[1] = GameRecord(**{**second.__dict__, "deck": swapped})
    tampered = MatchRecord(record.rules, record.players, record.seed, tuple(deals), record.balance)
    with pytest.raises(RecordError, match="Deal 2: it was not dealt from this match's seed"):
        MatchRecord.loads(tampered.dumps()).to_match()


def test_an_illegal_action_names_the_deal_and_the_action() -> None:
    match = played_match("standard", 10, 2, unfinished=True)
    text = MatchRecord.from_match(match).dumps()
    last = MatchRecord.loads(text).deals[-1].actions[2]
    player, action = parse_action_line(last)
    bad = text.replace(f'"{last}",', f'"p{1 - player} {action}",', 1)
    with pytest.raises(RecordError, match=r"Deal \d+: action 3 .*turn"):
        MatchRecord.loads(bad).to_match()


def test_a_written_balance_that_the_deals_do_not_give_is_refused() -> None:
    match = played_match("standard,match=n_deals,match_target=9", 11, 4)
    record = MatchRecord.from_match(match)
    wrong = MatchRecord(
        record.rules, record.players, record.seed, record.deals, (record.balance or (0, 0))[::-1]
    )
    if wrong.balance == record.balance:
        wrong = MatchRecord(record.rules, record.players, record.seed, record.deals, (5, -5))
    with pytest.raises(RecordError, match="balance"):
        wrong.to_match()


def test_an_unfinished_deal_followed_by_another_is_refused() -> None:
    match = played_match("standard", 12, 1, unfinished=True)
    record = MatchRecord.from_match(match)
    deals = (record.deals[1], record.deals[0])
    with pytest.raises(RecordError, match="Deal 1"):
        MatchRecord(record.rules, record.players, record.seed, deals).to_match()


@pytest.mark.parametrize(
    "text",
    [
        "format = 'conquian-record/1'\n",
        "format = 'conquian-match/1'\nrules = 'standard'\ndeal = 3\n",
        "format = 'conquian-match/1'\nrules = 'nonsense'\n",
        "format = 'conquian-match/1'\nrules = 'standard'\nbalance = [1]\n",
        "format = 'conquian-match/1'\nrules = 'standard'\n[[deal]]\ndeck = 'As'\nactions = []\n",
        "not toml at all = = =",
    ],
)
def test_malformed_match_records_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(RecordError) as caught:
        MatchRecord.loads(text)
    assert str(caught.value)


def test_game_record_to_game_keeps_the_history_and_rechecks_every_action() -> None:
    game = Game("standard", seed=21, players=("ana", "ben"))
    play_deal(game, random.Random(2), stop_after=15)
    record = GameRecord.from_game(game)
    again = record.to_game()
    assert again.history == game.history
    assert again.legal_actions() == game.legal_actions()
    assert GameRecord.from_game(again) == record
    player, action = parse_action_line(record.actions[4])
    bad = GameRecord(
        **{**record.__dict__, "actions": (*record.actions[:4], f"p{1 - player} {action}")}
    )
    with pytest.raises(RecordError) as caught:
        bad.to_game()
    assert caught.value.action_number == 5


@pytest.mark.parametrize(
    "line", ["p2x take", "p01 pass", "q0 pass", "p0", "p-1 pass", "p\u0661 pass"]
)
def test_record_lines_are_read_strictly(line: str) -> None:
    with pytest.raises(ValueError):
        parse_action_line(line)


@pytest.mark.parametrize(
    "rules",
    [
        "standard",
        "standard,match=n_deals,match_target=3",
        "standard,match=first_to,match_target=2,draw_stake=carry",
        "standard,scoring=points,draw_stake=none,match=first_to,match_target=25",
    ],
)
def test_would_end_agrees_with_settling_a_copy(rules: str) -> None:
    rng = random.Random(rules)
    for seed in range(5):
        match = Match(rules, seed=seed)
        while not match.is_over:
            game = match.new_game()
            play_deal(game, rng)
            outcome = game.state.outcome()
            assert outcome is not None
            trial = copy.deepcopy(match)
            trial.settle()
            assert match.would_end(outcome) == trial.is_over
            match.settle()
