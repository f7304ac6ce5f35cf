"""Game records (TOML round trip, checked replay, redaction) and matches (stakes, dealers)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian.actions import Action, ActionKind
from conquian.cards import CARDS, iter_card_tokens
from conquian.errors import ConquianError, RecordError
from conquian.game import Game
from conquian.match import Match, hand_points
from conquian.melds import partition_mask
from conquian.notation import format_position, parse_position
from conquian.observation import observe
from conquian.records import HIDDEN, GameRecord, format_result, load_record
from conquian.rules import find_rules
from conquian.state import GameState, Phase, Termination

SPECS = ["standard", "bicycle", "foster", "wikipedia", "standard,forcing=automatic"]


# --------------------------------------------------------------------------- helpers


def choose(state: GameState, rng: random.Random, greed: float) -> Action:
    legal = state.legal_actions()
    takes = [a for a in legal if a.kind is ActionKind.TAKE]
    if takes and rng.random() < greed:
        best = max(partition_mask(a.melds).bit_count() for a in takes)
        return rng.choice([a for a in takes if partition_mask(a.melds).bit_count() == best])
    return rng.choice(legal)


def played_game(seed: int, spec: str = "standard", greed: float = 0.7, limit: int = 999) -> Game:
    rng = random.Random(seed)
    game = Game(spec, seed=seed, dealer=seed % 2, stake=1 + seed % 3, players=("ann", "bob"))
    while not game.state.is_over and len(game.history) < limit:
        game.push(choose(game.state, rng, greed))
    return game


def record_of(seed: int, spec: str = "standard", greed: float = 0.7) -> GameRecord:
    return GameRecord.from_game(played_game(seed, spec, greed), event="test")


def replace_line(text: str, startswith: str, new: str | None) -> str:
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if line.startswith(startswith)]
    assert len(hits) == 1, (startswith, text)
    if new is None:
        del lines[hits[0]]
    else:
        lines[hits[0]] = new
    return "\n".join(lines) + "\n"


def with_action(record: GameRecord, number: int, line: str) -> GameRecord:
    actions = list(record.actions)
    actions[number - 1] = line
    return GameRecord(
        rules=record.rules,
        deck=record.deck,
        actions=tuple(actions),
        dealer=record.dealer,
        stake=record.stake,
        players=record.players,
        seed=record.seed,
        result="*",
    )


def deck_line(text: str) -> list[str]:
    match = re.search(r'^deck = "([^"]*)"$', text, re.MULTILINE)
    assert match, text
    return match.group(1).split()


# --------------------------------------------------------------------------- round trip


@given(st.integers(0, 10_000), st.sampled_from(SPECS), st.sampled_from([0.0, 0.7, 1.0]))
@settings(max_examples=40, deadline=None)
def test_dumps_loads_round_trip_and_replay(seed: int, spec: str, greed: float) -> None:
    game = played_game(seed, spec, greed)
    record = GameRecord.from_game(game, event="round trip", site="here")
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again == record
    assert again.dumps() == text
    assert record.seed == seed and record.players == ("ann", "bob")
    assert record.result == format_result(game.state.outcome()) != "*"
    states = again.replay()
    assert len(states) == len(game.history) + 1
    assert [format_position(s) for s in states] == [format_position(s) for s in game.states()]
    assert format_position(again.final_state()) == format_position(game.state)
    numbers = [n for n, _, _ in again.iter_replay()]
    assert numbers == list(range(len(game.history) + 1))


def test_record_of_unfinished_game_and_odd_names() -> None:
    game = Game("foster", seed=3, players=('a "quoted" name', "ünïcode"))
    for _ in range(5):
        game.push(game.legal_actions()[-1])
    record = GameRecord.from_game(game)
    assert record.result == "*"
    again = GameRecord.loads(record.dumps())
    assert again == record
    assert len(again.replay()) == 6
    assert not again.final_state().is_over


def test_load_record_from_file(tmp_path: Path) -> None:
    record = record_of(5)
    path = tmp_path / "game.toml"
    path.write_text(record.dumps(), encoding="utf-8")
    assert load_record(str(path)) == record
    with pytest.raises(RecordError, match="Cannot read"):
        load_record(str(tmp_path / "missing.toml"))


def test_seed_is_optional_the_deck_counts() -> None:
    record = record_of(8)
    text = replace_line(record.dumps(), "seed = ", None)
    again = GameRecord.loads(text)
    assert again.seed is None
    assert format_position(again.final_state()) == format_position(record.final_state())


# --------------------------------------------------------------------------- tampering


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_tampered_action_names_its_number(seed: int) -> None:
    record = record_of(seed)
    assert len(record.actions) >= 6
    states = record.replay()
    before = states[4]  # the state action 5 is played in
    player = before.to_act
    # A card the player does not hold cannot be discarded, whatever the phase.
    card = next(i for i in range(40) if not before.hands[player] >> i & 1)
    bad = with_action(record, 5, f"p{player} discard {CARDS[card]}")
    with pytest.raises(RecordError) as info:
        bad.replay()
    assert "Action 5" in str(info.value)
    assert info.value.action_number == 5
    assert f"discard {CARDS[card]}" in str(info.value)
    # The record before the bad action still replays step by step.
    steps = []
    with pytest.raises(RecordError):
        for step in bad.iter_replay():
            steps.append(step)
    assert len(steps) == 5


def test_tampered_text_via_loads() -> None:
    record = record_of(6)
    text = record.dumps()
    lines = text.splitlines()
    start = lines.index("actions = [")
    assert lines[start + 5] == f'  "{record.actions[4]}",'
    before = record.replay()[4]
    player = before.to_act
    card = next(i for i in range(40) if before.dead_mask >> i & 1 or before.table_masks[0] >> i & 1)
    lines[start + 5] = f'  "p{player} discard {CARDS[card]}",'
    loaded = GameRecord.loads("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=r"Action 5\b") as info:
        loaded.replay()
    assert info.value.action_number == 5


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p0 dance", "dance"),
        ("p1", "p0 <action>"),
        ("take 5c6c7c", "p0 <action>"),
        ("p2 pass", "p0 <action>"),
        ("p0 discard Zz", "Zz"),
    ],
)
def test_malformed_action_lines(line: str, reason: str) -> None:
    record = record_of(7)
    bad = with_action(record, 3, line)
    with pytest.raises(RecordError) as info:
        bad.replay()
    assert "Action 3" in str(info.value)
    assert reason in str(info.value)
    assert info.value.action_number == 3


@pytest.mark.parametrize("number", [1, 2, 5, 8])
def test_wrong_player_prefix_rejected(number: int) -> None:
    record = record_of(9)
    line = record.actions[number - 1]
    player, action = line.split(" ", 1)
    flipped = {"p0": "p1", "p1": "p0"}[player]
    bad = with_action(record, number, f"{flipped} {action}")
    with pytest.raises(RecordError) as info:
        bad.replay()
    assert f"Action {number}" in str(info.value)
    assert "turn" in str(info.value)
    assert info.value.action_number == number


def test_action_after_the_end_rejected() -> None:
    record = record_of(10)
    assert record.final_state().is_over
    longer = GameRecord(
        rules=record.rules,
        deck=record.deck,
        actions=(*record.actions, "p0 pass"),
        dealer=record.dealer,
        stake=record.stake,
    )
    with pytest.raises(RecordError) as info:
        longer.replay()
    assert f"Action {len(record.actions) + 1}" in str(info.value)
    assert "over" in str(info.value)


def test_result_mismatch_detected() -> None:
    record = record_of(11)
    actual = record.result
    assert actual != "*"
    for wrong in ("p0 wins: out", "p1 wins: out", "draw: stock_exhausted"):
        if wrong == actual:
            continue
        text = replace_line(record.dumps(), "result = ", f'result = "{wrong}"')
        loaded = GameRecord.loads(text)  # reading does not replay
        with pytest.raises(RecordError) as info:
            loaded.replay()
        assert wrong in str(info.value) and actual in str(info.value)
    unfinished = replace_line(record.dumps(), "result = ", 'result = "*"')
    assert GameRecord.loads(unfinished).replay()


# --------------------------------------------------------------------------- malformed files


def test_malformed_toml() -> None:
    with pytest.raises(RecordError, match="TOML"):
        GameRecord.loads('format = "conquian-record/1"\nrules = \n')
    with pytest.raises(RecordError, match="TOML"):
        GameRecord.loads("this is not toml at all [[[")


@pytest.mark.parametrize("field", ["rules", "deck", "actions"])
def test_missing_fields(field: str) -> None:
    text = record_of(12).dumps()
    if field == "actions":
        text = text[: text.index("actions = [")]
    else:
        text = replace_line(text, f"{field} = ", None)
    with pytest.raises(RecordError, match=f"'{field}'"):
        GameRecord.loads(text)


def test_missing_or_wrong_format() -> None:
    text = record_of(12).dumps()
    with pytest.raises(RecordError, match="format"):
        GameRecord.loads(replace_line(text, "format = ", None))
    with pytest.raises(RecordError, match="format"):
        GameRecord.loads(replace_line(text, "format = ", 'format = "pgn"'))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('rules = "standart"', "standart"),
        ("rules = 5", "rules"),
        ("dealer = 2", "dealer"),
        ('dealer = "0"', "dealer"),
        ("stake = 0", "stake"),
        ('players = ["only one"]', "players"),
        ("seed = true", "seed"),
        ("seed = 1.5", "seed"),
    ],
)
def test_bad_field_values(line: str, message: str) -> None:
    text = record_of(13).dumps()
    key = line.split(" = ")[0]
    if f"\n{key} = " in text:
        text = replace_line(text, f"{key} = ", line)
    else:
        text = text.replace("dealer = ", f"{line}\ndealer = ", 1)
    with pytest.raises(RecordError) as info:
        GameRecord.loads(text)
    assert message in str(info.value)


def test_bad_decks() -> None:
    record = record_of(14)
    text = record.dumps()
    tokens = deck_line(text)

    def with_deck(cards: list[str]) -> str:
        return replace_line(text, "deck = ", f'deck = "{" ".join(cards)}"')

    with pytest.raises(RecordError, match="40") as info:
        GameRecord.loads(with_deck(tokens[:39]))
    assert "39" in str(info.value)
    with pytest.raises(RecordError, match="41"):
        GameRecord.loads(with_deck([*tokens, tokens[0]]))
    duplicate = [*tokens[:39], tokens[0]]
    with pytest.raises(RecordError, match="twice") as info:
        GameRecord.loads(with_deck(duplicate))
    assert tokens[0] in str(info.value)
    bad = [*tokens[:10], "Zq", *tokens[11:]]
    with pytest.raises(RecordError, match="Zq"):
        GameRecord.loads(with_deck(bad))
    two_in_one = [*tokens[:10], "5h6h", *tokens[11:]]
    with pytest.raises(RecordError):
        GameRecord.loads(with_deck(two_in_one))
    with pytest.raises(RecordError, match="deck"):
        GameRecord.loads(replace_line(text, "deck = ", "deck = 40"))


def test_messages_are_record_errors_and_value_errors() -> None:
    with pytest.raises(ValueError):
        GameRecord.loads("")
    with pytest.raises(ConquianError):
        GameRecord.loads("")


# --------------------------------------------------------------------------- redaction


def seen_by(states: list[GameState], player: int) -> int:
    seen = 0
    for state in states:
        seen |= state.hands[player] | state.table_masks[0] | state.table_masks[1] | state.dead_mask
        if state.centre >= 0:
            seen |= 1 << state.centre
    return seen


@given(
    st.integers(0, 10_000),
    st.sampled_from(SPECS),
    st.sampled_from([0.0, 0.7, 1.0]),
    st.integers(0, 1),
)
@settings(max_examples=40, deadline=None)
def test_redacted_record(seed: int, spec: str, greed: float, player: int) -> None:
    record = record_of(seed, spec, greed)
    full_states = record.replay()
    redacted = record.for_player(player)
    text = redacted.dumps()
    assert redacted.viewpoint == player and redacted.seed is None
    assert "seed" not in text
    assert f"viewpoint = {player}" in text

    seen = seen_by(full_states, player)
    final = full_states[-1]
    never_shown = final.hands[1 - player]  # the opponent's last hand was never face up
    assert not never_shown & seen
    tokens = deck_line(text)
    assert len(tokens) == 40
    for position, card in enumerate(record.deck):
        if seen >> card & 1:
            assert tokens[position] == str(CARDS[card])
        else:
            assert tokens[position] == HIDDEN
    assert tokens.count(HIDDEN) >= never_shown.bit_count()

    # No card the player never saw appears anywhere in the text.
    shown_in_text = 0
    for token in tokens:
        if token != HIDDEN:
            shown_in_text |= 1 << next(iter_card_tokens(token))
    for line in redacted.actions:
        words = line.split(" ", 2)
        if len(words) == 3:
            for index in iter_card_tokens(words[2]):
                shown_in_text |= 1 << index
    assert not shown_in_text & ~seen
    for card in range(40):
        if not seen >> card & 1:
            assert not re.search(rf"\b{CARDS[card]}\b", text), CARDS[card]

    # It reads back, and replays to the same public history.
    loaded = GameRecord.loads(text)
    assert loaded == redacted
    full_steps = list(record.iter_replay())
    red_steps = list(loaded.iter_replay())
    assert len(full_steps) == len(red_steps)
    for (n1, a1, s1), (n2, a2, s2) in zip(full_steps, red_steps, strict=True):
        assert (n1, a1) == (n2, a2)
        assert observe(s1, player).to_dict() == observe(s2, player).to_dict()
        assert str(observe(s1, player)) == str(observe(s2, player))
    assert red_steps[-1][2].outcome() == final.outcome()


def test_redacting_twice_changes_nothing_more() -> None:
    record = record_of(21)
    once = record.for_player(1)
    assert once.for_player(1) == once
    assert record.for_player(0) != once


# --------------------------------------------------------------------------- matches


def won_state(match: Match, stake: int, winner: int) -> GameState:
    """A finished deal won by ``winner`` (11 melded cards); the loser holds 10 low cards."""
    tables = ["-", "-"]
    hands = ["*", "*"]
    tables[winner] = "AsAhAdAc/2s2h2d2c/3s3h3d"
    hands[winner] = "-"
    text = (
        f"{match.rules.to_spec()} over {winner} {match.dealer} {hands[0]} {hands[1]} "
        f"{tables[0]} {tables[1]} - - * {stake}"
    )
    state = parse_position(text)
    assert state.outcome() is not None and state.outcome().winner == winner  # type: ignore[union-attr]
    return state


def drawn_deal(match: Match) -> GameState:
    game = match.new_game()
    while not game.state.is_over:  # always refuse: nobody ever melds, the stock runs out
        game.push(game.legal_actions()[-1])
    outcome = game.state.outcome()
    assert outcome is not None and outcome.winner is None
    return game.state


def play_sequence(spec: str, outcomes: str, seed: int = 1) -> tuple[Match, list[int]]:
    """Play deals with outcomes ``D`` (draw), ``0``/``1`` (that player wins); return stakes."""
    match = Match(spec, seed=seed)
    stakes = []
    for code in outcomes:
        if code == "D":
            state = drawn_deal(match)
        else:
            game = match.new_game()
            state = won_state(match, game.state.stake, int(code))
        stakes.append(state.stake)
        match.finish_deal(state)
    return match, stakes


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("carry", [2, 2, 4, 6, 2, 4]),
        ("none", [2, 2, 2, 2, 2, 2]),
        ("double_next", [2, 2, 4, 4, 2, 4]),
        ("double_compound", [2, 2, 4, 8, 2, 4]),
    ],
)
def test_stakes_follow_draw_stake_mode(mode: str, expected: list[int]) -> None:
    spec = f"standard,draw_stake={mode},base_stake=2,match=n_deals,match_target=6"
    match, stakes = play_sequence(spec, "0DD1D0")
    assert stakes == expected
    values = [r.value for r in match.results]
    assert values == [s if code != "D" else 0 for s, code in zip(stakes, "0DD1D0", strict=True)]
    assert match.balance[0] == expected[0] + expected[5] - expected[3]
    assert sum(match.balance) == 0
    assert match.is_over


@pytest.mark.parametrize("k", range(5))
def test_deal_value_formula(k: int) -> None:
    for mode, value in [
        ("carry", 3 * (1 + k)),
        ("none", 3),
        ("double_next", 3 * (2 if k else 1)),
        ("double_compound", 3 * 2**k),
    ]:
        match = Match(f"standard,draw_stake={mode},base_stake=3", seed=0)
        assert match.deal_value(previous_draws=k) == value


def test_dealer_alternates() -> None:
    match = Match("standard,match=n_deals,match_target=7", seed=5)
    first = match.first_dealer
    assert first in (0, 1)
    dealers = []
    for number, code in enumerate("D0D1D10"):
        game = match.new_game()
        assert game.state.dealer == game.dealer == (first + number) % 2
        dealers.append(game.dealer)
        state = drawn_deal_from(game) if code == "D" else won_state(match, game.state.stake, 0)
        result = match.finish_deal(state)
        assert result.dealer == dealers[-1] and result.number == number + 1
    assert dealers == [(first + i) % 2 for i in range(7)]
    assert [r.dealer for r in match.results] == dealers


def drawn_deal_from(game: Game) -> GameState:
    while not game.state.is_over:
        game.push(game.legal_actions()[-1])
    return game.state


def test_first_dealer_is_seeded() -> None:
    for spec in ("standard", "foster"):
        firsts = {Match(spec, seed=s).first_dealer for s in range(30)}
        assert firsts == {0, 1}
        assert Match(spec, seed=4).first_dealer == Match(spec, seed=4).first_dealer


@given(st.lists(st.sampled_from("D01"), min_size=1, max_size=12), st.sampled_from(SPECS[:3]))
@settings(max_examples=30, deadline=None)
def test_balance_sums_to_zero_under_stake_scoring(outcomes: list[str], spec: str) -> None:
    rules = find_rules(spec).with_flags(match="n_deals", match_target=len(outcomes))
    match, stakes = play_sequence(rules.to_spec(), "".join(outcomes), seed=len(outcomes))
    assert sum(match.balance) == 0
    wins0 = sum(s for s, c in zip(stakes, outcomes, strict=True) if c == "0")
    wins1 = sum(s for s, c in zip(stakes, outcomes, strict=True) if c == "1")
    assert match.balance == [wins0 - wins1, wins1 - wins0]
    assert match.leader == (None if wins0 == wins1 else (0 if wins0 > wins1 else 1))


def test_points_scoring() -> None:
    spec = "standard,scoring=points,draw_stake=none,match=n_deals,match_target=3"
    match, _ = play_sequence(spec, "0D1")
    loser_hand = won_state(match, 1, 0).hands[1]
    points = hand_points(loser_hand)
    assert points == 4 + 5 + 6 + 7 + 10 + 10 + 10 + 4 + 5 + 6
    assert match.balance == [points, points]
    assert [r.value for r in match.results] == [points, 0, points]


def test_single_deal_match_ends_at_first_decided_deal() -> None:
    match = Match("standard", seed=2)
    assert not match.is_over
    match.finish_deal(drawn_deal(match))
    match.finish_deal(drawn_deal(match))
    assert not match.is_over and len(match.results) == 2
    game = match.new_game()
    assert game.state.stake == 3  # carry: two draws before it
    match.finish_deal(won_state(match, game.state.stake, 1))
    assert match.is_over
    assert match.balance == [-3, 3]
    with pytest.raises(ConquianError, match="over"):
        match.new_game()


def test_n_deals_match_counts_draws_too() -> None:
    match = Match("standard,match=n_deals,match_target=3", seed=2)
    for _ in range(2):
        match.finish_deal(drawn_deal(match))
        assert not match.is_over
    match.finish_deal(drawn_deal(match))
    assert match.is_over and match.balance == [0, 0] and match.leader is None


def test_first_to_match() -> None:
    match = Match("standard,match=first_to,match_target=3", seed=2)
    game = match.new_game()
    match.finish_deal(won_state(match, game.state.stake, 0))  # worth 1
    assert match.balance == [1, -1] and not match.is_over
    match.finish_deal(drawn_deal(match))
    assert not match.is_over
    game = match.new_game()
    assert game.state.stake == 2
    match.finish_deal(won_state(match, game.state.stake, 0))  # worth 2
    assert match.balance == [3, -3]
    assert match.is_over and match.leader == 0


def test_finish_deal_needs_a_finished_deal_of_this_match() -> None:
    match = Match("standard", seed=3)
    game = match.new_game()
    with pytest.raises(ConquianError):
        match.finish_deal(game.state)  # not over
    finished = drawn_deal_from(game)
    match.finish_deal(finished)
    with pytest.raises(ConquianError):
        match.finish_deal(finished)  # already settled; no deal in progress


def test_match_deals_are_real_games() -> None:
    match = Match("wikipedia", seed=7)
    state = match.new_deal()
    assert state.phase is Phase.OFFER and state.stake == 1
    assert state.termination is None
    assert Termination.OUT.value == "out"
