"""Players: who a visitor is from one visit to the next (a guest until he makes an account),
and which player sat in each seat.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("guest", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        seats.create_index("ix_seats_player_id", ["player_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_player_id")
        seats.drop_column("player_id")
    op.drop_table("players")
