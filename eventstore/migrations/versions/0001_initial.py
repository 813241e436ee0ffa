"""The initial schema: head counter, events, commands, secrets, snapshots, projection rows.

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

# Written out rather than imported from schema.py: a revision must keep meaning what it meant when merged.
Position = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
RowKey = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def upgrade() -> None:
    head = op.create_table(
        "head",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("position", sa.BigInteger, nullable=False),
    )
    op.bulk_insert(head, [{"id": 1, "position": 0}])
    op.create_table(
        "events",
        sa.Column("position", Position, primary_key=True, autoincrement=False),
        sa.Column("stream_id", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("type", sa.Text, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("command_id", sa.Text, nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("recorded_at", sa.BigInteger, nullable=False, comment="microseconds since the Unix epoch, UTC"),
        sa.Column("hash", sa.LargeBinary, nullable=False),
        sa.UniqueConstraint("stream_id", "version", name="events_stream_version"),
    )
    op.create_table(
        "commands",
        sa.Column("stream_id", sa.Text, nullable=False),
        sa.Column("command_id", sa.Text, nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("type", sa.Text, nullable=False),
        sa.Column("payload", sa.LargeBinary, nullable=False),
        sa.Column("first_version", sa.Integer, nullable=False),
        sa.Column("last_version", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("stream_id", "command_id", name="commands_pkey"),
    )
    op.create_table(
        "secrets",
        sa.Column("stream_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("value", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("stream_id", "name", name="secrets_pkey"),
    )
    op.create_table(
        "snapshots",
        sa.Column("stream_id", sa.Text, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("schema", sa.Text, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "projection_rows",
        sa.Column("projection", sa.Text, nullable=False),
        sa.Column("key", RowKey, nullable=False),
        sa.Column("value", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("projection", "key", name="projection_rows_pkey"),
    )


def downgrade() -> None:
    for table in ("projection_rows", "snapshots", "secrets", "commands", "events", "head"):
        op.drop_table(table)
