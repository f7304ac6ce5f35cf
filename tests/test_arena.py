"""The duplicate-deal match runner: statistics, seating, reproducibility, records, CLI."""

from __future__ import annotations

import json
import math
import os
import pty
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from conquian.errors import ConquianError
from conquian.records import GameRecord, load_record
from conquian.state import shuffled_deck
from conquian.tools.arena import (
    BotSummary,
    GameResult,
    MatchResult,
    combine_results,
    derive_seed,
    elo_difference,
    histogram_percentile,
    latency_histogram,
    percentile,
    run_match,
    wilson_interval,
)

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "conquian.cli"]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def outcome_key(result: MatchResult) -> list[tuple[int, int, int, str | None, str, int]]:
    """Everything about the games that does not depend on timing."""
    return [(g.deal, g.game, g.a_player, g.winner, g.termination, g.actions) for g in result.games]


# ---------------------------------------------------------------- statistics


@pytest.mark.parametrize(
    ("wins", "trials", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (8, 10, 0.4902, 0.9433),
        (500, 1000, 0.4691, 0.5309),
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_interval_known_values(wins: int, trials: int, low: float, high: float) -> None:
    got = wilson_interval(wins, trials)
    assert got[0] == pytest.approx(low, abs=1e-4)
    assert got[1] == pytest.approx(high, abs=1e-4)


def test_wilson_interval_without_trials_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_contains_the_rate_and_narrows() -> None:
    widths = []
    for n in (10, 100, 1000, 10000):
        low, high = wilson_interval(int(0.7 * n), n)
        assert low < 0.7 < high
        widths.append(high - low)
    assert widths == sorted(widths, reverse=True)
    # large n: close to the normal approximation
    assert widths[-1] / 2 == pytest.approx(1.96 * math.sqrt(0.7 * 0.3 / 10000), rel=0.01)


@pytest.mark.parametrize(
    ("score", "elo"),
    [
        (0.5, 0.0),
        (0.75, 190.8485),
        (0.25, -190.8485),
        (0.9, 381.6970),
        (1.0, 800.0),
        (0.0, -800.0),
        (0.999999, 800.0),
    ],
)
def test_elo_difference_known_values(score: float, elo: float) -> None:
    assert elo_difference(score) == pytest.approx(elo, abs=0.1)


def test_elo_difference_inverts_the_logistic_expectation() -> None:
    for diff in (-600, -250, -30, 0, 45, 200, 700):
        expected = 1 / (1 + 10 ** (-diff / 400))
        assert elo_difference(expected) == pytest.approx(diff, abs=1e-6)


def test_percentile_known_values() -> None:
    values = [float(v) for v in range(1, 11)]
    assert percentile(values, 50) == pytest.approx(5.5)
    assert percentile(values, 90) == pytest.approx(9.1)
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 10.0
    assert percentile(list(reversed(values)), 90) == pytest.approx(9.1)
    assert percentile([3.0], 90) == 3.0
    assert percentile([], 50) is None


def fake_game(deal: int, game: int, winner: str | None, failure: str | None = None) -> GameResult:
    return GameResult(
        deal=deal,
        game=game,
        dealer=0,
        a_player=game,
        winner=winner,
        termination="forfeit" if failure else ("out" if winner else "stock_exhausted"),
        stake=1,
        actions=10,
        failure=failure,
        ms=((1.0, 2.0, 3.0), (10.0,)),
        choice_ms=((2.0, 3.0), ()),
    )


def test_match_result_statistics_from_known_games() -> None:
    result = MatchResult(BotSummary("x", "x"), BotSummary("y", "y"), "standard", 1, 3)
    result.add([fake_game(0, 0, "a"), fake_game(0, 1, "a")])
    result.add([fake_game(1, 0, "b", failure="external bot 'x' sent garbage")])
    result.add([fake_game(1, 1, None), fake_game(2, 0, "a"), fake_game(2, 1, "a")])
    assert (result.deals, result.wins, result.losses, result.draws) == (3, 4, 1, 1)
    assert result.win_rate == pytest.approx(0.8)
    assert result.stake_balance == 3
    assert result.ci95 == pytest.approx(wilson_interval(4, 5))
    assert result.elo == pytest.approx(400 * math.log10(4))
    assert result.elo_interval[0] == pytest.approx(elo_difference(result.ci95[0]))
    assert result.bot_a.failures == 1 and result.bot_b.failures == 0
    data = result.to_dict()
    assert data["failures"] == [
        {"deal": 2, "game": 1, "bot": "a", "message": "external bot 'x' sent garbage"}
    ]
    assert data["bot_a"]["ms_per_move_p50"] == pytest.approx(2.5)
    assert data["bot_a"]["moves"] == 12 and data["bot_a"]["decisions"] == 18
    assert data["bot_b"]["ms_per_move_p50"] is None
    assert data["bot_b"]["ms_per_decision_p90"] == pytest.approx(10.0)


def test_no_decided_game_gives_an_even_uninformative_result() -> None:
    result = MatchResult(BotSummary("x", "x"), BotSummary("y", "y"), "standard", 1, 1)
    result.add([fake_game(0, 0, None), fake_game(0, 1, None)])
    assert (result.win_rate, result.ci95, result.elo) == (0.5, (0.0, 1.0), 0.0)
    assert result.elo_interval == (-800.0, 800.0)


def test_derived_seeds_are_stable_and_distinct() -> None:
    # fixed forever: a match seed must give the same deals on every machine and version
    assert derive_seed(1, "deal", 0) == 4330008955488627218
    seeds = {derive_seed(s, "deal", d) for s in range(5) for d in range(50)}
    assert len(seeds) == 250


# --------------------------------------------------------------- the matches


def test_duplicate_deals_reuse_the_shuffle_with_seats_swapped(tmp_path: Path) -> None:
    result = run_match("greedy", "random", 4, seed=11, records_dir=tmp_path)
    assert len(result.games) == 8
    files = sorted(tmp_path.glob("*.toml"))
    assert [f.name for f in files] == [
        f"deal-{d:05d}-{g}.toml" for d in range(1, 5) for g in (1, 2)
    ]
    decks = []
    for deal in range(1, 5):
        first = load_record(str(tmp_path / f"deal-{deal:05d}-1.toml"))
        second = load_record(str(tmp_path / f"deal-{deal:05d}-2.toml"))
        assert first.deck == second.deck
        assert first.dealer == second.dealer
        assert first.players == ("greedy", "random")
        assert second.players == ("random", "greedy")
        # the deck is the shuffle of the deal's derived seed
        assert list(first.deck) == shuffled_deck(derive_seed(11, "deal", deal - 1))
        decks.append(first.deck)
    assert len(set(decks)) == 4
    by_deal = Counter(g.deal for g in result.games)
    assert by_deal == {0: 2, 1: 2, 2: 2, 3: 2}
    assert [(g.game, g.a_player) for g in result.games[:2]] == [(0, 0), (1, 1)]
    # the two games of a deal are really played differently
    assert any(
        load_record(str(tmp_path / f"deal-{d:05d}-1.toml")).actions
        != load_record(str(tmp_path / f"deal-{d:05d}-2.toml")).actions
        for d in range(1, 5)
    )


def test_records_replay_to_the_reported_results(tmp_path: Path) -> None:
    result = run_match("random", "greedy", 5, seed=3, records_dir=tmp_path)
    choice_decisions = [0, 0]
    for g in result.games:
        record = load_record(str(tmp_path / f"deal-{g.deal + 1:05d}-{g.game + 1}.toml"))
        assert GameRecord.loads(record.dumps()) == record
        states = record.replay()  # raises if an action is illegal or the result differs
        final = states[-1].outcome()
        assert final is not None and record.result != "*"
        assert len(record.actions) == g.actions
        winner = None if final.winner is None else "ab"[final.winner ^ g.a_player]
        assert winner == g.winner
        assert record.meta["bot_a"] == "random" and record.meta["deal"] == str(g.deal + 1)
        for state in states[:-1]:
            if len(state.legal_actions()) > 1:
                choice_decisions[state.to_act ^ g.a_player] += 1
    # latency figures count exactly the decisions with more than one legal action
    assert [len(result.bot_a.choice_ms), len(result.bot_b.choice_ms)] == choice_decisions
    assert len(result.bot_a.ms) + len(result.bot_b.ms) == sum(g.actions for g in result.games)


def test_same_seed_same_result_whatever_the_jobs() -> None:
    one = run_match("random", "greedy", 12, seed=2024, jobs=1)
    two = run_match("random", "greedy", 12, seed=2024, jobs=2)
    assert outcome_key(one) == outcome_key(two)
    assert (one.wins, one.losses, one.draws) == (two.wins, two.losses, two.draws)
    assert len(one.bot_a.choice_ms) == len(two.bot_a.choice_ms)
    other = run_match("random", "greedy", 12, seed=2025, jobs=1)
    assert outcome_key(other) != outcome_key(one)


def test_greedy_beats_random_clearly() -> None:
    result = run_match("random", "greedy", 30, seed=7)
    assert result.deals == 30 and len(result.games) == 60
    assert result.wins + result.losses + result.draws == 60
    assert result.win_rate < 0.35
    assert result.ci95[1] < 0.5  # greedy's lower bound is above 50%
    assert result.elo < -100 and result.elo_interval[1] < 0
    assert result.stake_balance == result.wins - result.losses < 0
    assert not result.interrupted and not result.failures
    for bot in (result.bot_a, result.bot_b):
        p50, p90 = percentile(bot.choice_ms, 50), percentile(bot.choice_ms, 90)
        assert p50 is not None and p90 is not None and 0 <= p50 <= p90 < 50


def test_progress_reports_every_deal() -> None:
    seen: list[tuple[int, int]] = []
    run_match("greedy", "greedy", 5, seed=1, progress=lambda d, t, r: seen.append((d, t)))
    assert seen == [(d, 5) for d in range(1, 6)]
    parallel: list[int] = []
    run_match("greedy", "random", 8, seed=1, jobs=2, progress=lambda d, t, r: parallel.append(d))
    assert parallel == sorted(parallel) and parallel[-1] == 8


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupt_returns_the_deals_finished(jobs: int) -> None:
    def stop_after_three(done: int, total: int, result: MatchResult) -> None:
        if done >= 3:
            raise KeyboardInterrupt

    result = run_match("greedy", "random", 400, seed=5, jobs=jobs, progress=stop_after_three)
    assert result.interrupted
    assert 3 <= result.deals < 400
    assert len(result.games) == 2 * result.deals
    assert result.wins + result.losses + result.draws == len(result.games)
    assert result.to_dict()["interrupted"] is True


def test_bad_arguments_are_errors() -> None:
    with pytest.raises(ConquianError, match="Unknown bot"):
        run_match("greedy", "grandmaster", 1)
    with pytest.raises(ConquianError, match="at least one deal"):
        run_match("greedy", "random", 0)
    with pytest.raises(ConquianError, match="cmd:"):
        run_match("cmd:  ", "random", 1)
    with pytest.raises(ConquianError, match="preset"):
        run_match("greedy", "random", 1, rules="nosuchrules")


# ------------------------------------------------------------ matches in parts


def test_histogram_percentiles_are_within_two_percent() -> None:
    rng = __import__("random").Random(4)
    values = [rng.lognormvariate(2.0, 1.5) for _ in range(3000)]
    histogram = latency_histogram(values)
    assert sum(histogram.values()) == len(values)
    for q in (10, 50, 90, 99):
        exact = percentile(values, q)
        approx = histogram_percentile(histogram, q)
        assert exact is not None and approx is not None
        assert abs(approx - exact) / exact < 0.012, (q, exact, approx)
    assert histogram_percentile({}, 50) is None


def test_a_match_played_in_parts_adds_up_to_the_whole() -> None:
    whole = run_match("heuristic", "greedy", 8, seed=12).to_dict()
    first_result = run_match("heuristic", "greedy", 3, seed=12)
    rest_result = run_match("heuristic", "greedy", 5, seed=12, first_deal=3, jobs=2)
    first, rest = first_result.to_dict(), rest_result.to_dict()
    assert rest["first_deal"] == 4 and rest["deal_ranges"] == [[4, 8]]
    combined = combine_results([rest, first])
    for key in ("deals", "games", "wins", "losses", "draws", "stake_balance", "win_rate"):
        assert combined[key] == whole[key], key
    assert combined["deal_ranges"] == [[1, 8]] and combined["parts"] == 2
    assert (combined["ci95_low"], combined["elo"]) == (whole["ci95_low"], whole["elo"])
    for side in ("bot_a", "bot_b"):
        assert combined[side]["moves"] == whole[side]["moves"]
        samples = [*getattr(first_result, side).choice_ms, *getattr(rest_result, side).choice_ms]
        exact, approx = percentile(samples, 90), combined[side]["ms_per_move_p90"]
        assert exact is not None
        assert abs(approx - exact) <= 0.012 * exact, (side, exact, approx)


def test_combining_refuses_parts_that_do_not_fit() -> None:
    first = run_match("greedy", "random", 2, seed=3).to_dict()
    again = run_match("greedy", "random", 2, seed=3, first_deal=1).to_dict()
    with pytest.raises(ConquianError, match=r"Parts 1 and 2 both played deals 2\.\.2"):
        combine_results([first, again])
    other_seed = run_match("greedy", "random", 2, seed=4, first_deal=2).to_dict()
    with pytest.raises(ConquianError, match="Part 2 has seed 4, part 1 has 3"):
        combine_results([first, other_seed])
    swapped = run_match("random", "greedy", 2, seed=3, first_deal=2).to_dict()
    with pytest.raises(ConquianError, match="bot_a 'random'"):
        combine_results([first, swapped])
    with pytest.raises(ConquianError, match="lacks wins"):
        combine_results([first, {"rules": "standard", "seed": 3}])
    with pytest.raises(ConquianError, match="at least one"):
        combine_results([])
    with pytest.raises(ConquianError, match="cannot be negative"):
        run_match("greedy", "random", 2, first_deal=-1)


def test_cli_arena_in_parts_and_combined(tmp_path: Path) -> None:
    names = []
    for first, deals in (("1", "2"), ("3", "3")):
        out = run_cli(
            "arena", "greedy", "random", "--deals", deals, "--first-deal", first,
            "--seed", "8", "--json",
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        path = tmp_path / f"part{first}.json"
        path.write_text(out.stdout)
        names.append(str(path))
    combined = run_cli("arena-combine", *names, "--json")
    assert combined.returncode == 0, combined.stderr
    whole = run_match("greedy", "random", 5, seed=8)
    data = json.loads(combined.stdout)
    assert (data["wins"], data["losses"], data["draws"]) == (whole.wins, whole.losses, whole.draws)
    table = run_cli("arena-combine", *names)
    assert "5 duplicate deals" in table.stdout and "2 parts combined" in table.stdout
    twice = run_cli("arena-combine", names[0], names[0])
    assert twice.returncode == 1 and "both played deals 1..2" in twice.stderr
    (tmp_path / "junk.json").write_text("{not json")
    junk = run_cli("arena-combine", str(tmp_path / "junk.json"))
    assert junk.returncode == 1 and "is not JSON" in junk.stderr
    missing = run_cli("arena-combine", str(tmp_path / "nowhere.json"))
    assert missing.returncode == 1 and "Cannot read" in missing.stderr
    zero = run_cli("arena", "greedy", "random", "--deals", "1", "--first-deal", "0")
    assert zero.returncode != 0 and "--first-deal counts from 1" in zero.stderr


# ----------------------------------------------------------------------- CLI


def test_cli_arena_json() -> None:
    result = run_cli("arena", "greedy", "random", "--deals", "6", "--seed", "9", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    for key in (
        "deals",
        "games",
        "wins",
        "losses",
        "draws",
        "win_rate",
        "ci95_low",
        "ci95_high",
        "elo",
        "elo_low",
        "elo_high",
        "stake_balance",
    ):
        assert key in data, key
    assert data["deals"] == 6 and data["games"] == 12
    assert data["wins"] + data["losses"] + data["draws"] == 12
    assert data["ci95_low"] <= data["win_rate"] <= data["ci95_high"]
    for side in ("bot_a", "bot_b"):
        assert data[side]["ms_per_move_p50"] <= data[side]["ms_per_move_p90"]
    assert data["bot_a"]["spec"] == "greedy" and data["seed"] == 9
    same = run_match("greedy", "random", 6, seed=9)
    assert (data["wins"], data["losses"], data["draws"]) == (same.wins, same.losses, same.draws)


def test_cli_arena_table_and_records(tmp_path: Path) -> None:
    out = tmp_path / "games"
    result = run_cli(
        "arena", "random", "greedy", "--deals", "3", "--jobs", "2", "--records", str(out)
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    for words in ("wins / losses / draws", "95% CI", "stake balance", "Elo", "p50", "p90"):
        assert words in text
    assert "seed" in text and "3 duplicate deals (6 games" in text
    assert len(list(out.glob("*.toml"))) == 6
    # no progress bar when stderr is not a terminal (under load, CPython's multiprocessing
    # resource tracker may still warn at exit about a queue's semaphore: not ours to test)
    assert "\r" not in result.stderr and "deals  A " not in result.stderr


def test_cli_arena_errors() -> None:
    bad = run_cli("arena", "greedy", "nobody", "--deals", "2")
    assert bad.returncode == 1 and "Unknown bot 'nobody'" in bad.stderr
    assert "Traceback" not in bad.stderr
    zero = run_cli("arena", "greedy", "random", "--deals", "0")
    assert zero.returncode == 1 and "--deals" in zero.stderr
    missing = run_cli("arena", "cmd:/nonexistent/bot --fast", "random", "--deals", "1")
    assert missing.returncode == 1 and "cannot start" in missing.stderr


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_cli_ctrl_c_or_term_prints_the_result_so_far(tmp_path: Path, stop: int) -> None:
    process = subprocess.Popen(
        [*CLI, "arena", "greedy", "random", "--deals", "1000000", "--json", "--records", tmp_path],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        # Ctrl-C as at a terminal, even if this test runs where SIGINT is ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 30
    while len(list(tmp_path.glob("*.toml"))) < 20 and time.monotonic() < deadline:
        time.sleep(0.05)  # the match is under way
    process.send_signal(stop)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(out)
    assert data["interrupted"] is True
    assert 0 < data["deals"] < 1000000 and data["deals_requested"] == 1000000
    assert data["games"] == 2 * data["deals"]


def test_cli_progress_bar_on_a_terminal() -> None:
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [*CLI, "arena", "greedy", "random", "--deals", "40", "--seed", "1", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
        cwd=ROOT,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the terminal closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0
    bar = b"".join(chunks).decode()
    assert "40/40 deals" in bar and "[" + "#" * 30 + "]" in bar
    assert bar.endswith("\r\x1b[K")  # the bar is cleared before the table is printed
    assert "A wins / losses / draws" in out
