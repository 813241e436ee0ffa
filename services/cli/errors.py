"""What the CLI prints for a failure: one plain sentence, no class names, no driver dumps."""

from __future__ import annotations

import grpc
import psycopg
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from eventstore import DatabaseError
from services.cli.common import unreachable
from services.server import ListenError


def describe(exc: BaseException) -> str:
    """The failure as one sentence for a person at a terminal."""
    if isinstance(exc, grpc.aio.AioRpcError):
        if exc.code() == grpc.StatusCode.UNAVAILABLE and "connect" in (exc.details() or "").lower():
            return unreachable(exc.details() or "")
        return f"the server refused the request ({exc.code().name}): {exc.details()}"
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {exc.filename}"
    if isinstance(exc, OSError) and exc.filename:
        return f"cannot use {exc.filename}: {(exc.strerror or str(exc)).lower()}"
    if isinstance(exc, KeyError):
        return str(exc.args[0]) if exc.args else "not found"
    if isinstance(exc, ListenError):
        return str(exc)
    if isinstance(exc, DatabaseError | SQLAlchemyError | psycopg.Error):
        cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
        lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
        return f"cannot use the database: {lines[0] if lines else type(cause).__name__}"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:299] + "…"
