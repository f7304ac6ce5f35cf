"""``conquian review``: each decision of a player judged from his own view only."""

from __future__ import annotations

import inspect
import json
import random
import subprocess
import sys
import typing
from dataclasses import replace
from pathlib import Path

import pytest

from conquian.actions import Action, ActionKind
from conquian.bots import make_bot
from conquian.bots.base import Bot
from conquian.bots.heuristic import HeuristicBot
from conquian.bots.review import (
    CALIBRATION,
    HIDDEN_MELDS,
    LOGIT_CLIP,
    Mark,
    ReviewError,
    ReviewSettings,
    action_chances,
    calibrated_chance,
    judge_decision,
    mark_for,
    player_decisions,
    review_deals,
)
from conquian.cards import mask_labels, parse_cards_mask
from conquian.cli import main
from conquian.match import Match
from conquian.melds import meld_table, partition_mask
from conquian.notation import parse_action, parse_position
from conquian.observation import Observation, observe
from conquian.present import review as words
from conquian.present.i18n import speaking
from conquian.present.spans import CardLook, Span, plain
from conquian.records import GameRecord, MatchRecord, parse_action_line
from conquian.seats import Seat, SeatDriver
from conquian.state import Phase

FAST = ReviewSettings(samples=24)
"""Few samples: the tests check what is estimated from what, not the estimate's precision."""


def play_match(rules: str, bots: list[Bot], names: list[str], seed: int, deals: int = 1) -> Match:
    """A match of bots through the seat driver, ``deals`` deals long (or until it ends)."""
    match = Match(rules, seed=seed, players=tuple(names))
    driver = SeatDriver(
        [Seat(n, b) for n, b in zip(names, bots, strict=True)], match=match, bot_seed=seed
    )
    for _ in range(deals):
        if match.is_over:
            break
        game = driver.start()
        while not game.state.is_over:
            turn = driver.bot_turn()
            driver.push(turn.player, turn.decide())
        driver.settle()
    return match


def bot_record(seed: int = 11) -> GameRecord:
    """A finished two-player deal between the heuristic and the greedy bot."""
    bots: list[Bot] = [make_bot("heuristic"), make_bot("greedy")]
    match = play_match("standard", bots, ["heuristic", "greedy"], seed)
    return GameRecord.from_game(match.games[0])


def goes_out(obs: Observation, action: Action) -> bool:
    return action.kind is ActionKind.TAKE and not obs.hand_mask & ~partition_mask(action.melds)


class PassesTheWinningCard(HeuristicBot):
    """The heuristic, but once it passes the card it turned although taking it goes out,
    when that card fits the table of the next player, who holds no card: he takes it and
    goes out.  A known bad move."""

    name = "passes-the-winning-card"

    def __init__(self) -> None:
        super().__init__(rng=random.Random(0))
        self.bad_move: int | None = None
        """The place in the deal's actions of the bad move, once made."""

    def act(self, obs: Observation) -> Action:
        if self.bad_move is None and obs.phase is Phase.TURN and self._gives_the_deal(obs):
            self.bad_move = len(obs.history)
            return next(a for a in obs.legal_actions if a.kind is ActionKind.PASS)
        return super().act(obs)

    @staticmethod
    def _gives_the_deal(obs: Observation) -> bool:
        nxt = obs.opponent
        valid = meld_table(obs.rules.max_seq_len).valid
        return (
            obs.hand_counts[nxt] == 0
            and any(goes_out(obs, a) for a in obs.legal_actions)
            and any(m | 1 << obs.centre in valid for m in obs.tables[nxt])
            and Action(ActionKind.PASS) in obs.legal_actions
        )


def bad_move_record() -> tuple[GameRecord, int]:
    """A record in which player 0 passed the card that went out, and the place of that move."""
    for seed in range(400):
        bad = PassesTheWinningCard()
        match = play_match("standard", [bad, make_bot("heuristic")], ["bad", "heuristic"], seed)
        if bad.bad_move is not None:
            return GameRecord.from_game(match.games[0]), bad.bad_move
    raise AssertionError("no deal in 400 gave the bad move its chance")


def reshuffled_hidden(record: GameRecord, player: int, rng: random.Random) -> GameRecord:
    """The record with every card ``player`` never saw dealt again at random: the other
    hands and the stock differ, everything he saw is the same."""
    seen = record.for_player(player).deck
    hidden = [i for i, card in enumerate(seen) if card < 0]
    cards = [record.deck[i] for i in hidden]
    assert len(set(cards)) > 1, "the player saw every card"
    shuffled = cards[:]
    while shuffled == cards:
        rng.shuffle(shuffled)
    deck = list(record.deck)
    for i, card in zip(hidden, shuffled, strict=True):
        deck[i] = card
    return replace(record, deck=tuple(deck), seed=None)


# ---------------------------------------------------------------------- the estimate


def test_marks_at_the_thresholds() -> None:
    assert [mark_for(d) for d in (0.0, 0.099, 0.1, 0.199, 0.2, 0.299, 0.3, 1.0)] == [
        None,
        None,
        Mark.INACCURACY,
        Mark.INACCURACY,
        Mark.MISTAKE,
        Mark.MISTAKE,
        Mark.BLUNDER,
        Mark.BLUNDER,
    ]
    assert mark_for(None) is None


def test_review_of_a_bot_game_judges_every_decision_of_the_player() -> None:
    record = bot_record()
    review = review_deals([record], 1, FAST)
    mine = [i for i, line in enumerate(record.actions) if parse_action_line(line)[0] == 1]
    assert [d.index for d in review.decisions] == mine
    for d in review.decisions:
        assert record.actions[d.index] == f"p1 {d.played}"
        assert 0.0 <= d.chance_played <= d.chance_best <= 1.0
        if d.judged:
            assert d.drop == pytest.approx(d.chance_best - d.chance_played)
            assert d.mark == (mark_for(d.drop) if d.clear else None)
        else:
            assert d.legal_count == 1 and d.drop is None and d.mark is None
            assert d.best == d.played
    s = review.summary
    judged = [d for d in review.decisions if d.judged]
    assert (s.decisions, s.judged, s.forced) == (len(mine), len(judged), len(mine) - len(judged))
    assert s.blunders == sum(d.mark is Mark.BLUNDER for d in judged)
    assert s.accuracy == pytest.approx(
        1 - sum(d.chance_best - d.chance_played for d in judged) / len(judged)
    )
    assert review.results == (record.result,)


def test_a_review_is_reproducible_from_its_seed() -> None:
    record = bot_record(seed=4)
    first = review_deals([record], 0, FAST).to_dict()
    assert review_deals([record], 0, FAST).to_dict() == first
    assert first["settings"] == {
        "estimator": "coach",
        "hidden_melds": HIDDEN_MELDS,
        "samples": FAST.samples,
        "candidates": FAST.candidates,
        "seed": 0,
        "rollout": "greedy",
        "calibration": {"a": CALIBRATION[0], "b": CALIBRATION[1], "clip": LOGIT_CLIP},
    }


def test_passing_the_card_that_goes_out_is_a_blunder() -> None:
    record, bad_move = bad_move_record()
    review = review_deals([record], 0, ReviewSettings(samples=60))
    (decision,) = [d for d in review.decisions if d.index == bad_move]
    assert decision.played == Action(ActionKind.PASS)
    assert decision.best.kind is ActionKind.TAKE
    assert decision.chance_best == 1.0  # going out wins, whatever the hidden cards: exact
    # the next player goes out with the card in every sampled deal; corrected towards what
    # players did in real games (not every one takes it)
    assert decision.chance_played == pytest.approx(calibrated_chance(0.0))
    assert decision.chance_played < 0.05
    assert decision.mark is Mark.BLUNDER
    assert review.summary.blunders >= 1


# ------------------------------------------------------------- hidden information


def test_the_estimate_is_given_only_an_observation() -> None:
    hints = typing.get_type_hints(judge_decision)
    game_views = [
        n for n, t in hints.items() if n != "return" and t not in (Action, ReviewSettings, int)
    ]
    assert game_views == ["obs"] and hints["obs"] is Observation
    params = inspect.signature(action_chances).parameters
    assert typing.get_type_hints(action_chances)["obs"] is Observation
    assert list(params) == ["obs", "actions", "samples", "seed", "hidden_melds"]


def test_two_states_with_one_observation_give_the_same_judgement() -> None:
    record = bot_record()
    (index, obs, played), *_ = [
        found for found in player_decisions(record, 0)[0] if len(found[1].legal_actions) > 1
    ]
    state = record.to_game().states()[index]
    other = state.redeal(0, random.Random(5))
    assert other.hands[1] != state.hands[1] and other.stock != state.stock
    assert observe(other, 0, obs.history) == observe(state, 0, obs.history) == obs
    first = judge_decision(observe(state, 0, obs.history), played, FAST, index=index)
    again = judge_decision(observe(other, 0, obs.history), played, FAST, index=index)
    assert first == again


def test_the_review_ignores_the_cards_the_player_never_saw() -> None:
    # a deal player 0 won: player 1 still holds cards that player 0 never saw
    record = next(
        r
        for r in map(bot_record, range(50))
        if r.result.startswith("p0 wins") and r.for_player(0).deck.count(-1) > 5
    )
    other = reshuffled_hidden(record, 0, random.Random(3))
    dealt, redealt = record.to_game().states()[0], other.to_game().states()[0]
    assert dealt.hands[1] != redealt.hands[1] and dealt.stock != redealt.stock
    assert dealt.hands[0] == redealt.hands[0]
    assert review_deals([other], 0, FAST) == review_deals([record], 0, FAST)
    # and player 1's review does see a different deal: his own hand changed
    assert review_deals([other], 1, FAST) != review_deals([record], 1, FAST)
    # a record redacted for the player reviews the same
    assert review_deals([record.for_player(0)], 0, FAST) == review_deals([record], 0, FAST)


def test_a_redacted_record_reviews_its_own_player_only() -> None:
    record = bot_record().for_player(0)
    with pytest.raises(ReviewError, match="redacted for player 0"):
        review_deals([record], 1, FAST)


# ----------------------------------------------------------------- three players


def test_three_player_match_record() -> None:
    bots: list[Bot] = [make_bot("heuristic"), make_bot("greedy"), make_bot("heuristic")]
    match = play_match("mexican", bots, ["ana", "ben", "cy"], seed=2, deals=2)
    record = MatchRecord.loads(MatchRecord.from_match(match).dumps())
    review = review_deals(record.deals, 2, FAST)
    assert review.deals == len(record.deals) == 2
    assert {d.deal for d in review.decisions} == {1, 2}
    assert any(d.phase.value == "exchange" for d in review.decisions)
    for d in review.decisions:
        deal = record.deals[d.deal - 1]
        assert deal.actions[d.index] == f"p2 {d.played}"
        assert 0.0 <= d.chance_played <= d.chance_best <= 1.0
    # the other two players' exchange choices and hands are hidden from him: redacted the same
    redacted = [deal.for_player(2) for deal in record.deals]
    assert review_deals(redacted, 2, FAST) == review
    assert review.to_dict()["results"] == [deal.result for deal in record.deals]


# ----------------------------------------------------------------- the command


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_command_in_text_and_json(tmp_path: Path) -> None:
    record, bad_move = bad_move_record()
    path = tmp_path / "deal.toml"
    path.write_text(record.dumps(), encoding="utf-8")
    text = run_cli("review", str(path), "--samples", "60")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("Review of bad (player 0)")
    (bad_line,) = [line for line in lines if line.startswith(f"  {bad_move + 1:>2}. ")]
    assert "(blunder)" in bad_line and "better take" in bad_line
    (chart,) = [line for line in lines if line.startswith("Winning chance, move by move: ")]
    blocks = chart.split(": ", 1)[1]
    assert blocks and set(blocks) <= set(words.BLOCKS)
    assert any(line.startswith("Accuracy ") for line in lines)

    result = run_cli("review", str(path), "--samples", "60", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["player"] == 0 and data["settings"]["samples"] == 60
    assert len(blocks) == len(data["decisions"])
    (bad,) = [d for d in data["decisions"] if d["index"] == bad_move]
    assert bad["mark"] == "blunder" and bad["drop"] >= 0.3
    assert set(bad) == {
        "deal", "index", "move", "phase", "legal_count", "played", "best",
        "chance_played", "chance_best", "drop", "mark", "centre",
        "clear", "position", "board", "feeds",
    }  # fmt: skip
    # the position is the one the player saw: his hand, and the unseen cards written *
    fields = bad["position"].split()
    assert fields[4] != "*" and fields[5] == "*" and fields[10] == "*"
    seen = parse_position(bad["position"])
    assert str(parse_action(seen, bad["played"])) == bad["played"]
    board = bad["board"]
    hand = fields[4].replace("-", "")
    assert board["hand"] == mask_labels(parse_cards_mask(hand) if hand else 0)
    assert set(board) == {
        "player", "hand", "tables", "centre", "centre_source", "dead", "hand_counts",
        "stock_count",
    }  # fmt: skip
    judged = [d for d in data["decisions"] if d["legal_count"] > 1]
    assert data["summary"]["judged"] == len(judged)
    assert data["summary"]["blunders"] == sum(d["mark"] == "blunder" for d in judged)
    shown = [line for line in lines if line[:6].strip().rstrip(".").isdigit()]
    assert len(shown) == len(judged)  # one line per judged decision


def error_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["review", *args]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "Cannot read" in error_of(capsys, str(tmp_path / "missing.toml"))
    garbage = tmp_path / "garbage.toml"
    garbage.write_text("this is [not toml", encoding="utf-8")
    assert "Not a valid record file" in error_of(capsys, str(garbage))
    record = bot_record()
    broken = tmp_path / "broken.toml"
    broken.write_text(
        replace(record, actions=(*record.actions[:3], "p0 discard Kh")).dumps(), encoding="utf-8"
    )
    assert "Action 4" in error_of(capsys, str(broken))
    good = tmp_path / "good.toml"
    good.write_text(record.dumps(), encoding="utf-8")
    assert "no player 5" in error_of(capsys, str(good), "--player", "5")
    assert "no player 'nobody'" in error_of(capsys, str(good), "--player", "nobody")
    redacted = tmp_path / "redacted.toml"
    redacted.write_text(record.for_player(1).dumps(), encoding="utf-8")
    assert "redacted for player 1" in error_of(capsys, str(redacted), "--player", "0")


def test_players_by_name_and_the_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from conquian.play.storage import SavedMatch, Store

    bots: list[Bot] = [make_bot("greedy"), make_bot("heuristic")]
    match = play_match("standard", bots, ["heuristic", "You"], seed=3)
    store = Store(tmp_path)
    store.save(
        SavedMatch(
            rules="standard",
            match_seed=3,
            bot_seed=3,
            opponent="medium",
            names=("heuristic", "You"),
            humans=(1,),
            match=MatchRecord.from_match(match).dumps(),
        )
    )
    assert main(["review", str(store.save_path), "--samples", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == 1  # the person of the save
    assert (
        main(["review", str(store.save_path), "--samples", "4", "--json", "--player", "Heuristic"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["player"] == 0


# ------------------------------------------------------------------------- words


def test_words_in_every_language_fall_back_to_english() -> None:
    look_move = words.move_words(Action.parse("decline"), (), 21, CardLook(symbols=True))
    for code in ("en", "es", "ru"):
        with speaking(code):
            line = plain(words.decision_line(7, look_move, 0.25, [Span("take")], 0.75, "blunder"))
            assert "25" in line and "75" in line
            summary = [plain(s) for s in words.summary_lines(3, 1, 1, 0, 1, 0.8)]
            assert any("80" in s for s in summary)
            assert plain(words.chart_line([0.0, 1.0])).endswith("▁█")
