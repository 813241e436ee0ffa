"""A database password or admin token given to duelhall never appears in any line it writes (issue 15)."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from eventstore.urls import redacted
from services.cli.main import main
from services.cli.main import parser as main_parser
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
    failed += run(
        "serve", "--database-url", missing, "--admin-token", TOKEN, "--listen", "127.0.0.1:0", "--http", "off", ok=False
    )
    assert "duelhall_no_such_database" in failed
    lines += failed
    assert "duelhall serving on" in lines
    assert PASSWORD not in lines and TOKEN not in lines


# Every verb that takes --database-url, in process, each way it prints: success, and a failure naming the URL.
# ``{url}`` is a URL with the password (``{missing}``: of no database); ``{match}``, ``{file}`` and ``{archive}``:
# an ended match and its replay. Last: whether the output names the URL (then masked).
VERBS: list[tuple[str, list[str], int, bool]] = [
    ("migrate", ["migrate", "--database-url", "{url}"], 0, True),
    ("migrate", ["migrate", "--database-url", "{missing}"], 1, False),
    ("selfplay", ["selfplay", "card_monsters", "--games", "1", "--database-url", "{url}"], 0, False),
    ("matches", ["matches", "--database-url", "{url}"], 0, False),
    ("matches", ["matches", "--database-url", "{missing}"], 1, False),
    ("replay export", ["replay", "export", "{match}", "-o", "{out}/one.json", "--database-url", "{url}"], 0, True),
    (
        "replay export",
        ["replay", "export", "no-such-match", "-o", "{out}/none.json", "--database-url", "{url}"],
        1,
        True,
    ),
    ("replay export", ["replay", "export", "--all", "-o", "{out}/all", "--database-url", "{url}"], 0, False),
    ("replay import", ["replay", "import", "{file}", "--database-url", "{url}"], 0, True),
    ("replay import", ["replay", "import", "{file}", "--database-url", "{missing}"], 1, False),
    ("prune", ["prune", "--archive", "{archive}", "--dry-run", "--database-url", "{url}"], 0, False),
    (
        "serve",
        ["serve", "--database-url", "{url}", "--listen", "127.0.0.1:0", "--http", "off", "--log-level", "debug"],
        0,
        True,
    ),
    ("serve", ["serve", "--database-url", "{missing}", "--listen", "127.0.0.1:0", "--http", "off"], 1, False),
]


def test_the_cases_cover_every_verb_that_takes_a_database_url() -> None:
    taking: set[str] = set()
    root = main_parser()
    for name, command in _subparsers(root).items():
        verbs = _subparsers(command)
        for verb, sub in verbs.items() or {"": command}.items():
            if any("--database-url" in action.option_strings for action in sub._actions):
                taking.add(f"{name} {verb}".strip())
    assert taking == {verb for verb, _, _, _ in VERBS}


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@pytest.fixture(scope="module")
def stocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A database with one ended match, its URL with a password, and the match's replay archived."""
    folder = tmp_path_factory.mktemp("secrets")
    with throwaway_database("duelhall_secret_verbs") as url:
        secret = url.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@")
        assert main(["selfplay", "card_monsters", "--games", "1", "--database-url", secret]) == 0
        assert main(["replay", "export", "--all", "-o", str(folder / "archive"), "--database-url", secret]) == 0
        (replay,) = (folder / "archive").glob("*.json")
        yield {
            "url": secret,
            "missing": secret.rsplit("/", 1)[0] + "/duelhall_no_such_database",
            "match": replay.stem,
            "file": str(replay),
            "archive": str(folder / "archive"),
        }


class _StopOnceServing(logging.Handler):
    """Sends the process SIGTERM when the server says it serves: ``serve`` then stops as in production."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("duelhall serving on"):
            os.kill(os.getpid(), signal.SIGTERM)


@pytest.mark.parametrize(("verb", "argv", "status", "names"), VERBS, ids=[" ".join(a) for _, a, _, _ in VERBS])
def test_no_verb_shows_the_password(
    verb: str,
    argv: list[str],
    status: int,
    names: bool,
    stocked: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    args = [word.format(out=tmp_path, **stocked) for word in argv]
    root = logging.getLogger()
    handlers, level, threshold = list(root.handlers), root.level, gc.get_threshold()
    stopper = _StopOnceServing()
    root.addHandler(stopper)
    try:
        assert main(args) == status, capsys.readouterr()
    finally:
        # serve configures the process's logging and collector: put them back for the next tests.
        for handler in root.handlers:
            handler.flush()
            if handler not in handlers:
                root.removeHandler(handler)
                if handler is not stopper:
                    handler.close()
        root.setLevel(level)
        gc.set_threshold(*threshold)
        gc.unfreeze()
    captured = capsys.readouterr()
    shown = captured.out + captured.err + caplog.text + "".join(str(vars(r)) for r in caplog.records)
    assert PASSWORD not in shown
    if names:
        assert "postgres:***@" in shown
