"""The levels' ratings shown to people follow from the measured ladder, and are shown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conquian.bots import LEVEL_RATINGS, LEVELS

DATA = Path(__file__).resolve().parent.parent / "docs" / "strength-data" / "levels"
ANCHOR = ("hard", "hard_greedy.json")
"""The level rated against ``greedy`` (= 1000), and its match."""
STEPS = [
    ("expert", "hard", "expert_hard.json"),
    ("hard", "medium", "hard_medium.json"),
    ("medium", "easy", "medium_easy.json"),
    ("easy", "beginner", "easy_beginner.json"),
]
"""Each step of the ladder: the level above, the level below, their match."""


def _match(name: str, bot_a: str, bot_b: str) -> dict[str, object]:
    match: dict[str, object] = json.loads((DATA / name).read_text())
    assert (match["bot_a"]["spec"], match["bot_b"]["spec"]) == (bot_a, bot_b)  # type: ignore[index]
    assert match["deals"] >= 2000 and not match["interrupted"] and not match["failures"]
    return match


def test_the_ratings_add_up_the_measured_steps_of_the_ladder() -> None:
    level, name = ANCHOR
    ratings = {level: 1000.0 + float(_match(name, level, "greedy")["elo"])}  # type: ignore[arg-type]
    for above, below, name in STEPS:
        elo = float(_match(name, above, below)["elo"])  # type: ignore[arg-type]
        if above in ratings:
            ratings[below] = ratings[above] - elo
        else:
            ratings[above] = ratings[below] + elo
    assert {level: round(r) for level, r in ratings.items()} == LEVEL_RATINGS
    assert list(LEVEL_RATINGS) == list(LEVELS)
    assert sorted(LEVEL_RATINGS.values()) == list(LEVEL_RATINGS.values())


def test_each_level_wins_at_least_60_percent_of_decided_deals_against_the_one_below() -> None:
    for above, below, name in STEPS:
        match = _match(name, above, below)
        assert float(match["win_rate"]) >= 0.60, (above, below, match["win_rate"])  # type: ignore[arg-type]


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
