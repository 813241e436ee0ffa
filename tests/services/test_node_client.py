"""The Node.js example client (examples/node-client) against a real ``duelhall serve`` subprocess.

The client plays a random card_monsters match for both seats, watches it as a spectator on its own
connection, and has the server verify the exported replay; here the replay is verified again by the CLI
and compared with the client's summary line.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.services.process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
CLIENT_DIR = ROOT / "examples" / "node-client"
DUELHALL = Path(sys.executable).with_name("duelhall")
NODE = shutil.which("node")
SUMMARY = re.compile(
    r"^match (?P<match_id>\S+): (?P<commands>\d+) commands, (?P<events>\d+) spectator events, "
    r"(?P<outcome>.+); replay (?P<out>.+) verified \(seed (?P<seed>\d+)\)$"
)

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not on PATH: the Node.js example client cannot run"),
    # npm ci (only when node_modules is missing) may take minutes on a cold cache.
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def client_dir() -> Path:
    """The client folder with its locked dependencies installed."""
    if not (CLIENT_DIR / "node_modules").is_dir():
        npm = shutil.which("npm")
        assert npm is not None, "node is on PATH but npm is not: cannot install the client's dependencies"
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=CLIENT_DIR, check=True, timeout=300, capture_output=True
        )
    return CLIENT_DIR


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A real server on a free port with its own SQLite file; yields HOST:PORT once it is serving."""
    process = ServerProcess(f"sqlite:///{tmp_path}/db.sqlite")
    try:
        yield process.address
    finally:
        process.stop()


def run_client(client_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run([NODE, "client.js", *args], cwd=client_dir, capture_output=True, text=True, timeout=240)


def test_client_plays_watches_and_exports_a_verified_replay(client_dir: Path, server: str, tmp_path: Path) -> None:
    replay_path = tmp_path / "replay.json"
    result = run_client(client_dir, "--server", server, "--out", str(replay_path), "--seed", "7")
    assert result.returncode == 0, f"client failed:\n{result.stderr}"
    summary = SUMMARY.match(result.stdout.strip())
    assert summary, f"unexpected summary: {result.stdout!r}"

    verified = subprocess.run(
        [str(DUELHALL), "replay", "verify", str(replay_path)], capture_output=True, text=True, timeout=120
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr

    replay = json.loads(replay_path.read_bytes())
    assert summary["match_id"] == replay["match_id"]
    # Watching from version 0 delivers every event, the last one with match_ended.
    assert int(summary["events"]) == len(replay["events"])
    seat_commands = [c for c in replay["commands"] if c["actor"] in ("0", "1")]
    assert int(summary["commands"]) == len(seat_commands)
    assert all(c["type"] != "concede" for c in seat_commands)
    assert replay["outcome"] is not None and replay["seed"] is not None


def test_client_reports_the_grpc_status_and_exits_1_when_the_server_is_unreachable(client_dir: Path) -> None:
    # A bound socket that never listens: connections to its port are refused, and no one else can take it.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        result = run_client(client_dir, "--server", f"127.0.0.1:{closed.getsockname()[1]}")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: gRPC UNAVAILABLE (14)")
