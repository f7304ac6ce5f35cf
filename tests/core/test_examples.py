"""The worked examples D01-D37 (some numbers are not used), one or more tests each.

Each example id is defined in docs/rules.md, section 13.3 (in "Rule statements and worked
examples by id"), with the section and the E example of docs/rules.md that cover it.

Every position is set up with a position string.  Unless a test says otherwise player 0
is P (the player to act, the non-dealer) and player 1 is O (the dealer).
"""

from __future__ import annotations

import pytest

from conquian.actions import Action, ActionKind
from conquian.cards import (
    ALL_CARDS_MASK,
    CardSet,
    format_mask,
    iter_card_tokens,
    parse_cards_mask,
)
from conquian.errors import (
    IllegalActionError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
)
from conquian.match import Match
from conquian.melds import Meld, MeldKind, is_meld
from conquian.notation import format_position, parse_position
from conquian.rules import find_rules
from conquian.state import GameState, Outcome, Phase, Source, Termination

# ---------------------------------------------------------------------------- helpers


def mask(text: str) -> int:
    return parse_cards_mask(text)


def position(text: str) -> GameState:
    """Parse a position string; a dead field ``rest`` holds every card not placed elsewhere.

    With ``rest`` the hands must be written out (no ``*``).
    """
    fields = text.split()
    if fields[9] == "rest":
        placed = 0
        for index in (4, 5, 6, 7, 10):
            if fields[index] != "-":
                assert "*" not in fields[index], "'rest' needs explicit hands and stock"
                placed |= mask(fields[index])
        if fields[8] != "-":
            placed |= mask(fields[8].split(":")[0])
        fields[9] = format_mask(ALL_CARDS_MASK & ~placed, "") or "-"
    return parse_position(" ".join(fields))


def canon(*texts: str) -> set[str]:
    """The canonical texts of actions written in any meld/card order."""
    return {str(Action.parse(t)) for t in texts}


def legal(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def takes(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions() if a.kind is ActionKind.TAKE}


def play(state: GameState, *texts: str) -> GameState:
    """Apply actions given as canonical text (each must be legal)."""
    for text in texts:
        state.apply(Action.parse(text))
    return state


def raw_take(*melds: str) -> Action:
    """A take built from masks directly, for melds that cannot even be written."""
    return Action(ActionKind.TAKE, -1, tuple(sorted(mask(m) for m in melds)))


def sizes(state: GameState, player: int) -> tuple[int, int]:
    """(table cards, hand cards) of a player."""
    return state.table_masks[player].bit_count(), state.hands[player].bit_count()


def centre(state: GameState) -> str:
    return str(state.centre_card)


def dead(state: GameState) -> set[str]:
    return {str(c) for c in state.dead}


def assert_offer(state: GameState, player: int, card: str, source: Source) -> None:
    assert (state.phase, state.to_act, centre(state), state.source) == (
        Phase.OFFER,
        player,
        card,
        source,
    )


def assert_turned(state: GameState, player: int, card: str) -> None:
    """``player`` has just turned ``card`` from the stock and must take or pass it."""
    assert (state.phase, state.to_act, centre(state), state.source) == (
        Phase.TURN,
        player,
        card,
        Source.TURNED,
    )


def assert_force_decision(state: GameState, refuser: int, card: str) -> None:
    """The opponent of ``refuser`` must decide whether to force ``card`` on him."""
    assert (state.phase, state.to_act, state.refuser, centre(state)) == (
        Phase.FORCE,
        1 - refuser,
        refuser,
        card,
    )
    assert legal(state) == {"force", "noforce"}


def assert_draw(state: GameState) -> None:
    assert state.phase is Phase.OVER
    assert state.outcome() == Outcome(None, Termination.STOCK_EXHAUSTED)
    assert state.legal_actions() == ()


def assert_won(state: GameState, player: int) -> None:
    assert state.phase is Phase.OVER
    assert state.outcome() == Outcome(player, Termination.OUT)
    assert sizes(state, player) == (11, 0)
    assert state.legal_actions() == ()


def assert_rejected(
    state: GameState,
    action: str | Action,
    phrase: str,
    error: type[Exception] = IllegalActionError,
) -> None:
    """The action is rejected with a message containing ``phrase``; the state is unchanged."""
    before = format_position(state)
    before_legal = legal(state)
    with pytest.raises(error) as info:
        state.apply(Action.parse(action) if isinstance(action, str) else action)
    assert phrase.lower() in str(info.value).lower(), str(info.value)
    assert format_position(state) == before
    assert legal(state) == before_legal


def assert_unwritable(text: str, phrase: str) -> None:
    """The action text cannot even be read."""
    with pytest.raises(InvalidNotationError) as info:
        Action.parse(text)
    assert phrase.lower() in str(info.value).lower(), str(info.value)


# ---------------------------------------------------------------------- meld validity

VALID_RUNS = ["6h 7h Jh", "7h Jh Qh", "As 2s 3s", "5h 6h 7h Jh Qh Kh"]
INVALID_RUNS = ["Qh Kh Ah", "Kh Ah 2h", "5h 6h 7h Jd", "4c 5c 7c"]
VALID_SETS = ["Kc Kd Ks", "Kc Kd Ks Kh"]
INVALID_SETS = ["Kc Kd", "5h 5d 6h"]


def table_position(table: str, rules: str = "standard") -> str:
    """A position with ``table`` as player 0's only meld."""
    return f"{rules} offer 0 1 * * {table.replace(' ', '')} - Ac:d - * 1"


def assert_valid_meld(text: str, kind: MeldKind) -> None:
    assert Meld.parse(text).kind is kind
    assert is_meld(mask(text))
    state = parse_position(table_position(text))
    assert state.tables[0] == (mask(text),)


def assert_invalid_meld(text: str) -> None:
    assert not is_meld(mask(text))
    assert not is_meld(mask(text), 10)
    with pytest.raises(InvalidMeldError):
        Meld.parse(text)
    with pytest.raises(InvalidNotationError, match="not a meld"):
        parse_position(table_position(text))


@pytest.mark.parametrize("run", VALID_RUNS)
def test_d01_valid_sequences(run: str) -> None:
    assert_valid_meld(run, MeldKind.RUN)


@pytest.mark.parametrize("run", INVALID_RUNS)
def test_d01_invalid_sequences(run: str) -> None:
    assert_invalid_meld(run)


def test_d01_wrap_around_cannot_be_taken() -> None:
    # P holds Qh Kh (and 2h): the offered Ah fits neither Q-K-A nor K-A-2.
    state = parse_position("standard offer 0 1 QhKh2h5s6s7d4cJsJd3c * - - Ah:d - * 1")
    assert legal(state) == {"decline"}
    for text in ("take QhKhAh", "take KhAh2h"):
        assert_unwritable(text, "not a meld")
    assert_rejected(state, raw_take("Qh Kh Ah"), "not a set or run")
    assert_rejected(state, raw_take("Kh Ah 2h"), "not a set or run")


@pytest.mark.parametrize("meld", VALID_SETS)
def test_d02_valid_sets(meld: str) -> None:
    assert_valid_meld(meld, MeldKind.SET)


@pytest.mark.parametrize("meld", INVALID_SETS)
def test_d02_invalid_sets(meld: str) -> None:
    assert_invalid_meld(meld)


RUN_8 = "As2s3s4s5s6s7sJs"
RUN_9 = "As2s3s4s5s6s7sJsQs"
RUN_10 = "As2s3s4s5s6s7sJsQsKs"


def test_d03_sequence_cap_default() -> None:
    assert is_meld(mask(RUN_8))
    assert parse_position(table_position(RUN_8)).tables[0] == (mask(RUN_8),)
    for run in (RUN_9, RUN_10):
        assert not is_meld(mask(run))
        with pytest.raises(InvalidMeldError):
            Meld.parse(run)
        with pytest.raises(InvalidStateError, match="not a meld under these rules"):
            parse_position(table_position(run))


def test_d03_sequence_cap_ten() -> None:
    rules = "standard,max_seq_len=10"
    for run in (RUN_8, RUN_9, RUN_10):
        assert is_meld(mask(run), 10)
        assert Meld.parse(run, 10).kind is MeldKind.RUN
        assert parse_position(table_position(run, rules)).tables[0] == (mask(run),)


def test_d03_ninth_card_of_a_run() -> None:
    # C11: with the default cap Qs cannot be laid off on an 8-run (nor forced), but a free
    # rearrangement into two runs is a legal take; with max_seq_len=10 the lay-off is legal.
    text = "{} offer 0 1 * * As2s3s4s5s6s7sJs - Qs:d - Ah* 1"
    state = parse_position(text.format("standard"))
    assert f"take {RUN_9}" not in legal(state)
    assert canon("take As2s3s4s/5s6s7sJsQs") <= legal(state)
    assert_rejected(state, f"take {RUN_9}", "a run longer than 8")
    play(state, "decline")
    assert_turned(state, 0, "Ah")
    assert dead(state) == {"Qs"}

    state = parse_position(text.format("standard,max_seq_len=10"))
    assert f"take {RUN_9}" in legal(state)
    play(state, "decline")
    assert_force_decision(state, 0, "Qs")


def test_d04_spanish_labels() -> None:
    oros = parse_cards_mask("6 de oros, 7 de oros, sota de oros", "spanish")
    assert oros == mask("6d 7d Jd")
    assert is_meld(oros)
    assert CardSet(oros).label("spanish") == "6o 7o 10o"
    copas = parse_cards_mask("caballo de copas, rey de copas, 1 de copas", "spanish")
    assert copas == mask("Qh Kh Ah")
    assert not is_meld(copas)
    reyes = parse_cards_mask("rey de copas, rey de espadas, rey de bastos", "spanish")
    assert reyes == mask("Kh Ks Kc")
    assert Meld.from_mask(reyes).kind is MeldKind.SET
    state = parse_position(table_position("6d7dJd/KsKhKc", "standard,deck_style=spanish"))
    assert state.rules.deck_style == "spanish"
    assert set(state.tables[0]) == {oros, reyes}


# -------------------------------------------------------------- first turn and offers

D05 = "standard turn 0 1 5h5d2c3cKhKsKd7sJdQc * - - 5c:t - * 1"


def test_d05_first_stock_card_legal_actions() -> None:
    state = parse_position(D05)
    assert legal(state) == canon("take 5h5d5c", "take 5h5d5c/KhKsKd", "pass")


def test_d05_take_with_a_pair() -> None:
    state = play(parse_position(D05), "take 5h5d5c")
    assert state.phase is Phase.DISCARD
    assert state.to_act == 0
    assert sizes(state, 0) == (3, 8)
    assert legal(state) == {
        f"discard {c}" for c in ("2c", "3c", "Kh", "Ks", "Kd", "7s", "Jd", "Qc")
    }
    play(state, "discard Jd")
    # D05 says "table 3 / hand 6"; A8 (hand + table == 10) and the 10-card hand give 3 / 7
    assert sizes(state, 0) == (3, 7)
    assert_offer(state, 1, "Jd", Source.DISCARD)


def test_d05_take_and_lay_down_kings() -> None:
    state = play(parse_position(D05), "take 5h5d5c/KhKsKd")
    assert sizes(state, 0) == (6, 5)
    play(state, "discard Qc")
    # D05 says "table 6 / hand 3"; A8 gives 6 / 4 (see test_d05_take_with_a_pair)
    assert sizes(state, 0) == (6, 4)
    assert_offer(state, 1, "Qc", Source.DISCARD)


def test_d05_pass_offers_to_dealer_without_force() -> None:
    state = play(parse_position(D05), "pass")
    assert_offer(state, 1, "5c", Source.PASSED)
    assert sizes(state, 0) == (0, 10)
    assert state.stock_count == 19


def test_d05_illegal_actions() -> None:
    state = parse_position(D05)
    # only one hand card with 5c: not even a meld
    assert_unwritable("take 5c5h", "not a meld")
    assert_rejected(state, raw_take("5c 5h"), "not a set or run")
    # 2c 3c would need 4c
    assert_unwritable("take 2c3c5c", "not a meld")
    assert_rejected(state, "take 2c3c4c5c", "4c is not in player 0's hand")
    # laying down the kings while passing 5c
    assert_rejected(state, "pass KhKsKd", "without taking is not allowed")
    # putting 5c into the hand: a take that does not meld it
    assert_unwritable("take", "needs the new table")
    assert_rejected(state, Action(ActionKind.TAKE), "must be melded")
    assert_rejected(state, "take KhKsKd", "must be melded")


def test_d06_first_card_unusable() -> None:
    state = parse_position("standard turn 0 1 5h2d3s7hJdQcKc2h6dKs * - - 5c:t - * 1")
    assert legal(state) == {"pass"}
    play(state, "pass")
    assert_offer(state, 1, "5c", Source.PASSED)


D07 = "standard offer 1 1 3c4cAs2s3s4s6s7sJsKs 5s5h6c7c2d3dQsQhKcAd - - 5c:p - Jh* 1"


def test_d07_dealer_legal_actions() -> None:
    state = parse_position(D07)
    assert legal(state) == canon(
        "take 5c5s5h",
        "take 5c6c7c",
        "take Ad2d3d/5c5s5h",
        "take Ad2d3d/5c6c7c",
        "decline",
    )
    # one card, one combination: 5c cannot be in both
    assert_unwritable("take 5s5h5c/5c6c7c", "written twice")
    assert_rejected(state, raw_take("5s 5h 5c", "5c 6c 7c"), "5c is used in two melds")


@pytest.mark.parametrize("take", ["take 5c5s5h", "take 5c6c7c", "take Ad2d3d/5c6c7c"])
def test_d07_dealer_takes_then_discards(take: str) -> None:
    state = play(parse_position(D07), take)
    assert state.phase is Phase.DISCARD
    assert state.to_act == 1
    table, hand = sizes(state, 1)
    assert table + hand == 11
    play(state, "discard Kc")
    assert_offer(state, 0, "Kc", Source.DISCARD)


def test_d07_dealer_declines_card_dies() -> None:
    state = play(parse_position(D07), "decline")
    assert_turned(state, 1, "Jh")  # not forceable: D has no table
    assert dead(state) == {"5c"}
    assert state.stock_count == 18
    assert not any("5c" in a for a in legal(state))
    play(state, "pass")
    # N (who holds 3c 4c) is offered Jh; 5c is gone for good
    assert_offer(state, 0, "Jh", Source.PASSED)
    assert dead(state) == {"5c"}
    assert not any("5c" in a for a in legal(state))


D08 = "standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - Qh* 1"


def test_d08_lay_off_only_take() -> None:
    state = parse_position(D08)
    assert legal(state) == {"take 3s4s5s6s", "decline"}
    play(state, "take 3s4s5s6s")
    assert state.phase is Phase.DISCARD
    assert sizes(state, 0) == (4, 7)
    play(state, "discard Ah")
    assert sizes(state, 0) == (4, 6)
    assert_offer(state, 1, "Ah", Source.DISCARD)


def test_d08_decline_then_force() -> None:
    state = play(parse_position(D08), "decline")
    assert_force_decision(state, 0, "6s")
    play(state, "force")
    assert (state.phase, state.to_act, centre(state)) == (Phase.FORCED, 0, "6s")
    assert legal(state) == {"take 3s4s5s6s"}
    play(state, "take 3s4s5s6s", "discard Kh")
    assert sizes(state, 0) == (4, 6)
    assert_offer(state, 1, "Kh", Source.DISCARD)
    assert state.stock_count == 19


def test_d08_decline_no_force() -> None:
    state = play(parse_position(D08), "decline", "noforce")
    assert dead(state) == {"6s"}
    assert_turned(state, 0, "Qh")
    assert state.stock_count == 18
    assert sizes(state, 0) == (3, 7)


D09 = "standard offer 0 1 2sKhKdKs4hJc7d * 3s4s5s - 6s:d - * 1"


def test_d09_take_with_extra_lay_off_and_new_meld() -> None:
    state = parse_position(D09)
    assert legal(state) == canon(
        "take 3s4s5s6s",
        "take 2s3s4s5s6s",
        "take 3s4s5s6s/KhKdKs",
        "take 2s3s4s5s6s/KhKdKs",
        "decline",
    )
    play(state, "take 2s3s4s5s6s/KhKdKs")
    assert legal(state) == {"discard 4h", "discard Jc", "discard 7d"}
    play(state, "discard Jc")
    assert sizes(state, 0) == (8, 2)


def test_d09_no_lay_down_while_declining() -> None:
    state = parse_position(D09)
    assert_unwritable("decline KhKdKs", "takes nothing after it")
    assert_rejected(state, "pass KhKdKs", "must take or decline")
    assert_rejected(state, "take 3s4s5s/KhKdKs", "centre card 6s must be melded")


# ------------------------------------------------------------------- rearrangement

D10 = "{} offer 0 1 JhJd2s2h4dQdKs * 6c7cJc - 5c:d - * 1"


@pytest.mark.parametrize("mode", ["free", "foster_borrow"])
def test_d10_bicycle_rearrangement(mode: str) -> None:
    state = parse_position(D10.format(f"standard,rearrange_mode={mode}"))
    assert legal(state) == canon("take 5c6c7c/JhJdJc", "take 5c6c7cJc", "decline")
    play(state, "take 5c6c7c/JhJdJc")
    assert sizes(state, 0) == (6, 5)
    play(state, "discard Ks")
    assert sizes(state, 0) == (6, 4)


def test_d10_rearrange_none_only_lay_off() -> None:
    state = parse_position(D10.format("standard,rearrange_mode=none"))
    assert legal(state) == {"take 5c6c7cJc", "decline"}
    assert_rejected(state, "take 5c6c7c/JhJdJc", "rearrange_mode none")
    play(state, "take 5c6c7cJc")
    assert sizes(state, 0) == (4, 7)
    play(state, "discard Ks")
    assert sizes(state, 0) == (4, 6)


D11 = "{} offer 0 1 2h3hKcQsJd7s * 4h4s4d4c - 5h:d - * 1"


@pytest.mark.parametrize("mode", ["free", "foster_borrow"])
def test_d11_borrow_from_four_set(mode: str) -> None:
    state = parse_position(D11.format(f"standard,rearrange_mode={mode}"))
    assert "take 2h3h4h5h/4s4d4c" in canon(*legal(state))
    assert legal(state) == canon("take 2h3h4h5h/4s4d4c", "take 3h4h5h/4s4d4c", "decline")
    play(state, "take 2h3h4h5h/4s4d4c")
    play(state, "discard Kc")
    assert sizes(state, 0) == (7, 3)


def test_d11_borrow_illegal_without_rearrangement() -> None:
    state = parse_position(D11.format("standard,rearrange_mode=none"))
    assert legal(state) == {"decline"}
    assert_rejected(state, "take 2h3h4h5h/4s4d4c", "rearrange_mode none does not allow")
    play(state, "decline")  # 5h does not fit 4h4s4d4c directly: no force decision
    assert state.phase is Phase.TURN
    assert dead(state) == {"5h"}


def test_d12_no_borrowing_from_a_three_set() -> None:
    state = parse_position("standard offer 0 1 2h3hKcQsJd7s6c * 4h4s4d - 5h:d - Ah* 1")
    assert legal(state) == {"decline"}
    assert_rejected(state, "take 2h3h4h5h", "4s 4d are missing")
    assert_unwritable("take 2h3h4h5h/4s4d", "not a meld")
    assert_rejected(state, raw_take("2h 3h 4h 5h", "4s 4d"), "not a set or run")
    play(state, "decline")
    assert_turned(state, 0, "Ah")  # not forceable
    assert dead(state) == {"5h"}


def test_d12_variant_new_set_is_legal() -> None:
    state = parse_position("standard offer 0 1 2h3h5d5s7s6cKc * 4h4s4d - 5h:d - * 1")
    assert legal(state) == canon("take 4s4h4d/5s5h5d", "decline")
    play(state, "take 4s4h4d/5s5h5d")
    assert sizes(state, 0) == (6, 5)


D15 = "standard offer 0 1 JcJs2h3hKdKs * 5d6d7dJd - Qd:d - * 1"


def test_d15_final_partition_legal_takes() -> None:
    state = parse_position(D15)
    assert takes(state) == canon("take 5d6d7dJdQd", "take 5d6d7d/JdQdKd", "take 5d6d7dJdQdKd")


def test_d15_lone_card_outside_any_combination() -> None:
    state = parse_position(D15)
    assert_unwritable("take 5d6d7d/JdJcJs/Qd", "not a meld")
    assert_rejected(state, "take 5d6d7d/JdJcJs", "centre card Qd must be melded")


# ------------------------------------------------------------------------- forcing

D16 = "standard offer 0 1 KhKd2s2dJhQs * 3c4c5c6c - 7c:d - Ah* 1"


def test_d16_force_on_declined_offered_card() -> None:
    state = parse_position(D16)
    assert legal(state) == {"take 3c4c5c6c7c", "decline"}
    play(state, "decline")
    assert_force_decision(state, 0, "7c")
    assert dead(state) == set()
    play(state, "force")
    assert (state.phase, state.to_act, centre(state)) == (Phase.FORCED, 0, "7c")
    assert legal(state) == {"take 3c4c5c6c7c"}
    assert_rejected(state, "decline", "must take the card they were forced with")
    play(state, "take 3c4c5c6c7c", "discard Qs")
    assert sizes(state, 0) == (5, 5)
    # P does not turn a stock card; O's turn starts with P's discard
    assert state.stock_count == 19
    assert_offer(state, 1, "Qs", Source.DISCARD)
    assert dead(state) == set()


def test_d16_no_force_card_dies_and_p_turns_stock() -> None:
    state = play(parse_position(D16), "decline", "noforce")
    assert dead(state) == {"7c"}
    assert_turned(state, 0, "Ah")
    assert state.stock_count == 18
    assert sizes(state, 0) == (4, 6)


def test_d17_not_forceable_when_a_hand_card_is_needed() -> None:
    state = parse_position("standard offer 0 1 6cKhKd2s2dJhQs * 3c4c5c - 7c:d - Ah* 1")
    assert legal(state) == {"take 3c4c5c6c7c", "decline"}
    play(state, "decline")
    assert_turned(state, 0, "Ah")
    assert dead(state) == {"7c"}


D18 = "standard offer 0 1 KsKd * 2h3h4h5h/2c3c4c5c - Qd:d - 6h* 1"


def d18_after_pass() -> GameState:
    state = parse_position(D18)
    assert legal(state) == {"decline"}
    play(state, "decline")  # Qd fits nothing: dead, P turns 6h
    assert dead(state) == {"Qd"}
    assert_turned(state, 0, "6h")
    assert legal(state) == {"take 2h3h4h5h6h/2c3c4c5c", "pass"}
    play(state, "pass")
    assert_force_decision(state, 0, "6h")
    return state


def test_d18_force_with_own_passed_stock_card() -> None:
    state = play(d18_after_pass(), "force")
    assert (state.phase, state.to_act, centre(state)) == (Phase.FORCED, 0, "6h")
    assert legal(state) == {"take 2h3h4h5h6h/2c3c4c5c"}
    play(state, "take 2h3h4h5h6h/2c3c4c5c")
    assert legal(state) == {"discard Ks", "discard Kd"}
    play(state, "discard Kd")
    assert sizes(state, 0) == (9, 1)
    assert_offer(state, 1, "Kd", Source.DISCARD)
    assert dead(state) == {"Qd"}


def test_d18_no_force_offers_passed_card_to_o() -> None:
    state = play(d18_after_pass(), "noforce")
    assert_offer(state, 1, "6h", Source.PASSED)
    assert dead(state) == {"Qd"}
    assert sizes(state, 0) == (8, 2)


def test_d18_own_passed_card_not_forceable_with_offered_only_scope() -> None:
    # contrast with force_scope=offered_only (Bicycle): the passed 6h goes straight to O
    state = parse_position(D18.replace("standard", "standard,force_scope=offered_only"))
    play(state, "decline", "pass")
    assert_offer(state, 1, "6h", Source.PASSED)


D20 = "{} offer 0 1 KhKdKs2d2hJd * 3c4c5c6c - 7c:d - * 1"


def test_d20_forced_take_full_allows_extra_melds() -> None:
    state = play(parse_position(D20.format("standard")), "decline", "force")
    assert legal(state) == canon("take 3c4c5c6c7c", "take 3c4c5c6c7c/KhKdKs")
    play(state, "take 3c4c5c6c7c/KhKdKs", "discard Jd")
    assert sizes(state, 0) == (8, 2)
    assert_offer(state, 1, "Jd", Source.DISCARD)


def test_d20_forced_take_minimal() -> None:
    state = play(parse_position(D20.format("standard,forced_take=minimal")), "decline", "force")
    assert legal(state) == {"take 3c4c5c6c7c"}
    assert_rejected(state, "take 3c4c5c6c7c/KhKdKs", "forced_take minimal")
    play(state, "take 3c4c5c6c7c", "discard Jd")
    assert sizes(state, 0) == (5, 5)
    assert mask("Kh Kd Ks") & ~state.hands[0] == 0


def test_d20_minimal_voluntary_take_is_still_full() -> None:
    # forced_take only restricts forced takes: a voluntary take may lay the kings
    state = parse_position(D20.format("standard,forced_take=minimal"))
    assert canon("take 3c4c5c6c7c/KsKhKd") <= legal(state)


def test_d21_force_is_optional_card_then_dies() -> None:
    state = play(parse_position(D16), "decline", "noforce")
    assert dead(state) == {"7c"}
    # not offered to O: P goes on with the stock
    assert state.to_act == 0
    assert_turned(state, 0, "Ah")
    play(state, "pass")
    assert_offer(state, 1, "Ah", Source.PASSED)
    assert dead(state) == {"7c"}
    assert not any("7c" in a for a in legal(state))


D22 = "standard discard 0 1 6cAh2h7dQdJs2sAd As3s4s5s7sQhJh 3c4c5c KsKhKd - - Ac* 1"


def test_d22_no_forcing_with_own_discard() -> None:
    state = parse_position(D22)
    assert all(a.kind is ActionKind.DISCARD for a in state.legal_actions())
    play(state, "discard 6c")
    assert_offer(state, 1, "6c", Source.DISCARD)
    assert legal(state) == {"decline"}
    assert_rejected(state, "force", "must take or decline")
    play(state, "decline")
    # 6c fits P's 3c4c5c but not O's KsKhKd: no force decision, 6c dead, O turns stock
    assert dead(state) == {"6c"}
    assert_turned(state, 1, "Ac")


# ------------------------------------------------ going out, ten melded, empty hand


@pytest.mark.parametrize(("phase", "source"), [("offer", "d"), ("offer", "p"), ("turn", "t")])
def test_d25_going_out(phase: str, source: str) -> None:
    state = parse_position(f"standard {phase} 0 1 JhQhKh * As2s3s4s/5h5d5c - 7h:{source} - * 1")
    assert canon("take As2s3s4s/5h5d5c/7hJhQhKh") <= legal(state)
    play(state, "take As2s3s4s/5h5d5c/7hJhQhKh")
    assert_won(state, 0)
    assert state.winner == 0
    assert_rejected(state, "discard Kh", "over")


def test_d26_ten_melded_is_not_out() -> None:
    state = parse_position("standard offer 0 1 JhQh2d * As2s3s4s/5h5d5c - Kh:d - * 1")
    assert takes(state) == canon("take As2s3s4s/5h5d5c/JhQhKh")
    play(state, "take As2s3s4s/5h5d5c/JhQhKh")
    assert state.phase is Phase.DISCARD
    assert sizes(state, 0) == (10, 1)
    assert legal(state) == {"discard 2d"}
    play(state, "discard 2d")
    assert sizes(state, 0) == (10, 0)
    assert state.outcome() is None
    assert_offer(state, 1, "2d", Source.DISCARD)


D27 = "standard offer 0 1 - * As2s3s4s/5h5d5c/JhQhKh - 3d:d - 5s* 1"


@pytest.mark.parametrize("take", ["take As2s3s4s5s/5h5d5c/JhQhKh", "take As2s3s4s/5s5h5d5c/JhQhKh"])
def test_d27_continuing_with_an_empty_hand(take: str) -> None:
    state = parse_position(D27)
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert dead(state) == {"3d"}
    assert_turned(state, 0, "5s")
    assert legal(state) == canon(
        "take As2s3s4s5s/5h5d5c/JhQhKh", "take As2s3s4s/5s5h5d5c/JhQhKh", "pass"
    )
    play(state, take)
    assert_won(state, 0)


@pytest.mark.parametrize(
    ("card", "take"),
    [("Jh", "take Ah2h3h4h5h6h7hJh/KcKdKs"), ("Kh", "take Ah2h3h4h5h6h7h/KcKdKsKh")],
)
def test_d29_going_out_on_the_first_turn(card: str, take: str) -> None:
    state = parse_position(f"standard turn 0 1 Ah2h3h4h5h6h7hKcKdKs * - - {card}:t - * 1")
    assert canon(take) <= legal(state)
    play(state, take)
    assert_won(state, 0)
    assert state.stock_count == 19


# ------------------------------------------------------------ stock exhaustion, draws

D30 = "standard offer 0 1 Ah2dJs7d6sAc4h As3h5dJd2s7hQs 3c4c5c KsKhKd Qd:d rest {} 1"


def d30_last_card_turned(last: str) -> GameState:
    state = position(D30.format(last))
    assert state.stock_count == 1
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert "Qd" in dead(state)
    assert_turned(state, 0, last)
    assert state.stock_count == 0
    return state


def test_d30_draw_after_the_last_stock_card() -> None:
    state = d30_last_card_turned("Jh")
    assert legal(state) == {"pass"}
    play(state, "pass")
    assert_offer(state, 1, "Jh", Source.PASSED)
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert_draw(state)


def test_d30_last_card_fits_o_table_p_may_force() -> None:
    state = d30_last_card_turned("Kc")
    play(state, "pass")
    assert_offer(state, 1, "Kc", Source.PASSED)
    play(state, "decline")
    assert_force_decision(state, 1, "Kc")
    forced = play(state.copy(), "force")
    assert (forced.phase, forced.to_act) == (Phase.FORCED, 1)
    play(forced, "take KsKhKdKc")
    assert (forced.phase, forced.to_act) == (Phase.DISCARD, 1)
    assert forced.outcome() is None
    play(state, "noforce")
    assert_draw(state)


def test_d30_last_card_fits_p_table_o_may_force() -> None:
    state = d30_last_card_turned("6c")
    assert canon("take 3c4c5c6c") <= legal(state)
    play(state, "pass")
    assert_force_decision(state, 0, "6c")
    play(state, "noforce")
    assert_offer(state, 1, "6c", Source.PASSED)
    play(state, "decline")  # 6c does not fit O's kings
    assert_draw(state)


def test_d31_play_continues_after_the_stock_is_empty() -> None:
    state = position("standard offer 0 1 KcAh2dJs7d6s4h As3h5dJd2s7hQd 3c4c5c KsKhKd 6c:d rest - 1")
    assert state.stock_count == 0
    play(state, "take 3c4c5c6c", "discard Kc")
    assert_offer(state, 1, "Kc", Source.DISCARD)
    play(state, "take KsKhKdKc", "discard Qd")
    assert_offer(state, 0, "Qd", Source.DISCARD)
    assert state.outcome() is None
    assert legal(state) == {"decline"}
    play(state, "decline")
    assert_draw(state)
    assert sizes(state, 0) == (4, 6)
    assert sizes(state, 1) == (4, 6)


# ------------------------------------------------------------------------ variants

D33 = "{} offer 0 1 KhKdKs2c5d7sJhQd3s4d * - - Ac:d - 6hKc* 1"


def test_d33_default_no_meld_without_take() -> None:
    state = play(parse_position(D33.format("standard")), "decline")
    assert_turned(state, 0, "6h")
    assert legal(state) == {"pass"}
    assert_rejected(state, "pass KhKdKs", "without taking is not allowed")
    play(state, "pass")
    assert_offer(state, 1, "6h", Source.PASSED)
    assert sizes(state, 0) == (0, 10)


def test_d33_meld_before_rejecting_stock_card() -> None:
    rules = "standard,meld_without_take=before_rejecting_stock_card"
    state = play(parse_position(D33.format(rules)), "decline")
    assert_turned(state, 0, "6h")
    assert legal(state) == canon("pass", "pass KhKdKs")
    play(state, "pass KhKdKs")
    assert sizes(state, 0) == (3, 7)
    assert_offer(state, 1, "6h", Source.PASSED)  # no discard
    # O declines 6h, turns Kc and passes it; a King P declines can now be forced on him
    play(state, "decline")
    assert_turned(state, 1, "Kc")
    play(state, "pass")
    assert_offer(state, 0, "Kc", Source.PASSED)
    play(state, "decline")
    assert_force_decision(state, 0, "Kc")


def test_d33_variant_lay_down_only_before_passing_a_turned_card() -> None:
    rules = "standard,meld_without_take=before_rejecting_stock_card"
    state = parse_position(D33.format(rules))
    # facing the offered Ac, laying down is not possible
    assert_rejected(state, "pass KhKdKs", "must take or decline")


D34_N = "7h 7d As 3s 5h Jd Qc 2c 4d Kh"
D34_D = "5s 6s Ah 2h 3h Jc Qs Kd 4s 6d"


def d34_deal() -> tuple[GameState, list[int]]:
    n = list(iter_card_tokens(D34_N))
    d = list(iter_card_tokens(D34_D))
    deck = [card for pair in zip(n, d, strict=True) for card in pair]
    deck.append(mask("7s").bit_length() - 1)
    deck += [i for i in range(40) if i not in deck]
    rules = find_rules("standard,initial_upcard=offered_to_both")
    state = GameState.deal(rules, deck=deck, dealer=1)
    assert state.hands == (mask(D34_N), mask(D34_D))
    assert_offer(state, 0, "7s", Source.UPCARD)
    assert state.stock_count == 19
    return state, deck


def test_d34_initial_upcard_taken_by_non_dealer() -> None:
    state, _ = d34_deal()
    assert canon("take 7s7h7d") <= legal(state)
    play(state, "take 7s7h7d")
    assert (state.phase, state.to_act) == (Phase.DISCARD, 0)
    play(state, "discard Kh")
    assert sizes(state, 0) == (3, 7)
    assert_offer(state, 1, "Kh", Source.DISCARD)
    assert state.stock_count == 19


def test_d34_initial_upcard_offered_to_dealer() -> None:
    state, _ = d34_deal()
    play(state, "decline")
    assert_offer(state, 1, "7s", Source.UPCARD)  # no force: nobody has a table
    assert dead(state) == set()
    assert canon("take 5s6s7s") <= legal(state)
    play(state, "take 5s6s7s", "discard Qs")
    assert sizes(state, 1) == (3, 7)
    assert_offer(state, 0, "Qs", Source.DISCARD)


def test_d34_initial_upcard_declined_by_both() -> None:
    state, deck = d34_deal()
    play(state, "decline", "decline")
    assert dead(state) == {"7s"}
    # N begins his turn at step 2 with the 19-card stock: he has turned its top card
    assert state.phase is Phase.TURN
    assert state.to_act == 0
    assert state.centre == deck[21]
    assert state.source is Source.TURNED
    assert state.stock_count == 18


# ------------------------------------------------------------------- D35 draw stakes

DRAW_STAKES = {"carry": 3, "double_next": 2, "double_compound": 4, "none": 1}


@pytest.mark.parametrize(("mode", "value"), DRAW_STAKES.items())
def test_d35_deal_value_after_two_draws(mode: str, value: int) -> None:
    match = Match(find_rules(f"standard,draw_stake={mode}"), seed=1)
    assert match.deal_value(previous_draws=0) == 1
    assert match.deal_value(previous_draws=2) == value


@pytest.mark.parametrize(
    ("mode", "value"), [("carry", 2), ("double_next", 2), ("double_compound", 2), ("none", 1)]
)
def test_d35_deal_value_after_one_draw(mode: str, value: int) -> None:
    match = Match(find_rules(f"standard,draw_stake={mode}"), seed=1)
    assert match.deal_value(previous_draws=1) == value


def refuse_everything(state: GameState) -> None:
    """Decline, pass and never force until the deal ends."""
    while not state.is_over:
        for word in ("decline", "pass", "noforce"):
            action = Action.parse(word)
            if state.is_legal(action):
                state.apply(action)
                break
        else:
            raise AssertionError(f"no refusal available in {format_position(state)}")


@pytest.mark.parametrize(("mode", "value"), DRAW_STAKES.items())
def test_d35_two_draws_then_a_win(mode: str, value: int) -> None:
    match = Match(f"standard,draw_stake={mode}", seed=3)
    for _ in range(2):
        state = match.new_deal()
        refuse_everything(state)
        assert state.outcome() == Outcome(None, Termination.STOCK_EXHAUSTED)
        assert match.finish_deal(state).value == 0
    assert match.balance == [0, 0]
    assert match.draws_in_a_row == 2
    assert match.deal_value() == value
    third = match.new_deal()
    assert third.stake == value
    # deal 3 is won by player A (player 0): settle a finished deal with that stake
    won = position(
        f"standard,draw_stake={mode} over 0 {third.dealer} - As2s3s4s5s6s7sJsQsKs "
        f"Ah2h3h4h5h6h7hJh/KhKdKc - - rest - {third.stake}"
    )
    assert won.outcome() == Outcome(0, Termination.OUT)
    result = match.finish_deal(won)
    assert result.value == value
    assert match.balance == [value, -value]
    assert match.draws_in_a_row == 0
    assert match.deal_value() == 1


# ------------------------------------------------------- D37 illegal-action catalogue

OFFER_6S = "standard offer 0 1 Kh5d5h2c7hJdAh * 3s4s5s - 6s:d - Kd* 1"


def test_d37_take_centre_card_into_hand() -> None:
    state = parse_position(OFFER_6S)
    assert_unwritable("take", "needs the new table")
    assert_rejected(state, Action(ActionKind.TAKE), "must be melded")
    assert_rejected(state, "take 3s4s5s", "centre card 6s must be melded")


def test_d37_discard_the_card_just_taken() -> None:
    state = play(parse_position(OFFER_6S), "take 3s4s5s6s")
    assert_rejected(state, "discard 6s", "not in player 0's hand")


def test_d37_add_to_opponents_combinations() -> None:
    state = parse_position("standard offer 0 1 Kh5h2c7hJdAhQdQc2h4h * - 3s4s5s 6s:d - * 1")
    assert legal(state) == {"decline"}
    assert_rejected(state, "take 3s4s5s6s", "not in player 0's hand or the centre")


def test_d37_lay_down_without_taking() -> None:
    state = parse_position("standard turn 0 1 KhKdKs2c5d7sJhQd3s4d * - - 6h:t - * 1")
    assert_rejected(state, "pass KhKdKs", "without taking is not allowed")
    state = parse_position("standard offer 0 1 KhKdKs2c5d7sJhQd3s4d * - - 6h:d - * 1")
    assert_unwritable("decline KhKdKs", "takes nothing after it")
    assert_rejected(state, "pass KhKdKs", "must take or decline")


def test_d37_discard_a_table_card() -> None:
    state = play(parse_position(OFFER_6S), "take 3s4s5s6s")
    assert_rejected(state, "discard 3s", "not in player 0's hand")
    state = play(parse_position(OFFER_6S), "take 3s4s5s6s", "discard Kh")
    assert_rejected(state, "discard 5s", "must take or decline")


def test_d37_no_out_after_discarding_the_last_card() -> None:
    state = parse_position("standard offer 0 1 JhQh2d * As2s3s4s/5h5d5c - Kh:d - * 1")
    play(state, "take As2s3s4s/5h5d5c/JhQhKh", "discard 2d")
    assert sizes(state, 0) == (10, 0)
    assert state.outcome() is None
    assert not state.is_over
    assert_unwritable("out", "unknown action")
    assert_offer(state, 1, "2d", Source.DISCARD)
    assert_rejected(state, "discard 2d", "must take or decline")


def test_d37_rearrange_without_take() -> None:
    state = parse_position("standard turn 0 1 Kh2c5dJh * As2s3s4s5s6s - Kc:t - * 1")
    assert legal(state) == {"pass"}
    assert_rejected(state, "pass As2s3s/4s5s6s", "without taking is not allowed")


def test_d37_take_a_dead_card() -> None:
    state = parse_position("standard offer 0 1 5s5hQsQh2c7hJdAh4d6d * - - Qd:d 5c * 1")
    assert "5c" in dead(state)
    assert canon("take QsQhQd") <= legal(state)
    assert not any("5c" in a for a in legal(state))
    assert_rejected(state, "take 5s5h5c/QsQhQd", "5c is not in player 0's hand or the centre")


def test_d37_take_offered_card_after_turning_stock() -> None:
    state = play(
        parse_position("standard offer 0 1 5s5h2c7hJdAhQd4d6dKs * - - 5c:d - Kh* 1"), "decline"
    )
    assert_turned(state, 0, "Kh")
    assert_rejected(state, "take 5s5h5c", "centre card Kh must be melded")
    assert_rejected(state, "take 5s5h5c/KsKhKd", "not in player 0's hand or the centre")
    assert_rejected(state, "decline", "must take or pass")


def test_d37_two_card_combination() -> None:
    state = parse_position(OFFER_6S)
    assert_unwritable("take 3s4s5s6s/5h5d", "not a meld")
    assert_rejected(state, raw_take("3s 4s 5s 6s", "5h 5d"), "not a set or run")


def test_d37_nine_card_sequence() -> None:
    text = "{} offer 0 1 Kh2c * As2s3s4s5s6s7sJs - Qs:d - * 1"
    state = parse_position(text.format("standard"))
    assert_rejected(state, f"take {RUN_9}", "a run longer than 8")
    assert f"take {RUN_9}" in legal(parse_position(text.format("standard,max_seq_len=10")))


def test_d37_wrap_around_sequences() -> None:
    state = parse_position("standard offer 0 1 QhKh2h5s6s7d4cJsJd3c * - - Ah:d - * 1")
    assert_unwritable("take QhKhAh", "not a meld")
    assert_unwritable("take KhAh2h", "not a meld")
    assert_rejected(state, raw_take("Qh Kh Ah"), "not a set or run")
    assert_rejected(state, raw_take("Kh Ah 2h"), "not a set or run")
    assert legal(state) == {"decline"}
