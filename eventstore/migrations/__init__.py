"""Alembic migrations, shipped inside the package: ``migrate(url)`` and ``downgrade(url, revision)``.

One revision per schema change, never edited once merged; the same revisions run on SQLite
and PostgreSQL. ``duelhall migrate`` calls ``migrate``.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from eventstore.urls import sync_url


def _config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", "eventstore:migrations")
    # Passed as an object, not through the ini options, whose %-interpolation would mangle passwords.
    config.attributes["url"] = sync_url(url)
    return config


def migrate(url: str, revision: str = "head") -> None:
    """Upgrade the database at ``url`` to ``revision`` (creating the SQLite file if needed)."""
    command.upgrade(_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    """Downgrade the database at ``url`` to ``revision`` ("base" drops every table)."""
    command.downgrade(_config(url), revision)
