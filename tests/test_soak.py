"""``conquian soak``: random legal games with every invariant checked at every step.

A small soak passes, through the command line and in-process; a deliberately broken engine
(monkeypatched in-process) is reported with the check that failed, the seed and position
that reproduce it, and exit status 1.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

import conquian.tools.soak as soak
from conquian.cli import main
from conquian.errors import InvalidStateError
from conquian.notation import parse_position
from conquian.observation import Observation
from conquian.state import GameState

SMALL_RUN = ("--games", "15", "--rules", "all", "--jobs", "2", "--seed", "5", "--json")


def test_a_small_soak_passes_through_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "conquian.cli", "soak", *SMALL_RUN],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 15 and result["failed"] == 0 and result["failures"] == {}
    presets = ("standard", "bicycle", "foster", "wikipedia", "mexican")
    assert result["games_by_rules"] == dict.fromkeys(presets, 3)
    assert result["actions"] > 15 * 10 and result["positions_checked"] == result["actions"] + 15
    assert result["jobs"] == 2 and result["games_per_s"] > 0
    assert result["step_checks"] == list(soak.STEP_CHECKS)


def test_a_small_soak_passes_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    specs = ["standard", "foster,forcing=automatic", "standard,hand_size=6,deal_packet=2"]
    result = soak.run_soak(9, specs, seed=100)
    assert result.games == 9 and not result.failures and not result.first_failures
    assert sum(result.endings.values()) == 9 and 0 < result.longest < soak.MAX_ACTIONS
    assert set(result.games_by_rules) == set(soak.expand_rules(specs))
    # the same seed plays the same games
    again = soak.run_soak(9, specs, seed=100)
    assert (again.actions, again.endings) == (result.actions, result.endings)

    assert main(["soak", "--games", "4", "--rules", "wikipedia", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Soak: 4 games (wikipedia 4)" in out and "Failures: none" in out
    assert "games/s" in out and "leak" in out


def test_rules_all_and_repeated() -> None:
    assert soak.expand_rules(["all"]) == ("standard", "bicycle", "foster", "wikipedia", "mexican")
    assert soak.expand_rules(["foster", "standard", "foster", "Standard"]) == (
        "foster",
        "standard",
    )
    assert soak.expand_rules([]) == ("standard",)


def test_bad_arguments_are_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["soak", "--games", "1", "--rules", "standart"]) == 1
    assert "Unknown rules preset 'standart'" in capsys.readouterr().err
    assert main(["soak", "--games", "1", "--jobs", "-1"]) == 1
    assert "--jobs" in capsys.readouterr().err


def _check_failure_report(failure: soak.Failure, kind: str) -> None:
    assert failure.kind == kind
    assert failure.reproduce == (
        f"conquian soak --games 1 --rules {failure.rules} --seed {failure.seed}"
    )
    assert len(failure.position.split()) == 12


def test_a_broken_validate_is_reported_with_its_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    validate = GameState.validate

    def broken(self: GameState) -> None:
        validate(self)
        if self.stock_count == 12:
            raise InvalidStateError("deliberately broken: 12 cards in the stock")

    monkeypatch.setattr(GameState, "validate", broken)
    status = main(["soak", "--games", "3", "--rules", "standard", "--seed", "40"])
    out = capsys.readouterr().out
    assert status == 1
    # caught one step early: a legal action leads to such a position ("legal" validates it)
    assert "Failures: 3 games (legal 3)" in out
    assert "InvalidStateError: deliberately broken" in out
    assert "reproduce: conquian soak --games 1 --rules standard --seed 40" in out

    result = soak.run_soak(3, ["standard"], seed=40)
    assert result.failures == {"legal": 3} and result.games == 3
    first = result.first_failures[0]
    _check_failure_report(first, "legal")
    assert first.seed == 40 and first.action == 15
    monkeypatch.setattr(GameState, "validate", validate)
    assert parse_position(first.position).stock_count == 13  # the position before
    # the reported seed alone plays the same game to the same failure
    monkeypatch.setattr(GameState, "validate", broken)
    alone = soak.run_soak(1, [first.rules], seed=first.seed)
    assert alone.first_failures == [first]


def test_a_leaking_observation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    observe = soak.observe

    def leaky(state: GameState, player: int, history: tuple[object, ...] = ()) -> Observation:
        obs = observe(state, player, history)  # type: ignore[arg-type]
        top = state.stock[state.stock_pos] if state.stock_count else 0
        return dataclasses.replace(obs, stake=obs.stake + top)  # depends on the stock's top card

    monkeypatch.setattr(soak, "observe", leaky)
    result = soak.run_soak(2, ["bicycle"], seed=7)
    assert result.failures == {"leak": 2}
    failure = result.first_failures[0]
    _check_failure_report(failure, "leak")
    assert "depends on the hidden cards" in failure.message
    assert failure.action == 0  # caught at the first position


def test_a_deal_that_never_ends_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak, "MAX_ACTIONS", 5)
    result = soak.run_soak(2, ["standard"], seed=1)
    assert result.failures == {"length": 2}
    assert result.first_failures[0].action == 5
    assert "no end after 5 actions" in result.first_failures[0].message
