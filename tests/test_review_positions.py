"""The review shows, under each marked decision, the position the player saw: his hand,
every table, the centre and the counts; and the danger when his card fits another table."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conquian.actions import Action, ActionKind
from conquian.bots import make_bot
from conquian.bots.review import (
    IN_GAME_SAMPLES,
    Decision,
    Mark,
    ReviewSettings,
    ReviewSummary,
    judge_decision,
    player_decisions,
    review_deals,
)
from conquian.cards import ALL_CARDS_MASK, format_mask, mask_indices, parse_cards_mask
from conquian.melds import partition_mask
from conquian.notation import parse_position
from conquian.observation import Observation, observe
from conquian.present import review as words
from conquian.present.i18n import speaking
from conquian.present.spans import CardLook, Line, plain
from conquian.records import GameRecord, load_record
from conquian.state import GameState
from tests.test_play import CLI_REVIEW, END_PROMPTS, Play
from tests.test_review import play_match

FAST = ReviewSettings(samples=24)
SYMBOLS = CardLook(symbols=True)
INDENT = " " * 6
MARK_WORDS = ("(inaccuracy)", "(mistake)", "(blunder)")


def position(
    phase: str,
    hands: tuple[str, str],
    tables: tuple[str, str],
    centre: str = "-",
    dead: str = "JcQs2h4h6dQd2c4c",
) -> GameState:
    """A two-player position, player 0 to act, the stock every card not named."""
    used = parse_cards_mask(dead) | parse_cards_mask(centre.split(":")[0].replace("-", ""))
    for cards in (*hands, *tables):
        used |= parse_cards_mask(cards.replace("/", "").replace("-", ""))
    stock = format_mask(ALL_CARDS_MASK & ~used, "")
    fields = [
        "standard", phase, "0", "0", *(h or "-" for h in hands), *tables, centre, dead, stock, "1"
    ]  # fmt: skip
    return parse_position(" ".join(fields))


ACES_OUT = ("AhAdAc/7s7h7d7c/JsJhJd", "")
"""Player 1's table and empty hand: the fourth ace, and only it, takes him out (Jc is dead)."""


def cards_in(text: str, look: CardLook) -> list[int]:
    """The cards written in ``text`` as ``look`` writes them, in their order."""
    by_text = {look.text(i): i for i in range(40)}
    return [by_text[t] for t in re.findall(r"[^\s()|│:]+", text) if t in by_text]


def block_under(lines: list[str], start: int) -> list[str]:
    """The indented lines under line ``start`` (a decision's position)."""
    block = []
    for line in lines[start + 1 :]:
        if not line.startswith(INDENT):
            break
        block.append(line)
    return block


def check_position(
    block: list[str], obs: Observation, names: tuple[str, ...], look: CardLook
) -> None:
    """The block shows what the player saw at ``obs``: his exact hand, each table named,
    the other player's card count, the centre and the stock."""
    assert len(block) >= 4, block
    hand, *rest = [line[len(INDENT) :] for line in block]
    assert hand.startswith("Hand: ")
    assert sorted(cards_in(hand, look)) == list(mask_indices(obs.hand_mask))
    for player, name in enumerate(names):
        (table,) = [line for line in rest if line.startswith(f"{name}: ")]
        assert sorted(cards_in(table, look)) == list(
            mask_indices(partition_mask(obs.tables[player]))
        )
        count = obs.hand_counts[player]
        said = f"({count} card{'' if count == 1 else 's'} in hand)"
        assert (said in table) == (player != obs.viewer), table
    (middle,) = [line for line in rest if "Stock: " in line]
    assert f"Stock: {obs.stock_count} card" in middle
    if obs.centre >= 0:
        assert middle.startswith(f"Centre: {look.text(obs.centre)} ")
    else:
        assert "Centre" not in middle


def hidden_at(record: GameRecord, index: int, viewer: int) -> list[int]:
    """The cards ``viewer`` could not see before action ``index``: the other hands and the
    stock."""
    state = record.to_game().states()[index]
    hidden = [c for p, hand in enumerate(state.hands) if p != viewer for c in mask_indices(hand)]
    return hidden + list(state.stock[state.stock_pos :])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},  # suit symbols, as a terminal shows
    )


def marked_record() -> tuple[GameRecord, list[Decision]]:
    """A deal in which player 0 (random moves) made a marked decision while holding cards and
    the other player held several, and the review of player 0."""
    for seed in range(60):
        bots = [make_bot("random"), make_bot("heuristic")]
        match = play_match("standard", bots, ["rand", "heuristic"], seed)
        record = GameRecord.from_game(match.games[0])
        review = review_deals([record], 0, FAST)
        if any(
            d.mark is not None
            and d.observation is not None
            and d.observation.hand_mask
            and d.observation.hand_counts[1] >= 4
            for d in review.decisions
        ):
            return record, list(review.decisions)
    raise AssertionError("no deal in 60 had a marked decision with cards on both sides")


# ----------------------------------------------------------------- the command


def test_the_command_shows_the_position_under_each_marked_decision_only(tmp_path: Path) -> None:
    record, decisions = marked_record()
    path = tmp_path / "deal.toml"
    path.write_text(record.dumps(), encoding="utf-8")
    result = run_cli("review", str(path), "--player", "0", "--samples", str(FAST.samples))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    marked = 0
    for d in decisions:
        if not d.judged:
            continue
        (at,) = [i for i, line in enumerate(lines) if line.startswith(f"  {d.move:>2}. ")]
        block = block_under(lines, at)
        if d.mark is None:
            assert not any(word in lines[at] for word in MARK_WORDS)
            assert block == []  # no position under a decision without a mark
            continue
        marked += 1
        assert f"({d.mark.value})" in lines[at]
        assert d.observation is not None
        check_position(block, d.observation, ("rand", "heuristic"), SYMBOLS)
        # nothing the player could not see: the other hand, the stock
        hidden = hidden_at(record, d.index, 0)
        assert len(hidden) > d.observation.hand_counts[1] >= 4
        shown = "\n".join(block)
        assert [SYMBOLS.text(c) for c in hidden if SYMBOLS.text(c) in shown] == []
        for line in block:
            assert len(line) <= 80, line
    assert marked >= 1
    # the other decisions' lines are still one per judged decision
    numbered = [line for line in lines if line[:6].strip().rstrip(".").isdigit()]
    assert len(numbered) == sum(d.judged for d in decisions)


# ------------------------------------------------------------- the danger


def test_a_discard_that_fits_a_meld_gets_the_danger() -> None:
    state = position("discard", ("As5s6h5c", ACES_OUT[1]), ("3h3d3c/KsKhKdKc", ACES_OUT[0]))
    decision = judge_decision(observe(state, 0), Action.parse("discard As"), FAST)
    assert decision.mark is Mark.BLUNDER, decision
    assert decision.fed is not None and decision.fed[0] == 1
    lines = words.review_lines(
        [[decision]], ReviewSummary.of([decision]), SYMBOLS, True, ("Ana", "Memo")
    )
    text = [plain(line) for line in lines]
    (at,) = [i for i, line in enumerate(text) if line.startswith("   1. discard A♠")]
    block = block_under(text, at)
    assert decision.observation is not None
    check_position(block[:-1], decision.observation, ("Ana", "Memo"), SYMBOLS)
    assert (
        block[-1] == f"{INDENT}A♠ fits Memo's A♥ A♦ A♣ and his hand is empty: he goes out with it."
    )
    # the cards are spans that carry them, not text
    danger = lines[at + len(block)]
    assert [s.card for s in danger if s.card is not None] == [0, 10, 20, 30]
    # the stock, all the player could not see, is not shown
    shown = "\n".join(block)
    assert [c for c in state.stock[state.stock_pos :] if SYMBOLS.text(c) in shown] == []


def test_passing_a_card_that_fits_a_meld_names_the_centre_card() -> None:
    state = position(
        "turn", ("2s3s6h", ACES_OUT[1]), ("3h3d3c/KsKhKdKc", ACES_OUT[0]), centre="As:t"
    )
    decision = judge_decision(observe(state, 0), Action.parse("pass"), FAST)
    assert decision.mark is Mark.BLUNDER and decision.played.kind is ActionKind.PASS
    lines = [plain(line) for line in words.decision_position(decision, CardLook())]
    assert lines[0] == f"{INDENT}Hand: 2s 3s  6h"
    assert lines[1] == f"{INDENT}player 0: 3h 3d 3c  |  Ks Kh Kd Kc"  # no names: by seat
    assert lines[2] == f"{INDENT}player 1: Js Jh Jd  |  Ah Ad Ac  |  7s 7h 7d 7c (0 cards in hand)"
    assert lines[3].startswith(f"{INDENT}Centre: As   Stock: ")
    assert (
        lines[4]
        == f"{INDENT}As fits player 1's Ah Ad Ac and his hand is empty: he goes out with it."
    )
    assert len(lines) == 5


def test_a_decision_without_a_mark_shows_no_position_even_when_it_feeds() -> None:
    state = position("discard", ("As5s6h5c", ACES_OUT[1]), ("3h3d3c/KsKhKdKc", ACES_OUT[0]))
    decision = judge_decision(observe(state, 0), Action.parse("discard As"), FAST)
    unmarked = replace(decision, chance_played=decision.chance_best)
    assert unmarked.mark is None and unmarked.fed is not None
    assert words.decision_position(unmarked, SYMBOLS) == []
    lines = words.review_lines([[unmarked]], ReviewSummary.of([unmarked]), SYMBOLS)
    assert not any(plain(line).startswith(INDENT) for line in lines)
    # a marked decision without its position (an older caller's) shows none either
    assert words.decision_position(replace(decision, observation=None), SYMBOLS) == []


def test_the_position_words_fall_back_to_english_in_every_language() -> None:
    state = position("discard", ("As5s6h5c", ACES_OUT[1]), ("3h3d3c/KsKhKdKc", ACES_OUT[0]))
    obs = observe(state, 0)
    for code in ("en", "es", "ru"):
        with speaking(code):
            lines: list[Line] = words.position_lines(obs, SYMBOLS, ("Ana", "Memo"))
            text = "\n".join(plain(line) for line in lines)
            assert (
                "Ana" in text and "Memo" in text and "A♠" in text and str(obs.stock_count) in text
            )
            cards = [s.card for line in lines for s in line if s.card is not None]
            assert sorted(cards) == sorted(
                [
                    *mask_indices(obs.hand_mask),
                    *(c for t in obs.tables for m in t for c in mask_indices(m)),
                ]
            )


# ------------------------------------------------------------ the terminal game


def test_the_terminal_games_review_shows_the_position(tmp_path: Path) -> None:
    # seed 5 at the easy level, the moves read from the screen as test_play chooses them:
    # the review of the deal marks at least one of them
    play = Play(["--seed", "5", "--level", "easy"], tmp_path)
    for step in range(300):
        if play.wait() in END_PROMPTS:
            break
        play.send(play.choose(step))
    else:
        raise AssertionError("the deal did not end")
    record_path = sorted((tmp_path / "records").glob("*.toml"))[-1]
    record = load_record(str(record_path))
    end = " ".join(play.screen.split())
    assert "review of your moves in this deal, answer r" in end
    assert f"conquian review {record_path} --player 0" in end
    asked = play.prompt
    play.send("r")
    assert play.wait() == asked
    lines = play.screen.splitlines()
    seen = {index: obs for index, obs, _action in player_decisions(record, 0)[0]}
    marked = [i for i, line in enumerate(lines) if any(w in line for w in MARK_WORDS)]
    assert marked, f"seed 5 made no marked decision at {IN_GAME_SAMPLES} samples"
    look = CardLook()  # the plain screen: cards as typed
    for at in marked:
        move = int(lines[at].split(".")[0])
        obs = seen[move - 1]
        block = block_under(lines, at)
        check_position(block, obs, ("You", "Bot (easy)"), look)
        hidden = hidden_at(record, move - 1, 0)
        shown = "\n".join(block)
        leaked = [look.text(c) for c in hidden if re.search(rf"\b{look.text(c)}\b", shown)]
        assert leaked == []
    unmarked = [
        i for i, line in enumerate(lines) if re.match(r"\s+\d+\. ", line) and i not in marked
    ]
    assert unmarked and all(block_under(lines, i) == [] for i in unmarked)
    # `conquian review` of the same deal shows the same positions, the players named alike
    printed = subprocess.run(
        [*CLI_REVIEW, str(record_path), "--player", "0", "--samples", str(IN_GAME_SAMPLES)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},  # cards as the plain screen shows them
    ).stdout.splitlines()
    at_cli = [i for i, line in enumerate(printed) if any(w in line for w in MARK_WORDS)]
    assert [block_under(printed, i) for i in at_cli] == [block_under(lines, i) for i in marked]
    # and the whole review is what the command prints (but its first line, the file's name)
    expected = [line.strip() for line in printed[1:] if line.strip()]
    shown = [line.strip() for line in lines if line.strip()]
    assert any(line.startswith("Winning chance, move by move:") for line in expected)
    assert shown[-len(expected) :] == expected
    play.send("n")
    assert play.finish() == 0


@pytest.mark.parametrize("names", [(), ("Ana",)])
def test_unknown_names_are_the_seats(names: tuple[str, ...]) -> None:
    state = position("discard", ("As5s6h5c", ACES_OUT[1]), ("3h3d3c/KsKhKdKc", ACES_OUT[0]))
    text = [plain(line) for line in words.position_lines(observe(state, 0), CardLook(), names)]
    assert text[2].startswith(f"{INDENT}player 1: Js Jh Jd  |  Ah Ad Ac")
    assert text[1].startswith(f"{INDENT}{names[0] if names else 'player 0'}: 3h 3d 3c")
