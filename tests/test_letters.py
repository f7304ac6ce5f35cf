"""Cards typed and written in each language's letters: the letters, reading them, a rank
alone, and what is refused (the engine's notation stays the same in every language)."""

from __future__ import annotations

import pytest

from conquian.cards import DeckStyle, parse_cards_mask
from conquian.errors import InvalidNotationError
from conquian.present.i18n import LANGUAGES, speaking
from conquian.present.letters import card_letters, readings, typed_cards
from conquian.present.spans import ENGLISH_LETTERS, CardLook

HAND = parse_cards_mask("5s 5h 7h Kd 2c")


def look_in(code: str, deck: DeckStyle = DeckStyle.FRENCH) -> CardLook:
    with speaking(code):
        return CardLook(deck, letters=card_letters())


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_each_language_has_ten_ranks_and_four_suits_each_different(code: str) -> None:
    letters = look_in(code).letters
    for deck in DeckStyle:
        ranks, suits = letters.rank_labels(deck), letters.suit_labels(deck)
        assert len({r.casefold() for r in ranks}) == 10, (code, deck, ranks)
        assert len({s.casefold() for s in suits}) == 4, (code, deck, suits)
        labels = {letters.label(i, deck).casefold() for i in range(40)}
        assert len(labels) == 40, (code, deck)  # each card written its own way


def test_in_mexican_spanish_the_french_suits_are_picas_corazones_diamantes_treboles() -> None:
    look = look_in("es")
    assert [look.label(i) for i in (0, 10, 20, 30)] == ["Ap", "Ac", "Ad", "At"]
    assert look_in("es", DeckStyle.SPANISH).label(17) == "10c"  # sota de copas, as in English
    assert look_in("en").label(10) == "Ah" and look_in("en").letters == ENGLISH_LETTERS
    assert look_in("ru").label(39) == "Кт"  # король треф


def test_spanish_letters_are_read_into_the_engine_s_cards() -> None:
    look = look_in("es")
    assert readings("toma 5c 7c", look, HAND) == ["toma 5h 7h"]  # corazones are hearts
    assert readings("2t", look, HAND) == ["2c"]  # tréboles are clubs
    assert readings("paga K♦", look, HAND) == ["paga Kd"]  # the symbols work too
    with pytest.raises(InvalidNotationError) as error:
        readings("toma 5h", look, HAND)  # h is no suit in Spanish
    assert (error.value.fault, error.value.token) == ("not_a_card", "5h")


def test_a_rank_alone_is_each_card_of_the_hand_it_can_be() -> None:
    look = look_in("es")
    assert readings("toma 7 K", look, HAND) == ["toma 7h Kd"]
    assert readings("toma 5 7", look, HAND) == ["toma 5s 7h", "toma 5h 7h"]
    assert readings("toma 5 5", look, HAND) == ["toma 5s 5h", "toma 5h 5s"]
    assert readings("toma 5c 5", look, HAND) == ["toma 5h 5s"]  # the one not named already
    assert [t.cards for t in typed_cards("5, 7", look, HAND)] == [(4, 14), (16,)]
    with pytest.raises(InvalidNotationError) as error:
        readings("toma 3", look, HAND)
    assert (error.value.fault, error.value.token) == ("rank_not_in_hand", "3")
    with pytest.raises(InvalidNotationError) as error:
        readings("toma 7c 7", look, HAND)
    assert (error.value.fault, error.value.token) == ("written_twice", "7")


def test_a_card_written_twice_is_named_in_the_player_s_letters() -> None:
    with pytest.raises(InvalidNotationError) as error:
        readings("toma 5c 5C", look_in("es"), HAND)
    assert (error.value.fault, error.value.token) == ("written_twice", "5c")


def test_the_spanish_deck_reads_numbers_and_words() -> None:
    look = look_in("es", DeckStyle.SPANISH)
    hand = parse_cards_mask("10c 12b 1o", DeckStyle.SPANISH)
    assert readings("toma sota de copas 12", look, hand) == ["toma Jh Kc"]
    assert readings("1", look, hand) == ["Ad"]


def test_lines_that_hold_no_card_are_left_as_typed() -> None:
    look = look_in("es")
    assert readings("no", look, HAND) == ["no"]
    assert readings("fuerza", look, HAND) == ["fuerza"]
    with pytest.raises(InvalidNotationError):
        readings("toma siete", look, HAND)
