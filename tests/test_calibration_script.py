"""``scripts/calibration.py``: the review's winning chances against the results of games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conquian.bots.review import CALIBRATION, calibrated_chance

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "calibration.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--quiet", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Four games (two shuffles), few samples: the report and the decisions saved."""
    saved = tmp_path_factory.mktemp("calibration") / "decisions.jsonl"
    done = run(
        *("--games", "4", "--samples", "6", "--seed", "7", "--pairs", "expert:easy,medium:easy"),
        *("--json", "--save", str(saved)),
    )
    assert done.returncode == 0, done.stderr
    lines = saved.read_text("utf-8").splitlines()
    return json.loads(done.stdout), [json.loads(line) for line in lines[1:]]


def check_table(table: dict[str, Any], decisions: int) -> None:
    bins = table["bins"]
    assert [b["bin"] for b in bins] == [f"{10 * k}-{10 * (k + 1)}%" for k in range(10)]
    assert table["decisions"] == decisions == sum(b["count"] for b in bins)
    assert table["bins_filled"] == sum(1 for b in bins if b["count"])
    for b in bins:
        if not b["count"]:
            assert "observed" not in b
            continue
        assert b["low"] - 1e-9 <= b["mean_predicted"] <= b["high"] + 1e-9
        assert 1 <= b["deals"] <= table["clusters"]
        for key in ("wilson_95", "bootstrap_95"):
            low, high = b[key]
            assert 0.0 <= low <= b["observed"] + 1e-4 <= high + 2e-4 <= 1.0 + 2e-4
        assert b["gap"] == pytest.approx(b["observed"] - b["mean_predicted"], abs=2e-4)
        assert b["within_tolerance"] == (abs(b["gap"]) <= 0.05 + 1e-4)


def test_counts_add_up(tiny: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    data, rows = tiny
    run_info, tables = data["run"], data["tables"]
    assert data["format"] == "conquian-calibration/1"
    assert run_info["games"] == 4 and run_info["shuffles"] == 2 and run_info["played"] == [[1, 4]]
    assert run_info["decisions"] == len(rows) > 0 and run_info["forced"] > 0
    check_table(tables["review"], len(rows))
    check_table(tables["review_by_game"], len(rows))
    assert tables["review"]["clusters"] == 2 and tables["review_by_game"]["clusters"] == 4
    check_table(tables["shipped"], len(rows))
    fit = data["fit"]
    assert fit["fitting_decisions"] + fit["checking_decisions"] == len(rows)
    odd = sum(1 for r in rows if r["shuffle"] % 2)
    check_table(tables["check_raw"], odd)
    check_table(tables["check_fitted"], odd)
    searched = [r for r in rows if r["search"] is not None]
    assert searched and all(r["bot"] == "expert" for r in searched)
    check_table(tables["search_mean"], len(searched))
    by_bot = {
        name: sum(1 for r in rows if r["bot"] == name) for name in ("expert", "easy", "medium")
    }
    for name, count in by_bot.items():
        check_table(tables[f"review_{name}"], count)
    assert sum(by_bot.values()) == len(rows)


def test_decisions_are_choices_with_the_deals_results(
    tiny: tuple[dict[str, Any], list[dict[str, Any]]],
) -> None:
    _, rows = tiny
    assert {r["game"] for r in rows} == {0, 1, 2, 3}
    results: dict[tuple[int, int], float] = {}
    for r in rows:
        assert r["legal"] > 1 and 0.0 <= r["chance"] <= 1.0
        assert r["shuffle"] == r["game"] // 2
        assert r["result"] in (0.0, 0.5, 1.0)
        assert results.setdefault((r["game"], r["player"]), r["result"]) == r["result"]
    for game in range(4):
        seen = [results[game, p] for p in (0, 1) if (game, p) in results]
        if len(seen) == 2:
            assert sum(seen) == 1.0  # one deal: a win and a loss, or a draw for both
    # going out ends the deal: its chance is its known result, which no correction changes
    ending = [r for r in rows if r["ends"]]
    assert ending and all(r["chance"] == r["result"] == 1.0 for r in ending)
    # the seats are swapped in the second game of a shuffle
    first = {(r["player"], r["bot"]) for r in rows if r["game"] == 0}
    second = {(1 - r["player"], r["bot"]) for r in rows if r["game"] == 1}
    assert first & second


def test_saved_decisions_give_the_same_tables(
    tiny: tuple[dict[str, Any], list[dict[str, Any]]], tmp_path: Path
) -> None:
    data, rows = tiny
    saved = tmp_path / "copy.jsonl"
    header = {
        k: v for k, v in data["run"].items() if k not in ("decisions", "games_with_decisions")
    }
    saved.write_text("\n".join(json.dumps(x) for x in [header, *rows]) + "\n", "utf-8")
    done = run("--load", str(saved), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tables"] == data["tables"]
    text = run("--load", str(saved))
    assert text.returncode == 0 and "| 90-100% |" in text.stdout


def test_bad_pair_is_refused() -> None:
    done = run("--games", "1", "--pairs", "hard")
    assert done.returncode != 0 and "A:B" in done.stderr


def test_shipped_correction_is_monotone() -> None:
    chances = [k / 20 for k in range(21)]
    corrected = [calibrated_chance(p) for p in chances]
    assert all(0.0 <= q <= 1.0 for q in corrected)
    assert corrected == sorted(corrected)
    assert calibrated_chance(0.5, (1.0, 0.0)) == 0.5
    assert calibrated_chance(0.5, (1.0, 1.0)) > 0.5 > calibrated_chance(0.5, (1.0, -1.0))
    assert len(CALIBRATION) == 2


def test_the_shipped_table_leaves_a_known_result_as_the_review_does(
    tiny: tuple[dict[str, Any], list[dict[str, Any]]], tmp_path: Path
) -> None:
    data, rows = tiny
    header = {
        k: v for k, v in data["run"].items() if k not in ("decisions", "games_with_decisions")
    }
    ending = [r for r in rows if r["ends"]]
    estimated = [{**r, "chance": 1.0, "ends": False} for r in ending]
    tables = {}
    for name, chosen in (("ending", ending), ("estimated", estimated)):
        saved = tmp_path / f"{name}.jsonl"
        saved.write_text("\n".join(json.dumps(x) for x in [header, *chosen]) + "\n", "utf-8")
        done = run("--load", str(saved), "--json")
        assert done.returncode == 0, done.stderr
        tables[name] = json.loads(done.stdout)["tables"]["shipped"]["bins"][9]
    assert tables["ending"]["mean_predicted"] == 1.0
    assert tables["estimated"]["mean_predicted"] == pytest.approx(calibrated_chance(1.0), abs=1e-4)
    assert calibrated_chance(1.0) < 0.99
