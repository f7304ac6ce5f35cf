"""``scripts/strength_runs.py``: long matches played in parts that survive a stop."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
import strength_runs


def test_parts_are_played_once_and_put_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match is played a part at a time, each part's result kept as it ends; played again,
    the parts already there are skipped; the fresh seeds' table shows what is played, with
    the number of deals where it is short of 2,000."""
    monkeypatch.setattr(strength_runs, "DATA", tmp_path)
    seed = strength_runs.FRESH_SEEDS[0]
    strength_runs.play("ladder", seed, deals=4, part=2, jobs=1, only=["hard:medium"])
    folder = tmp_path / f"ladder-{seed}"
    parts = sorted(p.name for p in folder.iterdir())
    assert parts == ["hard_medium_deals_1-2.json", "hard_medium_deals_3-4.json"]
    kept = {p: (folder / p).stat().st_mtime_ns for p in parts}
    strength_runs.play("ladder", seed, deals=4, part=2, jobs=1, only=["hard:medium"])
    assert {p: (folder / p).stat().st_mtime_ns for p in parts} == kept  # nothing played again
    first = json.loads((folder / parts[0]).read_text("utf-8"))
    assert first["deals"] == 2 and first["bot_a"]["spec"] == "hard"
    rows = strength_runs.fresh_table().splitlines()
    assert rows[0] == "| step | " + " | ".join(map(str, strength_runs.FRESH_SEEDS)) + " |"
    hard = next(r for r in rows if r.startswith("| hard vs medium |"))
    cells = [c.strip() for c in hard.strip("|").split("|")][1:]
    assert cells[0].endswith(", 4 deals") and "%" in cells[0]
    assert cells[1:] == ["—", "—"]
    expert = next(r for r in rows if r.startswith("| expert vs hard |"))
    assert expert.count("—") == 3
