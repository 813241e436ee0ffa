"""Throwaway PostgreSQL databases on the local server for tests (URL from DUELHALL_TEST_POSTGRES_URL)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

ADMIN_URL = os.environ.get("DUELHALL_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REQUIRED = os.environ.get("DUELHALL_REQUIRE_POSTGRES") == "1"


def _admin() -> psycopg.Connection:
    try:
        return psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL at {ADMIN_URL} is not reachable: {exc}".splitlines()[0]
        if REQUIRED:
            pytest.fail(reason + " (DUELHALL_REQUIRE_POSTGRES=1)")
        pytest.skip(reason)


def require_postgres() -> None:
    """Skips the test when the local PostgreSQL is not reachable (fails it under DUELHALL_REQUIRE_POSTGRES=1)."""
    _admin().close()


@contextmanager
def throwaway_database(prefix: str = "duelhall_test") -> Iterator[str]:
    """A new empty database for the duration of the block; yields its URL."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    with _admin() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        with _admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
