"""Service errors: what a request can do wrong besides breaking a rule.

    ServiceError
    ├── InvalidArgument      malformed request (bad JSON, unknown ruleset, bad configuration)  INVALID_ARGUMENT
    ├── Unauthenticated      no token where one is needed                                        UNAUTHENTICATED
    ├── PermissionDenied     a token that does not open this seat or action                      PERMISSION_DENIED
    ├── MatchNotFound        no match with this id                                               NOT_FOUND
    ├── VersionMismatch      expected_version differs from the match's version                   ABORTED
    ├── Ahead                a version or position that is not there yet                         OUT_OF_RANGE
    ├── Unavailable          the server is shutting down: retry on another instance              UNAVAILABLE
    ├── Exhausted            the server holds as many streams open as it takes                   RESOURCE_EXHAUSTED
    ├── NotFound             no such thing besides a match (e.g. a tournament)                   NOT_FOUND
    ├── Conflict             an id already stands for something else                             ALREADY_EXISTS
    ├── Refused              the request is valid but not now (e.g. a tournament's state)        FAILED_PRECONDITION
    │   └── RulesetUnavailable  a stored match's ruleset version is not hosted by this server     FAILED_PRECONDITION
    └── ReplayRejected       a replay file failed verification                                   FAILED_PRECONDITION

``engine.Rejected`` (a rule refusal) is FAILED_PRECONDITION, or INVALID_ARGUMENT for malformed commands;
replay failures come from ``replays.storage``; the mapping lives in ``services/edge/rpc_errors.py``.
"""

from __future__ import annotations

DOMAIN = "duelhall"
"""The ErrorInfo domain of every error the service gives (AIP-193)."""


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


class Ahead(ServiceError):
    """A version the match does not have, or a position the store does not: no client can have seen it, and
    waiting for it would leave the client waiting in silence on what it never saw."""

    reason = "VERSION_AHEAD"


class Unavailable(ServiceError):
    """This server is going away (SIGTERM): retry, or resume a watch, on another instance."""

    reason = "SERVER_SHUTTING_DOWN"


class Exhausted(ServiceError):
    """This server holds as many open streams as it is configured to: retry later, or on another instance."""

    reason = "TOO_MANY_STREAMS"


class NotFound(ServiceError):
    """No such object (other than a match, which has ``MatchNotFound``)."""

    reason = "NOT_FOUND"


class Conflict(ServiceError):
    """An id the client chose already stands for something different."""

    reason = "ALREADY_EXISTS"


class Refused(ServiceError):
    """A well-formed request that the object's current state does not allow."""

    reason = "FAILED_PRECONDITION"


class RulesetUnavailable(Refused):
    """A stored match names a ruleset version (or card data) this server does not host: folding it with other
    code would change its rules, so every call on it is refused; another instance may host it."""

    reason = "RULESET_VERSION_UNAVAILABLE"

    def __init__(self, message: str, ruleset_id: str, version: int) -> None:
        super().__init__(message, ruleset=ruleset_id, version=str(version))
