"""What a rated game's end costs the server: the transaction that rates a finished match
(openskill's update and the rows it writes), timed on a database, for two, three and four
players, against the cost of storing one ordinary move on the same database in the same run.

    python scripts/rating_cost.py [--db URL] [--games 200]

Prints the median milliseconds of each and their ratio.  Without ``--db``, a new SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from conquian.web.database import open_store
from conquian.web.live import new_match_id, new_match_row
from conquian.web.schema import ActionRow, PlayerRow, SeatRow


async def measure(url: str, games: int) -> None:
    store = open_store(url)
    try:
        now = time.time()
        ids = [f"p{n}-{int(now)}" for n in range(4)]
        for player in ids:
            await store.add_player(PlayerRow(player, player, True, now, now))
        # one match to store moves in: the cost of a move is the anchor of the same run
        seats = [SeatRow(s, "human", f"P{s}", None, True, player_id=ids[s]) for s in range(2)]
        row = new_match_row(
            new_match_id(),
            seats,
            mode="friend",
            level=None,
            rules="standard",
            public=False,
            invite_only=False,
            hints=False,
        )
        await store.create_match(row)
        moves = []
        cpu = time.process_time()
        for seq in range(1, games + 1):
            start = time.perf_counter()
            await store.add_action(row.id, ActionRow(seq, 1, seq % 2, "decline"))
            moves.append(time.perf_counter() - start)
        move_cpu = (time.process_time() - cpu) / games * 1000
        move = statistics.median(moves) * 1000
        print(f"store one move: {move:.2f} ms (median of {games}), {move_cpu:.2f} ms of CPU")
        for players, form in ((2, "classic"), (3, "tercerilla"), (4, "mexican4")):
            times = []
            cpu = time.process_time()
            for number in range(games):
                balances = [1] + [-1] * (players - 1) if number % 2 else [-1] * (players - 1) + [1]
                results = list(zip(ids[:players], balances, strict=True))
                start = time.perf_counter()
                await store.rate_match(f"r{players}-{number}-{int(now)}", form, results)
                times.append(time.perf_counter() - start)
            rate_cpu = (time.process_time() - cpu) / games * 1000
            rate = statistics.median(times) * 1000
            print(
                f"rate a {players}-player game: {rate:.2f} ms (median of {games}), "
                f"{rate_cpu:.2f} ms of CPU: {rate / move:.1f} moves' time, "
                f"{rate_cpu / move_cpu:.1f} moves' CPU"
            )
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    url = args.db or f"sqlite:///{Path(tempfile.mkdtemp()) / 'rating-cost.sqlite3'}"
    asyncio.run(measure(url, args.games))


if __name__ == "__main__":
    main()
