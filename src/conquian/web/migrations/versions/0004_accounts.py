"""Accounts: a player's settings; the sessions of signed-in browsers; an account's password,
passkeys and recovery codes.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("settings", sa.Text, nullable=True))
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "passwords",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("login", sa.String(64), nullable=False, unique=True),
        sa.Column("hash", sa.Text, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "recovery_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
    )
    op.create_index("ix_recovery_codes_player_id", "recovery_codes", ["player_id"])


def downgrade() -> None:
    op.drop_table("recovery_codes")
    op.drop_table("passkeys")
    op.drop_table("passwords")
    op.drop_table("sessions")
    with op.batch_alter_table("players") as players:
        players.drop_column("settings")
