"""alembic from the repository (alembic.ini), and replicas that migrate one fresh PostgreSQL at once."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy
from alembic.config import Config
from alembic.script import ScriptDirectory

from eventstore.schema import SCHEMA_REVISION
from eventstore.urls import sync_url
from tests.postgres import throwaway_database
from tests.services.process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
ALEMBIC = Path(sys.executable).parent / "alembic"
DUELHALL = Path(sys.executable).parent / "duelhall"


def alembic(*args: str, url: str | None = None, env: dict[str, str] | None = None) -> str:
    extra = ("-x", f"url={url}") if url else ()
    done = subprocess.run(
        [str(ALEMBIC), *extra, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ | (env or {}),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(Config(str(ROOT / "alembic.ini")))
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def test_history_and_offline_sql() -> None:
    history = alembic("history")
    assert all(revision in history for revision in revisions())
    sql = alembic("upgrade", "head", "--sql", url="postgresql://nobody@127.0.0.1:1/nothing")
    assert "CREATE TABLE events" in sql and "CREATE FUNCTION duelhall_append" in sql
    assert f"UPDATE alembic_version SET version_num='{SCHEMA_REVISION}'" in sql


def test_every_revision_downgrades_and_upgrades_again(database_url: str) -> None:
    # The URL from the environment, as an administrator's shell would have it.
    env = {"DUELHALL_DATABASE_URL": database_url}
    alembic("upgrade", "head", env=env)
    assert alembic("current", env=env).split()[0] == SCHEMA_REVISION
    steps = revisions()
    for below in reversed(["base", *steps[:-1]]):
        alembic("downgrade", "-1", env=env)
        current = alembic("current", env=env).split()
        assert (current[0] if current else "base") == below
    alembic("upgrade", "head", url=database_url)
    assert alembic("current", url=database_url).split()[0] == SCHEMA_REVISION


@pytest.mark.postgres
def test_three_replicas_migrate_a_fresh_database_at_once() -> None:
    with throwaway_database("duelhall_replicas") as url:
        with ThreadPoolExecutor(3) as pool:
            replicas = list(pool.map(lambda _: ServerProcess(url, capture=True), range(3)))
        logs = [replica.stop() for replica in replicas]
        assert all("duelhall serving on" in log for log in logs), logs
        assert all(replica.proc.returncode == 0 for replica in replicas)
        assert alembic("current", url=url).split()[0] == SCHEMA_REVISION


def test_a_database_migrated_by_a_newer_duelhall_is_refused_with_the_right_advice(database_url: str) -> None:
    """`duelhall migrate` cannot go back: a database at a revision newer than the code's is refused by every
    command with that said, not with "run `duelhall migrate`" (which fails) or alembic's unknown revision."""
    alembic("upgrade", "head", url=database_url)
    newer = f"{int(SCHEMA_REVISION) + 1:04d}"
    engine = sqlalchemy.create_engine(sync_url(database_url))
    with engine.begin() as connection:
        connection.execute(sqlalchemy.text("UPDATE alembic_version SET version_num = :v"), {"v": newer})
    engine.dispose()
    for command in (
        ["migrate"],
        ["serve", "--listen", "127.0.0.1:0", "--http", "off"],
        ["serve", "--no-migrate", "--listen", "127.0.0.1:0", "--http", "off"],
        ["matches"],
    ):
        done = subprocess.run(
            [str(DUELHALL), *command, "--database-url", database_url], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 1, (command, done.stderr)
        assert "duelhall migrate" not in done.stderr and "Can't locate" not in done.stderr, (command, done.stderr)
        assert (
            f"duelhall: cannot use the database: schema revision is {newer}, newer than this duelhall's "
            f"{SCHEMA_REVISION}: the database was migrated by a newer duelhall; run that version"
        ) in done.stderr.splitlines(), (command, done.stderr)
