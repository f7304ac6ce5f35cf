"""The arena for three and four bots: every seating of every shuffle, win shares, ratings."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from conquian.errors import ConquianError
from conquian.records import load_record
from conquian.state import shuffled_deck
from conquian.tools.arena import derive_seed, wilson_interval
from conquian.tools.seating_arena import (
    combine_seating_results,
    finishing_ranks,
    rating_model,
    run_seating_match,
    seatings,
)
from tests.test_arena import run_cli
from tests.test_protocol import write_bot

PYTHON = sys.executable


def outcome_key(result: object) -> list[tuple[int, tuple[int, ...], int | None, str, int]]:
    return [
        (g.deal, g.seating, g.winner, g.termination, g.actions)
        for g in result.games  # type: ignore[attr-defined]
    ]


def test_every_shuffle_is_played_in_every_seating(tmp_path: Path) -> None:
    result = run_seating_match(
        ["greedy", "heuristic", "random"], 3, seed=5, rules="tercerilla", records_dir=tmp_path
    )
    assert result.deals == 3 and len(result.games) == 18
    for deal in range(3):
        games = [g for g in result.games if g.deal == deal]
        assert sorted(g.seating for g in games) == seatings(3)
        # each bot sits in each seat once per shuffle, and after each other bot twice
        for bot in range(3):
            assert Counter(g.seating.index(bot) for g in games) == {0: 2, 1: 2, 2: 2}
            for other in range(3):
                if other != bot:
                    right = Counter(
                        g.seating[(g.seating.index(bot) + 1) % 3] == other for g in games
                    )
                    assert right[True] == 3
        records = [
            load_record(str(tmp_path / f"deal-{deal + 1:05d}-{''.join(map(str, g.seating))}.toml"))
            for g in games
        ]
        assert {r.deck for r in records} == {tuple(shuffled_deck(derive_seed(5, "deal", deal)))}
        assert {r.dealer for r in records} == {deal % 3}
        for record, g in zip(records, games, strict=True):
            assert record.players == tuple(["greedy", "heuristic", "random"][b] for b in g.seating)
            states = record.replay()  # every action re-validated
            outcome = states[-1].outcome()
            assert outcome is not None
            assert (None if outcome.winner is None else g.seating[outcome.winner]) == g.winner
            assert len(record.actions) == g.actions
        # the seatings really play differently
        assert len({r.actions for r in records}) > 1


def test_win_shares_stakes_and_seats_add_up() -> None:
    result = run_seating_match(["greedy", "heuristic", "random"], 20, seed=7, rules="tercerilla")
    data = result.to_dict()
    bots = data["bots"]
    assert [b["spec"] for b in bots] == ["greedy", "heuristic", "random"]
    assert sum(b["wins"] for b in bots) + data["draws"] == data["games"] == 120
    assert sum(b["stake_balance"] for b in bots) == 0
    for b in bots:
        assert sum(b["wins_by_seat"]) == b["wins"]
        assert b["win_share"] == round(b["wins"] / 120, 4)
        low, high = wilson_interval(b["wins"], 120)
        assert (b["ci95_low"], b["ci95_high"]) == (round(low, 4), round(high, 4))
        assert b["rating_low"] < b["rating"] < b["rating_high"]
        assert b["ms_per_move_p50"] <= b["ms_per_move_p90"]
    # random is clearly the weakest, by win share and by rating
    assert bots[2]["ci95_high"] < min(bots[0]["ci95_low"], bots[1]["ci95_low"])
    assert bots[2]["rating"] < min(bots[0]["rating"], bots[1]["rating"])


def test_ratings_are_openskill_replayed_in_order() -> None:
    result = run_seating_match(["greedy", "random", "random"], 4, seed=3, rules="tercerilla")
    data = result.to_dict()
    model = rating_model()
    ratings = [model.rating() for _ in range(3)]
    for _deal, _code, winner, failed in data["results"]:
        ratings = [
            t[0]
            for t in model.rate([[r] for r in ratings], ranks=finishing_ranks(3, winner, failed))
        ]
    assert [b["rating"] for b in data["bots"]] == [round(r.mu, 3) for r in ratings]
    assert [b["rating_sigma"] for b in data["bots"]] == [round(r.sigma, 3) for r in ratings]


def test_same_seed_same_games_whatever_the_jobs() -> None:
    one = run_seating_match(["random", "greedy", "heuristic"], 4, seed=2026, rules="tercerilla")
    two = run_seating_match(
        ["random", "greedy", "heuristic"], 4, seed=2026, rules="tercerilla", jobs=2
    )
    assert outcome_key(one) == outcome_key(two)
    other = run_seating_match(["random", "greedy", "heuristic"], 4, seed=2027, rules="tercerilla")
    assert outcome_key(other) != outcome_key(one)


def test_four_bots_play_twenty_four_seatings() -> None:
    result = run_seating_match(
        ["greedy", "random", "heuristic", "random"], 1, seed=2, rules="mexican,num_players=4"
    )
    assert len(result.games) == 24 and sorted(g.seating for g in result.games) == seatings(4)
    assert {g.dealer for g in result.games} == {0}
    assert len(result.to_dict()["bots"]) == 4


def test_parts_combine_to_the_whole() -> None:
    bots = ["greedy", "heuristic", "random"]
    whole = run_seating_match(bots, 5, seed=9, rules="tercerilla").to_dict()
    parts = [
        run_seating_match(bots, 2, seed=9, rules="tercerilla").to_dict(),
        run_seating_match(bots, 3, seed=9, rules="tercerilla", first_deal=2).to_dict(),
    ]
    combined = combine_seating_results(list(reversed(parts)))
    assert combined["parts"] == 2 and combined["deal_ranges"] == [[1, 5]]
    for key in ("games", "draws", "results", "stakes", "dealers"):
        assert combined[key] == whole[key], key
    for mine, theirs in zip(combined["bots"], whole["bots"], strict=True):
        for key in (
            "wins",
            "win_share",
            "stake_balance",
            "wins_by_seat",
            "rating",
            "rating_sigma",
            "moves",
        ):
            assert mine[key] == theirs[key], key
    with pytest.raises(ConquianError, match="both played deal 1"):
        combine_seating_results([parts[0], parts[0]])
    other = run_seating_match(bots, 1, seed=10, rules="tercerilla").to_dict()
    with pytest.raises(ConquianError, match="seed"):
        combine_seating_results([parts[0], other])
    with pytest.raises(ConquianError, match="lacks"):
        combine_seating_results([{"bots": []}])


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(ConquianError, match="seat 3 players; name 3 bots, not 2"):
        run_seating_match(["greedy", "random"], 1, rules="tercerilla")
    with pytest.raises(ConquianError, match="Unknown bot 'nobody'"):
        run_seating_match(["greedy", "random", "nobody"], 1, rules="tercerilla")
    with pytest.raises(ConquianError, match="at least one deal"):
        run_seating_match(["greedy", "random", "random"], 0, rules="tercerilla")


def test_finishing_ranks() -> None:
    assert finishing_ranks(4, 2, None) == [2, 2, 1, 2]
    assert finishing_ranks(3, None, None) == [1, 1, 1]
    assert finishing_ranks(3, None, 0) == [2, 1, 1]


def test_a_failing_external_bot_forfeits_and_the_match_goes_on(tmp_path: Path) -> None:
    spec = write_bot(tmp_path, "garbage", "print('no', flush=True)")
    result = run_seating_match([spec, "greedy", "random"], 1, seed=4, rules="tercerilla")
    assert len(result.games) == 6 and not result.interrupted
    assert all(
        g.termination == "forfeit" and g.failed == 0 and g.winner is None for g in result.games
    )
    data = result.to_dict()
    assert data["bots"][0]["failures"] == 6 and len(data["failures"]) == 6
    assert "sent garbage" in data["failures"][0]["message"]
    # the forfeiting bot comes last in every game
    assert data["bots"][0]["rating"] < min(data["bots"][1]["rating"], data["bots"][2]["rating"])


# ----------------------------------------------------------------------- CLI


def test_cli_three_bots_json_and_table(tmp_path: Path) -> None:
    out = run_cli(
        "arena", "greedy", "heuristic", "random", "--rules", "tercerilla", "--deals", "2",
        "--seed", "4", "--json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [b["spec"] for b in data["bots"]] == ["greedy", "heuristic", "random"]
    for b in data["bots"]:
        for key in ("win_share", "ci95_low", "ci95_high", "rating", "rating_low", "rating_high"):
            assert key in b, key
    same = run_seating_match(
        ["greedy", "heuristic", "random"], 2, seed=4, rules="tercerilla"
    ).to_dict()
    assert data["results"] == same["results"]
    path = tmp_path / "a.json"
    path.write_text(out.stdout)
    table = run_cli("arena-combine", str(path))
    assert table.returncode == 0, table.stderr
    for words in (
        "win share",
        "rating (95% CI)",
        "wins by seat",
        "2 deals",
        "all 6 seatings",
        "p90",
    ):
        assert words in table.stdout, words
    text = run_cli(
        "arena", "greedy", "heuristic", "random", "--rules", "tercerilla", "--deals", "1"
    )
    assert text.returncode == 0 and "win share" in text.stdout


def test_cli_bot_count_must_fit_the_rules() -> None:
    out = run_cli("arena", "greedy", "random", "--rules", "tercerilla", "--deals", "1")
    assert out.returncode == 1 and "name 3 bots, not 2" in out.stderr
    assert "Traceback" not in out.stderr
    four = run_cli("arena", "greedy", "random", "random", "--deals", "1")
    assert four.returncode == 1 and "seat 2 players" in four.stderr
