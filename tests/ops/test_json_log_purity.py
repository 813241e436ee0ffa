"""``serve --log-format json`` writes nothing but JSON objects on stderr: not gRPC's own C-core lines (a client's
failed TLS handshake), not the error that stops the server from starting."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
from pathlib import Path
from typing import Any

import msgspec

from tests.ops.certs import Certificates
from tests.services.process import BIN


def _serve(database: Path, log: Path, *extra: str) -> subprocess.Popen[str]:
    """``serve`` writing its stderr to ``log`` (a file, not a pipe nobody reads until the end), with gRPC's
    logging left to duelhall (none of the environment's ``GRPC_*``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRPC_")} | {"PYTHONUNBUFFERED": "1"}
    command = [str(BIN), "serve", "--log-format", "json", "--http", "off", "--database-url", f"sqlite:///{database}"]
    with log.open("w") as stderr:
        return subprocess.Popen(
            [*command, *extra],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env=env,
        )


def _records(log: Path) -> list[dict[str, Any]]:
    """Every line of the log as the JSON object it must be (a line that is not one fails the test)."""
    lines = log.read_text().splitlines()
    assert lines
    return [msgspec.json.decode(line) for line in lines]


def _poke(address: str) -> None:
    """A client that does not speak TLS, then one that sends bytes of no protocol at all."""
    host, port = address.rsplit(":", 1)
    for hello in (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", os.urandom(300)):
        with socket.create_connection((host, int(port)), timeout=10) as client:
            client.sendall(hello)
            client.recv(100)  # the server's answer, or the end it puts to the connection


async def test_a_failed_handshake_and_a_failed_start_are_logged_as_json(tmp_path: Path) -> None:
    certs = Certificates(tmp_path)
    tls = ["--tls-cert", str(certs.server_cert), "--tls-key", str(certs.server_key)]
    log = tmp_path / "a.log"
    proc = _serve(tmp_path / "a.db", log, "--listen", "127.0.0.1:0", *tls)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "listening on" in line, line
        address = line.strip().rsplit(" ", 1)[-1]
        await asyncio.to_thread(_poke, address)
        # A second server on the same port cannot start: its error, too, is a JSON record.
        second_log = tmp_path / "b.log"
        second = _serve(tmp_path / "b.db", second_log, "--listen", address)
        assert second.wait(60) == 1
        second.communicate()
        [failed] = [r for r in _records(second_log) if r["level"] == "critical"]
        assert failed["message"].startswith("duelhall: cannot listen on " + address)
    finally:
        proc.terminate()
        assert proc.wait(30) == 0
        proc.communicate()
    records = _records(log)
    assert records[-1]["message"] == "stopped"
