"""Legal-move counts ("perft") for a fixed list of Conquian positions.

For each position and each depth d (1 to 3) this counts

* ``sequences``: the legal action sequences of length d (the sum over the game tree of the legal
  actions; a finished deal is a leaf without children), and
* ``positions``: the distinct positions reached by exactly d decisions, told apart by their
  position strings (``conquian.format_position``).

``python scripts/perft.py`` prints the table (and says where it differs from the stored file);
``python scripts/perft.py --write`` writes it to ``tests/core/data/perft.json``, which
``tests/core/test_perft.py`` checks.  Rewrite the file only when a change of the legal actions is
intended, and say why in the commit.

Positions come either from a position string (the worked examples of docs/rules.md and
tests/core/test_examples.py, sometimes followed by a few actions) or from a seeded deal played on with
seeded random legal actions.  Only public, stable interfaces are used: ``parse_position``,
``format_position``, ``legal_actions``, ``copy``/``child``, ``is_over`` and ``Game``/``push``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import conquian

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "core" / "data" / "perft.json"


# ------------------------------------------------------------------------------------ counting


def perft(state: conquian.GameState, depth: int) -> list[dict[str, int]]:
    """``[{"depth": d, "sequences": S, "positions": P}, ...]`` for d = 1 .. depth.

    The tree is walked level by level; nodes with the same position string are merged, with the
    number of sequences that reach them as their weight (the subtree below a position depends
    only on the position).
    """
    level: dict[str, tuple[conquian.GameState, int]] = {conquian.format_position(state): (state, 1)}
    counts = []
    for d in range(1, depth + 1):
        following: dict[str, tuple[conquian.GameState, int]] = {}
        for node, weight in level.values():
            if node.is_over:
                continue
            for action in node.legal_actions():
                child = node.child(action)
                text = conquian.format_position(child)
                seen = following.get(text)
                following[text] = (child, weight + (seen[1] if seen else 0))
        counts.append(
            {
                "depth": d,
                "sequences": sum(weight for _, weight in following.values()),
                "positions": len(following),
            }
        )
        level = following
    return counts


# ----------------------------------------------------------------------------------- positions


def fields(state: conquian.GameState) -> list[str]:
    return conquian.format_position(state).split()


def phase(state: conquian.GameState) -> str:
    return fields(state)[1]


def stock_count(state: conquian.GameState) -> int:
    stock = fields(state)[10]
    return 0 if stock == "-" else len(stock) // 2  # canonical labels: two characters a card


def tables_laid(state: conquian.GameState) -> bool:
    return "-" not in fields(state)[6:8]


def after(text: str, *actions: str) -> conquian.GameState:
    """The position ``text`` after the actions given in canonical text."""
    state = conquian.parse_position(text)
    for wanted in actions:
        legal = {str(action): action for action in state.legal_actions()}
        if wanted not in legal:
            raise SystemExit(f"{wanted!r} is not legal in {conquian.format_position(state)!r}")
        state.apply(legal[wanted])
    return state


def played(
    rules: str,
    seed: int,
    dealer: int,
    stop: Callable[[conquian.GameState], bool],
) -> conquian.GameState:
    """A seeded deal played on with seeded random legal actions until ``stop`` holds.

    Actions are chosen from the legal ones sorted by their text, so that the position does not
    depend on the engine's order of the legal actions.  The deal must not end before ``stop`` holds.
    """
    game = conquian.Game(rules, seed=seed, dealer=dealer)
    rng = random.Random(seed)
    while not stop(game.state):
        if game.state.is_over:
            raise SystemExit(f"{rules} seed {seed}: the deal ended before the position was reached")
        game.push(rng.choice(sorted(game.state.legal_actions(), key=str)))
    return game.state.copy()


def mid_deal(state: conquian.GameState) -> bool:
    """8 to 12 cards in stock, both tables laid, a take-or-refuse decision."""
    return (
        8 <= stock_count(state) <= 12 and tables_laid(state) and phase(state) in ("offer", "turn")
    )


def near_end(state: conquian.GameState) -> bool:
    """At most one card in stock, a take-or-refuse decision."""
    return stock_count(state) <= 1 and phase(state) in ("offer", "turn")


def discarding(state: conquian.GameState) -> bool:
    """A discard after a take, with both tables laid and 6 to 14 cards in stock."""
    return phase(state) == "discard" and tables_laid(state) and 6 <= stock_count(state) <= 14


# E4/D10 of docs/rules.md and tests/core/test_examples.py: 5c onto 6c 7c Jc, the Bicycle rearrangement.
BICYCLE_EXAMPLE = "{} offer 0 1 JhJd2s2h4dQdKs * 6c7cJc - 5c:d - * 1"
# E7/D16: 7c discarded onto a player holding 3c 4c 5c 6c.
FORCE_EXAMPLE = "{} offer 0 1 KhKd2s2dJhQs * 3c4c5c6c - 7c:d - Ah* 1"
# E10/D20: the same with three Kings in hand (full versus minimal forced take).
FORCED_EXAMPLE = "{} offer 0 1 KhKdKs2d2hJd * 3c4c5c6c - 7c:d - * 1"

# (name, note, depth, how to build the position)
POSITIONS: list[tuple[str, str, int, Callable[[], conquian.GameState]]] = [
    (
        "standard-start",
        "start of a deal: Game('standard', seed=1, dealer=0), non-dealer's first stock card",
        3,
        lambda: conquian.Game("standard", seed=1, dealer=0).state,
    ),
    (
        "bicycle-start",
        "start of a deal: Game('bicycle', seed=1, dealer=0); passing may lay cards (meld_without_take)",
        3,
        lambda: conquian.Game("bicycle", seed=1, dealer=0).state,
    ),
    (
        "foster-start",
        "start of a deal: Game('foster', seed=2, dealer=1)",
        3,
        lambda: conquian.Game("foster", seed=2, dealer=1).state,
    ),
    (
        "wikipedia-upcard",
        "start of a deal: Game('wikipedia', seed=2, dealer=0), the initial upcard offered (source u)",
        3,
        lambda: conquian.Game("wikipedia", seed=2, dealer=0).state,
    ),
    (
        "standard-mid-deal",
        "Game('standard', seed=127, dealer=0) played on at random to 8-12 stock cards, both tables laid",
        3,
        lambda: played("standard", 127, 0, mid_deal),
    ),
    (
        "standard-discard",
        "Game('standard', seed=61, dealer=0) played on at random to a discard, both tables laid",
        3,
        lambda: played("standard", 61, 0, discarding),
    ),
    (
        "standard-near-end",
        "Game('standard', seed=95, dealer=0) played on at random to a decision with one card left in the stock",
        3,
        lambda: played("standard", 95, 0, near_end),
    ),
    (
        "foster-mid-deal",
        "Game('foster', seed=202, dealer=0) played on at random to 8-12 stock cards, both tables laid",
        3,
        lambda: played("foster", 202, 0, mid_deal),
    ),
    (
        "rearrange-free",
        "E4/D10: 5c offered to 6c 7c Jc with Jh Jd in hand; free rearrangement",
        3,
        lambda: after(BICYCLE_EXAMPLE.format("standard")),
    ),
    (
        "rearrange-none",
        "E4/D10 with rearrange_mode=none: only the lay-off 5c 6c 7c Jc",
        3,
        lambda: after(BICYCLE_EXAMPLE.format("standard,rearrange_mode=none")),
    ),
    (
        "foster-borrow-four-set",
        "E5/D11 under foster (foster_borrow): 5h offered to 4h 4s 4d 4c with 2h 3h in hand",
        3,
        lambda: after("foster offer 0 1 2h3hKcQsJd7s * 4h4s4d4c - 5h:d - * 1"),
    ),
    (
        "force-decision",
        "E7/D16 after 'decline': the opponent decides whether to force 7c (phase force)",
        3,
        lambda: after(FORCE_EXAMPLE.format("standard"), "decline"),
    ),
    (
        "forcing-off",
        "E7/D16 with forcing=off: a declined 7c goes dead and the stock card is turned",
        3,
        lambda: after(FORCE_EXAMPLE.format("standard,forcing=off")),
    ),
    (
        "forced-minimal",
        "E10/D20 with forced_take=minimal after 'decline', 'force' (phase forced)",
        3,
        lambda: after(FORCED_EXAMPLE.format("standard,forced_take=minimal"), "decline", "force"),
    ),
    (
        "own-card-force",
        "E9/D18 after 'decline': 6h turned onto two four-card runs; passing it can be forced",
        3,
        lambda: after("standard offer 0 1 KsKd * 2h3h4h5h/2c3c4c5c - Qd:d - 6h* 1", "decline"),
    ),
    (
        "empty-hand-rearrange",
        "E15: ten down, empty hand, Kh offered; the take wins (a finished deal is a leaf)",
        3,
        lambda: after("standard offer 0 1 - * QsQhQdQc/3h4h5h6h7hJh - Kh:d - * 1"),
    ),
]


def compute() -> list[dict[str, Any]]:
    entries = []
    for name, note, depth, build in POSITIONS:
        state = build()
        if depth < 3:
            note = f"{note}; depth {depth} only (deeper is too slow for the test)"
        entries.append(
            {
                "name": name,
                "note": note,
                "position": conquian.format_position(state),
                "counts": perft(state, depth),
            }
        )
    return entries


def dumps(entries: list[dict[str, Any]]) -> str:
    """The JSON text of the entries, one count to a line."""
    blocks = []
    for entry in entries:
        lines = [
            f"    {json.dumps(key)}: {json.dumps(entry[key])},"
            for key in ("name", "note", "position")
        ]
        counts = ",\n".join(f"      {json.dumps(count)}" for count in entry["counts"])
        blocks.append("  {\n" + "\n".join(lines) + '\n    "counts": [\n' + counts + "\n    ]\n  }")
    text = "[\n" + ",\n".join(blocks) + "\n]\n"
    assert json.loads(text) == entries
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Legal-move counts of fixed Conquian positions.")
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    entries = compute()
    seconds = time.perf_counter() - start
    if args.write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(dumps(entries), encoding="utf-8")
        print(f"wrote {len(entries)} positions to {OUT.relative_to(ROOT)} ({seconds:.1f} s)")
        return 0
    stored: dict[str, dict[str, Any]] = {}
    if OUT.exists():
        stored = {e["name"]: e for e in json.loads(OUT.read_text(encoding="utf-8"))}
    print(f"{'name':24} {'depth':>5} {'sequences':>10} {'positions':>10}")
    differs = False
    for entry in entries:
        old = stored.get(entry["name"], {})
        same = (old.get("position"), old.get("counts")) == (entry["position"], entry["counts"])
        differs = differs or not same
        for c in entry["counts"]:
            print(f"{entry['name']:24} {c['depth']:>5} {c['sequences']:>10} {c['positions']:>10}")
        mark = "" if same or not stored else "   (differs from the stored file)"
        print(f"  {entry['position']}{mark}")
    print(f"{len(entries)} positions in {seconds:.1f} s")
    if differs and stored:
        print("Run with --write to store these counts, if the change is intended.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
