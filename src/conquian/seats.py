"""The seat driver: people and bots taking turns, deal after deal.

A :class:`SeatDriver` is a match being played (or, for the arena, single deals): its seats,
each a person or a bot, whose turn it is, asking a bot for its move (prepared here,
run wherever the caller needs: in this thread, a worker thread or a process),
checking and playing every action, and settling each finished deal.  The terminal
game, the web server and the arena all play through it, so none of them holds a
copy of the loop.

>>> from conquian.bots import make_bot
>>> from conquian.match import Match
>>> match = Match("standard", seed=3, players=("ana", "greedy"))
>>> driver = SeatDriver([Seat("ana"), Seat("greedy", make_bot("greedy"))], match=match, bot_seed=1)
>>> game = driver.start()
>>> while not game.state.is_over:
...     player = driver.to_act
...     if driver.seats[player].bot is not None:
...         driver.push(player, driver.bot_turn().decide())
...     else:
...         driver.push(player, game.legal_actions()[0])
>>> result = driver.settle()
>>> result.number, match.deal is None, sum(match.balance)
(1, True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action
from .bots.base import Bot
from .errors import ConquianError
from .fair import FairShuffle
from .game import Game
from .match import DealResult, Match
from .observation import Observation
from .rules import Rules
from .state import GameState

__all__ = ["BotTurn", "Seat", "SeatDriver"]


@dataclass
class Seat:
    """One seat: the player's name (as records write it) and the bot that plays it, if any."""

    name: str
    bot: Bot | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


@dataclass(frozen=True)
class BotTurn:
    """A bot's decision, prepared while the deal stands still, to be run anywhere.

    ``state`` is the full position, given only to a bot that ``sees_everything``
    (the ``oracle`` used for measurement); every other bot gets its observation alone.
    """

    player: int
    bot: Bot
    obs: Observation
    state: GameState | None = None

    def decide(self) -> Action:
        """Ask the bot (this may take long: call it outside any lock)."""
        if self.state is not None:
            return self.bot.act_with_state(self.obs, self.state)
        return self.bot.act(self.obs)


class SeatDriver:
    """The seats of a match and the deal in play.

    With a :class:`~conquian.match.Match`, :meth:`start` deals its next deal and
    :meth:`settle` pays it; without one (``match=None``) the caller hands
    :meth:`start` each deal, as the arena does.  With a ``bot_seed``, every bot
    decision is seeded from it, the deal number and the number of actions so far, so
    the same position always gets the same choice, resumed or not.
    """

    def __init__(
        self,
        seats: Sequence[Seat],
        rules: Rules | None = None,
        *,
        match: Match | None = None,
        bot_seed: int | None = None,
    ) -> None:
        if rules is None:
            if match is None:
                raise ConquianError("A seat driver needs its rules or its match.")
            rules = match.rules
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.rules = rules
        self.match = match
        self.bot_seed = bot_seed
        self._deal: Game | None = None
        self.dealt: list[int] = []
        """The bot seats told of the deal in play (a bot that failed to start is not)."""

    # ------------------------------------------------------------ the deal

    @property
    def deal(self) -> Game | None:
        """The deal in play (None between deals and once the match is over)."""
        return self.match.deal if self.match is not None else self._deal

    def _game(self) -> Game:
        game = self.deal
        if game is None:
            raise ConquianError("No deal is in play.")
        return game

    @property
    def deal_number(self) -> int:
        """The number of the deal in play in its match (1 for a seat driver without a match)."""
        return self.match.deal_number if self.match is not None else 1

    def start(
        self,
        game: Game | None = None,
        *,
        fair: FairShuffle | None = None,
        deck: Sequence[int] | None = None,
    ) -> Game:
        """Begin the next deal (the match's, or ``game``) and tell each bot its seat.

        ``fair``: the match deals the deck of this provably fair shuffle; ``deck``: the match
        deals this deck (the guided first hand's).  A bot that fails to start raises;
        :attr:`dealt` then lists the bots told before it.
        """
        if game is None:
            if self.match is None:
                raise ConquianError("A seat driver without a match must be given each deal.")
            game = self.match.new_game(fair=fair, deck=deck)
        elif self.match is not None:
            raise ConquianError("A match deals its own deals.")
        else:
            self._deal = game
        self.dealt = []
        self.resume_bots()
        return game

    def resume_bots(self) -> None:
        """Tell each bot its seat in the deal in play (after :meth:`start`, or on resuming)."""
        self.dealt = []
        for player, seat in enumerate(self.seats):
            if seat.bot is not None:
                seat.bot.new_deal(player, self.rules)
                self.dealt.append(player)

    @property
    def to_act(self) -> int | None:
        """The player to act, or None when no deal is being played."""
        game = self.deal
        if game is None or game.state.is_over:
            return None
        return game.state.to_act

    def bot_to_act(self) -> int | None:
        """The bot seat to act now, if any."""
        player = self.to_act
        if player is None or self.seats[player].bot is None:
            return None
        return player

    def bot_turn(self, player: int | None = None) -> BotTurn:
        """Prepare the decision of the bot to act (``player``, if given, must be it).

        :raises ConquianError: if no bot is to act.
        """
        to_act = self.bot_to_act()
        bot = None if to_act is None else self.seats[to_act].bot
        if to_act is None or bot is None or (player is not None and player != to_act):
            raise ConquianError("No bot is to act now.")
        game = self._game()
        if self.bot_seed is not None:
            bot.rng.seed(f"{self.bot_seed}:{self.deal_number}:{len(game.history)}")
        state = game.state.copy() if bot.sees_everything else None
        return BotTurn(to_act, bot, game.observation(to_act), state)

    def push(self, player: int, action: Action) -> None:
        """Play ``player``'s action in the deal in play.

        :raises IllegalActionError: if it is not his turn or the action is not legal;
            nothing changes.
        """
        game = self._game()
        game.check_player(player)
        game.push(action)

    def undo(self) -> Action | None:
        """Take back the last action (one the caller could not store, say)."""
        return self._game().pop()

    # ------------------------------------------------------- end of a deal

    @property
    def deal_is_over(self) -> bool:
        game = self.deal
        return game is not None and game.state.is_over

    def would_end_match(self) -> bool:
        """Whether settling the finished deal in play would end the match."""
        outcome = self._game().state.outcome()
        if self.match is None or outcome is None:
            return False
        return self.match.would_end(outcome)

    def tell_bots(self, winner: int | None, failure: str | None = None) -> None:
        """Tell every bot told of the deal that it is over (``failure``: why it was cut short)."""
        game = self._game()
        for player in self.dealt:
            bot = self.seats[player].bot
            if bot is not None:
                bot.deal_over(game.observation(player), winner, failure)

    def settle(self) -> DealResult | None:
        """Settle the finished deal: the bots are told, the match (if any) pays it.

        Returns the match's result of the deal (None for a seat driver without a match).

        :raises ConquianError: if the deal in play is not over.
        """
        game = self._game()
        outcome = game.state.outcome()
        if outcome is None:
            raise ConquianError("The deal in play is not over.")
        self.tell_bots(outcome.winner)
        self.dealt = []
        if self.match is None:
            self._deal = None
            return None
        return self.match.settle()
