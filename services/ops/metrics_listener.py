"""``serve --metrics HOST:PORT``: a small HTTP listener that serves a registry in Prometheus text format."""

from __future__ import annotations

import threading
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, start_http_server


class MetricsListener:
    """Serves ``registry`` on every path (``/metrics`` by convention) from a daemon thread until ``close``."""

    def __init__(self, registry: CollectorRegistry, address: str) -> None:
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"--metrics takes HOST:PORT, not {address!r}")
        self._server: WSGIServer
        self._thread: threading.Thread
        self._server, self._thread = start_http_server(int(port), addr=host.strip("[]"), registry=registry)
        self.host, self.port = host, int(self._server.server_port)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
