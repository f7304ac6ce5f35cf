"""Refused actions carry a reason code and the details to word them; the words layer words them.

For every :class:`~conquian.errors.IllegalReason` there is a position and an action that
raises it.  Each case checks the code, the player who tried, that the state is unchanged,
the engine's English message (unchanged by the codes), and the personal wording of
:func:`conquian.present.errors.illegal_action_words` for both players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from conquian import (
    Action,
    ActionKind,
    AmbiguousActionError,
    Game,
    GameOverError,
    GameState,
    IllegalActionError,
    IllegalReason,
    Phase,
    format_position,
    parse_action,
    parse_position,
)
from conquian.cards import parse_cards_mask
from conquian.present.errors import illegal_action_words as illegal_action_line
from conquian.present.spans import plain
from conquian.present.words import Names

NAMES = ("Ana", "Ben")
HAND = "5h5d6c7cQsAd2dKsJh3s"
"""Ten cards; with 5c offered the legal takes are 5h5d5c and 5c6c7c."""


def illegal_action_words(exc: IllegalActionError, names: Names) -> str:
    """The error's words as text (a line's spans joined)."""
    return plain(illegal_action_line(exc, names))


def setup(
    p: int,
    *,
    rules: str = "standard",
    phase: str = "offer",
    hand: str = HAND,
    table: str = "-",
    centre: str = "5c:d",
) -> GameState:
    """A position with player ``p`` to act holding ``hand`` and ``table``; the opponent holds ``*``."""
    hands = ["*", "*"]
    hands[p] = hand
    tables = ["-", "-"]
    tables[p] = table
    return parse_position(
        f"{rules} {phase} {p} {1 - p} {hands[0]} {hands[1]} {tables[0]} {tables[1]} {centre} - * 1"
    )


def over(p: int) -> GameState:
    return parse_position("standard over - 0 * * - - - - * 1")


def forced_unchecked(p: int) -> GameState:
    """A forced take of a card that fits only with hand cards (no valid position has one)."""
    s = setup(p, rules="standard,forced_take=minimal", hand="5h5dQsAd2dJh3s", table="KsKhKd")
    return GameState(
        s.rules,
        dealer=s.dealer,
        phase=Phase.FORCED,
        to_act=s.to_act,
        hands=s.hands,
        tables=s.tables,
        centre=s.centre,
        source=s.source,
        stock=s.stock,
        validate=False,
    )


def take(*melds: str) -> Action:
    return Action(ActionKind.TAKE, -1, tuple(sorted(parse_cards_mask(m) for m in melds)))


def apply(action: Action) -> Callable[[GameState], object]:
    return lambda state: state.apply(action)


def typed(text: str) -> Callable[[GameState], object]:
    return lambda state: parse_action(state, text)


def not_your_turn(state: GameState) -> None:
    game = Game()
    game.state = state
    game.check_player(1 - state.to_act)


@dataclass(frozen=True)
class Case:
    reason: IllegalReason
    make: Callable[[int], GameState]
    act: Callable[[GameState], object]
    message: str
    """The engine's English message, ``{p}`` the player to act and ``{q}`` the other."""
    tried_by: str | None = "actor"
    """Who tried the action: the player to act, the ``other`` one, or None."""
    fields: dict[str, object] = field(default_factory=dict)


CASES = [
    Case(
        IllegalReason.NOT_REAL_CARDS,
        setup,
        apply(Action(ActionKind.DISCARD, 40)),
        "(<ActionKind.DISCARD: 5>, 40, ()) does not name real cards.",
    ),
    Case(
        IllegalReason.GAME_OVER,
        over,
        typed("decline"),
        "The deal is over; 'decline' cannot be played.",
        tried_by=None,
        fields={"text": "decline"},
    ),
    Case(
        IllegalReason.NOT_YOUR_TURN,
        setup,
        not_your_turn,
        "It is player {p}'s turn, not player {q}'s.",
        tried_by="other",
    ),
    Case(
        IllegalReason.NOT_POSSIBLE_NOW,
        setup,
        typed("force"),
        "'force' is not possible now: player {p} must take or decline the offered card.",
        fields={"phase": "offer", "expected": ("take", "decline"), "text": "force"},
    ),
    Case(
        IllegalReason.NOT_POSSIBLE_NOW,
        lambda p: setup(p, phase="turn", centre="Kc:t"),
        apply(Action(ActionKind.FORCE)),
        "'force' is not possible now: player {p} must take or pass the card they turned.",
        fields={"phase": "turn", "expected": ("take", "pass")},
    ),
    Case(
        IllegalReason.CARD_NOT_IN_HAND,
        lambda p: setup(p, phase="discard", hand=HAND + "4s", centre="-"),
        typed("discard Kh"),
        "Cannot discard Kh: it is not in player {p}'s hand.",
        fields={"card": 19},
    ),
    Case(
        IllegalReason.LAYING_NOT_ALLOWED,
        lambda p: setup(p, phase="turn", hand="5h5d5s6c7cQsAd2dKsJh", centre="Kc:t"),
        apply(Action(ActionKind.PASS, -1, (parse_cards_mask("5s5h5d"),))),
        "Laying cards down without taking is not allowed under these rules.",
    ),
    Case(
        IllegalReason.NOT_A_LEGAL_LAY,
        lambda p: setup(
            p,
            rules="standard,meld_without_take=before_rejecting_stock_card",
            phase="turn",
            hand="5h5d6s7sQsAd2d",
            table="3c4c5c",
            centre="Kc:t",
        ),
        apply(Action(ActionKind.PASS, -1, (parse_cards_mask("3c4c5c"),))),
        "'pass 3c4c5c' is not a legal way to lay cards before passing.",
    ),
    Case(
        IllegalReason.WOULD_NEED_REARRANGING,
        lambda p: setup(
            p,
            rules="standard,rearrange_mode=none",
            hand="7sKsQd2d3hAh",
            table="4c5c6c7c",
            centre="7h:d",
        ),
        apply(take("4c5c6c", "7s7h7c")),
        "7h could only be melded by rearranging player {p}'s table, which rearrange_mode "
        "none does not allow.",
        fields={"card": 16, "rearrange_mode": "none"},
    ),
    Case(
        IllegalReason.CANNOT_MELD_CENTRE,
        forced_unchecked,
        apply(take("KsKhKd", "5h5d5c")),
        "5c cannot be melded by player {p} at all.",
        fields={"card": 34},
    ),
    Case(
        IllegalReason.CANNOT_TAKE_CENTRE,
        lambda p: setup(p, centre="Kc:d"),
        typed("take"),
        "Kc cannot be taken: it does not meld with player {p}'s table or hand.",
        fields={"card": 39},
    ),
    Case(
        IllegalReason.FORCED_ADD_ONLY,
        lambda p: setup(
            p,
            rules="standard,forced_take=minimal",
            phase="forced",
            hand="KhKdKc5hQdAdJh",
            table="3s4s5s",
            centre="6s:d",
        ),
        apply(take("3s4s5s6s", "KhKdKc")),
        "A forced player may only add the forced card to his table (forced_take minimal).",
    ),
    Case(
        IllegalReason.REARRANGE_NOT_ALLOWED,
        lambda p: setup(
            p,
            rules="standard,rearrange_mode=none",
            hand="7s7dKsQd2h3h",
            table="4c5c6c7c",
            centre="7h:d",
        ),
        apply(take("4c5c6c", "7s7h7d7c")),
        "'take 4c5c6c/7s7h7d7c' rearranges player {p}'s table in a way rearrange_mode none "
        "does not allow.",
        fields={"rearrange_mode": "none"},
    ),
    Case(
        IllegalReason.CARDS_IN_TWO_MELDS,
        setup,
        apply(take("5h5d5c", "5c6c7c")),
        "5c is used in two melds.",
        fields={"cards": parse_cards_mask("5c")},
    ),
    Case(
        IllegalReason.RUN_TOO_LONG,
        lambda p: setup(p, rules="standard,max_seq_len=3", hand="5h5d6c7cJcQsAd2dKs3s"),
        apply(take("5c6c7cJc")),
        "5c6c7cJc is a run longer than 3.",
        fields={"max_seq_len": 3},
    ),
    Case(
        IllegalReason.NOT_A_MELD,
        setup,
        apply(take("5h5c")),
        "5h5c is not a set or run.",
        fields={"cards": parse_cards_mask("5h5c")},
    ),
    Case(
        IllegalReason.CENTRE_NOT_MELDED,
        lambda p: setup(p, hand="5h5d5s6c7cQsAd2dKsJh"),
        apply(take("5s5h5d")),
        "The centre card 5c must be melded when taking it.",
        fields={"card": 34},
    ),
    Case(
        IllegalReason.TABLE_CARDS_MISSING,
        lambda p: setup(p, hand="5h5dQdAd2hJhKc", table="3s4s5s", centre="6s:d"),
        apply(take("4s5s6s")),
        "Table cards cannot leave the table: 3s is missing.",
        fields={"cards": parse_cards_mask("3s")},
    ),
    Case(
        IllegalReason.CARDS_NOT_AVAILABLE,
        setup,
        apply(take("5s5h5d5c")),
        "5s is not in player {p}'s hand or the centre.",
        fields={"cards": parse_cards_mask("5s"), "card": 34},
    ),
    Case(
        IllegalReason.CARDS_NOT_AVAILABLE,
        lambda p: setup(p, phase="turn", centre="Kc:t"),
        typed("pass 5c 4c 6c 7c"),
        "4c 5c are not in player {p}'s hand.",
        fields={"cards": parse_cards_mask("4c5c"), "card": None},
    ),
    Case(
        IllegalReason.NO_MATCHING_LAY,
        setup,
        typed("take Qs"),
        "No legal take lays exactly Qs.",
        fields={"text": "take", "cards": parse_cards_mask("Qs")},
    ),
    Case(
        IllegalReason.NOT_LEGAL,
        setup,
        apply(Action(ActionKind.DECLINE, 5)),
        "'decline' is not legal here.",
    ),
]


def old_personal(message: str, me: int) -> str:
    """What the terminal's ``Session._personal`` made of an engine message, for player ``me``."""
    other = NAMES[1 - me]
    for old, new in (
        (f"player {me}'s", "your"),
        (f"Player {me}'s", "Your"),
        (f"player {me} ", "you "),
        (f"Player {me} ", "You "),
        (f"player {1 - me}'s", f"{other}'s"),
        (f"player {1 - me}", other),
    ):
        message = message.replace(old, new)
    return message


def refuse(case: Case, p: int) -> tuple[GameState, IllegalActionError]:
    state = case.make(p)
    before = format_position(state)
    with pytest.raises(IllegalActionError) as info:
        case.act(state)
    assert format_position(state) == before
    return state, info.value


@pytest.mark.parametrize("p", [0, 1])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.reason.value)
def test_each_reason_has_its_code_player_message_and_fields(case: Case, p: int) -> None:
    _, exc = refuse(case, p)
    assert exc.reason is case.reason
    tried = {"actor": p, "other": 1 - p, None: None}[case.tried_by]
    assert exc.player == tried
    assert str(exc) == case.message.format(p=p, q=1 - p)
    for name, value in case.fields.items():
        assert getattr(exc, name) == value, name
    assert isinstance(exc, GameOverError) == (case.reason is IllegalReason.GAME_OVER)


@pytest.mark.parametrize("p", [0, 1])
@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c.reason is not IllegalReason.NOT_YOUR_TURN],
    ids=lambda c: c.reason.value,
)
def test_words_are_the_terminal_personal_form_for_both_viewers(case: Case, p: int) -> None:
    _, exc = refuse(case, p)
    for me in (0, 1):
        assert illegal_action_words(exc, Names(NAMES, me=me)) == old_personal(str(exc), me)


@pytest.mark.parametrize("p", [0, 1])
def test_not_your_turn_words_are_the_browser_sentence(p: int) -> None:
    case = next(c for c in CASES if c.reason is IllegalReason.NOT_YOUR_TURN)
    _, exc = refuse(case, p)
    tried, to_act = 1 - p, p
    assert exc.to_act == to_act
    words = illegal_action_words(exc, Names(NAMES, me=tried))
    assert words == f"It is not your turn: {NAMES[to_act]} is to act."
    words = illegal_action_words(exc, Names(NAMES, me=to_act))
    assert words == f"It is not {NAMES[tried]}'s turn: you are to act."


def test_some_messages_are_pinned_word_for_word() -> None:
    def message(reason: IllegalReason) -> str:
        return str(refuse(next(c for c in CASES if c.reason is reason), 0)[1])

    assert message(IllegalReason.CARD_NOT_IN_HAND) == (
        "Cannot discard Kh: it is not in player 0's hand."
    )
    assert message(IllegalReason.TABLE_CARDS_MISSING) == (
        "Table cards cannot leave the table: 3s is missing."
    )
    assert message(IllegalReason.NOT_POSSIBLE_NOW) == (
        "'force' is not possible now: player 0 must take or decline the offered card."
    )
    assert message(IllegalReason.NOT_YOUR_TURN) == "It is player 0's turn, not player 1's."


def test_every_reason_has_a_case() -> None:
    assert {c.reason for c in CASES} == set(IllegalReason)


def test_a_spectator_reads_both_names() -> None:
    case = next(c for c in CASES if c.reason is IllegalReason.CARD_NOT_IN_HAND)
    _, exc = refuse(case, 1)
    words = illegal_action_words(exc, Names(NAMES))
    assert words == "Cannot discard Kh: it is not in Ben's hand."


def test_an_error_with_a_message_only_keeps_it() -> None:
    exc = IllegalActionError("The match is over; no more moves can be made.", None)
    assert exc.reason is None and exc.player is None and exc.action is None
    assert illegal_action_words(exc, Names(NAMES, me=0)) == str(exc)
    assert IllegalActionError("x", "y").action == "y"


def test_an_ambiguous_short_form_names_its_player() -> None:
    for p in (0, 1):
        with pytest.raises(AmbiguousActionError) as info:
            parse_action(setup(p), "take")
        assert info.value.player == p
        assert len(info.value.candidates) == 2
