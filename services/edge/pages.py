"""``ListMatches`` page tokens: opaque to clients, checked when they come back.

A token is base64url of a small JSON object: the order key to continue after and a digest of the filters of the
listing it belongs to (the filters themselves could make it longer than tokens may be). Anything else, or a
token used with other filters, is ``INVALID_ARGUMENT`` ``PAGE_TOKEN_INVALID``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

import msgspec

from services.core.errors import InvalidArgument
from services.readmodels.matchrows import is_order_key

_MAX_TOKEN = 512


class _Token(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    after: str
    filters: str


def _digest(ruleset: str, status: str, labels: dict[str, str], open_seats: bool) -> str:
    # The open-seats filter only when set: a token issued before it existed stays valid.
    filters = [ruleset, status, sorted(labels.items()), *([True] if open_seats else [])]
    return hashlib.sha256(msgspec.json.encode(filters)).hexdigest()[:32]


def encode_token(after: str, ruleset: str, status: str, labels: dict[str, str], open_seats: bool = False) -> str:
    token = _Token(after, _digest(ruleset, status, labels, open_seats))
    return base64.urlsafe_b64encode(msgspec.json.encode(token)).decode().rstrip("=")


def decode_token(token: str, ruleset: str, status: str, labels: dict[str, str], open_seats: bool = False) -> str | None:
    """The order key a page token continues after (None for no token); ``InvalidArgument`` if it is not one
    this service issued for a listing with these filters."""
    if not token:
        return None
    try:
        if len(token) > _MAX_TOKEN:
            raise ValueError
        parsed = msgspec.json.decode(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)), type=_Token)
    except (ValueError, binascii.Error, msgspec.DecodeError, msgspec.ValidationError):
        raise InvalidArgument(
            "page_token is not a token from a previous ListMatches response", reason="PAGE_TOKEN_INVALID"
        ) from None
    if not is_order_key(parsed.after):
        raise InvalidArgument(
            "page_token is not a token from a previous ListMatches response", reason="PAGE_TOKEN_INVALID"
        )
    if parsed.filters != _digest(ruleset, status, labels, open_seats):
        raise InvalidArgument(
            "page_token belongs to a listing with other filters (ruleset, status, labels, open seats)",
            reason="PAGE_TOKEN_INVALID",
        )
    return parsed.after
