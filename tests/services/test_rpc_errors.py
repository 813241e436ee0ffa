"""The exception -> status table of services/edge/rpc_errors.py, row by row, and its in-stream form for Play."""

from __future__ import annotations

import logging

import pytest
from google.rpc import code_pb2, error_details_pb2

from engine.errors import ConfigError, Rejected
from replays.storage import ReplayConflict, ReplayInvalid
from services.core.errors import InvalidArgument, MatchNotFound, PermissionDenied, Unauthenticated, VersionMismatch
from services.edge.rpc_errors import DOMAIN, command_error, to_status

TABLE: list[tuple[BaseException, int, str, dict[str, str]]] = [
    (Rejected("BAD_JSON", "not JSON"), code_pb2.INVALID_ARGUMENT, "BAD_JSON", {}),
    (Rejected("BAD_FIELDS", "no card"), code_pb2.INVALID_ARGUMENT, "BAD_FIELDS", {}),
    (Rejected("UNKNOWN_COMMAND"), code_pb2.INVALID_ARGUMENT, "UNKNOWN_COMMAND", {}),
    (Rejected("NOT_YOUR_TURN", "wait"), code_pb2.FAILED_PRECONDITION, "NOT_YOUR_TURN", {}),
    (Rejected("NOT_ENOUGH_CRYSTALS"), code_pb2.FAILED_PRECONDITION, "NOT_ENOUGH_CRYSTALS", {}),
    (
        ConfigError("DECK_TOO_MANY_COPIES", 1, "3 copies"),
        code_pb2.INVALID_ARGUMENT,
        "DECK_TOO_MANY_COPIES",
        {"seat": "1", "detail": "3 copies"},
    ),
    (ConfigError("PLAYER_COUNT_INVALID"), code_pb2.INVALID_ARGUMENT, "PLAYER_COUNT_INVALID", {"detail": ""}),
    (InvalidArgument("no such ruleset", reason="UNKNOWN_RULESET"), code_pb2.INVALID_ARGUMENT, "UNKNOWN_RULESET", {}),
    (Unauthenticated("token needed"), code_pb2.UNAUTHENTICATED, "TOKEN_MISSING", {}),
    (PermissionDenied("wrong token"), code_pb2.PERMISSION_DENIED, "TOKEN_INVALID", {}),
    (PermissionDenied("admin only", reason="ADMIN_REQUIRED"), code_pb2.PERMISSION_DENIED, "ADMIN_REQUIRED", {}),
    (MatchNotFound("no match"), code_pb2.NOT_FOUND, "MATCH_NOT_FOUND", {}),
    (VersionMismatch("moved on", actual="7"), code_pb2.ABORTED, "VERSION_MISMATCH", {"actual": "7"}),
    (
        ReplayInvalid("chain", 4, "hash mismatch"),
        code_pb2.FAILED_PRECONDITION,
        "REPLAY_INVALID",
        {"check": "chain", "version": "4"},
    ),
    (ReplayConflict("another match"), code_pb2.ALREADY_EXISTS, "MATCH_EXISTS", {}),
]


@pytest.mark.parametrize(("exc", "code", "reason", "metadata"), TABLE, ids=lambda value: repr(value)[:40])
def test_each_exception_has_its_status_and_reason(
    exc: BaseException,
    code: int,
    reason: str,
    metadata: dict[str, str],
) -> None:
    status = to_status(exc)
    info = error_details_pb2.ErrorInfo()
    assert len(status.details) == 1 and status.details[0].Unpack(info)
    assert (status.code, info.reason, info.domain, dict(info.metadata)) == (code, reason, DOMAIN, metadata)
    assert status.message


@pytest.mark.parametrize(("exc", "code", "reason", "metadata"), TABLE, ids=lambda value: repr(value)[:40])
def test_a_play_stream_reports_what_the_unary_call_would(
    exc: BaseException,
    code: int,
    reason: str,
    metadata: dict[str, str],
) -> None:
    error = command_error(exc)
    assert (error.code, error.reason, dict(error.metadata)) == (code, reason, metadata)
    assert error.message == to_status(exc).message


def test_a_bug_is_internal_and_tells_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="services.edge.rpc_errors"):
        status = to_status(KeyError("secret detail"))
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    assert (status.code, info.reason, status.message, dict(info.metadata)) == (
        code_pb2.INTERNAL,
        "INTERNAL",
        "internal error",
        {},
    )
    assert "secret detail" not in str(status)
    assert any("internal error" in record.message for record in caplog.records)
