"""The Mexican game: two to four players, the exchange, the offer round, forcing by the offerer.

Tests are named after the rule ids M1-M19 of docs/rules.md section 13.4 (the game itself is
section 14); positions are set up with N-player position strings (see :mod:`conquian.notation`).
Then random-game property tests for two, three and four players, the N-player position strings,
and a check that two-player games play exactly as they did before the N-player change
(``tests/core/data/two_player_before.json``: games played by the two-player engine of commit
71969ac, with a digest of every position, legal-action list and observation on the way).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from test_rules_statements import (
    cards,
    idx,
    kinds,
    legal,
    part,
    play,
    take_tables,
    unturned,
)

from conquian import (
    CARDS,
    Action,
    ActionKind,
    Game,
    GameRecord,
    GameState,
    IllegalActionError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
    Match,
    Observation,
    Phase,
    Rules,
    Source,
    Termination,
    find_rules,
    format_position,
    observe,
    parse_partition,
    parse_position,
)
from conquian.cards import ALL_CARDS_MASK, NUM_CARDS, DeckStyle, format_mask
from conquian.errors import RecordError
from conquian.match import hand_points
from conquian.melds import partition_mask
from conquian.records import MatchRecord
from conquian.rules import Exhaustion, ForceBy, Forcing

# ----------------------------------------------------------------------------- helpers

MEX = "mexican"
MEX2 = "mexican,num_players=2"
MEX4 = "mexican,num_players=4"
CARD_TOKEN = re.compile(r"[A2-7JQK][shdc]")
"""A card's canonical text (as observations, positions and records write it)."""
CARD_INDEX = {str(card): card.index for card in CARDS}


def rest(*fields: str) -> str:
    """Every card not written in ``fields`` (run together), for a dead pile."""
    used = 0
    for field in fields:
        if field not in ("-", "*"):
            used |= cards(field.split(":")[0].replace("/", ""))
    return "".join(str(CARDS[i]) for i in range(NUM_CARDS) if not used >> i & 1)


def mpos(
    hands: Sequence[str],
    tables: Sequence[str] | None = None,
    centre: str = "-",
    *,
    phase: str = "offer",
    player: int = 0,
    dealer: int = 0,
    dead: str = "-",
    stock: str = "*",
    rules: str = MEX,
    stake: int = 1,
    exchange: str = "-",
) -> GameState:
    """Set up an N-player position from its fields (the exchange field only where the rules
    have the exchange)."""
    parsed = find_rules(rules)
    n = parsed.num_players
    tables = list(tables) if tables is not None else ["-"] * n
    assert len(hands) == n and len(tables) == n
    fields = [rules, phase, str(player), str(dealer), *hands, *tables, centre, dead, stock]
    fields.append(str(stake))
    if parsed.exchange_one_card:
        fields.append(exchange)
    return parse_position(" ".join(fields))


def assert_illegal(state: GameState, action: Action, match: str | None = None) -> None:
    """The action is refused with IllegalActionError and the state is unchanged."""
    before = format_position(state)
    legal_before = state.legal_actions()
    with pytest.raises(IllegalActionError, match=match):
        state.apply(action)
    assert format_position(state) == before
    assert state.legal_actions() == legal_before


def exchange(text: str) -> Action:
    return Action.parse(f"exchange {text}")


def where(state: GameState) -> tuple[Phase, int, str, Source, int, int]:
    """(phase, to_act, centre card, source, owner, offeree)."""
    centre = str(CARDS[state.centre]) if state.centre >= 0 else "-"
    return state.phase, state.to_act, centre, state.source, state.owner, state.offeree


def refusal(state: GameState) -> Action:
    """Never take, never force; the first card in an exchange."""
    if state.phase is Phase.EXCHANGE:
        return state.legal_actions()[0]
    refusals = (ActionKind.DECLINE, ActionKind.PASS, ActionKind.NO_FORCE)
    return next(a for a in state.legal_actions() if a.kind in refusals and not a.melds)


def greedy(state: GameState, rng: random.Random, greed: float) -> Action:
    """The biggest take (and every force) with probability ``greed``, else a random action."""
    options = state.legal_actions()
    if rng.random() < greed:
        takes = [a for a in options if a.kind is ActionKind.TAKE]
        if takes:
            best = max(partition_mask(a.melds).bit_count() for a in takes)
            return rng.choice([a for a in takes if partition_mask(a.melds).bit_count() == best])
        if state.phase is Phase.FORCE:
            return Action(ActionKind.FORCE)
    return rng.choice(options)


def finish_won(game: Game, seed: int) -> None:
    """Play a deal of a match greedily to its end."""
    rng = random.Random(seed)
    while not game.state.is_over:
        game.push(greedy(game.state, rng, 1.0))


# ------------------------------------------------------------------- M1 players, rules


@pytest.mark.parametrize("n", [2, 3, 4])
def test_m1_num_players_two_to_four(n: int) -> None:
    rules = find_rules(f"mexican,num_players={n}")
    assert rules.num_players == n
    state = GameState.deal(rules, seed=1, dealer=0)
    assert state.num_players == n == len(state.hands) == len(state.tables)


@pytest.mark.parametrize("n", [0, 1, 5, 6])
def test_m1_other_numbers_of_players_refused(n: int) -> None:
    with pytest.raises(InvalidRulesError, match="num_players must be 2 to 4"):
        find_rules(f"mexican,num_players={n}")
    with pytest.raises(InvalidRulesError, match="num_players"):
        Rules(num_players=n, force_by=ForceBy.OFFERER, hand_size=5)


@pytest.mark.parametrize(
    ("spec", "stock"),
    [
        ("mexican,num_players=4,hand_size=10", 0),
        ("standard,num_players=4,force_by=offerer", 0),
        ("mexican,num_players=4,hand_size=10,exchange_one_card=false", 0),
    ],
)
def test_m1_fewer_than_four_stock_cards_refused_naming_both_flags(spec: str, stock: int) -> None:
    with pytest.raises(InvalidRulesError) as info:
        find_rules(spec)
    message = str(info.value)
    assert "num_players" in message and "hand_size" in message
    assert f"leaves {stock} cards" in message


def test_m1_the_fewest_stock_cards_allowed_is_four() -> None:
    rules = find_rules("mexican,num_players=4,hand_size=9")
    assert rules.stock_size == 4
    state = GameState.deal(rules, seed=3, dealer=1)
    assert state.stock_count == 4
    assert [h.bit_count() for h in state.hands] == [9, 9, 9, 9]
    assert find_rules("standard,num_players=3,force_by=offerer").stock_size == 10


def test_m1_the_refusal_is_the_same_from_rules_and_with_flags() -> None:
    with pytest.raises(InvalidRulesError, match="hand_size"):
        find_rules(MEX).with_flags(num_players=4, hand_size=10)


# ----------------------------------------------------------------------- M2 seats


@pytest.mark.parametrize("n", [2, 3, 4])
def test_m2_play_passes_to_the_next_seat(n: int) -> None:
    state = GameState.deal(find_rules(f"mexican,num_players={n}"), seed=2, dealer=0)
    assert [state.next_seat(p) for p in range(n)] == [(p + 1) % n for p in range(n)]


def test_m2_the_last_seat_is_followed_by_seat_zero() -> None:
    """In a four-player game a card paid by seat 3 goes to seat 0, 1, 2, then is dead and
    seat 0 (the seat after the payer) turns."""
    state = mpos(["*", "*", "*", "*"], phase="discard", player=3, rules=MEX4, stock="Kd*")
    paid = CARDS[state.legal_actions()[-1].card]
    play(state, f"discard {paid}")
    assert where(state) == (Phase.OFFER, 0, str(paid), Source.DISCARD, 3, 0)
    play(state, "decline")
    assert where(state) == (Phase.OFFER, 1, str(paid), Source.DISCARD, 3, 1)
    play(state, "decline")
    assert where(state) == (Phase.OFFER, 2, str(paid), Source.DISCARD, 3, 2)
    play(state, "decline")
    assert state.dead_mask == 1 << paid.index
    assert where(state) == (Phase.TURN, 0, "Kd", Source.TURNED, 0, 0)


# ------------------------------------------------------------------- M3 the preset


def test_m3_mexican_preset() -> None:
    rules = find_rules(MEX)
    assert rules.deck_style is DeckStyle.SPANISH
    assert rules.num_players == 3
    assert rules.hand_size == 8 and rules.cards_to_win == 9
    assert rules.exchange_one_card is True
    assert rules.force_by is ForceBy.OFFERER
    assert rules.stock_size == 16
    assert rules.differences(find_rules("standard")) == {
        "deck_style": DeckStyle.SPANISH,
        "hand_size": 8,
        "num_players": 3,
        "exchange_one_card": True,
        "force_by": ForceBy.OFFERER,
    }
    assert rules.to_spec() == "mexican"


def test_m3_tercerilla_is_mexican() -> None:
    assert find_rules("tercerilla") == find_rules(MEX)
    assert find_rules("tercerilla").to_spec() == "mexican"
    assert find_rules("Tercerilla,hand_size=9") == find_rules("mexican,hand_size=9")
    assert find_rules("tercerilla,hand_size=9").to_spec() == "mexican,hand_size=9"


def test_m3_mexican_for_two() -> None:
    rules = find_rules(MEX2)
    assert rules.num_players == 2 and rules.hand_size == 8 and rules.stock_size == 24
    assert rules.exchange_one_card and rules.force_by is ForceBy.OFFERER
    assert rules.to_spec() == MEX2
    state = GameState.deal(rules, seed=4, dealer=1)
    assert [h.bit_count() for h in state.hands] == [8, 8]
    assert len(state.stock) == 24


def test_m3_mexican_hand_size_nine() -> None:
    rules = find_rules("mexican,hand_size=9")
    assert rules.cards_to_win == 10 and rules.stock_size == 13
    assert rules.to_spec() == "mexican,hand_size=9"
    state = GameState.deal(rules, seed=5, dealer=2)
    assert [h.bit_count() for h in state.hands] == [9, 9, 9]
    assert state.stock_count == 13


def test_m3_spec_round_trips_for_mexican_variants() -> None:
    for spec in [MEX, MEX2, MEX4, "mexican,forcing=automatic", "mexican,forcing=off"]:
        rules = find_rules(spec)
        assert find_rules(rules.to_spec()) == rules
    assert find_rules("mexican,forcing=automatic").to_spec() == "mexican,forcing=automatic"


# ----------------------------------------------------------------------- M4 the deal


@pytest.mark.parametrize(("n", "dealer"), [(3, 0), (3, 1), (3, 2), (4, 3), (4, 1), (2, 0)])
def test_m4_seat_after_the_dealer_receives_first(n: int, dealer: int) -> None:
    rules = find_rules(f"mexican,num_players={n}")
    state = GameState.deal(rules, deck=list(range(NUM_CARDS)), dealer=dealer)
    for k in range(n):
        seat = (dealer + 1 + k) % n
        expected = sum(1 << (k + n * j) for j in range(rules.hand_size))
        assert state.hands[seat] == expected, (seat, format_mask(state.hands[seat]))
    assert state.stock == tuple(range(n * rules.hand_size, NUM_CARDS))
    assert len(state.stock) == NUM_CARDS - n * 8 == rules.stock_size
    assert all(t == () for t in state.tables)
    assert state.dealer == dealer and state.dead_mask == 0 and state.stock_pos == 0


def test_m4_deal_packet_two_round_the_table() -> None:
    rules = find_rules("mexican,deal_packet=2")
    state = GameState.deal(rules, deck=list(range(NUM_CARDS)), dealer=2)
    # seat 0 first: 0 1, seat 1: 2 3, seat 2: 4 5, seat 0: 6 7, ...
    for k, seat in enumerate((0, 1, 2)):
        expected = 0
        for j in range(4):
            expected |= 0b11 << (2 * k + 6 * j)
        assert state.hands[seat] == expected


def test_m4_first_dealer_random_over_all_seats() -> None:
    for n in (3, 4):
        dealers = {Match(f"mexican,num_players={n}", seed=s).dealer for s in range(60)}
        assert dealers == set(range(n))


@pytest.mark.parametrize("n", [3, 4])
def test_m4_low_cut_first_dealer_can_be_any_seat(n: int) -> None:
    spec = f"mexican,num_players={n},first_dealer=low_cut"
    dealers = {Match(spec, seed=s).dealer for s in range(80)}
    assert dealers == set(range(n))


@pytest.mark.parametrize("n", [3, 4])
def test_m4_deal_passes_to_the_next_seat_after_every_deal(n: int) -> None:
    match = Match(f"mexican,num_players={n}", seed=11)
    first = match.dealer
    for k in range(n + 2):
        state = match.new_deal()
        assert state.dealer == (first + k) % n
        while not state.is_over:
            state.apply(refusal(state))
        assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)
        match.finish_deal(state)
    assert match.balance == [0] * n


# ------------------------------------------------------------------- M5 the exchange


def test_m5_exchange_order_and_no_card_moves_until_the_dealer_chose() -> None:
    rules = find_rules(MEX)
    state = GameState.deal(rules, deck=list(range(NUM_CARDS)), dealer=0)
    dealt = state.hands
    assert state.phase is Phase.EXCHANGE and state.to_act == 1
    assert state.exchange == (-1, -1, -1)
    assert state.centre == -1 and state.stock_count == 16
    picks = {}
    for seat in (1, 2, 0):
        assert state.phase is Phase.EXCHANGE and state.to_act == seat
        options = state.legal_actions()
        # the legal actions are exactly "exchange <card>" for each card of his own dealt hand
        assert options == tuple(
            Action(ActionKind.EXCHANGE, i) for i in range(40) if dealt[seat] >> i & 1
        )
        assert all(str(a).startswith("exchange ") for a in options)
        assert state.hands == dealt  # nothing has moved yet
        picks[seat] = options[seat % len(options)].card
        state.apply(Action(ActionKind.EXCHANGE, picks[seat]))
    for seat in range(3):
        giver = (seat - 1) % 3
        assert state.hands[seat] == dealt[seat] & ~(1 << picks[seat]) | 1 << picks[giver]
        assert state.hands[seat].bit_count() == 8
        assert state.received(seat) == picks[giver]
    assert state.exchange == (picks[0], picks[1], picks[2])
    # M6: then the seat after the dealer turns the first stock card
    assert where(state) == (Phase.TURN, 1, str(CARDS[24]), Source.TURNED, 1, 1)
    assert state.stock_count == 15
    state.validate()


def test_m5_exchange_order_from_seat_after_dealer_four_players() -> None:
    state = GameState.deal(find_rules(MEX4), seed=8, dealer=2)
    order = []
    while state.phase is Phase.EXCHANGE:
        order.append(state.to_act)
        state.apply(state.legal_actions()[-1])
    assert order == [3, 0, 1, 2]
    assert state.phase is Phase.TURN and state.to_act == 3 and state.owner == 3


def test_m5_cards_are_conserved_through_the_exchange() -> None:
    for n in (2, 3, 4):
        for seed in range(5):
            state = GameState.deal(
                find_rules(f"mexican,num_players={n}"), seed=seed, dealer=seed % n
            )
            before = state.hands
            rng = random.Random(seed)
            while state.phase is Phase.EXCHANGE:
                state.apply(rng.choice(state.legal_actions()))
            union = 0
            for hand in state.hands:
                assert hand.bit_count() == 8
                assert not union & hand
                union |= hand
            original = 0
            for hand in before:
                original |= hand
            assert union == original
            moved = [(before[p] & ~state.hands[p]).bit_count() for p in range(n)]
            assert moved == [1] * n  # each gave exactly one card (and received another)
            state.validate()


def test_m5_with_two_players_the_exchange_is_a_swap() -> None:
    state = GameState.deal(find_rules(MEX2), deck=list(range(NUM_CARDS)), dealer=0)
    # seat 1 received 0 2 4 ..., seat 0 received 1 3 5 ...
    assert state.to_act == 1
    play(state, "exchange As")  # index 0, seat 1's
    assert state.to_act == 0 and state.hands[1] >> 0 & 1
    play(state, "exchange 2s")  # index 1, seat 0's
    assert state.hands[0] & cards("As") and not state.hands[0] & cards("2s")
    assert state.hands[1] & cards("2s") and not state.hands[1] & cards("As")
    assert state.received(0) == idx("As") and state.received(1) == idx("2s")
    assert state.phase is Phase.TURN and state.to_act == 1 and state.centre == 16


def test_m5_exchange_illegal_actions() -> None:
    state = GameState.deal(find_rules(MEX), deck=list(range(NUM_CARDS)), dealer=0)
    not_his = next(i for i in range(40) if not state.hands[1] >> i & 1)
    assert_illegal(state, Action(ActionKind.EXCHANGE, not_his), "not in player 1's hand")
    assert_illegal(state, Action(ActionKind.DISCARD, state.legal_actions()[0].card))
    assert_illegal(state, Action(ActionKind.PASS))
    assert_illegal(state, Action(ActionKind.DECLINE))
    # the card the dealer is about to receive is not yet his to pass
    play(state, "exchange As")
    play(state, f"exchange {CARDS[1]}")
    assert_illegal(state, Action(ActionKind.EXCHANGE, 0))


def test_m5_no_exchange_without_the_flag() -> None:
    rules = find_rules("mexican,exchange_one_card=false")
    state = GameState.deal(rules, deck=list(range(NUM_CARDS)), dealer=1)
    assert state.exchange == ()
    assert where(state) == (Phase.TURN, 2, str(CARDS[24]), Source.TURNED, 2, 2)
    assert len(format_position(state).split()) == 14
    assert ActionKind.EXCHANGE not in kinds(state)


def test_m5_exchange_with_two_player_standard_rules() -> None:
    state = GameState.deal(find_rules("standard,exchange_one_card=true"), seed=3, dealer=1)
    assert state.phase is Phase.EXCHANGE and state.to_act == 0
    play(state, str(state.legal_actions()[0]))
    assert state.phase is Phase.EXCHANGE and state.to_act == 1
    play(state, str(state.legal_actions()[-1]))
    assert state.phase is Phase.TURN and state.to_act == 0


# -------------------------------------------------------------- M6 the first card


@pytest.mark.parametrize("n", [3, 4])
def test_m6_seat_after_dealer_turns_first_no_upcard(n: int) -> None:
    rules = find_rules(f"mexican,num_players={n}")
    for dealer in range(n):
        state = GameState.deal(rules, seed=dealer, dealer=dealer)
        while state.phase is Phase.EXCHANGE:
            state.apply(state.legal_actions()[0])
        first = (dealer + 1) % n
        assert where(state)[:2] == (Phase.TURN, first)
        assert state.centre == state.stock[0] and state.stock_pos == 1
        assert state.source is Source.TURNED and state.owner == first
        assert kinds(state) <= {ActionKind.TAKE, ActionKind.PASS}


def test_m6_no_upcard_with_more_than_two_players() -> None:
    with pytest.raises(InvalidRulesError, match="initial_upcard"):
        find_rules("mexican,initial_upcard=offered_to_both")
    with pytest.raises(InvalidRulesError, match="initial_upcard"):
        find_rules("mexican,num_players=4,initial_upcard=offered_to_both")
    # with two players the upcard is allowed
    assert find_rules("mexican,num_players=2,initial_upcard=offered_to_both").num_players == 2


@pytest.mark.parametrize(
    "spec",
    ["wikipedia,exchange_one_card=true", "mexican,num_players=2,initial_upcard=offered_to_both"],
)
def test_m6_two_player_upcard_comes_after_the_exchange(spec: str) -> None:
    """With two players the upcard (initial_upcard offered_to_both) is turned after the deal
    and offered to the non-dealer, then the dealer (section 10.1, E21); M6 puts the first card
    after the exchange.  So after the exchange the upcard is offered, and the stock holds one
    card fewer than after the deal (or the rules refuse the combination, naming both flags)."""
    try:
        rules = find_rules(spec)
    except InvalidRulesError as exc:
        assert "initial_upcard" in str(exc) and "exchange_one_card" in str(exc)
        return
    state = GameState.deal(rules, deck=list(range(NUM_CARDS)), dealer=0)
    assert state.phase is Phase.EXCHANGE
    while state.phase is Phase.EXCHANGE:
        state.apply(state.legal_actions()[0])
    assert state.source is Source.UPCARD, format_position(state)
    assert (state.phase, state.to_act, state.owner) == (Phase.OFFER, 1, -1)
    assert state.centre == state.stock[0] and state.stock_count == rules.stock_size - 1
    play(state, "decline")
    assert (state.phase, state.to_act, state.source) == (Phase.OFFER, 0, Source.UPCARD)


# ------------------------------------------------------------------ M7 turned card


def test_m7_turned_card_refused_by_all_three_is_dead_and_next_seat_turns() -> None:
    state = mpos(["*", "*", "*"], centre="7c:t0", phase="turn", player=0, stock="Kd*")
    assert legal(state) >= {"pass"}
    play(state, "pass")
    assert where(state) == (Phase.OFFER, 1, "7c", Source.PASSED, 0, 1)
    assert "7c:p0" in format_position(state).split()
    play(state, "decline")
    assert where(state) == (Phase.OFFER, 2, "7c", Source.PASSED, 0, 2)
    play(state, "decline")
    assert state.dead_mask == cards("7c")
    assert where(state) == (Phase.TURN, 1, "Kd", Source.TURNED, 1, 1)
    assert "Kd:t1" in format_position(state).split()


def test_m7_turned_card_round_four_players() -> None:
    state = mpos(["*"] * 4, centre="7c:t2", phase="turn", player=2, rules=MEX4, stock="Kd*")
    play(state, "pass")
    assert where(state)[:2] == (Phase.OFFER, 3)
    play(state, "decline")
    assert where(state)[:2] == (Phase.OFFER, 0)
    play(state, "decline")
    assert where(state)[:2] == (Phase.OFFER, 1)
    play(state, "decline")
    assert state.dead_mask == cards("7c")
    assert where(state) == (Phase.TURN, 3, "Kd", Source.TURNED, 3, 3)


def test_m7_turner_may_take_his_own_card_first() -> None:
    state = mpos(
        ["5h5dKsQs2c3cJh4d", "*", "*"], centre="5c:t0", phase="turn", player=0, stock="Kd*"
    )
    assert "take 5h5d5c" in legal(state)
    play(state, "take 5h5d5c")
    assert state.phase is Phase.DISCARD and state.to_act == 0
    play(state, "discard Ks")
    assert where(state) == (Phase.OFFER, 1, "Ks", Source.DISCARD, 0, 1)


# ------------------------------------------------------------------- M8 paid card


def _paid_by_two() -> GameState:
    return mpos(
        ["2h3h4h6d7dJdQdKd", "5h5dKhQhJh2c3c7c", "5cKsQsJs7s6s"],
        ["-", "-", "AsAhAd"],
        phase="discard",
        player=2,
        stock="Kc*",
    )


def test_m8_paid_card_offered_in_order_and_taker_pays_next() -> None:
    """A card paid by seat 2 is offered to seat 0, then seat 1; seat 1 takes it and pays, and
    that card is offered to seat 2, then seat 0."""
    state = _paid_by_two()
    play(state, "discard 5c")
    assert where(state) == (Phase.OFFER, 0, "5c", Source.DISCARD, 2, 0)
    assert "5c:d2" in format_position(state).split()
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert where(state) == (Phase.OFFER, 1, "5c", Source.DISCARD, 2, 1)
    assert "take 5h5d5c" in legal(state)
    play(state, "take 5h5d5c")
    assert state.phase is Phase.DISCARD and state.to_act == 1
    assert state.table_masks[1] == cards("5h5d5c")
    play(state, "discard Kh")
    assert where(state) == (Phase.OFFER, 2, "Kh", Source.DISCARD, 1, 2)
    play(state, "decline")
    assert where(state) == (Phase.OFFER, 0, "Kh", Source.DISCARD, 1, 0)
    play(state, "decline")
    # never back to the payer: dead, and the seat after the payer (seat 2) turns
    assert state.dead_mask == cards("Kh")
    assert where(state) == (Phase.TURN, 2, "Kc", Source.TURNED, 2, 2)


def test_m8_paid_card_never_offered_back_to_its_payer() -> None:
    state = _paid_by_two()
    play(state, "discard Ks", "decline", "decline")
    assert state.dead_mask == cards("Ks")
    assert where(state) == (Phase.TURN, 0, "Kc", Source.TURNED, 0, 0)


def test_m8_position_of_a_paid_card_offered_to_the_wrong_player_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="never back to its owner"):
        mpos(["*", "*", "*"], centre="7c:d0", player=0)
    with pytest.raises(InvalidStateError, match="turner"):
        mpos(["*", "*", "*"], centre="7c:t1", phase="turn", player=0)


# ------------------------------------------------------------------------ M9 taking


def test_m9_first_taker_ends_the_round() -> None:
    state = mpos(
        ["5s5hKsQs2c3cJh4d", "6c7cKhQh2d3dJd4h", "*"],
        centre="5c:d2",
        phase="offer",
        player=0,
    )
    seat1 = state.hands[1]
    # seat 1 could use it too (5c6c7c), but seat 0 is asked first and takes it
    assert part("5c6c7c") in take_tables(state.child(Action(ActionKind.DECLINE)))
    assert "take 5s5h5c" in legal(state)
    play(state, "take 5s5h5c")
    assert state.phase is Phase.DISCARD and state.to_act == 0
    assert state.table_masks[1] == 0 and state.table_masks[2] == 0
    assert state.hands[1] == seat1
    play(state, "discard Ks")
    assert where(state) == (Phase.OFFER, 1, "Ks", Source.DISCARD, 0, 1)


def test_m9_taker_rearranges_only_his_own_table() -> None:
    state = mpos(
        ["*", "3s3hKsQd", "*"],
        ["-", "3c4c5c6c", "4h5h6h"],
        centre="3d:d0",
        phase="offer",
        player=1,
    )
    assert part("3s3h3d3c/4c5c6c") in take_tables(state)
    play(state, "take:3s3h3d3c/4c5c6c")
    assert state.tables[2] == tuple(sorted(parse_partition("4h5h6h")))
    assert state.table_masks[0] == 0
    assert state.phase is Phase.DISCARD and state.hands[1] == cards("KsQd")


# -------------------------------------------------------------- M10 dead cards


def test_m10_dead_card_then_seat_after_its_owner_turns() -> None:
    # turned by 1 and refused by all: seat 2 turns
    state = mpos(["*", "*", "*"], centre="Qc:t1", phase="turn", player=1, stock="2d*")
    play(state, "pass", "decline", "decline")
    assert state.dead_mask == cards("Qc")
    assert where(state) == (Phase.TURN, 2, "2d", Source.TURNED, 2, 2)
    # paid by 0 and refused by 1 and 2: seat 1 turns
    state = mpos(["*", "*", "*"], phase="discard", player=0, stock="2d*")
    paid = state.legal_actions()[0]
    play(state, str(paid), "decline", "decline")
    assert state.dead_mask == 1 << paid.card
    assert where(state) == (Phase.TURN, 1, "2d", Source.TURNED, 1, 1)


def test_m10_a_pass_is_final() -> None:
    state = mpos(
        ["*", "5h5dKsQs2c3cJh4d", "*"], centre="5c:t1", phase="turn", player=1, stock="2d*"
    )
    play(state, "pass")
    assert state.to_act == 2
    assert_illegal(state, Action.parse("take 5h5d5c"))


# ------------------------------------------------------------------- M11 forcing


def _force() -> GameState:
    """Seat 2 paid 7c; seat 0 (table 3c4c5c6c) may refuse it; seat 1's table is 7s7h7d."""
    return mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
    )


def test_m11_offerer_forces_a_refuser_whose_table_it_fits() -> None:
    state = _force()
    play(state, "decline")
    assert where(state) == (Phase.FORCE, 2, "7c", Source.DISCARD, 2, 0)
    assert "7c:d2>0" in format_position(state).split()
    assert legal(state) == {"force", "noforce"}
    assert state.refuser == 0
    play(state, "force")
    assert where(state)[:2] == (Phase.FORCED, 0)
    assert kinds(state) == {ActionKind.TAKE}
    assert take_tables(state) == {part("3c4c5c6c7c")}
    assert_illegal(state, Action(ActionKind.DECLINE))
    play(state, "take:3c4c5c6c7c")
    # the forced player pays, and his paid card starts a round from the seat after him
    assert state.phase is Phase.DISCARD and state.to_act == 0
    play(state, "discard Kh")
    assert where(state) == (Phase.OFFER, 1, "Kh", Source.DISCARD, 0, 1)


def test_m11_noforce_lets_the_card_go_on_round_the_table() -> None:
    state = _force()
    play(state, "decline", "noforce")
    assert where(state) == (Phase.OFFER, 1, "7c", Source.DISCARD, 2, 1)
    assert state.dead_mask == 0


def test_m11_offerer_forces_a_later_refuser() -> None:
    state = mpos(
        ["KhKdQsJs2d3d4dJh", "2s3s5hQh", "*"],
        ["-", "3c4c5c6c", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
    )
    play(state, "decline")  # seat 0's table is empty: no force, on to seat 1
    assert where(state) == (Phase.OFFER, 1, "7c", Source.DISCARD, 2, 1)
    play(state, "decline")
    assert where(state) == (Phase.FORCE, 2, "7c", Source.DISCARD, 2, 1)
    assert "7c:d2>1" in format_position(state).split()
    play(state, "force")
    assert where(state)[:2] == (Phase.FORCED, 1)
    play(state, "take:3c4c5c6c7c", "discard 2s")
    assert where(state) == (Phase.OFFER, 2, "2s", Source.DISCARD, 1, 2)


def test_m11_turner_refusing_his_own_card_cannot_be_forced() -> None:
    state = mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:t0",
        phase="turn",
        player=0,
    )
    play(state, "pass")
    # no force phase: the card goes on to seat 1
    assert where(state) == (Phase.OFFER, 1, "7c", Source.PASSED, 0, 1)
    # seat 1 refuses a card that fits his set: the turner (seat 0) may force him
    play(state, "decline")
    assert where(state) == (Phase.FORCE, 0, "7c", Source.PASSED, 0, 1)
    play(state, "force")
    assert take_tables(state) == {part("7s7h7d7c")}


def test_m11_turner_refusal_not_forced_under_automatic() -> None:
    rules = "mexican,forcing=automatic"
    state = mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:t0",
        phase="turn",
        player=0,
        rules=rules,
    )
    play(state, "pass")
    assert where(state) == (Phase.OFFER, 1, "7c", Source.PASSED, 0, 1)
    play(state, "decline")  # fits seat 1's set: forced at once, nobody asked
    assert where(state) == (Phase.FORCED, 1, "7c", Source.PASSED, 0, 1)
    assert take_tables(state) == {part("7s7h7d7c")}


def test_m11_automatic_forcing_forces_the_refuser_at_once() -> None:
    state = mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
        rules="mexican,forcing=automatic",
    )
    play(state, "decline")
    assert where(state) == (Phase.FORCED, 0, "7c", Source.DISCARD, 2, 0)
    assert kinds(state) == {ActionKind.TAKE}


def test_m11_forcing_off_never_forces() -> None:
    state = mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
        rules="mexican,forcing=off",
        stock="Qc*",
    )
    play(state, "decline")
    assert where(state)[:2] == (Phase.OFFER, 1)
    play(state, "decline")
    assert state.dead_mask == cards("7c")
    assert where(state) == (Phase.TURN, 0, "Qc", Source.TURNED, 0, 0)


def test_m11_not_forceable_when_a_hand_card_is_needed() -> None:
    state = mpos(
        ["6cKhKdQsJs", "*", "*"],
        ["3c4c5c", "-", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
    )
    assert part("3c4c5c6c7c") in take_tables(state)
    play(state, "decline")
    assert where(state)[:2] == (Phase.OFFER, 1)


def test_m11_force_position_parses_and_is_checked() -> None:
    state = _force()
    play(state, "decline")
    again = parse_position(format_position(state))
    assert where(again) == where(state)
    assert again.legal_actions() == state.legal_actions()
    with pytest.raises(InvalidStateError, match="never back to its owner"):
        parse_position(format_position(state).replace("7c:d2>0", "7c:d2>2"))
    # a refuser whose table the card does not fit cannot be in a force decision
    state = mpos(
        ["KhKdQsJs2d3d4dJh", "2s3s5hQh", "*"], ["-", "3c4c5c6c", "-"], centre="7c:d2", player=1
    )
    play(state, "decline")
    assert "7c:d2>1" in format_position(state).split()
    with pytest.raises(InvalidStateError, match="cannot be forced on player 0"):
        parse_position(format_position(state).replace("7c:d2>1", "7c:d2>0"))


# ------------------------------------------------------------------ M12 one force


def test_m12_offerer_asked_after_each_refusal_in_offer_order() -> None:
    state = mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
        stock="Qc*",
    )
    play(state, "decline")
    assert where(state)[:2] == (Phase.FORCE, 2) and state.offeree == 0
    play(state, "noforce")
    assert where(state)[:2] == (Phase.OFFER, 1)
    play(state, "decline")
    assert where(state)[:2] == (Phase.FORCE, 2) and state.offeree == 1
    play(state, "noforce")
    assert state.dead_mask == cards("7c")
    assert where(state) == (Phase.TURN, 0, "Qc", Source.TURNED, 0, 0)


def test_m12_a_forced_take_may_go_out() -> None:
    state = mpos(
        ["-", "*", "*"],
        ["3c4c5c6c/KsKhKdKc", "-", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
    )
    play(state, "decline", "force")
    play(state, "take:3c4c5c6c7c/KsKhKdKc")
    assert state.is_over
    assert state.outcome() == (0, Termination.OUT)
    assert state.table_masks[0].bit_count() == 9


# ------------------------------------------------------------- M13 force_by opponent


def test_m13_force_by_opponent_refused_with_more_players() -> None:
    for spec in (
        "mexican,force_by=opponent",
        "standard,num_players=3",
        MEX4 + ",force_by=opponent",
    ):
        with pytest.raises(InvalidRulesError) as info:
            find_rules(spec)
        assert "force_by" in str(info.value) and "num_players" in str(info.value)


def test_m13_the_refusal_names_remedies_that_work() -> None:
    """The refusal of force_by=opponent with three players proposes other settings; each one it
    names must then be accepted."""
    with pytest.raises(InvalidRulesError) as info:
        find_rules("standard,num_players=3")
    message = str(info.value)
    remedies = re.findall(r"(force_by=offerer|forcing=off)", message)
    assert "force_by=offerer" in remedies
    for remedy in remedies:
        rules = find_rules(f"standard,num_players=3,{remedy}")
        assert rules.num_players == 3


def test_m13_force_by_opponent_forces_a_turners_passed_card() -> None:
    """The two-player rule: the opponent may force the turner's own passed card."""
    state = mpos(
        ["Ks", "*"],
        ["2h3h4h5h/2c3c4c", "-"],
        centre="6h:t",
        phase="turn",
        player=0,
        rules="mexican,num_players=2,force_by=opponent",
        dealer=1,
    )
    play(state, "pass")
    assert where(state)[:2] == (Phase.FORCE, 1)
    play(state, "force")
    assert take_tables(state) == {part("2h3h4h5h6h/2c3c4c")}


# --------------------------------------------------------------- M14 own table only


def test_m14_nobody_melds_on_another_players_table() -> None:
    state = mpos(
        ["*", "2s3sKsQsJsKdQdJd", "*"],
        ["-", "-", "4h5h6h"],
        centre="7h:d0",
        phase="offer",
        player=1,
    )
    assert legal(state) == {"decline"}
    assert_illegal(state, Action.take(parse_partition("4h5h6h7h")))
    play(state, "decline")
    # seat 2 may put it on his own run
    assert where(state)[:2] == (Phase.OFFER, 2)
    assert part("4h5h6h7h") in take_tables(state)
    play(state, "take:4h5h6h7h")
    assert state.table_masks[1] == 0 and state.table_masks[2] == cards("4h5h6h7h")


def test_m14_a_paid_card_fitting_only_its_payers_table_goes_dead() -> None:
    # 7c fits only seat 2's run, and seat 2 paid it: nobody else may put it there, nothing
    # can be forced (the others' tables are empty), and it is never offered back to seat 2
    state = mpos(
        ["KhKdQsJs2d3d4dJh", "*", "*"],
        ["-", "-", "3c4c5c6c"],
        centre="7c:d2",
        phase="offer",
        player=0,
        stock="Qc*",
    )
    play(state, "decline")
    assert where(state)[:2] == (Phase.OFFER, 1)
    play(state, "decline")
    assert state.dead_mask == cards("7c")
    assert where(state)[:2] == (Phase.TURN, 0)


# ------------------------------------------------------------------- M15 going out


def test_m15_going_out_by_a_take_ends_the_deal_without_a_discard() -> None:
    state = mpos(
        ["*", "5s", "*"],
        ["-", "As2s3s4s/KhKdKc", "-"],
        centre="6s:d0",
        phase="offer",
        player=1,
    )
    assert part("As2s3s4s5s6s/KhKdKc") in take_tables(state)
    play(state, "take:As2s3s4s5s6s/KhKdKc")
    assert state.is_over and state.phase is Phase.OVER
    assert state.outcome() == (1, Termination.OUT)
    assert state.hands[1] == 0 and state.table_masks[1].bit_count() == 9
    assert state.legal_actions() == ()
    assert format_position(state).split()[1:3] == ["over", "1"]


def test_m15_hand_size_nine_goes_out_with_ten() -> None:
    rules = "mexican,hand_size=9"
    # nine on the table is out with hand_size 8, not with hand_size 9: he pays
    state = mpos(
        ["*", "KhKd5s", "*"], ["-", "As2s3s/JhJdJc", "-"], centre="Kc:d0", player=1, rules=rules
    )
    play(state, "take:As2s3s/JhJdJc/KhKdKc")
    assert state.phase is Phase.DISCARD and state.to_act == 1
    assert state.table_masks[1].bit_count() == 9 and state.hands[1] == cards("5s")
    # ten on the table is out
    state = mpos(
        ["*", "KhKd", "*"], ["-", "As2s3s4s/JhJdJc", "-"], centre="Kc:d0", player=1, rules=rules
    )
    play(state, "take:As2s3s4s/JhJdJc/KhKdKc")
    assert state.outcome() == (1, Termination.OUT)
    assert state.table_masks[1].bit_count() == 10 == find_rules(rules).cards_to_win


def test_m15_hand_size_melded_with_an_empty_hand_is_not_out() -> None:
    state = mpos(
        ["Qh", "*", "*"],
        ["As2s3s4s5s/KhKdKc", "-", "-"],
        phase="discard",
        player=0,
        stock="6s*",
    )
    play(state, "discard Qh")
    assert not state.is_over
    assert state.hands[0] == 0 and state.table_masks[0].bit_count() == 8
    assert where(state)[:2] == (Phase.OFFER, 1)
    play(state, "decline", "decline")  # Qh dead; seat 1 turns 6s
    assert where(state) == (Phase.TURN, 1, "6s", Source.TURNED, 1, 1)
    play(state, "pass", "decline")
    assert where(state)[:2] == (Phase.OFFER, 0)
    play(state, "take:As2s3s4s5s6s/KhKdKc")
    assert state.outcome() == (0, Termination.OUT)


# ----------------------------------------------------------------- M16 exhaustion


def _exhausted(rules: str, tie: bool = False) -> GameState:
    hand0, table0 = "KsKh", "As2s3s/AhAdAc"
    hand1, table1 = ("2d3d", "4h5h6h/4c5c6c") if tie else ("2d3d5cJc7c", "4h5h6h")
    hand2 = "4s5s6s7sJsQsJhQh"
    dead = rest(hand0, table0, hand1, table1, hand2, "Qd")
    return mpos(
        [hand0, hand1, hand2],
        [table0, table1, "-"],
        centre="Qd:p0",
        phase="offer",
        player=2,
        dead=dead,
        stock="-",
        rules=rules,
    )


def test_m16_exhausted_stock_draws_the_deal() -> None:
    state = _exhausted(MEX)
    play(state, "decline")
    assert state.is_over
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)
    assert str(state.outcome()) == "draw (stock exhausted)"
    assert state.dead_mask & cards("Qd")


def test_m16_fewest_hand_cards_wins() -> None:
    state = _exhausted("mexican,exhaustion=fewest_hand_cards")
    assert [h.bit_count() for h in state.hands] == [2, 5, 8]
    play(state, "decline")
    assert state.outcome() == (0, Termination.STOCK_EXHAUSTED)
    assert str(state.outcome()) == "player 0 wins (held fewer cards)"
    assert format_position(state).split()[1:3] == ["over", "0"]


def test_m16_a_tie_for_fewest_is_a_draw() -> None:
    state = _exhausted("mexican,exhaustion=fewest_hand_cards", tie=True)
    assert [h.bit_count() for h in state.hands] == [2, 2, 8]
    play(state, "decline")
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)


def test_m16_last_stock_card_is_played_as_usual() -> None:
    hand0, table0 = "KsKh", "As2s3s/AhAdAc"
    hand1, table1 = "2d3d5cJc7c", "4h5h6h"
    hand2 = "4s5s6s7sJsQsJhQh"
    dead = rest(hand0, table0, hand1, table1, hand2, "Qd", "Kd")
    state = mpos(
        [hand0, hand1, hand2],
        [table0, table1, "-"],
        centre="Qd:p0",
        phase="offer",
        player=2,
        dead=dead,
        stock="Kd",
    )
    play(state, "decline")
    assert where(state) == (Phase.TURN, 1, "Kd", Source.TURNED, 1, 1)
    assert state.stock_count == 0
    play(state, "pass", "decline")
    assert where(state)[:2] == (Phase.OFFER, 0)
    play(state, "take:As2s3s/AhAdAc/KsKhKd")
    assert state.outcome() == (0, Termination.OUT)


# ------------------------------------------------------------------- M17 stakes


def _won_deal(spec: str, seed: int) -> tuple[Match, GameState]:
    match = Match(spec, seed=seed)
    for k in range(30):
        game = match.new_game()
        finish_won(game, seed * 100 + k)
        final = game.state
        if final.outcome() is not None and final.outcome().winner is not None:
            return match, final
        match.settle()
    raise AssertionError("no decided deal")


@pytest.mark.parametrize("n", [3, 4])
def test_m17_every_other_player_pays_the_winner(n: int) -> None:
    match, final = _won_deal(f"mexican,num_players={n}", 5)
    draws = match.draws_in_a_row
    value = final.stake
    assert value == 1 + draws  # draw_stake carry
    before = list(match.balance)
    result = match.settle()
    winner = final.winner
    assert winner is not None
    assert result.value == value
    for p in range(n):
        change = match.balance[p] - before[p]
        assert change == ((n - 1) * value if p == winner else -value)
    assert sum(match.balance) == 0
    assert match.leader == winner
    assert match.is_over


def test_m17_points_scoring_each_loser_by_his_hand() -> None:
    match, final = _won_deal("mexican,scoring=points,draw_stake=none", 7)
    winner = final.winner
    assert winner is not None
    result = match.settle()
    expected = sum(hand_points(h) for p, h in enumerate(final.hands) if p != winner)
    assert result.value == expected
    assert match.balance[winner] == expected
    for p, hand in enumerate(final.hands):  # each loser pays the points of his own hand
        if p != winner:
            assert match.balance[p] == -hand_points(hand)
    assert sum(match.balance) == 0


def test_m17_points_scoring_the_outside_check_s_position() -> None:
    """The outside check's case: at three players each loser pays his own hand's points."""
    spec = "mexican,scoring=points,draw_stake=none"
    match = Match(spec, seed=3)
    match.new_game()
    final = parse_position(
        f"{spec} over 1 0 As2s3s4s5s - 6s7sJs5h6h KsKhKd Ah2h3h/4d5d6d/7cJcQc QsQhQd - - * 1 -"
    )
    assert match.finish_deal(final).value == 63
    assert match.balance == [-29, 63, -34]


# ---------------------------------------------------------------- M18 observations


def test_m18_observation_shows_the_public_position() -> None:
    state = mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
        dead="Qd",
        stock="Kc2c*",
    )
    for p in range(3):
        obs = observe(state, p)
        assert obs.num_players == 3 and obs.viewer == p
        assert obs.tables == state.tables
        assert obs.hand_mask == state.hands[p]
        assert (obs.centre, obs.source, obs.owner, obs.offeree) == (idx("7c"), Source.DISCARD, 2, 0)
        assert obs.hand_counts == (4, 5, 8)
        assert obs.stock_count == state.stock_count
        assert obs.dead_mask == cards("Qd")
        assert obs.others == tuple((p + k) % 3 for k in (1, 2))
        assert (obs.passed, obs.received) == (-1, -1)
        data = obs.to_dict()
        assert data["centre_owner"] == 2 and data["offeree"] == 0
        assert data["tables"][1] == [["7s", "7h", "7d"]]
        assert data["hand_counts"] == [4, 5, 8]
        assert data["exchange"] == {"passed": None, "received": None}
        assert bool(obs.legal_actions) == (p == 0)
        assert Observation.from_dict(data) == obs
        hidden = unturned(state)
        for q in range(3):
            if q != p:
                hidden |= state.hands[q]
        shown = {idx(t) for t in CARD_TOKEN.findall(json.dumps(data))}
        assert not any(hidden >> i & 1 for i in shown)


def test_m18_exchange_choices_hidden_during_the_exchange() -> None:
    game = Game(MEX, deck=list(range(NUM_CARDS)), dealer=0)
    first = game.legal_actions()[2]
    game.push(first)  # seat 1's choice
    secret = str(CARDS[first.card])
    for p in (0, 2):
        obs = game.observation(p)
        assert obs.passed == -1 and obs.received == -1
        assert [str(e) for e in obs.history] == ["p1 exchange ?"]
        data = obs.to_dict()
        assert data["history"] == ["p1 exchange ?"]
        assert data["exchange"] == {"passed": None, "received": None}
        assert secret not in CARD_TOKEN.findall(json.dumps(data))
        assert Observation.from_dict(data) == obs
    mine = game.observation(1)
    assert mine.passed == first.card and mine.received == -1
    assert [str(e) for e in mine.history] == [f"p1 exchange {secret}"]
    assert mine.to_dict()["exchange"] == {"passed": secret, "received": None}
    # the next chooser's options do not depend on seat 1's choice
    other = Game(MEX, deck=list(range(NUM_CARDS)), dealer=0)
    other.push(other.legal_actions()[0])
    assert game.observation(2).legal_actions == other.observation(2).legal_actions
    assert game.observation(2) == other.observation(2)


def test_m18_after_the_exchange_each_sees_what_he_passed_and_received() -> None:
    game = Game(MEX, deck=list(range(NUM_CARDS)), dealer=0)
    picks: dict[int, int] = {}
    while game.state.phase is Phase.EXCHANGE:
        seat = game.state.to_act
        action = game.legal_actions()[-1]
        picks[seat] = action.card
        game.push(action)
    for p in range(3):
        giver = (p - 1) % 3
        obs = game.observation(p)
        assert obs.received == picks[giver] == game.state.received(p)
        assert obs.passed == picks[p]
        assert obs.hand_mask >> picks[giver] & 1
        history = [str(e) for e in obs.history]
        assert history == [
            f"p{q} exchange {CARDS[picks[q]]}" if q == p else f"p{q} exchange ?" for q in (1, 2, 0)
        ]
        data = obs.to_dict()
        assert data["exchange"] == {
            "passed": str(CARDS[picks[p]]),
            "received": str(CARDS[picks[giver]]),
        }
        shown = set(CARD_TOKEN.findall(json.dumps(data)))
        third = (p + 1) % 3  # his choice went to the seat after him, not to p
        assert str(CARDS[picks[third]]) not in shown
        assert Observation.from_dict(data) == obs
        # his passed card is known to be with its receiver: it stays there in a redeal
        for k in range(5):
            again = game.state.redeal(p, random.Random(k))
            assert again.hands[(p + 1) % 3] >> picks[p] & 1
            assert observe(again, p) == observe(game.state, p)
            again.validate()


def test_m18_redeal_during_the_exchange_keeps_the_view() -> None:
    state = GameState.deal(find_rules(MEX), seed=12, dealer=1)
    play(state, str(state.legal_actions()[3]))
    for p in range(3):
        view = observe(state, p)
        changed = 0
        for k in range(6):
            again = state.redeal(p, random.Random(k))
            again.validate()
            assert observe(again, p) == view
            changed += again.hands != state.hands
        assert changed


def test_m18_seen_and_unknown_cards() -> None:
    state = mpos(
        ["KhKdQsJs", "2s3s5hJdAc", "*"],
        ["3c4c5c6c", "7s7h7d", "-"],
        centre="7c:d2",
        phase="offer",
        player=0,
        dead="Qd",
    )
    obs = observe(state, 1)
    assert obs.seen_mask == cards("3c4c5c6c7s7h7d7cQd")
    assert obs.unknown_mask == ALL_CARDS_MASK & ~obs.seen_mask & ~state.hands[1]


# ------------------------------------------------------------- M19 two players


def test_m19_two_player_mexican_turner_passed_card_not_forced() -> None:
    state = mpos(
        ["Ks", "*"],
        ["2h3h4h5h/2c3c4c", "-"],
        centre="6h:t",
        phase="turn",
        player=0,
        dealer=1,
        rules=MEX2,
        stock="Qc*",
    )
    play(state, "pass")
    assert where(state) == (Phase.OFFER, 1, "6h", Source.PASSED, 0, 1)
    play(state, "decline")
    assert state.dead_mask == cards("6h")
    assert where(state) == (Phase.TURN, 1, "Qc", Source.TURNED, 1, 1)


def test_m19_two_player_mexican_paid_card_forced_by_its_payer() -> None:
    state = mpos(
        ["KhKd2sJh", "*"],
        ["3c4c5c6c", "-"],
        centre="7c:d",
        phase="offer",
        player=0,
        dealer=1,
        rules=MEX2,
    )
    play(state, "decline")
    assert where(state) == (Phase.FORCE, 1, "7c", Source.DISCARD, 1, 0)
    play(state, "force", "take:3c4c5c6c7c", "discard Kh")
    assert where(state) == (Phase.OFFER, 1, "Kh", Source.DISCARD, 0, 1)


def test_m19_two_player_offer_round_is_the_two_player_turn() -> None:
    state = mpos(["*", "*"], centre="Qc:t", phase="turn", player=1, rules=MEX2, stock="2d*")
    play(state, "pass")
    assert where(state) == (Phase.OFFER, 0, "Qc", Source.PASSED, 1, 0)
    play(state, "decline")
    assert where(state) == (Phase.TURN, 0, "2d", Source.TURNED, 0, 0)
    # a paid card goes to the other player only
    state = mpos(["*", "*"], phase="discard", player=0, rules=MEX2, stock="2d*")
    paid = state.legal_actions()[0]
    play(state, str(paid))
    assert where(state)[:2] == (Phase.OFFER, 1)
    play(state, "decline")
    assert state.dead_mask == 1 << paid.card
    assert where(state) == (Phase.TURN, 1, "2d", Source.TURNED, 1, 1)


def test_m19_two_player_positions_keep_twelve_fields() -> None:
    text = "standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1"
    state = parse_position(text)
    assert [str(a) for a in state.legal_actions()] == ["take 3s4s5s6s", "decline"]
    out = format_position(state)
    assert len(out.split()) == 12 and out.split()[8] == "6s:d"
    assert (state.owner, state.offeree) == (1, 0)
    # the Mexican rules for two add the exchange field only
    state = GameState.deal(find_rules(MEX2), seed=1, dealer=0)
    assert len(format_position(state).split()) == 13
    assert format_position(state).split()[-1] == "-,-"


# ------------------------------------------------- two-player game unchanged


def test_two_player_docstring_positions_unchanged() -> None:
    state = GameState.deal(Rules(), deck=list(range(NUM_CARDS)), dealer=0)
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.TURN, 1, "Ad")
    assert [str(a) for a in state.legal_actions()] == ["take AsAhAd", "pass"]
    state.apply(Action.parse("take AsAhAd"))
    assert str(state.hand(1)) == "3s 5s 7s Qs 3h 5h 7h Qh"
    # test_rules_statements d18: the opponent forces the turner's own passed card
    state = parse_position("standard offer 0 1 KsKd * 2h3h4h5h/2c3c4c5c - Qd:d - 6h* 1")
    play(state, "decline")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.TURN, 0, "6h")
    play(state, "pass")
    assert (state.phase, state.to_act) == (Phase.FORCE, 1)
    play(state, "force", "take:2h3h4h5h6h/2c3c4c5c")
    assert legal(state) == {"discard Ks", "discard Kd"}


TWO_PLAYER_BEFORE = Path(__file__).parent / "data" / "two_player_before.json"


def _two_player_games() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(TWO_PLAYER_BEFORE.read_text(encoding="utf-8"))
    return games


@pytest.mark.parametrize("entry", _two_player_games(), ids=lambda e: f"{e['rules']}-{e['seed']}")
def test_two_player_games_play_as_before(entry: dict[str, Any]) -> None:
    """Positions, legal actions, observations and records of two-player games are exactly
    those of the two-player engine (commit 71969ac)."""
    game = Game(entry["rules"], seed=entry["seed"], dealer=entry["dealer"])
    digest = hashlib.sha256()
    actions = iter(entry["actions"])
    while True:
        state = game.state
        digest.update(format_position(state).encode())
        digest.update(" | ".join(str(a) for a in state.legal_actions()).encode())
        for p in (0, 1):
            digest.update(json.dumps(game.observation(p).to_dict(), sort_keys=True).encode())
        if state.is_over:
            break
        game.push(Action.parse(next(actions)))
    assert next(actions, None) is None
    assert format_position(game.state) == entry["final"]
    assert str(game.state.outcome()) == entry["outcome"]
    assert digest.hexdigest() == entry["digest"]
    record = GameRecord.from_game(game)
    assert hashlib.sha256(record.dumps().encode()).hexdigest() == entry["record_sha256"]
    for p in (0, 1):
        text = record.for_player(p).dumps()
        assert hashlib.sha256(text.encode()).hexdigest() == entry["redacted_sha256"][p]


# ------------------------------------------------------------ position strings


def test_position_n_player_examples_round_trip() -> None:
    texts = []
    state = _paid_by_two()
    texts.append(format_position(state))
    play(state, "discard 5c")
    texts.append(format_position(state))
    state = _force()
    play(state, "decline")
    texts.append(format_position(state))
    play(state, "force")
    texts.append(format_position(state))
    state = GameState.deal(find_rules(MEX4), seed=1, dealer=3)
    texts.append(format_position(state))
    play(state, str(state.legal_actions()[0]))
    texts.append(format_position(state))
    for text in texts:
        again = parse_position(text)
        assert format_position(again) == text
    assert texts[1].split()[10] == "5c:d2"
    assert texts[2].split()[10] == "7c:d2>0"
    assert texts[3].split()[10] == "7c:d2"
    assert texts[4].split()[-1] == "-,-,-,-" and len(texts[4].split()) == 4 + 8 + 4 + 1
    assert re.fullmatch(r"[A2-7JQK][shdc],-,-,-", texts[5].split()[-1])


def test_position_hand_written_three_player_example() -> None:
    text = (
        "mexican offer 1 2 KsKh 2d3d5c7cJc 4s5s6s7sJsQsJhQh As2s3s/AhAdAc 4h5h6h - "
        "Qd:p0 - * 1 Ks,5h,2c"
    )
    state = parse_position(text)
    assert where(state) == (Phase.OFFER, 1, "Qd", Source.PASSED, 0, 1)
    assert state.exchange == (idx("Ks"), idx("5h"), idx("2c"))
    assert state.received(1) == idx("Ks")
    fields = format_position(state).split()
    assert fields[:12] == text.split()[:12]
    assert fields[-1] == "Ks,5h,2c"
    assert parse_position(format_position(state)).legal_actions() == state.legal_actions()


def _three(**changes: str) -> str:
    fields = {
        "rules": "mexican",
        "phase": "offer",
        "player": "1",
        "dealer": "2",
        "hands": "KsKh 2d3d5c7cJc 4s5s6s7sJsQsJhQh",
        "tables": "As2s3s/AhAdAc 4h5h6h -",
        "centre": "Qd:p0",
        "dead": "-",
        "stock": "*",
        "stake": "1",
        "exchange": "-",
    }
    fields.update(changes)
    return " ".join(fields.values()).replace("  ", " ").strip()


def test_position_three_player_template_is_valid() -> None:
    state = parse_position(_three())
    assert state.num_players == 3


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"exchange": ""}, "A position has 15 fields"),
        ({"hands": "KsKh 2d3d5c7cJc"}, "A position has 15 fields"),
        ({"centre": "Qd:p"}, "names who turned or paid"),
        ({"centre": "Qd:d"}, "names who turned or paid"),
        ({"centre": "Qd:p3"}, "0 to 2"),
        ({"player": "3"}, "player field must be 0 to 2"),
        ({"dealer": "3"}, "dealer field must be 0 to 2"),
        ({"exchange": "Ks,5h"}, "exchange field names a card"),
        ({"exchange": "Ks,5h,2c,3c"}, "exchange field names a card"),
        ({"exchange": "KsKh,5h,2c"}, "one card per player"),
        ({"exchange": "Ks,Xx,2c"}, "exchange"),
        ({"centre": "Qd:p0>1"}, "Only in phase force"),
        ({"phase": "force", "player": "0", "centre": "Qd:p0"}, "names who refused"),
        ({"centre": "Qd"}, "needs a source"),
    ],
)
def test_position_malformed_three_player(changes: dict[str, str], message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        parse_position(_three(**changes))


def test_position_three_player_with_two_player_field_count() -> None:
    text = "mexican offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1"
    with pytest.raises(InvalidNotationError, match=r"15 fields.*got 12"):
        parse_position(text)


def test_position_four_player_centre_owner() -> None:
    state = mpos(["*"] * 4, centre="7c:d3", player=0, rules=MEX4)
    assert (state.owner, state.offeree, state.to_act) == (3, 0, 0)
    with pytest.raises(InvalidNotationError, match="0 to 3"):
        mpos(["*"] * 4, centre="7c:d4", player=0, rules=MEX4)
    with pytest.raises(InvalidNotationError, match="names who turned or paid"):
        mpos(["*"] * 4, centre="7c:d", player=0, rules=MEX4)


def test_position_exchange_field_checked_against_the_state() -> None:
    base = GameState.deal(find_rules(MEX), deck=list(range(NUM_CARDS)), dealer=0)
    text = format_position(base)
    assert text.split()[-1] == "-,-,-"
    # seat 2 cannot have chosen before seat 1 (to act)
    fields = text.split()
    fields[-1] = f"-,-,{CARDS[1]}"
    with pytest.raises(InvalidStateError, match="exchange"):
        parse_position(" ".join(fields))
    # a chosen card must be in the chooser's hand
    fields = text.split()
    fields[2] = "2"
    fields[-1] = f"-,{CARDS[1]},-"
    with pytest.raises(InvalidStateError, match="not in his hand"):
        parse_position(" ".join(fields))
    fields[-1] = f"-,{CARDS[0]},-"
    state = parse_position(" ".join(fields))
    assert state.exchange == (-1, 0, -1) and state.to_act == 2
    # the exchange field is refused by rules without the exchange
    with pytest.raises(InvalidNotationError, match="fields"):
        parse_position(format_position(GameState.deal(Rules(), seed=1)) + " -")


# -------------------------------------------------------------------- records


def test_record_redacts_another_players_exchange_choice() -> None:
    game = Game(MEX, deck=list(range(NUM_CARDS)), dealer=0, players=("a", "b", "c"))
    picks: dict[int, int] = {}
    while game.state.phase is Phase.EXCHANGE:
        action = game.legal_actions()[0]
        picks[game.state.to_act] = action.card
        game.push(action)
    record = GameRecord.from_game(game)
    assert record.actions[:3] == tuple(f"p{q} exchange {CARDS[picks[q]]}" for q in (1, 2, 0))
    assert GameRecord.loads(record.dumps()) == record
    mine = record.for_player(0)
    # seat 0 chose his own card and received seat 2's; seat 1's choice went to seat 2
    assert mine.actions[:3] == (
        "p1 exchange ??",
        f"p2 exchange {CARDS[picks[2]]}",
        record.actions[2],
    )
    assert str(CARDS[picks[1]]) not in CARD_TOKEN.findall(mine.dumps())
    again = GameRecord.loads(mine.dumps())
    assert again == mine
    replayed = again.to_game().state
    assert replayed.hands[0] == game.state.hands[0]
    assert replayed.received(0) == picks[2]
    # "??" is only for redacted records
    with pytest.raises(RecordError):
        GameRecord.loads(mine.dumps().replace("viewpoint = 0\n", "")).to_game()


def test_record_players_count_must_match_the_rules() -> None:
    game = Game(MEX, seed=3, dealer=1)
    text = GameRecord.from_game(game).dumps()
    assert 'players = ["player 0", "player 1", "player 2"]' in text
    with pytest.raises(RecordError, match="three names"):
        GameRecord.loads(text.replace(', "player 2"', ""))
    with pytest.raises(RecordError, match="'dealer' must be 0 to 2"):
        GameRecord.loads(text.replace("dealer = 1", "dealer = 3"))
    # an action line for a fourth player is refused with its number
    first = str(game.legal_actions()[0])
    bad = text.replace("actions = [\n]", f'actions = [\n  "p3 {first}",\n]')
    assert bad != text
    with pytest.raises(RecordError, match="Action 1"):
        GameRecord.loads(bad).to_game()
    # and one out of turn
    bad = text.replace("actions = [\n]", f'actions = [\n  "p0 {first}",\n]')
    with pytest.raises(RecordError, match="Action 1"):
        GameRecord.loads(bad).to_game()
    good = text.replace("actions = [\n]", f'actions = [\n  "p2 {first}",\n]')
    assert GameRecord.loads(good).to_game().history[0].player == 2


def test_match_record_round_trip_three_players() -> None:
    match = Match(MEX, seed=21, players=("a", "b", "c"))
    for k in range(3):
        game = match.new_game()
        finish_won(game, k)
        match.settle()
        if match.is_over:
            break
    record = MatchRecord.from_match(match)
    again = MatchRecord.loads(record.dumps()).to_match()
    assert again.balance == match.balance
    assert [g.history for g in again.games] == [g.history for g in match.games]


# ---------------------------------------------------------- random-game properties

PROPERTY_SPECS = [
    (MEX, 30),
    (MEX2, 30),
    (MEX4, 30),
    ("mexican,forcing=automatic", 30),
    ("mexican,exhaustion=fewest_hand_cards", 30),
]
MAX_ACTIONS = 300


def check_conservation(state: GameState) -> None:
    places = [*state.hands, *state.table_masks, state.dead_mask, unturned(state)]
    if state.centre >= 0:
        places.append(1 << state.centre)
    seen = 0
    for mask in places:
        assert not mask & seen, f"{format_mask(mask & seen)} twice: {format_position(state)}"
        seen |= mask
    assert seen == ALL_CARDS_MASK, f"lost {format_mask(~seen & ALL_CARDS_MASK)}"
    assert sum(m.bit_count() for m in places) == NUM_CARDS


def check_counts(state: GameState) -> None:
    rules = state.rules
    for p in range(state.num_players):
        count = state.hands[p].bit_count() + state.table_masks[p].bit_count()
        if state.phase is Phase.OVER and state.winner == p and state.termination is Termination.OUT:
            assert count == rules.cards_to_win and state.hands[p] == 0
        elif state.phase is Phase.DISCARD and p == state.to_act:
            assert count == rules.hand_size + 1
        else:
            assert count == rules.hand_size, (p, format_position(state))
        union = 0
        for meld in state.tables[p]:
            assert meld in state.melds.valid
            assert not meld & union
            union |= meld
        assert union == state.table_masks[p]
        assert state.tables[p] == tuple(sorted(state.tables[p]))


def check_outcome(state: GameState) -> None:
    if not state.is_over:
        assert state.outcome() is None and state.legal_actions()
        return
    outcome = state.outcome()
    assert outcome is not None and state.legal_actions() == ()
    if outcome.termination is Termination.OUT:
        assert outcome.winner is not None
        assert state.table_masks[outcome.winner].bit_count() == state.rules.cards_to_win
        return
    assert state.stock_count == 0
    counts = [h.bit_count() for h in state.hands]
    fewest = min(counts)
    if state.rules.exhaustion is Exhaustion.DRAW or counts.count(fewest) > 1:
        assert outcome.winner is None
    else:
        assert outcome.winner == counts.index(fewest)


def check_position_text(state: GameState) -> None:
    text = format_position(state)
    again = parse_position(text)
    assert format_position(again) == text
    if state.is_over:  # the player field holds the winner
        assert (again.phase, again.centre, again.winner) == (state.phase, -1, state.winner)
    else:
        assert where(again) == where(state)
    assert again.hands == state.hands and again.tables == state.tables
    assert again.exchange == state.exchange and again.dead_mask == state.dead_mask
    assert again.outcome() == state.outcome()
    assert again.legal_actions() == state.legal_actions()


def check_legal_actions(state: GameState) -> None:
    for action in state.legal_actions():
        assert Action.parse(str(action)) == action
        child = state.copy()
        child.apply(action)
        child.validate()


def check_illegal(state: GameState, rng: random.Random) -> None:
    legal_now = state.legal_actions()
    hand = state.hands[state.to_act]
    outside = [i for i in range(NUM_CARDS) if not hand >> i & 1]
    candidates = [
        Action(ActionKind.DECLINE),
        Action(ActionKind.PASS),
        Action(ActionKind.FORCE),
        Action(ActionKind.NO_FORCE),
        Action(ActionKind.DISCARD, rng.choice(outside)),
        Action(ActionKind.EXCHANGE, rng.choice(outside)),
        Action(ActionKind.DISCARD, rng.randrange(NUM_CARDS)),
        Action(ActionKind.EXCHANGE, rng.randrange(NUM_CARDS)),
    ]
    takes = [a for a in legal_now if a.kind is ActionKind.TAKE]
    for q in range(state.num_players):
        if q != state.to_act and state.tables[q] and takes:  # melding onto another table (M14)
            candidates.append(Action.take(rng.choice(takes).melds + state.tables[q]))
    if takes and state.tables[state.to_act]:  # dropping a table card
        melds = rng.choice(takes).melds
        candidates.append(Action.take(melds[1:]))
    before = format_position(state)
    tried = 0
    for action in candidates:
        if action in legal_now:
            continue
        tried += 1
        with pytest.raises(IllegalActionError):
            state.apply(action)
    assert tried
    assert format_position(state) == before
    assert state.legal_actions() == legal_now


def hidden_from(state: GameState, player: int) -> int:
    """Cards ``player`` must not see: the other hands (less the card he passed, which he knows
    to be with its receiver) and the unturned stock."""
    hidden = unturned(state)
    for q in range(state.num_players):
        if q != player:
            hidden |= state.hands[q]
    if state.exchange and state.phase is not Phase.EXCHANGE:
        hidden &= ~(1 << state.exchange[player])
    return hidden


def shown_cards(text: str) -> int:
    """Every card named in ``text`` (as a mask)."""
    shown = 0
    for token in CARD_TOKEN.findall(text):
        shown |= 1 << CARD_INDEX[token]
    return shown


def check_observations(game: Game, rng: random.Random, *, with_history: bool) -> None:
    """Each player's view: his hand, every table, no hidden card anywhere (also in its JSON),
    the exchange as he knows it, unchanged when the hidden cards are dealt again.  The history
    (which grows with every action) is checked on the steps ``with_history`` says."""
    state = game.state
    for p in range(state.num_players):
        obs = game.observation(p) if with_history else observe(state, p)
        hidden = hidden_from(state, p)
        assert obs.hand_mask == state.hands[p]
        assert obs.tables == state.tables
        assert obs.owner == state.owner and obs.offeree == state.offeree
        assert obs.hand_counts == tuple(h.bit_count() for h in state.hands)
        assert not obs.seen_mask & hidden
        assert not obs.hand_mask & hidden
        data = obs.to_dict()
        shown = shown_cards(json.dumps(data))
        assert not shown & hidden, (p, format_mask(shown & hidden), format_position(state))
        for event in obs.history:
            if event.action.kind is ActionKind.EXCHANGE and event.player != p:
                assert str(event) == f"p{event.player} exchange ?"
        if state.exchange and state.phase is not Phase.EXCHANGE:
            assert obs.received == state.exchange[(p - 1) % state.num_players]
            assert obs.passed == state.exchange[p]
        elif state.phase is Phase.EXCHANGE:
            assert obs.received == -1 and obs.passed == state.exchange[p]
        assert not hasattr(obs, "stock")
        if with_history:
            assert Observation.from_dict(data) == obs
            obs = observe(state, p)
        again = state.redeal(p, rng)
        again.validate()
        assert observe(again, p) == obs


def check_transition(before: GameState, action: Action, after: GameState) -> None:
    """The offer round (M7-M12) and the exchange (M5), step by step."""
    n = before.num_players
    p = before.to_act
    kind = action.kind
    offerer = before.rules.force_by is ForceBy.OFFERER
    nxt = (p + 1) % n
    assert before.source is not Source.UPCARD
    if after.phase is Phase.OVER and after.termination is Termination.STOCK_EXHAUSTED:
        assert before.stock_count == 0 and after.dead_mask & (1 << before.centre)
        return
    if kind is ActionKind.EXCHANGE:
        assert after.exchange[p] == action.card
        if p != before.dealer:
            assert after.phase is Phase.EXCHANGE and after.to_act == nxt
            assert after.hands == before.hands
        else:
            for q in range(n):
                giver = (q - 1) % n
                expected = before.hands[q] & ~(1 << after.exchange[q]) | 1 << after.exchange[giver]
                assert after.hands[q] == expected
            first = (before.dealer + 1) % n
            assert where(after)[:2] == (Phase.TURN, first) and after.owner == first
    elif kind is ActionKind.DISCARD:
        assert where(after) == (Phase.OFFER, nxt, str(CARDS[action.card]), Source.DISCARD, p, nxt)
    elif kind is ActionKind.TAKE:
        assert after.table_masks[p] == partition_mask(action.melds)
        assert after.table_masks[p] >> before.centre & 1
        for q in range(n):
            if q != p:
                assert after.table_masks[q] == before.table_masks[q]
        if after.phase is Phase.OVER:
            assert after.outcome() == (p, Termination.OUT) and after.hands[p] == 0
        else:
            assert after.phase is Phase.DISCARD and after.to_act == p
    elif kind is ActionKind.PASS:
        assert before.phase is Phase.TURN and before.owner == p
        if after.phase in (Phase.FORCE, Phase.FORCED):
            assert not offerer, "a turner refusing his own card was forced under offerer"
            assert n == 2
        else:
            assert where(after) == (
                Phase.OFFER,
                nxt,
                str(CARDS[before.centre]),
                Source.PASSED,
                p,
                nxt,
            )
    elif kind in (ActionKind.DECLINE, ActionKind.NO_FORCE):
        refuser = p if kind is ActionKind.DECLINE else before.offeree
        owner = before.owner
        if after.phase is Phase.FORCE:
            assert kind is ActionKind.DECLINE
            forcer = owner if offerer else (refuser + 1) % n
            assert where(after) == (
                Phase.FORCE,
                forcer,
                str(CARDS[before.centre]),
                before.source,
                owner,
                refuser,
            )
        elif after.phase is Phase.FORCED:
            assert kind is ActionKind.DECLINE and before.rules.forcing is Forcing.AUTOMATIC
            assert after.to_act == refuser and after.offeree == refuser
        elif before.source is Source.TURNED:  # no force of a turner's passed card (2 players)
            assert where(after)[:2] == (Phase.OFFER, (refuser + 1) % n)
        elif (refuser + 1) % n == owner:
            assert after.dead_mask == before.dead_mask | 1 << before.centre
            turner = (owner + 1) % n
            assert where(after)[:2] == (Phase.TURN, turner) and after.owner == turner
        else:
            assert where(after) == (
                Phase.OFFER,
                (refuser + 1) % n,
                str(CARDS[before.centre]),
                before.source,
                owner,
                (refuser + 1) % n,
            )
    elif kind is ActionKind.FORCE:
        assert where(after)[:2] == (Phase.FORCED, before.offeree)
    for q in range(n):
        assert before.table_masks[q] & ~after.table_masks[q] == 0
    assert before.dead_mask & ~after.dead_mask == 0
    assert after.stock_pos >= before.stock_pos


def seen_by(states: Sequence[GameState], player: int) -> int:
    seen = 0
    for state in states:
        seen |= state.hands[player] | state.dead_mask
        for mask in state.table_masks:
            seen |= mask
        if state.centre >= 0:
            seen |= 1 << state.centre
    return seen


def check_records(game: Game) -> None:
    record = GameRecord.from_game(game)
    text = record.dumps()
    again = GameRecord.loads(text)
    assert again == record
    replayed = again.to_game()
    assert format_position(replayed.state) == format_position(game.state)
    assert replayed.history == game.history
    states = game.states()
    n = game.state.num_players
    for p in range(n):
        redacted = record.for_player(p)
        assert redacted.seed is None and redacted.viewpoint == p
        seen = seen_by(states, p)
        dumped = redacted.dumps()
        named = shown_cards(dumped)
        assert not named & ~seen, (p, format_mask(named & ~seen))
        for line, full in zip(redacted.actions, record.actions, strict=True):
            if line != full:
                assert line.endswith("exchange ??") and not full.startswith(f"p{p} ")
        loaded = GameRecord.loads(dumped)
        assert loaded == redacted
        final = loaded.to_game().state
        assert final.tables == game.state.tables
        assert final.dead_mask == game.state.dead_mask
        assert final.outcome() == game.state.outcome()
        assert final.hands[p] == game.state.hands[p]
        assert [h.bit_count() for h in final.hands] == [h.bit_count() for h in game.state.hands]


def play_checked(spec: str, seed: int) -> Game:
    rules = find_rules(spec)
    rng = random.Random(seed)
    n = rules.num_players
    game = Game(rules, seed=rng.randrange(2**32), dealer=rng.randrange(n), stake=rng.randint(1, 3))
    greed = (0.0, 0.6, 0.95)[seed % 3]
    steps = 0
    while True:
        state = game.state
        state.validate()
        check_conservation(state)
        check_counts(state)
        check_outcome(state)
        check_position_text(state)
        check_legal_actions(state)
        check_illegal(state, rng)
        rare = state.phase in (Phase.EXCHANGE, Phase.FORCE, Phase.FORCED, Phase.OVER)
        check_observations(game, rng, with_history=rare or steps % 6 == 0)
        if state.is_over:
            break
        before = state.copy()
        action = greedy(state, rng, greed)
        game.push(action)
        check_transition(before, action, game.state)
        steps += 1
        assert steps <= MAX_ACTIONS, f"no end within {MAX_ACTIONS} actions"
    check_records(game)
    return game


@pytest.mark.parametrize(("spec", "games"), PROPERTY_SPECS)
def test_random_games_keep_every_invariant(spec: str, games: int) -> None:
    outcomes: set[tuple[bool, Termination]] = set()
    forces = 0
    for seed in range(games):
        game = play_checked(spec, seed)
        outcome = game.state.outcome()
        assert outcome is not None
        outcomes.add((outcome.winner is not None, outcome.termination))
        forces += sum(s.phase is Phase.FORCED for s in game.states())
    assert forces  # the random games reach forced takes
    assert (True, Termination.OUT) in outcomes
    assert (False, Termination.STOCK_EXHAUSTED) in outcomes
    if find_rules(spec).exhaustion is Exhaustion.FEWEST_HAND_CARDS:
        assert (True, Termination.STOCK_EXHAUSTED) in outcomes
