"""The levels' ratings shown to people follow from the measured ladder, and are shown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conquian.bots import LEVEL_RATINGS, LEVELS

DATA = Path(__file__).resolve().parent.parent / "docs" / "strength-data"
LADDER = [
    ("medium", "heuristic_greedy.json"),
    ("hard", "hard_medium.json"),
    ("expert", "expert_hard.json"),
]
"""Each level above easy, and the match against the level below it that rates it."""


def test_the_ratings_add_up_the_measured_steps_of_the_ladder() -> None:
    ratings = {"easy": 1000.0}
    below = "easy"
    for level, name in LADDER:
        match = json.loads((DATA / name).read_text())
        assert match["deals"] >= 2000 and not match["interrupted"]
        ratings[level] = ratings[below] + match["elo"]
        below = level
    assert {level: round(r) for level, r in ratings.items()} == LEVEL_RATINGS
    assert list(LEVEL_RATINGS) == list(LEVELS)
    assert sorted(LEVEL_RATINGS.values()) == list(LEVEL_RATINGS.values())


def test_the_help_of_play_shows_each_level_with_its_rating() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "conquian.play", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    ).stdout
    text = " ".join(shown.split())
    for level, rating in LEVEL_RATINGS.items():
        assert f"{level} {rating}" in text
