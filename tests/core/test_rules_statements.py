"""One or more tests per rule statement, grouped by rule id.

The rules of play (A1-A22), the edge cases (C1-C29) and the variant flags (the ``test_b_``
tests, see docs/rules.md section 10).  Each id is defined in docs/rules.md, section 13 "Rule
statements and worked examples by id", with the section of docs/rules.md that covers it.
Positions are set up with position strings (see :mod:`conquian.notation`) or with explicit
deals.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import re

import pytest

from conquian import (
    CARDS,
    Action,
    ActionKind,
    CardSet,
    GameState,
    IllegalActionError,
    InvalidRulesError,
    InvalidStateError,
    Match,
    Phase,
    Rules,
    Source,
    Termination,
    find_rules,
    format_position,
    meld_table,
    observe,
    parse_partition,
    parse_position,
    shuffled_deck,
)
from conquian.cards import card_label, parse_cards_mask
from conquian.errors import ConquianError, GameOverError, InvalidNotationError
from conquian.match import hand_points
from conquian.melds import is_meld, partition_mask
from conquian.present.rules_text import describe

# ----------------------------------------------------------------------------- helpers

ALL = (1 << 40) - 1


_NONE = "standard,rearrange_mode=none"
_FOSTER = "standard,rearrange_mode=foster_borrow"
_MINIMAL = "standard,forced_take=minimal"
_MELD_FIRST = "standard,meld_without_take=before_rejecting_stock_card"


def cards(text: str) -> int:
    """A mask from card text (``/`` and spaces allowed between cards)."""
    return parse_cards_mask(text)


def idx(text: str) -> int:
    """The index of one card."""
    return cards(text).bit_length() - 1


def part(text: str) -> frozenset[int]:
    """A table partition (as a set of meld masks) from ``5c6c7c/JhJdJc``."""
    return frozenset(parse_partition(text))


def rest(*fields: str) -> str:
    """Every card not written in ``fields`` (run together), for a dead pile."""
    used = 0
    for field in fields:
        if field not in ("-", "*"):
            used |= cards(field.split(":")[0])
    return "".join(str(CARDS[i]) for i in range(40) if not used >> i & 1)


def pos(
    hand0: str = "*",
    hand1: str = "*",
    table0: str = "-",
    table1: str = "-",
    centre: str = "-",
    *,
    phase: str = "offer",
    player: int = 0,
    dealer: int = 1,
    dead: str = "-",
    stock: str = "*",
    rules: str = "standard",
    stake: int = 1,
) -> GameState:
    """Set up a position from its position-string fields (keyword defaults)."""
    text = (
        f"{rules} {phase} {player} {dealer} {hand0} {hand1} {table0} {table1} "
        f"{centre} {dead} {stock} {stake}"
    )
    return parse_position(text)


def legal(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def kinds(state: GameState) -> set[ActionKind]:
    return {a.kind for a in state.legal_actions()}


def take_tables(state: GameState) -> set[frozenset[int]]:
    """The new tables of every legal take."""
    return {frozenset(a.melds) for a in state.legal_actions() if a.kind is ActionKind.TAKE}


def take_of(state: GameState, table: str) -> Action:
    """The legal take whose new table is ``table`` (fails if it is not legal)."""
    wanted = part(table)
    for action in state.legal_actions():
        if action.kind is ActionKind.TAKE and frozenset(action.melds) == wanted:
            return action
    raise AssertionError(f"take {table} is not legal in {format_position(state)}")


def play(state: GameState, *texts: str) -> GameState:
    """Apply canonical action texts in order; ``take:TABLE`` picks a legal take."""
    for text in texts:
        if text.startswith("take:"):
            state.apply(take_of(state, text[5:]))
        else:
            state.apply(Action.parse(text))
    return state


def assert_illegal(state: GameState, action: Action, match: str | None = None) -> None:
    """The action is rejected with IllegalActionError and the state is unchanged."""
    before = format_position(state)
    with pytest.raises(IllegalActionError, match=match):
        state.apply(action)
    assert format_position(state) == before


def take_action(table: str) -> Action:
    """A take action built without validation (may hold non-melds)."""
    return Action(ActionKind.TAKE, -1, tuple(sorted(cards(m) for m in table.split("/"))))


def counts(state: GameState, player: int) -> tuple[int, int]:
    """(table cards, hand cards) of a player."""
    return len(state.table(player)), len(state.hand(player))


def unturned(state: GameState) -> int:
    mask = 0
    for index in state.stock[state.stock_pos :]:
        mask |= 1 << index
    return mask


def check_invariants(state: GameState) -> None:
    """A8 and C27: card conservation, 10 (or 11) cards per player, valid partitions."""
    places = [
        state.hands[0],
        state.hands[1],
        state.table_masks[0],
        state.table_masks[1],
        state.dead_mask,
        unturned(state),
        (1 << state.centre) if state.centre >= 0 else 0,
    ]
    assert sum(m.bit_count() for m in places) == 40
    union = 0
    for m in places:
        union |= m
    assert union == ALL
    for p in (0, 1):
        melds = state.tables[p]
        assert all(_reference_meld(m, state.rules.max_seq_len) for m in melds)
        assert sum(m.bit_count() for m in melds) == partition_mask(melds).bit_count()
        expected = 10
        if state.phase is Phase.DISCARD and state.to_act == p:
            expected = 11
        if state.phase is Phase.OVER and state.winner == p and state.termination is Termination.OUT:
            expected = 11
            assert state.hands[p] == 0
        table, hand = counts(state, p)
        assert table + hand == expected
        assert table <= 11


def random_playout(state: GameState, rng: random.Random) -> list[tuple[GameState, Action]]:
    """Play random legal actions to the end; returns (state before, action) pairs."""
    history = []
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        history.append((state.copy(), action))
        state.apply(action)
    return history


def greedy_playout(state: GameState, rng: random.Random) -> GameState:
    """Take the biggest take whenever possible, force always, discard at random."""
    while not state.is_over:
        options = state.legal_actions()
        takes = [a for a in options if a.kind is ActionKind.TAKE]
        if takes:
            action = max(takes, key=lambda a: partition_mask(a.melds).bit_count())
        elif state.phase is Phase.FORCE:
            action = Action(ActionKind.FORCE)
        else:
            action = rng.choice(options)
        state.apply(action)
    return state


def refuse_playout(state: GameState) -> GameState:
    """Never take, never force: the deal ends in a draw."""
    refusals = (ActionKind.DECLINE, ActionKind.PASS, ActionKind.NO_FORCE)
    while not state.is_over:
        action = next(a for a in state.legal_actions() if a.kind in refusals and not a.melds)
        state.apply(action)
    return state


def play_to_win(state: GameState) -> GameState:
    """A finished copy of ``state`` in which somebody went out."""
    for k in range(500):
        final = greedy_playout(state.copy(), random.Random(k))
        if final.outcome().winner is not None:
            return final
    raise AssertionError("no winning line found")


def settle(match: Match, results: str) -> list[GameState]:
    """Play deals of a match: ``D`` = a drawn deal, ``W`` = a decided deal."""
    finals = []
    for letter in results:
        state = match.new_deal()
        final = refuse_playout(state) if letter == "D" else play_to_win(state)
        match.finish_deal(final)
        finals.append(final)
    return finals


def deck_with(n_hand: str, d_hand: str, stock_top: str) -> list[int]:
    """A deck order dealing these hands one card at a time (non-dealer first)."""
    n_cards = list(CardSet.parse(n_hand))
    d_cards = list(CardSet.parse(d_hand))
    top = list(CardSet.parse(stock_top)) if stock_top else []
    order: list[int] = []
    for n_card, d_card in zip(n_cards, d_cards, strict=True):
        order += [n_card.index, d_card.index]
    order += [c.index for c in top]
    return order + [i for i in range(40) if i not in order]


# ------------------------------------------------------------------- A. canonical rules


def test_a1_exactly_two_players() -> None:
    # the two-player game's forcing rule has no meaning for more players (the Mexican
    # game, preset mexican, seats two to four)
    with pytest.raises(InvalidRulesError, match="force_by=opponent is the two-player rule"):
        Rules(num_players=3)
    with pytest.raises(InvalidRulesError, match="num_players must be 2 to 4"):
        Rules(num_players=5)
    state = GameState.deal(Rules(), seed=1)
    assert len(state.hands) == 2 and len(state.tables) == 2
    with pytest.raises(InvalidNotationError):
        pos(player=2)


def test_a2_forty_cards_four_suits_ten_ranks() -> None:
    assert len(CARDS) == 40 and len(CardSet.full()) == 40
    assert {c.suit for c in CARDS} == {0, 1, 2, 3}
    for suit in range(4):
        assert sorted(c.rank for c in CARDS if c.suit == suit) == list(range(1, 11))
    with pytest.raises(InvalidStateError):
        GameState.deal(Rules(), deck=[*range(40), 0])
    with pytest.raises(InvalidStateError):
        GameState.deal(Rules(), deck=list(range(39)))


def test_a2_deck_style_labels() -> None:
    french = [card_label(i) for i in range(10)]
    spanish = [card_label(i, "spanish") for i in range(10)]
    a_to_10 = [card_label(i, "a_to_10") for i in range(10)]
    assert [x[:-1] for x in french] == ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
    assert [x[:-1] for x in spanish] == ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"]
    assert [x[:-1] for x in a_to_10] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    # Suggested Spanish suit mapping: oros = d, copas = h, espadas = s, bastos = c.
    assert CardSet.parse("sota de oros, 1 de copas, 12 de espadas, 7 de bastos", "spanish") == (
        CardSet.parse("Jd Ah Ks 7c")
    )


def test_a2_spanish_labels_d04() -> None:
    assert is_meld(parse_cards_mask("6o 7o 10o", "spanish"))
    assert parse_cards_mask("6o 7o 10o", "spanish") == cards("6d 7d Jd")
    assert not is_meld(parse_cards_mask("11c 12c 1c", "spanish"))
    assert is_meld(parse_cards_mask("12c 12e 12b", "spanish"))


def test_a3_seven_and_jack_adjacent() -> None:
    assert is_meld(cards("6h 7h Jh")) and is_meld(cards("7h Jh Qh"))
    state = pos(hand0="6h7hKsKd2c3d4sQc5d2s", centre="Jh:d")
    assert take_tables(state) == {part("6h7hJh")}
    state = pos(hand0="7hQhKsKd2c3d4sQc5d2s", centre="Jh:d")
    assert take_tables(state) == {part("7hJhQh")}


def test_a3_no_wraparound() -> None:
    assert is_meld(cards("As 2s 3s"))
    assert not is_meld(cards("Qh Kh Ah"))
    assert not is_meld(cards("Kh Ah 2h"))
    assert not is_meld(cards("Kh Ah 2h 3h"), 10)
    state = pos(hand0="QhKh2hJsJd5c6d7s3c4d", centre="Ah:d")
    assert legal(state) == {"decline"}
    assert_illegal(state, take_action("QhKhAh"))
    assert_illegal(state, take_action("KhAh2h"))


def test_a4_sets_of_three_or_four() -> None:
    assert is_meld(cards("Kc Kd Ks")) and is_meld(cards("Kc Kd Ks Kh"))
    assert not is_meld(cards("Kc Kd"))
    assert not is_meld(cards("5h 5d 6h"))


def test_a4_sequences_three_to_eight() -> None:
    assert is_meld(cards("4c 5c 6c"))
    assert is_meld(cards("5h 6h 7h Jh Qh Kh"))
    assert is_meld(cards("As 2s 3s 4s 5s 6s 7s Js"))
    assert not is_meld(cards("As 2s 3s 4s 5s 6s 7s Js Qs"))
    assert not is_meld(cards("5h 6h 7h Jd"))  # mixed suits
    assert not is_meld(cards("4c 5c 7c"))  # gap
    assert not is_meld(cards("4c 5c"))  # two cards
    # 33 runs per suit (lengths 3..8) and 5 sets per rank.
    assert len(meld_table(8).melds) == 4 * 33 + 10 * 5


def test_a4_no_two_card_combination_in_play() -> None:
    state = pos(hand0="5hKsKd2c3d4sQc6d2sJh", centre="5c:d")
    assert_illegal(state, take_action("5h5c"), match="not a set or run")
    assert legal(state) == {"decline"}


def test_a5_partition_is_stored() -> None:
    state = pos(hand0="JhJd2s2h4dQdKs", table0="6c7cJc", centre="5c:d")
    play(state, "take:5c6c7c/JcJhJd")
    assert set(state.tables[0]) == part("5c6c7c/JhJdJc")
    assert len(state.tables[0]) == 2


def test_a5_never_touch_the_opponents_table() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh2d4cQh", table1="3s4s5s", centre="6s:d")
    assert take_tables(state) == set()
    assert_illegal(state, take_action("3s4s5s6s"), match="not in player 0's hand")


def test_a5_table_cards_never_leave_the_table() -> None:
    state = pos(hand0="KhKdJdQc", table0="3s4s5s/2h2d2c", centre="6s:d")
    assert_illegal(state, take_action("3s4s5s6s"), match="cannot leave the table")


def test_a6_deal_one_at_a_time_non_dealer_first() -> None:
    deck = shuffled_deck(11)
    for dealer in (0, 1):
        state = GameState.deal(Rules(), deck=deck, dealer=dealer)
        non_dealer = 1 - dealer
        assert state.hands[non_dealer] == CardSet.of(deck[0:20:2]).mask
        assert state.hands[dealer] == CardSet.of(deck[1:20:2]).mask
        assert len(state.hand(0)) == len(state.hand(1)) == 10
        assert state.stock == tuple(deck[20:])


def test_a6_deal_packet_two() -> None:
    deck = list(range(40))
    state = GameState.deal(find_rules("standard,deal_packet=2"), deck=deck, dealer=0)
    assert state.hands[1] == CardSet.of([0, 1, 4, 5, 8, 9, 12, 13, 16, 17]).mask
    assert state.hands[0] == CardSet.of([2, 3, 6, 7, 10, 11, 14, 15, 18, 19]).mask
    assert state.stock == tuple(range(20, 40))


def test_a6_twenty_card_stock_and_no_upcard() -> None:
    deck = shuffled_deck(3)
    state = GameState.deal(Rules(), deck=deck, dealer=1)
    assert len(state.stock) == 20
    assert state.tables == ((), ())
    assert state.dead_mask == 0
    # No upcard: the non-dealer's turn starts at step 2 with his own first stock card.
    assert state.phase is Phase.TURN and state.source is Source.TURNED
    assert state.centre == deck[20]
    assert state.stock_count == 19


def test_a6_stock_never_replenished_dead_pile_never_reused() -> None:
    for seed in range(15):
        state = GameState.deal(Rules(), seed=seed)
        history = random_playout(state, random.Random(seed))
        stock_counts = [s.stock_count for s, _ in history] + [state.stock_count]
        deads = [s.dead_mask for s, _ in history] + [state.dead_mask]
        assert all(a >= b for a, b in itertools.pairwise(stock_counts))
        assert all(a & ~b == 0 for a, b in itertools.pairwise(deads))
        for before, _ in history:
            if before.phase is not Phase.OVER:
                assert not (before.centre >= 0 and before.dead_mask >> before.centre & 1)


def test_a6_first_dealer_random() -> None:
    dealers = {Match("standard", seed=s).first_dealer for s in range(30)}
    assert dealers == {0, 1}
    low_cut = {Match("standard,first_dealer=low_cut", seed=s).first_dealer for s in range(30)}
    assert low_cut == {0, 1}


def _cut_deck(cut0: str, cut1: str) -> list[int]:
    """A deck whose card 0 is player 0's cut and card 20 is player 1's cut."""
    first, second = idx(cut0), idx(cut1)
    others = [i for i in range(40) if i not in (first, second)]
    return [first, *others[:19], second, *others[19:]]


@pytest.mark.parametrize(
    ("cuts", "dealer"),
    [
        ([("Ks", "Ah")], 1),  # ace is low: the ace cut deals
        ([("As", "Kh")], 0),
        ([("7s", "Jh")], 0),  # 7 ranks below J
        ([("5s", "5h"), ("Qd", "2c")], 1),  # equal ranks: cut again
    ],
)
def test_a6_first_dealer_low_cut_lower_card_deals(
    monkeypatch: pytest.MonkeyPatch, cuts: list[tuple[str, str]], dealer: int
) -> None:
    decks = iter([_cut_deck(a, b) for a, b in cuts])
    monkeypatch.setattr("conquian.match.shuffled_deck", lambda seed=None: next(decks))
    assert Match("standard,first_dealer=low_cut", seed=0).first_dealer == dealer


def test_a7_non_dealer_acts_first() -> None:
    for dealer in (0, 1):
        state = GameState.deal(Rules(), seed=5, dealer=dealer)
        assert state.to_act == 1 - dealer
        assert state.dealer == dealer


def test_a7_dealer_alternates_including_after_draws() -> None:
    match = Match("standard,match=n_deals,match_target=4", seed=2)
    dealers = []
    for letter in "DWDW":
        dealers.append(match.dealer)
        state = match.new_deal()
        assert state.dealer == match.dealer and state.to_act == 1 - match.dealer
        final = refuse_playout(state) if letter == "D" else play_to_win(state)
        match.finish_deal(final)
    assert dealers == [dealers[0], 1 - dealers[0], dealers[0], 1 - dealers[0]]
    assert [r.dealer for r in match.results] == dealers


def test_a8_conservation_invariant() -> None:
    for seed in range(25):
        state = GameState.deal(Rules(), seed=seed, dealer=seed % 2)
        history = random_playout(state, random.Random(seed))
        for before, _ in history:
            check_invariants(before)
        check_invariants(state)


def test_a8_empty_hand_without_going_out_only_after_discard() -> None:
    for seed in range(40):
        state = GameState.deal(Rules(), seed=seed)
        history = random_playout(state, random.Random(100 + seed))
        for before, action in history:
            after = before.child(action)
            for p in (0, 1):
                if after.hands[p] == 0 and not (after.is_over and after.winner == p):
                    assert len(after.table(p)) == 10
                    if before.hands[p] != 0:
                        assert action.kind is ActionKind.DISCARD and before.to_act == p


def test_a9_turned_card_first_refusal_then_opponent_then_dead() -> None:
    state = pos(hand0="5h2d3s7hJdQcKc2h6dKs", centre="5c:t", phase="turn", stock="Ad*")
    assert state.to_act == 0 and state.source is Source.TURNED
    play(state, "pass")
    assert (state.to_act, state.phase, state.source) == (1, Phase.OFFER, Source.PASSED)
    assert str(state.centre_card) == "5c"
    play(state, "decline")
    assert state.dead_mask == cards("5c")
    assert (state.to_act, state.phase, str(state.centre_card)) == (1, Phase.TURN, "Ad")


def test_a9_discard_offered_only_to_opponent() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="6s:d", stock="2h*")
    play(state, "take:3s4s5s6s", "discard Kh")
    assert (state.to_act, state.phase, state.source) == (1, Phase.OFFER, Source.DISCARD)
    assert str(state.centre_card) == "Kh"
    play(state, "decline")
    assert state.dead_mask & cards("Kh")
    assert state.to_act == 1 and state.phase is Phase.TURN and str(state.centre_card) == "2h"


def test_a10_step1_take_or_decline_only() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="6s:d")
    assert kinds(state) == {ActionKind.TAKE, ActionKind.DECLINE}
    assert_illegal(state, Action(ActionKind.PASS))
    assert_illegal(state, Action.discard(idx("Kh")))


def test_a10_declined_card_dies_then_stock_card_turned() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Qs:d", stock="2h*")
    stock = state.stock_count
    play(state, "decline")
    assert state.dead_mask == cards("Qs")
    assert (state.to_act, state.phase, state.source) == (0, Phase.TURN, Source.TURNED)
    assert str(state.centre_card) == "2h" and state.stock_count == stock - 1


def test_a10_step2_take_or_pass_and_pass_ends_turn_without_discard() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Ks:t", phase="turn")
    assert kinds(state) == {ActionKind.TAKE, ActionKind.PASS}
    hand = state.hands[0]
    play(state, "pass")
    assert state.hands[0] == hand
    assert (state.to_act, state.phase, state.source) == (1, Phase.OFFER, Source.PASSED)


def test_a10_first_turn_has_no_offered_card() -> None:
    state = GameState.deal(Rules(), seed=9, dealer=0)
    assert state.phase is Phase.TURN and state.source is Source.TURNED and state.to_act == 1
    assert ActionKind.DECLINE not in kinds(state)


def test_a10_empty_stock_at_step2_is_a_draw() -> None:
    hand0, hand1 = "As2h3d4c5s6h7dJcQsKh", "Ah3s4h5d6c7sJhQhKd2d"
    state = pos(hand0, hand1, centre="Qd:d", stock="-", dead=rest(hand0, hand1, "Qd"))
    play(state, "decline")
    assert state.is_over
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)


def test_a11_taken_card_must_be_melded() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="6s:d")
    assert_illegal(state, take_action("3s4s5s"), match="must be melded")
    assert all(a.table.mask & cards("6s") for a in state.legal_actions() if a.melds)


def test_a11_empty_table_needs_two_hand_cards_d05() -> None:
    state = pos(hand0="5h5d2c3cKhKsKd7sJdQc", centre="5c:t", phase="turn")
    assert take_tables(state) == {part("5h5d5c"), part("5h5d5c/KhKsKd")}
    assert_illegal(state, take_action("5h5c"))
    assert_illegal(state, take_action("2c3c5c"))
    assert "pass" in legal(state)


def test_a11_first_card_unusable_d06() -> None:
    state = pos(hand0="5h2d3s7hJdQcKc2h6dKs", centre="5c:t", phase="turn")
    assert legal(state) == {"pass"}


def test_a11_lay_off_with_zero_hand_cards_d08() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="6s:d")
    assert take_tables(state) == {part("3s4s5s6s")}
    play(state, "take:3s4s5s6s")
    assert state.phase is Phase.DISCARD
    assert counts(state, 0) == (4, 7)
    play(state, "discard Ah")
    assert counts(state, 0) == (4, 6)


def test_a11_extra_melds_in_the_same_take_d09() -> None:
    state = pos(hand0="2sKhKdKs4hJc7d", table0="3s4s5s", centre="6s:d")
    assert take_tables(state) == {
        part("2s3s4s5s6s"),
        part("3s4s5s6s"),
        part("2s3s4s5s6s/KsKhKd"),
        part("3s4s5s6s/KsKhKd"),
    }
    play(state, "take:2s3s4s5s6s/KsKhKd")
    assert {str(a) for a in state.legal_actions()} == {"discard 4h", "discard Jc", "discard 7d"}
    play(state, "discard Jc")
    assert counts(state, 0) == (8, 2)


def test_a11_dealer_takes_declined_first_card_d07() -> None:
    state = pos(hand0="5s5h6c7c2d3dQsQhKcAd", centre="5c:p", player=0, dealer=0)
    assert take_tables(state) == {
        part("5s5h5c"),
        part("5c6c7c"),
        part("5s5h5c/Ad2d3d"),
        part("5c6c7c/Ad2d3d"),
    }
    assert_illegal(state, take_action("5s5h5c/6c7c5c"))
    play(state, "decline")
    assert state.dead_mask == cards("5c") and state.phase is Phase.TURN and state.to_act == 0


def test_a11_after_take_discard_unless_hand_empty() -> None:
    state = pos(hand0="JhQhKh", table0="As2s3s4s/5h5d5c", centre="7h:d")
    play(state, "take:As2s3s4s/5h5d5c/7hJhQhKh")
    assert state.is_over and state.outcome() == (0, Termination.OUT)
    state = pos(hand0="JhQh2d", table0="As2s3s4s/5h5d5c", centre="Kh:d")
    play(state, "take:As2s3s4s/5h5d5c/JhQhKh")
    assert state.phase is Phase.DISCARD and state.to_act == 0


def test_a12_no_melding_without_a_take() -> None:
    state = pos(hand0="KhKdKs2c5d7sJhQd3s4d", centre="6h:t", phase="turn")
    assert legal(state) == {"pass"}
    assert_illegal(
        state,
        Action(ActionKind.PASS, -1, (cards("KhKdKs"),)),
        match="without taking is not allowed",
    )
    play(state, "pass")
    assert state.tables[0] == () and len(state.hand(0)) == 10


def test_a12_decline_leaves_table_unchanged_d09() -> None:
    state = pos(hand0="2sKhKdKs4hJc7d", table0="3s4s5s", centre="Qh:d")
    assert_illegal(state, Action(ActionKind.DECLINE, -1, (cards("KhKdKs"),)))
    table, hand = state.tables[0], state.hands[0]
    play(state, "decline")
    assert state.tables[0] == table and state.hands[0] == hand


def test_a13_discard_is_mandatory_and_from_hand() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="6s:d")
    play(state, "take:3s4s5s6s")
    assert kinds(state) == {ActionKind.DISCARD}
    assert {a.card for a in state.legal_actions()} == {c.index for c in state.hand(0)}
    assert_illegal(state, Action.discard(idx("6s")))
    assert_illegal(state, Action(ActionKind.DECLINE))
    play(state, "discard Qc")
    assert (state.to_act, state.phase, state.source) == (1, Phase.OFFER, Source.DISCARD)
    assert str(state.centre_card) == "Qc"


def test_a13_no_discard_on_a_turn_without_take() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Qs:d", stock="2h*")
    hand = state.hands[0]
    play(state, "decline", "pass")
    assert state.hands[0] == hand
    assert state.phase is Phase.OFFER and state.to_act == 1 and state.source is Source.PASSED


def test_a14_free_rearrangement_bicycle_d10() -> None:
    state = pos(hand0="JhJd2s2h4dQdKs", table0="6c7cJc", centre="5c:d")
    assert part("5c6c7c/JcJhJd") in take_tables(state)
    assert part("5c6c7cJc") in take_tables(state)
    play(state, "take:5c6c7c/JcJhJd")
    assert counts(state, 0) == (6, 5)


def test_a14_rearrange_mode_none_d10() -> None:
    state = pos(hand0="JhJd2s2h4dQdKs", table0="6c7cJc", centre="5c:d", rules=_NONE)
    assert take_tables(state) == {part("5c6c7cJc")}
    assert_illegal(state, take_action("5c6c7c/JcJhJd"), match="rearrange_mode none")


def test_a14_foster_borrow_d10() -> None:
    state = pos(hand0="JhJd2s2h4dQdKs", table0="6c7cJc", centre="5c:d", rules=_FOSTER)
    assert take_tables(state) == {part("5c6c7cJc"), part("5c6c7c/JcJhJd")}


def test_a14_borrow_from_four_set_d11() -> None:
    base = {"hand0": "2h3hKcQsJd7s", "table0": "4h4s4d4c", "centre": "5h:d"}
    for rules in ("standard", _FOSTER):
        state = pos(**base, rules=rules)
        assert part("2h3h4h5h/4s4d4c") in take_tables(state)
    state = pos(**base, rules=_NONE)
    assert take_tables(state) == set()
    assert legal(state) == {"decline"}


def test_a14_no_borrow_from_three_set_d12() -> None:
    for rules in ("standard", _FOSTER, _NONE):
        state = pos(hand0="2h3hKcQsJd7s6c", table0="4h4s4d", centre="5h:d", rules=rules)
        assert legal(state) == {"decline"}
        assert_illegal(state, take_action("2h3h4h5h/4s4d"))
        play(state, "decline")
        assert state.phase is Phase.TURN and state.to_act == 0 and state.dead_mask == cards("5h")
    state = pos(hand0="2h3h5d5s7s6cKc", table0="4h4s4d", centre="5h:d")
    assert part("4h4s4d/5s5h5d") in take_tables(state)


def test_a14_final_partition_validation_d15() -> None:
    state = pos(hand0="JcJs2h3hKdKs", table0="5d6d7dJd", centre="Qd:d")
    tables = take_tables(state)
    assert part("5d6d7dJdQd") in tables
    assert part("5d6d7d/JdQdKd") in tables
    assert part("5d6d7dJdQdKd") in tables
    assert_illegal(state, take_action("5d6d7d/JdJcJs"))
    assert_illegal(state, take_action("5d6d7d/JdJcJs/Qd"))


def test_a15_force_on_declined_offered_card_d16() -> None:
    state = pos(hand0="KhKd2s2dJhQs", table0="3c4c5c6c", centre="7c:d")
    stock = state.stock_count
    play(state, "decline")
    assert (state.phase, state.to_act) == (Phase.FORCE, 1)
    assert legal(state) == {"force", "noforce"}
    assert state.stock_count == stock
    play(state, "force")
    assert (state.phase, state.to_act) == (Phase.FORCED, 0)
    assert kinds(state) == {ActionKind.TAKE}
    assert take_tables(state) == {part("3c4c5c6c7c")}
    play(state, "take:3c4c5c6c7c", "discard Kh")
    assert counts(state, 0) == (5, 5)
    assert state.stock_count == stock  # P does not turn a stock card this turn
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.OFFER, 1, "Kh")


def test_a15_forced_player_cannot_refuse() -> None:
    state = pos(hand0="KhKd2s2dJhQs", table0="3c4c5c6c", centre="7c:d")
    play(state, "decline", "force")
    assert_illegal(state, Action(ActionKind.DECLINE))
    assert_illegal(state, Action(ActionKind.PASS))


def test_a15_no_force_card_dies_d21() -> None:
    state = pos(hand0="KhKd2s2dJhQs", table0="3c4c5c6c", centre="7c:d", stock="Qd*")
    play(state, "decline", "noforce")
    assert state.dead_mask == cards("7c")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.TURN, 0, "Qd")


def test_a15_not_forceable_when_hand_card_needed_d17() -> None:
    state = pos(hand0="6cKhKd2s2dJhQs", table0="3c4c5c", centre="7c:d")
    assert part("3c4c5c6c7c") in take_tables(state)
    play(state, "decline")
    assert state.phase is Phase.TURN and state.to_act == 0 and state.dead_mask == cards("7c")


def test_a15_force_with_own_passed_stock_card_d18() -> None:
    state = pos(hand0="KsKd", table0="2h3h4h5h/2c3c4c5c", centre="Qd:d", stock="6h*")
    play(state, "decline")
    assert state.dead_mask == cards("Qd")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.TURN, 0, "6h")
    play(state, "pass")
    assert (state.phase, state.to_act) == (Phase.FORCE, 1)
    play(state, "force")
    assert take_tables(state) == {part("2h3h4h5h6h/2c3c4c5c")}
    play(state, "take:2h3h4h5h6h/2c3c4c5c")
    assert {str(a) for a in state.legal_actions()} == {"discard Ks", "discard Kd"}
    play(state, "discard Kd")
    assert counts(state, 0) == (9, 1)
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.OFFER, 1, "Kd")
    assert state.source is Source.DISCARD


def test_a15_passed_card_not_forced_goes_to_opponent_d18() -> None:
    state = pos(hand0="KsKd", table0="2h3h4h5h/2c3c4c5c", centre="6h:t", phase="turn")
    play(state, "pass", "noforce")
    assert (state.phase, state.to_act, state.source) == (Phase.OFFER, 1, Source.PASSED)
    assert str(state.centre_card) == "6h" and state.dead_mask == 0


def test_a15_forced_player_chooses_full_take_d20() -> None:
    state = pos(hand0="KhKdKs2d2hJd", table0="3c4c5c6c", centre="7c:d")
    play(state, "decline", "force")
    assert take_tables(state) == {part("3c4c5c6c7c"), part("3c4c5c6c7c/KhKdKs")}
    play(state, "take:3c4c5c6c7c/KhKdKs", "discard Jd")
    assert counts(state, 0) == (8, 2)


def test_a15_not_forceable_with_empty_table() -> None:
    state = pos(hand0="5s5h6c7c2d3dQsQhKcAd", centre="5c:p", dealer=0)
    play(state, "decline")
    assert state.phase is Phase.TURN and state.to_act == 0


def test_a15_opponent_forced_after_declining_passed_card() -> None:
    state = pos(
        hand0="2c2d2hQsQhJdKc",
        table0="3s4s5s",
        table1="4d5d6d",
        centre="7d:t",
        phase="turn",
    )
    play(state, "pass")  # 7d does not fit player 0's table: offered to player 1
    assert (state.phase, state.to_act) == (Phase.OFFER, 1)
    play(state, "decline")  # fits player 1's run directly: player 0 may force
    assert (state.phase, state.to_act) == (Phase.FORCE, 0)
    play(state, "force")
    assert (state.phase, state.to_act) == (Phase.FORCED, 1)
    assert all(a.table.mask & cards("7d") for a in state.legal_actions())


def _reference_meld(mask: int, max_seq_len: int = 8) -> bool:
    """A meld by the reference's definition (A4), written independently of the engine."""
    members = [CARDS[i] for i in range(40) if mask >> i & 1]
    if len(members) < 3:
        return False
    if len({c.rank for c in members}) == 1:
        return len(members) <= 4
    if len({c.suit for c in members}) != 1 or len(members) > max_seq_len:
        return False
    ranks = sorted(c.rank for c in members)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


@functools.cache
def _reference_partitions(required: int) -> frozenset[frozenset[int]]:
    """Every partition of ``required`` into reference melds."""
    if not required:
        return frozenset({frozenset()})
    low = required & -required
    others = [1 << i for i in range(40) if required >> i & 1 and 1 << i != low]
    out: set[frozenset[int]] = set()
    for size in (2, 3):
        for combo in itertools.combinations(others, size):
            meld = low | sum(combo)
            if _reference_meld(meld):
                out |= {p | {meld} for p in _reference_partitions(required & ~meld)}
    run = low
    nxt = low << 1
    while nxt & required and (nxt.bit_length() - 1) % 10 and run.bit_count() < 8:
        run |= nxt
        nxt <<= 1
        if run.bit_count() >= 3 and _reference_meld(run):
            out |= {p | {run} for p in _reference_partitions(required & ~run)}
    return frozenset(out)


def _can_meld(index: int, avail: int) -> bool:
    """Whether card ``index`` is in some set or 3-card run made of ``avail`` cards."""
    same_rank = sum(avail >> (suit * 10 + index % 10) & 1 for suit in range(4))
    if same_rank >= 3:
        return True
    low = high = index
    while low % 10 and avail >> (low - 1) & 1:
        low -= 1
    while (high + 1) % 10 and avail >> (high + 1) & 1:
        high += 1
    return high - low >= 2


def _reference_takes(state: GameState) -> set[frozenset[int]]:
    p = state.to_act
    base = state.table_masks[p] | 1 << state.centre
    avail = base | state.hands[p]
    # Only hand cards that belong to some meld within the available cards can be laid.
    hand = [i for i in range(40) if state.hands[p] >> i & 1 and _can_meld(i, avail)]
    out: set[frozenset[int]] = set()
    for size in range(len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            out |= _reference_partitions(base | sum(1 << i for i in combo))
    return out


def test_a11_a14_takes_are_exactly_the_valid_partitions() -> None:
    checked = 0
    for seed in range(12):
        state = GameState.deal(Rules(), seed=seed)
        for before, _ in random_playout(state, random.Random(seed)):
            if before.phase in (Phase.OFFER, Phase.TURN, Phase.FORCED):
                assert take_tables(before) == _reference_takes(before), format_position(before)
                checked += 1
    assert checked > 100


def test_a15_force_trigger_matches_definition() -> None:
    seen = {True: 0, False: 0}
    for seed in range(60):
        state = GameState.deal(Rules(), seed=seed)
        for before, action in random_playout(state, random.Random(seed)):
            refusal = action.kind in (ActionKind.DECLINE, ActionKind.PASS)
            if not refusal or before.source is Source.UPCARD:
                continue
            p, card = before.to_act, 1 << before.centre
            fits = any(_reference_meld(m | card) for m in before.tables[p])
            after = before.child(action)
            assert (after.phase is Phase.FORCE) == fits, format_position(before)
            if fits:
                assert after.to_act == 1 - p and after.centre == before.centre
            seen[fits] += 1
    assert seen[True] > 5 and seen[False] > 100


def test_a16_going_out_d25() -> None:
    for source in ("d", "t"):
        phase = "offer" if source == "d" else "turn"
        state = pos(hand0="JhQhKh", table0="As2s3s4s/5h5d5c", centre=f"7h:{source}", phase=phase)
        play(state, "take:As2s3s4s/5h5d5c/7hJhQhKh")
        assert state.is_over and state.winner == 0
        assert state.outcome() == (0, Termination.OUT)
        assert len(state.table(0)) == 11 and len(state.hand(0)) == 0
        assert state.legal_actions() == ()


def test_a16_ten_melded_plus_discard_is_not_out_d26() -> None:
    state = pos(hand0="JhQh2d", table0="As2s3s4s/5h5d5c", centre="Kh:d")
    play(state, "take:As2s3s4s/5h5d5c/JhQhKh")
    assert state.phase is Phase.DISCARD
    assert legal(state) == {"discard 2d"}
    play(state, "discard 2d")
    assert counts(state, 0) == (10, 0)
    assert not state.is_over and state.outcome() is None
    assert (state.phase, state.to_act) == (Phase.OFFER, 1)


def test_a16_empty_hand_any_take_wins_d27() -> None:
    state = pos(
        hand0="-", table0="As2s3s4s/5h5d5c/JhQhKh", centre="3d:d", stock="5s*", rules="standard"
    )
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.TURN, 0, "5s")
    tables = take_tables(state)
    assert part("As2s3s4s5s/5h5d5c/JhQhKh") in tables
    assert part("As2s3s4s/5s5h5d5c/JhQhKh") in tables
    for action in state.legal_actions():
        if action.kind is ActionKind.TAKE:
            after = state.child(action)
            assert after.outcome() == (0, Termination.OUT)


def test_a16_going_out_on_first_turn_d29() -> None:
    n_hand, d_hand = "Ah2h3h4h5h6h7hKcKdKs", "As2s3s4s5s6s7sJsQsAd"
    for top, table in (("Jh", "Ah2h3h4h5h6h7hJh/KcKdKs"), ("Kh", "Ah2h3h4h5h6h7h/KcKdKsKh")):
        state = GameState.deal(Rules(), deck=deck_with(n_hand, d_hand, top), dealer=0)
        assert state.hand(1) == CardSet.parse(n_hand) and str(state.centre_card) == top
        play(state, f"take:{table}")
        assert state.outcome() == (1, Termination.OUT)


def test_a17_exhaustion_is_a_draw_after_last_card_d30() -> None:
    hand0, hand1 = "As2h3d4c5s6h7dJcQsKh", "Ah3s4h5d6c7sJhQhKd2d"
    state = pos(hand0, hand1, centre="Qd:d", stock="2c", dead=rest(hand0, hand1, "Qd", "2c"))
    play(state, "decline")
    assert (state.phase, str(state.centre_card), state.stock_count) == (Phase.TURN, "2c", 0)
    play(state, "pass")
    assert (state.phase, state.to_act) == (Phase.OFFER, 1)
    play(state, "decline")
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)


def test_a17_play_continues_after_stock_empty_d31() -> None:
    hand0, hand1 = "Kh2s4h7dJsAh5d", "QdAs3h6s7hJh2c"
    table0, table1 = "3c4c5c", "KsKdKc"
    state = pos(
        hand0,
        hand1,
        table0,
        table1,
        centre="6c:d",
        stock="-",
        dead=rest(hand0, hand1, table0, table1, "6c"),
    )
    play(state, "take:3c4c5c6c", "discard Kh")
    assert not state.is_over and state.to_act == 1
    play(state, "take:KsKhKdKc", "discard Qd")
    assert not state.is_over and state.to_act == 0
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)


def test_a17_forcing_available_up_to_the_end() -> None:
    hand0, table0 = "KhKd2s2dJhQs", "3c4c5c6c"
    hand1 = "AsAhAd3s4h5d6h7sJd2h"
    dead = rest(hand0, hand1, table0, "7c")
    state = pos(hand0, hand1, table0, centre="7c:d", stock="-", dead=dead)
    play(state, "decline")
    assert state.phase is Phase.FORCE and not state.is_over
    drawn = state.child(Action(ActionKind.NO_FORCE))
    assert drawn.outcome() == (None, Termination.STOCK_EXHAUSTED)
    play(state, "force", "take:3c4c5c6c7c", "discard Qs")
    assert not state.is_over and (state.phase, state.to_act) == (Phase.OFFER, 1)


def test_a18_stake_paid_by_loser() -> None:
    match = Match("standard,match=n_deals,match_target=1", seed=4)
    (final,) = settle(match, "W")
    winner = final.winner
    assert match.balance[winner] == 1 and match.balance[1 - winner] == -1
    assert match.results[0].value == 1


@pytest.mark.parametrize(
    ("mode", "values"),
    [
        ("carry", [1, 2, 3, 4]),
        ("none", [1, 1, 1, 1]),
        ("double_next", [1, 2, 2, 2]),
        ("double_compound", [1, 2, 4, 8]),
    ],
)
def test_a18_draw_stake_modes(mode: str, values: list[int]) -> None:
    match = Match(f"standard,draw_stake={mode}", seed=1)
    assert [match.deal_value(previous_draws=k) for k in range(4)] == values


@pytest.mark.parametrize(
    ("mode", "net"), [("carry", 3), ("double_next", 2), ("double_compound", 4), ("none", 1)]
)
def test_a18_two_draws_then_a_win_d35(mode: str, net: int) -> None:
    match = Match(f"standard,draw_stake={mode}", seed=7)
    drawn1, drawn2, won = settle(match, "DDW")
    assert drawn1.outcome().winner is None and drawn2.outcome().winner is None
    assert [drawn1.stake, drawn2.stake] == [
        match.deal_value(previous_draws=0),
        match.deal_value(previous_draws=1),
    ]
    assert won.stake == net
    assert match.balance[won.winner] == net and match.balance[1 - won.winner] == -net
    assert match.draws_in_a_row == 0


def test_a18_one_draw_then_a_win_is_worth_two_in_every_mode() -> None:
    for mode in ("carry", "double_next", "double_compound"):
        assert Match(f"standard,draw_stake={mode}").deal_value(previous_draws=1) == 2


def test_a19_single_deal_match_ends_at_first_decided_deal() -> None:
    match = Match("standard", seed=3)
    settle(match, "D")
    assert not match.is_over
    settle(match, "W")
    assert match.is_over
    with pytest.raises(ConquianError, match="over"):
        match.new_deal()


def test_a19_n_deals_match() -> None:
    match = Match("standard,match=n_deals,match_target=3", seed=5)
    settle(match, "WD")
    assert not match.is_over
    settle(match, "W")
    assert match.is_over and len(match.results) == 3


def test_a19_first_to_match() -> None:
    match = Match("standard,match=first_to,match_target=2", seed=8)
    while not match.is_over:
        settle(match, "W")
        assert len(match.results) < 20
    assert max(match.balance) >= 2
    assert all(b < 2 for b in _balances_before_last(match))


def _balances_before_last(match: Match) -> list[int]:
    balance = [0, 0]
    for result in match.results[:-1]:
        winner = result.outcome.winner
        if winner is not None:
            balance[winner] += result.value
            balance[1 - winner] -= result.value
    return balance


def test_a19_points_scoring_hand_points() -> None:
    assert hand_points(cards("As 7h Kd")) == 15 + 7 + 10
    assert hand_points(cards("2c 3c 4c 5c 6c")) == 20
    assert hand_points(cards("Js Qs Ks")) == 30
    assert hand_points(ALL) == 4 * (15 + 2 + 3 + 4 + 5 + 6 + 7 + 30)
    match = Match("standard,scoring=points,draw_stake=none", seed=6)
    (final,) = settle(match, "W")
    winner = final.winner
    assert match.balance[winner] == hand_points(final.hands[1 - winner])
    assert match.balance[1 - winner] == 0
    assert match.results[0].value == hand_points(final.hands[1 - winner])


def _mid_game_states(seed: int) -> list[GameState]:
    state = GameState.deal(Rules(), seed=seed)
    return [s for s, _ in random_playout(state, random.Random(seed))]


def test_a20_observation_public_information() -> None:
    hand0, hand1 = "KhKd2s2dJhQs", "As2hQhKs"
    table0, table1 = "3c4c5c6c", "4d5d6d/JsJcJd"
    state = pos(hand0, hand1, table0, table1, centre="7c:d", dead="Qd", stock="Kc2c*")
    for p in (0, 1):
        obs = observe(state, p)
        assert obs.tables == state.tables
        assert set(obs.tables[1]) == part(table1)
        assert (obs.centre, obs.source) == (state.centre, Source.DISCARD)
        assert obs.dead_mask == cards("Qd")
        assert obs.stock_count == state.stock_count
        assert obs.hand_counts == (6, 4)
        assert obs.hand_mask == state.hands[p]
        data = obs.to_dict()
        assert data["dead"] == ["Qd"] and data["centre"] == "7c" and data["centre_source"] == "d"
        assert data["tables"][0] == [["3c", "4c", "5c", "6c"]]
        assert data["hand_counts"] == [6, 4] and data["stock_count"] == state.stock_count


def test_a20_observation_hides_opponent_hand_and_stock_order() -> None:
    label = re.compile(r"[A2-7JQK][shdc]")
    checked = 0
    for seed in range(6):
        for state in _mid_game_states(seed)[::3]:
            for p in (0, 1):
                hidden = state.hands[1 - p] | unturned(state)
                text = json.dumps(observe(state, p).to_dict())
                shown = {m for m in label.findall(text)}
                assert not shown & {str(c) for c in CardSet(hidden)}
                assert not hasattr(observe(state, p), "stock")
                checked += 1
    assert checked > 20


def test_a20_redeal_of_hidden_cards_does_not_change_observation() -> None:
    changed_other = 0
    changed_stock = 0
    for seed in range(4):
        for state in _mid_game_states(seed)[::4]:
            for p in (0, 1):
                mine = observe(state, p).to_dict()
                theirs = observe(state, 1 - p).to_dict()
                for k in range(3):
                    other = state.redeal(p, random.Random(k))
                    assert observe(other, p).to_dict() == mine
                    if other.hands[1 - p] != state.hands[1 - p]:
                        assert observe(other, 1 - p).to_dict() != theirs
                        changed_other += 1
                    if other.stock[other.stock_pos :] != state.stock[state.stock_pos :]:
                        changed_stock += 1
    assert changed_other > 10 and changed_stock > 10


def test_a21_illegal_actions_leave_state_unchanged() -> None:
    state = GameState.deal(Rules(), seed=2)
    assert_illegal(state, Action(ActionKind.DECLINE))
    assert_illegal(state, Action(ActionKind.FORCE))
    assert_illegal(state, take_action("AsAhAd/2s2h2d"))
    with pytest.raises(InvalidStateError):
        pos(hand0="KhKd2s2dJhQsAs", table0="3c4c5c6c", centre="7c:d")  # 11 cards


def test_a21_no_changing_mind_after_touching_stock() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Ks:d", stock="2d*")
    assert part("3s4s5s/KsKhKd") in take_tables(state)
    play(state, "decline")
    assert state.phase is Phase.TURN and str(state.centre_card) == "2d"
    assert_illegal(state, take_action("3s4s5s/KsKhKd"))


def test_a22_deals_terminate() -> None:
    for seed in range(40):
        state = GameState.deal(Rules(), seed=seed)
        history = random_playout(state, random.Random(seed))
        assert state.is_over
        takes = [0, 0]
        for before, action in history:
            if action.kind is ActionKind.TAKE:
                takes[before.to_act] += 1
        winner = state.winner
        for p in (0, 1):
            assert takes[p] - (1 if p == winner else 0) <= 10
        turned = len(state.stock) - state.stock_count
        assert turned <= 20
        assert sum(takes) + turned <= 41


# -------------------------------------------------------------------- C. edge cases


def test_c1_stock_runs_out_mid_turn() -> None:
    hand0, hand1 = "As2h3d4c5s6h7dJcQsKh", "Ah3s4h5d6c7sJhQhKd2d"
    state = pos(hand0, hand1, centre="Qd:d", stock="-", dead=rest(hand0, hand1, "Qd"))
    play(state, "decline")
    assert state.is_over and state.outcome().winner is None
    assert state.dead_mask & cards("Qd")
    assert state.legal_actions() == ()
    with pytest.raises(GameOverError):
        state.apply(Action.discard(0))


def test_c1_force_resolved_before_stock_consulted() -> None:
    hand0, table0 = "KhKd2s2dJhQs", "3c4c5c6c"
    hand1 = "AsAhAd3s4h5d6h7sJd2h"
    dead = rest(hand0, hand1, table0, "7c")
    state = pos(hand0, hand1, table0, centre="7c:d", stock="-", dead=dead)
    play(state, "decline")
    assert state.phase is Phase.FORCE
    play(state, "force")
    assert state.phase is Phase.FORCED


def test_c2_last_stock_card_taken_and_play_continues() -> None:
    hand0, hand1 = "2h7dJcQsKhKd", "Ah3s4h5d6h7sJhQhKc2d"
    table0 = "3c4c5c6c"
    state = pos(
        hand0,
        hand1,
        table0,
        centre="7c:t",
        phase="turn",
        stock="-",
        dead=rest(hand0, hand1, table0, "7c"),
    )
    play(state, "take:3c4c5c6c7c", "discard Qs")
    assert (state.phase, state.to_act, state.stock_count) == (Phase.OFFER, 1, 0)
    assert not state.is_over
    play(state, "decline")
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)


def test_c3_cannot_discard_the_card_just_taken() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="6s:d")
    play(state, "take:3s4s5s6s")
    six = idx("6s")
    assert Action.discard(six) not in state.legal_actions()
    assert_illegal(state, Action.discard(six), match="not in player 0's hand")
    assert not state.hands[0] & cards("6s")


def test_c3_cannot_take_without_melding() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Qs:d")
    assert take_tables(state) == set()
    assert_illegal(state, take_action("3s4s5s"))


def test_c4_cannot_put_card_on_opponents_combination() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh2d4cQh", table1="3s4s5s", centre="6s:d")
    assert legal(state) == {"decline"}
    assert_illegal(state, take_action("3s4s5s6s"))
    play(state, "decline")
    assert state.phase is Phase.TURN  # 6s fits only the opponent's table: not forceable
    assert set(state.tables[1]) == part("3s4s5s")


def test_c4_forced_card_goes_to_forced_players_own_table() -> None:
    state = pos(hand0="KhKd2s2dJhQs", table0="3c4c5c6c", table1="7d7h7s", centre="7c:d")
    play(state, "decline", "force", "take:3c4c5c6c7c")
    assert set(state.tables[1]) == part("7d7h7s")
    assert state.table_masks[0] & cards("7c")


def test_c5_ten_melded_empty_hand_continues_and_can_draw() -> None:
    table0 = "As2s3s4s/5h5d5c/JhQhKh"
    hand1 = "Ah2h3h4h6s7sQsKsJdQd"
    state = pos("-", hand1, table0, centre="3d:d", stock="-", dead=rest(table0, hand1, "3d"))
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)


def test_c5_empty_hand_player_cannot_discard() -> None:
    state = pos(hand0="-", table0="As2s3s4s/5h5d5c/JhQhKh", centre="5s:d")
    assert all(a.kind in (ActionKind.TAKE, ActionKind.DECLINE) for a in state.legal_actions())
    for action in state.legal_actions():
        if action.kind is ActionKind.TAKE:
            assert state.child(action).winner == 0


def test_c6_empty_hand_card_fits_only_after_rearranging() -> None:
    base = {"hand0": "-", "table0": "4s4h4d4c/5s6s7s/2d2h2c", "centre": "3s:d"}
    winning = part("3s4s5s6s7s/4h4d4c/2d2h2c")
    for rules in ("standard", _FOSTER):
        state = pos(**base, rules=rules)
        assert winning in take_tables(state)
        assert state.child(take_of(state, "3s4s5s6s7s/4h4d4c/2d2h2c")).winner == 0
    state = pos(**base, rules=_NONE)
    assert legal(state) == {"decline"}
    state = pos(**base)
    play(state, "decline")  # does not fit directly: not forceable
    assert state.phase is Phase.TURN and state.dead_mask == cards("3s")


def test_c7_forcing_a_player_with_empty_hand_makes_him_win() -> None:
    state = pos(hand0="-", table0="As2s3s4s/5h5d5c/JhQhKh", centre="5s:d")
    play(state, "decline")
    assert state.phase is Phase.FORCE and "force" in legal(state)
    play(state, "force")
    action = state.legal_actions()[0]
    state.apply(action)
    assert state.outcome() == (0, Termination.OUT)


def test_c8_forced_take_can_go_out_full() -> None:
    state = pos(hand0="KhKdKs", table0="3c4c5c6c/2h2d2s", centre="7c:d")
    play(state, "decline", "force", "take:3c4c5c6c7c/2h2d2s/KhKdKs")
    assert state.outcome() == (0, Termination.OUT)


def test_c8_forced_take_minimal_cannot_lay_hand_cards() -> None:
    state = pos(hand0="KhKdKs", table0="3c4c5c6c/2h2d2s", centre="7c:d", rules=_MINIMAL)
    play(state, "decline", "force")
    assert take_tables(state) == {part("3c4c5c6c7c/2h2d2s")}
    assert_illegal(state, take_action("3c4c5c6c7c/2h2d2s/KhKdKs"), match="minimal")
    play(state, "take:3c4c5c6c7c/2h2d2s")
    assert state.phase is Phase.DISCARD and not state.is_over


def test_c8_forced_take_minimal_goes_out_with_empty_hand() -> None:
    state = pos(hand0="-", table0="As2s3s4s/5h5d5c/JhQhKh", centre="6h:d", rules=_MINIMAL)
    play(state, "decline")  # 6h does not fit: dead
    assert state.phase is Phase.TURN
    state = pos(hand0="-", table0="As2s3s4s/5h5d5c/JhQhKh", centre="7h:d", rules=_MINIMAL)
    play(state, "decline", "force", "take:As2s3s4s/5h5d5c/7hJhQhKh")
    assert state.outcome() == (0, Termination.OUT)


def test_c9_borrow_leaves_three_set_no_double_use() -> None:
    state = pos(hand0="2h3hKcQsJd7s", table0="4h4s4d4c", centre="5h:d")
    play(state, "take:2h3h4h5h/4s4d4c")
    melds = state.tables[0]
    assert sum(m.bit_count() for m in melds) == partition_mask(melds).bit_count() == 7
    # A meld list using 4h twice is not accepted.
    state = pos(hand0="2h3hKcQsJd7s", table0="4h4s4d4c", centre="5h:d")
    double = Action(ActionKind.TAKE, -1, tuple(sorted((cards("2h3h4h5h"), cards("4h4s4d4c")))))
    assert_illegal(state, double, match="used in two melds")


def test_c9_refill_three_set_from_hand_then_borrow() -> None:
    for rules in ("standard", _FOSTER):
        state = pos(hand0="4c2h3hKcQsJd7s", table0="4h4s4d", centre="5h:d", rules=rules)
        assert part("2h3h4h5h/4s4d4c") in take_tables(state)


def test_c10_split_run_in_the_middle() -> None:
    base = {"hand0": "4h4dKc", "table0": "As2s3s4s5s6s7s", "centre": "4c:d"}
    split = part("As2s3s/4s4h4d4c/5s6s7s")
    assert split in take_tables(pos(**base))
    assert split not in take_tables(pos(**base, rules=_FOSTER))
    assert split not in take_tables(pos(**base, rules=_NONE))
    for rules in ("standard", _FOSTER, _NONE):
        assert part("As2s3s4s5s6s7s/4h4d4c") in take_tables(pos(**base, rules=rules))


def test_c11_run_longer_than_eight() -> None:
    base = {"hand0": "2h3d", "table0": "As2s3s4s5s6s7sJs", "centre": "Qs:d"}
    state = pos(**base)
    assert_illegal(state, take_action("As2s3s4s5s6s7sJsQs"), match="longer than 8")
    assert part("As2s3s4s/5s6s7sJsQs") in take_tables(state)
    play(state, "decline")
    assert state.phase is Phase.TURN  # no direct fit: not forceable
    state = pos(**base, rules="standard,max_seq_len=10")
    assert part("As2s3s4s5s6s7sJsQs") in take_tables(state)
    play(state, "decline")
    assert state.phase is Phase.FORCE


def test_c12_forced_player_chooses_which_combination() -> None:
    state = pos(hand0="KhQd2cJc", table0="4h4d4c/5s6s7s", centre="4s:d")
    play(state, "decline", "force")
    tables = take_tables(state)
    assert part("4s4h4d4c/5s6s7s") in tables
    assert part("4h4d4c/4s5s6s7s") in tables
    state = pos(hand0="KhQd2cJc", table0="4h4d4c/5s6s7s", centre="4s:d", rules=_MINIMAL)
    play(state, "decline", "force")
    assert take_tables(state) == {part("4s4h4d4c/5s6s7s"), part("4h4d4c/4s5s6s7s")}


def test_c13_no_forcing_with_own_discard() -> None:
    state = pos(
        hand0="6cAhAd2hQhJdQcJs",
        table0="3c4c5c",
        table1="KhKsKd",
        phase="discard",
        stock="2s*",
    )
    play(state, "discard 6c")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.OFFER, 1, "6c")
    play(state, "decline")
    assert state.dead_mask == cards("6c")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.TURN, 1, "2s")


def test_c13_own_discard_fitting_own_run_is_legal() -> None:
    state = pos(hand0="6cAhAd2hQhJdQsQc", table0="3c4c5c", phase="discard")
    assert "discard 6c" in legal(state)


def test_c14_passed_card_fits_both_tables() -> None:
    state = pos("AhAd2hQhJdQc2c", "As2sKs3h4h5dKc", "4s5s6s", "7h7d7c", "7s:t", phase="turn")
    play(state, "pass")
    assert (state.phase, state.to_act) == (Phase.FORCE, 1)  # O first decides to force P
    play(state, "noforce")
    assert (state.phase, state.to_act, state.source) == (Phase.OFFER, 1, Source.PASSED)
    play(state, "decline")
    assert (state.phase, state.to_act) == (Phase.FORCE, 0)  # then P may force O
    play(state, "force")
    assert (state.phase, state.to_act) == (Phase.FORCED, 1)
    assert take_tables(state) == {part("7s7h7d7c")}


def test_c15_opponent_acts_after_forced_take() -> None:
    state = pos(hand0="KhKd2s2dJhQs", table0="3c4c5c6c", centre="7c:p", stock="Jc*")
    stock = state.stock_count
    play(state, "decline", "force", "take:3c4c5c6c7c", "discard 2s")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.OFFER, 1, "2s")
    assert state.source is Source.DISCARD
    assert state.stock_count == stock and state.stock[state.stock_pos] == idx("Jc")


def test_c16_first_card_cannot_be_forced() -> None:
    for seed in range(10):
        state = GameState.deal(Rules(), seed=seed)
        play(state, "pass")
        assert state.phase is Phase.OFFER and state.source is Source.PASSED
        play(state, "decline")
        assert state.phase is Phase.TURN


def test_c17_voluntary_lay_off_then_discard() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="6s:d")
    play(state, "take:3s4s5s6s")
    assert state.phase is Phase.DISCARD and len(state.hand(0)) == 7


def test_c18_melding_without_taking_d33() -> None:
    base = {"hand0": "KhKdKs2c5d7sJhQd3s4d", "centre": "6h:t", "phase": "turn"}
    assert legal(pos(**base)) == {"pass"}
    state = pos(**base, rules=_MELD_FIRST)
    assert legal(state) == {"pass", "pass KsKhKd"}
    play(state, "pass KsKhKd")
    assert counts(state, 0) == (3, 7)
    assert (state.phase, state.to_act, state.source) == (Phase.OFFER, 1, Source.PASSED)


def test_c18_meld_before_passing_can_make_card_forceable() -> None:
    state = pos(hand0="KhKdQs2c5d7sJhQd3s4d", centre="Ks:t", phase="turn", rules=_MELD_FIRST)
    assert "take KsKhKd" in legal(state)
    play(state, "pass")
    assert state.phase is Phase.OFFER  # nothing on the table: not forceable
    state = pos(hand0="KhKdKs2c5d7sJhQd3s4d", centre="Kc:t", phase="turn", rules=_MELD_FIRST)
    play(state, "pass KsKhKd")
    assert (state.phase, state.to_act) == (Phase.FORCE, 1)


def test_c19_going_out_with_own_turned_card() -> None:
    state = pos(hand0="JhQhKh", table0="As2s3s4s/5h5d5c", centre="7h:t", phase="turn")
    play(state, "take:As2s3s4s/5h5d5c/7hJhQhKh")
    assert state.outcome() == (0, Termination.OUT)


def test_c20_cannot_go_out_by_discarding() -> None:
    state = pos(hand0="Jh", table0="As2s3s4s/5h5d5c/JcQcKc", phase="discard")
    assert counts(state, 0) == (10, 1)
    play(state, "discard Jh")
    assert not state.is_over and counts(state, 0) == (10, 0)


def test_c21_no_change_of_mind_after_declining_or_passing() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Ks:d", stock="2d*")
    play(state, "decline")
    assert state.dead_mask & cards("Ks")
    assert_illegal(state, take_action("3s4s5s/KsKhKd"))
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Ks:t", phase="turn")
    play(state, "pass", "decline")
    assert state.dead_mask & cards("Ks")
    assert state.to_act == 1 and state.phase is Phase.TURN


def test_c22_discard_must_be_a_hand_card() -> None:
    state = pos(hand0="Jh", table0="As2s3s4s/5h5d5c/JcQcKc", phase="discard")
    assert_illegal(state, Action.discard(0), match="not in player 0's hand")
    assert legal(state) == {"discard Jh"}


def test_c23_give_up_existing_combination_entirely() -> None:
    base = {"hand0": "4s6s4h6h4dKcQc", "table0": "5s5h5d", "centre": "6d:d"}
    merged = part("4s5s6s/4h5h6h/4d5d6d")
    state = pos(**base)
    assert merged in take_tables(state)
    play(state, "take:4s5s6s/4h5h6h/4d5d6d")
    assert state.table_masks[0] & cards("5s5h5d") == cards("5s5h5d")
    assert merged not in take_tables(pos(**base, rules=_NONE))
    assert merged not in take_tables(pos(**base, rules=_FOSTER))


def test_c24_no_tie_first_to_go_out_wins() -> None:
    state = pos("JhQhKh", "JdQdKd", "As2s3s4s/5h5d5c", "Ac2c3c4c/6s6d6c", "7h:d")
    play(state, "take:As2s3s4s/5h5d5c/7hJhQhKh")
    assert state.outcome() == (0, Termination.OUT)
    with pytest.raises(GameOverError):
        state.apply(Action(ActionKind.DECLINE))


def test_c25_dead_cards_visible_to_both_players() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Qs:d", stock="2h*")
    play(state, "decline")
    for p in (0, 1):
        obs = observe(state, p)
        assert obs.dead_mask == cards("Qs")
        assert "Qs" in obs.to_dict()["dead"] and "Qs" in obs.to_dict()["seen"]


def test_c26_forcing_trap_breaks_hand_pair() -> None:
    state = pos(hand0="KsKd", table0="2h3h4h5h/2c3c4c5c", centre="6h:t", phase="turn")
    play(state, "pass")
    assert "force" in legal(state)
    play(state, "force")
    assert len(state.legal_actions()) == 1
    play(state, "take:2h3h4h5h6h/2c3c4c5c")
    assert legal(state) == {"discard Ks", "discard Kd"}
    play(state, "discard Ks")
    assert not state.is_over and len(state.hand(0)) == 1


def test_c27_stock_count_and_card_conservation() -> None:
    state = GameState.deal(Rules(), seed=21)
    assert len(state.stock) == 20 and state.stock_count + 1 == 20
    check_invariants(state)
    upcard = GameState.deal(find_rules("wikipedia"), seed=21)
    assert upcard.stock_count == 19 and upcard.source is Source.UPCARD
    check_invariants(upcard)


def test_c28_turned_card_options_and_fate() -> None:
    state = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Ks:t", phase="turn")
    offered = pos(hand0="KhKd2c7hJdQcAh", table0="3s4s5s", centre="Ks:d")
    assert take_tables(state) == take_tables(offered)
    assert kinds(state) == {ActionKind.TAKE, ActionKind.PASS}
    assert kinds(offered) == {ActionKind.TAKE, ActionKind.DECLINE}
    play(state, "pass")
    assert state.dead_mask == 0 and state.to_act == 1 and str(state.centre_card) == "Ks"
    play(offered, "decline")
    assert offered.dead_mask == cards("Ks") and offered.to_act == 0


def test_c29_after_drawn_deal_dealer_alternates_and_stake_carries() -> None:
    match = Match("standard", seed=12)
    dealer = match.dealer
    (drawn,) = settle(match, "D")
    assert drawn.outcome().winner is None
    assert match.dealer == 1 - dealer
    assert match.balance == [0, 0] and match.results[0].value == 0
    assert match.new_deal().stake == 2


# ------------------------------------------------------------------ B. variant flags


def test_b_forcing_off() -> None:
    state = pos(
        hand0="KhKd2s2dJhQs", table0="3c4c5c6c", centre="7c:d", rules="standard,forcing=off"
    )
    play(state, "decline")
    assert state.phase is Phase.TURN and state.dead_mask == cards("7c")


def test_b_forcing_automatic() -> None:
    rules = "standard,forcing=automatic"
    state = pos(hand0="KhKd2s2dJhQs", table0="3c4c5c6c", centre="7c:d", rules=rules)
    play(state, "decline")
    assert (state.phase, state.to_act) == (Phase.FORCED, 0)
    state = pos(hand0="KsKd", table0="2h3h4h5h/2c3c4c5c", centre="6h:t", phase="turn", rules=rules)
    play(state, "pass")
    assert (state.phase, state.to_act) == (Phase.FORCED, 0)


def test_b_force_scope_offered_only() -> None:
    rules = "standard,force_scope=offered_only"
    state = pos(hand0="KsKd", table0="2h3h4h5h/2c3c4c5c", centre="6h:t", phase="turn", rules=rules)
    play(state, "pass")
    assert (state.phase, state.to_act, state.source) == (Phase.OFFER, 1, Source.PASSED)
    state = pos(hand0="KhKd2s2dJhQs", table0="3c4c5c6c", centre="7c:d", rules=rules)
    play(state, "decline")
    assert state.phase is Phase.FORCE


def test_b_force_fit_with_rearrangement() -> None:
    base = {"hand0": "KhQd2c", "table0": "4s4h4d4c/5s6s7s", "centre": "3s:d"}
    state = pos(**base)
    play(state, "decline")
    assert state.phase is Phase.TURN
    state = pos(**base, rules="standard,force_fit=with_rearrangement")
    play(state, "decline")
    assert state.phase is Phase.FORCE
    play(state, "force")
    assert part("3s4s5s6s7s/4h4d4c") in take_tables(state)


def test_b_forced_take_minimal_d20() -> None:
    state = pos(hand0="KhKdKs2d2hJd", table0="3c4c5c6c", centre="7c:d", rules=_MINIMAL)
    play(state, "decline", "force")
    assert take_tables(state) == {part("3c4c5c6c7c")}
    play(state, "take:3c4c5c6c7c", "discard Jd")
    assert counts(state, 0) == (5, 5)


def test_b_max_seq_len_ten_d03() -> None:
    nine, ten = cards("As 2s 3s 4s 5s 6s 7s Js Qs"), cards("As 2s 3s 4s 5s 6s 7s Js Qs Ks")
    assert not is_meld(nine) and not is_meld(ten)
    assert is_meld(nine, 10) and is_meld(ten, 10)
    assert find_rules("standard,max_seq_len=10").max_seq_len == 10
    assert len(meld_table(10).melds) == 4 * 36 + 10 * 5


def test_b_initial_upcard_offered_to_both_d34() -> None:
    rules = find_rules("standard,initial_upcard=offered_to_both")
    n_hand, d_hand = "7h7dAs2s3s4s5s6sJsQs", "AhAd2h2d3h3d4h4d5h5d"
    deck = deck_with(n_hand, d_hand, "7sKc")
    state = GameState.deal(rules, deck=deck, dealer=0)
    assert (state.phase, state.to_act, state.source) == (Phase.OFFER, 1, Source.UPCARD)
    assert str(state.centre_card) == "7s" and state.stock_count == 19
    taken = state.child(take_of(state, "7h7d7s"))
    assert taken.phase is Phase.DISCARD and taken.to_act == 1
    play(taken, "discard Qs")
    assert (taken.phase, taken.to_act) == (Phase.OFFER, 0)
    play(state, "decline")
    assert (state.phase, state.to_act, state.source) == (Phase.OFFER, 0, Source.UPCARD)
    play(state, "decline")
    assert state.dead_mask == cards("7s")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.TURN, 1, "Kc")
    assert state.stock_count == 18


def test_b_initial_upcard_taken_by_dealer() -> None:
    rules = find_rules("wikipedia")
    n_hand, d_hand = "AsKs2s3s4s5s6sJsQs2h", "7h7dAh2dQh3d4h4d5h5d"
    deck = _packet_two_deck(n_hand, d_hand, "7s")
    state = GameState.deal(rules, deck=deck, dealer=0)
    assert state.hand(1) == CardSet.parse(n_hand)
    play(state, "decline")
    play(state, "take:7h7d7s", "discard Qh")
    assert (state.phase, state.to_act, str(state.centre_card)) == (Phase.OFFER, 1, "Qh")


def _packet_two_deck(n_hand: str, d_hand: str, stock_top: str) -> list[int]:
    n_cards = [c.index for c in CardSet.parse(n_hand)]
    d_cards = [c.index for c in CardSet.parse(d_hand)]
    order: list[int] = []
    for i in range(0, 10, 2):
        order += n_cards[i : i + 2] + d_cards[i : i + 2]
    order += [c.index for c in CardSet.parse(stock_top)]
    return order + [i for i in range(40) if i not in order]


def test_b_exhaustion_fewest_hand_cards() -> None:
    rules = "standard,exhaustion=fewest_hand_cards"
    hand0, table0 = "KhKd2s", "3c4c5c6c/JsJhJd"
    hand1 = "AsAhAd3s4h5d6h7s2h7d"
    dead = rest(hand0, hand1, table0, "Qd")
    state = pos(hand0, hand1, table0, centre="Qd:d", stock="-", dead=dead, rules=rules)
    play(state, "decline")
    assert state.outcome() == (0, Termination.STOCK_EXHAUSTED)
    state = pos(hand0, hand1, table0, centre="Qd:d", stock="-", dead=dead)
    play(state, "decline")
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)
    hand1, table1 = "AsAhAd", "4h5h6h7h/QsQhQc"
    dead = rest(hand0, hand1, table0, table1, "Qd")
    state = pos(hand0, hand1, table0, table1, "Qd:d", stock="-", dead=dead, rules=rules)
    play(state, "decline")
    assert state.outcome() == (None, Termination.STOCK_EXHAUSTED)


def test_b_deck_style_changes_only_labels() -> None:
    position = "KhKd2s2dJhQs * 3c4c5c6c - 7c:d - * 1"
    actions = {}
    for style in ("french", "spanish", "a_to_10"):
        state = parse_position(f"standard,deck_style={style} offer 0 1 {position}")
        assert state.rules.deck_style == style
        actions[style] = legal(state)
    assert actions["french"] == actions["spanish"] == actions["a_to_10"]
    assert "Spanish" in describe(find_rules("standard,deck_style=spanish"))
    assert find_rules("foster").deck_style == "a_to_10"


def test_b_presets() -> None:
    assert find_rules("bicycle").max_seq_len == 10
    assert find_rules("bicycle").force_scope == "offered_only"
    assert find_rules("foster").rearrange_mode == "foster_borrow"
    assert find_rules("foster").deal_packet == 2
    assert find_rules("wikipedia").initial_upcard == "offered_to_both"
    assert find_rules("standard") == Rules()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("standart", "Unknown rules preset 'standart'; presets are: standard"),
        ("standard,max_run=9", "Unknown rules flag 'max_run'; flags are: "),
        ("standard,max_seq_len", "Expected flag=value"),
        ("standard,max_seq_len=11", "max_seq_len must be between 3 and 10, got 11"),
        ("standard,max_seq_len=2", "max_seq_len must be between 3 and 10, got 2"),
        ("standard,max_seq_len=eight", "max_seq_len must be a whole number"),
        ("standard,forcing=sometimes", "forcing must be one of optional, off, automatic"),
        ("standard,rearrange_mode=loose", "rearrange_mode must be one of free"),
        ("standard,deal_packet=3", "deal_packet must be 1 or 2, got 3"),
        ("standard,num_players=3", "force_by=opponent is the two-player rule"),
        ("standard,match_target=3", "match_target needs match n_deals or first_to"),
        ("standard,scoring=points", "scoring points .* needs draw_stake none"),
        (
            "standard,rearrange_mode=none,force_fit=with_rearrangement",
            "force_fit with_rearrangement needs a rearrange_mode",
        ),
        ("standard,forcing=off,force_scope=offered_only", "no meaning with forcing off"),
        ("standard,forcing=off,forced_take=minimal", "no meaning with forcing off"),
        ("standard,deck_style=italian", "deck_style must be one of french, spanish, a_to_10"),
        (
            "mexican,force_by=none",
            "force_by must be one of .* To play without forcing, use forcing=off",
        ),
        ("standard,force_fit=never", "To play without forcing, use forcing=off"),
    ],
)
def test_b_invalid_rules_raise(spec: str, message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        find_rules(spec)


def test_b_invalid_rules_direct_construction() -> None:
    with pytest.raises(InvalidRulesError, match="Unknown rules flag 'bogus'"):
        Rules().with_flags(bogus=1)
    with pytest.raises(InvalidRulesError, match="max_seq_len must be between"):
        Rules(max_seq_len=11)
    with pytest.raises(InvalidRulesError, match="must be a whole number"):
        Rules(max_seq_len=True)
    with pytest.raises(InvalidRulesError, match="Unknown rules preset"):
        parse_position("standart offer 0 1 * * - - 7c:d - * 1")
