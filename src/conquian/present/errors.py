"""An action the engine refused, in words for the player it concerns.

The engine's message (``str(exc)``) speaks of "player 0" and "player 1"; here the
same sentence is built from the error's :class:`~conquian.errors.IllegalReason` and
fields, with the viewer as "you" and the other player by name.

>>> from conquian.notation import parse_action, parse_position
>>> state = parse_position("standard discard 0 1 * * - - - - * 1")
>>> try:
...     parse_action(state, "discard Kh")
... except IllegalActionError as exc:
...     error = exc
>>> str(error)
"Cannot discard Kh: it is not in player 0's hand."
>>> illegal_action_words(error, Names(("Ana", "Ben"), me=0))
'Cannot discard Kh: it is not in your hand.'
>>> illegal_action_words(error, Names(("Ana", "Ben"), me=1))
"Cannot discard Kh: it is not in Ana's hand."
"""

from __future__ import annotations

from ..cards import CARDS, format_mask
from ..errors import IllegalActionError, IllegalReason
from .words import Names

__all__ = ["illegal_action_words"]

_EXPECTED = {
    "offer": "take or decline the offered card",
    "turn": "take or pass the card they turned",
    "force": "force or noforce",
    "forced": "take the card they were forced with",
    "discard": "discard a hand card",
}
"""What the player must do instead, by phase (for ``NOT_POSSIBLE_NOW``)."""


def _is(mask: int) -> str:
    return "is" if mask.bit_count() == 1 else "are"


def illegal_action_words(exc: IllegalActionError, names: Names) -> str:
    """The reason ``exc`` gives, worded for ``names.me`` ("you") with the other player by name.

    An error without a reason code (raised with a message only) keeps its message.
    """
    reason, p, text = exc.reason, exc.player, exc.text
    card = CARDS[exc.card] if exc.card is not None and 0 <= exc.card < len(CARDS) else None
    cards = format_mask(exc.cards)
    if reason is IllegalReason.NOT_REAL_CARDS:
        return f"{text} does not name real cards."
    if reason is IllegalReason.GAME_OVER:
        return f"The deal is over; {text!r} cannot be played."
    if reason is IllegalReason.LAYING_NOT_ALLOWED:
        return "Laying cards down without taking is not allowed under these rules."
    if reason is IllegalReason.NOT_A_LEGAL_LAY:
        return f"{text!r} is not a legal way to lay cards before passing."
    if reason is IllegalReason.FORCED_ADD_ONLY:
        return "A forced player may only add the forced card to his table (forced_take minimal)."
    if reason is IllegalReason.NOT_LEGAL:
        return f"{text!r} is not legal here."
    if reason is IllegalReason.CARDS_IN_TWO_MELDS:
        return f"{cards} is used in two melds."
    if reason is IllegalReason.RUN_TOO_LONG:
        return f"{format_mask(exc.cards, '')} is a run longer than {exc.max_seq_len}."
    if reason is IllegalReason.NOT_A_MELD:
        return f"{format_mask(exc.cards, '')} is not a set or run."
    if reason is IllegalReason.CENTRE_NOT_MELDED:
        return f"The centre card {card} must be melded when taking it."
    if reason is IllegalReason.TABLE_CARDS_MISSING:
        return f"Table cards cannot leave the table: {cards} {_is(exc.cards)} missing."
    if reason is IllegalReason.NO_MATCHING_LAY:
        return f"No legal {text} lays exactly {cards or 'no hand cards'}."
    if p is None or p not in (0, 1):
        return str(exc)
    if reason is IllegalReason.NOT_YOUR_TURN:
        other = exc.to_act if exc.to_act is not None else 1 - p
        verb = "are" if other == names.me else "is"
        return f"It is not {names.poss(p)} turn: {names.obj(other)} {verb} to act."
    if reason is IllegalReason.NOT_POSSIBLE_NOW and exc.phase in _EXPECTED:
        return f"{text!r} is not possible now: {names.obj(p)} must {_EXPECTED[exc.phase]}."
    if reason is IllegalReason.CARD_NOT_IN_HAND:
        return f"Cannot discard {card}: it is not in {names.poss(p)} hand."
    if reason is IllegalReason.WOULD_NEED_REARRANGING:
        return (
            f"{card} could only be melded by rearranging {names.poss(p)} table, "
            f"which rearrange_mode {exc.rearrange_mode} does not allow."
        )
    if reason is IllegalReason.CANNOT_MELD_CENTRE:
        return f"{card} cannot be melded by {names.obj(p)} at all."
    if reason is IllegalReason.CANNOT_TAKE_CENTRE:
        return f"{card} cannot be taken: it does not meld with {names.poss(p)} table or hand."
    if reason is IllegalReason.REARRANGE_NOT_ALLOWED:
        return (
            f"{text!r} rearranges {names.poss(p)} table in a way rearrange_mode "
            f"{exc.rearrange_mode} does not allow."
        )
    if reason is IllegalReason.CARDS_NOT_AVAILABLE:
        where = " or the centre" if exc.card is not None else ""
        return f"{cards} {_is(exc.cards)} not in {names.poss(p)} hand{where}."
    return str(exc)
