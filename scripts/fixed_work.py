"""A fixed amount of engine work, for counting instructions instead of timing.

Plays ``N`` random legal games (seeds 0..N-1, the same choices on every version) on the
core API alone, so two checkouts can be compared on a noisy machine with callgrind::

    PYTHONPATH=OLD/src valgrind --tool=callgrind python scripts/fixed_work.py 1000
    PYTHONPATH=NEW/src valgrind --tool=callgrind python scripts/fixed_work.py 1000

(subtract a run with ``0`` games to leave out start-up and compiling). It prints the number
of decisions played, which must be the same on both.
"""

from __future__ import annotations

import random
import sys

from conquian.rules import find_rules
from conquian.state import GameState


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rules = find_rules("standard")
    rng = random.Random(1)
    decisions = 0
    for seed in range(games):
        state = GameState.deal(rules, seed=seed, dealer=seed % 2)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    print(decisions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
