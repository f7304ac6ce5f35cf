"""``scripts/train_hand_model.py`` fits weights that the search's hand model loads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conquian.bots.hand_prior import FEATURES, HandPrior, card_chances
from conquian.game import Game

SCRIPT = Path(__file__).parent.parent / "scripts" / "train_hand_model.py"


def test_the_training_script_writes_weights_the_model_loads(tmp_path: Path) -> None:
    out = tmp_path / "prior.json"
    args = ["--deals", "80", "--jobs", "1", "--epochs", "2", "--hidden", "4", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["rows"] > 1000 and 0 < report["held_out_rows"] < report["rows"]
    losses = report["held_out_log_loss"]
    assert set(losses) == {"uniform", "logistic", "network"}
    assert all(0.0 < value < 1.0 for value in losses.values())
    spec = json.loads(out.read_text())
    assert spec["features"] == list(FEATURES) and len(spec["hidden"]) == 4
    assert spec["trained"]["command"].startswith("python scripts/train_hand_model.py --deals 80")
    chances = card_chances(Game(seed=2).observation(1), HandPrior(spec))
    assert chances and all(0.0 < p < 1.0 for p in chances.values())
