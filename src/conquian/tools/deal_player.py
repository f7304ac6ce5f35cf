"""The deal player of both arenas: the deals of a match played in one process.

A match of two bots (:mod:`conquian.tools.arena`, duplicate deals) and one of three or
four (:mod:`conquian.tools.seating_arena`) play each shuffle once in every seating of the
bots: two seatings for two bots, six for three, 24 for four.  The arenas differ only in
how they name what they play (seeds, records, results), which an :class:`ArenaConfig`
says; one :class:`DealPlayer` plays the games of either, in this process, in a worker
process or in a Ray task, through the seat driver (:class:`conquian.seats.SeatDriver`), timing
every decision and keeping external bot programs running from deal to deal.

>>> seatings(3)
[(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
>>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
True
"""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..bots import Bot, make_bot
from ..bots.protocol import BotFailure, ExternalBot
from ..errors import ConquianError, IllegalActionError
from ..game import Game
from ..records import GameRecord
from ..rules import Rules, find_rules
from ..seats import Seat, SeatDriver

CMD_PREFIX = "cmd:"
"""A bot named ``cmd:<command line>`` is a program speaking the bot protocol."""

GameT = TypeVar("GameT")


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from the match seed and a path, the same on every machine and run."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def check_spec(spec: str) -> None:
    """:raises ConquianError: if ``spec`` names no bot."""
    if spec.startswith(CMD_PREFIX):
        if not spec[len(CMD_PREFIX) :].strip():
            raise ConquianError("'cmd:' must be followed by the bot's command line.")
        return
    try:
        make_bot(spec)
    except (ImportError, AttributeError) as exc:
        raise ConquianError(f"The bot {spec!r} is not available: {exc}.") from None


def seatings(n: int) -> list[tuple[int, ...]]:
    """Every order of ``n`` bots round the table: ``seating[player]`` is a bot's index.

    >>> seatings(2)
    [(0, 1), (1, 0)]
    """
    return list(itertools.permutations(range(n)))


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game as the deal player played it, before an arena names its result."""

    deal: int
    """The shuffle's number, from 0."""
    seating: tuple[int, ...]
    """``seating[player]``: the index of the bot in that seat."""
    game: Game
    winner: int | None
    """The winning player (as the bots were told), or None for a draw."""
    termination: str
    """``out``, ``stock_exhausted`` or ``forfeit`` (a bot failed)."""
    failure: str | None
    """Why the game was forfeited: the failing bot's message."""
    failed_player: int | None
    """The player whose bot failed."""
    ms: tuple[tuple[float, ...], ...]
    """Per bot index: milliseconds of every decision."""
    choice_ms: tuple[tuple[float, ...], ...]
    """Per bot index: milliseconds of the decisions with more than one legal action."""


@dataclass(frozen=True, slots=True)
class ArenaConfig(ABC, Generic[GameT]):
    """What every process of a match needs to play its deals (it is sent to worker
    processes and Ray tasks), and how the arena names what it plays."""

    specs: tuple[str, ...]
    """The bots, by index."""
    rules: str
    seed: int
    records_dir: str | None
    time_limit_ms: int
    """The time an external bot has for each decision."""

    def player(self) -> DealPlayer[GameT]:
        """The player of this match's deals in this process (the name that worker
        processes and Ray tasks call, see :func:`conquian.tools.arena.run_parallel`)."""
        return DealPlayer(self)

    @abstractmethod
    def bot_seed(self, deal: int, seating: tuple[int, ...], index: int) -> int:
        """The seed of bot ``index``'s random choices in one game."""

    @abstractmethod
    def describe(self, deal: int, seating: tuple[int, ...]) -> str:
        """One game, as an error message names it (e.g. ``deal 3, game 2``)."""

    @abstractmethod
    def record(self, deal: int, seating: tuple[int, ...]) -> tuple[str, dict[str, str]]:
        """The file name of one game's record and the record's metadata."""

    def forfeit_winner(self, failed_player: int) -> int | None:
        """The player who wins a game forfeited by ``failed_player``'s bot (None: nobody)."""
        return None

    @abstractmethod
    def result(self, played: PlayedGame) -> GameT:
        """One game's result, as the arena counts it."""


class DealPlayer(Generic[GameT]):
    """Plays the deals of a match in one process, each in every seating of the bots,
    keeping external bot programs running from deal to deal."""

    def __init__(self, config: ArenaConfig[GameT]) -> None:
        self.config = config
        self.rules: Rules = find_rules(config.rules)
        self.external: dict[int, ExternalBot] = {}

    def external_bot(self, index: int) -> ExternalBot:
        """The running program of bot ``index`` (a ``cmd:`` bot), started on first use."""
        bot = self.external.get(index)
        if bot is None:
            command = self.config.specs[index][len(CMD_PREFIX) :]
            bot = ExternalBot(command, time_limit_ms=self.config.time_limit_ms)
            self.external[index] = bot
        return bot

    def bot(self, index: int, deal: int, seating: tuple[int, ...]) -> Bot:
        """Bot ``index`` for one game, its random choices seeded by the arena."""
        spec = self.config.specs[index]
        if spec.startswith(CMD_PREFIX):
            return self.external_bot(index)
        rng = random.Random(self.config.bot_seed(deal, seating, index))
        return make_bot(spec, rng=rng)

    def play_deals(self, start: int, stop: int) -> list[GameT]:
        """The results of deals ``start`` to ``stop`` (excluded), every seating of each."""
        every = seatings(len(self.config.specs))
        return [
            self.config.result(self.play(deal, seating))
            for deal in range(start, stop)
            for seating in every
        ]

    def play(self, deal: int, seating: tuple[int, ...]) -> PlayedGame:
        """One game: shuffle ``deal`` with bot ``seating[p]`` as player ``p``; a bot that
        fails forfeits it.

        :raises ConquianError: if a bot of ours chooses an illegal action.
        """
        config = self.config
        n = len(seating)
        g = Game(
            self.rules,
            seed=derive_seed(config.seed, "deal", deal),
            dealer=deal % n,
            players=[config.specs[b] for b in seating],
        )
        driver = SeatDriver(
            [Seat(g.players[p], self.bot(seating[p], deal, seating)) for p in range(n)], g.rules
        )
        ms: list[list[float]] = [[] for _ in range(n)]
        choice_ms: list[list[float]] = [[] for _ in range(n)]
        failure: str | None = None
        failed_player: int | None = None
        try:
            driver.start(g)
        except BotFailure as exc:
            # every seat is a bot, told in seat order: the first not told is the one that failed
            failure, failed_player = str(exc), len(driver.dealt)
        while failure is None and not g.state.is_over:
            turn = driver.bot_turn()
            p = turn.player
            started = time.perf_counter()
            try:
                action = turn.decide()
            except BotFailure as exc:
                failure, failed_player = str(exc), p
                break
            elapsed = (time.perf_counter() - started) * 1000
            ms[seating[p]].append(elapsed)
            if len(turn.obs.legal_actions) > 1:
                choice_ms[seating[p]].append(elapsed)
            try:
                driver.push(p, action)
            except IllegalActionError as exc:
                raise ConquianError(
                    f"The bot {config.specs[seating[p]]!r} chose an illegal action {action} "
                    f"({config.describe(deal, seating)}): {exc}"
                ) from None
        if failed_player is not None:
            winner = config.forfeit_winner(failed_player)
            termination = "forfeit"
        else:
            outcome = g.state.outcome()
            assert outcome is not None
            winner, termination = outcome.winner, outcome.termination.value
        driver.tell_bots(winner, failure)
        if config.records_dir is not None:
            self.save(g, deal, seating, failure)
        return PlayedGame(
            deal=deal,
            seating=seating,
            game=g,
            winner=winner,
            termination=termination,
            failure=failure,
            failed_player=failed_player,
            ms=tuple(tuple(m) for m in ms),
            choice_ms=tuple(tuple(m) for m in choice_ms),
        )

    def save(self, g: Game, deal: int, seating: tuple[int, ...], failure: str | None) -> None:
        """Write one game's record in the match's records directory."""
        assert self.config.records_dir is not None
        name, meta = self.config.record(deal, seating)
        if failure is not None:
            meta["forfeit"] = failure
        path = os.path.join(self.config.records_dir, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(GameRecord.from_game(g, **meta).dumps())

    def close(self, *, now: bool = False) -> None:
        """Stop the external bot programs (``now``: kill them, without a word)."""
        for bot in self.external.values():
            if now:
                bot.kill()
            else:
                bot.close()
        self.external.clear()


__all__ = [
    "CMD_PREFIX",
    "ArenaConfig",
    "DealPlayer",
    "PlayedGame",
    "check_spec",
    "derive_seed",
    "seatings",
]
