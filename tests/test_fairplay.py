"""Fair-play signals (``conquian.web.fairplay``): the measures on hand-built rows, then
``conquian moderate`` on a database of games played here and stored by the real store."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import bindparam, update

from conquian.actions import Action, ActionKind
from conquian.bots import Budget
from conquian.state import Phase
from conquian.web import fairplay
from conquian.web.database import open_store
from conquian.web.fairplay import (
    Decision,
    ForceChance,
    Offer,
    Seating,
    agrees_far_above,
    expected_agreement,
    feeding_pairs,
    meeting_pairs,
    steady_thinkers,
)
from conquian.web.live import LiveMatch, new_match_row
from conquian.web.schema import PlayerRow, SeatRow, actions
from conquian.web.store import Store

# ------------------------------------------------------------------ the measures


def table_of_three(games: int, people: tuple[str, ...] = ("ana", "ben")) -> list[Seating]:
    return [Seating(f"g{i}", 100.0, True, 3, people) for i in range(games)]


def offers(giver: str, to: str | None, taken: int, offered: int) -> list[Offer]:
    return [Offer("g0", giver, to, i < taken) for i in range(offered)]


def test_a_feeding_pair_is_flagged_and_a_normal_pair_is_not() -> None:
    """Ana's cards go to Ben at four times the rate they go to anyone else, and she never
    forces him: flagged.  Ben's cards go to Ana as often as to the computers: not.  Nor is a
    pair where the giver forced the taker once, or one that sat together too seldom."""
    seatings = table_of_three(6)
    rows = offers("ana", "ben", 8, 12) + offers("ana", None, 6, 40)
    rows += offers("ben", "ana", 3, 20) + offers("ben", None, 6, 40)
    never = [ForceChance("g1", "ana", "ben", False)] * 4 + [
        ForceChance("g2", "ben", "ana", False)
    ] * 4
    found = feeding_pairs(seatings, rows, never)
    assert [(p.giver, p.taker, p.taken, p.offered, p.chances) for p in found] == [
        ("ana", "ben", 8, 12, 4)
    ]
    assert found[0].games == tuple(f"g{i}" for i in range(6))
    assert found[0].others_rate == pytest.approx(6 / 40)
    once = [*never, ForceChance("g3", "ana", "ben", True)]
    assert feeding_pairs(seatings, rows, once) == []
    assert feeding_pairs(table_of_three(4), rows, never) == []
    at_two = [replace(s, seats=2) for s in seatings]
    assert feeding_pairs(at_two, rows, never) == []


def test_a_pair_that_meets_in_most_of_their_quick_games_is_flagged() -> None:
    together = [Seating(f"q{i}", 100.0, True, 2, ("ana", "ben")) for i in range(6)]
    ana_alone = [Seating(f"a{i}", 100.0, True, 2, ("ana", f"x{i}")) for i in range(3)]
    found = meeting_pairs(together + ana_alone, since=0.0)
    assert [(p.first, p.second, len(p.games), p.first_games, p.second_games) for p in found] == [
        ("ana", "ben", 6, 9, 6)
    ]
    # friends choose each other: their games say nothing
    friends = [replace(s, quick=False) for s in together]
    assert meeting_pairs(friends, since=0.0) == []
    # most of Ana's games are with others: chance
    many = [Seating(f"m{i}", 100.0, True, 2, ("ana", f"y{i}")) for i in range(10)]
    assert meeting_pairs(together + many, since=0.0) == []


def test_steady_think_times_and_expert_agreement_flag_a_player_and_human_times_do_not() -> None:
    draw = random.Random(7)
    steady = [Decision("bot", "g", i, 3, 2.5 + draw.uniform(-0.2, 0.2)) for i in range(30)]
    human = [Decision("ana", "g", i, 3, draw.lognormvariate(1.5, 0.9)) for i in range(30)]
    few = [Decision("cruz", "g", i, 3, 2.0) for i in range(5)]
    found = steady_thinkers(steady + human + few)
    assert [p for p, _, _ in found] == ["bot"]
    assert found[0][1] < 0.1 and found[0][2] == 30
    expected = expected_agreement(1500, 3)
    assert agrees_far_above(19, 20, expected)  # 95% where about 59% is expected
    assert not agrees_far_above(13, 20, expected)  # 65%: a good player
    # a strong player's rating expects more of him
    assert expected_agreement(1800, 3) > expected
    assert not agrees_far_above(18, 20, expected_agreement(1800, 2))


# ------------------------------------------------------------------ conquian moderate


def human(seat: int, name: str) -> SeatRow:
    return SeatRow(seat, "human", name, None, True, player_id=name.lower())


Chooser = Callable[[LiveMatch, int], Action]


async def store_game(
    store: Store, match_id: str, seats: list[SeatRow], rules: str, seed: int, choose: Chooser
) -> None:
    """Play one quick game to its end (its deals from ``seed``), each person's move chosen by
    ``choose`` and each computer's by its bot, every action stored by the store."""
    row = new_match_row(
        match_id,
        seats,
        mode="quick",
        level="easy",
        rules=rules,
        public=False,
        invite_only=True,
        hints=False,
        rated=True,
    )
    row = replace(row, fair=False, match_seed=seed, bot_seed=seed)
    await store.create_match(row)
    live = LiveMatch(row)
    while not live.match.is_over:
        seat = live.game.state.to_act
        bot = live.bot_to_act()
        action = live.driver.bot_turn().decide() if bot is not None else choose(live, seat)
        pushed = live.push(seat, action)
        await store.add_action(live.id, pushed.row, record=pushed.record, status=pushed.status)
        live.settle(pushed)


def feeding_choice(draw: random.Random) -> Chooser:
    """Ana (seat 0) feeds Ben (seat 1): she pays him cards he can take and never forces him;
    Ben takes most of what he can, Cruz less; Cruz forces whoever he can, and is forced."""

    def choose(live: LiveMatch, seat: int) -> Action:
        state = live.game.state
        legal = state.legal_actions()
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        if state.phase is Phase.FORCE:
            return Action(
                ActionKind.FORCE if seat == 2 or state.offeree == 2 else ActionKind.NO_FORCE
            )
        if state.phase is Phase.DISCARD and seat == 0:
            for action in legal:
                after = state.copy()
                after.apply(action)
                if any(a.kind is ActionKind.TAKE for a in after.legal_actions()):
                    return action
        if takes and state.phase in (Phase.OFFER, Phase.TURN):
            wants = {0: 0.4, 1: 0.8, 2: 0.3}[seat]
            return takes[0] if draw.random() < wants else legal[-1]
        return draw.choice(takes or list(legal))

    return choose


def expert_moves() -> Chooser:
    """Dora plays the expert's move, asked as the signal asks it (the same seed)."""

    def choose(live: LiveMatch, seat: int) -> Action:
        game = live.game
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = game.observation(seat)
        return fairplay.expert_choice(obs, live.rules, f"fairplay:{live.id}:{live.seq + 1}")

    return choose


async def build(url: str) -> None:
    store = open_store(url)
    try:
        now = time.time()
        for name in ("Ana", "Ben", "Cruz", "Dora"):
            await store.add_player(PlayerRow(name.lower(), name, True, now, now))
        draw = random.Random(2026)
        three = [human(0, "Ana"), human(1, "Ben"), human(2, "Cruz")]
        for number in range(6):
            await store_game(
                store, f"feed{number}", three, "tercerilla", 40 + number, feeding_choice(draw)
            )
        computer = SeatRow(1, "bot", "Computer", None, True, "easy")
        for number in range(3):
            await store_game(
                store,
                f"dora{number}",
                [human(0, "Dora"), computer],
                "standard",
                7 + number,
                expert_moves(),
            )
        # the think times: Dora's even, everyone else's as people's are
        with store.engine.begin() as conn:
            rows = conn.execute(actions.select().order_by(actions.c.game_id, actions.c.seq)).all()
            at, times = now - 3600.0, []
            for row in rows:
                steady = row.game_id.startswith("dora") and row.player == 0
                at += 3.0 + draw.uniform(-0.2, 0.2) if steady else draw.lognormvariate(1.0, 0.9)
                times.append({"game": row.game_id, "number": row.seq, "time": at})
            conn.execute(
                update(actions)
                .where(actions.c.game_id == bindparam("game"), actions.c.seq == bindparam("number"))
                .values(at=bindparam("time")),
                times,
            )
    finally:
        await store.close()


def test_moderate_lists_the_fair_play_signals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from conquian.cli import main

    # a quick expert for a quick test (the same for Dora's moves and for the check)
    monkeypatch.setattr(fairplay, "EXPERT_BUDGET", Budget(iterations=4))
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    asyncio.run(build(url))
    assert main(["moderate", "--db", url, "--sample", "6"]) == 0
    shown = capsys.readouterr().out
    assert "No reports." in shown
    assert "(9 looked at)" in shown
    assert "feeding: Ana [ana] feeds Ben [ben]: Ben took " in shown
    assert (
        "meeting: Ana [ana] and Ben [ben] sat at the same quick table often: games together (6,"
        in shown
    )
    assert "expert: Dora [dora] chose the expert's move in 6/6 decisions" in shown
    assert shown.count("feeding: ") == 1 and shown.count("expert: ") == 1
    assert main(["moderate", "--db", url, "--sample", "0"]) == 0
    shown = capsys.readouterr().out
    assert "expert: " not in shown and "--sample 0" in shown
