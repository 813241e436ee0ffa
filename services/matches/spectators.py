"""Who may watch a match without a seat token: its spectator policy, fixed at creation.

``public``: anyone; ``token``: whoever presents the match's spectator token (handed out once, at creation, as
seat tokens are); ``none``: the seats and the admin only. The policy and the spectator token's SHA-256 are
secrets of the match's stream, beside the seat tokens' hashes: never in a replay, read when the match loads. A
match stored before policies existed has neither, and is public.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping

import msgspec

from engine.contract import Viewer
from services.core.errors import PermissionDenied, Unauthenticated
from services.matches.tokens import seat_for, token_hash
from services.readmodels.matchrows import PUBLIC

TOKEN = "token"
NONE = "none"
POLICIES = (PUBLIC, TOKEN, NONE)
POLICY_SECRET = "spectators"
TOKEN_SECRET = "spectator_token"


class Spectators(msgspec.Struct, frozen=True):
    """A match's spectator policy, and its spectator token's hash under ``token``."""

    policy: str = PUBLIC
    token_hash: bytes = b""

    def secrets(self) -> dict[str, bytes]:
        """What the creating append stores (nothing for a public match: as one stored before policies)."""
        if self.policy == PUBLIC:
            return {}
        return {POLICY_SECRET: self.policy.encode()} | ({TOKEN_SECRET: self.token_hash} if self.token_hash else {})


def stored(hidden: Mapping[str, bytes]) -> Spectators:
    """The policy a match was created with, from its stream's secrets."""
    return Spectators(hidden.get(POLICY_SECRET, PUBLIC.encode()).decode(), hidden.get(TOKEN_SECRET, b""))


def viewer_of(token: str, seats: tuple[bytes, ...], spectators: Spectators, admin: bool) -> Viewer:
    """Whom a read request (a view, a watch) sees the match as: the seat its token opens, else a spectator, if
    the policy lets this request watch (``admin``: it carries the admin token, which watches any match)."""
    if token and not admin:
        try:
            return seat_for(token, seats)
        except PermissionDenied:
            if spectators.policy == TOKEN and hmac.compare_digest(token_hash(token), spectators.token_hash):
                return None
            raise
    if admin or spectators.policy == PUBLIC:
        return None
    if spectators.policy == TOKEN:
        raise Unauthenticated(
            "this match admits spectators with its spectator token only", reason="SPECTATOR_TOKEN_REQUIRED"
        )
    raise PermissionDenied("this match admits no spectators: only its seats and the admin", reason="SPECTATORS_NONE")
