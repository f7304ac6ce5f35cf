"""The store on its own, on SQLite and on PostgreSQL: what two server processes sharing
one database can do to each other, and that every write is committed when it returns.

The store is awaited; here each test drives it from an event loop of its own, through
:class:`Awaited`, so that the tests read as the sequences of calls they are."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError
from web_helpers import TestDatabase, postgres_database, postgres_url_or_skip

from conquian.web.database import open_store
from conquian.web.postgres import PostgresStore
from conquian.web.schema import ActionRow, DealRow, MatchRow, SeatRow, hash_token
from conquian.web.store import Store


class Awaited:
    """A store whose every awaited method is run to its end in ``loop`` when called."""

    def __init__(self, store: Store, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.store, name)
        if not asyncio.iscoroutinefunction(found):
            return found
        run: Callable[..., Any] = lambda *args, **kwargs: self.loop.run_until_complete(  # noqa: E731
            found(*args, **kwargs)
        )
        return run

    @property
    def postgres(self) -> bool:
        return isinstance(self.store, PostgresStore)


def game_row(game_id: str, *, rematch_of: str | None = None) -> MatchRow:
    return MatchRow(
        id=game_id,
        created=0.0,
        mode="friend",
        level=None,
        rules="standard",
        match_seed=2**63 - 1,  # the largest seed the server draws
        bot_seed=0,
        status="open",
        rematch_id=None,
        rematch_of=rematch_of,
        seats=(
            SeatRow(0, "human", "Ana", hash_token("a"), True),
            SeatRow(1, "human", "", None, False),
        ),
    )


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    made = asyncio.new_event_loop()
    yield made
    made.close()


@pytest.fixture
def stores(database: TestDatabase, loop: asyncio.AbstractEventLoop) -> Iterator[list[Awaited]]:
    """Two stores on one database, as two server processes would have."""
    made = [Awaited(open_store(database.url), loop), Awaited(open_store(database.url), loop)]
    yield made
    for s in made:
        s.close()


def test_a_game_round_trips(stores: list[Awaited], database: TestDatabase) -> None:
    one, two = stores
    one.create_match(game_row("g1"))
    assert one.join("g1", 1, "Zoë 名前", hash_token("b"))
    one.add_action("g1", ActionRow(1, 1, 0, "decline"))
    one.add_action("g1", ActionRow(2, 1, 1, "discard Kh"), record=(1, "p1 wins: out", "x" * 10_000))
    loaded = two.load("g1")  # the other process reads what the first committed
    assert loaded is not None
    row, acts, shuffles = loaded
    assert shuffles == []
    assert row.match_seed == 2**63 - 1 and row.status == "playing"
    assert row.seats[1].name == "Zoë 名前" and row.seats[1].joined
    assert acts == [ActionRow(1, 1, 0, "decline"), ActionRow(2, 1, 1, "discard Kh")]
    assert two.records("g1") == [(1, "p1 wins: out", "x" * 10_000)]
    assert database.actions("g1") == [(1, 0, "decline"), (2, 1, "discard Kh")]
    assert two.load("nosuchgame") is None


def test_two_processes_cannot_store_the_same_action_number(
    stores: list[Awaited], database: TestDatabase
) -> None:
    one, two = stores
    one.create_match(game_row("g1"))
    one.add_action("g1", ActionRow(1, 1, 0, "decline"), status="playing")
    with pytest.raises(IntegrityError):
        two.add_action("g1", ActionRow(1, 1, 0, "force"), record=(1, "draw: x", "r"))
    # the refused action changed nothing: not its record, not the game's status
    assert database.actions("g1") == [(1, 0, "decline")]
    assert two.records("g1") == []
    two.add_action("g1", ActionRow(2, 1, 1, "force"))  # and the store goes on working
    assert [a.seq for a in one.load("g1")[1]] == [1, 2]  # type: ignore[index]


def test_shuffles_are_stored_once_and_each_seat_adds_one_seed(stores: list[Awaited]) -> None:
    one, two = stores
    first = DealRow(1, "ab" * 32, "cd" * 32, (None, None))
    one.create_match(game_row("g1"), first)
    # stored already: the shuffle stored first is the one every process uses
    assert two.add_deal("g1", DealRow(1, "ee" * 32, "ff" * 32, (None, None))) == first
    second = DealRow(2, "12" * 32, "34" * 32, (None, None))
    assert two.add_deal("g1", second) == second
    assert one.add_client_seed("g1", 1, 0, "0f0f") == first.with_seed(0, "0f0f")
    assert two.add_client_seed("g1", 1, 0, "eeee") is None  # the first seed given stays
    # the other process is told every seed stored so far, not only its own
    assert two.add_client_seed("g1", 1, 1, "") == DealRow(1, "ab" * 32, "cd" * 32, ("0f0f", ""))
    assert one.add_client_seed("g1", 3, 0, "01") is None  # no such deal
    loaded = one.load("g1")
    assert loaded is not None
    assert loaded[0].fair is False  # game_row makes a game of before fair shuffles
    assert loaded[2] == [
        DealRow(1, "ab" * 32, "cd" * 32, ("0f0f", "")),
        DealRow(2, "12" * 32, "34" * 32, (None, None)),
    ]


def test_only_one_of_two_joins_takes_the_seat(stores: list[Awaited]) -> None:
    one, two = stores
    one.create_match(game_row("g1"))
    assert one.join("g1", 1, "Ben", hash_token("b"))
    assert not two.join("g1", 1, "Cy", hash_token("c"))
    row = two.load("g1")
    assert row is not None and row[0].seats[1].name == "Ben"


def test_only_one_rematch_and_it_is_stored_whole(stores: list[Awaited]) -> None:
    one, two = stores
    one.create_match(game_row("g1"))
    assert one.set_rematch("g1", game_row("r1", rematch_of="g1"))
    assert not two.set_rematch("g1", game_row("r2", rematch_of="g1"))
    assert two.load("r2") is None
    first = two.load("g1")
    rematch = two.load("r1")
    assert first is not None and first[0].rematch_id == "r1"
    assert rematch is not None and rematch[0].rematch_of == "g1"
    # a rematch whose game cannot be stored leaves no dangling link behind
    with pytest.raises(IntegrityError):
        one.set_rematch("r1", game_row("g1"))  # id taken
    again = two.load("r1")
    assert again is not None and again[0].rematch_id is None


def test_concurrent_writers_commit_every_action(
    stores: list[Awaited], database: TestDatabase
) -> None:
    """Four matches played at once through two stores, their writes awaited together."""
    for g in range(4):
        stores[0].create_match(game_row(f"g{g}"))

    async def play(store: Store, game_id: str) -> None:
        for seq in range(1, 26):
            await store.add_action(game_id, ActionRow(seq, 1, seq % 2, f"a{seq}"))

    async def all_of_them() -> None:
        await asyncio.gather(*(play(stores[g % 2].store, f"g{g}") for g in range(4)))

    stores[0].loop.run_until_complete(all_of_them())
    for g in range(4):
        assert [seq for seq, _, _ in database.actions(f"g{g}")] == list(range(1, 26))


def test_tables_are_created_once_by_many_stores(database: TestDatabase) -> None:
    made: list[Store] = []
    errors: list[BaseException] = []

    def opening() -> None:
        try:
            made.append(open_store(database.url))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    # eight at once: with four, a store that did not wait for the switch to WAL failed one run in two
    threads = [threading.Thread(target=opening) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in made:
        asyncio.run(s.close())
    assert not errors and len(made) == 8


def test_a_bare_postgresql_url_uses_psycopg() -> None:
    with postgres_database(postgres_url_or_skip()) as database:
        bare = database.url.replace("postgresql+psycopg://", "postgresql://", 1)
        loop = asyncio.new_event_loop()
        store = Awaited(open_store(bare), loop)
        try:
            assert store.engine.dialect.driver == "psycopg"
            assert store.load("none") is None
        finally:
            store.close()
            loop.close()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_store_works(url: str, loop: asyncio.AbstractEventLoop) -> None:
    store = Awaited(open_store(url), loop)
    try:
        store.create_match(game_row("g1"))
        store.add_action("g1", ActionRow(1, 1, 0, "decline"), record=(1, "p0 wins", "rec"))
        loaded = store.load("g1")
        assert loaded is not None and loaded[1] == [ActionRow(1, 1, 0, "decline")]
        assert store.records("g1") == [(1, "p0 wins", "rec")]
    finally:
        store.close()


def test_seats_keep_their_level_and_invitation_and_the_lobby_counts_free_seats(
    stores: list[Awaited],
) -> None:
    one, two = stores
    mixed = MatchRow(
        id="m1",
        created=0.0,
        mode="mixed",
        level=None,
        rules="mexican",
        match_seed=1,
        bot_seed=2,
        status="open",
        rematch_id=None,
        rematch_of=None,
        seats=(
            SeatRow(0, "human", "Ana", hash_token("a"), True),
            SeatRow(1, "human", "", None, False, None, hash_token("invite-1")),
            SeatRow(2, "bot", "Computer (hard)", None, True, "hard"),
        ),
        public=True,
        invite_only=True,
    )
    one.create_match(mixed)
    loaded = two.load("m1")
    assert loaded is not None
    row = loaded[0]
    assert row.invite_only and row.public and row.mode == "mixed"
    assert row.seats == mixed.seats
    [entry] = two.lobby()["open"]
    assert (entry["size"], entry["free"], entry["rules"]) == (3, 1, "mexican")
    assert entry["seats"][1] == {"kind": "human", "name": "", "level": None, "free": True}
    assert entry["seats"][2]["level"] == "hard"
    assert "invite" not in str(entry) and hash_token("invite-1") not in str(entry)
    assert one.join("m1", 1, "Ben", hash_token("b"))
    assert not two.join("m1", 1, "Cy", hash_token("c"))  # a seat is taken once
    again = two.load("m1")
    assert again is not None and again[0].status == "playing"
    assert again[0].seats[1].invite_hash == hash_token("invite-1")  # kept: the link is used
    assert [g["id"] for g in two.lobby()["playing"]] == ["m1"]


def test_the_action_that_ends_a_deal_fixes_the_next_deals_seeds(stores: list[Awaited]) -> None:
    """The next deal's shuffle is stored (or read) with the action that ends a deal, with the
    seeds given so far; a seed that comes later for that deal is refused."""
    one, two = stores
    one.create_match(game_row("g1"), DealRow(1, "ab" * 32, "cd" * 32, ("", "")))
    drawn_here = DealRow(2, "11" * 32, "22" * 32, (None, None))
    drawn_there = DealRow(2, "33" * 32, "44" * 32, (None, None))
    assert two.add_deal("g1", drawn_there) == drawn_there  # the other process stored first
    assert two.add_client_seed("g1", 2, 1, "beef") == drawn_there.with_seed(1, "beef")
    one.add_action("g1", ActionRow(1, 1, 0, "decline"))
    ended = one.add_action(
        "g1", ActionRow(2, 1, 1, "discard Kh"), record=(1, "draw", "r"), next_deal=drawn_here
    )
    assert ended == drawn_there.with_seed(1, "beef")  # the stored shuffle, with its seed
    assert two.add_client_seed("g1", 2, 0, "f00d") is None  # deal 2 is dealt: too late
    loaded = one.load("g1")
    assert loaded is not None and loaded[2][1] == drawn_there.with_seed(1, "beef")
    # a shuffle not stored yet is stored by that action
    made = DealRow(3, "55" * 32, "66" * 32, (None, None))
    assert (
        one.add_action("g1", ActionRow(3, 2, 0, "x"), record=(2, "d", "r"), next_deal=made) == made
    )
    assert one.add_deal("g1", DealRow(3, "77" * 32, "88" * 32, (None, None))) == made


def test_every_write_notifies_the_other_processes_once_committed(stores: list[Awaited]) -> None:
    """On PostgreSQL each write to a game sends the game's id, the kind of change, a number
    and the writer's origin, once its transaction commits; a refused write sends nothing."""
    one, two = stores
    if not one.postgres:  # SQLite serves one process: nothing to notify, no channel
        assert one.channel is None and two.channel is None
        return
    import psycopg
    from psycopg import sql

    from conquian.web.notify import libpq_url

    assert one.channel == two.channel and one.origin != two.origin
    with psycopg.connect(libpq_url(one.url), autocommit=True) as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(one.channel)))
        one.create_match(game_row("g1"), DealRow(1, "ab" * 32, "cd" * 32, (None, None)))
        assert one.join("g1", 1, "Ben", hash_token("b"))
        assert two.add_client_seed("g1", 1, 0, "0f") is not None
        one.add_action("g1", ActionRow(1, 1, 0, "decline"))
        with pytest.raises(IntegrityError):
            two.add_action("g1", ActionRow(1, 1, 0, "decline"))
        assert two.add_client_seed("g1", 1, 0, "0e") is None  # refused: no notification
        assert two.set_rematch("g1", game_row("r1", rematch_of="g1"))
        got = [n.payload for n in listener.notifies(timeout=2, stop_after=4)]
        assert got == [
            f"g1 j 1 {one.origin}",
            f"g1 s 1 {two.origin}",
            f"g1 a 1 {one.origin}",
            f"g1 r 0 {two.origin}",
        ]
        assert not list(listener.notifies(timeout=0.3))  # nothing more: not the refused ones


def test_the_listener_hands_on_changes_and_listens_again_after_losing_its_connection(
    stores: list[Awaited],
) -> None:
    """The server's listener passes on each notification; when the database drops its
    connection it connects again, says so (every game must then be read again: what was
    sent meanwhile is lost), and goes on passing on the new ones."""
    one, _two = stores
    if not one.postgres:
        assert one.channel is None
        return
    import psycopg

    from conquian.web.notify import Listener, libpq_url

    async def actions(got: asyncio.Queue[tuple[str, str, int, str]]) -> tuple[str, str, int, str]:
        while True:
            change = await asyncio.wait_for(got.get(), 30)
            if change[1] == "a":
                return change

    async def main() -> None:
        got: asyncio.Queue[tuple[str, str, int, str]] = asyncio.Queue()
        reconnected = asyncio.Event()
        channel = one.channel
        assert channel is not None
        listener = Listener(
            one.url, channel, lambda *change: got.put_nowait(change), reconnected.set
        )
        await listener.start()
        try:
            await one.store.create_match(
                game_row("g1"), DealRow(1, "ab" * 32, "cd" * 32, (None, None))
            )
            await one.store.add_action("g1", ActionRow(1, 1, 0, "decline"))
            assert await actions(got) == ("g1", "a", 1, one.origin, None)
            backend = listener._conn.info.backend_pid
            with psycopg.connect(libpq_url(one.url), autocommit=True) as admin:
                admin.execute("select pg_terminate_backend(%s)", [backend])
            await asyncio.wait_for(reconnected.wait(), 30)
            assert listener._conn.info.backend_pid != backend
            await one.store.add_action("g1", ActionRow(2, 1, 1, "discard Kh"))
            assert await actions(got) == ("g1", "a", 2, one.origin, None)
        finally:
            await listener.close()

    one.loop.run_until_complete(main())
