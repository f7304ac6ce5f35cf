"""An action the engine refused, in words for the player it concerns.

The engine's message (``str(exc)``) speaks of "player 0" and "player 1"; here the
same sentence is built from the error's :class:`~conquian.errors.IllegalReason` and
fields, with the viewer as "you" and the other player by name, in the language in
use (each sentence is one message of :data:`~.i18n.GAME_WORDS`; the actions quoted,
the cards and the rule values stay as they are typed).

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

from ..actions import Action, ActionKind
from ..cards import CARDS, format_mask
from ..errors import IllegalActionError, IllegalReason
from .i18n import GAME_WORDS, Part
from .spans import plain
from .words import Names

__all__ = ["illegal_action_words", "no_matching_lay"]

_ = GAME_WORDS.gettext
ngettext = GAME_WORDS.ngettext


def _say(names: Names, p: int, mine: str, theirs: str, **parts: Part) -> str:
    """``mine`` if player ``p`` is the viewer, else ``theirs`` with ``{player}`` his name."""
    return plain(names.said(p, mine, theirs, "", **parts))


def _not_possible(names: Names, p: int, phase: str | None, action: str) -> str | None:
    """What player ``p`` must do instead, by phase (for ``NOT_POSSIBLE_NOW``)."""
    if phase == "offer":
        return _say(
            names,
            p,
            _("{action} is not possible now: you must take or decline the offered card."),
            _("{action} is not possible now: {player} must take or decline the offered card."),
            action=action,
        )
    if phase == "turn":
        return _say(
            names,
            p,
            # Translators: "pass": let the stock card you turned go on (pasar).
            _("{action} is not possible now: you must take or pass the card they turned."),
            _("{action} is not possible now: {player} must take or pass the card they turned."),
            action=action,
        )
    if phase == "force":
        return _say(
            names,
            p,
            # Translators: "force" and "noforce" are the commands (code): keep them.
            _("{action} is not possible now: you must force or noforce."),
            _("{action} is not possible now: {player} must force or noforce."),
            action=action,
        )
    if phase == "forced":
        return _say(
            names,
            p,
            _("{action} is not possible now: you must take the card they were forced with."),
            _("{action} is not possible now: {player} must take the card they were forced with."),
            action=action,
        )
    if phase == "discard":
        return _say(
            names,
            p,
            _("{action} is not possible now: you must discard a hand card."),
            _("{action} is not possible now: {player} must discard a hand card."),
            action=action,
        )
    if phase == "exchange":
        return _say(
            names,
            p,
            # Translators: the exchange (el cambio): each player passes one hand card on.
            _(
                "{action} is not possible now: you must choose the hand card to pass to the "
                "next player."
            ),
            _(
                "{action} is not possible now: {player} must choose the hand card to pass to "
                "the next player."
            ),
            action=action,
        )
    return None


def no_matching_lay(take: bool, cards: str) -> str:
    """No legal take (``take``; else no way to lay cards and pass) lays exactly ``cards``,
    the hand cards as written (empty: none)."""
    if not cards and take:
        return _("No legal take lays exactly no hand cards.")
    if not cards:
        # Translators: a "pass" here lays cards before passing the card you turned.
        return _("No legal pass lays exactly no hand cards.")
    if take:
        return _("No legal take lays exactly {cards}.").format(cards=cards)
    # Translators: a "pass" here lays cards before passing the card you turned.
    return _("No legal pass lays exactly {cards}.").format(cards=cards)


def illegal_action_words(exc: IllegalActionError, names: Names) -> str:
    """The reason ``exc`` gives, worded for ``names.me`` ("you") with the other player by name.

    An error without a reason code (raised with a message only) keeps its message.
    """
    reason, p, text = exc.reason, exc.player, exc.text
    card = CARDS[exc.card] if exc.card is not None and 0 <= exc.card < len(CARDS) else None
    cards = format_mask(exc.cards)
    count = exc.cards.bit_count()
    action = repr(text)
    exchange = isinstance(exc.action, Action) and exc.action.kind is ActionKind.EXCHANGE
    if reason is IllegalReason.NOT_REAL_CARDS:
        return _("{action} does not name real cards.").format(action=text)
    if reason is IllegalReason.GAME_OVER:
        # Translators: {action} is the action as typed, in quotes (e.g. 'take 5h5d').
        return _("The deal is over; {action} cannot be played.").format(action=action)
    if reason is IllegalReason.LAYING_NOT_ALLOWED:
        return _("Laying cards down without taking is not allowed under these rules.")
    if reason is IllegalReason.NOT_A_LEGAL_LAY:
        # Translators: "passing": declining the stock card you turned.
        return _("{action} is not a legal way to lay cards before passing.").format(action=action)
    if reason is IllegalReason.FORCED_ADD_ONLY:
        # Translators: "forced_take minimal" is the rule as typed (code): keep it.
        return _("A forced player may only add the forced card to his table (forced_take minimal).")
    if reason is IllegalReason.NOT_LEGAL:
        return _("{action} is not legal here.").format(action=action)
    if reason is IllegalReason.CARDS_IN_TWO_MELDS:
        # Translators: the English says "is" for one card or more.
        return ngettext(
            "{cards} is used in two melds.", "{cards} is used in two melds.", count
        ).format(cards=cards)
    if reason is IllegalReason.RUN_TOO_LONG:
        return _("{cards} is a run longer than {most}.").format(
            cards=format_mask(exc.cards, ""), most=exc.max_seq_len
        )
    if reason is IllegalReason.NOT_A_MELD:
        return _("{cards} is not a set or run.").format(cards=format_mask(exc.cards, ""))
    if reason is IllegalReason.CENTRE_NOT_MELDED:
        return _("The centre card {card} must be melded when taking it.").format(card=card)
    if reason is IllegalReason.TABLE_CARDS_MISSING:
        return ngettext(
            "Table cards cannot leave the table: {cards} is missing.",
            "Table cards cannot leave the table: {cards} are missing.",
            count,
        ).format(cards=cards)
    if reason is IllegalReason.NO_MATCHING_LAY and text in ("take", "pass"):
        return no_matching_lay(text == "take", cards)
    if p is None or not 0 <= p < len(names.names):
        return str(exc)
    if reason is IllegalReason.NOT_YOUR_TURN:
        other = exc.to_act if exc.to_act is not None else 1 - p
        if not 0 <= other < len(names.names):
            return str(exc)
        if p == names.me and other != names.me:
            return _("It is not your turn: {other} is to act.").format(other=names.names[other])
        if other == names.me and p != names.me:
            return _("It is not {player}'s turn: you are to act.").format(player=names.names[p])
        if p != names.me:
            return _("It is not {player}'s turn: {other} is to act.").format(
                player=names.names[p], other=names.names[other]
            )
        return str(exc)
    if reason is IllegalReason.NOT_POSSIBLE_NOW:
        words = _not_possible(names, p, exc.phase, action)
        if words is not None:
            return words
    if reason is IllegalReason.CARD_NOT_IN_HAND and exchange:
        return _say(
            names,
            p,
            # Translators: "pass on": the card chosen for the exchange (el cambio).
            _("Cannot pass on {card}: it is not in your hand."),
            _("Cannot pass on {card}: it is not in {player}'s hand."),
            card=str(card),
        )
    if reason is IllegalReason.CARD_NOT_IN_HAND:
        return _say(
            names,
            p,
            _("Cannot discard {card}: it is not in your hand."),
            _("Cannot discard {card}: it is not in {player}'s hand."),
            card=str(card),
        )
    mode = str(exc.rearrange_mode)
    if reason is IllegalReason.WOULD_NEED_REARRANGING:
        return _say(
            names,
            p,
            # Translators: "rearrange_mode {mode}" is the rule as typed (code): keep it.
            _(
                "{card} could only be melded by rearranging your table, which rearrange_mode "
                "{mode} does not allow."
            ),
            _(
                "{card} could only be melded by rearranging {player}'s table, which "
                "rearrange_mode {mode} does not allow."
            ),
            card=str(card),
            mode=mode,
        )
    if reason is IllegalReason.CANNOT_MELD_CENTRE:
        return _say(
            names,
            p,
            _("{card} cannot be melded by you at all."),
            _("{card} cannot be melded by {player} at all."),
            card=str(card),
        )
    if reason is IllegalReason.CANNOT_TAKE_CENTRE:
        return _say(
            names,
            p,
            _("{card} cannot be taken: it does not meld with your table or hand."),
            _("{card} cannot be taken: it does not meld with {player}'s table or hand."),
            card=str(card),
        )
    if reason is IllegalReason.REARRANGE_NOT_ALLOWED:
        return _say(
            names,
            p,
            # Translators: "rearrange_mode {mode}" is the rule as typed (code): keep it.
            _("{action} rearranges your table in a way rearrange_mode {mode} does not allow."),
            _(
                "{action} rearranges {player}'s table in a way rearrange_mode {mode} does not "
                "allow."
            ),
            action=action,
            mode=mode,
        )
    if reason is IllegalReason.CARDS_NOT_AVAILABLE:
        if exc.card is not None:
            mine = ngettext(
                "{cards} is not in your hand or the centre.",
                "{cards} are not in your hand or the centre.",
                count,
            )
            theirs = ngettext(
                "{cards} is not in {player}'s hand or the centre.",
                "{cards} are not in {player}'s hand or the centre.",
                count,
            )
        else:
            mine = ngettext("{cards} is not in your hand.", "{cards} are not in your hand.", count)
            theirs = ngettext(
                "{cards} is not in {player}'s hand.", "{cards} are not in {player}'s hand.", count
            )
        return _say(names, p, mine, theirs, cards=cards)
    return str(exc)
