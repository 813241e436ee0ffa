"""The HTTP application: Connect endpoints under ``/duelhall.v1.*``, the viewer page and its assets elsewhere.

Cross-origin requests are allowed (web game clients on other origins call the API): tokens travel in request
bodies, never in cookies, so a page on another origin gains nothing it could not do with curl.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from services.web.connect import PREFIX

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
_CORS = [
    (b"access-control-allow-origin", b"*"),
    (b"access-control-expose-headers", b"grpc-status, grpc-message, connect-content-encoding"),
]
_NOT_GRPC = (
    b"gRPC and gRPC-Web are not served on the HTTP port: call the gRPC port, "
    b"or Connect here (application/json, application/proto, application/connect+json, application/connect+proto)\n"
)
_PREFLIGHT = [
    *_CORS,
    (b"access-control-allow-methods", b"POST, GET, OPTIONS"),
    (b"access-control-allow-headers", b"content-type, connect-protocol-version, connect-timeout-ms"),
    (b"access-control-max-age", b"3600"),
]


def asset(name: str) -> tuple[bytes, str] | None:
    """A file of the viewer page (package data under ``services/web/static``) and its content type."""
    suffix = name[name.rfind(".") :] if "." in name else ""
    if suffix not in _TYPES or "/" in name or name.startswith("."):
        return None
    path = resources.files("services.web").joinpath("static", name)
    if not path.is_file():
        return None
    return path.read_bytes(), _TYPES[suffix]


class WebApp:
    """ASGI: routes a request to the Connect application or to the page's assets."""

    def __init__(self, connect: Any, replay: bytes | None = None, metrics: CollectorRegistry | None = None) -> None:
        self._connect = connect
        self._replay = replay
        """A replay file offered at ``/replay.json`` (``duelhall view FILE``)."""
        self._metrics = metrics
        """The server's Prometheus registry, served at ``/metrics``."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        # Before any route: connectrpc would take gRPC (then fail for want of HTTP trailers: 200, grpc-status 2
        # and a traceback) and gRPC-Web (served nowhere else, so untested and undocumented).
        content_type = next((value for name, value in scope["headers"] if name == b"content-type"), b"")
        if content_type.lower().startswith(b"application/grpc"):
            headers = [(b"content-type", b"text/plain"), (b"accept-post", b"application/json, application/proto")]
            await _respond(send, 415, [*headers, *_CORS], _NOT_GRPC)
            return
        if scope["method"] == "OPTIONS":
            await _respond(send, 204, _PREFLIGHT, b"")
            return
        if scope["path"].startswith(PREFIX):
            await self._connect(scope, receive, lambda message: send(_with_cors(message)))
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _respond(send, 405, [(b"content-type", b"text/plain")], b"method not allowed\n")
            return
        if scope["path"] == "/metrics" and self._metrics is not None:
            await _respond(send, 200, [(b"content-type", CONTENT_TYPE_LATEST.encode())], generate_latest(self._metrics))
            return
        if scope["path"] == "/replay.json" and self._replay is not None:
            await _respond(send, 200, [(b"content-type", b"application/json")], self._replay)
            return
        found = asset(scope["path"].lstrip("/") or "index.html")
        if found is None:
            await _respond(send, 404, [(b"content-type", b"text/plain")], b"not found\n")
            return
        body, content_type = found
        await _respond(send, 200, [(b"content-type", content_type.encode()), (b"cache-control", b"no-cache")], body)


def _with_cors(message: Any) -> Any:
    if message["type"] == "http.response.start":
        return message | {"headers": [*message.get("headers", []), *_CORS]}
    return message


async def _respond(send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
