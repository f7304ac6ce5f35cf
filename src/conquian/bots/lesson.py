"""The guided first hand (*Aprende a jugar*): its deal, every move of it, and the computer
that plays its part.

The lesson is one deal of the Mexican game for two, dealt from a fixed deck so that each
thing a new player must learn comes up once, in this order: the exchange, taking the card
you turned, paying, letting a paid card go, passing the card you turned, forcing, taking a
paid card, and going out.  The learner sits in seat 0; the computer deals and plays
:data:`LESSON_MOVES` as written.  The words of each step are :mod:`conquian.present.lesson`'s.

>>> from conquian.game import Game
>>> game = lesson_game()
>>> for move in LESSON_MOVES:
...     _ = game.push_text(move.action)
>>> game.state.outcome().winner == LEARNER, len(game.state.tables[LEARNER])
(True, 3)
"""

from __future__ import annotations

from typing import NamedTuple

from ..actions import Action
from ..cards import NUM_CARDS, Card
from ..errors import ConquianError
from ..game import Game
from ..match import Match
from ..notation import parse_action
from ..observation import Observation
from ..reasons import Reason
from .base import Bot

LESSON_RULES = "mexican,num_players=2"
"""The Mexican game for two: the Spanish deck, eight cards each, the exchange, forcing."""
LESSON_MATCH_SEED = 7_301_446_219
"""A match seed whose first dealer is the computer (seat 1), so that the learner turns first."""
LEARNER = 0
"""The learner's seat."""
COMPUTER = 1


class LessonMove(NamedTuple):
    """One move of the lesson: who plays it, the move (engine notation), and what it
    teaches (a topic of :mod:`conquian.present.lesson`; ``""`` for a computer's move)."""

    seat: int
    action: str
    topic: str = ""


LESSON_MOVES: tuple[LessonMove, ...] = (
    LessonMove(LEARNER, "exchange 6c", "exchange"),
    LessonMove(COMPUTER, "exchange 4d"),
    LessonMove(LEARNER, "take 7s7d7c", "take_turned"),
    LessonMove(LEARNER, "discard Kc", "pay"),
    LessonMove(COMPUTER, "decline"),
    LessonMove(COMPUTER, "take As2s3s"),
    LessonMove(COMPUTER, "discard Jc"),
    LessonMove(LEARNER, "decline", "decline"),
    LessonMove(LEARNER, "pass", "pass"),
    LessonMove(COMPUTER, "decline"),
    LessonMove(LEARNER, "force", "force"),
    LessonMove(COMPUTER, "take As2s3s4s"),
    LessonMove(COMPUTER, "discard 6d"),
    LessonMove(LEARNER, "take 4d5d6d", "take_paid"),
    LessonMove(LEARNER, "discard 2c", "pay_again"),
    LessonMove(COMPUTER, "decline"),
    LessonMove(COMPUTER, "pass"),
    LessonMove(LEARNER, "take JhQhKh", "go_out"),
)
"""Every move of the lesson's deal, in order: move ``i`` is played after ``i`` moves."""

_HANDS = (
    # the learner: three sevens to be, oros to be run, copas waiting for the king
    ("7d", "7s", "5d", "Jh", "Qh", "Kc", "2c", "6c"),
    # the computer: espadas to be run, the 4 de oros it passes, the 6 de oros it pays
    ("As", "2s", "4d", "6d", "Jc", "3c", "Qd", "5c"),
)
_STOCK_TOP = ("7c", "3s", "4s", "Kh")


def _deck() -> tuple[int, ...]:
    dealt = [Card.parse(mine).index for pair in zip(*_HANDS, strict=True) for mine in pair]
    top = [Card.parse(text).index for text in _STOCK_TOP]
    rest = [c for c in range(NUM_CARDS) if c not in dealt and c not in top]
    return (*dealt, *top, *rest)


LESSON_DECK: tuple[int, ...] = _deck()
"""The deck of the lesson, top card first: dealt one at a time from seat 0, then the stock."""


def lesson_match(players: tuple[str, str]) -> Match:
    """The lesson's match, its one deal dealt (a match of one deal, the computer dealing).

    >>> lesson_match(("Ana", "Bot")).deal.dealer
    1
    """
    match = Match(LESSON_RULES, seed=LESSON_MATCH_SEED, players=players)
    match.new_game(deck=LESSON_DECK)
    return match


def lesson_game() -> Game:
    """The lesson's deal on its own."""
    return lesson_match(("learner", "computer")).games[0]


def lesson_move(moves_played: int) -> LessonMove | None:
    """The move due after ``moves_played`` moves of the deal (None once it is over)."""
    return LESSON_MOVES[moves_played] if moves_played < len(LESSON_MOVES) else None


def expected_action(game: Game) -> Action | None:
    """The move the lesson wants next in ``game``, read on its position (None: over)."""
    move = lesson_move(len(game.history))
    return None if move is None else parse_action(game.state, move.action)


class LessonBot(Bot):
    """The computer's part of the lesson: the move written for it at this point.

    It plays only the lesson's deal; anywhere else it says so.
    """

    name = "lesson"

    def act(self, obs: Observation) -> Action:
        move = lesson_move(len(obs.history))
        if move is None or move.seat != obs.viewer:
            raise ConquianError("The lesson's computer plays only the lesson's deal.")
        action = Action.parse(move.action)
        for legal in obs.legal_actions:  # a take's text may order its melds otherwise
            if str(legal) == str(action):
                self.why = Reason("lesson")
                return legal
        raise ConquianError(f"The lesson's move {move.action!r} is not legal here.")
