"""Time what the server does for one move, in one process: python scripts/web_messages.py

Plays seeded matches of greedy bots through the web's live match (``LiveMatch.push`` and
``settle``) and, after each move, shows it to one connection per seat and a spectator as the
server does (``Room.broadcast``: each state message built, written as JSON and queued), with
no database and no network.  Prints the CPU time per move (the best of ``--rounds`` runs, and
the median) and the average size of a message.  It is a measurement, not a test: run it on two
checkouts (``PYTHONPATH=OTHER/src``) in turn to compare them.

``--games N`` plays N matches one after another; ``--interleave`` plays them together, one move
of each in turn, as a busy server does (each match's caches are cold again when its turn
comes).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time

from conquian.bots import make_bot
from conquian.rules import find_rules
from conquian.web import live as live_module
from conquian.web.conn import Conn
from conquian.web.live import LiveMatch, new_match_row
from conquian.web.room import Room
from conquian.web.schema import SeatRow, hash_token


def new_room(number: int, rules: str) -> Room:
    """A friend match with every seat taken and every seed given (dealt)."""
    players = find_rules(rules).num_players
    seats = [
        SeatRow(p, "human", f"P{p}", hash_token(f"t{number}:{p}"), True) for p in range(players)
    ]
    row = new_match_row(
        f"m{number}",
        seats,
        mode="friend",
        level=None,
        rules=rules,
        public=False,
        invite_only=False,
        hints=False,
    )
    row = dataclasses.replace(row, match_seed=number, bot_seed=number)  # the same deals each run
    room = Room.of(LiveMatch(row))
    for p in range(players):
        room.live.give_seed(p, "", None)
    room.conns.update(Conn(p, deltas=True) for p in range(players))
    room.conns.add(Conn(None, deltas=True))
    return room


def play(rooms: list[Room], seed: int, interleave: bool) -> tuple[float, int, int, int]:
    """Play every match to its end; (CPU seconds spent showing moves, moves, messages,
    characters)."""
    bots = {room.id: make_bot("greedy", rng=random.Random(seed)) for room in rooms}
    spent = 0.0
    moves = 0
    active = list(rooms)
    while active:
        for room in list(active) if interleave else active[:1]:
            live = room.live
            if live.match.is_over:
                active.remove(room)
                continue
            state = live.game.state
            bot = bots[room.id]
            bot.new_deal(state.to_act, live.rules)
            action = bot.act(live.game.observation(state.to_act))
            began = time.process_time()
            pushed = live.push(state.to_act, action)
            live.settle(pushed)
            room.broadcast()
            spent += time.process_time() - began
            moves += 1
    messages = characters = 0
    for room in rooms:
        for conn in room.conns:
            messages += len(conn.outbox)
            characters += conn.waiting
    return spent, moves, messages, characters


def same_shuffles(seed: int) -> None:
    """Draw the fair shuffles' server seeds from ``seed`` (as scripts/equivalence.py does), so
    that every run plays the same deals and two builds can be compared move for move."""
    seeds = random.Random(seed)
    live_module.new_server_seed = lambda: seeds.randbytes(32)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rules", default="standard,match=n_deals,match_target=3")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--interleave", action="store_true")
    args = parser.parse_args()
    per_move = []
    for round_ in range(args.rounds):
        same_shuffles(round_)
        rooms = [new_room(round_ * args.games + i, args.rules) for i in range(args.games)]
        for room in rooms:
            for conn in room.conns:
                conn.max_messages = conn.max_chars = 1 << 40
        spent, moves, messages, characters = play(rooms, 1000 + round_, args.interleave)
        per_move.append(1e6 * spent / moves)
    print(
        f"{moves} moves, {messages} messages of {characters / messages:.0f} characters on "
        f"average; per move: best {min(per_move):.1f} us, median {statistics.median(per_move):.1f} us"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
