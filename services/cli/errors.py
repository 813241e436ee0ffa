"""What the CLI prints for a failure: one plain sentence, no class names, no driver dumps.

Importing this module imports neither gRPC nor a database driver nor the server: a failure can only be of a class
whose module the command has already imported, so each kind is recognised through ``sys.modules`` (a command
that never opened a database cannot fail with a database error), and ``--help`` and ``--version`` stay fast.
"""

from __future__ import annotations

import sys
from typing import Any

from services.cli.common import unreachable

ERRORS_DOMAIN = "duelhall"
_DATABASE_ERRORS = (
    ("eventstore", "DatabaseError"),
    ("sqlalchemy.exc", "SQLAlchemyError"),
    ("psycopg", "Error"),
)


def describe(exc: BaseException) -> str:
    """The failure as one sentence for a person at a terminal."""
    if _is(exc, "grpc.aio", "AioRpcError"):
        return _refused(exc)
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {exc.filename}"
    if isinstance(exc, OSError) and exc.filename:
        return f"cannot use {exc.filename}: {(exc.strerror or str(exc)).lower()}"
    if isinstance(exc, KeyError):
        return str(exc.args[0]) if exc.args else "not found"
    if any(_is(exc, module, name) for module, name in _DATABASE_ERRORS):
        orig = getattr(exc, "orig", None) if _is(exc, "sqlalchemy.exc", "DBAPIError") else None
        cause = orig if orig is not None else exc
        lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
        return f"cannot use the database: {lines[0] if lines else type(cause).__name__}"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:299] + "…"


def reason(exc: Any) -> str:
    """The ErrorInfo reason of a call a server refused (``docs/api.md``, Errors), or ""."""
    for key, value in exc.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            from google.rpc import error_details_pb2, status_pb2

            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info) and info.domain == ERRORS_DOMAIN:
                    return str(info.reason)
    return ""


def _refused(exc: Any) -> str:
    details = exc.details() or ""
    code = exc.code().name
    why = reason(exc)
    if code == "UNAVAILABLE" and not why and "connect" in details.lower():
        return unreachable(details)
    return f"the server refused the request ({code}{' / ' + why if why else ''}): {details}"


def _is(exc: BaseException, module: str, name: str) -> bool:
    """Whether ``exc`` is a ``module.name``, without importing ``module``."""
    cls = getattr(sys.modules.get(module), name, None)
    return isinstance(cls, type) and isinstance(exc, cls)
