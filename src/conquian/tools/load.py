"""A bounded load test of the web server: many concurrent bot-vs-bot games over websockets.

``python -m conquian.tools.load --games 200`` starts a real server (``conquian serve``)
on a free loopback port with a fresh SQLite file, creates the friend games over
HTTP, joins each with a second player, then plays every game to its end at once:
each seat is a websocket whose bot answers the observations it receives.  It
measures every action's round trip (sent → the server's acknowledgement, which
comes after the commit) and prints throughput and latency percentiles.  It stops
by itself: when every game is over, or after ``--timeout`` seconds.

``--db`` gives the server another database (a PostgreSQL URL), ``--workers N`` starts it
as ``conquian serve --workers N``, and ``--kill-after S`` kills one worker with SIGKILL S
seconds into the games: its clients connect again (to the workers left, or the one started
in its place) and play on, and the run counts the acknowledged actions the database lacks
afterwards (it should be none).  The server's CPU time over the games (its processes',
from ``/proc``) divided by the actions is printed as the CPU per action.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson
import websockets

from ..bots import make_bot
from ..observation import Observation, PublicEvent, read_public_event


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    db_url: str,
    port: int | None = None,
    *,
    bot_delay: float = 0.0,
    timeout: float = 30.0,
    log: Path | None = None,
    args: Sequence[str] = (),
) -> tuple[subprocess.Popen[bytes], str]:
    """Run ``conquian serve`` in a child process; returns it and its base URL once it answers.

    ``args`` are more options of ``conquian serve`` (``--rate-limit off``).  The server's
    output goes to ``log`` (default: discarded, but shown if it fails to start).
    """
    port = port or free_port()
    out = open(log, "w+b") if log is not None else tempfile.TemporaryFile()  # noqa: SIM115
    with out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "conquian.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                db_url,
                "--bot-delay",
                str(bot_delay),
                *args,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/rules", timeout=2):
                    return proc, base
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    proc.wait()
                    out.seek(0)
                    err = out.read().decode(errors="replace")
                    raise RuntimeError(f"the server did not start: {err[-2000:]}") from None
                time.sleep(0.1)


def hello(token: str | None, *, deltas: bool = False) -> str:
    """The first websocket message: who this client is (a seat's token; None to watch), and
    whether it takes the moves of the deal as what changed (``deltas``, as the browser does:
    see :func:`whole_lists`)."""
    message: dict[str, Any] = {"type": "hello", "token": token} if token else {"type": "hello"}
    if deltas:
        message["deltas"] = True
    return json.dumps(message)


def whole_lists(msg: dict[str, Any], last: dict[str, Any] | None) -> None:
    """Put back the whole log and history of a state message sent with deltas, from the last
    state of the same connection (``last``, whole already)."""
    log_from = msg.get("log_from", 0)
    if log_from:
        assert last is not None
        msg["log"] = last["log"][:log_from] + msg["log"]
    history_from = msg.get("history_from", 0)
    if history_from:
        assert last is not None
        msg["obs"]["history"] = last["obs"]["history"][:history_from] + msg["obs"]["history"]


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON and read the JSON answer."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


@dataclass
class Stats:
    """What the load run measured."""

    latencies: list[float] = field(default_factory=list)
    acked_at: list[float] = field(default_factory=list)
    finished_at: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games_done: int = 0
    actions: int = 0
    start: float = 0.0
    acked: dict[tuple[str, int], str] = field(default_factory=dict)
    """Every acknowledged action: (game, number) → the action."""
    seen_at: dict[tuple[str, int, int], float] = field(default_factory=dict)
    """When each seat first received each game's state after each number of actions."""
    reconnects: int = 0
    stale: int = 0
    """Actions refused because the game had moved on while the seat thought (a clocked game's
    server made the decision first); not errors."""
    unanswered: int = 0
    """Actions sent on a connection that broke before their acknowledgement came."""
    first_state_at: list[float] = field(default_factory=list)
    """When each seat received its first state message (it has connected and said hello)."""


def seat_delays(stats: Stats) -> list[float]:
    """For each acknowledged action, how long after its acknowledgement the other seat
    received the new state (negative: before it)."""
    out = []
    for (game, seq, seat), at in stats.seen_at.items():
        other = stats.seen_at.get((game, seq, 1 - seat))
        if other is not None and (game, seq) in stats.acked and seat < 1 - seat:
            out.append(abs(other - at))
    return out


async def play_seat(
    ws_base: str,
    game_id: str,
    token: str,
    bot_name: str,
    seed: int,
    stats: Stats,
    think: float,
    seat: int = 0,
    reconnect: bool = False,
    arrive: float = 0.0,
    clocked: bool = False,
) -> bool:
    """Play one seat to the end of the match; True when the match ended.

    The seat connects ``arrive`` seconds after the start.  Before each action it waits
    ``think`` seconds on average (uniform in 0.5-1.5 times it), as a person would; 0 sends
    each action at once.  ``reconnect``: when the connection breaks (its server process
    died), connect again and play on.  ``clocked``: a game with a clock, whose server makes
    a decision with one choice itself, at once: the seat leaves those to it, and an action
    refused because the game moved on meanwhile (the server's, or a stand-in's when the
    seat's time ran out) is counted in ``stats.stale``, and the seat plays on from the state
    it has.
    """
    if arrive:
        await asyncio.sleep(arrive)
    rng = random.Random(seed)
    bot = make_bot(bot_name, rng=random.Random(seed))
    dealt = -1
    next_id = 0
    tries = 0
    first = True
    while True:
        sent_at: dict[int, tuple[float, str]] = {}
        try:
            async with websockets.connect(
                f"{ws_base}/ws/{game_id}", max_size=2**22, compression=None
            ) as ws:
                tries = 0
                await ws.send(hello(token, deltas=True))
                last: dict[str, Any] | None = None
                events: list[PublicEvent] = []  # the deal's moves, read once each
                async for raw in ws:
                    msg = orjson.loads(raw)  # the client's own CPU shares the machine
                    if msg["type"] == "error":
                        if not (clocked and sent_at and last is not None):
                            stats.errors.append(msg["message"])
                            continue
                        stats.stale += 1  # refused: the game moved on while it thought
                        sent_at.clear()
                        # (its lists are whole already)
                        msg = {**last, "ack": None, "history_from": 0, "log_from": 0}
                    if msg["type"] != "state":
                        continue
                    if msg["obs"] is not None:
                        events[msg.get("history_from", 0) :] = [
                            read_public_event(e) for e in msg["obs"]["history"]
                        ]
                    whole_lists(msg, last)
                    last = msg
                    now = time.perf_counter()
                    if first:
                        stats.first_state_at.append(now)
                        first = False
                    stats.seen_at.setdefault((game_id, msg["seq"], seat), now)
                    ack = msg.get("ack")
                    if ack in sent_at:
                        began, action_text = sent_at.pop(ack)
                        stats.latencies.append(now - began)
                        stats.acked_at.append(now)
                        stats.actions += 1
                        stats.acked[game_id, msg["seq"]] = action_text
                    if msg["match"]["over"]:
                        stats.finished_at.append(time.perf_counter())
                        return True
                    obs_data = msg["obs"]
                    if obs_data is None or not obs_data["legal_actions"] or sent_at:
                        continue  # (None: the first deal waits for the other player's hello)
                    if clocked and len(obs_data["legal_actions"]) == 1:
                        continue  # the server makes it at once
                    obs = Observation.from_dict({**obs_data, "history": []})
                    obs = replace(obs, history=tuple(events))
                    deal = msg["match"]["deal"]
                    if deal != dealt:
                        bot.new_deal(obs.viewer, obs.rules)
                        dealt = deal
                    action = bot.act(obs)
                    if think:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    next_id += 1
                    sent_at[next_id] = (time.perf_counter(), str(action))
                    await ws.send(json.dumps({"type": "act", "action": str(action), "id": next_id}))
            return False
        except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
            if not reconnect or tries >= 50:
                raise
            stats.unanswered += len(sent_at)
            stats.reconnects += tries == 0
            tries += 1
            dealt = -1  # the bot starts the deal afresh from the state it is sent
            await asyncio.sleep(min(0.05 * 2**tries, 1.0) * rng.uniform(0.5, 1.5))


async def run_load(
    base: str,
    games: int,
    bot_name: str,
    seed: int,
    stats: Stats,
    think: float = 0.0,
    *,
    reconnect: bool = False,
    started: Any = None,
    ramp: float = 0.0,
) -> float:
    """Create ``games`` friend games and play them all at once; returns the playing time.

    ``started()`` is called as the games start (after they are made).  ``ramp``: the games'
    players arrive one game after another over that many seconds (both seats of a game at
    once) instead of all at the start."""
    loop = asyncio.get_running_loop()
    seats: list[tuple[str, str]] = []
    for i in range(games):
        made = await loop.run_in_executor(
            None, post, f"{base}/api/games", {"mode": "friend", "name": f"load{i}a"}
        )
        joined = await loop.run_in_executor(
            None, post, f"{base}/api/games/{made['id']}/join", {"name": f"load{i}b"}
        )
        seats += [(made["id"], made["token"]), (made["id"], joined["token"])]
    ws_base = "ws" + base.removeprefix("http")
    if started is not None:
        started()
    start = stats.start = time.perf_counter()
    results = await asyncio.gather(
        *(
            play_seat(
                ws_base,
                game_id,
                token,
                bot_name,
                seed + i,
                stats,
                think,
                i % 2,
                reconnect,
                ramp * (i // 2) / games,
            )
            for i, (game_id, token) in enumerate(seats)
        ),
        return_exceptions=True,
    )
    elapsed = time.perf_counter() - start
    for result in results:
        if isinstance(result, BaseException):
            stats.errors.append(f"{type(result).__name__}: {result}")
    stats.games_done = sum(1 for r in results if r is True) // 2
    return elapsed


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def report(stats: Stats, games: int, elapsed: float) -> dict[str, Any]:
    lat = [x * 1000 for x in stats.latencies] or [0.0]
    other = [x * 1000 for x in seat_delays(stats)] or [0.0]
    # throughput while every game was still being played (until the first one ended)
    first_end = min(stats.finished_at, default=stats.start + elapsed)
    window = first_end - stats.start
    in_window = sum(1 for t in stats.acked_at if t <= first_end)
    durations = sorted(t - stats.start for t in stats.finished_at) or [elapsed]
    # the round trips while every seat was connected and every game still in play
    everyone_in = max(stats.first_state_at, default=first_end)
    in_play = [
        x * 1000
        for at, x in zip(stats.acked_at, stats.latencies, strict=True)
        if everyone_in <= at <= first_end
    ]
    return {
        "games": games,
        "games_finished": stats.games_done,
        "errors": len(stats.errors),
        "actions": stats.actions,
        "seconds": round(elapsed, 2),
        "actions_per_s": round(stats.actions / elapsed, 1) if elapsed else 0.0,
        "games_per_s": round(stats.games_done / elapsed, 2) if elapsed else 0.0,
        "all_games_running_s": round(window, 2),
        "actions_per_s_all_running": round(in_window / window, 1) if window > 0 else 0.0,
        "game_seconds_median": round(statistics.median(durations), 1),
        "latency_ms": {
            "mean": round(statistics.fmean(lat), 2),
            "p50": round(percentile(lat, 0.50), 2),
            "p90": round(percentile(lat, 0.90), 2),
            "p99": round(percentile(lat, 0.99), 2),
            "max": round(max(lat), 2),
        },
        "other_seat_ms": {
            "p50": round(percentile(other, 0.50), 2),
            "p99": round(percentile(other, 0.99), 2),
            "max": round(max(other), 2),
        },
        "latency_p99_by_phase": phases(stats),
        "all_in_play": {
            "from_s": round(everyone_in - stats.start, 2),
            "to_s": round(window, 2),
            "actions": len(in_play),
            "p50_ms": round(percentile(in_play, 0.50), 2) if in_play else None,
            "p99_ms": round(percentile(in_play, 0.99), 2) if in_play else None,
        },
        "reconnects": stats.reconnects,
        "unanswered": stats.unanswered,
    }


def phases(stats: Stats, parts: int = 5) -> list[dict[str, float]]:
    """The run cut into ``parts`` equal spans of time: each span's actions and their p99
    round trip (ms), so that a slow start (every seat connecting at once) shows apart
    from the games in play."""
    if not stats.acked_at:
        return []
    end = max(stats.acked_at)
    span = (end - stats.start) / parts or 1.0
    buckets: list[list[float]] = [[] for _ in range(parts)]
    for at, latency in zip(stats.acked_at, stats.latencies, strict=True):
        buckets[min(int((at - stats.start) / span), parts - 1)].append(latency * 1000)
    return [
        {
            "from_s": round(i * span, 1),
            "actions": len(b),
            "p99": round(percentile(b, 0.99), 2) if b else 0.0,
        }
        for i, b in enumerate(buckets)
    ]


def process_tree(pid: int) -> list[int]:
    """``pid`` and its child processes (Linux)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(c) for c in f.read().split()]
    except OSError:
        return [pid]
    return [pid, *children]


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process, its live children, and its children that
    have ended (Linux ``/proc``; 0 elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for at, p in enumerate(process_tree(pid)):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
        total += utime + stime + (cutime + cstime if at == 0 else 0)
    return total / tick


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its children, in MiB (Linux)."""
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                found = re.search(r"VmRSS:\s+(\d+) kB", f.read())
        except OSError:
            continue
        total += int(found[1]) if found else 0
    return total / 1024


def worker_pids(log: Path) -> list[int]:
    """The worker processes a ``conquian serve --workers N`` said it started, in its log."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return [int(p) for p in re.findall(r"worker \d+ started \(pid (\d+)\)", text)]


def lost_actions(db_url: str, acked: dict[tuple[str, int], str]) -> int:
    """How many acknowledged actions the database does not hold as acknowledged."""
    from ..web.database import open_store

    async def count() -> int:
        store = open_store(db_url)
        try:
            stored: dict[str, dict[int, str]] = {}
            for game, _ in acked:
                if game not in stored:
                    loaded = await store.load(game)
                    stored[game] = {} if loaded is None else {a.seq: a.action for a in loaded[1]}
            return sum(1 for (game, seq), text in acked.items() if stored[game].get(seq) != text)
        finally:
            await store.close()

    return asyncio.run(count())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conquian.tools.load",
        description="Play many concurrent bot-vs-bot games through a real server on loopback.",
    )
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--bot", default="greedy", help="the bot of every seat (default greedy)")
    parser.add_argument("--seed", type=int, default=1, help="bots' seed (default 1)")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=1000.0,
        help="mean pause of a seat before each action, like a person's (default 1000; 0: none)",
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="stop after S seconds")
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        metavar="S",
        help="the games' players arrive evenly over S seconds (default 0: all at once)",
    )
    parser.add_argument(
        "--url",
        help="use this server on this computer (http://127.0.0.1:PORT) instead of starting "
        "one; start it with --rate-limit off, as every game is made from one address",
    )
    parser.add_argument(
        "--db", help="the database of the server started (default: a fresh SQLite file)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (conquian serve --workers N)"
    )
    parser.add_argument(
        "--kill-after",
        type=float,
        metavar="S",
        help="kill one worker (SIGKILL) S seconds into the games; its clients reconnect",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if (
        args.games < 1
        or args.think_ms < 0
        or args.timeout <= 0
        or args.workers < 1
        or args.ramp < 0
    ):
        parser.error(
            "--games and --workers must be at least 1, --think-ms, --ramp and --timeout "
            "not negative"
        )
    if args.url is not None:
        host = urllib.parse.urlsplit(args.url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            parser.error("--url must be a server on this computer (loopback only)")
        if args.kill_after is not None or args.db or args.workers != 1:
            parser.error("--db, --workers and --kill-after are for the server this starts")
    if args.kill_after is not None and args.workers < 2:
        parser.error("--kill-after needs --workers 2 or more")
    stats = Stats()
    proc = None
    tmp = tempfile.TemporaryDirectory(prefix="conquian-load-")
    log = Path(tmp.name) / "server.log"
    db = args.db or f"sqlite:///{Path(tmp.name) / 'load.sqlite3'}"
    cpu: dict[str, float] = {}
    memory = 0.0
    killed: list[int] = []
    try:
        base = args.url
        if base is None:
            # every game is made from this one address: the server's rate limit is off
            more = ["--rate-limit", "off", "--workers", str(args.workers)]
            proc, base = start_server(db, args=more, log=log)
        server = proc

        def started() -> None:
            cpu["client_start"] = time.process_time()
            if server is not None:
                cpu["start"] = cpu_seconds(server.pid)
                if args.kill_after is not None:
                    loop = asyncio.get_running_loop()
                    loop.call_later(args.kill_after, kill_one)

        def kill_one() -> None:
            pids = [p for p in worker_pids(log) if server and p in process_tree(server.pid)]
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        async def bounded() -> float:
            reconnect = args.kill_after is not None
            playing = run_load(
                base,
                args.games,
                args.bot,
                args.seed,
                stats,
                args.think_ms / 1000,
                reconnect=reconnect,
                started=started,
                ramp=args.ramp,
            )
            return await asyncio.wait_for(playing, args.timeout)

        try:
            elapsed = asyncio.run(bounded())
        except TimeoutError:
            stats.errors.append(f"stopped after {args.timeout} s")
            elapsed = args.timeout
        if proc is not None and "start" in cpu:
            cpu["end"] = cpu_seconds(proc.pid)
            memory = rss_mib(proc.pid)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(30)
    client_cpu = time.process_time() - cpu.get("client_start", 0.0)
    result = report(stats, args.games, elapsed)
    result["client_cpu_s"] = round(client_cpu, 2)
    result["cpus"] = os.cpu_count()
    result["think_ms"] = args.think_ms
    result["workers"] = args.workers
    result["ramp_s"] = args.ramp
    if "end" in cpu and stats.actions:
        result["server_cpu_s"] = round(cpu["end"] - cpu["start"], 2)
        result["server_cpu_ms_per_action"] = round(
            1000 * (cpu["end"] - cpu["start"]) / stats.actions, 3
        )
        result["server_rss_mib"] = round(memory, 1)
    if proc is not None:
        result["lost_acknowledged"] = lost_actions(db, stats.acked)
        result["killed_worker"] = killed[0] if killed else None
    tmp.cleanup()
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_ms"]
        print(
            f"{result['games_finished']}/{args.games} games finished, {result['errors']} errors, "
            f"{result['actions']} actions in {result['seconds']} s "
            f"(think time {args.think_ms:g} ms) "
            f"({result['actions_per_s']} actions/s, {result['games_per_s']} games/s)"
        )
        print(
            f"while all {args.games} games were being played ({result['all_games_running_s']} s): "
            f"{result['actions_per_s_all_running']} actions/s; median game "
            f"{result['game_seconds_median']} s"
        )
        print(
            f"action round trip (ms): mean {lat['mean']}, p50 {lat['p50']}, p90 {lat['p90']}, "
            f"p99 {lat['p99']}, max {lat['max']}"
        )
        other = result["other_seat_ms"]
        print(
            f"the other seat's state after the acknowledgement (ms): p50 {other['p50']}, "
            f"p99 {other['p99']}, max {other['max']}"
        )
        if "server_cpu_ms_per_action" in result:
            print(
                f"server ({args.workers} process(es)): {result['server_cpu_s']} s of CPU, "
                f"{result['server_cpu_ms_per_action']} ms per action; "
                f"{result['server_rss_mib']} MiB resident at the end"
            )
        print(
            "p99 by fifth of the run (ms): "
            + ", ".join(
                f"from {p['from_s']} s {p['p99']} ({p['actions']})"
                for p in result["latency_p99_by_phase"]
            )
        )
        both = result["all_in_play"]
        if both["actions"]:
            print(
                f"with every seat connected and every game in play (from {both['from_s']} s "
                f"to {both['to_s']} s, {both['actions']} actions): p50 {both['p50_ms']} ms, "
                f"p99 {both['p99_ms']} ms"
            )
        print(f"the load client's own CPU: {result['client_cpu_s']} s")
        if "lost_acknowledged" in result:
            print(
                f"acknowledged actions missing from the database: {result['lost_acknowledged']}"
                + (
                    f"; worker {killed[0]} killed, {stats.reconnects} reconnections, "
                    f"{stats.unanswered} actions sent but never answered"
                    if killed
                    else ""
                )
            )
        for error in stats.errors[:5]:
            print(f"error: {error}")
    ok = not stats.errors and result["games_finished"] == args.games
    return 0 if ok and not result.get("lost_acknowledged") else 1


if __name__ == "__main__":
    sys.exit(main())
