"""A real ``duelhall serve`` process on a free port, for tests that kill and restart the server."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).parent / "duelhall"


class ServerProcess:
    """Starts ``duelhall serve`` and reads its listening line to learn the port (no polling, no sleeps)."""

    def __init__(
        self, database_url: str, *extra: str, capture: bool = False, env: dict[str, str] | None = None
    ) -> None:
        # Logs go to a file, not a pipe: a pipe nobody reads until the end would fill and block the server.
        self._log = tempfile.TemporaryFile("w+") if capture else None
        self.proc = subprocess.Popen(
            [
                str(BIN),
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--http",
                "127.0.0.1:0",
                "--database-url",
                database_url,
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=self._log or subprocess.DEVNULL,
            text=True,
            env=os.environ | {"PYTHONUNBUFFERED": "1"} | (env or {}),
        )
        self._printed = ""
        """What the server printed between its gRPC and its HTTP line (the metrics line), for ``stop``."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r} {self.stop()}")
        self.address = line.strip().rsplit(" ", 1)[-1]
        while "http listening on" not in (http := self.proc.stdout.readline()):
            if not http:
                raise RuntimeError(f"server did not start its HTTP port {self.stop()}")
            self._printed += http
        self.http_address = http.strip().rsplit(" ", 1)[-1]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self.proc.communicate(timeout=10)

    def stop(self) -> str:
        """SIGTERM, then what the process wrote after its listening line (stdout, then its logs if captured)."""
        if self.proc.poll() is None:
            self.proc.terminate()
        out, _ = self.proc.communicate(timeout=30)
        out = self._printed + (out or "")
        if self._log is None:
            return out
        self._log.seek(0)
        logged = self._log.read()
        self._log.close()
        return out + logged
