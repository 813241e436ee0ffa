"""A real ``duelhall serve`` process on a free port, for tests that kill and restart the server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent / "duelhall"


class ServerProcess:
    """Starts ``duelhall serve`` and reads its listening line to learn the port (no polling, no sleeps)."""

    def __init__(self, database_url: str, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [str(BIN), "serve", "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--database-url", database_url,
             *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r}")
        self.address = line.strip().rsplit(" ", 1)[-1]
        http = self.proc.stdout.readline()
        if "http listening on" not in http:
            self.proc.kill()
            raise RuntimeError(f"server did not start its HTTP port: {http!r}")
        self.http_address = http.strip().rsplit(" ", 1)[-1]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self._reap()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        self._reap()

    def _reap(self) -> None:
        self.proc.wait(10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
