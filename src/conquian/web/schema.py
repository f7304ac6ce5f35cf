"""The database of web matches: its tables, the rows the server reads back, and the engine.

A match is stored as its seeds and the list of accepted actions; the server rebuilds any
match by replaying its actions, so a restart loses nothing.  Each finished deal is also kept
as a game record (the TOML record format).  The tables keep the names an earlier version
gave them (``games`` holds matches):

``games``     one row per match: rules, seeds, mode (``bot``, ``friend`` or ``mixed``), status,
              whether the lobby lists it (``public``), and whether a person's seat is taken
              only with its invitation (``invite_only``)
``seats``     one row per seat: a person or a computer player (with its ``level``), who sits
              there, a hash of the seat's secret token, and a hash of its invitation code
``actions``   every accepted action, numbered, with its deal and player
``records``   the record of every finished deal
``deals``     the provably fair shuffle of each deal (see :mod:`conquian.fair`): its secret
              server seed, the commitment published before the deal, and each seat's seed

``ratings``   each player's rating in each game form; ``rating_events`` each rated game's
              change to it
``players``   who a visitor is from one visit to the next (a guest until he makes an
              account), with his settings; ``seats.player_id`` names the player who sat there
``sessions``  each browser signed in to an account (a hash of the id its cookie holds)
``passwords`` an account's login name and its password's Argon2 hash
``passkeys``  an account's passkeys (WebAuthn credentials: id, public key, signature count)
``recovery_codes``  a hash of each of an account's unused recovery codes
``quick_tickets``  the quick-match queue: each player waiting for a form, and where he sat
``blocks``    who blocked whom (they are never seated together)
``clocks``    each quick-match game's clock: what is due, by when (any process makes it)
``presence``  when each person's seat of a clocked game last had a connection (each process
              says so each second for the seats it serves): who is gone, and since when
``leaves``    each quick-match game a player left (a computer played for him), which keeps
              him out of quick match for a while if he does it again
``reports``   a player's report of another he sat with (a reason, a note, the game), for the
              moderators (``conquian moderate``)

The tables are made, and a database of an earlier release brought up to date, by the
migrations (:mod:`.upgrade`, :mod:`conquian.web.migrations`): these definitions are this
release's, and a change to them comes with a new revision.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    true,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool

metadata = MetaData()

matches = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("mode", String(16), nullable=False),
    Column("level", String(16)),
    Column("rules", Text, nullable=False),
    Column("match_seed", BigInteger, nullable=False),
    Column("bot_seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("rematch_id", String(32)),
    Column("rematch_of", String(32)),
    Column("public", Boolean, nullable=False, server_default=false()),
    Column("fair", Boolean, nullable=False, server_default=false()),
    Column("invite_only", Boolean, nullable=False, server_default=false()),
    Column("hints", Boolean, nullable=False, server_default=true()),
    Column("count", Text),
    Column("count_matches", Integer, nullable=False, server_default="0"),
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("clock", Boolean, nullable=False, server_default=false()),
    Column("abandoned", Integer),
    Column("chat", Boolean, nullable=False, server_default=false()),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64)),
    Column("joined", Float),
    Column("level", String(16)),
    Column("invite_hash", String(64)),
    Column("player_id", String(32), index=True),
)

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("form", String(16), primary_key=True, index=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

rating_events = Table(
    "rating_events",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True, index=True),
    Column("form", String(16), nullable=False),
    Column("at", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("before", Integer, nullable=False),
    Column("after", Integer, nullable=False),
    Index("ix_rating_events_form_at", "form", "at"),
)

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("guest", Boolean, nullable=False, server_default=true()),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("settings", Text),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
)

passwords = Table(
    "passwords",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("login", String(64), nullable=False, unique=True),
    Column("hash", Text, nullable=False),
    Column("updated", Float, nullable=False),
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("id", String(1400), primary_key=True),
    Column("player_id", String(32), nullable=False, index=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
    Column("used", Float),
)

quick_tickets = Table(
    "quick_tickets",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), nullable=False, index=True),
    Column("form", String(16), nullable=False),
    Column("rating", Float, nullable=False),
    Column("guest", Boolean, nullable=False),
    Column("anyone", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("status", String(12), nullable=False),
    Column("game_id", String(32)),
    Column("seat", Integer),
    Column("computers", Integer),
    Index("ix_quick_tickets_form_status_created", "form", "status", "created"),
)

clocks = Table(
    "clocks",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("started", Float, nullable=False),
    Column("due", Float, nullable=False, index=True),
    Column("state", Text, nullable=False),
)

presence = Table(
    "presence",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("seen", Float, nullable=False),
)

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", String(32), nullable=False, index=True),
    Column("reported_id", String(32), nullable=False, index=True),
    Column("game_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("reason", String(16), nullable=False),
    Column("note", Text, nullable=False),
    Column("created", Float, nullable=False),
)

leaves = Table(
    "leaves",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
)

blocks = Table(
    "blocks",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("blocked_id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
)

recovery_codes = Table(
    "recovery_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False, index=True),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("deal", Integer, nullable=False),
    Column("player", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
)

records = Table(
    "records",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("result", String(64), nullable=False),
    Column("record", Text, nullable=False),
)

deals = Table(
    "deals",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("client_seeds", Text, nullable=False),
)


def hash_token(token: str) -> str:
    """The stored form of a seat token or an invitation code (never stored itself).

    >>> hash_token("abc")[:16]
    'ba7816bf8f01cfea'
    >>> len(hash_token("\\ud800"))  # JSON lets a lone surrogate through: it is no token
    64
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def default_db_url() -> str:
    """A SQLite file in the user's data directory."""
    from ..userdata import default_data_dir

    return f"sqlite:///{default_data_dir() / 'web.sqlite3'}"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a stored match."""

    seat: int
    kind: str
    """``human`` or ``bot``."""
    name: str
    token_hash: str | None
    joined: bool
    level: str | None = None
    """A computer seat's level (None: the match's ``level``, as an earlier version stored it)."""
    invite_hash: str | None = None
    """The hash of the invitation code that takes this person's seat (None: no invitation)."""
    player_id: str | None = None
    """The player who sat there (None: a computer, a free seat, or one taken before players)."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player: who a visitor is from one visit to the next (a row of ``players``)."""

    id: str
    name: str
    guest: bool
    created: float
    seen: float
    settings: str | None = None
    """The settings he keeps with his identity (JSON: language, deck, sound, automatic moves)."""


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One stored match with its seats (a row of the ``games`` table)."""

    id: str
    created: float
    mode: str
    level: str | None
    rules: str
    match_seed: int
    bot_seed: int
    status: str
    rematch_id: str | None
    rematch_of: str | None
    seats: tuple[SeatRow, ...]
    public: bool = False
    """Listed in the lobby (while open, and while being played)."""
    fair: bool = False
    """Its deals come from provably fair shuffles (rows of ``deals``); a match stored by an
    earlier version deals from ``match_seed``."""
    invite_only: bool = False
    """A person's seat is taken only with its invitation code (or, in a public match, from the
    lobby); False: anyone who has the match's id takes the next free seat, as before."""
    hints: bool = True
    """A player may ask for a hint (the creator's choice)."""
    count: tuple[int, ...] = ()
    """La cuenta: each seat's total over the matches played before this one, one the
    rematch of the other (``()``: none before it, or the count started from zero)."""
    count_matches: int = 0
    """How many matches ``count`` holds."""
    rated: bool = False
    """A game between people that changes their ratings when it ends (:mod:`.ratings`)."""
    clock: bool = False
    """Its decisions have a clock (:mod:`.clock`): the host's choice at a friends' table (a
    quick-match game always has one)."""
    chat: bool = False
    """Its players may write to each other (free text), the host's choice at a friends'
    table; otherwise only the set phrases."""
    abandoned: int | None = None
    """The seat of the person who left the match unfinished, its other player having claimed
    it (None: nobody did)."""


@dataclass(frozen=True, slots=True)
class DealRow:
    """The fair shuffle of one deal: the server's secret seed (hex), the commitment to it,
    and each seat's seed: None while not given, ``""`` for a seat that gave none, else hex."""

    deal: int
    server_seed: str
    commitment: str
    client_seeds: tuple[str | None, ...]

    def with_seed(self, seat: int, seed: str) -> DealRow:
        seeds = list(self.client_seeds)
        seeds[seat] = seed
        return DealRow(self.deal, self.server_seed, self.commitment, tuple(seeds))


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action."""

    seq: int
    deal: int
    player: int
    action: str


Loaded = tuple[MatchRow, list[ActionRow], list[DealRow]]
"""A match as read back: its row, its actions in order and its deals' shuffles."""


def match_row(row: Any, seat_rows: Sequence[Any]) -> MatchRow:
    """A :class:`MatchRow` from a row of ``games`` and the rows of its seats."""
    seat_list = [
        SeatRow(
            s.seat,
            s.kind,
            s.name,
            s.token_hash,
            s.joined is not None,
            s.level,
            s.invite_hash,
            getattr(s, "player_id", None),
        )
        for s in seat_rows
    ]
    return MatchRow(
        id=row.id,
        created=row.created,
        mode=row.mode,
        level=row.level,
        rules=row.rules,
        match_seed=row.match_seed,
        bot_seed=row.bot_seed,
        status=row.status,
        rematch_id=row.rematch_id,
        rematch_of=row.rematch_of,
        seats=tuple(seat_list),
        public=bool(row.public),
        fair=bool(row.fair),
        invite_only=bool(row.invite_only),
        hints=bool(row.hints),
        count=_count(row.count, len(seat_list)),
        count_matches=row.count_matches or 0,
        rated=bool(getattr(row, "rated", False)),
        clock=bool(getattr(row, "clock", False)),
        abandoned=getattr(row, "abandoned", None),
        chat=bool(getattr(row, "chat", False)),
    )


def _count(text: str | None, players: int) -> tuple[int, ...]:
    """A stored count (JSON, one total a seat), or ``()`` where there is none."""
    if not text:
        return ()
    totals = tuple(int(t) for t in json.loads(text))
    return totals if len(totals) == players else ()


def count_text(count: Sequence[int]) -> str | None:
    """A count as stored."""
    return json.dumps(list(count)) if count else None


def deal_row(found: Sequence[Any]) -> DealRow:
    """A shuffle from a row of ``deal, server_seed, commitment, client_seeds``."""
    return DealRow(found[0], found[1], found[2], tuple(json.loads(found[3])))


def deal_values(match_id: str, deal: DealRow) -> dict[str, Any]:
    """The columns of a shuffle's row in ``deals``."""
    return {
        "game_id": match_id,
        "deal": deal.deal,
        "server_seed": deal.server_seed,
        "commitment": deal.commitment,
        "client_seeds": json.dumps(list(deal.client_seeds)),
    }


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url`` (a bare ``postgresql://`` gets the psycopg driver; a
    SQLite file is put in WAL mode, with foreign keys on and a busy timeout)."""
    if not url.startswith("sqlite"):
        parsed = make_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        return create_engine(parsed, pool_pre_ping=True)
    path = url.split("///", 1)[1] if "///" in url else ""
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if not path or path == ":memory:":
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        # WAL with synchronous=NORMAL: a commit survives the process being killed.
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


SQLITE_BUSY_MS = 5000
"""How long a SQLite connection waits for another one's lock before giving up."""


def _switch_to_wal(cursor: Any) -> None:
    """Put the database file in WAL mode, waiting out other connections doing the same.

    The switch needs the file to itself and SQLite does not wait for that, even with a busy
    timeout: when several servers open a new file at once, all but one are told it is locked.
    The mode is stored in the file, so once one of them has switched it the others see WAL.
    """
    deadline = time.monotonic() + SQLITE_BUSY_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
