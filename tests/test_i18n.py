"""Words in the language chosen: negotiation, fallback, and the catalogues themselves."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conquian.game import Game
from conquian.present.i18n import (
    LANGUAGES,
    Domain,
    choose_language,
    current_language,
    language_from_environment,
    negotiate,
    speaking,
)
from conquian.present.spans import CardLook, plain
from conquian.present.words import Names, describe_events, hand_count, situation

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogues  # noqa: E402


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
    """Every English word of the game's catalogue, placeholders left out."""
    words: set[str] = set()
    for message in catalogues.read(catalogues.LOCALE / "conquian.pot"):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            for word in catalogues.PLACEHOLDER.sub(" ", text).split():
                word = word.strip(".,;:!?()'\"").lower()
                if len(word) > 3 and word.isalpha():
                    words.add(word)
    return words


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
