"""Matches between three or four bots, every shuffle played in every seating.

Each *deal* of a seating match is one shuffle (and one dealer) played once for every
order of the bots round the table: six games for three bots, 24 for four.  So every
bot sits in every seat and on either side of every other bot with the same cards, and
the luck of the deal largely cancels out.  A bot is named as
:func:`~conquian.bots.make_bot` accepts, or ``cmd:<command line>`` for a program
speaking the bot protocol; a name may be given twice (two copies of one bot).

Each bot's figures: its **win share** (games won of games played, with a 95% Wilson
interval), its stake balance (every loser pays the winner the deal's stake), its wins
by seat, and a **rating** of the Plackett-Luce model of the ``openskill`` library,
updated game after game in a fixed order (the winner first, the others tied; a draw
ties everyone; a bot that forfeits comes last), with a 95% interval of
``mu +/- 1.96 sigma``.

>>> result = run_seating_match(["greedy", "random", "random"], 1, seed=1, rules="tercerilla")
>>> result.deals, len(result.games), sum(b.wins for b in result.bots) + result.draws
(1, 6, 6)
>>> sorted(permutation_code(s) for s in seatings(3))
['012', '021', '102', '120', '201', '210']
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.protocol import DEFAULT_TIME_LIMIT_MS
from ..errors import ConquianError
from ..rules import Rules, find_rules
from .arena import (
    Z95,
    _round,
    deal_ranges,
    drive_match,
    histogram_percentile,
    latency_histogram,
    percentile,
    wilson_interval,
)
from .deal_player import ArenaConfig, PlayedGame, check_spec, derive_seed, seatings

TableProgressFn = Callable[[int, int, "SeatingMatchResult"], None]
"""``progress(deals_done, deals_total, result_so_far)``."""


def permutation_code(seating: Sequence[int]) -> str:
    """A seating as the bots' indices by seat, e.g. ``"120"``: bot 1 is player 0."""
    return "".join(str(b) for b in seating)


def rating_model() -> Any:
    """The ``openskill`` Plackett-Luce model the seating arena rates with.

    :raises ConquianError: if ``openskill`` is not installed.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ConquianError(
            "Rating three or four bots needs the openskill library: pip install 'conquian[arena]'."
        ) from None
    return PlackettLuce(tau=0.0)


def finishing_ranks(n: int, winner: int | None, failed: int | None) -> list[int]:
    """Openskill ranks per bot (1 first): the winner first and the rest tied; a draw ties
    everyone; a bot that forfeited last, the others tied.

    >>> finishing_ranks(3, 1, None), finishing_ranks(3, None, None), finishing_ranks(3, None, 2)
    ([2, 1, 2], [1, 1, 1], [1, 1, 2])
    """
    if failed is not None:
        return [2 if b == failed else 1 for b in range(n)]
    if winner is None:
        return [1] * n
    return [1 if b == winner else 2 for b in range(n)]


# ------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class SeatingGame:
    """One game of a seating match: a shuffle in one seating."""

    deal: int
    """The shuffle's number, from 0."""
    seating: tuple[int, ...]
    """``seating[player]``: the index of the bot in that seat."""
    dealer: int
    winner: int | None
    """The winning bot's index, or None for a draw or a forfeit."""
    termination: str
    """``out``, ``stock_exhausted`` or ``forfeit`` (a bot failed)."""
    stake: int
    actions: int
    failed: int | None = None
    """The index of the bot whose failure ended the game."""
    failure: str | None = None
    ms: tuple[tuple[float, ...], ...] = ()
    """Per bot index: milliseconds of every decision."""
    choice_ms: tuple[tuple[float, ...], ...] = ()
    """Per bot index: milliseconds of the decisions with more than one legal action."""

    def compact(self) -> list[Any]:
        """``[deal, seating, winner, failed]`` as the JSON result keeps each game."""
        return [self.deal + 1, permutation_code(self.seating), self.winner, self.failed]


@dataclass
class SeatingBot:
    """What a seating match measured of one bot."""

    spec: str
    name: str
    wins: int = 0
    stake_balance: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    """Wins by seat in play order from the dealer (0: the first to play, after the dealer)."""
    ms: list[float] = field(default_factory=list)
    choice_ms: list[float] = field(default_factory=list)
    failures: int = 0


@dataclass
class SeatingMatchResult:
    """The result of a seating match so far."""

    bots: list[SeatingBot]
    rules: str
    seed: int
    deals_requested: int
    jobs: int = 1
    first_deal: int = 0
    games: list[SeatingGame] = field(default_factory=list)
    draws: int = 0
    interrupted: bool = False
    elapsed_s: float = 0.0

    def add(self, games: Sequence[SeatingGame]) -> None:
        """Count finished games."""
        n = len(self.bots)
        for g in games:
            self.games.append(g)
            if g.winner is None:
                self.draws += 1
            else:
                bot = self.bots[g.winner]
                bot.wins += 1
                bot.stake_balance += g.stake * (n - 1)
                player = g.seating.index(g.winner)
                bot.wins_by_seat[(player - g.dealer - 1) % n] += 1
                for other in range(n):
                    if other != g.winner:
                        self.bots[other].stake_balance -= g.stake
            if g.failed is not None:
                self.bots[g.failed].failures += 1
            for bot, ms, choice_ms in zip(self.bots, g.ms, g.choice_ms, strict=True):
                bot.ms.extend(ms)
                bot.choice_ms.extend(choice_ms)

    @property
    def deals(self) -> int:
        """Shuffles played in every seating."""
        return len(self.games) // len(seatings(len(self.bots)))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: one entry per bot, and every game in compact form."""
        self.games.sort(key=lambda g: (g.deal, g.seating))
        return seating_summary(
            specs=[b.spec for b in self.bots],
            names=[b.name for b in self.bots],
            rules=self.rules,
            seed=self.seed,
            games=[g.compact() for g in self.games],
            stakes=[g.stake for g in self.games],
            dealers=[g.dealer for g in self.games],
            latencies=[
                {
                    "ms_per_move_histogram": latency_histogram(b.choice_ms),
                    "moves": len(b.choice_ms),
                    "decisions": len(b.ms),
                    "ms_per_move_p50": _round(percentile(b.choice_ms, 50), 4),
                    "ms_per_move_p90": _round(percentile(b.choice_ms, 90), 4),
                }
                for b in self.bots
            ],
            failures=[
                {
                    "deal": g.deal + 1,
                    "seating": permutation_code(g.seating),
                    "bot": g.failed,
                    "message": g.failure,
                }
                for g in self.games
                if g.failure is not None
            ],
            deals_requested=self.deals_requested,
            interrupted=self.interrupted,
            jobs=self.jobs,
            elapsed_s=self.elapsed_s,
        )


def seating_summary(
    *,
    specs: Sequence[str],
    names: Sequence[str],
    rules: str,
    seed: int,
    games: Sequence[Sequence[Any]],
    stakes: Sequence[int],
    dealers: Sequence[int],
    latencies: Sequence[Mapping[str, Any]],
    failures: Sequence[Mapping[str, Any]],
    deals_requested: int,
    interrupted: bool,
    jobs: int,
    elapsed_s: float,
    parts: int | None = None,
) -> dict[str, Any]:
    """The JSON result of a seating match, from its games in compact form
    (``[deal, seating, winner, failed]``, in order of deal and seating).

    The ratings are computed here, replaying the games in that order, so a match played
    in parts and put together (:func:`combine_seating_results`) rates exactly as one run.
    """
    n = len(specs)
    model = rating_model()
    ratings = [model.rating(name=str(b)) for b in range(n)]
    wins = [0] * n
    balance = [0] * n
    by_seat = [[0] * n for _ in range(n)]
    draws = 0
    for (_deal, code, winner, failed), stake, dealer in zip(games, stakes, dealers, strict=True):
        seating = tuple(int(c) for c in code)
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
            by_seat[winner][(seating.index(winner) - dealer - 1) % n] += 1
            for b in range(n):
                balance[b] += stake * (n - 1) if b == winner else -stake
        updated = model.rate([[r] for r in ratings], ranks=finishing_ranks(n, winner, failed))
        ratings = [team[0] for team in updated]
    played = len(games)
    bots = []
    for b in range(n):
        low, high = wilson_interval(wins[b], played)
        mu, sigma = ratings[b].mu, ratings[b].sigma
        latency = latencies[b]
        bots.append(
            {
                "index": b,
                "spec": specs[b],
                "name": names[b],
                "games": played,
                "wins": wins[b],
                "win_share": round(wins[b] / played, 4) if played else None,
                "ci95_low": round(low, 4),
                "ci95_high": round(high, 4),
                "wins_by_seat": by_seat[b],
                "stake_balance": balance[b],
                "rating": round(mu, 3),
                "rating_sigma": round(sigma, 3),
                "rating_low": round(mu - Z95 * sigma, 3),
                "rating_high": round(mu + Z95 * sigma, 3),
                "ms_per_move_p50": latency.get("ms_per_move_p50"),
                "ms_per_move_p90": latency.get("ms_per_move_p90"),
                "moves": int(latency.get("moves", 0)),
                "decisions": int(latency.get("decisions", 0)),
                "failures": sum(1 for f in failures if f.get("bot") == b),
                "ms_per_move_histogram": dict(latency.get("ms_per_move_histogram", {})),
            }
        )
    per_deal = len(seatings(n))
    result: dict[str, Any] = {
        "bots": bots,
        "players": n,
        "rules": rules,
        "seed": seed,
        "deals": played // per_deal,
        "deals_requested": deals_requested,
        "seatings_per_deal": per_deal,
        "deal_ranges": deal_ranges(sorted({int(g[0]) - 1 for g in games})),
        "games": played,
        "draws": draws,
        "rating_model": "openskill PlackettLuce (mu 25, sigma 25/3, tau 0: a bot's skill does not drift); 95% interval mu +/- 1.96 sigma",
        "failures": list(failures),
        "interrupted": interrupted,
        "jobs": jobs,
        "elapsed_s": round(elapsed_s, 3),
        "results": [list(g) for g in games],
        "stakes": list(stakes),
        "dealers": list(dealers),
    }
    if parts is not None:
        result["parts"] = parts
    return result


def combine_seating_results(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Put together the JSON results of a seating match played in parts (same bots, rules
    and seed, different deals): the games are replayed in order, so the figures and the
    ratings are those of one long run; latency percentiles come from the histograms.

    :raises ConquianError: naming the first part that does not fit.
    """
    if not parts:
        raise ConquianError("Nothing to combine: give at least one match result.")
    for number, part in enumerate(parts, 1):
        missing = [
            k for k in ("bots", "rules", "seed", "results", "stakes", "dealers") if k not in part
        ]
        if missing:
            raise ConquianError(
                f"Part {number} is not a seating match result: it lacks {', '.join(missing)}."
            )
    first = parts[0]
    specs = [b["spec"] for b in first["bots"]]
    seen: dict[int, int] = {}
    rows: list[tuple[int, str, list[Any], int, int]] = []
    for number, part in enumerate(parts, 1):
        for what in ("rules", "seed"):
            if part[what] != first[what]:
                raise ConquianError(
                    f"Part {number} has {what} {part[what]!r}, part 1 has {first[what]!r}."
                )
        if [b["spec"] for b in part["bots"]] != specs:
            raise ConquianError(
                f"Part {number} has the bots {[b['spec'] for b in part['bots']]}, part 1 has {specs}."
            )
        for game, stake, dealer in zip(
            part["results"], part["stakes"], part["dealers"], strict=True
        ):
            deal = int(game[0])
            if seen.setdefault(deal, number) != number:
                raise ConquianError(f"Parts {seen[deal]} and {number} both played deal {deal}.")
            rows.append((deal, str(game[1]), list(game), int(stake), int(dealer)))
    rows.sort(key=lambda r: (r[0], r[1]))
    latencies = []
    for b in range(len(specs)):
        histogram: dict[str, int] = {}
        for part in parts:
            for bucket, count in part["bots"][b].get("ms_per_move_histogram", {}).items():
                histogram[bucket] = histogram.get(bucket, 0) + int(count)
        latencies.append(
            {
                "ms_per_move_histogram": {k: histogram[k] for k in sorted(histogram, key=int)},
                "ms_per_move_p50": _round(histogram_percentile(histogram, 50), 4),
                "ms_per_move_p90": _round(histogram_percentile(histogram, 90), 4),
                "moves": sum(int(part["bots"][b].get("moves", 0)) for part in parts),
                "decisions": sum(int(part["bots"][b].get("decisions", 0)) for part in parts),
            }
        )
    return seating_summary(
        specs=specs,
        names=[b["name"] for b in first["bots"]],
        rules=first["rules"],
        seed=first["seed"],
        games=[r[2] for r in rows],
        stakes=[r[3] for r in rows],
        dealers=[r[4] for r in rows],
        latencies=latencies,
        failures=[f for part in parts for f in part.get("failures", [])],
        deals_requested=sum(int(part.get("deals_requested", 0)) for part in parts),
        interrupted=any(part.get("interrupted", False) for part in parts),
        jobs=max(int(part.get("jobs", 1)) for part in parts),
        elapsed_s=sum(float(part.get("elapsed_s", 0.0)) for part in parts),
        parts=len(parts),
    )


# ------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class SeatingConfig(ArenaConfig[SeatingGame]):
    """A seating match: every shuffle played in every seating of the bots."""

    def bot_seed(self, deal: int, seating: tuple[int, ...], index: int) -> int:
        return derive_seed(self.seed, "bot", deal, permutation_code(seating), index)

    def describe(self, deal: int, seating: tuple[int, ...]) -> str:
        return f"deal {deal + 1}, seating {permutation_code(seating)}"

    def record(self, deal: int, seating: tuple[int, ...]) -> tuple[str, dict[str, str]]:
        code = permutation_code(seating)
        meta = {f"bot_{b}": spec for b, spec in enumerate(self.specs)}
        meta.update(event="arena", deal=str(deal + 1), seating=code, match_seed=str(self.seed))
        return f"deal-{deal + 1:05d}-{code}.toml", meta

    def result(self, played: PlayedGame) -> SeatingGame:
        seating, g = played.seating, played.game
        return SeatingGame(
            deal=played.deal,
            seating=seating,
            dealer=g.dealer,
            winner=None if played.winner is None else seating[played.winner],
            termination=played.termination,
            stake=g.stake,
            actions=len(g.history),
            failed=None if played.failed_player is None else seating[played.failed_player],
            failure=played.failure,
            ms=played.ms,
            choice_ms=played.choice_ms,
        )


def run_seating_match(
    bots: Sequence[str],
    deals: int,
    seed: int | None = None,
    rules: Rules | str = "tercerilla",
    jobs: int = 1,
    records_dir: str | os.PathLike[str] | None = None,
    progress: TableProgressFn | None = None,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    first_deal: int = 0,
    ray: str | None = None,
) -> SeatingMatchResult:
    """Play ``deals`` shuffles, each in every seating of ``bots`` (one per player of
    ``rules``).  Seeds, parts (``first_deal``), workers, Ray tasks (``ray``) and Ctrl-C
    behave as in :func:`~conquian.tools.arena.run_match`.

    :raises ConquianError: for a bot count that does not fit the rules, an unknown bot,
        bad counts, a missing ``openskill``, or an external bot that cannot start.
    """
    rules_obj = find_rules(rules)
    n = rules_obj.num_players
    if len(bots) != n:
        raise ConquianError(
            f"The rules {rules_obj.to_spec()} seat {n} players; name {n} bots, not "
            f"{len(bots)} (a bot may be named more than once)."
        )
    if deals < 1:
        raise ConquianError(f"A match needs at least one deal, got {deals}.")
    if jobs < (0 if ray is not None else 1):
        raise ConquianError(f"--jobs must be at least {0 if ray is not None else 1}, got {jobs}.")
    if first_deal < 0:
        raise ConquianError(f"The first deal's number cannot be negative, got {first_deal}.")
    rating_model()
    for spec in bots:
        check_spec(spec)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    records = None if records_dir is None else os.fspath(records_dir)
    if records is not None:
        os.makedirs(records, exist_ok=True)
    config = SeatingConfig(tuple(bots), rules_obj.to_spec(), seed, records, time_limit_ms)

    def new_result(names: list[str]) -> SeatingMatchResult:
        return SeatingMatchResult(
            [
                SeatingBot(spec, name, wins_by_seat=[0] * n)
                for spec, name in zip(bots, names, strict=True)
            ],
            config.rules,
            seed,
            deals,
            jobs=jobs,
            first_deal=first_deal,
        )

    result = drive_match(config, new_result, jobs, progress, ray)
    result.games.sort(key=lambda g: (g.deal, g.seating))
    return result


__all__ = [
    "SeatingBot",
    "SeatingConfig",
    "SeatingGame",
    "SeatingMatchResult",
    "combine_seating_results",
    "permutation_code",
    "rating_model",
    "run_seating_match",
    "seatings",
]
