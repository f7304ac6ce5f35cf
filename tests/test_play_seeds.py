"""``conquian play`` writes nothing beside the save from which a later deal follows (finding
L4 of the 2026-12-06 audit): while the match can go on, a finished deal's record holds
neither the match seed nor its deal's seed (its deck is written in full), and a new match's
seeds come from fresh randomness, not from the last match's seed, which the last match's
records may show once it is over."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from conquian.match import Match
from conquian.play.storage import Store
from conquian.records import load_record
from conquian.rules import find_rules

SEED = 1297046540509122464
PASSIVE = "pass\n" * 150  # every card of a deal declined or passed (about 20): a draw


def play(save_dir: Path, deals: int, typed: str) -> subprocess.CompletedProcess[str]:
    args = ["--level", "easy", "--plain", "--seed", str(SEED), "--deals", str(deals)]
    result = subprocess.run(
        [sys.executable, "-m", "conquian.play", *args, "--save-dir", str(save_dir)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def deal_seeds(deals: int) -> list[int]:
    """The seeds of the match's deals, dealt from ``SEED`` (all drawn: the dealer rotates)."""
    match = Match(find_rules(f"standard,match=n_deals,match_target={deals}"), seed=SEED)
    seeds = []
    for _ in range(deals):
        game = match.new_game()
        seeds.append(game.seed)
        while not game.state.is_over:
            actions = game.legal_actions()
            game.push(next((a for a in actions if a.kind.value in ("pass", "decline")), actions[0]))
        match.settle()
    return seeds


def test_no_file_beside_the_save_predicts_a_later_deal(tmp_path: Path) -> None:
    play(tmp_path, 3, PASSIVE + "no\n")  # deal 1 ends (drawn), the game is saved
    records = list((tmp_path / "records").glob("*.toml"))
    assert len(records) == 1
    record = load_record(str(records[0]))
    assert record.meta.get("deal") == "1" and record.result.startswith("draw")
    assert record.seed is None and "match_seed" not in record.meta
    assert record.final_state().is_over  # it replays from its deck alone
    secrets = [str(SEED), *(str(s) for s in deal_seeds(3))]
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) >= 3  # the save, its key and the record
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        for secret in secrets:
            assert secret not in text, (path.name, secret)
    # the match goes on from the save, as it was
    play(tmp_path, 3, "q\n")
    assert Store(tmp_path).load().match_seed == SEED


def test_the_next_match_does_not_follow_from_the_last_matchs_seed(tmp_path: Path) -> None:
    seeds = []
    for run in range(2):
        save_dir = tmp_path / str(run)
        # a match of one deal: drawn, over (the passes left are no answer to "new match?");
        # a new match; quit at its first prompt
        play(save_dir, 1, PASSIVE + "y\nq\n")
        saved = Store(save_dir).load()
        assert saved.match_seed != SEED
        seeds.append((saved.match_seed, saved.bot_seed))
        # the finished match's record may name its seed: it predicts nothing now
        (record,) = (load_record(str(p)) for p in (save_dir / "records").glob("*.toml"))
        assert record.meta.get("match_seed") == str(SEED)
    # the same seed and the same moves, yet other seeds for the next match
    assert seeds[0] != seeds[1]
    old_rule = random.Random(f"{SEED}:next")
    assert seeds[0] != (old_rule.randrange(2**63), old_rule.randrange(2**63))
