"""The CLI's edges: usage errors exit 2, failures print one plain sentence, --server, many files, piping."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.main import main
from services.server import ListenError, Running, ServerConfig, create_server
from tests.services.client import create_match, play_random
from tests.services.conftest import ADMIN_TOKEN
from tests.services.process import BIN

USAGE = [
    ["selfplay", "card_monsters", "--games", "-1"],
    ["selfplay", "card_monsters", "--games", "0"],
    ["selfplay", "aq", "--players", "0"],
    ["selfplay", "aq", "--players", "9"],
    ["selfplay", "chess"],
    ["matches", "--limit", "0"],
    ["matches", "--ruleset", "card-monsters"],
    ["serve", "--listen", "127.0.0.1:99999"],
    ["serve", "--listen", "nonsense"],
    ["serve", "--http", "127.0.0.1:70000"],
    ["serve", "--http", "nonsense"],
    ["matches", "--server", "127.0.0.1:1", "--rebuild"],
]


@pytest.mark.parametrize("argv", USAGE, ids=" ".join)
def test_nonsense_arguments_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out.startswith("duelhall ")


def _one_sentence(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("duelhall: "), err
    assert "Error" not in lines[0] and "Traceback" not in lines[0], err
    return lines[0]


def test_failures_are_one_plain_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "show", str(tmp_path / "missing.json")]) == 1
    assert "no such file" in _one_sentence(capsys.readouterr().err)
    assert main(["matches", "--server", "127.0.0.1:1"]) == 1
    assert "cannot reach the server" in _one_sentence(capsys.readouterr().err)
    assert main(["matches", "--database-url", "postgresql://postgres@127.0.0.1:1/none"]) == 1
    assert "cannot use the database" in _one_sentence(capsys.readouterr().err)
    for command in ("matches", "migrate"):  # migrate (and serve) went through SQLAlchemy, which named no file
        assert main([command, "--database-url", f"sqlite:///{tmp_path / 'none' / 'x.db'}"]) == 1
        assert f"the directory {tmp_path / 'none'} does not exist" in _one_sentence(capsys.readouterr().err)
    (tmp_path / "deep.json").write_text("[" * 5000 + "]" * 5000)
    assert main(["replay", "show", str(tmp_path / "deep.json")]) == 1
    assert "not a replay file" in _one_sentence(capsys.readouterr().err)
    assert main(["replay", "verify", str(tmp_path / "deep.json")]) == 1
    assert "RecursionError" not in capsys.readouterr().out


def test_the_default_database_is_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DUELHALL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DUELHALL_DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    assert (
        main(
            [
                "selfplay",
                "card_monsters",
                "--games",
                "1",
                "--database-url",
                f"sqlite:///{tmp_path / 'data' / 'duelhall.db'}",
            ]
        )
        == 0
    )
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    capsys.readouterr()
    assert main(["matches", "--json"]) == 0
    assert '"status":"ended"' in capsys.readouterr().out
    assert not (tmp_path / "elsewhere" / "duelhall.db").exists()


async def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess, off the event loop so the in-process server keeps answering."""
    return await asyncio.to_thread(subprocess.run, [str(BIN), *argv], capture_output=True, text=True, timeout=60)


async def test_matches_and_export_through_a_server(
    server: Running, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub)
        await play_random(stub, created, seed=1)
        newer = await create_match(stub)
        await play_random(stub, newer, seed=2, max_commands=4)
        address = f"127.0.0.1:{server.port}"
        # A running match is listed at its version now, not the one its creation left it at (a turn timer may
        # add events meanwhile on a slow machine: hence between the versions before and after).
        for where in (["--server", address], ["--database-url", database_url]):
            before = (await stub.GetMatch(pb.GetMatchRequest(match_id=newer.match_id))).version
            proc = await _run("matches", *where, "--status", "running", "--json")
            after = (await stub.GetMatch(pb.GetMatchRequest(match_id=newer.match_id))).version
            assert proc.returncode == 0, proc.stderr
            [row] = json.loads(proc.stdout)
            assert row["match_id"] == newer.match_id and newer.version < before <= row["version"] <= after
    proc = await _run("matches", "--server", address, "--limit", "1")
    assert proc.returncode == 0, proc.stderr
    assert newer.match_id in proc.stdout and created.match_id not in proc.stdout
    assert "there are more" in proc.stderr
    replay = tmp_path / "r.json"
    proc = await _run("replay", "export", created.match_id, "-o", str(replay), "--server", address)
    assert proc.returncode == 0, proc.stderr
    proc = await _run("replay", "verify", str(replay), str(replay))
    assert proc.returncode == 0 and "all 2 replays verified" in proc.stdout
    proc = await _run("replay", "show", str(replay))
    assert proc.returncode == 0 and "Outcome(" not in proc.stdout and "outcome: " in proc.stdout


def test_piping_into_head_is_quiet(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'piped.db'}"
    assert main(["selfplay", "card_monsters", "--games", "40", "--database-url", url]) == 0
    with subprocess.Popen(
        [str(BIN), "matches", "--database-url", url, "--json", "--limit", "40"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(10)
        proc.stdout.close()
        err = proc.stderr.read().decode()
        proc.wait(60)
    assert "BrokenPipeError" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    "command",
    [["rulesets"], ["selfplay", "card_monsters", "--games", "1"]],
    ids=["plain", "rich table"],
)
def test_output_cut_short_by_its_reader_ends_quietly_with_141(command: list[str]) -> None:
    # The reader is gone before the first write: every write fails with EPIPE, as after `| head` has exited.
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [str(BIN), *command],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


async def test_a_port_in_use_is_refused(server: Running, tmp_path: Path) -> None:
    with pytest.raises(ListenError, match="in use"):
        await create_server(
            ServerConfig(database_url=f"sqlite:///{tmp_path / 'second.db'}", listen=f"127.0.0.1:{server.port}")
        )


@pytest.fixture
def pool_logger() -> Iterator[logging.Logger]:
    """asyncpg's pool logger, left as it was found (the CLI's quiet logging is process-wide)."""
    pool = logging.getLogger("asyncpg.pool")
    level, filters = pool.level, list(pool.filters)
    yield pool
    pool.setLevel(level)
    pool.filters[:] = filters


def test_a_client_command_does_not_print_the_drivers_retries(
    pool_logger: logging.Logger, caplog: pytest.LogCaptureFixture
) -> None:
    # During a PostgreSQL outage asyncpg's pool warns of each failed reconnect with its traceback; a client
    # command ends with its own one-line error instead.
    assert main(["rulesets"]) == 0
    caplog.clear()
    try:
        raise ConnectionRefusedError(111, "Connect call failed")
    except OSError:
        pool_logger.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
        pool_logger.error("something worse", exc_info=True)
    written = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records]
    assert written == [("ERROR", "something worse: ConnectionRefusedError: [Errno 111] Connect call failed", None)]


def test_the_error_module_leaves_the_server_and_drivers_unimported() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, services.cli.errors; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert not {"services.server", "grpc", "eventstore", "sqlalchemy", "psycopg"} & set(loaded)


async def test_refusals_name_their_reason_and_a_running_match_says_how_to_export_it(
    server: Running, tmp_path: Path
) -> None:
    address = f"127.0.0.1:{server.port}"
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "r.json"
    proc = await _run("replay", "export", "0" * 32, "-o", str(out), "--server", address)
    assert proc.returncode == 1 and "(NOT_FOUND / MATCH_NOT_FOUND)" in _one_sentence(proc.stderr)
    async with grpc.aio.insecure_channel(address) as channel:
        created = await create_match(pb_grpc.MatchServiceStub(channel))
    proc = await _run("replay", "export", created.match_id, "-o", str(out), "--server", address)
    said = _one_sentence(proc.stderr)
    assert proc.returncode == 1 and f"match {created.match_id} is still running" in said
    assert "only its admin token exports a running match" in said and "--token" in said
    proc = await _run("replay", "export", created.match_id, "-o", str(out), "--server", address, "--token", "nope")
    assert proc.returncode == 1 and "--token is not the server's admin token" in _one_sentence(proc.stderr)
    proc = await _run("replay", "export", created.match_id, "-o", str(out), "--server", address, "--token", ADMIN_TOKEN)
    assert proc.returncode == 0, proc.stderr
    assert [p.name for p in out.parent.iterdir()] == ["r.json"]  # written whole, under its name only


def test_exporting_into_a_missing_directory_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    target = tmp_path / "missing" / "x.json"
    assert main(["replay", "export", "0" * 32, "-o", str(target), "--database-url", url]) == 1
    said = _one_sentence(capsys.readouterr().err)
    assert f"the directory {target.parent} does not exist" in said
    assert not target.parent.exists()
