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


def layoffs(
    p: int,
    *,
    rules: str = "standard,layoff_on_opponent=true",
    hand: str = HAND,
    table: str = "-",
    other: str = "2c3c4c",
    centre: str = "5c:d",
) -> GameState:
    """A position under ``layoff_on_opponent`` with player ``p`` to act holding ``hand`` and
    ``table``, the other player's table ``other`` (5c, offered, extends 2c3c4c)."""
    hands = ["*", "*"]
    hands[p] = hand
    tables = [other, other]
    tables[p] = table
    return parse_position(
        f"{rules} offer {p} {1 - p} {hands[0]} {hands[1]} {tables[0]} {tables[1]} {centre} - * 1"
    )


def lay_on(meld: str, *, own: bool = False) -> Callable[[GameState], object]:
    """Lay the centre card on ``meld`` of the other player's table (``own``: the actor's)."""

    def act(state: GameState) -> object:
        seat = state.to_act if own else 1 - state.to_act
        return state.apply(Action.layoff(seat, parse_cards_mask(meld)))

    return act


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
    Case(
        IllegalReason.LAYOFF_NOT_ALLOWED,
        lambda p: layoffs(p, rules="standard"),
        lay_on("2c3c4c"),
        "Laying the centre card on another player's meld is not allowed under these rules "
        "(layoff_on_opponent false).",
    ),
    Case(
        IllegalReason.LAYOFF_NO_SUCH_PLAYER,
        layoffs,
        typed("layoff 5"),
        "There is no player 5 to lay 5c on (players are 0 to 1).",
        fields={"seat": 5, "card": 34},
    ),
    Case(
        IllegalReason.LAYOFF_OWN_TABLE,
        lambda p: layoffs(p, hand="5h5dQsAd2dKs3s", table="6c7cJc"),
        lay_on("6c7cJc", own=True),
        "A layoff goes on another player's meld; to put 5c on player {p}'s own table, take it.",
        fields={"card": 34},
    ),
    Case(
        IllegalReason.LAYOFF_NOT_THEIR_MELD,
        layoffs,
        lay_on("KhKdKc"),
        "KhKdKc is not one of player {q}'s melds.",
        fields={"cards": parse_cards_mask("KhKdKc")},
    ),
    Case(
        IllegalReason.LAYOFF_DOES_NOT_FIT,
        lambda p: layoffs(p, other="2c3c4c/KhKdKc"),
        lay_on("KhKdKc"),
        "5c does not extend player {q}'s meld KhKdKc.",
        fields={"card": 34, "cards": parse_cards_mask("KhKdKc")},
    ),
    Case(
        IllegalReason.LAYOFF_EMPTY_HAND,
        lambda p: layoffs(p, hand="-", table="AsAhAd/2s2h2d/3s3h3d3c", other="6c7cJc"),
        lay_on("6c7cJc"),
        "Player {p} has no hand card to pay with after laying 5c off.",
        fields={"card": 34},
    ),
    Case(
        IllegalReason.CANNOT_LAY_OFF_CENTRE,
        lambda p: layoffs(p, other="KhKdKc"),
        typed("layoff"),
        "5c cannot be laid off: it extends no meld of another player.",
        fields={"card": 34},
    ),
    Case(
        IllegalReason.NO_MATCHING_LAYOFF,
        layoffs,
        typed("layoff Kh"),
        "5c extends no meld of another player that holds Kh.",
        fields={"card": 34, "cards": parse_cards_mask("Kh")},
    ),
]
LAYOFF_WORDS = {
    IllegalReason.LAYOFF_NOT_ALLOWED: (
        "Laying the centre card on another player's meld is not allowed here.",
        "Laying the centre card on another player's meld is not allowed here.",
    ),
    IllegalReason.LAYOFF_NO_SUCH_PLAYER: (
        "There is no player 5 at this table.",
        "There is no player 5 at this table.",
    ),
    IllegalReason.LAYOFF_OWN_TABLE: (
        "5c goes on your own table only by taking it.",
        "5c goes on {actor}'s own table only by taking it.",
    ),
    IllegalReason.LAYOFF_NOT_THEIR_MELD: (
        "KhKdKc is not one of {other}'s melds.",
        "KhKdKc is not one of your melds.",
    ),
    IllegalReason.LAYOFF_DOES_NOT_FIT: (
        "5c does not extend {other}'s meld KhKdKc.",
        "5c does not extend your meld KhKdKc.",
    ),
    IllegalReason.LAYOFF_EMPTY_HAND: (
        "You have no card in hand to pay with after laying 5c on a meld.",
        "{actor} has no card in hand to pay with after laying 5c on a meld.",
    ),
    IllegalReason.CANNOT_LAY_OFF_CENTRE: (
        "5c extends no meld of another player, so it cannot go on one.",
        "5c extends no meld of another player, so it cannot go on one.",
    ),
    IllegalReason.NO_MATCHING_LAYOFF: (
        "5c extends no meld of another player that holds Kh.",
        "5c extends no meld of another player that holds Kh.",
    ),
}
"""The words of each layoff refusal (``layoff_on_opponent``) for the player who tried it and
for the other player (``{actor}``: the one who tried, ``{other}``: the other), new sentences
rather than the terminal's old rewording of the engine's message."""


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
    [
        c
        for c in CASES
        if c.reason is not IllegalReason.NOT_YOUR_TURN and c.reason not in LAYOFF_WORDS
    ],
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


@pytest.mark.parametrize("p", [0, 1])
@pytest.mark.parametrize(
    "case", [c for c in CASES if c.reason in LAYOFF_WORDS], ids=lambda c: c.reason.value
)
def test_a_refused_layoff_is_worded_for_the_player_who_tried_and_the_other(
    case: Case, p: int
) -> None:
    _, exc = refuse(case, p)
    mine, theirs = LAYOFF_WORDS[case.reason]
    names = {"actor": NAMES[p], "other": NAMES[1 - p]}
    assert illegal_action_words(exc, Names(NAMES, me=p)) == mine.format(**names)
    assert illegal_action_words(exc, Names(NAMES, me=1 - p)) == theirs.format(**names)


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
