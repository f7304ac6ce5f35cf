"""The matches, as the releases before migrations made them: games, seats, actions, records
and deals.

A database made by one of those releases has these tables already, perhaps without the
columns later releases added; they are added here as those releases added them (``public``:
the matches against the computer listed, friends' private; ``fair``, false: they go on
dealing from their match seed; ``invite_only``, false; ``hints``, true; ``count`` and
``count_matches``; the seats' ``level`` and ``invite_hash``).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    have = set(sa.inspect(conn).get_table_names())
    if "games" in have:
        _complete(conn)
    for name, make in _TABLES.items():
        if name not in have:  # (the oldest releases had no deals)
            make()


def _games() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16)),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("match_seed", sa.BigInteger, nullable=False),
        sa.Column("bot_seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rematch_id", sa.String(32)),
        sa.Column("rematch_of", sa.String(32)),
        sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("fair", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("invite_only", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("count", sa.Text),
        sa.Column("count_matches", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_games_status", "games", ["status"])


def _seats() -> None:
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("joined", sa.Float),
        sa.Column("level", sa.String(16)),
        sa.Column("invite_hash", sa.String(64)),
    )


def _actions() -> None:
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def _records() -> None:
    op.create_table(
        "records",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("result", sa.String(64), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )


def _deals() -> None:
    op.create_table(
        "deals",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("client_seeds", sa.Text, nullable=False),
    )


_TABLES = {
    "games": _games,
    "seats": _seats,
    "actions": _actions,
    "records": _records,
    "deals": _deals,
}


def _complete(conn: sa.Connection) -> None:
    """The columns an older release had not added yet."""
    have = {c["name"] for c in sa.inspect(conn).get_columns("games")}
    games = sa.table("games", sa.column("mode", sa.String), sa.column("public", sa.Boolean))
    if "public" not in have:
        op.add_column("games", _false("public"))
        op.execute(games.update().where(games.c.mode == "bot").values(public=True))
    for name in ("fair", "invite_only"):
        if name not in have:
            op.add_column("games", _false(name))
    if "hints" not in have:  # every match stored so far gave hints
        op.add_column(
            "games", sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.true())
        )
    if "count" not in have:
        op.add_column("games", sa.Column("count", sa.Text))
        op.add_column(
            "games", sa.Column("count_matches", sa.Integer, nullable=False, server_default="0")
        )
    seat_columns = {c["name"] for c in sa.inspect(conn).get_columns("seats")}
    for name, width in (("level", 16), ("invite_hash", 64)):
        if name not in seat_columns:
            op.add_column("seats", sa.Column(name, sa.String(width)))


def _false(name: str) -> sa.Column[bool]:
    return sa.Column(name, sa.Boolean, nullable=False, server_default=sa.false())


def downgrade() -> None:
    for name in ("deals", "records", "actions", "seats", "games"):
        op.drop_table(name)
