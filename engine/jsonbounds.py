"""Bounds on JSON that comes from outside the process: a size in bytes and a nesting depth.

msgspec decodes untyped JSON recursively, so a document nested a thousand levels deep raises
``RecursionError`` rather than a decode error, and a huge one costs memory before anything refuses it.
``decode`` refuses both with ``OutOfBounds``, a ``ValueError`` whose message completes "the JSON ...".
"""

from __future__ import annotations

from typing import Any

import msgspec

MAX_DEPTH = 64
"""Deeper than any configuration, command or event of a hosted ruleset."""
MAX_BYTES = 64 * 1024
"""Bytes of one configuration, options object or command sent by a client."""


class OutOfBounds(ValueError):
    """The JSON is larger or nests deeper than allowed; the message says which."""


def decode(raw: bytes | str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``raw``; ``OutOfBounds`` past the bounds, ``msgspec.DecodeError`` if not JSON."""
    if len(raw) > max_bytes:
        raise OutOfBounds(f"is {len(raw):,} bytes, more than the {max_bytes:,} allowed")
    try:
        value = msgspec.json.decode(raw)
    except RecursionError:
        raise OutOfBounds(f"nests deeper than {max_depth} levels") from None
    if depth(value) > max_depth:
        raise OutOfBounds(f"nests deeper than {max_depth} levels")
    return value


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in a decoded JSON value (a scalar: 0), without recursion."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        pending.extend((child, level + 1) for child in children)
    return deepest
