"""Words in the language chosen: negotiation, fallback, and the catalogues themselves."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conquian.errors import IllegalActionError
from conquian.game import Game
from conquian.notation import parse_action, parse_position
from conquian.play import terminal_words
from conquian.play.terminal_words import TERMINAL_WORDS
from conquian.present.errors import illegal_action_words as illegal_action_line
from conquian.present.i18n import (
    GAME_WORDS,
    LANGUAGES,
    LOCALE_DIR,
    Domain,
    choose_language,
    current_language,
    language_from_environment,
    negotiate,
    speaking,
)
from conquian.present.rules_text import (
    EM,
    PRESET_SOURCES,
    describe,
    flag_sentence,
    help_summary,
    how_to_play,
    rules_heading,
)
from conquian.present.spans import BOLD, CardLook, plain
from conquian.present.words import Names, describe_events, hand_count, situation
from conquian.rules import find_rules
from conquian.state import Phase

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogues  # noqa: E402


def illegal_action_words(exc: IllegalActionError, names: Names) -> str:
    """The error's words as text (a line's spans joined)."""
    return plain(illegal_action_line(exc, names))


def test_the_catalogues_are_up_to_date_complete_and_consistent() -> None:
    assert catalogues.check() == []


def test_languages_are_negotiated_from_locale_codes() -> None:
    assert negotiate(["es-MX"]) == negotiate(["es_MX.UTF-8"]) == negotiate(["ES"]) == "es"
    assert negotiate(["fr", "de-CH", "kn-IN"]) == "kn"
    assert negotiate([]) == negotiate(["C"]) == negotiate(["POSIX"]) == "en"
    assert language_from_environment({"LANGUAGE": "ru:en", "LANG": "es_MX.UTF-8"}) == "ru"
    assert language_from_environment({"LC_MESSAGES": "hr_HR.UTF-8"}) == "hr"
    assert language_from_environment({}) == "en"
    assert choose_language("tr", {"LANG": "es_MX.UTF-8"}) == "tr"
    with pytest.raises(ValueError, match=r"Unknown language 'xx'.*es \(Español"):
        choose_language("xx")
    assert set(LANGUAGES) == {"en", "es", "kn", "hr", "tr", "ru"}


def test_speaking_is_scoped_and_falls_back_to_english() -> None:
    words = Domain("conquian")
    assert current_language() == "en"
    with speaking("es"):
        assert current_language() == "es"
        assert words.gettext("Take it or decline it?") == "¿La tomas o la pasas?"
        assert words.gettext("a sentence nobody wrote") == "a sentence nobody wrote"
        assert hand_count(1) == "1 carta en la mano" and hand_count(7) == "7 cartas en la mano"
    assert current_language() == "en"
    assert hand_count(1) == "1 card in hand"
    with speaking("xx"):
        assert current_language() == "en"
    missing = Domain("no-such-domain")
    with speaking("es"):
        assert missing.gettext("Take it or decline it?") == "Take it or decline it?"


def english_words() -> set[str]:
    """Every English word of the game's and the terminal's catalogues, placeholders left out."""
    words: set[str] = set()
    for domain in TERMINAL_DOMAINS:
        for message in catalogues.read(catalogues.LOCALE / f"{domain}.pot"):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            for text in ids:
                for word in catalogues.PLACEHOLDER.sub(" ", text).split():
                    word = word.strip(".,;:!?()'\"").lower()
                    if len(word) > 3 and word.isalpha():
                        words.add(word)
    return words


TERMINAL_DOMAINS = (GAME_WORDS.name, TERMINAL_WORDS.name)
"""The catalogues of what the terminal shows: the game's words and its own."""


def _template(domain: str) -> set[tuple[str | tuple[str, ...], str | None]]:
    return {(m.id, m.context) for m in catalogues.read(catalogues.LOCALE / f"{domain}.pot") if m.id}


def test_the_domains_are_the_layers_and_share_no_message() -> None:
    assert set(catalogues.DOMAINS) == {"conquian", "conquian-terminal", "conquian-web"}
    assert GAME_WORDS.name == "conquian" and TERMINAL_WORDS.name == "conquian-terminal"
    game, terminal = _template("conquian"), _template("conquian-terminal")
    assert not game & terminal, game & terminal
    ids = {i for i, _context in terminal}
    # the terminal's own words: its prompts, its help, --help and argparse's words
    assert {"take or decline> ", "Commands", "play a game in the terminal", "usage: "} <= ids
    assert ("take", "command") in game and (" (your table: {melds})", None) in game  # shared
    for code in catalogues.LANGUAGES:  # complete and shipped in every language
        assert catalogues.REQUIRED["conquian-terminal"] == catalogues.LANGUAGES
        assert (LOCALE_DIR / code / "LC_MESSAGES" / "conquian-terminal.mo").is_file()


def test_the_terminal_words_come_from_their_own_catalogue() -> None:
    with speaking("es"):
        assert terminal_words.thanks() == "¡Gracias por jugar!"
        assert terminal_words.prompt_for(Phase.OFFER) == "toma o paso> "
        assert GAME_WORDS.gettext("Thanks for playing!") == "Thanks for playing!"  # not there
        assert TERMINAL_WORDS.gettext("Take it or decline it?") == "Take it or decline it?"
        assert GAME_WORDS.gettext("Take it or decline it?") == "¿La tomas o la pasas?"
    with speaking("kn"):
        assert terminal_words.prompt_for(Phase.DISCARD) == "ತ್ಯಜಿಸು> "
    with speaking("xx"):  # an unknown language: English, no error
        assert terminal_words.thanks() == "Thanks for playing!"
    assert terminal_words.thanks() == "Thanks for playing!"


def test_a_whole_deal_in_spanish_has_no_english_word_left() -> None:
    english = english_words() - {"conquian"}
    spanish_too = {"mano"}  # none today, kept for words both languages share
    look = CardLook()
    for seed in range(5):
        game = Game("tercerilla", seed=seed)
        names = Names(("Ana", "Beto", "Carla"), me=0)
        with speaking("es"):
            lines: list[str] = []
            while not game.state.is_over:
                obs = game.observation(game.state.to_act)
                lines.append(plain(situation(obs, Names(names.names, me=obs.viewer), look)))
                game.push(obs.legal_actions[-1])
            lines += [plain(line) for line in describe_events(game.history, names, look, 9)]
        text = " ".join(lines).lower()
        found = {w for w in english if f" {w} " in f" {text} "} - spanish_too
        assert not found, (found, text[:500])
        assert "baceta" in text or "pasó" in text


# Words the Spanish text shares with the English catalogue: the names of the Spanish cards
# and suits, the game's Spanish names, proper names, and "once" (eleven).
SHARED_WITH_SPANISH = {
    "sota",
    "caballo",
    "oros",
    "copas",
    "espadas",
    "bastos",
    "conquián",
    "mexicano",
    "tercerilla",
    "pagat",
    "hoyle",
    "foster",
    "complete",  # R. F. Foster's "Complete Hoyle", a title
    "once",
}


def _english_left(text: str) -> set[str]:
    words = {w.strip(".,;:!?()'\"*").lower() for w in text.split()}
    return (words & english_words()) - SHARED_WITH_SPANISH


@pytest.mark.parametrize("preset", ["standard", "mexican", "tercerilla"])
def test_the_rules_in_spanish_have_no_english_word_left(preset: str) -> None:
    rules = find_rules(preset)
    with speaking("es"):
        text = describe(rules)
        heading = rules_heading(rules)
        short = " ".join(help_summary(rules))
        page = " ".join(plain(line) for section in how_to_play(rules) for line in section.lines)
        headings = " ".join(section.heading for section in how_to_play(rules))
        source = PRESET_SOURCES[preset]
    assert "\nOpciones:\n" in text
    prose = text[: text.index("\nOpciones:")].replace(rules.to_spec(), "")  # the spec is code
    for words in (prose, heading.replace(rules.to_spec(), ""), short, page, headings, source):
        assert words and not _english_left(words), (_english_left(words), words[:300])
    assert "baceta" in prose and "tercias" in prose
    # the flags are code: their names and values stay as they are typed
    assert text[text.index("\nOpciones:") :] == describe(rules)[
        describe(rules).index("\nFlags:") :
    ].replace("\nFlags:", "\nOpciones:")


def test_the_rules_in_spanish_keep_numbers_bold_and_terms() -> None:
    rules = find_rules("mexican,hand_size=9")
    with speaking("es"):
        prose = describe(rules)
        goal = how_to_play(rules)[1].lines[0]
    assert prose.startswith("Conquián para tres jugadores (reglas mexican,hand_size=9).")
    assert "A cada jugador se le reparten 9 cartas" in prose
    assert "Las otras 13 cartas forman la baceta" in prose
    assert "Ganas al bajar exactamente 10 cartas" in prose
    assert "".join(s.text for s in goal if s.style == BOLD) == "10 cartas"
    assert [s.text for s in goal if s.style == EM] == ["tercias", "cuartetos", "corridas"]
    assert "Tus nueve cartas de la mano más una tomada del centro hacen las diez." in plain(goal)


@pytest.mark.parametrize("domain", TERMINAL_DOMAINS)
def test_markup_of_bold_and_italic_words_is_kept_in_every_translation(domain: str) -> None:
    for code in catalogues.LANGUAGES:
        po = catalogues.LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
        for message in catalogues.read(po):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for string in filter(None, strings):
                # as many words in bold; words in italics if the English has some, in pairs
                assert string.count("**") == ids[0].count("**"), (code, ids[0], string)
                italic = string.replace("**", "").count("*")
                assert italic % 2 == 0, (code, ids[0], string)
                assert bool(italic) == ("*" in ids[0].replace("**", "")), (code, ids[0], string)


def _refused(position: str, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        parse_action(parse_position(position), text)
    return info.value


def test_an_illegal_action_in_spanish_is_spanish_and_names_the_cards() -> None:
    names = ("Ana", "Beto")
    discard = _refused("standard discard 0 1 * * - - - - * 1", "discard Kh")
    passing = _refused(
        "standard turn 0 1 5h5d6c7cQsAd2dKsJh3s * - - Kc:t - * 1", "pass 5c 4c 6c 7c"
    )
    with speaking("es"):
        mine = illegal_action_words(discard, Names(names, me=0))
        theirs = illegal_action_words(discard, Names(names, me=1))
        several = illegal_action_words(passing, Names(names, me=0))
    assert mine == "No puedes pagar Kh: no está en tu mano."
    assert theirs == "No se puede pagar Kh: no está en la mano de Ana."
    assert several == "4c 5c no están en tu mano."
    for words in (mine, theirs, several):
        assert not _english_left(words), words
    assert str(discard) == "Cannot discard Kh: it is not in player 0's hand."  # the engine's


def test_the_english_words_are_unchanged() -> None:
    mexican = describe(find_rules("mexican"))
    assert mexican.startswith("Conquian for three players (mexican rules).\n\n")
    assert (
        "\nEach player gets 8 cards dealt one at a time, starting with the player on the "
        "dealer's right.\n" in mexican
    )
    assert (
        "\nA drawn deal carries its stake over: the next decided deal is worth one more unit "
        "for each draw just before it.\n" in mexican
    )
    assert help_summary(find_rules("standard"))[2] == (
        "After a take you discard one card. If you refuse a card that fits your melds as they "
        "lie, your opponent may force you to take it."
    )
    goal = how_to_play(find_rules("bicycle"))[1]
    assert goal.heading == "Goal"
    assert [(s.text, s.style) for s in goal.lines[0] if s.style] == [
        ("11 cards", BOLD),
        ("sets", EM),
        ("runs", EM),
    ]
    assert plain(goal.lines[0]).endswith(
        "*runs* of three or more cards of one suit in order (A 2 3 4 5 6 7 J Q K; no "
        "wrap-around). Your ten hand cards plus one card taken from the centre make the "
        "eleven.".replace("*", "")
    )
    assert flag_sentence(find_rules("standard,base_stake=3"), "draw_stake") == (
        "A drawn deal carries its stake over: the next decided deal is worth 3 more units for "
        "each draw just before it."
    )
    assert flag_sentence(find_rules("standard,hand_size=1"), "hand_size") == (
        "Each player gets 1 card dealt one at a time, non-dealer first."
    )
    assert rules_heading(find_rules("mexican")) == "Every rule of the mexican game"
    error = _refused("standard discard 0 1 * * - - - - * 1", "discard Kh")
    assert illegal_action_words(error, Names(("Ana", "Ben"), me=1)) == (
        "Cannot discard Kh: it is not in Ana's hand."
    )
