"""The delayed caster feed: a match's events unredacted, each once it is ``delay`` seconds old on the server's clock.

A match has a caster feed when it was created with a delay; the delay and the caster token's SHA-256 are secrets
of its stream, as the spectator policy is; the watch is ``services/matches/caster_watch.py``.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping

import msgspec

from services.core.errors import InvalidArgument, PermissionDenied, Refused, Unauthenticated
from services.matches.tokens import token_hash

MAX_DELAY = 86_400
"""The longest delay a match takes, in seconds (a day)."""
DELAY_SECRET = "caster_delay"
TOKEN_SECRET = "caster_token"


class Caster(msgspec.Struct, frozen=True):
    """A match's caster feed: its delay in seconds (0: none) and the caster token's hash."""

    delay: int = 0
    token_hash: bytes = b""

    def secrets(self) -> dict[str, bytes]:
        """What the creating append stores (nothing without a feed: as a match stored before feeds existed)."""
        if not self.delay:
            return {}
        return {DELAY_SECRET: str(self.delay).encode(), TOKEN_SECRET: self.token_hash}


def checked_delay(delay: int) -> int:
    if not 0 <= delay <= MAX_DELAY:
        raise InvalidArgument(
            f"caster_delay_seconds must be 0 (no caster feed) to {MAX_DELAY}, not {delay}",
            reason="CASTER_DELAY_INVALID",
        )
    return delay


def stored(hidden: Mapping[str, bytes]) -> Caster:
    """The caster feed a match was created with, from its stream's secrets."""
    return Caster(int(hidden.get(DELAY_SECRET, b"0")), hidden.get(TOKEN_SECRET, b""))


def admit(token: str, caster: Caster, admin: bool) -> None:
    """Refuses a caster watch unless the match has a feed and ``token`` is its caster token (or the admin's)."""
    if not caster.delay:
        raise Refused("this match has no caster feed: it was created without a caster delay", reason="CASTER_FEED_OFF")
    if admin:
        return
    if not token:
        raise Unauthenticated("the caster feed needs the match's caster token", reason="CASTER_TOKEN_REQUIRED")
    if not hmac.compare_digest(token_hash(token), caster.token_hash):
        raise PermissionDenied("this token is not the match's caster token", reason="TOKEN_INVALID")
