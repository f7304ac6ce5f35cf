"""Readable golden playthroughs: one seeded deal of each preset, every decision written out.

For each deal listed in ``PLAYTHROUGHS`` this writes a text file under
``tests/core/data/playthroughs/`` that a person can read and review as a diff: for every decision
the position string (``conquian.format_position``: every hand and the stock, so the files are for
developers, never for players), whose turn it is and the phase, the legal actions in the engine's
order, the action chosen and the public event it made (as the other players saw it: an exchange
choice shows as ``exchange ?``), and at the end the outcome, the final position and the record's
result line.

The actions are chosen by ``random.Random(seed)`` from the legal actions sorted by their text, so
a deal replays the same way as long as the legal actions stay the same, and any change of them
shows in the file at the decision where it happens.  The chooser and the text use nothing but the
standard library and the core (``Game``, ``legal_actions``, ``push``, ``format_position``,
``public_event``, ``GameRecord``).

``python scripts/playthroughs.py`` compares the files with the deals played now and prints a
unified diff of each file that differs; ``python scripts/playthroughs.py --write`` writes them.
``tests/core/test_playthroughs.py`` makes the same comparison.  Rewrite the files only when a
change of behaviour is intended, and say in the commit which moves changed and why.
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
from pathlib import Path

import conquian
from conquian.observation import PublicEvent

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "core" / "data" / "playthroughs"
REGENERATE = "python scripts/playthroughs.py --write"
DIFF_WINDOW = 16
"""A difference is shown for this many lines (four decisions) from the first line that differs."""

# (file name without .txt, rules spec, seed, dealer, what the deal shows)
PLAYTHROUGHS: list[tuple[str, str, int, int, str]] = [
    (
        "standard",
        "standard",
        150,
        0,
        "two forced takes and a card not forced; player 0 goes out",
    ),
    (
        "bicycle",
        "bicycle",
        92,
        0,
        "cards laid before passing a stock card (meld_without_take), a minimal forced take",
    ),
    (
        "foster",
        "foster",
        76,
        0,
        "foster_borrow rearranging, two forced takes, cards dealt two at a time",
    ),
    (
        "wikipedia",
        "wikipedia",
        41,
        1,
        "the initial upcard offered to both players and declined by both",
    ),
    (
        "mexican-2",
        "mexican,num_players=2",
        89,
        1,
        "the exchange as a swap, forcing by the player who paid the card",
    ),
    (
        "tercerilla-3",
        "tercerilla",
        234,
        0,
        "three players: the exchange, cards offered round the table and going dead, a force",
    ),
    (
        "mexican-4",
        "mexican,num_players=4",
        484,
        0,
        "four players: the exchange, cards offered round the table and going dead, two forces",
    ),
]


def choose(state: conquian.GameState, rng: random.Random) -> conquian.Action:
    """A random legal action, from the legal actions sorted by their text (so the choice does
    not depend on the engine's order of them)."""
    return rng.choice(sorted(state.legal_actions(), key=str))


def seen_by_others(event: PublicEvent, num_players: int) -> PublicEvent:
    """The event as a player other than the one who acted saw it."""
    return event.seen_by((event.player + 1) % num_players)


def playthrough(rules: str, seed: int, dealer: int, note: str) -> str:
    """The text of one seeded deal played to its end by :func:`choose`.

    >>> text = playthrough("standard", 150, 0, "an example")
    >>> text.splitlines()[4]
    '1. player 1 to act, phase turn, 19 cards in stock'
    """
    game = conquian.Game(rules, seed=seed, dealer=dealer)
    rng = random.Random(seed)
    n = game.rules.num_players
    lines = [
        f"# Conquian playthrough: {rules}, seed {seed}, dealer {dealer}: {note}.",
        "# Each decision: whose turn and the phase, the position string, the legal actions in the",
        "# engine's order, then the action chosen by random.Random(seed) among the legal actions",
        f"# sorted by text, and its public event.  Regenerate: {REGENERATE}",
    ]
    number = 0
    while not game.state.is_over:
        state = game.state
        number += 1
        legal = state.legal_actions()
        lines += [
            f"{number}. player {state.to_act} to act, phase {state.phase.value}, "
            f"{state.stock_count} cards in stock",
            f"   position: {conquian.format_position(state)}",
            f"   legal ({len(legal)}): {' | '.join(str(a) for a in legal)}",
        ]
        action = choose(state, rng)
        game.push(action)  # (changes game.state, and so state, in place)
        lines.append(f"   chosen: {action}   event: {seen_by_others(game.history[-1], n)}")
    record = conquian.GameRecord.from_game(game)
    lines += [
        f"end after {number} decisions: {game.state.outcome()}",
        f"   position: {conquian.format_position(game.state)}",
        f"   record result: {record.result}",
    ]
    return "\n".join(lines) + "\n"


def texts() -> dict[str, str]:
    """Every playthrough's file name and text."""
    return {
        f"{name}.txt": playthrough(rules, seed, dealer, note)
        for name, rules, seed, dealer, note in PLAYTHROUGHS
    }


def difference(name: str, stored: str, fresh: str) -> str:
    """A message showing, as a unified diff, the first lines where a stored playthrough and the
    one played now differ (up to ``DIFF_WINDOW`` lines from the first difference, so that both
    sides of it show), and how to regenerate the files.

    >>> print(difference("x.txt", "a\\nb\\nc\\n", "a\\nB\\nc\\n"))
    x.txt differs from the deal played now from line 2 on (- stored, + now):
    --- stored/x.txt
    +++ now/x.txt
    @@ -1,3 +1,3 @@
     a
    -b
    +B
     c
    If the change of behaviour is intended, regenerate with: python scripts/playthroughs.py --write
    """
    old, new = stored.splitlines(), fresh.splitlines()
    first = next(
        (i for i, (line, other) in enumerate(zip(old, new, strict=False)) if line != other),
        min(len(old), len(new)),
    )
    end = first + DIFF_WINDOW
    diff = difflib.unified_diff(old[:end], new[:end], f"stored/{name}", f"now/{name}", lineterm="")
    further = [] if old[end:] == new[end:] else [f"... (and they differ after line {end})"]
    return "\n".join(
        [
            f"{name} differs from the deal played now from line {first + 1} on (- stored, + now):",
            *diff,
            *further,
            f"If the change of behaviour is intended, regenerate with: {REGENERATE}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Golden playthroughs of seeded Conquian deals.")
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}/")
    args = parser.parse_args(argv)
    fresh = texts()
    if args.write:
        OUT.mkdir(parents=True, exist_ok=True)
        for name, text in fresh.items():
            (OUT / name).write_text(text, encoding="utf-8")
        lines = sum(text.count("\n") for text in fresh.values())
        print(f"wrote {len(fresh)} playthroughs ({lines} lines) to {OUT.relative_to(ROOT)}/")
        return 0
    differs = 0
    for name, text in fresh.items():
        path = OUT / name
        stored = path.read_text(encoding="utf-8") if path.exists() else ""
        if stored != text:
            differs += 1
            print(difference(name, stored, text))
    print(f"{len(fresh) - differs} of {len(fresh)} playthroughs as stored")
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
