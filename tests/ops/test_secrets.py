"""A database password or admin token given to duelhall never appears in any line it writes (issue 15)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventstore.urls import redacted
from services.core.secrets import hide_url_password, scrub
from tests.postgres import throwaway_database
from tests.services.process import ServerProcess

BIN = Path(sys.executable).parent / "duelhall"
PASSWORD = "Pa55-w0rd-never-shown"
TOKEN = "admin-token-never-shown"

pytestmark = pytest.mark.postgres


@pytest.fixture
def secret_url() -> Iterator[str]:
    """A throwaway database's URL with a password (the local server trusts; the password is only carried)."""
    with throwaway_database("duelhall_secrets") as url:
        yield url.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@")


def run(*args: str, ok: bool = True) -> str:
    done = subprocess.run(
        [str(BIN), *args], capture_output=True, text=True, timeout=120, env=os.environ | {"DUELHALL_ADMIN_TOKEN": TOKEN}
    )
    assert (done.returncode == 0) == ok, done.stderr
    return done.stdout + done.stderr


def test_redacted_urls_hide_the_password() -> None:
    assert redacted(f"postgresql://u:{PASSWORD}@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert redacted("not a url") == "(unparsable database URL)"
    hide_url_password("postgresql://u:p%40ss@h/db")
    assert scrub("dsn postgresql://u:p%40ss@h/db and p@ss") == "dsn postgresql://u:***@h/db and ***"


def test_no_command_prints_the_password_or_the_token(secret_url: str) -> None:
    lines = run("migrate", "--database-url", secret_url)
    assert "postgres:***@" in lines
    server = ServerProcess(secret_url, "--admin-token", TOKEN, "--log-level", "debug", capture=True)
    try:
        lines += run("selfplay", "card_monsters", "--games", "2", "--server", server.address)
    finally:
        lines += server.stop()
    lines += run("matches", "--database-url", secret_url)
    lines += run("selfplay", "card_monsters", "--games", "1", "--database-url", secret_url)
    missing = secret_url.rsplit("/", 1)[0] + "/duelhall_no_such_database"
    failed = run("migrate", "--database-url", missing, ok=False)
    failed += run("serve", "--database-url", missing, "--admin-token", TOKEN, "--listen", "127.0.0.1:0", ok=False)
    assert "duelhall_no_such_database" in failed
    lines += failed
    assert "duelhall serving on" in lines
    assert PASSWORD not in lines and TOKEN not in lines
