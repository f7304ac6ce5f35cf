"""An action the engine refused, in words for the player it concerns.

The engine's message (``str(exc)``) speaks of "player 0" and "player 1"; here the
same sentence is built from the error's :class:`~conquian.errors.IllegalReason` and
fields, with the viewer as "you" and the other player by name, in the language in
use (each sentence is one message of :data:`~.i18n.GAME_WORDS`; the actions quoted,
the cards and the rule values stay as they are typed).

>>> from conquian.notation import parse_action, parse_position
>>> from conquian.present.spans import plain
>>> state = parse_position("standard discard 0 1 * * - - - - * 1")
>>> try:
...     parse_action(state, "discard Kh")
... except IllegalActionError as exc:
...     error = exc
>>> str(error)
"Cannot discard Kh: it is not in player 0's hand."
>>> plain(illegal_action_words(error, Names(("Ana", "Ben"), me=0)))
'Cannot discard Kh: it is not in your hand.'
>>> line = illegal_action_words(error, Names(("Ana", "Ben"), me=1), CardLook(symbols=True))
>>> plain(line), [span.card for span in line if span.card is not None]
("Cannot discard K♥: it is not in Ana's hand.", [19])

Every card the words name is a card span (:class:`~.spans.Span` with its card), written as
``look`` shows cards; an action quoted as the engine read it writes its cards as they are
typed (``look``'s labels).
"""

from __future__ import annotations

from ..actions import Action, ActionKind
from ..cards import CARDS
from ..errors import IllegalActionError, IllegalReason
from .i18n import GAME_WORDS, Part, fill
from .spans import CardLook, Line, Span, card_span, cards_spans
from .words import Names, action_spans

__all__ = ["illegal_action_words", "no_matching_lay"]

FRENCH = CardLook()
"""The look of cards when none is given: the French deck's labels."""

_ = GAME_WORDS.gettext
ngettext = GAME_WORDS.ngettext


def _say(names: Names, p: int, mine: str, theirs: str, **parts: Part) -> Line:
    """``mine`` if player ``p`` is the viewer, else ``theirs`` with ``{player}`` his name."""
    return names.said(p, mine, theirs, "", **parts)


def _quoted(exc: IllegalActionError, look: CardLook) -> Line:
    """The action as the engine read it, in quotes (``'take 5h5d'``), its cards as card
    spans where the action is known."""
    action = exc.action
    if isinstance(action, Action) and action_text_is(action, exc.text):
        return [Span("'"), *action_spans(action, look), Span("'")]
    return [Span(repr(exc.text))]


def action_text_is(action: Action, text: str) -> bool:
    """Whether ``text`` is the engine's text of ``action`` (an action naming no real card has
    none)."""
    cards = [action.card] if action.kind in (ActionKind.DISCARD, ActionKind.EXCHANGE) else []
    if not all(0 <= card < len(CARDS) for card in cards):
        return False
    if any(meld >> len(CARDS) or meld <= 0 for meld in action.melds):
        return False
    return str(action) == text


def _not_possible(names: Names, p: int, phase: str | None, action: Line) -> Line | None:
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


def _layoff_words(exc: IllegalActionError, names: Names, card: Part, meld: Line) -> Line | None:
    """A refused layoff that names a player (``exc.seat``) or the one who tried it, in words
    (None: not such a refusal, or a seat or player the names do not hold)."""
    reason, p, q = exc.reason, exc.player, exc.seat
    seats = range(len(names.names))
    if p is None or p not in seats:
        return None
    if reason is IllegalReason.LAYOFF_EMPTY_HAND:
        return _say(
            names,
            p,
            # Translators: after a layoff one pays (discards) a hand card (pagar)
            _("You have no card in hand to pay with after laying {card} on a meld."),
            _("{player} has no card in hand to pay with after laying {card} on a meld."),
            card=card,
        )
    if reason is IllegalReason.LAYOFF_OWN_TABLE:
        return _say(
            names,
            p,
            _("{card} goes on your own table only by taking it."),
            _("{card} goes on {player}'s own table only by taking it."),
            card=card,
        )
    if q is None or q not in seats:
        return None
    mine = q == names.me
    if reason is IllegalReason.LAYOFF_NOT_THEIR_MELD:
        if mine:
            return fill(_("{cards} is not one of your melds."), cards=meld)
        return fill(_("{cards} is not one of {player}'s melds."), cards=meld, player=names.names[q])
    if reason is IllegalReason.LAYOFF_DOES_NOT_FIT:
        if mine:
            return fill(_("{card} does not extend your meld {cards}."), card=card, cards=meld)
        return fill(
            _("{card} does not extend {player}'s meld {cards}."),
            card=card,
            cards=meld,
            player=names.names[q],
        )
    if reason is IllegalReason.NO_MATCHING_LAYOFF and not exc.cards:
        if mine:
            return fill(_("{card} extends none of your melds."), card=card)
        return fill(_("{card} extends none of {player}'s melds."), card=card, player=names.names[q])
    return None


def no_matching_lay(take: bool, cards: Part) -> Line:
    """No legal take (``take``; else no way to lay cards and pass) lays exactly ``cards``,
    the hand cards (empty: none)."""
    if not cards and take:
        return fill(_("No legal take lays exactly no hand cards."))
    if not cards:
        # Translators: a "pass" here lays cards before passing the card you turned.
        return fill(_("No legal pass lays exactly no hand cards."))
    if take:
        return fill(_("No legal take lays exactly {cards}."), cards=cards)
    # Translators: a "pass" here lays cards before passing the card you turned.
    return fill(_("No legal pass lays exactly {cards}."), cards=cards)


def illegal_action_words(exc: IllegalActionError, names: Names, look: CardLook = FRENCH) -> Line:
    """The reason ``exc`` gives, worded for ``names.me`` ("you") with the other player by name,
    its cards as ``look`` shows them.

    An error without a reason code (raised with a message only) keeps its message.
    """
    reason, p, text = exc.reason, exc.player, exc.text
    card: Part = (
        card_span(look, exc.card) if exc.card is not None and 0 <= exc.card < len(CARDS) else "None"
    )
    cards = cards_spans(look, exc.cards)
    run = cards_spans(look, exc.cards, "")
    count = exc.cards.bit_count()
    action = _quoted(exc, look)
    exchange = isinstance(exc.action, Action) and exc.action.kind is ActionKind.EXCHANGE
    if reason is IllegalReason.NOT_REAL_CARDS:
        return fill(_("{action} does not name real cards."), action=text)
    if reason is IllegalReason.GAME_OVER:
        # Translators: {action} is the action as typed, in quotes (e.g. 'take 5h5d').
        return fill(_("The deal is over; {action} cannot be played."), action=action)
    if reason is IllegalReason.LAYING_NOT_ALLOWED:
        return fill(_("Laying cards down without taking is not allowed under these rules."))
    if reason is IllegalReason.NOT_A_LEGAL_LAY:
        # Translators: "passing": declining the stock card you turned.
        return fill(_("{action} is not a legal way to lay cards before passing."), action=action)
    if reason is IllegalReason.FORCED_ADD_ONLY:
        return fill(
            # Translators: "forced_take minimal" is the rule as typed (code): keep it.
            _("A forced player may only add the forced card to his table (forced_take minimal).")
        )
    if reason is IllegalReason.NOT_LEGAL:
        return fill(_("{action} is not legal here."), action=action)
    if reason is IllegalReason.CARDS_IN_TWO_MELDS:
        return fill(
            # Translators: the English says "is" for one card or more.
            ngettext("{cards} is used in two melds.", "{cards} is used in two melds.", count),
            cards=cards,
        )
    if reason is IllegalReason.RUN_TOO_LONG:
        return fill(_("{cards} is a run longer than {most}."), cards=run, most=str(exc.max_seq_len))
    if reason is IllegalReason.NOT_A_MELD:
        return fill(_("{cards} is not a set or run."), cards=run)
    if reason is IllegalReason.CENTRE_NOT_MELDED:
        return fill(_("The centre card {card} must be melded when taking it."), card=card)
    if reason is IllegalReason.TABLE_CARDS_MISSING:
        return fill(
            ngettext(
                "Table cards cannot leave the table: {cards} is missing.",
                "Table cards cannot leave the table: {cards} are missing.",
                count,
            ),
            cards=cards,
        )
    if reason is IllegalReason.NO_MATCHING_LAY and text in ("take", "pass"):
        return no_matching_lay(text == "take", cards)
    if reason is IllegalReason.LAYOFF_NOT_ALLOWED:
        return fill(_("Laying the centre card on another player's meld is not allowed here."))
    if reason is IllegalReason.LAYOFF_NO_SUCH_PLAYER:
        return fill(_("There is no player {seat} at this table."), seat=str(exc.seat))
    if reason is IllegalReason.CANNOT_LAY_OFF_CENTRE:
        return fill(
            _("{card} extends no meld of another player, so it cannot go on one."), card=card
        )
    layoff = _layoff_words(exc, names, card, run)
    if layoff is not None:
        return layoff
    said = [Span(str(exc))]
    if p is None or not 0 <= p < len(names.names):
        return said
    if reason is IllegalReason.NOT_YOUR_TURN:
        other = exc.to_act if exc.to_act is not None else 1 - p
        if not 0 <= other < len(names.names):
            return said
        if p == names.me and other != names.me:
            return fill(_("It is not your turn: {other} is to act."), other=names.names[other])
        if other == names.me and p != names.me:
            return fill(_("It is not {player}'s turn: you are to act."), player=names.names[p])
        if p != names.me:
            return fill(
                _("It is not {player}'s turn: {other} is to act."),
                player=names.names[p],
                other=names.names[other],
            )
        return said
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
            card=card,
        )
    if reason is IllegalReason.CARD_NOT_IN_HAND:
        return _say(
            names,
            p,
            _("Cannot discard {card}: it is not in your hand."),
            _("Cannot discard {card}: it is not in {player}'s hand."),
            card=card,
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
            card=card,
            mode=mode,
        )
    if reason is IllegalReason.CANNOT_MELD_CENTRE:
        return _say(
            names,
            p,
            _("{card} cannot be melded by you at all."),
            _("{card} cannot be melded by {player} at all."),
            card=card,
        )
    if reason is IllegalReason.CANNOT_TAKE_CENTRE:
        return _say(
            names,
            p,
            _("{card} cannot be taken: it does not meld with your table or hand."),
            _("{card} cannot be taken: it does not meld with {player}'s table or hand."),
            card=card,
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
    if reason is IllegalReason.NO_MATCHING_LAYOFF:
        return fill(
            _("{card} extends no meld of another player that holds {cards}."),
            card=card,
            cards=cards,
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
    return said
