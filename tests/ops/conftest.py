"""The end-to-end fixtures of tests/services: a real server on a free port over SQLite and PostgreSQL."""

from tests.services.conftest import channel, database_url, matches, rulesets, server

__all__ = ["channel", "database_url", "matches", "rulesets", "server"]
