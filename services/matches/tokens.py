"""Seat tokens: random secrets handed out once at creation; the store keeps only their SHA-256."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Sequence

import msgspec

from services.core.errors import PermissionDenied, Unauthenticated

TOKEN_SECRET_PREFIX = "token:"


class SeatToken(msgspec.Struct, frozen=True):
    """A token presented for a seat action, checked (``seat_for``) once the match's hashes are at hand."""

    token: str


def new_token() -> str:
    return secrets.token_urlsafe(24)


@functools.lru_cache(maxsize=4096)
def token_hash(token: str) -> bytes:
    # Cached: every seat call hashes its token twice (authentication, then the access log's role), and a hash
    # costs more than the rest of a lookup. Bounded, so unknown tokens cannot grow it.
    return hashlib.sha256(token.encode()).digest()


def seat_for(token: str, hashes: Sequence[bytes]) -> int:
    """The seat this token opens; ``Unauthenticated`` when missing, ``PermissionDenied`` when wrong."""
    if not token:
        raise Unauthenticated("a seat token is required")
    presented = token_hash(token)
    for seat, expected in enumerate(hashes):
        if hmac.compare_digest(presented, expected):
            return seat
    raise PermissionDenied("the token does not open a seat of this match")


def check_admin(token: str, admin_token: str | None) -> None:
    """Refuses unless ``token`` is the configured admin token."""
    if not token:
        raise Unauthenticated("the admin token is required")
    if not admin_token or not hmac.compare_digest(token.encode(), admin_token.encode()):
        raise PermissionDenied("this action needs the admin token", reason="ADMIN_REQUIRED")


def is_admin(token: str, admin_token: str | None) -> bool:
    """Whether ``token`` is the server's admin token (a referee's command is submitted with it)."""
    return bool(token and admin_token and hmac.compare_digest(token.encode(), admin_token.encode()))


def admin_asked(token: str, admin_token: str | None) -> bool:
    """Whether a request that may carry the admin token (to see every match, every deck) carries it. No token is
    False; any other token is refused as ``check_admin`` refuses it, not taken for none: its caller expects
    everything."""
    if not token:
        return False
    check_admin(token, admin_token)
    return True
