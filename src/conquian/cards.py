"""Cards, deck styles and card sets.

A card is an index 0..39: ``suit * 10 + (rank - 1)`` with suits in the order
spades, hearts, diamonds, clubs and ranks A=1 .. 7=7, J=8, Q=9, K=10.  A set of
cards is a 40-bit integer mask; :class:`CardSet` is its friendly, immutable face.

>>> Card.parse("7h")
Card.parse('7h')
>>> str(CardSet.parse("Jc, 6c 7C"))
'6c 7c Jc'
>>> CardSet.parse("sota de copas, 7 de oros", deck="spanish").label("spanish")
'10c 7o'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import SupportsIndex

from .errors import InvalidNotationError

NUM_SUITS = 4
NUM_RANKS = 10
NUM_CARDS = NUM_SUITS * NUM_RANKS
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1
SUIT_MASKS = tuple(((1 << NUM_RANKS) - 1) << (NUM_RANKS * s) for s in range(NUM_SUITS))
RANK_MASKS = tuple(
    sum(1 << (NUM_RANKS * s + r) for s in range(NUM_SUITS)) for r in range(NUM_RANKS)
)


class Suit(IntEnum):
    """The four suits, in canonical order."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3


class Rank(IntEnum):
    """The ten ranks, ace low; 7 and J are adjacent."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10


class DeckStyle(StrEnum):
    """How cards are labelled. Only labels differ; the game is the same."""

    FRENCH = "french"
    """A 2 3 4 5 6 7 J Q K of spades, hearts, diamonds, clubs (``7h``, ``Jc``)."""
    SPANISH = "spanish"
    """1-7, 10 sota, 11 caballo, 12 rey of espadas, copas, oros, bastos (``7c``, ``10b``)."""
    A_TO_10 = "a_to_10"
    """A 2 ... 10 of spades, hearts, diamonds, clubs (``8h`` is the card after ``7h``)."""


_RANK_LABELS: dict[DeckStyle, tuple[str, ...]] = {
    DeckStyle.FRENCH: ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"),
    DeckStyle.SPANISH: ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12"),
    DeckStyle.A_TO_10: ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10"),
}
_SUIT_LABELS: dict[DeckStyle, tuple[str, ...]] = {
    DeckStyle.FRENCH: ("s", "h", "d", "c"),
    DeckStyle.SPANISH: ("e", "c", "o", "b"),
    DeckStyle.A_TO_10: ("s", "h", "d", "c"),
}
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")
"""Unicode suit symbols in suit order (spades, hearts, diamonds, clubs)."""
SPANISH_SUIT_NAMES = ("espadas", "copas", "oros", "bastos")
SPANISH_RANK_NAMES = ("as", "2", "3", "4", "5", "6", "7", "sota", "caballo", "rey")

_SYMBOL_SUITS = {
    "\u2660": 0,
    "\u2664": 0,
    "\u2665": 1,
    "\u2661": 1,
    "\u2666": 2,
    "\u2662": 2,
    "\u2663": 3,
    "\u2667": 3,
}
_SEPARATORS = re.compile(r"[\s,;|/]+")
_SYMBOLS = "".join(_SYMBOL_SUITS)
_TOKEN_PATTERNS: dict[DeckStyle, re.Pattern[str]] = {
    DeckStyle.FRENCH: re.compile(rf"(?P<rank>[a1-7jqk])(?P<suit>[shdc{_SYMBOLS}])", re.IGNORECASE),
    DeckStyle.A_TO_10: re.compile(
        rf"(?P<rank>10|[a1-9t])(?P<suit>[shdc{_SYMBOLS}])", re.IGNORECASE
    ),
    DeckStyle.SPANISH: re.compile(
        r"(?P<rank>1[0-2]|[1-7]|as|sota|caballo|rey)[\s-]*(?:de\s+)?"
        rf"(?P<suit>espadas|copas|oros|bastos|[ecob{_SYMBOLS}])",
        re.IGNORECASE,
    ),
}
_RANK_WORDS: dict[DeckStyle, dict[str, int]] = {
    DeckStyle.FRENCH: {"a": 1, "1": 1, "j": 8, "q": 9, "k": 10} | {str(r): r for r in range(2, 8)},
    DeckStyle.A_TO_10: {"a": 1, "1": 1, "t": 10, "10": 10} | {str(r): r for r in range(2, 10)},
    DeckStyle.SPANISH: {
        "as": 1,
        "1": 1,
        "10": 8,
        "11": 9,
        "12": 10,
        "sota": 8,
        "caballo": 9,
        "rey": 10,
    }
    | {str(r): r for r in range(2, 8)},
}
_SUIT_WORDS: dict[DeckStyle, dict[str, int]] = {
    DeckStyle.FRENCH: {"s": 0, "h": 1, "d": 2, "c": 3},
    DeckStyle.A_TO_10: {"s": 0, "h": 1, "d": 2, "c": 3},
    DeckStyle.SPANISH: {
        "e": 0,
        "c": 1,
        "o": 2,
        "b": 3,
        "espadas": 0,
        "copas": 1,
        "oros": 2,
        "bastos": 3,
    },
}


def deck_style(deck: DeckStyle | str) -> DeckStyle:
    """Return the :class:`DeckStyle` named by ``deck``.

    :raises InvalidNotationError: for an unknown style name.
    """
    try:
        return DeckStyle(deck)
    except ValueError:
        names = ", ".join(d.value for d in DeckStyle)
        raise InvalidNotationError(f"Unknown deck style {deck!r}; use one of {names}.") from None


def card_label(index: int, deck: DeckStyle | str = DeckStyle.FRENCH) -> str:
    """The label of card ``index`` in a deck style.

    >>> card_label(17), card_label(17, "spanish"), card_label(17, "a_to_10")
    ('Jh', '10c', '8h')
    """
    style = deck_style(deck)
    return _RANK_LABELS[style][index % NUM_RANKS] + _SUIT_LABELS[style][index // NUM_RANKS]


_FRENCH_LABELS = tuple(card_label(i) for i in range(NUM_CARDS))
LABEL_BITS: dict[str, int] = {label: 1 << i for i, label in enumerate(_FRENCH_LABELS)}
"""Each card's canonical label (``As``), with its bit: for reading lists of labels at once."""


def iter_card_tokens(text: str, deck: DeckStyle | str = DeckStyle.FRENCH) -> Iterator[int]:
    """Yield the card indices written in ``text``, in the order written.

    Forgiving: any case, separators ``, ; | /`` or spaces (or none), suit symbols,
    and in the Spanish style numbers 10-12 or words (``sota de copas``).

    :raises InvalidNotationError: naming the first text that is not a card.
    """
    style = deck_style(deck)
    pattern = _TOKEN_PATTERNS[style]
    ranks = _RANK_WORDS[style]
    suits = _SUIT_WORDS[style]
    pos = 0
    end = len(text)
    while True:
        sep = _SEPARATORS.match(text, pos)
        if sep:
            pos = sep.end()
        if pos >= end:
            return
        match = pattern.match(text, pos)
        if match is None:
            bad = _SEPARATORS.split(text[pos:], maxsplit=1)[0]
            raise InvalidNotationError(
                f"{bad!r} is not a card ({style.value} labels, e.g. "
                f"{card_label(17, style)!r}) in {text!r}.",
                "not_a_card",
                bad,
            )
        rank_text = match.group("rank").lower()
        suit_text = match.group("suit").lower()
        suit = _SYMBOL_SUITS.get(suit_text)
        if suit is None:
            suit = suits[suit_text]
        yield suit * NUM_RANKS + ranks[rank_text] - 1
        pos = match.end()


def parse_cards_mask(text: str, deck: DeckStyle | str = DeckStyle.FRENCH) -> int:
    """Parse cards into a mask; a card written twice is an error.

    >>> bin(parse_cards_mask("As 2s"))
    '0b11'
    """
    mask = 0
    for index in iter_card_tokens(text, deck):
        bit = 1 << index
        if mask & bit:
            raise InvalidNotationError(
                f"Card {_FRENCH_LABELS[index]} is written twice in {text!r}.",
                "written_twice",
                card_label(index, deck),
            )
        mask |= bit
    return mask


def mask_indices(mask: int) -> list[int]:
    """The card indices of a mask, lowest first.

    >>> mask_indices(0b1010)
    [1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_LABELS_OF: dict[int, tuple[str, ...]] = {}
"""The labels of the masks written lately (a server writes the same tables and hands again
with every message); cleared when it grows past :data:`_LABELS_KEPT`."""
_LABELS_KEPT = 8192


def _labels(mask: int) -> tuple[str, ...]:
    labels = _LABELS_OF.get(mask)
    if labels is None:
        if len(_LABELS_OF) >= _LABELS_KEPT:
            _LABELS_OF.clear()
        labels = _LABELS_OF[mask] = tuple([_FRENCH_LABELS[i] for i in mask_indices(mask)])
    return labels


def mask_labels(mask: int) -> list[str]:
    """The canonical labels of a mask's cards, in :func:`format_mask`'s order.

    >>> mask_labels(0b1000000000 | 0b1)
    ['As', 'Ks']
    >>> mask_labels(0)
    []
    """
    return list(_labels(mask))


def format_mask(mask: int, sep: str = " ", deck: DeckStyle | str = DeckStyle.FRENCH) -> str:
    """Canonical text of a mask: cards by suit (s h d c) then rank.

    >>> format_mask(0b111, sep="")
    'As2s3s'
    """
    if deck == DeckStyle.FRENCH:
        return sep.join(_labels(mask))
    return sep.join([card_label(i, deck) for i in mask_indices(mask)])


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card, identified by its index 0..39.

    >>> card = Card.parse("Jc")
    >>> card.rank, card.suit, card.index
    (<Rank.JACK: 8>, <Suit.CLUBS: 3>, 37)
    >>> card.label("spanish")
    '10b'
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < NUM_CARDS:
            raise InvalidNotationError(f"Card index {self.index} is outside 0..39.")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        # rebuilt by the constructor, for copy and pickle of the compiled (mypyc) build,
        # which would restore a frozen dataclass field by field, and fail
        return Card, (self.index,)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of a rank (1..10) and suit (0..3)."""
        return CARDS[suit * NUM_RANKS + rank - 1]

    @classmethod
    def parse(cls, text: str, deck: DeckStyle | str = DeckStyle.FRENCH) -> Card:
        """Read exactly one card.

        :raises InvalidNotationError: if ``text`` is not exactly one card.
        """
        found = list(iter_card_tokens(text, deck))
        if len(found) != 1:
            raise InvalidNotationError(f"Expected exactly one card, got {text!r}.")
        return CARDS[found[0]]

    @property
    def rank(self) -> Rank:
        return Rank(self.index % NUM_RANKS + 1)

    @property
    def suit(self) -> Suit:
        return Suit(self.index // NUM_RANKS)

    @property
    def mask(self) -> int:
        return 1 << self.index

    def label(self, deck: DeckStyle | str = DeckStyle.FRENCH) -> str:
        """The card's label in a deck style."""
        return card_label(self.index, deck)

    def symbol(self) -> str:
        """French rank with a Unicode suit symbol, e.g. ``7♥``."""
        return (
            _RANK_LABELS[DeckStyle.FRENCH][self.index % NUM_RANKS]
            + SUIT_SYMBOLS[self.index // NUM_RANKS]
        )

    def __str__(self) -> str:
        return _FRENCH_LABELS[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(NUM_CARDS))
"""The 40 cards, ``CARDS[i].index == i``."""


IntoCardSet = SupportsIndex | Iterable[Card | int] | str


def to_mask(cards: IntoCardSet) -> int:
    """A mask from a mask, a :class:`CardSet`, card text, or an iterable of cards or indices."""
    if isinstance(cards, str):
        return parse_cards_mask(cards)
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, int):
        return cards
    if not isinstance(cards, Iterable):
        return cards.__index__()
    mask = 0
    for card in cards:
        mask |= 1 << (card.index if isinstance(card, Card) else card)
    return mask


@dataclass(frozen=True, slots=True)
class CardSet:
    """An immutable set of cards backed by a 40-bit mask.

    >>> hand = CardSet.parse("5h 5d 6c 7c")
    >>> Card.parse("5d") in hand, len(hand)
    (True, 4)
    >>> str(hand - CardSet.parse("5h"))
    '5d 6c 7c'
    """

    mask: int = 0

    def __post_init__(self) -> None:
        if self.mask & ~ALL_CARDS_MASK or self.mask < 0:
            raise InvalidNotationError(f"Mask {self.mask:#x} is not a set of the 40 cards.")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return CardSet, (self.mask,)  # for mypyc, as Card.__reduce__

    @classmethod
    def parse(cls, text: str, deck: DeckStyle | str = DeckStyle.FRENCH) -> CardSet:
        """Read cards written in any forgiving form (see :func:`iter_card_tokens`)."""
        return cls(parse_cards_mask(text, deck))

    @classmethod
    def of(cls, cards: IntoCardSet) -> CardSet:
        """A card set from cards, indices, a mask or text."""
        return cls(to_mask(cards))

    @classmethod
    def full(cls) -> CardSet:
        """All 40 cards."""
        return cls(ALL_CARDS_MASK)

    def __contains__(self, card: object) -> bool:
        if isinstance(card, Card):
            return bool(self.mask >> card.index & 1)
        if isinstance(card, int):
            return 0 <= card < NUM_CARDS and bool(self.mask >> card & 1)
        return False

    def __iter__(self) -> Iterator[Card]:
        return iter([CARDS[i] for i in mask_indices(self.mask)])

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __or__(self, other: IntoCardSet) -> CardSet:
        return CardSet(self.mask | to_mask(other))

    def __and__(self, other: IntoCardSet) -> CardSet:
        return CardSet(self.mask & to_mask(other))

    def __sub__(self, other: IntoCardSet) -> CardSet:
        return CardSet(self.mask & ~to_mask(other))

    def __xor__(self, other: IntoCardSet) -> CardSet:
        return CardSet(self.mask ^ to_mask(other))

    def issubset(self, other: IntoCardSet) -> bool:
        """True if every card of this set is in ``other``."""
        return not self.mask & ~to_mask(other)

    def label(self, deck: DeckStyle | str = DeckStyle.FRENCH, sep: str = " ") -> str:
        """The cards in canonical order with a deck style's labels."""
        return format_mask(self.mask, sep, deck)

    def __str__(self) -> str:
        return format_mask(self.mask)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
