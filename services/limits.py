"""Bounds on what a request names: command ids and versions the store can hold, checked before it sees them."""

from __future__ import annotations

from services.errors import InvalidArgument

MAX_VERSION = 2**31 - 1
"""The largest stream version the store holds."""
MAX_COMMAND_ID = 128
"""Also what replay verification allows (``replays/verify.py``)."""


def version(value: int, what: str) -> int:
    """A version a client asks for (``min_version``, ``from_version``): 0 up to ``MAX_VERSION``."""
    if not 0 <= value <= MAX_VERSION:
        raise InvalidArgument(f"{what} must be 0 to {MAX_VERSION}, not {value}", reason="VERSION_OUT_OF_RANGE")
    return value


def command_id(text: str) -> str:
    """A client's command id: up to 128 printable characters ('' lets the server pick one)."""
    if len(text) > MAX_COMMAND_ID or not text.isprintable():
        raise InvalidArgument(
            f"command_id must be at most {MAX_COMMAND_ID} printable characters", reason="COMMAND_ID_INVALID"
        )
    return text
