"""Styled text that both screens (plain and Rich) can print, and how cards look.

A :class:`Span` is a piece of text with a Rich style (the plain screen ignores the
style); a line is a list of spans.  Everything the game shows is built from these,
so the plain and the Rich front ends print the same words.

A card is a span that carries the card (:attr:`Span.card`); its text is how a text
screen writes it, chosen by the :class:`CardLook` that the screen passes in (deck
labels, suit symbols).  The words themselves never depend on that text: the browser
reads ``span.card`` and draws the card its own way.

>>> from conquian.cards import parse_cards_mask
>>> look = CardLook(symbols=True)
>>> plain(cards_spans(look, parse_cards_mask("Kh 5c")))
'K♥ 5♣'
>>> [span.card for span in cards_spans(look, parse_cards_mask("Kh 5c"))]
[19, None, 34]
>>> plain(hand_spans(CardLook(), parse_cards_mask("As 5s 2h Kd")))
'As 5s  2h  Kd'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..cards import (
    NUM_RANKS,
    NUM_SUITS,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    DeckStyle,
    mask_indices,
)

__all__ = [
    "ENGLISH_LETTERS",
    "CardLetters",
    "CardLook",
    "Line",
    "Span",
    "card_span",
    "cards_spans",
    "hand_spans",
    "melds_spans",
    "plain",
]


class Span(NamedTuple):
    """A piece of text and its Rich style ("" for none); a card also carries its index.

    ``card`` says that the span *is* that card (0..39), so a front end can draw it its
    own way (the browser as a chip) without reading the text, which is how a text
    screen writes it (see :class:`CardLook`).
    """

    text: str
    style: str = ""
    card: int | None = None
    """The card this span shows, or None for words."""


Line = list[Span]
"""One printed line."""

CMD = "bold cyan"
"""Style of something the user can type."""
DIM = "dim"
BOLD = "bold"
GOOD = "bold green"
NOTE = "yellow"
YOU = "bold cyan"
THEM = "bold magenta"

_FRENCH_SUIT_STYLES = ("bold", "bold red", "bold red", "bold")
_SPANISH_SUIT_STYLES = ("bold blue", "bold red", "bold yellow", "bold green")


@dataclass(frozen=True, slots=True)
class CardLetters:
    """How a language writes cards in text: the letters of the French deck's ranks and
    suits, and of the Spanish deck's suits (its ranks are numbers in every language).

    The engine's notation never changes; these are only what a person types and reads.

    >>> SPANISH = CardLetters(suits=("p", "c", "d", "t"))
    >>> SPANISH.label(10, DeckStyle.FRENCH), ENGLISH_LETTERS.label(10, DeckStyle.FRENCH)
    ('Ac', 'Ah')
    >>> ENGLISH_LETTERS.label(17, DeckStyle.SPANISH), ENGLISH_LETTERS.label(17, DeckStyle.A_TO_10)
    ('10c', '8h')
    """

    ranks: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
    """The French deck's ranks, ace to king."""
    suits: tuple[str, ...] = ("s", "h", "d", "c")
    """The French deck's suits: spades, hearts, diamonds, clubs."""
    spanish_suits: tuple[str, ...] = ("e", "c", "o", "b")
    """The Spanish deck's suits: espadas, copas, oros, bastos."""

    def rank_labels(self, deck: DeckStyle) -> tuple[str, ...]:
        """The ten ranks of ``deck``, lowest first."""
        if deck is DeckStyle.SPANISH:
            return _SPANISH_RANKS
        if deck is DeckStyle.A_TO_10:
            return (self.ranks[0], *_A_TO_10_RANKS)
        return self.ranks

    def suit_labels(self, deck: DeckStyle) -> tuple[str, ...]:
        """The four suits of ``deck``, in the engine's suit order."""
        return self.spanish_suits if deck is DeckStyle.SPANISH else self.suits

    def label(self, index: int, deck: DeckStyle) -> str:
        """Card ``index`` as typed: its rank, then its suit."""
        return (
            self.rank_labels(deck)[index % NUM_RANKS] + self.suit_labels(deck)[index // NUM_RANKS]
        )


_SPANISH_RANKS = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
_A_TO_10_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")

ENGLISH_LETTERS = CardLetters()
"""The engine's own letters (``As``, ``Kh``; ``10c`` in the Spanish deck)."""


@dataclass(frozen=True, slots=True)
class CardLook:
    """How cards are written on this screen: deck labels, suit symbols, colours."""

    deck: DeckStyle = DeckStyle.FRENCH
    symbols: bool = False
    """Write suits as ♠ ♥ ♦ ♣ (French and A-10 decks only)."""
    letters: CardLetters = ENGLISH_LETTERS
    """The language's letters for ranks and suits (:func:`conquian.present.letters.card_letters`)."""

    def label(self, index: int) -> str:
        """The card as the user would type it (``Kh``, or ``12c`` in a Spanish deck)."""
        return self.letters.label(index, self.deck)

    def text(self, index: int) -> str:
        """The card as shown."""
        if self.symbols and self.deck is not DeckStyle.SPANISH:
            rank = self.letters.rank_labels(self.deck)[index % NUM_RANKS]
            return rank + SUIT_SYMBOLS[index // NUM_RANKS]
        return self.label(index)

    def style(self, index: int) -> str:
        suit = index // NUM_RANKS
        if self.deck is DeckStyle.SPANISH:
            return _SPANISH_SUIT_STYLES[suit]
        return _FRENCH_SUIT_STYLES[suit]

    def suit_text(self, suit: int) -> str:
        if self.symbols and self.deck is not DeckStyle.SPANISH:
            return SUIT_SYMBOLS[suit]
        return self.letters.suit_labels(self.deck)[suit]

    def typed(self, mask: int) -> str:
        """Cards as the user types them, canonical order."""
        return " ".join([self.label(i) for i in mask_indices(mask)])

    @property
    def dash(self) -> str:
        return "\u2014" if self.symbols else "-"

    @property
    def bar(self) -> str:
        return "\u2502" if self.symbols else "|"

    @property
    def ellipsis(self) -> str:
        return "\u2026" if self.symbols else "..."

    @property
    def sep(self) -> str:
        """Between items on one line."""
        return "  \u00b7  " if self.symbols else "  -  "

    @property
    def dot(self) -> str:
        return "\u00b7" if self.symbols else "."


@lru_cache(maxsize=512)
def card_span(look: CardLook, index: int) -> Span:
    """One card, written as ``look`` writes it, carrying its index (spans are immutable:
    each is made once)."""
    return Span(look.text(index), look.style(index), index)


def cards_spans(look: CardLook, mask: int, sep: str = " ") -> Line:
    """The cards of a mask in canonical order (by suit, then rank)."""
    out: Line = []
    for i, index in enumerate(mask_indices(mask)):
        if i:
            out.append(Span(sep))
        out.append(card_span(look, index))
    return out


def hand_spans(look: CardLook, mask: int) -> Line:
    """A hand sorted by suit and rank, with a wider gap between suits."""
    groups = [mask & SUIT_MASKS[s] for s in range(NUM_SUITS) if mask & SUIT_MASKS[s]]
    out: Line = []
    for i, group in enumerate(groups):
        if i:
            out.append(Span("  "))
        out.extend(cards_spans(look, group))
    if not out:
        out.append(Span(look.dash, DIM))
    return out


def melds_spans(look: CardLook, melds: Iterable[int]) -> Line:
    """Melds separated by a bar, or a dash for none."""
    out: Line = []
    for i, meld in enumerate(melds):
        if i:
            out.append(Span(f"  {look.bar}  ", DIM))
        out.extend(cards_spans(look, meld))
    if not out:
        out.append(Span(look.dash, DIM))
    return out


def plain(line: Sequence[Span]) -> str:
    """The text of a line without styles."""
    return "".join(span.text for span in line)
