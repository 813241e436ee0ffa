"""Exceptions to gRPC statuses (AIP-193): this table is the documentation of the service's errors.

| exception                      | status              | ErrorInfo.reason                 |
|--------------------------------|---------------------|----------------------------------|
| engine Rejected, malformed     | INVALID_ARGUMENT    | BAD_JSON, BAD_FIELDS, UNKNOWN_COMMAND |
| engine Rejected, rule refusal  | FAILED_PRECONDITION | the ruleset's code               |
| engine ConfigError             | INVALID_ARGUMENT    | the spec's deck/option code      |
| InvalidArgument                | INVALID_ARGUMENT    | e.g. UNKNOWN_RULESET(_VERSION), PAGE_TOKEN_INVALID |
| Unauthenticated                | UNAUTHENTICATED     | TOKEN_MISSING, SPECTATOR_TOKEN_REQUIRED |
| PermissionDenied               | PERMISSION_DENIED   | TOKEN_INVALID, ADMIN_REQUIRED, NOT_AN_ADMIN_COMMAND |
| PermissionDenied (watchers)    | PERMISSION_DENIED   | SPECTATORS_NONE, REPLAY_EMBARGOED |
| InvalidArgument (caster)       | INVALID_ARGUMENT    | CASTER_DELAY_INVALID             |
| Unauthenticated (caster)       | UNAUTHENTICATED     | CASTER_TOKEN_REQUIRED            |
| PermissionDenied (caster)      | PERMISSION_DENIED   | TOKEN_INVALID                    |
| Refused (caster)               | FAILED_PRECONDITION | CASTER_FEED_OFF                  |
| MatchNotFound                  | NOT_FOUND           | MATCH_NOT_FOUND                  |
| VersionMismatch                | ABORTED             | VERSION_MISMATCH                 |
| Ahead                          | OUT_OF_RANGE        | VERSION_AHEAD, POSITION_AHEAD    |
| Unavailable                    | UNAVAILABLE         | SERVER_SHUTTING_DOWN             |
| Exhausted                      | RESOURCE_EXHAUSTED  | TOO_MANY_STREAMS (limit)         |
| NotFound                       | NOT_FOUND           | e.g. TOURNAMENT_NOT_FOUND        |
| Conflict                       | ALREADY_EXISTS      | e.g. REQUEST_ID_REUSED, COMMAND_ID_REUSED |
| Refused                        | FAILED_PRECONDITION | e.g. ROUND_NOT_FINISHED, CASTER_FEED_OFF, NOT_OWNER |
| RulesetUnavailable (Refused)   | FAILED_PRECONDITION | RULESET_VERSION_UNAVAILABLE (ruleset, version) |
| ReplayInvalid                  | FAILED_PRECONDITION | REPLAY_INVALID (check, version)  |
| ReplayConflict                 | ALREADY_EXISTS      | MATCH_EXISTS                     |
| StoreError (database fault)    | UNAVAILABLE         | STORE_UNAVAILABLE                |
| anything else (a bug)          | INTERNAL            | INTERNAL (no detail leaves)      |

Request bytes that do not parse never reach a servicer: ``services/edge/malformed.py`` answers them with
INVALID_ARGUMENT MALFORMED_REQUEST.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any

import grpc
import msgspec
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from engine.commands import BAD_JSON
from engine.errors import MALFORMED_CODES, ConfigError, Rejected
from eventstore import StoreError, StreamNotFound, WrongExpectedVersion
from replays.storage import ReplayConflict, ReplayInvalid
from services.api import duelhall_pb2 as pb
from services.core.errors import (
    DOMAIN,
    Ahead,
    Conflict,
    Exhausted,
    InvalidArgument,
    MatchNotFound,
    NotFound,
    PermissionDenied,
    Refused,
    ServiceError,
    Unauthenticated,
    Unavailable,
    VersionMismatch,
)
from services.core.throttle import ThrottledLog

MESSAGE_CHARS = 300
METADATA_CHARS = 100
log = logging.getLogger(__name__)
_store_faults = ThrottledLog(log)

_SERVICE_CODES: list[tuple[type[ServiceError], int]] = [
    (InvalidArgument, code_pb2.INVALID_ARGUMENT),
    (Unauthenticated, code_pb2.UNAUTHENTICATED),
    (PermissionDenied, code_pb2.PERMISSION_DENIED),
    (MatchNotFound, code_pb2.NOT_FOUND),
    (VersionMismatch, code_pb2.ABORTED),
    (Ahead, code_pb2.OUT_OF_RANGE),
    (Unavailable, code_pb2.UNAVAILABLE),
    (Exhausted, code_pb2.RESOURCE_EXHAUSTED),
    (NotFound, code_pb2.NOT_FOUND),
    (Conflict, code_pb2.ALREADY_EXISTS),
    (Refused, code_pb2.FAILED_PRECONDITION),
]


def to_status(exc: BaseException) -> status_pb2.Status:
    """The rich status for an exception raised while serving a request."""
    if isinstance(exc, Rejected):
        malformed = exc.code in MALFORMED_CODES or exc.code == BAD_JSON
        code = code_pb2.INVALID_ARGUMENT if malformed else code_pb2.FAILED_PRECONDITION
        return status(code, exc.code, exc.message, {})
    if isinstance(exc, ConfigError):
        detail = _config_detail(exc)
        details = {"detail": detail} | ({"seat": str(exc.seat)} if exc.seat is not None else {})
        where = f" (seat {exc.seat})" if exc.seat is not None else ""
        return status(
            code_pb2.INVALID_ARGUMENT, exc.code, f"{exc.code}{where}: {detail}" if detail else exc.code, details
        )
    if isinstance(exc, ReplayInvalid):
        details = {"check": exc.check, "version": str(exc.version)}
        return status(code_pb2.FAILED_PRECONDITION, "REPLAY_INVALID", str(exc), details)
    if isinstance(exc, ReplayConflict):
        return status(code_pb2.ALREADY_EXISTS, "MATCH_EXISTS", str(exc), {})
    if isinstance(exc, StoreError) and not isinstance(exc, WrongExpectedVersion | StreamNotFound):
        _store_faults.note(f"database unavailable: {exc}")
        return status(code_pb2.UNAVAILABLE, "STORE_UNAVAILABLE", "the database is unavailable; retry shortly", {})
    for cls, code in _SERVICE_CODES:
        if isinstance(exc, cls):
            return status(code, exc.reason, exc.message, exc.details)
    log.exception("internal error", exc_info=exc)
    return status(code_pb2.INTERNAL, "INTERNAL", "internal error", {})


def _config_detail(exc: ConfigError) -> str:
    """The error's detail as text: a ruleset that lists every problem (``errors``, e.g. duel) gets one
    "CODE (field value, ...)" phrase per problem instead of its JSON."""
    problems = getattr(exc, "errors", None)
    if not problems:
        return exc.detail
    phrases = []
    for problem in msgspec.to_builtins(problems):
        fields = ", ".join(f"{key} {value}" for key, value in problem.items() if key != "code" and value is not None)
        phrases.append(f"{problem['code']} ({fields})" if fields else str(problem["code"]))
    return "; ".join(phrases)


def clip(text: str, limit: int = METADATA_CHARS) -> str:
    """``text`` cut to ``limit`` characters, marked when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def status(code: int, reason: str, message: str, details: dict[str, str]) -> status_pb2.Status:
    """The rich status; messages and metadata may echo client input, so they are cut to stay far below the
    8 KiB a client accepts in trailers by default."""
    info = error_details_pb2.ErrorInfo(
        reason=reason, domain=DOMAIN, metadata={key: clip(value) for key, value in details.items()}
    )
    message = clip(message, MESSAGE_CHARS)
    packed = any_pb2.Any()
    packed.Pack(info)
    return status_pb2.Status(code=code, message=message, details=[packed])


def rpc_errors(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wraps a servicer method (unary or server-streaming) so every exception leaves as a rich status."""
    if inspect.isasyncgenfunction(method):

        @functools.wraps(method)
        async def stream(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
            try:
                async for item in method(self, request, context):
                    yield item
            except Exception as exc:
                await context.abort_with_status(rpc_status.to_status(to_status(exc)))

        return stream

    @functools.wraps(method)
    async def unary(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await method(self, request, context)
        except Exception as exc:
            if _client_gone(exc):  # a cancel, not a fault: no INTERNAL, no "internal error" logged
                raise asyncio.CancelledError from exc
            await context.abort_with_status(rpc_status.to_status(to_status(exc)))

    return unary


def _client_gone(exc: Exception) -> bool:
    """Whether a write failed because the stream's client went away while it was being sent: gRPC raises its
    ExecuteBatchError then, which its public API and stubs do not name."""
    return type(exc).__name__ == "ExecuteBatchError"


def command_error(exc: BaseException) -> pb.CommandError:
    """A refused command as a Play stream reports it: the status and ErrorInfo SubmitCommand would fail with."""
    status = to_status(exc)
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    return pb.CommandError(code=status.code, reason=info.reason, message=status.message, metadata=dict(info.metadata))
