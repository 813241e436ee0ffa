"""A minimal Connect client over plain HTTP/1.1 (httpx), as a browser speaks it: JSON bodies, enveloped streams."""

from __future__ import annotations

import base64
import gzip
import json
import struct
from collections.abc import AsyncIterator
from typing import Any

import httpx
from google.rpc import error_details_pb2

MATCHES = "duelhall.v1.MatchService"
TOURNAMENTS = "duelhall.v1.TournamentService"
RULESETS = "duelhall.v1.RulesetService"
_COMPRESSED = 0x01
_END_STREAM = 0x02


class ConnectFailure(Exception):
    def __init__(self, code: str, reason: str, message: str) -> None:
        super().__init__(f"{code} {reason}: {message}")
        self.code, self.reason, self.message = code, reason, message


def failure(error: dict[str, Any]) -> ConnectFailure:
    """The Connect error's code and its ErrorInfo reason (domain duelhall)."""
    for detail in error.get("details", []):
        if detail["type"] == "google.rpc.ErrorInfo":
            info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
            assert info.domain == "duelhall"
            return ConnectFailure(error["code"], info.reason, error.get("message", ""))
    raise AssertionError(f"no ErrorInfo in {error}")


async def call(client: httpx.AsyncClient, service: str, method: str, body: dict[str, Any]) -> dict[str, Any]:
    """A unary call with a JSON body; raises ``ConnectFailure`` for an error response."""
    response = await client.post(f"/{service}/{method}", json=body)
    data: dict[str, Any] = response.json()
    if response.status_code != 200:
        raise failure(data)
    assert response.headers["content-type"] == "application/json"
    return data


async def stream(
    client: httpx.AsyncClient,
    service: str,
    method: str,
    body: dict[str, Any],
    flags: int = 0,
    encoding: str | None = None,
) -> AsyncIterator[dict[str, Any]]:
    """A server-streaming call: yields each message, raises ``ConnectFailure`` if the stream ends in error.

    ``flags``: the request envelope's (``0x01``: compressed, gzipped when ``encoding`` is ``gzip``);
    ``encoding``: the ``Connect-Content-Encoding`` header, none when None."""
    payload = json.dumps(body).encode()
    if flags & _COMPRESSED and encoding == "gzip":
        payload = gzip.compress(payload)
    envelope = struct.pack(">BI", flags, len(payload)) + payload
    headers = {"content-type": "application/connect+json", "connect-protocol-version": "1"}
    if encoding is not None:
        headers["connect-content-encoding"] = encoding
    async with client.stream("POST", f"/{service}/{method}", content=envelope, headers=headers) as response:
        assert response.status_code == 200, await response.aread()
        buffer = b""
        async for chunk in response.aiter_bytes():
            buffer += chunk
            while len(buffer) >= 5:
                flags, size = struct.unpack(">BI", buffer[:5])
                if len(buffer) < 5 + size:
                    break
                message = json.loads(buffer[5 : 5 + size])
                buffer = buffer[5 + size :]
                if flags & _END_STREAM:
                    if "error" in message:
                        raise failure(message["error"])
                    return
                yield message
    raise AssertionError("the stream ended without an end-of-stream message")
