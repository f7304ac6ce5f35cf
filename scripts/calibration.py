"""How well the review's winning chances predict the results of real games.

Bots play two-player deals against each other (each shuffle twice, the seats swapped, as
``conquian arena`` plays them; the pairs of bots taken in turn, so that the chances spread
over the whole range).  At every decision of either player that has more than one legal
action, the script estimates the winning chance of the action the player chose, from his
observation alone, exactly as the post-game review does (:func:`conquian.bots.review.
action_chances`: the hidden cards re-dealt by the search's hand model, the deal finished by
the search's greedy rollouts; a draw counts half).  A bot that searched also says its own
mean result for the action it chose, kept as a second prediction.  Once the deal is over its
result for that player (1 win, 0.5 draw, 0 loss) is the observed outcome.

The decisions are put in ten bins of predicted chance (0-10%, ..., 90-100%); each bin shows
its count, the mean predicted chance, the observed share with two 95% intervals, and the gap
(observed minus predicted).  The decisions of one deal are correlated (they share its
result), and so are the two games of one shuffle: the Wilson interval treats the decisions as
independent and is too narrow; the bootstrap interval resamples whole shuffles (both games
with every decision in them) and is the honest one.

A logistic (Platt) correction ``q = 1 / (1 + exp(-(a * logit(p) + b)))`` is fitted on the
decisions of the even-numbered shuffles and checked on the odd-numbered ones; the shipped
correction is :data:`conquian.bots.review.CALIBRATION`.  Like the review, both leave the
known result of an action that ends the deal (going out) as it is.

    python scripts/calibration.py --games 400 --jobs 2 --seed 2026 --samples 200 \\
        --save decisions.jsonl
    python scripts/calibration.py --load decisions.jsonl --json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from conquian.bots import Bot, Budget, bot_class, level_of, make_bot
from conquian.bots.coach import (
    CALIBRATION,
    LOGIT_CLIP,
    action_chances,
    calibrated_chance,
    ends_deal,
)
from conquian.game import Game
from conquian.seats import Seat, SeatDriver
from conquian.tools.arena import Z95, deal_ranges, derive_seed, run_parallel

DEFAULT_PAIRS = ("expert:hard", "expert:easy", "hard:easy")
"""The pairs of bots, taken in turn shuffle after shuffle."""
BINS = 10
BOOTSTRAP = 1000
"""Resamples of whole shuffles for the bootstrap intervals."""
TOLERANCE = 0.05
"""A bin is calibrated when its observed share is within this of its mean prediction."""


# ------------------------------------------------------------------ the bots


def untimed_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name or level, with its budget of sampled deals but no time limit, so that
    its choices do not depend on the machine's load (``expert``: 600 per candidate)."""
    level = level_of(name)
    cls = bot_class(level.bot)
    if cls is None or cls.sees_everything:
        raise SystemExit(f"calibration: {name!r} is not a bot that plays from its own view.")
    budget = level.budget or cls.default_budget
    return make_bot(name, rng=rng, budget=Budget(iterations=budget.iterations))


def parse_pairs(text: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for part in text.split(","):
        names = part.strip().split(":")
        if len(names) != 2 or not all(names):
            raise SystemExit(f"calibration: a pair is written A:B, not {part!r}.")
        for name in names:
            untimed_bot(name, random.Random(0))
        pairs.append((names[0], names[1]))
    return tuple(pairs)


# ------------------------------------------------------------------ playing


@dataclass(frozen=True)
class Row:
    """One decision with a choice: what was predicted, and what happened."""

    game: int
    shuffle: int
    """The deck's number: games ``2k`` and ``2k + 1`` play shuffle ``k``, the seats swapped."""
    index: int
    """The action's place in the deal (0 first)."""
    player: int
    bot: str
    opponent: str
    legal: int
    chance: float
    """The review's estimate for the action chosen, from the player's observation."""
    search: float | None
    """The bot's own search result for it, as a chance ((mean + 1) / 2), if it searched."""
    result: float
    """The deal's result for the player: 1 won, 0.5 drawn, 0 lost."""
    ends: bool = False
    """The action ended the deal at once (going out): its chance is its known result, which
    the review shows as it is, uncorrected.  (False in the files written before the field.)"""


@dataclass
class GamePlayed:
    game: int
    rows: list[Row]
    forced: int
    """Decisions with one legal action, left out."""


@dataclass(frozen=True)
class Config:
    pairs: tuple[tuple[str, str], ...]
    seed: int
    samples: int

    def player(self) -> Player:
        return Player(self)


class Player:
    """Plays games in one process (run in each worker by ``run_parallel``)."""

    def __init__(self, config: Config) -> None:
        self.config = config

    def play_deals(self, start: int, stop: int) -> list[GamePlayed]:
        return [self.play(game) for game in range(start, stop)]

    def close(self, *, now: bool = False) -> None:
        pass

    def play(self, game: int) -> GamePlayed:
        config = self.config
        shuffle, swapped = divmod(game, 2)
        pair = config.pairs[shuffle % len(config.pairs)]
        names = (pair[1], pair[0]) if swapped else pair
        g = Game(seed=derive_seed(config.seed, "deal", shuffle), dealer=shuffle % 2, players=names)
        bots = [
            untimed_bot(names[p], random.Random(derive_seed(config.seed, "bot", game, p)))
            for p in (0, 1)
        ]
        driver = SeatDriver([Seat(names[p], bots[p]) for p in (0, 1)], g.rules)
        driver.start(g)
        pending: list[tuple[int, int, int, float, float | None, bool]] = []
        forced = 0
        while not g.state.is_over:
            turn = driver.bot_turn()
            index = len(g.history)
            action = turn.decide()
            legal = len(turn.obs.legal_actions)
            if legal > 1:
                # from the player's observation only: what he could see when he chose
                (chance,) = action_chances(
                    turn.obs,
                    [action],
                    samples=config.samples,
                    seed=f"calibration:{config.seed}:{game}:{index}",
                )
                why = turn.bot.why
                search = (why.mean + 1) / 2 if why is not None and why.key == "searched" else None
                (ends,) = ends_deal(turn.obs, [action])
                pending.append((index, turn.player, legal, chance, search, ends))
            else:
                forced += 1
            driver.push(turn.player, action)
        outcome = g.state.outcome()
        assert outcome is not None
        driver.tell_bots(outcome.winner)
        rows = []
        for index, player, legal, chance, search, ends in pending:
            winner = outcome.winner
            result = 0.5 if winner is None else 1.0 if winner == player else 0.0
            rows.append(
                Row(
                    game=game,
                    shuffle=shuffle,
                    index=index,
                    player=player,
                    bot=names[player],
                    opponent=names[1 - player],
                    legal=legal,
                    chance=chance,
                    search=search,
                    result=result,
                    ends=ends,
                )
            )
        return GamePlayed(game, rows, forced)


@dataclass
class Collected:
    """What ``run_parallel`` fills in: the games played, in any order."""

    deals_requested: int
    first_deal: int = 0
    elapsed_s: float = 0.0
    interrupted: bool = False
    jobs: int = 1
    games: list[GamePlayed] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return len(self.games)

    def add(self, games: Sequence[GamePlayed]) -> None:
        self.games.extend(games)


def play(
    config: Config,
    games: int,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    *,
    first: int = 0,
) -> tuple[list[Row], int, list[int], float]:
    """Every decision with a choice of ``games`` games (numbered from ``first``), the
    decisions left out, the numbers of the games played (fewer when Ctrl-C stopped the
    run: the games finished are kept) and the seconds taken."""
    started = time.perf_counter()
    collected = Collected(deals_requested=games, first_deal=first, jobs=jobs)
    try:
        if jobs <= 1:
            player = config.player()
            for game in range(first, first + games):
                collected.add(player.play_deals(game, game + 1))
                if progress is not None:
                    progress(collected.deals, games)
        else:
            run_parallel(
                config,
                collected,
                jobs,
                started,
                None if progress is None else lambda done, total, _: progress(done, total),
            )
    except KeyboardInterrupt:
        collected.interrupted = True
    played = sorted(collected.games, key=lambda g: g.game)
    rows = [row for g in played for row in g.rows]
    forced = sum(g.forced for g in played)
    return rows, forced, [g.game for g in played], time.perf_counter() - started


# ------------------------------------------------------------------ statistics


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share observed over ``n`` trials (a draw counts half)."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (share + z2 / (2 * n)) / denominator
    half = z * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def bin_of(chance: float) -> int:
    """The bin of a chance: 0 for 0-10%, ..., 9 for 90-100% (1.0 included)."""
    return min(BINS - 1, max(0, math.floor(chance * BINS + 1e-9)))


def logit(p: float) -> float:
    p = min(1.0 - LOGIT_CLIP, max(LOGIT_CLIP, p))
    return math.log(p / (1.0 - p))


RIDGE = 1.0
"""Weight of a penalty ``RIDGE * ((a - 1)^2 + b^2)`` on the fit: no correction unless the
results call for one (negligible over thousands of decisions; keeps a fit on a few finite)."""


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _loss(xs: Sequence[float], ys: Sequence[float], a: float, b: float) -> float:
    total = RIDGE * ((a - 1.0) ** 2 + b * b)
    for x, y in zip(xs, ys, strict=True):
        z = a * x + b
        # -[y log q + (1 - y) log(1 - q)] with q = sigmoid(z), computed stably
        total += max(z, 0.0) - y * z + math.log1p(math.exp(-abs(z)))
    return total


def fit_platt(pairs: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """``(a, b)`` maximizing the likelihood of the results under
    ``q = sigmoid(a * logit(p) + b)``: a logistic regression on the logit of the predicted
    chance, the results as fractional outcomes (a draw counts half), by Newton's method
    with step halving, with the small :data:`RIDGE` penalty towards no correction."""
    xs = [logit(p) for p, _ in pairs]
    ys = [y for _, y in pairs]
    a, b = 1.0, 0.0
    loss = _loss(xs, ys, a, b)
    for _ in range(100):
        ga = -2 * RIDGE * (a - 1.0)
        gb = -2 * RIDGE * b
        haa = hbb = 2 * RIDGE
        hab = 0.0
        for x, y in zip(xs, ys, strict=True):
            q = sigmoid(a * x + b)
            w = q * (1.0 - q)
            ga += (y - q) * x
            gb += y - q
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        step = 1.0
        while step > 1e-6:
            new = _loss(xs, ys, a + step * da, b + step * db)
            if new <= loss:
                break
            step /= 2
        else:
            break
        a, b, loss = a + step * da, b + step * db, new
        if abs(step * da) < 1e-9 and abs(step * db) < 1e-9:
            break
    return a, b


def brier(pairs: Sequence[tuple[float, float]]) -> float | None:
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs) if pairs else None


@dataclass(frozen=True)
class Point:
    predicted: float
    result: float
    cluster: int


def calibration_table(points: Sequence[Point], *, seed: int) -> dict[str, Any]:
    """Ten bins of predicted chance: count, mean prediction, observed share (Wilson and
    cluster-bootstrap 95% intervals), gap; and the summary over every decision."""
    count = [0] * BINS
    predicted = [0.0] * BINS
    observed = [0.0] * BINS
    by_cluster: dict[int, list[list[float]]] = {}
    for point in points:
        k = bin_of(point.predicted)
        count[k] += 1
        predicted[k] += point.predicted
        observed[k] += point.result
        sums = by_cluster.setdefault(point.cluster, [[0.0] * BINS for _ in range(3)])
        sums[0][k] += 1
        sums[1][k] += point.predicted
        sums[2][k] += point.result
    clusters = list(by_cluster.values())
    rng = random.Random(f"calibration-bootstrap:{seed}")
    shares: list[list[float]] = [[] for _ in range(BINS)]
    gaps: list[list[float]] = [[] for _ in range(BINS)]
    for _ in range(BOOTSTRAP if clusters else 0):
        n = [0.0] * BINS
        pred = [0.0] * BINS
        obs = [0.0] * BINS
        for _ in clusters:
            c, s_pred, s_obs = clusters[rng.randrange(len(clusters))]
            for k in range(BINS):
                if c[k]:
                    n[k] += c[k]
                    pred[k] += s_pred[k]
                    obs[k] += s_obs[k]
        for k in range(BINS):
            if n[k]:
                shares[k].append(obs[k] / n[k])
                gaps[k].append((obs[k] - pred[k]) / n[k])
    bins = []
    for k in range(BINS):
        n_k = count[k]
        row: dict[str, Any] = {
            "bin": f"{10 * k}-{10 * (k + 1)}%",
            "low": k / BINS,
            "high": (k + 1) / BINS,
            "count": n_k,
            "deals": sum(1 for c in clusters if c[0][k]),
        }
        if n_k:
            mean_p, share = predicted[k] / n_k, observed[k] / n_k
            row |= {
                "mean_predicted": round(mean_p, 4),
                "observed": round(share, 4),
                "wilson_95": [round(x, 4) for x in wilson(share, n_k)],
                "bootstrap_95": [round(x, 4) for x in _quantiles(shares[k])],
                "gap": round(share - mean_p, 4),
                "gap_bootstrap_95": [round(x, 4) for x in _quantiles(gaps[k])],
                "within_tolerance": abs(share - mean_p) <= TOLERANCE,
            }
        bins.append(row)
    filled = [b for b in bins if b["count"]]
    total = len(points)
    pairs = [(p.predicted, p.result) for p in points]
    return {
        "decisions": total,
        "clusters": len(clusters),
        "bins": bins,
        "bins_within_tolerance": sum(b["within_tolerance"] for b in filled),
        "bins_filled": len(filled),
        "max_abs_gap": round(max((abs(b["gap"]) for b in filled), default=0.0), 4),
        "expected_calibration_error": round(
            sum(b["count"] * abs(b["gap"]) for b in filled) / total, 4
        )
        if total
        else None,
        "brier": None if not total else round(brier(pairs) or 0.0, 4),
        "mean_predicted": round(sum(p for p, _ in pairs) / total, 4) if total else None,
        "mean_observed": round(sum(y for _, y in pairs) / total, 4) if total else None,
    }


def _quantiles(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 1.0
    ordered = sorted(values)
    return ordered[int(0.025 * (len(ordered) - 1))], ordered[int(0.975 * (len(ordered) - 1))]


# ------------------------------------------------------------------ the report


def analyse(rows: Sequence[Row], seed: int) -> dict[str, Any]:
    """Every table: the review's estimate over all decisions, by bot, the correction fitted
    on even shuffles and checked on odd ones, the shipped correction, the search's mean."""

    def points(
        selected: Sequence[Row], predict: Callable[[Row], float | None], *, by: str = "shuffle"
    ) -> list[Point]:
        found = []
        for row in selected:
            p = predict(row)
            if p is not None:
                found.append(Point(p, row.result, row.shuffle if by == "shuffle" else row.game))
        return found

    def review(row: Row) -> float:
        return row.chance

    fitting = [r for r in rows if r.shuffle % 2 == 0]
    checking = [r for r in rows if r.shuffle % 2 == 1]
    estimated = [(r.chance, r.result) for r in fitting if not r.ends]
    a, b = fit_platt(estimated) if estimated else (1.0, 0.0)

    # as the review shows them: a deal-ending action's known result stays as it is
    def fitted(row: Row) -> float:
        return row.chance if row.ends else calibrated_chance(row.chance, (a, b))

    def shipped(row: Row) -> float:
        return row.chance if row.ends else calibrated_chance(row.chance)

    def searched(row: Row) -> float | None:
        return row.search

    tables: dict[str, Any] = {
        "review": calibration_table(points(rows, review), seed=seed),
        "review_by_game": calibration_table(points(rows, review, by="game"), seed=seed),
        "check_raw": calibration_table(points(checking, review), seed=seed),
        "check_fitted": calibration_table(points(checking, fitted), seed=seed),
        "shipped": calibration_table(points(rows, shipped), seed=seed),
        "search_mean": calibration_table(points(rows, searched), seed=seed),
    }
    for bot in sorted({r.bot for r in rows}):
        mine = [r for r in rows if r.bot == bot]
        tables[f"review_{bot}"] = calibration_table(points(mine, review), seed=seed)
    return {
        "fit": {
            "method": "platt",
            "fitted_on": "even shuffles",
            "checked_on": "odd shuffles",
            "a": round(a, 4),
            "b": round(b, 4),
            "fitting_decisions": len(fitting),
            "checking_decisions": len(checking),
        },
        "shipped_correction": {"a": CALIBRATION[0], "b": CALIBRATION[1]},
        "tables": tables,
    }


TITLES = {
    "review": "The review's estimate, every decision (bootstrap over shuffles)",
    "check_raw": "Check half (odd shuffles), the review's estimate as it is",
    "check_fitted": "Check half (odd shuffles), corrected by the fit on the even shuffles",
    "shipped": "Every decision, corrected by the shipped review.CALIBRATION",
    "search_mean": "The search's own mean result for the action it chose (search bots only)",
}


DASH = " \N{EN DASH} "


def format_table(title: str, table: dict[str, Any]) -> str:
    lines = [
        f"{title}: {table['decisions']} decisions, {table['clusters']} shuffles",
        "| predicted | decisions | mean predicted | observed | 95% Wilson | 95% bootstrap | gap |",
        "|---|---:|---:|---:|---|---|---:|",
    ]
    for row in table["bins"]:
        if not row["count"]:
            lines.append(f"| {row['bin']} | 0 | | | | | |")
            continue
        wl, wh = row["wilson_95"]
        bl, bh = row["bootstrap_95"]
        mark = "" if row["within_tolerance"] else " ✗"
        lines.append(
            f"| {row['bin']} | {row['count']} | {100 * row['mean_predicted']:.1f}% "
            f"| {100 * row['observed']:.1f}% | {100 * wl:.1f}{DASH}{100 * wh:.1f}% "
            f"| {100 * bl:.1f}{DASH}{100 * bh:.1f}% | {100 * row['gap']:+.1f}{mark} |"
        )
    lines.append(
        f"bins within ±{100 * TOLERANCE:.0f} points: {table['bins_within_tolerance']} of "
        f"{table['bins_filled']}; largest gap {100 * table['max_abs_gap']:.1f} points; "
        f"mean |gap| {100 * (table['expected_calibration_error'] or 0):.1f}; "
        f"Brier {table['brier']}"
    )
    return "\n".join(lines)


def report(data: dict[str, Any]) -> str:
    run = data["run"]
    parts = [
        f"{run['games']} games ({run['shuffles']} shuffles, each played twice with the seats "
        f"swapped), pairs {', '.join(run['pairs'])}, seed {run['seed']}, {run['samples']} "
        f"samples per estimate: {run['decisions']} decisions with a choice, "
        f"{run['forced']} with one legal action left out"
        + (f"; {run['elapsed_s']:.0f} s" if run.get("elapsed_s") is not None else "")
    ]
    tables = data["tables"]
    fit = data["fit"]
    for key, title in TITLES.items():
        if key == "check_fitted":
            title += f" (a = {fit['a']}, b = {fit['b']})"
        if key == "shipped":
            ship = data["shipped_correction"]
            title += f" (a = {ship['a']}, b = {ship['b']})"
        parts.append(format_table(title, tables[key]))
    by_bot = [k for k in tables if k.startswith("review_") and k != "review_by_game"]
    for key in by_bot:
        parts.append(format_table(f"The review's estimate, decisions of {key[7:]}", tables[key]))
    return "\n\n".join(parts)


def load_parts(paths: Sequence[Path]) -> tuple[dict[str, Any], list[Row]]:
    """The run and the decisions of one or more ``--save`` files, parts of one run (same
    seed, pairs and samples; games not played twice)."""
    runs = []
    rows: list[Row] = []
    for path in paths:
        lines = path.read_text("utf-8").splitlines()
        runs.append(json.loads(lines[0]))
        rows += [Row(**json.loads(line)) for line in lines[1:]]
    first = runs[0]
    for other in runs[1:]:
        if any(other[k] != first[k] for k in ("pairs", "seed", "samples")):
            raise SystemExit("calibration: the parts differ in their pairs, seed or samples.")
    numbers: list[int] = []
    for r in runs:
        ranges = r.get("played") or [[r["first_game"], r["first_game"] + r["games"] - 1]]
        numbers += [g - 1 for low, high in ranges for g in range(low, high + 1)]
    if len(set(numbers)) < len(numbers):
        raise SystemExit("calibration: the parts play some games twice.")
    run = {
        "games": len(numbers),
        "played": deal_ranges(numbers),
        "shuffles": len({g // 2 for g in numbers}),
        "pairs": first["pairs"],
        "seed": first["seed"],
        "samples": first["samples"],
        "jobs": first["jobs"],
        "forced": sum(r["forced"] for r in runs),
        "elapsed_s": round(sum(r["elapsed_s"] for r in runs), 1),
        "parts": len(runs),
    }
    rows.sort(key=lambda r: (r.game, r.index))
    return run, rows


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games to play (default 400)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--samples", type=int, default=200, help="sampled deals per estimate (the review's 200)"
    )
    parser.add_argument(
        "--pairs",
        default=",".join(DEFAULT_PAIRS),
        help="pairs of bots or levels, A:B, taken in turn (default %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object instead of tables")
    parser.add_argument(
        "--first-game",
        type=int,
        default=1,
        help="number of the first game (default 1): a long run can be played in parts",
    )
    parser.add_argument("--save", type=Path, help="write every decision to this file (JSON lines)")
    parser.add_argument(
        "--load",
        type=Path,
        nargs="+",
        help="read the decisions of one or more --save files (parts of one run) instead of playing",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    # Ctrl-C, or SIGINT or SIGTERM from elsewhere (even in the background), stops the run
    # and keeps the games finished
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)
    if args.load is not None:
        run, rows = load_parts(args.load)
    else:
        if args.games < 1 or args.samples < 1 or args.jobs < 1 or args.first_game < 1:
            parser.error("--games, --samples, --jobs and --first-game must be at least 1")
        pairs = parse_pairs(args.pairs)
        config = Config(pairs=pairs, seed=args.seed, samples=args.samples)

        def progress(done: int, total: int) -> None:
            if not args.quiet:
                print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

        first = args.first_game - 1
        rows, forced, numbers, elapsed = play(config, args.games, args.jobs, progress, first=first)
        if not args.quiet:
            print(file=sys.stderr)
        run = {
            "games": len(numbers),
            "played": deal_ranges(numbers),
            "shuffles": len({g // 2 for g in numbers}),
            "pairs": [f"{a}:{b}" for a, b in pairs],
            "seed": args.seed,
            "samples": args.samples,
            "jobs": args.jobs,
            "forced": forced,
            "elapsed_s": round(elapsed, 1),
            "interrupted": len(numbers) < args.games,
        }
        if args.save is not None:
            with args.save.open("w", encoding="utf-8") as out:
                out.write(json.dumps(run) + "\n")
                for row in rows:
                    out.write(json.dumps(asdict(row)) + "\n")
    run["decisions"] = len(rows)
    run["games_with_decisions"] = len({r.game for r in rows})
    data = {"format": "conquian-calibration/1", "run": run, **analyse(rows, run["seed"])}
    print(json.dumps(data, indent=1) if args.json else report(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
