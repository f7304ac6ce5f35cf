"""Ratings: a game between people may be rated (``games.rated``); each player's rating in
each game form, and each rated game's change to it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("form", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_form", "ratings", ["form"])
    op.create_table(
        "rating_events",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("form", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
    )
    op.create_index("ix_rating_events_form_at", "rating_events", ["form", "at"])
    op.create_index("ix_rating_events_player_id", "rating_events", ["player_id"])


def downgrade() -> None:
    op.drop_table("rating_events")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as games:
        games.drop_column("rated")
