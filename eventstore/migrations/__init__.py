"""Alembic migrations, shipped inside the package: ``migrate(url)`` and ``downgrade(url, revision)``.

One revision per schema change, never edited once merged; the same revisions run on SQLite
and PostgreSQL. ``duelhall migrate`` calls ``migrate``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eventstore.schema import is_newer, newer_schema
from eventstore.sqlite import connect
from eventstore.urls import backend_of, redacted, sync_url

if TYPE_CHECKING:
    from alembic.config import Config

# alembic is imported where it runs: its import takes about a quarter of a second, which every command that
# opens the store would pay (``duelhall replay``, ``duelhall matches``), and only migrations need it.

LOCK_KEY = 0x6475656C68616C6C
"""The advisory lock key every duelhall migration takes on PostgreSQL ("duelhall" in ASCII)."""


def _config(url: str) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "eventstore:migrations")
    # Passed as an object, not through the ini options, whose %-interpolation would mangle passwords.
    config.attributes["url"] = sync_url(url)
    config.attributes["shown"] = redacted(url)
    return config


def migrate(url: str, revision: str = "head") -> None:
    """Upgrade the database at ``url`` to ``revision`` (creating the SQLite file if needed); a database at a
    revision newer than the code's is refused with ``DatabaseError`` (alembic does not know its revision)."""
    from alembic import command
    from alembic.script.revision import ResolutionError
    from alembic.util.exc import CommandError

    if backend_of(url) == "sqlite":
        connect(url).close()  # says which file and why when it cannot be opened; SQLAlchemy's error does not
    try:
        command.upgrade(_config(url), revision)
    except CommandError as exc:
        unknown = exc.__cause__
        if isinstance(unknown, ResolutionError) and unknown.argument != revision and is_newer(unknown.argument):
            raise newer_schema(unknown.argument) from None
        raise


def downgrade(url: str, revision: str) -> None:
    """Downgrade the database at ``url`` to ``revision`` ("base" drops every table)."""
    from alembic import command

    command.downgrade(_config(url), revision)
