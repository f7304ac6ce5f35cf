"""Duplicate-deal matches between two bots, with the statistics to judge them.

Each *deal* of a match is one shuffle played twice: first with bot A as player 0,
then with the same deck and dealer and bot B as player 0, so each bot plays both
seats of every shuffle and luck of the cards largely cancels out.  A bot is named
as :func:`~conquian.bots.make_bot` accepts, or ``cmd:<command line>`` for a
program speaking the bot protocol (see :mod:`conquian.bots.protocol`).

>>> result = run_match("greedy", "random", 2, seed=1)
>>> result.deals, len(result.games), result.wins + result.losses + result.draws
(2, 4, 4)
>>> round(wilson_interval(5, 10)[0], 4), round(elo_difference(0.75), 1)
(0.2366, 190.8)
"""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import random
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any, Protocol, TypeVar

from ..bots.protocol import DEFAULT_TIME_LIMIT_MS, BotFailure, kill_every_bot
from ..errors import ConquianError
from ..rules import Rules, find_rules
from .deal_player import CMD_PREFIX, ArenaConfig, PlayedGame, check_spec, derive_seed

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""
ELO_CAP = 800.0
"""Elo differences are clamped to +/- this (a score of 0 or 1 has no finite Elo)."""

ProgressFn = Callable[[int, int, "MatchResult"], None]
"""``progress(deals_done, deals_total, result_so_far)``."""


# ---------------------------------------------------------------- statistics


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; ``(0, 1)`` when there are no trials.

    >>> tuple(round(x, 4) for x in wilson_interval(0, 10))
    (0.0, 0.2775)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(score: float) -> float:
    """The Elo difference that predicts ``score`` (the share of points), clamped to +/-800.

    >>> elo_difference(0.5), elo_difference(1.0), elo_difference(0.0)
    (0.0, 800.0, -800.0)
    """
    if score <= 0.0:
        return -ELO_CAP
    if score >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, 400.0 * math.log10(score / (1.0 - score))))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0..100), interpolating linearly between ranks; None if empty.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 90)
    (2.5, 3.7)
    """
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


BUCKETS_PER_DOUBLING = 32
"""Latency histograms have this many buckets per doubling of time (about 2% wide)."""


def latency_histogram(values: Sequence[float]) -> dict[str, int]:
    """Milliseconds counted in logarithmic buckets, so that matches can be combined.

    >>> latency_histogram([1.0, 1.01, 2.0])
    {'0': 2, '32': 1}
    """
    counts: dict[int, int] = {}
    for ms in values:
        bucket = math.floor(math.log2(max(ms, 1e-6)) * BUCKETS_PER_DOUBLING)
        counts[bucket] = counts.get(bucket, 0) + 1
    return {str(bucket): counts[bucket] for bucket in sorted(counts)}


def histogram_percentile(histogram: dict[str, int], q: float) -> float | None:
    """The ``q``-th percentile (0..100) of a :func:`latency_histogram`, interpolated
    between ranks as :func:`percentile` does; each value is known to about 1%.

    >>> round(histogram_percentile(latency_histogram([1.0, 2.0, 4.0]), 50), 2)
    2.02
    """
    total = sum(histogram.values())
    if not total:
        return None
    position = (total - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, total - 1)
    values: dict[int, float] = {}
    seen = 0
    for bucket in sorted(histogram, key=int):
        end = seen + histogram[bucket]
        for rank in (low, high):
            if seen <= rank < end:
                values[rank] = float(2 ** ((int(bucket) + 0.5) / BUCKETS_PER_DOUBLING))
        seen = end
    return values[low] + (values[high] - values[low]) * (position - low)


def deal_ranges(deals: Sequence[int]) -> list[list[int]]:
    """Deals (numbered from 0) as runs ``[first, last]`` numbered from 1, as people count.

    >>> deal_ranges([0, 1, 2, 5, 6, 9])
    [[1, 3], [6, 7], [10, 10]]
    """
    ranges: list[list[int]] = []
    for deal in sorted(set(deals)):
        if ranges and ranges[-1][1] == deal:
            ranges[-1][1] += 1
        else:
            ranges.append([deal + 1, deal + 1])
    return ranges


# ------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a match (half of a duplicate deal), from bot A's point of view."""

    deal: int
    """The shuffle's number, from 0."""
    game: int
    """0: bot A is player 0; 1: the same shuffle with the seats swapped."""
    dealer: int
    a_player: int
    winner: str | None
    """``"a"``, ``"b"`` or None for a draw."""
    termination: str
    """``out``, ``stock_exhausted`` or ``forfeit`` (a bot failed)."""
    stake: int
    actions: int
    failure: str | None = None
    """Why the game was forfeited: the failing bot's message."""
    ms: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    """Per bot (A, B): milliseconds of every decision."""
    choice_ms: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    """Per bot (A, B): milliseconds of the decisions with more than one legal action."""

    @property
    def failed(self) -> str | None:
        """The side (``"a"`` or ``"b"``) that forfeited, if any."""
        if self.failure is None or self.winner is None:
            return None
        return "b" if self.winner == "a" else "a"


@dataclass
class BotSummary:
    """What a match measured of one bot."""

    spec: str
    name: str
    ms: list[float] = field(default_factory=list)
    choice_ms: list[float] = field(default_factory=list)
    failures: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "name": self.name,
            "ms_per_move_p50": _round(percentile(self.choice_ms, 50), 4),
            "ms_per_move_p90": _round(percentile(self.choice_ms, 90), 4),
            "moves": len(self.choice_ms),
            "ms_per_decision_p50": _round(percentile(self.ms, 50), 4),
            "ms_per_decision_p90": _round(percentile(self.ms, 90), 4),
            "decisions": len(self.ms),
            "failures": self.failures,
            "ms_per_move_histogram": latency_histogram(self.choice_ms),
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


@dataclass
class MatchResult:
    """The result of a match so far, from bot A's point of view.

    Latency figures count only decisions with more than one legal action
    (``moves``); ``ms_per_decision_*`` count every decision.
    """

    bot_a: BotSummary
    bot_b: BotSummary
    rules: str
    seed: int
    deals_requested: int
    jobs: int = 1
    first_deal: int = 0
    games: list[GameResult] = field(default_factory=list)
    wins: int = 0
    losses: int = 0
    draws: int = 0
    stake_balance: int = 0
    interrupted: bool = False
    elapsed_s: float = 0.0

    def add(self, games: Sequence[GameResult]) -> None:
        """Count finished games."""
        for g in games:
            self.games.append(g)
            if g.winner == "a":
                self.wins += 1
                self.stake_balance += g.stake
            elif g.winner == "b":
                self.losses += 1
                self.stake_balance -= g.stake
            else:
                self.draws += 1
            for summary, ms, choice_ms in zip(
                (self.bot_a, self.bot_b), g.ms, g.choice_ms, strict=True
            ):
                summary.ms.extend(ms)
                summary.choice_ms.extend(choice_ms)
            if g.failed == "a":
                self.bot_a.failures += 1
            elif g.failed == "b":
                self.bot_b.failures += 1

    @property
    def deals(self) -> int:
        """Duplicate deals played to the end (both games)."""
        return len(self.games) // 2

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float:
        """Bot A's share of the decided games (0.5 when none was decided)."""
        return self.wins / self.decided if self.decided else 0.5

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`win_rate`."""
        return wilson_interval(self.wins, self.decided)

    @property
    def elo(self) -> float:
        """Bot A's Elo advantage, from the win rate over decided games."""
        return elo_difference(self.win_rate)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.ci95
        return elo_difference(low), elo_difference(high)

    @property
    def failures(self) -> list[GameResult]:
        """Games forfeited by a bot's failure, in order."""
        return sorted((g for g in self.games if g.failure), key=lambda g: (g.deal, g.game))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        low, high = self.ci95
        elo_low, elo_high = self.elo_interval
        return {
            "bot_a": self.bot_a.to_dict(),
            "bot_b": self.bot_b.to_dict(),
            "rules": self.rules,
            "seed": self.seed,
            "deals": self.deals,
            "deals_requested": self.deals_requested,
            "first_deal": self.first_deal + 1,
            "deal_ranges": deal_ranges([g.deal for g in self.games]),
            "games": len(self.games),
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "decided": self.decided,
            "win_rate": round(self.win_rate, 4),
            "ci95_low": round(low, 4),
            "ci95_high": round(high, 4),
            "stake_balance": self.stake_balance,
            "elo": round(self.elo, 1),
            "elo_low": round(elo_low, 1),
            "elo_high": round(elo_high, 1),
            "failures": [
                {
                    "deal": g.deal + 1,
                    "game": g.game + 1,
                    "bot": g.failed,
                    "message": g.failure,
                }
                for g in self.failures
            ],
            "interrupted": self.interrupted,
            "jobs": self.jobs,
            "elapsed_s": round(self.elapsed_s, 3),
        }


# ------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class DuplicateConfig(ArenaConfig[GameResult]):
    """A duplicate match of two bots (A and B, indices 0 and 1): each shuffle's two
    seatings are its two games, game 0 with bot A as player 0, game 1 with bot B."""

    def bot_seed(self, deal: int, seating: tuple[int, ...], index: int) -> int:
        return derive_seed(self.seed, "bot", deal, seating.index(0), "ab"[index])

    def describe(self, deal: int, seating: tuple[int, ...]) -> str:
        return f"deal {deal + 1}, game {seating.index(0) + 1}"

    def record(self, deal: int, seating: tuple[int, ...]) -> tuple[str, dict[str, str]]:
        game = seating.index(0)
        meta = {
            "event": "arena",
            "bot_a": self.specs[0],
            "bot_b": self.specs[1],
            "deal": str(deal + 1),
            "duplicate": str(game + 1),
            "match_seed": str(self.seed),
        }
        return f"deal-{deal + 1:05d}-{game + 1}.toml", meta

    def forfeit_winner(self, failed_player: int) -> int | None:
        return 1 - failed_player

    def result(self, played: PlayedGame) -> GameResult:
        seating, g = played.seating, played.game
        a_player = seating.index(0)
        return GameResult(
            deal=played.deal,
            game=a_player,
            dealer=g.dealer,
            a_player=a_player,
            winner=None if played.winner is None else "ab"[seating[played.winner]],
            termination=played.termination,
            stake=g.stake,
            actions=len(g.history),
            failure=played.failure,
            ms=(played.ms[0], played.ms[1]),
            choice_ms=(played.choice_ms[0], played.choice_ms[1]),
        )


# ------------------------------------------------------------ worker processes


def _worker_terminated(signum: int, frame: FrameType | None) -> None:
    # the interrupted code may hold a lock (a queue's, say) that stopping a bot takes:
    # only signals here, and out at once
    kill_every_bot()
    os._exit(1)


class _ChunkPlayer(Protocol):
    """What plays a match's chunks of deals in one process (a :class:`DealPlayer`, say)."""

    def play_deals(self, start: int, stop: int) -> list[Any]: ...
    def close(self, *, now: bool = False) -> None: ...


class _Results(Protocol):
    first_deal: int
    deals_requested: int
    elapsed_s: float
    interrupted: bool
    jobs: int

    @property
    def deals(self) -> int: ...
    def add(self, games: Sequence[Any]) -> None: ...


class _Filled(Protocol):
    """What :func:`run_parallel` reads of a result and fills in."""

    @property
    def first_deal(self) -> int: ...
    @property
    def deals_requested(self) -> int: ...
    @property
    def deals(self) -> int: ...

    elapsed_s: float

    def add(self, games: Sequence[Any]) -> None: ...


ResultT = TypeVar("ResultT", bound=_Results)


def drive_match(
    config: ArenaConfig[Any],
    new_result: Callable[[list[str]], ResultT],
    jobs: int,
    progress: Callable[[int, int, Any], None] | None,
    ray: str | None = None,
) -> ResultT:
    """Play a match's deals in this process, in ``jobs`` workers, or as Ray tasks (``ray``:
    an address, see :mod:`conquian.tools.cluster`): start the external bots once (to fail
    early and learn their names), count every chunk of deals, and keep the deals finished
    when Ctrl-C stops it (``interrupted``).

    :raises ConquianError: for an external bot that cannot start, or one asked to play on
        Ray (it is a program on this machine).
    """
    started = time.perf_counter()
    specs = config.specs
    names = list(specs)
    result: ResultT | None = None
    if ray is not None:
        from .cluster import import_ray

        for spec in specs:
            if spec.startswith(CMD_PREFIX):
                raise ConquianError(
                    f"The bot {spec!r} is a program on this machine, which Ray tasks cannot "
                    "run: play external bots without --ray (--jobs plays them in worker "
                    "processes)."
                )
        import_ray(ray)  # before the first deal: say now if the extra is missing
    player = config.player()
    try:
        for index, spec in enumerate(specs):
            if spec.startswith(CMD_PREFIX):
                external = player.external_bot(index)
                try:
                    external.start()
                except BotFailure as exc:
                    raise ConquianError(f"Cannot use {spec!r}: {exc}") from None
                names[index] = external.bot_name
        result = new_result(names)
        first, deals = result.first_deal, result.deals_requested
        if ray is not None:
            from .cluster import run_on_ray

            run_on_ray(config, result, ray, jobs, started, progress)
        elif jobs == 1:
            for deal in range(first, first + deals):
                result.add(player.play_deals(deal, deal + 1))
                result.elapsed_s = time.perf_counter() - started
                if progress is not None:
                    progress(result.deals, deals, result)
        else:
            player.close()
            run_parallel(config, result, jobs, started, progress)
    except KeyboardInterrupt:
        if result is None:
            result = new_result(names)
        result.interrupted = True
        player.close(now=True)
    finally:
        player.close()
    result.elapsed_s = time.perf_counter() - started
    return result


class _MatchConfig(Protocol):
    def player(self) -> _ChunkPlayer: ...


def _worker_main(config: _MatchConfig, link: Connection) -> None:
    """A worker process: play the chunks of deals the parent sends over ``link``, each
    answered with its result, until the ``None`` that ends the work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGTERM, _worker_terminated)  # the parent stops us: stop the bots
    player = config.player()
    try:
        while (chunk := link.recv()) is not None:
            try:
                link.send(("ok", player.play_deals(*chunk)))
            except Exception as exc:
                text = traceback.format_exc()
                try:
                    pickle.dumps(exc)
                except Exception:
                    exc = RuntimeError(f"{type(exc).__name__}: {exc}")
                link.send(("error", (exc, text)))
                break
    except EOFError:  # the parent has gone
        pass
    finally:
        player.close()


def run_parallel(
    config: _MatchConfig,
    result: _Filled,
    jobs: int,
    started: float,
    progress: Callable[[int, int, Any], None] | None,
    *,
    size: int = 0,
) -> None:
    """Play a match in ``jobs`` worker processes, each sent a chunk of deals (``size`` of
    them; 0: up to 10, fewer for a short match) whenever it has answered the last one
    (``config.player()`` plays them; ``result.add`` counts them).

    Each worker has a pipe of its own: no queue, so no named semaphores for the
    interpreter's resource tracker to account for at exit."""
    first, deals = result.first_deal, result.deals_requested
    stop = first + deals
    size = size or max(1, min(10, deals // (jobs * 4)))
    chunks = deque((start, min(start + size, stop)) for start in range(first, stop, size))
    context = multiprocessing.get_context("spawn")
    workers: dict[Connection, BaseProcess] = {}
    try:
        for _ in range(min(jobs, len(chunks))):
            mine, theirs = context.Pipe()
            worker: BaseProcess = context.Process(
                target=_worker_main, args=(config, theirs), daemon=True
            )
            worker.start()
            workers[mine] = worker  # (only a started worker: the end joins each)
            theirs.close()  # the worker's end: once it exits, our end reads EOF
            mine.send(chunks.popleft())
        busy = set(workers)  # the workers with a chunk to answer: none once all are played
        while busy:
            for link in wait(list(busy)):
                assert isinstance(link, Connection)
                try:
                    kind, payload = link.recv()
                except EOFError:
                    workers[link].join()
                    status = workers[link].exitcode
                    raise ConquianError(f"A worker process died (exit status {status}).") from None
                if kind == "error":
                    exc, text = payload
                    exc.add_note(f"In a worker process:\n{text}")
                    raise exc
                if chunks:
                    link.send(chunks.popleft())
                else:
                    link.send(None)  # the worker ends: its pipe's EOF is no death
                    busy.discard(link)
                result.add(payload)
                result.elapsed_s = time.perf_counter() - started
                if progress is not None:
                    progress(result.deals, deals, result)
        for worker in workers.values():
            worker.join()
    finally:
        for worker in workers.values():
            if worker.is_alive():
                worker.terminate()
        for link, worker in workers.items():
            worker.join()
            link.close()


# --------------------------------------------------------------------- match


def run_match(
    bot_a: str,
    bot_b: str,
    deals: int,
    seed: int | None = None,
    rules: Rules | str = "standard",
    jobs: int = 1,
    records_dir: str | os.PathLike[str] | None = None,
    progress: ProgressFn | None = None,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    first_deal: int = 0,
    ray: str | None = None,
) -> MatchResult:
    """Play ``deals`` duplicate deals (``2 * deals`` games) between two bots.

    The deals are numbered from ``first_deal``: a long match can be played in parts
    (same seed, consecutive ranges) and the parts' results put together with
    :func:`combine_results`.

    The same ``seed`` gives the same games whatever ``jobs`` is (external programs
    aside, which choose their own moves).  Ctrl-C stops the match: the result then
    holds the deals finished so far and ``interrupted`` is set.  With ``jobs > 1`` the
    worker processes are spawned, so a script must call this under
    ``if __name__ == "__main__":``.

    With ``ray`` the deals are Ray tasks instead (the extra ``cluster``): ``"local"``
    starts a Ray instance with ``jobs`` CPUs (0: one per core), any other value is the
    address of a running cluster, on which ``jobs`` tasks run at once (0: one per CPU of
    the cluster); ``result.jobs`` is then that number.  The games are the same as here
    (see :mod:`conquian.tools.cluster`); external bots cannot be played so.

    :raises ConquianError: for an unknown bot, bad counts, an external bot that
        cannot be started at all, or (with ``ray``) an external bot, a missing Ray or a
        cluster that cannot be reached.
    """
    if deals < 1:
        raise ConquianError(f"A match needs at least one deal, got {deals}.")
    if jobs < (0 if ray is not None else 1):
        raise ConquianError(f"--jobs must be at least {0 if ray is not None else 1}, got {jobs}.")
    if first_deal < 0:
        raise ConquianError(f"The first deal's number cannot be negative, got {first_deal}.")
    rules_obj = find_rules(rules)
    if rules_obj.num_players != 2:
        raise ConquianError(
            f"The rules {rules_obj.to_spec()} seat {rules_obj.num_players} players; the arena "
            f"plays two bots (try {rules_obj.to_spec()},num_players=2)."
        )
    for spec in (bot_a, bot_b):
        check_spec(spec)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    records = None if records_dir is None else os.fspath(records_dir)
    if records is not None:
        os.makedirs(records, exist_ok=True)
    config = DuplicateConfig((bot_a, bot_b), rules_obj.to_spec(), seed, records, time_limit_ms)

    def new_result(names: list[str]) -> MatchResult:
        return MatchResult(
            BotSummary(bot_a, names[0]),
            BotSummary(bot_b, names[1]),
            config.rules,
            seed,
            deals,
            jobs=jobs,
            first_deal=first_deal,
        )

    result = drive_match(config, new_result, jobs, progress, ray)
    result.games.sort(key=lambda g: (g.deal, g.game))
    return result


def combine_results(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Put together the JSON results of matches played in parts.

    The parts must share the bots, rules and seed and cover different deals (for
    example ``--first-deal 0 --deals 5000`` and ``--first-deal 5000 --deals 5000``).
    The result has the shape of :meth:`MatchResult.to_dict`; latency percentiles come
    from the parts' histograms (to about 1%).

    :raises ConquianError: naming the first part that does not fit.
    """
    if not parts:
        raise ConquianError("Nothing to combine: give at least one match result.")
    keys = ("wins", "losses", "draws", "stake_balance", "deal_ranges", "bot_a", "bot_b")
    for number, part in enumerate(parts, 1):
        missing = [key for key in (*keys, "rules", "seed") if key not in part]
        if missing:
            raise ConquianError(
                f"Part {number} is not a match result: it lacks {', '.join(missing)}."
            )
    first = parts[0]
    covered: list[tuple[int, int, int]] = []
    for number, part in enumerate(parts, 1):
        for what in ("rules", "seed"):
            if part[what] != first[what]:
                raise ConquianError(
                    f"Part {number} has {what} {part[what]!r}, part 1 has {first[what]!r}."
                )
        for side in ("bot_a", "bot_b"):
            if part[side]["spec"] != first[side]["spec"]:
                raise ConquianError(
                    f"Part {number} has {side} {part[side]['spec']!r}, "
                    f"part 1 has {first[side]['spec']!r}."
                )
        for low, high in part["deal_ranges"]:
            for other_low, other_high, other in covered:
                if low <= other_high and other_low <= high:
                    raise ConquianError(
                        f"Parts {other} and {number} both played deals "
                        f"{max(low, other_low)}..{min(high, other_high)}."
                    )
            covered.append((low, high, number))
    wins = sum(int(part["wins"]) for part in parts)
    losses = sum(int(part["losses"]) for part in parts)
    draws = sum(int(part["draws"]) for part in parts)
    decided = wins + losses
    rate = wins / decided if decided else 0.5
    low, high = wilson_interval(wins, decided)
    ranges = deal_ranges(
        [
            deal
            for part in parts
            for low, high in part["deal_ranges"]
            for deal in range(low - 1, high)
        ]
    )

    def bot(side: str) -> dict[str, Any]:
        histogram: dict[str, int] = {}
        for part in parts:
            for bucket, count in part[side].get("ms_per_move_histogram", {}).items():
                histogram[bucket] = histogram.get(bucket, 0) + int(count)
        p50, p90 = histogram_percentile(histogram, 50), histogram_percentile(histogram, 90)
        return {
            "spec": first[side]["spec"],
            "name": first[side]["name"],
            "ms_per_move_p50": _round(p50, 4),
            "ms_per_move_p90": _round(p90, 4),
            "moves": sum(int(part[side].get("moves", 0)) for part in parts),
            "decisions": sum(int(part[side].get("decisions", 0)) for part in parts),
            "failures": sum(int(part[side].get("failures", 0)) for part in parts),
            "ms_per_move_histogram": {b: histogram[b] for b in sorted(histogram, key=int)},
        }

    deals = sum(high - low + 1 for low, high in ranges)
    return {
        "bot_a": bot("bot_a"),
        "bot_b": bot("bot_b"),
        "rules": first["rules"],
        "seed": first["seed"],
        "deals": deals,
        "deals_requested": sum(int(part.get("deals_requested", 0)) for part in parts),
        "first_deal": ranges[0][0] if ranges else 1,
        "deal_ranges": ranges,
        "games": 2 * deals,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "decided": decided,
        "win_rate": round(rate, 4),
        "ci95_low": round(low, 4),
        "ci95_high": round(high, 4),
        "stake_balance": sum(int(part["stake_balance"]) for part in parts),
        "elo": round(elo_difference(rate), 1),
        "elo_low": round(elo_difference(low), 1),
        "elo_high": round(elo_difference(high), 1),
        "failures": [f for part in parts for f in part.get("failures", [])],
        "interrupted": any(part.get("interrupted", False) for part in parts),
        "jobs": max(int(part.get("jobs", 1)) for part in parts),
        "elapsed_s": round(sum(float(part.get("elapsed_s", 0.0)) for part in parts), 3),
        "parts": len(parts),
    }


__all__ = [
    "BotSummary",
    "DuplicateConfig",
    "GameResult",
    "MatchResult",
    "check_spec",
    "combine_results",
    "derive_seed",
    "elo_difference",
    "percentile",
    "run_match",
    "wilson_interval",
]
