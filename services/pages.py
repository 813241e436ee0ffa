"""``ListMatches`` page tokens: opaque to clients, checked when they come back.

A token is base64url of a small JSON object: the order key to continue after and the filters of the listing
it belongs to. Anything else, or a token used with other filters, is ``INVALID_ARGUMENT`` ``PAGE_TOKEN_INVALID``.
"""

from __future__ import annotations

import base64
import binascii

import msgspec

from services.errors import InvalidArgument
from services.readmodel import is_order_key

_MAX_TOKEN = 512


class _Token(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    after: str
    ruleset: str
    status: str
    labels: dict[str, str]


def encode_token(after: str, ruleset: str, status: str, labels: dict[str, str]) -> str:
    token = _Token(after, ruleset, status, dict(sorted(labels.items())))
    return base64.urlsafe_b64encode(msgspec.json.encode(token)).decode().rstrip("=")


def decode_token(token: str, ruleset: str, status: str, labels: dict[str, str]) -> str | None:
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
    if (parsed.ruleset, parsed.status, parsed.labels) != (ruleset, status, labels):
        raise InvalidArgument(
            "page_token belongs to a listing with other filters (ruleset, status, labels)", reason="PAGE_TOKEN_INVALID"
        )
    return parsed.after
