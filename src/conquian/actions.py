"""Actions: what a player does at a decision point, and their text form.

Every action has one canonical text that parses back to the same action:

=====================  ======================================================
text                   meaning
=====================  ======================================================
``take 5c6c7c/…``      take the centre card; the melds are the player's whole
                       new table (melds separated by ``/``)
``decline``            refuse the card offered (paid or passed by another
                       player)
``pass``               refuse the card the player turned from the stock
``pass 5c6c7c/…``      (variant) lay cards from hand as this new table, then
                       pass
``force``              make the player who just refused the card take it
``noforce``            let the refused card go
``discard Kh``         discard (pay) a hand card
``exchange Kh``        (variant) choose the hand card to pass to the next seat
``layoff 2 5c6c7c``    (variant ``layoff_on_opponent``) instead of taking the
                       centre card, lay it on player 2's meld ``5c6c7c`` (the
                       meld as it lies, without the card); a discard follows
=====================  ======================================================

>>> action = Action.parse("take 6c7cJc/5h5d5c")  # melds print in canonical order
>>> str(action)
'take 5h5d5c/6c7cJc'
>>> Action.parse(str(Action.discard(Card.parse("Kh")))) == Action.discard(Card.parse("Kh"))
True
>>> layoff = Action.parse("layoff 2 7c6c5c")
>>> str(layoff), layoff.seat, Action.parse(str(layoff)) == layoff
('layoff 2 5c6c7c', 2, True)
"""

from __future__ import annotations

import functools
from enum import IntEnum
from typing import NamedTuple

from .cards import CARDS, Card, CardSet, format_mask, iter_card_tokens, parse_cards_mask
from .errors import InvalidNotationError
from .melds import Partition, format_partition, meld_kind


class ActionKind(IntEnum):
    """The kinds of action."""

    TAKE = 0
    DECLINE = 1
    PASS = 2
    FORCE = 3
    NO_FORCE = 4
    DISCARD = 5
    EXCHANGE = 6
    LAYOFF = 7
    """(Variant ``layoff_on_opponent``) lay the centre card on another player's meld."""


_WORDS = {
    ActionKind.TAKE: "take",
    ActionKind.DECLINE: "decline",
    ActionKind.PASS: "pass",
    ActionKind.FORCE: "force",
    ActionKind.NO_FORCE: "noforce",
    ActionKind.DISCARD: "discard",
    ActionKind.EXCHANGE: "exchange",
    ActionKind.LAYOFF: "layoff",
}
_KINDS = {word: kind for kind, word in _WORDS.items()}
KIND_WORDS: dict[ActionKind, str] = dict(_WORDS)
"""The engine's word for each kind of action, as its text starts (``take``, ``noforce``)."""
_CARD_KINDS = (ActionKind.DISCARD, ActionKind.EXCHANGE)
"""Actions that name one card."""


class Action(NamedTuple):
    """One action.  ``card`` is set for a discard and an exchange, ``melds`` for a take (and a
    lay-and-pass), ``melds`` and ``seat`` for a layoff.

    For a take, ``melds`` is the player's whole table after the take, as a sorted
    partition of meld masks; the centre card is implied by the position.  For a layoff,
    ``melds`` is the one meld of player ``seat``'s table that the centre card goes on, as it
    lies before (so never the player's own new table).
    """

    kind: ActionKind
    card: int = -1
    melds: Partition = ()
    seat: int = -1
    """The player whose meld a layoff extends (-1 for every other kind)."""

    @classmethod
    def take(cls, melds: Partition) -> Action:
        return cls(ActionKind.TAKE, -1, tuple(sorted(melds)))

    @classmethod
    def discard(cls, card: Card | int) -> Action:
        return cls(ActionKind.DISCARD, card.index if isinstance(card, Card) else card)

    @classmethod
    def layoff(cls, seat: int, meld: int) -> Action:
        """Lay the centre card on ``meld`` (a mask, as it lies) of player ``seat``'s table."""
        return cls(ActionKind.LAYOFF, -1, (meld,), seat)

    @property
    def table(self) -> CardSet:
        """All cards of the new table of a take (empty for other actions)."""
        total = 0
        for m in self.melds:
            total |= m
        return CardSet(total)

    @property
    def discarded(self) -> Card | None:
        """The card of a discard."""
        return CARDS[self.card] if self.card >= 0 else None

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the canonical text of an action (case and spacing forgiven).

        Remembers its answers (actions are immutable): a client reads the same legal
        actions again at each of its turns.

        >>> Action.parse("take 5c6c7c / JhJdJc") is Action.parse("take 5c6c7c / JhJdJc")
        True

        :raises InvalidNotationError: naming what could not be read.
        """
        if cls is Action:
            return _parse_action(text)
        return cls._read(text)

    @classmethod
    def _read(cls, text: str) -> Action:
        words = text.strip().split(None, 1)
        if not words:
            raise InvalidNotationError("Empty action text.")
        word = words[0].lower()
        rest = words[1].strip() if len(words) > 1 else ""
        kind = _KINDS.get(word)
        if kind is None:
            raise InvalidNotationError(
                f"Unknown action {words[0]!r}; actions are: {', '.join(_KINDS)}."
            )
        if kind in _CARD_KINDS:
            if not rest:
                raise InvalidNotationError(
                    f"'{word}' needs a card, e.g. '{word} Kh'.", "needs_card", "", word
                )
            found = list(iter_card_tokens(rest))
            if len(found) != 1:
                raise InvalidNotationError(
                    f"'{word}' takes exactly one card, got {rest!r}.", "one_card", rest, word
                )
            return cls(kind, found[0])
        if kind is ActionKind.LAYOFF:
            return _read_layoff(rest)
        melds = parse_partition(rest) if kind in (ActionKind.TAKE, ActionKind.PASS) and rest else ()
        if melds:
            return cls(kind, -1, melds)
        if rest and kind is not ActionKind.TAKE and (kind is not ActionKind.PASS):
            raise InvalidNotationError(
                f"'{word}' takes nothing after it, got {rest!r}.", "nothing_after", rest, word
            )
        if kind is ActionKind.TAKE:  # a take melds the centre card: its table is never empty
            raise InvalidNotationError(
                "'take' needs the new table, e.g. 'take 5c6c7c/JhJdJc' "
                "(a front end may accept shorter forms)."
            )
        return cls(kind)

    def __str__(self) -> str:
        word = _WORDS[self.kind]
        if self.kind in _CARD_KINDS:
            return f"{word} {format_mask(1 << self.card)}"
        if self.kind is ActionKind.LAYOFF:
            return f"{word} {self.seat} {format_partition(self.melds)}"
        if self.melds:
            return f"{word} {format_partition(self.melds)}"
        return word

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def _read_layoff(rest: str) -> Action:
    """The rest of ``layoff SEAT MELD``: a seat number, then one meld."""
    seat_text, _sep, meld_text = rest.partition(" ")
    if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) == 1):
        raise InvalidNotationError(
            f"'layoff' needs a player and one of his melds, e.g. 'layoff 2 5c6c7c', got {rest!r}."
        )
    meld = parse_cards_mask(meld_text) if meld_text.strip() else 0
    if not meld or meld_kind(meld) is None:
        raise InvalidNotationError(
            f"'layoff' names exactly one meld, e.g. 'layoff 2 5c6c7c', got {meld_text!r}."
        )
    return Action(ActionKind.LAYOFF, -1, (meld,), int(seat_text))


@functools.lru_cache(maxsize=4096)
def _parse_action(text: str) -> Action:
    return Action._read(text)


def parse_partition(text: str) -> Partition:
    """Read melds separated by ``/`` (or spaces between melds of run-together cards).

    Each meld must be a set or run (length caps are checked by the rules, not here).

    >>> format_partition(parse_partition("5c6c7c / Jh Jd Jc"))
    '5c6c7c/JhJdJc'

    :raises InvalidNotationError: for bad cards, a card written twice or a non-meld.
    """
    text = text.strip()
    if text in ("", "-"):
        return ()
    chunks = [c for c in text.split("/")] if "/" in text else text.split()
    melds: list[int] = []
    seen = 0
    for chunk in chunks:
        mask = parse_cards_mask(chunk)
        if not mask:
            raise InvalidNotationError(f"Empty meld in {text!r}.")
        if mask & seen:
            raise InvalidNotationError(f"{format_mask(mask & seen)} is written twice in {text!r}.")
        if meld_kind(mask) is None:
            raise InvalidNotationError(f"{format_mask(mask, '')} is not a meld in {text!r}.")
        seen |= mask
        melds.append(mask)
    return tuple(sorted(melds))
