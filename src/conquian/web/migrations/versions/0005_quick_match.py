"""Play now: the queue of players waiting for a table, the players' blocks and reports, each
quick-match game's clock, who is connected to it, the games a player left, and the matches
claimed from a player who left, and whether a friends' table's players may write to each other.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("clock", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("abandoned", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("chat", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "quick_tickets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("form", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("guest", sa.Boolean, nullable=False),
        sa.Column("anyone", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("computers", sa.Integer, nullable=True),
    )
    op.create_index("ix_quick_tickets_player_id", "quick_tickets", ["player_id"])
    op.create_index(
        "ix_quick_tickets_form_status_created", "quick_tickets", ["form", "status", "created"]
    )
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("blocked_id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )

    op.create_table(
        "clocks",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
    )
    op.create_index("ix_clocks_due", "clocks", ["due"])
    op.create_table(
        "presence",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_table(
        "leaves",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("reported_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("chat")
        games.drop_column("abandoned")
        games.drop_column("clock")
    op.drop_table("reports")
    op.drop_table("leaves")
    op.drop_table("presence")
    op.drop_table("clocks")
    op.drop_table("blocks")
    op.drop_table("quick_tickets")
