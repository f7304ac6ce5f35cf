"""The guided first hand (*Aprende a jugar*): its deal, its words in every language, and
``conquian learn`` played to its end in a pseudo-terminal."""

from __future__ import annotations

import os
import re
import sys

import pexpect
import pytest

from conquian.actions import ActionKind
from conquian.bots import BOT_NAMES, make_bot
from conquian.bots.lesson import (
    COMPUTER,
    LEARNER,
    LESSON_MOVES,
    expected_action,
    lesson_game,
    lesson_match,
)
from conquian.errors import ConquianError
from conquian.game import Game
from conquian.observation import observe
from conquian.present.i18n import LANGUAGES, speaking
from conquian.present.lesson import (
    LESSON_TOPICS,
    lesson_end,
    lesson_intro,
    lesson_refusal,
    lesson_step,
)
from conquian.present.spans import CardLook, plain
from conquian.rules import find_rules
from conquian.seats import Seat, SeatDriver
from conquian.state import Phase

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_the_lesson_teaches_each_thing_once_in_order_and_the_learner_goes_out() -> None:
    game = lesson_game()
    assert game.rules == find_rules("mexican,num_players=2") and game.state.dealer == COMPUTER
    phases = []
    for move in LESSON_MOVES:
        assert game.state.to_act == move.seat
        phases.append((move.topic, game.state.phase))
        game.push_text(move.action)
    topics = [topic for topic, _ in phases if topic]
    assert tuple(topics) == LESSON_TOPICS
    taught = dict(phases)
    assert taught["exchange"] is Phase.EXCHANGE and taught["force"] is Phase.FORCE
    assert taught["take_turned"] is Phase.TURN and taught["pass"] is Phase.TURN
    assert taught["take_paid"] is Phase.OFFER and taught["decline"] is Phase.OFFER
    outcome = game.state.outcome()
    assert outcome is not None and outcome.winner == LEARNER
    assert game.state.hand(LEARNER).mask == 0 and game.state.table(LEARNER).mask.bit_count() == 9
    assert all(m.topic == "" for m in LESSON_MOVES if m.seat == COMPUTER)


def test_the_computer_plays_its_part_through_the_seat_driver_and_nothing_else() -> None:
    match = lesson_match(("learner", "computer"))
    match.deal = None  # dealt again by the driver, from the lesson's deck
    match.games.clear()
    bot = make_bot("lesson")
    driver = SeatDriver([Seat("learner"), Seat("computer", bot)], match=match)
    from conquian.bots.lesson import LESSON_DECK

    game = driver.start(deck=LESSON_DECK)
    while not game.state.is_over:
        if driver.bot_to_act() is not None:
            driver.push(COMPUTER, driver.bot_turn().decide())
        else:
            expected = expected_action(game)
            assert expected is not None
            driver.push(LEARNER, expected)
    assert game.state.outcome().winner == LEARNER  # type: ignore[union-attr]
    assert "lesson" not in BOT_NAMES  # offered to nobody
    other = Game("mexican,num_players=2", seed=5, dealer=1)
    bot.new_deal(COMPUTER, other.rules)
    other.push(other.legal_actions()[0])
    with pytest.raises(ConquianError, match="lesson"):
        bot.act(other.observation(COMPUTER))


def _steps(code: str) -> list[tuple[str, str, set[int]]]:
    """Each step the learner reads, in ``code``: its topic, its words, its cards."""
    game = lesson_game()
    out = []
    with speaking(code):
        for move in LESSON_MOVES:
            if move.topic:
                obs = game.observation(LEARNER)
                action = expected_action(game)
                assert action is not None
                line = lesson_step(move.topic, obs, action, "Bot", CardLook())
                refusal = lesson_refusal(move.topic, action, obs, CardLook())
                cards = {s.card for s in [*line, *refusal] if s.card is not None}
                out.append((move.topic, plain(line) + " " + plain(refusal), cards))
            game.push_text(move.action)
    return out


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_step_is_worded_in_every_language_and_names_no_hidden_card(code: str) -> None:
    """The words of each step: translated (not the English), with their cards as card spans;
    a card named is one the learner may know (his hand, a table, the centre, the dead pile,
    what he passed or received): never the computer's hand or the stock."""
    english = _steps("en")
    steps = _steps(code)
    game = lesson_game()
    seen = 0
    for move in LESSON_MOVES:
        if move.topic:
            topic, words, cards = steps[seen]
            obs = observe(game.state, LEARNER)
            known = obs.hand_mask | obs.dead_mask | sum(1 << c for c in _table_cards(obs))
            known |= (1 << obs.centre) if obs.centre >= 0 else 0
            action = expected_action(game)
            assert action is not None
            if action.card >= 0:
                known |= 1 << action.card
            assert cards and all(known >> c & 1 for c in cards), (topic, words)
            assert "{" not in words, words
            if code != "en":
                assert words != english[seen][1], (code, topic)
            seen += 1
        game.push_text(move.action)
    with speaking(code):
        framing = [plain(line) for line in [*lesson_intro(9), *lesson_end(9)]]
    assert all("9" in text for text in (framing[1], framing[2])), framing


def _table_cards(obs: object) -> list[int]:
    tables = obs.tables  # type: ignore[attr-defined]
    return [c for table in tables for meld in table for c in range(40) if meld >> c & 1]


def _learn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="110", LINES="60")
    child = pexpect.spawn(
        sys.executable,
        ["-c", "import sys; from conquian.cli import main; sys.exit(main())", "learn", *args],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 110),
    )
    child.delaybeforesend = None
    return child


def test_conquian_learn_in_spanish_played_to_its_end_in_a_terminal() -> None:
    """The whole lesson typed in Spanish, a wrong move answered with what the lesson asks,
    and its last words."""
    child = _learn("--lang", "es", "--plain")
    prompt = re.compile(r"(cambia|toma o paso|paga|fuerza o no)> ")
    typed = iter(
        [
            ("cambia", "cambia 5o", "Esa no: la lección te pide que pases 6b."),
            ("cambia", "cambia 6b", None),
            ("toma o paso", "paso", "Ahorita no: la lección te pide que tomes 7b."),
            ("toma o paso", "toma", None),
            ("paga", "12b", None),
            ("toma o paso", "paso", None),
            ("toma o paso", "paso", None),
            ("fuerza o no", "no", "Ahorita no: la lección te pide que la fuerces."),
            ("fuerza o no", "fuerza", None),
            ("toma o paso", "toma", None),
            ("paga", "paga 2b", None),
            ("toma o paso", "toma", None),
        ]
    )
    screens = []
    answer: str | None = None
    for kind, text, answer_next in typed:
        child.expect(prompt)
        screen = ANSI.sub("", child.before)
        screens.append(screen)
        assert child.match.group(1) == kind, screen
        if answer is not None:
            assert answer in screen, (answer, screen)
        child.sendline(text)
        answer = answer_next
    child.expect(pexpect.EOF)
    end = ANSI.sub("", child.before)
    child.close()
    assert child.exitstatus == 0, end
    assert "Aprende a jugar" in screens[0] and "Primero, el cambio" in screens[0]
    assert "Bot te pasó 4o en el cambio" in screens[2]
    assert "puedes forzarla" in screens[7]
    assert "¡Ganaste! Bajaste 9 cartas." in end
    assert "Ya sabes cambiar, tomar, pagar, pasar, forzar y salir" in end


def test_conquian_learn_stopped_says_how_to_start_again() -> None:
    child = _learn("--lang", "es", "--plain")
    child.expect("cambia> ")
    child.sendline("guardar")
    child.expect(pexpect.EOF)
    child.close()
    assert "Lección detenida. conquian learn la vuelve a empezar" in ANSI.sub("", child.before)
    assert child.exitstatus == 0


def test_every_computer_move_is_legal_where_it_comes() -> None:
    game = lesson_game()
    for move in LESSON_MOVES:
        action = expected_action(game)
        assert action is not None and game.state.is_legal(action)
        if move.seat == COMPUTER and action.kind is ActionKind.TAKE:
            assert game.state.phase in (Phase.TURN, Phase.FORCED)
        game.push(action)
    assert expected_action(game) is None
