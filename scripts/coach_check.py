"""Measure how far the coach agrees with itself, over the decisions of bot deals.

    python scripts/coach_check.py [--deals 20] [--seed 1]

For each decision with a choice of player 0 in ``--deals`` deals between ``heuristic`` (player
0) and the styles of play in turn, it asks the coach for a hint (200 sampled deals, seed 0),
for the same hint with seeds 1 and 2, and for the review's judgement (400 sampled deals, the
hint's first).  It prints:

- *flips*: of the pairs of moves the hint called clearly apart, how many the other seeds
  ranked the other way;
- *review order*: of the same pairs, how many the review ranked the hint's way;
- *marked hints*: decisions where the review marked the hint's own move (should be none);
- how often the review's best move is the hint's.
"""

from __future__ import annotations

import argparse
import itertools

from conquian.bots import STYLE_NAMES, make_bot
from conquian.bots.coach import HINT_SAMPLES, REVIEW_SAMPLES, advise
from conquian.bots.review import ReviewSettings, judge_decision, player_decisions
from conquian.match import Match
from conquian.records import GameRecord
from conquian.seats import Seat, SeatDriver


def deal_record(seed: int, style: str) -> GameRecord:
    match = Match("standard", seed=seed, players=("heuristic", style))
    seats = [Seat("heuristic", make_bot("heuristic")), Seat(style, make_bot(style))]
    driver = SeatDriver(seats, match=match, bot_seed=seed)
    game = driver.start()
    while not game.state.is_over:
        turn = driver.bot_turn()
        driver.push(turn.player, turn.decide())
    driver.settle()
    return GameRecord.from_game(match.games[0])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    styles = itertools.cycle(("greedy", *STYLE_NAMES))
    pairs = flips = agree = decisions = marked = same_best = 0
    settings = ReviewSettings(samples=REVIEW_SAMPLES)
    for deal in range(args.deals):
        record = deal_record(args.seed + deal, next(styles))
        found, _ = player_decisions(record, 0)
        for _, obs, played in found:
            if len(obs.legal_actions) < 2:
                continue
            decisions += 1
            hint = advise(obs, samples=HINT_SAMPLES)
            others = [advise(obs, samples=HINT_SAMPLES, seed=s) for s in (1, 2)]
            review = advise(obs, samples=REVIEW_SAMPLES, include=played)
            same_best += review.best == hint.best
            if judge_decision(obs, hint.best, settings).mark is not None:
                marked += 1
            for action in hint.actions[1:]:
                if not hint.clearly_worse(action):
                    continue
                for other in others:
                    pairs += 1
                    flips += other.chance(hint.best) < other.chance(action)
                if action in review.actions:
                    agree += review.chance(hint.best) >= review.chance(action)
        print(f"deal {deal + 1}: {decisions} decisions so far", flush=True)
    clear = pairs // 2
    print(f"decisions with a choice: {decisions}")
    print(f"pairs the hint called clearly apart: {clear}")
    print(f"flips over seeds 1 and 2: {flips} of {pairs} ({flips / max(1, pairs):.1%})")
    print(f"review ranks them the hint's way: {agree} of {clear}")
    print(f"the review's best is the hint's: {same_best} of {decisions}")
    print(f"the review marks the hint's move: {marked} of {decisions}")


if __name__ == "__main__":
    main()
