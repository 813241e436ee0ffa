"""Service errors: what a request can do wrong besides breaking a rule.

    ServiceError
    ├── InvalidArgument      malformed request (bad JSON, unknown ruleset, bad configuration)  INVALID_ARGUMENT
    ├── Unauthenticated      no token where one is needed                                        UNAUTHENTICATED
    ├── PermissionDenied     a token that does not open this seat or action                      PERMISSION_DENIED
    ├── MatchNotFound        no match with this id                                               NOT_FOUND
    ├── VersionMismatch      expected_version differs from the match's version                   ABORTED
    ├── FailedPrecondition   the match is not in the state the request needs (e.g. still running) FAILED_PRECONDITION
    └── ReplayRejected       a replay file failed verification                                   FAILED_PRECONDITION

``engine.Rejected`` (a rule refusal) is FAILED_PRECONDITION, or INVALID_ARGUMENT for malformed commands;
replay failures come from ``replays.storage``; the mapping lives in ``services/rpc_errors.py``.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base class: ``reason`` is the stable AIP-193 reason code sent to clients."""

    reason = "SERVICE_ERROR"

    def __init__(self, message: str, reason: str | None = None, **details: str) -> None:
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason
        self.details = details


class InvalidArgument(ServiceError):
    """The request is malformed: fix it before retrying."""

    reason = "INVALID_ARGUMENT"


class Unauthenticated(ServiceError):
    """The request carries no token but needs one."""

    reason = "TOKEN_MISSING"


class PermissionDenied(ServiceError):
    """The token is not the one for this seat, match or admin action."""

    reason = "TOKEN_INVALID"


class MatchNotFound(ServiceError):
    """No match with this id exists."""

    reason = "MATCH_NOT_FOUND"


class VersionMismatch(ServiceError):
    """A lost race: the match moved on; read it again and retry."""

    reason = "VERSION_MISMATCH"


class FailedPrecondition(ServiceError):
    """The match is not in a state that allows the request (e.g. viewing a running match's every seat)."""

    reason = "FAILED_PRECONDITION"
