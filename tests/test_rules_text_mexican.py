"""The rules in words for the Mexican game (``mexican``, alias ``tercerilla``) and the flags
of two to four players: ``num_players``, ``exchange_one_card`` and ``force_by``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conquian.present.rules_text import (
    PRESET_SOURCES,
    describe,
    flag_sentence,
    help_summary,
    how_to_play,
)
from conquian.present.spans import plain
from conquian.rules import PRESETS, Rules, find_rules

TWO_PLAYER_PRESETS = [name for name, rules in PRESETS.items() if rules.num_players == 2]

# Words that only a game of three or four players may use.
MANY_PLAYER_WORDS = (
    "on your right",
    "on his right",
    "round to the right",
    "each other player in turn",
    "Every other player pays",
    "Three players",
    "Four players",
)
EXCHANGE_WORDS = ("pass face down", "passes one hand card face down", "swap one card")


def _prose(rules: Rules) -> str:
    text = describe(rules)
    return text[: text.index("\nFlags:")]


def _page(rules: Rules) -> str:
    return " ".join(plain(line) for section in how_to_play(rules) for line in section.lines)


def _help(rules: Rules) -> str:
    return " ".join(help_summary(rules))


def _all_words(rules: Rules) -> str:
    return " ".join((_prose(rules), _page(rules), _help(rules)))


# ------------------------------------------------------------------ the mexican preset


def test_mexican_text_states_the_table_and_the_deal() -> None:
    prose = _prose(find_rules("mexican"))
    assert prose.startswith("Conquian for three players (mexican rules).")
    assert "Spanish pack" in prose
    assert "Three players sit round the table, and play passes to the player on your right." in (
        prose
    )
    assert (
        "Each player gets 8 cards dealt one at a time, starting with the player on the dealer's right."
        in prose
    )
    assert "The other 16 cards form the stock" in prose
    assert "then the deal passes to the player on the dealer's right" in prose
    assert "You win by melding exactly 9 cards" in prose
    assert "8 melded and an empty hand after a discard is not out" in prose
    for two_player in ("non-dealer", "the deal alternates", "10 cards", "11 cards", "20 cards"):
        assert two_player not in prose, two_player


def test_mexican_text_states_the_exchange() -> None:
    prose = _prose(find_rules("mexican"))
    assert (
        "each player picks one card of his hand to pass face down to the player on his right"
        in prose
    )
    assert "in turn from the player on the dealer's right round to the dealer" in prose
    assert "nobody learns another player's pick" in prose
    assert "all the picked cards move at once" in prose
    assert "sees only the card he receives" in prose
    assert "swap" not in prose  # a swap is the two-player exchange


def test_mexican_text_states_the_offer_round() -> None:
    prose = _prose(find_rules("mexican"))
    assert "The player on the dealer's right begins by turning the top stock card." in prose
    assert "offered first to the player who turned it, then to each other player in turn" in prose
    assert "starting with the player on the right of the one who paid it" in prose
    assert "never comes back to him" in prose
    assert "The first player who takes the card" in prose
    assert "pays (discards) one card" in prose
    assert "A card nobody takes is dead" in prose
    assert "the player on the right of the one who turned or paid it turns the next stock card" in (
        prose
    )
    # the two-player turn is not stated as well
    assert "the card your opponent discarded or passed" not in prose


def test_mexican_text_states_forcing_by_the_offerer() -> None:
    prose = _prose(find_rules("mexican"))
    assert "Only the player who turned or paid (discarded) the card may force it" in prose
    assert "a player who passes a card he turned himself cannot be forced with it" in prose
    assert "his opponent may force him" not in prose
    # force_scope any_declined would say that a passed own card can be forced: not here
    assert "to a stock card he turned and passed" not in prose


def test_mexican_stake_is_paid_by_every_other_player() -> None:
    prose = _prose(find_rules("mexican"))
    assert "Every other player pays the winner of a deal the deal's stake." in prose
    assert "The loser of a deal pays" not in prose
    assert "Every other player pays the winner." in _help(find_rules("mexican"))


def test_mexican_flag_sentences_name_each_non_default_flag() -> None:
    rules = find_rules("mexican")
    prose = _prose(rules)
    differences = rules.differences(Rules())
    assert set(differences) == {
        "deck_style",
        "hand_size",
        "num_players",
        "exchange_one_card",
        "force_by",
    }
    for flag in differences:
        sentence = flag_sentence(rules, flag)
        assert sentence and sentence in prose, flag
        assert sentence != flag_sentence(Rules(), flag), flag
        default = flag_sentence(Rules(), flag)
        if default:
            assert default not in prose, flag


def test_mexican_page_and_help() -> None:
    rules = find_rules("mexican")
    page, summary = _page(rules), _help(rules)
    assert page.startswith("Three players, a 40-card deck")
    assert "Play passes to the player on your right." in page
    assert "Be the first to have 9 cards" in page
    assert "Your eight hand cards plus one card taken from the centre make the nine." in page
    assert "Each player is dealt 8 cards; the other 16 form the stock" in page
    assert "The player on the dealer's right plays first." in page
    assert "the player on your left turned or paid" in page
    assert "the player who turned or paid it may force you to take it" in page
    assert "a card you turned yourself is never forced on you" in page
    assert "Each of you holds 8 cards. Win by having 9 cards" in summary
    for text in (page, summary):
        assert "passes one hand card face down to the player on his right" in text
        assert "offered first to the player who turned it" in text
        assert "your opponent" not in text and "non-dealer" not in text


def test_mexican_source_sentence() -> None:
    source = PRESET_SOURCES["mexican"]
    assert "tercerilla" in source and "three players" in source
    assert "exchanged" in source
    assert set(PRESETS) <= set(PRESET_SOURCES)


# ------------------------------------------------------------------ tercerilla


def test_tercerilla_reads_as_mexican() -> None:
    rules = find_rules("tercerilla")
    assert describe(rules) == describe(find_rules("mexican"))
    assert describe(rules).startswith("Conquian for three players (mexican rules).")
    assert help_summary(rules) == help_summary(find_rules("mexican"))
    assert PRESET_SOURCES["tercerilla"] == PRESET_SOURCES["mexican"]


def _cli_rules(spec: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "conquian.cli", "rules", spec],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_cli_rules_tercerilla_prints_the_mexican_rules() -> None:
    mexican = _cli_rules("mexican")
    assert _cli_rules("tercerilla") == mexican
    assert describe(find_rules("mexican")) in mexican
    assert PRESET_SOURCES["mexican"] in mexican


# ------------------------------------------------------------------ variants of mexican


def test_mexican_for_two_players() -> None:
    rules = find_rules("mexican,num_players=2")
    prose = _prose(rules)
    assert prose.startswith("Conquian for two players (mexican,num_players=2 rules).")
    assert "Each player gets 8 cards dealt one at a time, non-dealer first." in prose
    assert "The other 24 cards form the stock" in prose
    assert "then the deal alternates" in prose
    # the exchange is a swap with the opponent
    assert "pass face down to his opponent, the non-dealer first" in prose
    assert "(so the two players swap one card)" in prose
    # the two-player turn, and no words of a table round
    assert "the card your opponent discarded or passed" in prose
    for words in MANY_PLAYER_WORDS:
        assert words not in _all_words(rules), words
    assert "The loser of a deal pays the winner the deal's stake." in prose
    # forcing is still by the offerer: a passed own card cannot be forced
    assert "a player who passes a card he turned himself cannot be forced with it" in prose
    assert "his opponent may force him" not in prose
    assert "passes one hand card face down to his opponent" in _page(rules)
    assert "The non-dealer plays first." in _page(rules)


def test_mexican_with_nine_cards() -> None:
    rules = find_rules("mexican,hand_size=9")
    prose = _prose(rules)
    assert "Each player gets 9 cards dealt one at a time" in prose
    assert "The other 13 cards form the stock" in prose
    assert "You win by melding exactly 10 cards" in prose
    assert "9 melded and an empty hand after a discard is not out" in prose
    assert "gets 8 cards" not in prose and "exactly 9 cards" not in prose
    page = _page(rules)
    assert "Be the first to have 10 cards" in page
    assert "Your nine hand cards plus one card taken from the centre make the ten." in page
    assert "Each of you holds 9 cards. Win by having 10 cards" in _help(rules)


def test_mexican_for_four_players() -> None:
    rules = find_rules("mexican,num_players=4")
    prose = _prose(rules)
    assert prose.startswith("Conquian for four players (mexican,num_players=4 rules).")
    assert "Four players sit round the table, and play passes to the player on your right." in (
        prose
    )
    assert "The other 8 cards form the stock" in prose
    assert _page(rules).startswith("Four players, a 40-card deck")
    assert "Every other player pays the winner" in prose


def test_many_players_fewest_cards_and_points() -> None:
    rules = find_rules("mexican,exhaustion=fewest_hand_cards,scoring=points,draw_stake=none")
    prose = _prose(rules)
    assert "the player with the fewest cards in hand wins (a tie for fewest is a draw)" in prose
    assert "fewer cards" not in prose
    assert "The winner scores the cards left in every other player's hand" in prose
    assert "the points of his own hand" in prose
    assert "Every other player pays" not in _help(rules)  # points, not a stake
    assert "if several tie for fewest the deal is drawn" in _page(rules)
    assert "the player with the fewest cards in hand wins" in _help(rules)


def test_many_players_without_forcing_say_nothing_of_the_forcer() -> None:
    rules = find_rules("mexican,forcing=off")
    assert flag_sentence(rules, "force_by") == ""
    words = _all_words(rules)
    assert "Nobody can be forced to take a card." in words
    assert "may force" not in words and "turned or paid (discarded)" not in words


def test_automatic_forcing_by_the_offerer() -> None:
    rules = find_rules("mexican,forcing=automatic")
    prose = _prose(rules)
    assert "is always forced on him" in prose
    assert "a player who passes a card he turned himself is not forced with it" in prose
    assert "may force" not in prose


def test_offered_only_with_the_offerer() -> None:
    rules = find_rules("mexican,force_scope=offered_only")
    sentence = flag_sentence(rules, "force_scope")
    assert sentence == "Forcing applies only to a card offered to him that he declines."
    assert sentence in _prose(rules)
    assert flag_sentence(find_rules("mexican"), "force_scope") == ""


def test_low_cut_with_three_players() -> None:
    prose = _prose(find_rules("mexican,first_dealer=low_cut"))
    assert "Every player cuts; the lowest card deals first" in prose
    assert "Both players cut" not in prose


def test_flag_table_lists_the_new_flags() -> None:
    text = describe(find_rules("mexican"))
    table = text[text.index("\nFlags:") :].splitlines()
    assert "  num_players        3" in table
    assert "  exchange_one_card  True" in table
    assert "  force_by           offerer" in table
    assert "  hand_size          8" in table
    assert "  layoff_on_opponent  False" in table


# ------------------------------------------------------------------ two-player presets


@pytest.mark.parametrize("preset", TWO_PLAYER_PRESETS)
def test_two_player_presets_say_nothing_of_the_exchange_or_more_players(preset: str) -> None:
    rules = find_rules(preset)
    words = _all_words(rules)
    assert _prose(rules).startswith(f"Conquian for two players ({preset} rules).")
    for phrase in (*MANY_PLAYER_WORDS, *EXCHANGE_WORDS, "pays (discards)", "turned or paid"):
        assert phrase not in words, (preset, phrase)
    for flag in ("num_players", "exchange_one_card", "force_by"):
        assert flag_sentence(rules, flag) == "", (preset, flag)


def test_two_player_exchange_alone() -> None:
    rules = find_rules("standard,exchange_one_card=true")
    prose = _prose(rules)
    assert "(so the two players swap one card)" in prose
    assert "his opponent may force him to take it" in prose  # force_by stays opponent
    assert "to a stock card he turned and passed" in prose
    for words in MANY_PLAYER_WORDS:
        assert words not in _all_words(rules), words
