"""Cards as a language types them: its letters, and reading what a player typed.

Each language's catalogue says which letters stand for the ranks and suits (in Mexican
Spanish the French deck's suits are ``p c d t``: picas, corazones, diamantes, tréboles;
the Spanish deck keeps ``e c o b`` everywhere).  :func:`card_letters` gives them for the
language in use, and :func:`typed_cards` reads a typed line with them, a rank alone
included (``toma 5 7``): each card, or each card of the hand that a lone rank can be.
The engine's notation never changes; :func:`readings` writes each reading of a typed
line in it, for the engine to check.

>>> from conquian.cards import DeckStyle, parse_cards_mask
>>> from conquian.present.spans import CardLook
>>> look = CardLook(DeckStyle.FRENCH, letters=CardLetters(suits=("p", "c", "d", "t")))
>>> hand = parse_cards_mask("5s 5h 7h Kd")
>>> readings("5c 7", look, hand)
['5h 7h']
>>> readings("take 5 7", look, hand)
['take 5s 7h', 'take 5h 7h']
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from ..cards import NUM_RANKS, DeckStyle, card_label
from ..errors import InvalidNotationError
from .i18n import GAME_WORDS, current_language
from .spans import ENGLISH_LETTERS, CardLetters, CardLook

__all__ = ["TypedCard", "card_letters", "readings", "typed_cards"]

MAX_READINGS = 64
"""At most this many readings of one typed line (lone ranks multiply them)."""

_SEPARATORS = re.compile(r"[\s,;|/]+")
_SYMBOLS = {"♠": 0, "♤": 0, "♥": 1, "♡": 1, "♦": 2, "♢": 2, "♣": 3, "♧": 3}
_SPANISH_RANK_WORDS = {"as": 0, "sota": 7, "caballo": 8, "rey": 9}
_SPANISH_SUIT_WORDS = {"espadas": 0, "copas": 1, "oros": 2, "bastos": 3}


def _letters(text: str, count: int) -> tuple[str, ...] | None:
    """``count`` distinct letters written with spaces between, or None."""
    letters = tuple(text.split())
    if len(letters) != count or len({letter.casefold() for letter in letters}) != count:
        return None
    return letters


@lru_cache(maxsize=16)
def _language_letters(language: str) -> CardLetters:
    del language  # the cache's key: the catalogue below is the language in use
    words = GAME_WORDS
    ranks = _letters(
        # Translators: how a player types the ten ranks of the French deck in the terminal,
        # ace to king, separated by spaces (each one or two characters, all different).
        # Keep "A 2 3 4 5 6 7 J Q K" where players of your language type those.
        words.pgettext("rank letters", "A 2 3 4 5 6 7 J Q K"),
        NUM_RANKS,
    )
    suits = _letters(
        # Translators: how a player types the four suits of the French deck, in this order:
        # spades, hearts, diamonds, clubs (one letter each, all different), e.g. "p c d t"
        # for picas, corazones, diamantes, tréboles.
        words.pgettext("suit letters", "s h d c"),
        4,
    )
    spanish = _letters(
        # Translators: how a player types the four suits of the Spanish deck, in this order:
        # espadas, copas, oros, bastos (one letter each, all different).
        words.pgettext("Spanish suit letters", "e c o b"),
        4,
    )
    return CardLetters(
        ranks=ranks or ENGLISH_LETTERS.ranks,
        suits=suits or ENGLISH_LETTERS.suits,
        spanish_suits=spanish or ENGLISH_LETTERS.spanish_suits,
    )


def card_letters() -> CardLetters:
    """The letters of the language in use (the engine's own where its catalogue's letters
    are missing or not four (or ten) different ones).

    >>> from conquian.present.i18n import speaking
    >>> with speaking("es"):
    ...     card_letters().suits
    ('p', 'c', 'd', 't')
    >>> card_letters() == ENGLISH_LETTERS
    True
    """
    return _language_letters(current_language())


@dataclass(frozen=True, slots=True)
class TypedCard:
    """A card written in a typed line: where it stands, and each card it can be (one, or
    each card of the hand of a rank typed alone)."""

    start: int
    end: int
    cards: tuple[int, ...]
    text: str
    alone: bool
    """A rank typed without its suit."""


@lru_cache(maxsize=32)
def _pattern(look: CardLook) -> tuple[re.Pattern[str], dict[str, int], dict[str, int]]:
    letters = look.letters
    ranks = {rank.casefold(): r for r, rank in enumerate(letters.rank_labels(look.deck))}
    suits = {suit.casefold(): s for s, suit in enumerate(letters.suit_labels(look.deck))}
    if look.deck is DeckStyle.SPANISH:
        ranks |= _SPANISH_RANK_WORDS
        suits |= _SPANISH_SUIT_WORDS
    else:
        ranks.setdefault("1", 0)  # the ace as a number, as the engine reads it
    suits |= _SYMBOLS
    alternatives = sorted(ranks, key=len, reverse=True)
    suit_alternatives = sorted(suits, key=len, reverse=True)
    pattern = re.compile(
        "(?P<rank>{})(?:[ -]*(?:de +)?(?P<suit>{}))?(?=[\\s,;|/]|$)".format(
            "|".join(map(re.escape, alternatives)), "|".join(map(re.escape, suit_alternatives))
        ),
        re.IGNORECASE,
    )
    return pattern, ranks, suits


def typed_cards(text: str, look: CardLook, hand: int) -> list[TypedCard]:
    """The cards written in ``text`` with ``look``'s letters, in the order written; a rank
    alone stands for each card of that rank in ``hand``.

    >>> from conquian.cards import parse_cards_mask
    >>> look = CardLook()
    >>> [t.cards for t in typed_cards("5h, 7", look, parse_cards_mask("7s 7c"))]
    [(14,), (6, 36)]

    :raises InvalidNotationError: naming the first text that is not a card
        (``not_a_card``), a card written twice (``written_twice``), or a rank alone that
        no card of the hand has (``rank_not_in_hand``).
    """
    pattern, ranks, suits = _pattern(look)
    out: list[TypedCard] = []
    named = 0
    pos = 0
    while True:
        separator = _SEPARATORS.match(text, pos)
        if separator:
            pos = separator.end()
        if pos >= len(text):
            break
        match = pattern.match(text, pos)
        if match is None:
            bad = _SEPARATORS.split(text[pos:], maxsplit=1)[0]
            raise InvalidNotationError(f"{bad!r} is not a card", "not_a_card", bad)
        rank = ranks[match.group("rank").casefold()]
        suit_text = match.group("suit")
        if suit_text is None:
            cards = tuple(
                index for index in range(rank, 4 * NUM_RANKS, NUM_RANKS) if hand >> index & 1
            )
            if not cards:
                raise InvalidNotationError(
                    f"no {match.group('rank')!r} in the hand", "rank_not_in_hand", match.group()
                )
        else:
            index = suits[suit_text.casefold()] * NUM_RANKS + rank
            if named >> index & 1:
                raise InvalidNotationError(
                    f"{card_label(index)} is written twice", "written_twice", look.label(index)
                )
            named |= 1 << index
            cards = (index,)
        out.append(TypedCard(match.start(), match.end(), cards, match.group(), suit_text is None))
        pos = match.end()
    return out


def readings(text: str, look: CardLook, hand: int) -> list[str]:
    """Each way to read the cards typed in ``text`` (after a first word that is no card, a
    command), written in the engine's notation: one for a line without lone ranks, and
    ``text`` itself for one word that is no card.

    >>> readings("no", CardLook(), 0), readings("5h", CardLook(), 0)
    (['no'], ['5h'])

    :raises InvalidNotationError: as :func:`typed_cards`, for the text after the command
        where the first word is no card; ``written_twice`` where a lone rank could only be
        a card named already.
    """
    try:
        typed = typed_cards(text, look, hand)
        head = 0
    except InvalidNotationError:
        first = _SEPARATORS.split(text.strip(), maxsplit=1)
        if len(first) < 2 or not first[1]:
            return [text]  # one word, no card: a command alone
        head = text.index(first[1], text.index(first[0]) + len(first[0]))
        typed = typed_cards(text[head:], look, hand)
    out: list[str] = []
    for choice in itertools.product(*(t.cards for t in typed)):
        if len(set(choice)) < len(choice):
            continue  # one card read twice
        pieces: list[str] = [text[:head]]
        pos = head
        for token, index in zip(typed, choice, strict=True):
            pieces += [text[pos : head + token.start], card_label(index)]
            pos = head + token.end
        pieces.append(text[pos:])
        out.append("".join(pieces))
        if len(out) == MAX_READINGS:
            break
    if not out:  # a lone rank that only a card named already could be
        alone = next(t for t in typed if t.alone)
        raise InvalidNotationError(f"{alone.text!r} is written twice", "written_twice", alone.text)
    return out
