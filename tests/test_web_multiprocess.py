"""Several real server processes on one PostgreSQL database serve the same games.

Each test starts ``conquian serve`` processes on a PostgreSQL schema of its own: players of
one game on different processes see each other's moves (told by the database's
notifications), a move is accepted once however many processes it is sent to, a computer
seat moves once, and a process killed with SIGKILL loses nothing (its clients resume on
another).  Every wait is for a message or a process, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    TestDatabase,
    check_wire,
    hello,
    load_stored,
    postgres_database,
    postgres_url_or_skip,
)
from websockets.sync.client import ClientConnection, connect

from conquian.tools.load import post, start_server
from conquian.web.conn import Conn
from conquian.web.database import open_store
from conquian.web.hub import Hub
from conquian.web.live import LiveMatch
from conquian.web.requests import UserError, read_new_match
from conquian.web.views import Views

RECEIVED: list[tuple[int | None, str]] = []
"""Every message the tests' sockets received, with the seat, checked for secrets."""


@pytest.fixture
def pg() -> Iterator[TestDatabase]:
    with postgres_database(postgres_url_or_skip()) as db:
        yield db


class Client:
    """A websocket on one server process, playing a seat (or watching)."""

    def __init__(self, base: str, game_id: str, token: str | None, seat: int | None) -> None:
        self.seat = seat
        self._connection = connect("ws" + base.removeprefix("http") + f"/ws/{game_id}")
        self.ws: ClientConnection = self._connection.__enter__()
        self.ws.send(hello(token))
        self.errors: list[dict[str, Any]] = []
        self.acks: set[Any] = set()
        self.seq = -1
        """The number of actions of the last state received."""

    def close(self) -> None:
        self.ws.close()

    def act(self, action: str, msg_id: int) -> None:
        self.ws.send(json.dumps({"type": "act", "action": action, "id": msg_id}))

    def message(self) -> dict[str, Any]:
        raw = self.ws.recv(timeout=30)
        assert isinstance(raw, str)
        RECEIVED.append((self.seat, raw))
        msg: dict[str, Any] = json.loads(raw)
        if msg["type"] == "error":
            self.errors.append(msg)
        if msg["type"] == "state" and msg.get("ack") is not None:
            self.acks.add(msg["ack"])
        return msg

    def state(self, seq: int | None = None, *, every: bool = True) -> dict[str, Any]:
        """The next dealt state (with ``seq`` actions, when given).  ``every``: no state may be
        skipped on the way (each action is seen)."""
        while True:
            msg = self.message()
            if msg["type"] != "state":
                continue
            if every and self.seq >= 0:
                assert msg["seq"] <= self.seq + 1, f"seat {self.seat} missed a state"
            self.seq = msg["seq"]
            if msg["obs"] is not None and (seq is None or msg["seq"] == seq):
                return msg


def stored_actions(db: TestDatabase, game_id: str) -> list[tuple[int, int, str]]:
    return db.actions(game_id)


def rebuilt(db: TestDatabase, game_id: str) -> LiveMatch:
    loaded = load_stored(db.url, game_id)
    assert loaded is not None
    return LiveMatch(*loaded)


def two_servers(db: TestDatabase, tmp_path: Path, bot_delay: float = 0.0) -> list[Any]:
    """Two ``conquian serve`` processes on one database: [(process, base URL), ...]."""
    made = []
    for name in ("a", "b"):
        made.append(
            start_server(
                db.url,
                bot_delay=bot_delay,
                log=tmp_path / f"server-{name}.log",
                args=["--rate-limit", "off"],
            )
        )
    return made


def stop(servers: list[Any]) -> None:
    for proc, _ in servers:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(15)


def friend_game(base_a: str, base_b: str, rules: str = "standard") -> tuple[str, list[str]]:
    """A friend game made on process A, its second seat taken on process B."""
    made = post(f"{base_a}/api/games", {"mode": "friend", "name": "Ana", "rules": rules})
    joined = post(f"{base_b}/api/games/{made['id']}/join", {"name": "Ben"})
    return made["id"], [made["token"], joined["token"]]


def test_players_on_two_processes_play_on_into_the_next_deal(
    pg: TestDatabase, tmp_path: Path
) -> None:
    """Seat 0 on process A, seat 1 on B: every move reaches the other process's player; the
    first deal ends and the second is dealt alike on both; each acknowledged action is
    stored once."""
    RECEIVED.clear()
    servers = two_servers(pg, tmp_path)
    (_, base_a), (_, base_b) = servers
    try:
        # a match of three deals: a second deal comes whoever wins the first (the standard
        # match ends at the first deal won)
        game_id, tokens = friend_game(base_a, base_b, "standard,match=n_deals,match_target=3")
        clients = [Client(base_a, game_id, tokens[0], 0), Client(base_b, game_id, tokens[1], 1)]
        rng = random.Random(3)
        views = [c.state(0) for c in clients]
        seq, acked, delays = 0, 0, []
        deal_two_moves = 0
        while deal_two_moves < 4:
            assert seq < 400, "the first deal did not end"
            p = views[0]["obs"]["to_act"]
            action = rng.choice(views[p]["obs"]["legal_actions"])
            clients[p].act(action, seq)
            seq += 1
            views[p] = clients[p].state(seq)
            acked_at = time.perf_counter()
            assert views[p]["ack"] == seq - 1
            acked += 1
            views[1 - p] = clients[1 - p].state(seq)  # told by the other process
            delays.append(time.perf_counter() - acked_at)
            assert views[0]["match"] == views[1]["match"]
            assert views[0]["fair"] == views[1]["fair"]  # the same commitments on both
            if views[0]["match"]["deal"] >= 2:
                deal_two_moves += 1
        assert views[0]["last"]["fair"] == views[1]["last"]["fair"]  # the revealed shuffle
        assert [c.errors for c in clients] == [[], []]
        assert len(stored_actions(pg, game_id)) == acked == seq
        truth = rebuilt(pg, game_id)
        for p in (0, 1):  # what each process showed is the game the database holds
            assert views[p]["obs"] == Views(truth).state(p)["obs"]
        # each state reached the other process's player soon (a generous bound: the
        # machine is shared; docs/performance.md gives the measured figures)
        assert max(delays) < 2.0, max(delays)
        for c in clients:
            c.close()
    finally:
        stop(servers)
    assert check_wire(pg, RECEIVED) >= 2 * seq


def test_the_same_move_sent_to_both_processes_is_accepted_once(
    pg: TestDatabase, tmp_path: Path
) -> None:
    """A player connected to both processes sends one move to both at once, many times:
    each time one is acknowledged, the other refused, and one action is stored."""
    RECEIVED.clear()
    servers = two_servers(pg, tmp_path)
    (_, base_a), (_, base_b) = servers
    try:
        game_id, tokens = friend_game(base_a, base_b)
        # each seat has a connection on each process
        on = [
            [Client(base_a, game_id, tokens[p], p), Client(base_b, game_id, tokens[p], p)]
            for p in (0, 1)
        ]
        views = {(p, k): on[p][k].state(0) for p in (0, 1) for k in (0, 1)}
        rng = random.Random(5)
        for seq in range(1, 13):
            p = views[0, 0]["obs"]["to_act"]
            action = rng.choice(views[p, 0]["obs"]["legal_actions"])
            msg_id = seq
            on[p][0].act(action, msg_id)
            on[p][1].act(action, msg_id)
            acks = 0
            for k in (0, 1):
                # each connection: its own ack or an error, and the state after the move
                answered = False
                errors = len(on[p][k].errors)
                while not answered:
                    msg = on[p][k].message()
                    if msg["type"] == "state":
                        assert msg["seq"] <= seq
                        views[p, k] = msg
                        if msg.get("ack") == msg_id:
                            acks += 1
                            answered = True
                    answered = answered or len(on[p][k].errors) > errors
                while views[p, k]["seq"] < seq:
                    views[p, k] = on[p][k].state(seq, every=False)
            assert acks == 1, f"move {seq} was acknowledged {acks} times"
            for k in (0, 1):
                views[1 - p, k] = on[1 - p][k].state(seq, every=False)
            assert len(stored_actions(pg, game_id)) == seq
        refused = [e for p in (0, 1) for c in on[p] for e in c.errors]
        assert len(refused) == 12  # one of each pair, with a reason, and nothing else
        for p in (0, 1):
            for c in on[p]:
                c.close()
    finally:
        stop(servers)
    assert check_wire(pg, RECEIVED) > 0


def test_a_computer_seat_moves_once_with_clients_on_both_processes(
    pg: TestDatabase, tmp_path: Path
) -> None:
    """A game against the computer watched and played from both processes; a spectator
    arrives on the second process while the computer is about to move (so both processes
    try to move it): the computer moves once at every turn, and both processes show the
    same game."""
    RECEIVED.clear()
    servers = two_servers(pg, tmp_path, bot_delay=0.2)
    (_, base_a), (_, base_b) = servers
    try:
        # three deals: the match goes on whoever wins a deal (a standard match ends there)
        made = post(
            f"{base_a}/api/games",
            {
                "mode": "bot",
                "level": "easy",
                "name": "Ana",
                "rules": "standard,match=n_deals,match_target=3",
            },
        )
        game_id, token = made["id"], made["token"]
        mine = [Client(base_a, game_id, token, 0), Client(base_b, game_id, token, 0)]
        watcher = Client(base_b, game_id, None, None)
        rng = random.Random(9)
        view = mine[0].state()
        moves = 0
        latecomers: list[Client] = []
        while moves < 10 and not view["match"]["over"]:
            while not view["obs"]["legal_actions"] and not view["match"]["over"]:
                view = mine[0].state(every=False)  # the computer's turn
            if view["match"]["over"]:  # the computer's move ended the match
                break
            at = view["seq"]
            action = rng.choice(view["obs"]["legal_actions"])
            sender = mine[moves % 2]
            sender.act(action, moves)
            # the computer may be to move now: a new spectator on B makes B move it too
            latecomers.append(Client(base_b, game_id, None, None))
            for c in mine:  # both connections see the move, the sender with its ack
                while c.seq <= at:
                    seen = c.state(every=False)
                    if c is mine[0]:
                        view = seen
            assert moves in sender.acks
            moves += 1
        # once it is the person's turn again (the computer has nothing more to do) both
        # processes come to the same position; no action was stored twice
        while not view["obs"]["legal_actions"] and not view["match"]["over"]:
            view = mine[0].state(every=False)
        final = view["seq"]
        assert len(stored_actions(pg, game_id)) == final
        ends = []
        for c in [*mine, watcher, *latecomers]:
            v = c.state(every=False) if c.seq < final else None
            while v is not None and v["seq"] < final:
                v = c.state(every=False)
            ends.append(c.seq)
        assert set(ends) == {final}
        stored = stored_actions(pg, game_id)
        assert [s for s, _, _ in stored] == list(range(1, final + 1))
        truth = rebuilt(pg, game_id)  # every stored action replays: none was doubled
        assert truth.seq == final
        assert sum(1 for _, player, _ in stored if player == 0) == moves
        assert not [e for c in [*mine, watcher, *latecomers] for e in c.errors]
        for c in [*mine, watcher, *latecomers]:
            c.close()
    finally:
        stop(servers)
    assert check_wire(pg, RECEIVED) > 0


def test_kill_9_one_process_its_player_resumes_on_the_other(
    pg: TestDatabase, tmp_path: Path
) -> None:
    RECEIVED.clear()
    servers = two_servers(pg, tmp_path)
    (proc_a, base_a), (_, base_b) = servers
    try:
        game_id, tokens = friend_game(base_a, base_b)
        clients = [Client(base_a, game_id, tokens[0], 0), Client(base_b, game_id, tokens[1], 1)]
        rng = random.Random(11)
        views = [c.state(0) for c in clients]
        seq = 0

        def move() -> None:
            nonlocal seq
            p = views[0]["obs"]["to_act"]
            clients[p].act(rng.choice(views[p]["obs"]["legal_actions"]), seq)
            seq += 1
            views[p] = clients[p].state(seq)
            assert views[p]["ack"] == seq - 1
            views[1 - p] = clients[1 - p].state(seq)

        for _ in range(8):
            move()
        os.kill(proc_a.pid, signal.SIGKILL)
        proc_a.wait(10)
        assert len(stored_actions(pg, game_id)) == seq  # every acknowledged action kept
        clients[0].close()
        clients[0] = Client(base_b, game_id, tokens[0], 0)  # reconnects to the other one
        clients[0].seq = -1
        views[0] = clients[0].state()
        assert views[0]["seq"] == seq and views[0]["obs"] == views[1]["obs"] | {
            "hand": views[0]["obs"]["hand"],
            "player": 0,
            "legal_actions": views[0]["obs"]["legal_actions"],
            "history": views[0]["obs"]["history"],
        }
        for _ in range(6):
            move()
        assert len(stored_actions(pg, game_id)) == seq == 14
        assert [c.errors for c in clients] == [[], []]
        for c in clients:
            c.close()
    finally:
        stop(servers)
    assert check_wire(pg, RECEIVED) >= 2 * seq


def test_a_stale_process_catches_up_instead_of_storing_a_move_twice(pg: TestDatabase) -> None:
    """Two hubs on one database, without notifications (as if one were late to hear): a
    move at a number the other process has stored already is refused by the database, the
    late hub reads what it missed, and judges the move again against the new position."""

    async def run() -> None:
        stores = [open_store(pg.url), open_store(pg.url)]
        hubs = [Hub(stores[0]), Hub(stores[1])]
        try:
            made, token0, _ = await hubs[0].create(
                read_new_match({"mode": "friend", "name": "Ana"})
            )
            _, _, token1 = await hubs[1].join(made.id, "Ben", None)
            # the match as each process serves it to a connection of its own
            room = await hubs[0].connect(await hubs[0].get(made.id), Conn(0))
            game = room.live
            there = await hubs[1].connect(await hubs[1].get(made.id), Conn(1))
            late = there.live
            await hubs[0].greet(room, 0, None)
            await hubs[1].greet(there, 1, None)
            await hubs[0].sync.refresh(room)  # both know the deal now
            assert game.dealt and late.dealt and game.seq == late.seq == 0
            conns = [Conn(0), Conn(1)]
            p = game.game.state.to_act
            first = game.game.legal_actions()[0]
            await hubs[0].act(room, conns[p], first, 1)  # hub 1 does not hear of it
            assert game.seq == 1 and late.seq == 0
            # the same move, sent to the late hub: stored once, refused or judged again
            with pytest.raises(UserError):
                await hubs[1].act(there, conns[p], first, 2)
            assert late.seq == 1  # it caught up
            assert pg.actions(game.id) == [(1, p, str(first))]
            assert there.views.state(p)["obs"] == room.views.state(p)["obs"]
            # and it goes on: the next move made on the late hub is stored as number 2
            q = late.game.state.to_act
            await hubs[1].act(there, conns[q], late.game.legal_actions()[0], 3)
            assert [s for s, _, _ in pg.actions(game.id)] == [1, 2]
            assert token0 != token1
        finally:
            for hub in hubs:
                await hub.close()
            for store in stores:
                await store.close()

    asyncio.run(run())


def test_moves_every_player_sees_travel_in_the_notification_exchanges_do_not(
    pg: TestDatabase,
) -> None:
    """Two hubs on one database, listening: a move every player sees reaches the other hub in
    its notification, which applies it without reading the database; an exchange choice
    (only its player sees it) is never put in a notification, and the other hub reads it."""
    from conquian.web.notify import Listener

    async def run() -> None:
        stores = [open_store(pg.url), open_store(pg.url)]
        hubs = [Hub(stores[0]), Hub(stores[1])]
        reads: list[int] = []
        real_since = stores[1].since

        async def counted_since(*args: Any) -> Any:
            reads.append(args[1])
            return await real_since(*args)

        stores[1].since = counted_since  # type: ignore[method-assign]
        channel = stores[0].channel
        assert channel is not None
        heard: asyncio.Queue[Any] = asyncio.Queue()
        spy = Listener(pg.url, channel, lambda *change: heard.put_nowait(change), lambda: None)
        await spy.start()
        try:
            for hub in hubs:
                await hub.start()
            seats = [{"kind": "person"}, {"kind": "person"}]
            asked = {"name": "Ana", "rules": "mexican,num_players=3", "seats": seats}
            made, _, invites = await hubs[0].create(read_new_match(asked))
            # the match as this process serves it to a connection of its own
            room = await hubs[0].connect(await hubs[0].get(made.id), Conn(0))
            game = room.live
            there_room = await hubs[1].get(game.id)
            there = there_room.live
            watcher = Conn(1)
            await hubs[1].connect(there_room, watcher)
            for seat in (1, 2):
                await hubs[0].join(game.id, f"P{seat}", invites[seat])
            for seat in range(3):
                await hubs[0].greet(room, seat, None)
            conns = [Conn(0), Conn(1), Conn(2)]
            async with asyncio.timeout(30):  # hub 1 has dealt (it read the seeds)
                while not there.dealt:
                    watcher.wake.clear()
                    await watcher.wake.wait()
            reads.clear()
            carried: list[tuple[int, int, str] | None] = []
            for _move in range(8):
                async with asyncio.timeout(30):  # hub 1 is up to date: event-driven
                    while there.seq < game.seq:
                        watcher.wake.clear()
                        await watcher.wake.wait()
                state = game.game.state
                action = state.legal_actions()[0]
                await hubs[0].act(room, conns[state.to_act], action, None)
                async with asyncio.timeout(30):
                    while len(carried) < game.seq:
                        change = await heard.get()
                        if change[1] == "a":
                            carried.append(change[4])
            async with asyncio.timeout(30):
                while there.seq < game.seq:
                    watcher.wake.clear()
                    await watcher.wake.wait()
            exchanges = [i for i, row in enumerate(carried) if row is None]
            assert exchanges, "the Mexican game starts with the exchanges"
            assert len(exchanges) < len(carried), "and goes on with moves every player sees"
            assert not any(row[2].startswith("exchange") for row in carried if row is not None)
            # hub 1 read the database only to learn the exchanges (a read after number i brings
            # action i + 1: reads at 0 may also be for the seeds), never a move that a
            # notification carried
            assert reads and set(reads) <= set(exchanges)
            assert there_room.views.state(1)["obs"] == room.views.state(1)["obs"]
        finally:
            await spy.close()
            for hub in hubs:
                await hub.close()
            for store in stores:
                await store.close()

    asyncio.run(run())


def serve_command(db_url: str, port: int, *more: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "conquian.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        db_url,
        "--rate-limit",
        "off",
        "--bot-delay",
        "0",
        *more,
    ]


def test_workers_2_refuses_sqlite(tmp_path: Path) -> None:
    from conquian.tools.load import free_port

    done = subprocess.run(
        serve_command(f"sqlite:///{tmp_path / 'g.sqlite3'}", free_port(), "--workers", "2"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "--workers 2 needs a PostgreSQL database" in done.stderr
    assert "sqlite serves one process" in done.stderr
    assert not (tmp_path / "g.sqlite3").exists()  # refused before anything was made


def test_workers_2_serve_restart_a_killed_worker_and_stop_together(pg: TestDatabase) -> None:
    """``conquian serve --workers 2``: two workers on one port; one killed with SIGKILL is
    started again while the other serves on; SIGINT (Ctrl-C) stops them all."""
    from conquian.tools.load import free_port

    port = free_port()
    proc = subprocess.Popen(
        serve_command(pg.url, port, "--workers", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    try:
        pids: list[int] = []
        while len(pids) < 2:
            line = proc.stdout.readline()
            assert line, "the server stopped"
            if line.startswith("worker ") and "started (pid " in line:
                pids.append(int(line.rsplit("pid ", 1)[1].rstrip(")\n")))
        base = f"http://127.0.0.1:{port}"
        # the port is bound before the workers start: a request waits for one, never refused
        made = post(f"{base}/api/games", {"mode": "friend", "name": "Ana"})
        os.kill(pids[0], signal.SIGKILL)
        while True:  # the supervisor says so and starts another
            line = proc.stdout.readline()
            assert line, "the server stopped"
            if "starting it again" in line:
                break
        joined = post(f"{base}/api/games/{made['id']}/join", {"name": "B"})
        assert joined["seat"] == 1
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        for pid in pids[1:]:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _server_pid_of(client_port: int, server_port: int, pids: list[int]) -> int | None:
    """Which of ``pids`` holds the server's end of the TCP connection from ``client_port``
    (read from /proc: the socket's inode in /proc/net/tcp, then the process that has it)."""
    wanted = f":{server_port:04X}", f":{client_port:04X}"
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[1].endswith(wanted[0]) and fields[2].endswith(wanted[1]):
                    inode = fields[9]
    if inode is None:
        return None
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
    return None


class Workers:
    """``conquian serve --workers 2`` on a free port, with its workers' pids as it prints
    them (a worker started again replaces the one it stands for)."""

    def __init__(self, db: TestDatabase) -> None:
        from conquian.tools.load import free_port

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            serve_command(db.url, self.port, "--workers", "2"),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.pids: dict[int, int] = {}
        while len(self.pids) < 2:
            self.read_line()

    def read_line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the server stopped"
        if line.startswith("worker ") and "started (pid " in line:
            number = int(line.split()[1])
            self.pids[number] = int(line.rsplit("pid ", 1)[1].rstrip(")\n"))
        return line

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def pid_of(self, client: Client) -> int | None:
        port = client.ws.socket.getsockname()[1]
        return _server_pid_of(port, self.port, list(self.pids.values()))


def test_workers_2_serve_all_of_a_games_connections_from_one_worker(pg: TestDatabase) -> None:
    """The supervisor hands both players' sockets and a spectator's to the worker the game's
    id picks, so that one process builds every view of the game; the games are spread over
    both workers.  Killed with SIGKILL, that worker's game goes on: its players connect
    again (to the other worker while it is started again) and play on."""
    RECEIVED.clear()
    server = Workers(pg)
    clients: list[Client] = []
    try:
        used: set[int] = set()
        games = []
        for _ in range(8):
            made = post(f"{server.base}/api/games", {"mode": "friend", "name": "Ana"})
            joined = post(f"{server.base}/api/games/{made['id']}/join", {"name": "Ben"})
            players = [
                Client(server.base, made["id"], made["token"], 0),
                Client(server.base, made["id"], joined["token"], 1),
            ]
            watcher = Client(server.base, made["id"], None, None)
            first: list[dict[str, Any]] = [c.state(0) for c in players]
            clients += [*players, watcher]
            pids = {server.pid_of(c) for c in (*players, watcher)}
            assert len(pids) == 1 and None not in pids, pids
            used |= pids
            games.append((made["id"], [made["token"], joined["token"]], players, first))
        assert used == set(server.pids.values())  # 8 games: both workers have some

        game_id, tokens, players, views = games[0]
        seq = 0
        rng = random.Random(5)

        def move(players: list[Client]) -> None:
            nonlocal seq
            p = views[0]["obs"]["to_act"]
            players[p].act(rng.choice(views[p]["obs"]["legal_actions"]), seq)
            seq += 1
            views[p] = players[p].state(seq)
            views[1 - p] = players[1 - p].state(seq)

        for _ in range(4):
            move(players)
        victim = server.pid_of(players[0])
        assert victim is not None
        os.kill(victim, signal.SIGKILL)
        while "starting it again" not in server.read_line():
            pass
        assert len(stored_actions(pg, game_id)) == seq
        for p in (0, 1):
            players[p].close()
            players[p] = Client(server.base, game_id, tokens[p], p)
            views[p] = players[p].state()
            assert views[p]["seq"] == seq
        for _ in range(4):
            move(players)
        assert len(stored_actions(pg, game_id)) == seq == 8
        assert all(c.errors == [] for c in players)
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                c.close()
        server.stop()
    assert server.proc.returncode == 0
    assert check_wire(pg, RECEIVED) > 0


def test_workers_2_a_slow_or_silent_client_holds_no_one_up(pg: TestDatabase) -> None:
    """The supervisor waits for each request's first line without holding up the others:
    a client that has sent half a line, or nothing, does not delay another's request, and is
    answered once its line is whole; one that leaves without a word changes nothing."""
    server = Workers(pg)
    try:
        silent = socket.create_connection(("127.0.0.1", server.port))
        half = socket.create_connection(("127.0.0.1", server.port))
        half.sendall(b"GET /api/lob")
        leaver = socket.create_connection(("127.0.0.1", server.port))
        leaver.close()
        with urllib.request.urlopen(f"{server.base}/api/lobby", timeout=30) as answer:
            assert answer.status == 200
        half.sendall(b"by HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        half.settimeout(30)
        reply = b""
        while chunk := half.recv(65536):
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 200 ")
        half.close()
        silent.close()
        made = post(f"{server.base}/api/games", {"mode": "friend", "name": "Ana"})
        assert made["seat"] == 0
    finally:
        server.stop()
    assert server.proc.returncode == 0


def test_workers_2_connections_wait_for_busy_workers(pg: TestDatabase) -> None:
    """Workers take their connections when they can: 700 requests while both workers are
    stopped (SIGSTOP) wait for them (a Unix socket holds a few hundred passed connections
    at most) and are all answered once they go on, none dropped."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2000 <= hard or hard == resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (2000, hard))
        soft = 2000
    count = min(700, (soft - 200) // 2)  # this process's sockets and the supervisor's
    server = Workers(pg)
    sockets: list[socket.socket] = []
    try:
        for pid in server.pids.values():
            os.kill(pid, signal.SIGSTOP)
        try:
            for _ in range(count):
                conn = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                conn.sendall(
                    b"GET /api/games/no-such-game HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                )
                sockets.append(conn)
        finally:
            for pid in server.pids.values():
                os.kill(pid, signal.SIGCONT)
        for conn in sockets:
            reply = b""
            while chunk := conn.recv(65536):
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 404 "), reply[:80]
    finally:
        for conn in sockets:
            conn.close()
        server.stop()
    assert server.proc.returncode == 0


def test_serve_raises_its_open_files_limit(tmp_path: Path) -> None:
    """Started with a soft limit of 256 open files (a few hundred connections), the server
    raises it to the hard limit, so that it is not the number of connections it can hold."""
    from conquian.tools.load import free_port

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip(f"the hard limit on open files here is {hard}: nothing to raise it to")

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    port = free_port()
    proc = subprocess.Popen(
        serve_command(f"sqlite:///{tmp_path / 'g.sqlite3'}", port),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=low_limit,
    )
    try:
        assert proc.stdout is not None
        assert "served at" in proc.stdout.readline()
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
        soft = next(line.split()[3] for line in limits.splitlines() if "open files" in line)
        assert soft == ("unlimited" if hard == resource.RLIM_INFINITY else str(hard)) or (
            hard == resource.RLIM_INFINITY and int(soft) >= 65536
        )
    finally:
        proc.terminate()
        proc.wait(15)


def test_a_killed_process_s_clocks_are_kept_by_the_other(pg: TestDatabase, tmp_path: Path) -> None:
    """A clocked game on process A: Ben leaves while Ana plays on, then A is killed with
    SIGKILL while Ben is to decide.  Ana's page connects to process B, and when Ben's time
    runs out (the clock is a row of the database; here it is set due by hand) B makes his
    decision for him: no table stalls on a dead process."""
    RECEIVED.clear()
    servers = two_servers(pg, tmp_path)
    (proc_a, base_a), (_, base_b) = servers
    try:
        made = post(f"{base_a}/api/games", {"mode": "friend", "name": "Ana", "clock": True})
        joined = post(f"{base_a}/api/games/{made['id']}/join", {"name": "Ben"})
        game_id = made["id"]
        ana = Client(base_a, game_id, made["token"], 0)
        ben = Client(base_a, game_id, joined["token"], 1)
        ben.state()  # dealt; then he leaves
        ben.close()
        view = ana.state()
        for _ in range(60):  # Ana plays until Ben has a decision of his own (two choices)
            clock, to_act = view["clock"], view["obs"]["to_act"]
            if to_act == 1 and clock["due"] is not None and clock["due"] - clock["now"] > 10:
                break  # (a decision with one choice is made at once, due in 3 s)
            if to_act == 0 and len(view["obs"]["legal_actions"]) > 1:
                ana.act(view["obs"]["legal_actions"][0], view["seq"])
            view = ana.state()
        else:
            raise AssertionError("Ben never had a decision of his own")
        seq = view["seq"]
        os.kill(proc_a.pid, signal.SIGKILL)
        proc_a.wait(10)
        ana.close()
        ana = Client(base_b, game_id, made["token"], 0)
        assert ana.state()["seq"] == seq  # nothing made yet: his time has not run out
        pg.execute("update clocks set due = 0 where game_id = %s", game_id)
        made_for_him = ana.state(seq + 1)  # process B made it
        assert stored_actions(pg, game_id)[-1][1] == 1
        assert made_for_him["obs"]["to_act"] != 1 or made_for_him["clock"]["seat"] == 1
        assert ana.errors == []
        ana.close()
    finally:
        stop(servers)
    assert check_wire(pg, RECEIVED) >= 1
