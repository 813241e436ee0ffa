"""Leases: which instance owns each running match, until when (docs/operations.md "Running several instances").

Revision ID: 0004
Revises: 0003

A row per leased stream: the owning instance's id and the expiry in microseconds since the Unix epoch, on the
database's clock (every instance compares against the same clock). Only PostgreSQL uses the table; SQLite has it
empty, so that both backends keep one schema.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("stream_id", sa.Text, primary_key=True),
        sa.Column("owner", sa.Text, nullable=False),
        sa.Column(
            "expires_at",
            sa.BigInteger,
            nullable=False,
            comment="microseconds since the Unix epoch, on the database's clock",
        ),
    )
    op.create_index("leases_owner", "leases", ["owner"])
    op.create_index("leases_expires_at", "leases", ["expires_at"])


def downgrade() -> None:
    op.drop_table("leases")
