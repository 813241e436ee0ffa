"""Lease addresses: where the owning instance takes calls, for clients that ask to be sent to a match's owner.

Revision ID: 0005
Revises: 0004

Each lease row names the address its owner advertises (``serve --advertise``, by default its gRPC listen
address): a non-owner asked for the owner refuses the call with it (docs/api.md, "Calling a match's owner").
Empty for a row written before this revision (a lease of an older instance): no address to send a client to.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("leases", sa.Column("address", sa.Text, nullable=False, server_default=""))


def downgrade() -> None:
    op.drop_column("leases", "address")
