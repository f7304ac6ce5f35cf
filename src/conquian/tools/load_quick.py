"""Play now under load: many players pressing *Jugar ahora* within a minute, on a real server.

``python -m conquian.tools.load_quick --players 1000 --over 60 --workers 2 --db URL`` starts
``conquian serve`` (as :mod:`.load` does), and then each player, arriving at an even pace over
``--over`` seconds with a cookie of his own (a guest), asks for a quick match of a form
(the four in turn: classic, Mexican for two, tercerilla, Mexican for four), asks for his
ticket as the page does (a request the server answers once he is seated) until he is seated, opens the game with the seat's token
and plays it to its end (a ``greedy`` bot answering his observations after a think time).
It prints:

- how many were seated, and how long they waited (from pressing to the answer that seats
  them: median, p99, most), and the tables' computers;
- every action's round trip (sent → acknowledged), the server's CPU time per action (its
  processes', from ``/proc``), the errors;
- after the run, read from the database: the acknowledged actions it lacks, and the clocks
  overdue (a table stalled: a clock past its due time by more than a process's lease).

``--kill-after S`` kills one worker with SIGKILL S seconds after the first player arrives;
its players' pages connect again (to the other worker, or the one started in its place) and
play on, and its clocks are kept by the others.  It is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .load import (
    Stats,
    cpu_seconds,
    percentile,
    play_seat,
    process_tree,
    rss_mib,
    start_server,
    worker_pids,
)
from .load import lost_actions as lost_acknowledged

FORMS = ("classic", "mexican2", "tercerilla", "mexican4")
WAIT = 20
"""Seconds a request for a ticket may wait to be answered seated (the page's ``?wait=``)."""
OVERDUE = 20.0
"""Seconds past its due time after which a clock counts as stalled (the lease is 15 s)."""


@dataclass
class Queue:
    """What the players saw of the queue."""

    waits: list[float] = field(default_factory=list)
    """Seconds from pressing to being seated, one per seated player."""
    computers: Counter[int] = field(default_factory=Counter)
    """Tables by how many computers sat at them (each table counted once)."""
    tables: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)


async def one_player(
    number: int,
    base: str,
    arrive: float,
    stats: Stats,
    queue: Queue,
    think: float,
    reconnect: bool,
) -> bool:
    """One player: arrive, press *Jugar ahora*, wait, play the game; True if it ended."""
    import httpx2

    await asyncio.sleep(arrive)
    form = FORMS[number % len(FORMS)]
    async with httpx2.AsyncClient(base_url=base, timeout=60) as http:
        pressed = time.perf_counter()
        answer = await _ask(http, "POST", "/api/quick", {"form": form})
        while answer.get("status") == "waiting":  # answered once seated, as the page asks
            answer = await _ask(http, "GET", f"/api/quick/{answer['ticket']}?wait={WAIT}")
    if answer.get("status") != "seated":
        queue.errors.append(f"player {number}: {answer}")
        return False
    queue.waits.append(time.perf_counter() - pressed)
    if answer["game"] not in queue.tables:
        queue.tables.add(answer["game"])
        queue.computers[int(answer["computers"])] += 1
    ws_base = "ws" + base.removeprefix("http")
    return await play_seat(
        ws_base,
        answer["game"],
        answer["token"],
        "greedy",
        number,
        stats,
        think,
        int(answer["seat"]),
        reconnect,
        clocked=True,
    )


async def _ask(http: Any, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """A request of the page, tried again (a few times) when its worker died under it."""
    import httpx2

    for attempt in range(20):
        try:
            response = await http.request(method, path, json=body)
        except (OSError, httpx2.TransportError):  # as the page, it asks again (both are
            await asyncio.sleep(0.2 * (attempt + 1))  # safe to repeat: one ticket a player)
            continue
        data: dict[str, Any] = response.json()
        if response.status_code != 200:
            return {"status": f"HTTP {response.status_code}", **data}
        return data
    return {"status": "no answer"}


async def run(
    base: str, players: int, over: float, think: float, stats: Stats, queue: Queue, **kw: Any
) -> float:
    """Every player, arriving evenly over ``over`` seconds; returns the time it took."""
    start = stats.start = time.perf_counter()
    results = await asyncio.gather(
        *(
            one_player(i, base, over * i / players, stats, queue, think, kw["reconnect"])
            for i in range(players)
        ),
        return_exceptions=True,
    )
    for result in results:
        if isinstance(result, BaseException):
            stats.errors.append(f"{type(result).__name__}: {result}")
    stats.games_done = sum(1 for r in results if r is True)
    return time.perf_counter() - start


def after_the_run(db_url: str) -> tuple[int, int]:
    """Read in the database: how many clocks are past their due time by more than
    :data:`OVERDUE` seconds (stalled tables), and how many actions the games hold (the
    players', the computers', and those the server made: one-choice decisions, stand-ins)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            found = conn.execute(
                text("select count(*) from clocks where due < :limit"),
                {"limit": time.time() - OVERDUE},
            )
            stalled = int(found.scalar_one())
            stored = conn.execute(
                text(
                    "select count(*) from actions a join games g on g.id = a.game_id where g.mode = 'quick'"
                )
            )
            return stalled, int(stored.scalar_one())
    finally:
        engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conquian.tools.load_quick",
        description="Many players press Jugar ahora within a minute, on a real server.",
    )
    parser.add_argument("--players", type=int, default=1000, help="players (default 1000)")
    parser.add_argument("--over", type=float, default=60.0, help="arriving over S seconds")
    parser.add_argument("--think-ms", type=float, default=1000.0, help="mean think time")
    parser.add_argument("--timeout", type=float, default=600.0, help="stop after S seconds")
    parser.add_argument("--db", help="the server's database (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--bots-after", type=float, default=20.0, help="serve's default: 20")
    parser.add_argument("--kill-after", type=float, metavar="S", help="kill one worker at S")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.players < 1 or args.workers < 1 or args.over < 0 or args.timeout <= 0:
        parser.error("--players and --workers at least 1, --over not negative")
    if args.kill_after is not None and args.workers < 2:
        parser.error("--kill-after needs --workers 2 or more")
    tmp = tempfile.TemporaryDirectory(prefix="conquian-quick-load-")
    log = Path(tmp.name) / "server.log"
    db = args.db or f"sqlite:///{Path(tmp.name) / 'load.sqlite3'}"
    stats, queue = Stats(), Queue()
    killed: list[int] = []
    more = ["--rate-limit", "off", "--workers", str(args.workers)]
    proc, base = start_server(db, args=[*more, "--quick-bots-after", str(args.bots_after)], log=log)
    cpu_start = cpu_seconds(proc.pid)
    try:

        async def bounded() -> float:
            if args.kill_after is not None:
                asyncio.get_running_loop().call_later(args.kill_after, kill_one)
            playing = run(
                base,
                args.players,
                args.over,
                args.think_ms / 1000,
                stats,
                queue,
                reconnect=True,
            )
            return await asyncio.wait_for(playing, args.timeout)

        def kill_one() -> None:
            pids = [p for p in worker_pids(log) if p in process_tree(proc.pid)]
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        try:
            elapsed = asyncio.run(bounded())
        except TimeoutError:
            stats.errors.append(f"stopped after {args.timeout} s")
            elapsed = args.timeout
        cpu = cpu_seconds(proc.pid) - cpu_start
        memory = rss_mib(proc.pid)
        stalled, stored = after_the_run(db)
    finally:
        proc.terminate()
        proc.wait(30)
    lat = [x * 1000 for x in stats.latencies] or [0.0]
    waits = queue.waits or [0.0]
    result: dict[str, Any] = {
        "players": args.players,
        "over_s": args.over,
        "workers": args.workers,
        "seated": len(queue.waits),
        "wait_s": {
            "p50": round(statistics.median(waits), 2),
            "p99": round(percentile(waits, 0.99), 2),
            "max": round(max(waits), 2),
        },
        "tables": len(queue.tables),
        "tables_by_computers": dict(sorted(queue.computers.items())),
        "games_ended_for": stats.games_done,
        "actions": stats.actions,
        "round_trip_ms": {
            "p50": round(percentile(lat, 0.5), 1),
            "p99": round(percentile(lat, 0.99), 1),
            "max": round(max(lat), 1),
        },
        "seconds": round(elapsed, 1),
        "server_cpu_s": round(cpu, 1),
        "server_cpu_ms_per_player_action": (
            round(1000 * cpu / stats.actions, 2) if stats.actions else None
        ),
        "actions_stored": stored,
        "server_cpu_ms_per_stored_action": round(1000 * cpu / stored, 2) if stored else None,
        "server_rss_mib": round(memory, 1),
        "errors": len(stats.errors) + len(queue.errors),
        "lost_acknowledged": None,
        "clocks_overdue": stalled,
        "killed_worker": killed[0] if killed else None,
        "refused_as_stale": stats.stale,
        "reconnects": stats.reconnects,
        "unanswered": stats.unanswered,
    }
    try:
        result["lost_acknowledged"] = lost_acknowledged(db, stats.acked)
    finally:
        tmp.cleanup()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
        for error in (queue.errors + stats.errors)[:5]:
            print(f"error: {error}")
    ok = result["seated"] == args.players and not result["errors"] and not stalled
    return 0 if ok and not result["lost_acknowledged"] else 1


if __name__ == "__main__":
    sys.exit(main())
