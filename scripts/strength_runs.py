"""Play the long strength measurements in parts that survive a stop, and print their tables.

    python scripts/strength_runs.py population [--deals 2000] [--part 250] [--jobs 2]
    python scripts/strength_runs.py ladder --seed S [--deals 2000] [--part 250] [--jobs 2]
        [--matches A:B,...]
    python scripts/strength_runs.py table population|ladder [--seed S]
    python scripts/strength_runs.py table fresh
    python scripts/strength_runs.py shares RESULT.json [RESULT.json ...]

Each match is played with ``conquian arena`` in parts of ``--part`` duplicate deals (the same
seed, consecutive deals, so exactly the deals one long run would play), each part's JSON result
written to ``docs/strength-data/<programme>/`` as it ends; a part already there is not played
again, so a stopped run goes on where it stopped.  ``table`` puts the parts together
(``conquian arena-combine``'s arithmetic) and prints the Markdown rows of ``docs/strength.md``,
the worst win rate first.

- ``population``: ``expert`` against every style of :data:`conquian.bots.STYLE_NAMES`,
  ``greedy`` and ``heuristic``, seed 2027.
- ``ladder``: each level against the one below, on a seed given after the tuning is done;
  ``table fresh`` puts the steps on the three seeds of :data:`FRESH_SEEDS` side by side.

``shares`` reads the JSON of three- or four-player matches (``conquian arena A B C --rules
tercerilla --json``) and prints, for each pair of bots, the difference of their win shares
with a 95% interval from the shuffles' paired differences (each shuffle is played in every
seating, so the shuffles are the independent units): a bot's win share is *above* another's at
the 95% level when the interval's lower end is above 0.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from conquian.bots import LEVELS, STYLE_NAMES
from conquian.tools.arena import combine_results

DATA = Path(__file__).resolve().parent.parent / "docs" / "strength-data"
POPULATION_SEED = 2027
"""The population's seed: not one any bot was tuned on."""
FRESH_SEEDS = (20261207, 20261208, 20261209)
"""The ladder's seeds chosen after the tuning of 2026-12-07 (``table fresh``)."""


def matches(programme: str) -> list[tuple[str, str]]:
    """The (A, B) pairs of a programme."""
    if programme == "population":
        return [("expert", style) for style in ("greedy", "heuristic", *STYLE_NAMES)]
    levels = list(LEVELS)
    return [(upper, lower) for lower, upper in itertools.pairwise(levels)]


def folder(programme: str, seed: int) -> Path:
    return DATA / (programme if programme == "population" else f"ladder-{seed}")


def part_path(programme: str, seed: int, a: str, b: str, first: int, deals: int) -> Path:
    return folder(programme, seed) / f"{a}_{b}_deals_{first}-{first + deals - 1}.json"


def play(
    programme: str, seed: int, deals: int, part: int, jobs: int, only: list[str] | None = None
) -> None:
    """Play every part not played yet, the matches in turn, a part at a time (``only``: the
    matches named ``A:B``)."""
    folder(programme, seed).mkdir(parents=True, exist_ok=True)
    chosen = [(a, b) for a, b in matches(programme) if only is None or f"{a}:{b}" in only]
    for first in range(1, deals + 1, part):
        size = min(part, deals - first + 1)
        for a, b in chosen:
            path = part_path(programme, seed, a, b, first, size)
            if path.exists():
                continue
            command = [
                sys.executable, "-m", "conquian.cli", "arena", a, b,
                "--deals", str(size), "--first-deal", str(first),
                "--jobs", str(jobs), "--seed", str(seed), "--json",
            ]  # fmt: skip
            result = subprocess.run(command, capture_output=True, text=True, check=False)
            data = json.loads(result.stdout) if result.returncode == 0 else None
            if data is None or data.get("interrupted"):
                sys.exit(f"{a} vs {b}, deals {first}-{first + size - 1}: {result.stderr[-500:]}")
            tmp = path.with_suffix(".part")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            tmp.rename(path)
            print(f"{a} vs {b}, deals {first}-{first + size - 1}: {data['win_rate']:.1%}")


def combined(programme: str, seed: int) -> list[dict[str, Any]]:
    """Each match's parts put together (those with at least one part)."""
    rows = []
    for a, b in matches(programme):
        parts = sorted(folder(programme, seed).glob(f"{a}_{b}_deals_*.json"))
        if parts:
            rows.append(combine_results([json.loads(p.read_text("utf-8")) for p in parts]))
    return rows


def table(programme: str, seed: int) -> str:
    """The Markdown rows, worst win rate first."""
    lines = [
        "| A vs B | deals | A wins / losses / draws | A win rate | 95% CI | A ms/move p50 / p90 |",
        "|---|---:|---|---:|---|---|",
    ]
    rows = combined(programme, seed)
    if programme == "population":
        rows.sort(key=lambda r: r["win_rate"])
    for r in rows:
        a = r["bot_a"]
        p50, p90 = a.get("ms_per_move_p50"), a.get("ms_per_move_p90")
        latency = "—" if p50 is None else f"{p50:.2f} / {p90:.2f}"
        lines.append(
            f"| {a['spec']} vs {r['bot_b']['spec']} | {r['deals']:,} | {r['wins']} / {r['losses']} / "
            f"{r['draws']} | **{r['win_rate']:.1%}** | {r['ci95_low']:.1%} \u2013 "
            f"{r['ci95_high']:.1%} | {latency} |"
        )
    return "\n".join(lines)


def fresh_table() -> str:
    """The ladder's steps on :data:`FRESH_SEEDS`, a column a seed: the win rate of the decided
    deals and its 95% interval, with the deals played where they are fewer than 2,000."""
    seeds = FRESH_SEEDS
    lines = ["| step | " + " | ".join(str(s) for s in seeds) + " |", "|---|" + "---:|" * len(seeds)]
    by_seed = {s: {r["bot_a"]["spec"]: r for r in combined("ladder", s)} for s in seeds}
    for upper, lower in reversed(matches("ladder")):
        cells = []
        for s in seeds:
            r = by_seed[s].get(upper)
            if r is None:
                cells.append("—")
                continue
            low, high = f"{r['ci95_low']:.1%}"[:-1], f"{r['ci95_high']:.1%}"[:-1]
            cell = f"{r['win_rate']:.1%} ({low}\u2013{high})"
            cells.append(cell if r["deals"] >= 2000 else f"{cell}, {r['deals']:,} deals")
        lines.append(f"| {upper} vs {lower} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def share_differences(result: dict[str, Any]) -> list[tuple[str, str, float, float, float]]:
    """Each pair of bots (in the result's order), the difference of their win shares and
    its 95% interval from the per-shuffle differences.

    >>> result = {"bots": [{"spec": "a"}, {"spec": "b"}, {"spec": "c"}],
    ...           "results": [[1, "012", 0, None], [1, "021", 1, None],
    ...                       [2, "012", 0, None], [2, "021", None, None]]}
    >>> [(a, b, round(d, 2)) for a, b, d, _, _ in share_differences(result)]
    [('a', 'b', 0.25), ('a', 'c', 0.5), ('b', 'c', 0.25)]
    """
    names = [bot["spec"] for bot in result["bots"]]
    per_deal: dict[int, list[int]] = {}
    games: dict[int, int] = {}
    for deal, _seating, winner, _failure in result["results"]:
        wins = per_deal.setdefault(deal, [0] * len(names))
        games[deal] = games.get(deal, 0) + 1
        if winner is not None:
            wins[winner] += 1
    rows = []
    for i, j in itertools.combinations(range(len(names)), 2):
        diffs = [(w[i] - w[j]) / games[d] for d, w in per_deal.items()]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((x - mean) ** 2 for x in diffs) / max(1, n - 1)
        half = 1.96 * (var / n) ** 0.5
        rows.append((names[i], names[j], mean, mean - half, mean + half))
    return rows


def main(argv: list[str] | None = None) -> None:
    if argv is None and sys.argv[1:2] == ["shares"]:
        for path in sys.argv[2:]:
            result = json.loads(Path(path).read_text("utf-8"))
            for a, b, diff, low, high in share_differences(result):
                print(f"{path}: {a} - {b}: {diff:+.1%} ({low:+.1%} .. {high:+.1%})")
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["population", "ladder", "table"])
    parser.add_argument("programme", nargs="?", choices=["population", "ladder", "fresh"])
    parser.add_argument("--seed", type=int)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--part", type=int, default=250)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--matches", help="only these matches, e.g. hard:medium,medium:easy")
    args = parser.parse_args(argv)
    programme = args.programme if args.what == "table" else args.what
    if programme is None:
        parser.error("table needs the programme: population, ladder or fresh")
    if programme == "fresh":
        print(fresh_table())
        return
    seed = POPULATION_SEED if programme == "population" else args.seed
    if seed is None:
        parser.error("the ladder needs --seed, chosen after the tuning is done")
    if args.what == "table":
        print(table(programme, seed))
    else:
        only = args.matches.split(",") if args.matches else None
        play(programme, seed, args.deals, args.part, args.jobs, only)


if __name__ == "__main__":
    main()
