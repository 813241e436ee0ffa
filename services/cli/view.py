"""``duelhall view FILE``: the viewer page on a replay file, without a running service.

It verifies the file first (one that does not verify is refused here, naming the check), then starts the HTTP
part alone (no gRPC port) on a free port over a throwaway SQLite database and prints the page's address; the
page sends the file to the server, which verifies it again before showing any version.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from replays.verify import verify_bytes
from services.cli.replay import refused
from services.server import ServerConfig, create_server, signalled


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the replay file")
    parser.add_argument("--http", default="127.0.0.1:0", help="HOST:PORT to listen on (default: a free port)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    data = args.file.read_bytes()
    refused(args.file, verify_bytes(data))  # the page would show only the failure: say it here instead
    with tempfile.TemporaryDirectory(prefix="duelhall-view-") as scratch:
        asyncio.run(_view(f"sqlite:///{Path(scratch) / 'view.db'}", args.http, data))
    return 0


async def _view(database_url: str, http: str, data: bytes) -> None:
    stop = signalled()
    running = await create_server(ServerConfig(database_url=database_url, listen=None, http=http), replay=data)
    assert running.http is not None
    print(f"duelhall viewer on {running.http.address}/?replay=/replay.json", flush=True)
    await stop.wait()
    await running.stop()
