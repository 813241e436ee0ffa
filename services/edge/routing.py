"""Sending a client to a match's owner, for clients that ask (docs/api.md, "Calling a match's owner").

Every instance serves every call; a client may ask, with the request metadata ``duelhall-redirect: owner``, to be
told instead where the match's owner takes calls when the instance it called does not own the match. The call is
then refused FAILED_PRECONDITION ``NOT_OWNER``, the owner's address in the ErrorInfo metadata (``owner_address``),
before it did anything: the client calls the owner there, which serves it, and keeps calling it. A client that does
not ask is served as before. Over Connect (the HTTP port) nothing is redirected: browsers reach the instances
through the load balancer.
"""

from __future__ import annotations

from typing import Any

from services.core.errors import Refused
from services.matches.ownership import Ownership

REDIRECT_KEY = "duelhall-redirect"
"""The request metadata key a client sets to ``OWNER`` to be sent to a match's owner."""
OWNER = "owner"
NOT_OWNER = "NOT_OWNER"
ADDRESS_KEY = "owner_address"
"""The ErrorInfo metadata key of the owner's address in a ``NOT_OWNER`` refusal."""


def asked(context: Any) -> bool:
    """Whether the call asked to be sent to the owner (a Connect call's context has no metadata: it never does)."""
    metadata = getattr(context, "invocation_metadata", None)
    return metadata is not None and any(key == REDIRECT_KEY and value == OWNER for key, value in metadata() or ())


async def to_owner(ownership: Ownership, match_id: str, context: Any) -> None:
    """Refuses ``NOT_OWNER`` a call that asked to be sent to the owner of a match another instance owns."""
    if not match_id or not asked(context):
        return
    address = await ownership.elsewhere(match_id)
    if address is not None:
        raise Refused(
            f"match {match_id} is owned by the instance at {address}: call it there",
            reason=NOT_OWNER,
            **{ADDRESS_KEY: address, "match_id": match_id},
        )
