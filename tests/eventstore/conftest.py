"""Fixtures: every store test runs on SQLite (a fresh file) and on PostgreSQL (a throwaway database).

PostgreSQL comes from $DUELHALL_TEST_POSTGRES_URL (default: the local server); the suite creates its own
database there and drops it at the end. An unreachable server skips the PostgreSQL tests with the reason,
or fails them when $DUELHALL_REQUIRE_POSTGRES=1 (CI).
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest
import pytest_asyncio
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from eventstore import AsyncEventStore, CommandRecord, NewEvent, migrate, open_store
from eventstore.postgres import AsyncPostgresStore
from eventstore.sqlite_async import AsyncSqliteStore
from eventstore.urls import backend_of, sync_url

POSTGRES_URL = os.environ.get("DUELHALL_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REQUIRE_POSTGRES = os.environ.get("DUELHALL_REQUIRE_POSTGRES") == "1"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
FAILING_TYPE = "Boom"
Internal = AsyncSqliteStore | AsyncPostgresStore
"""What ``open_store`` returns, with the internals a group-commit test looks at: ``append_batch``, ``stats``."""


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, copied for each test (cheaper than migrating each time)."""
    path = tmp_path_factory.mktemp("template") / "store.db"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A migrated throwaway database on the test server, dropped when the session ends."""
    try:
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL unreachable at {POSTGRES_URL} (set DUELHALL_TEST_POSTGRES_URL): {exc}"
        if REQUIRE_POSTGRES:
            pytest.fail(f"DUELHALL_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(reason)
    name = f"duelhall_test_{os.getpid()}_{secrets.token_hex(4)}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
            migrate(url)
            yield url
        finally:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a migrated, empty database on each backend."""
    if request.param == "sqlite":
        path = tmp_path / "store.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("postgres_url")
    run_sql(url, "TRUNCATE events, commands, secrets, snapshots, projection_rows", "UPDATE head SET position = 0")
    return url


@pytest_asyncio.fixture(loop_scope="function")
async def store(database: str) -> AsyncIterator[AsyncEventStore]:
    """An async store with group commit (the service's configuration) on an empty database."""
    opened = await open_store(database, poll_interval=0.05)
    yield opened
    await opened.close()


@pytest.fixture
def failing_type(database: str) -> Iterator[str]:
    """An event type the database refuses to insert (a trigger raises): a failure midway through an append."""
    if backend_of(database) == "sqlite":
        run_sql(
            database,
            f"CREATE TRIGGER boom BEFORE INSERT ON events WHEN NEW.type = '{FAILING_TYPE}' "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
        )
        yield FAILING_TYPE
        run_sql(database, "DROP TRIGGER boom")
        return
    run_sql(
        database,
        "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
        f"CREATE TRIGGER boom BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.type = '{FAILING_TYPE}') "
        "EXECUTE FUNCTION boom()",
    )
    yield FAILING_TYPE
    run_sql(database, "DROP TRIGGER boom ON events", "DROP FUNCTION boom()")


@pytest.fixture
def failing_row_key(database: str) -> Iterator[str]:
    """A projection row key the database refuses to write (a trigger raises): a failure midway through a
    write of several rows."""
    if backend_of(database) == "sqlite":
        run_sql(
            database,
            f"CREATE TRIGGER boom_row BEFORE INSERT ON projection_rows WHEN NEW.key = '{FAILING_TYPE}' "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
        )
        yield FAILING_TYPE
        run_sql(database, "DROP TRIGGER boom_row")
        return
    run_sql(
        database,
        "CREATE FUNCTION boom_row() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
        f"CREATE TRIGGER boom_row BEFORE INSERT ON projection_rows FOR EACH ROW WHEN (NEW.key = '{FAILING_TYPE}') "
        "EXECUTE FUNCTION boom_row()",
    )
    yield FAILING_TYPE
    run_sql(database, "DROP TRIGGER boom_row ON projection_rows", "DROP FUNCTION boom_row()")


def run_sql(url: str, *statements: str) -> None:
    """Run statements in one transaction through SQLAlchemy's sync driver."""
    engine = create_engine(sync_url(url))
    try:
        with engine.begin() as connection:
            for statement in statements:
                connection.execute(text(statement))
    finally:
        engine.dispose()


def command(command_id: str, actor: str = "0") -> CommandRecord:
    """A command record whose payload names it."""
    return CommandRecord(command_id, actor, "Play", f'{{"id":"{command_id}"}}'.encode())


def events(*types: str) -> list[NewEvent]:
    """New events of the given types, each with data naming its type and place."""
    return [NewEvent(type_, f'{{"n":{n},"t":"{type_}"}}'.encode()) for n, type_ in enumerate(types)]


async def store_hears(store: AsyncEventStore, position: int) -> None:
    """Returns once ``store`` has heard of the commit at ``position`` (PostgreSQL's notification)."""
    while store._signal.position < position:  # type: ignore[attr-defined]
        await store._signal.wait_past(position - 1, 30.0)  # type: ignore[attr-defined]
