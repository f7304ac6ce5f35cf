"""``conquian learn``: the guided first hand in the terminal.

The lesson is a game against the computer like any other on screen (the same board, the
same commands, help and hints), with three differences: the deal and the computer's moves
are the lesson's (:mod:`conquian.bots.lesson`), each of the learner's moves is announced
by the lesson's words (:mod:`conquian.present.lesson`) and only that move is played (any
other is answered with what the lesson asks instead), and nothing is saved.
"""

from __future__ import annotations

from ..actions import Action
from ..bots.lesson import (
    COMPUTER,
    LEARNER,
    LESSON_DECK,
    LESSON_MATCH_SEED,
    LESSON_RULES,
    expected_action,
    lesson_move,
)
from ..present.lesson import lesson_end, lesson_intro, lesson_refusal, lesson_step
from ..present.spans import Line
from .session import Session
from .storage import SavedMatch, Store
from .terminal_words import BOT_NAME, PERSON_NAME, lesson_stopped_line
from .ui import Screen


def lesson_saved() -> SavedMatch:
    """The lesson's match as a session plays it (it is never written)."""
    return SavedMatch(
        rules=LESSON_RULES,
        match_seed=LESSON_MATCH_SEED,
        bot_seed=0,
        opponent="lesson",
        names=(PERSON_NAME, BOT_NAME),
        humans=(LEARNER,),
    )


class LessonSession(Session):
    """The guided first hand: one deal, the lesson's words before each of the learner's
    moves, nothing saved."""

    def __init__(self, screen: Screen, store: Store) -> None:
        super().__init__(screen, store, lesson_saved())

    def save(self) -> None:
        """A lesson is not saved: it starts again from the beginning."""

    def _stop(self) -> None:
        self.screen.say("", lesson_stopped_line())

    def _loop(self) -> int:
        self.notes.extend(lesson_intro(self.rules.cards_to_win))
        self.driver.start(deck=LESSON_DECK)
        self._play_deal()
        self._end_lesson()
        return 0

    def _step_line(self, p: int, expected: Action) -> Line:
        game = self.game
        assert game is not None
        move = lesson_move(len(game.history))
        assert move is not None
        obs = game.observation(p)
        return lesson_step(move.topic, obs, expected, self.seats[COMPUTER].name, self.look)

    def _human_action(self, p: int) -> Action:
        game = self.game
        assert game is not None
        expected = expected_action(game)
        assert expected is not None
        self.notes.append(self._step_line(p, expected))
        while True:
            action = super()._human_action(p)
            if action == expected:
                return action
            obs = game.observation(p)
            move = lesson_move(len(game.history))
            assert move is not None
            self.notes.append(lesson_refusal(move.topic, expected, obs, self.look))
            self.notes.append(self._step_line(p, expected))

    def _end_lesson(self) -> None:
        game = self.game
        assert game is not None
        hands = tuple(game.state.hand(p).mask for p in range(len(self.seats)))
        self.screen.new_screen()
        self.screen.board(self._title(), self._board(LEARNER, hands))
        self.screen.say(*lesson_end(self.rules.cards_to_win))
