"""What viewers need besides views: a ruleset's card catalog and its board layout description.

Both are files of the ruleset's package (``engine/rulesets/<id>/``): ``cards.json``, whose top-level lists of
objects with an ``id`` and a ``name`` are the catalog, and the optional ``layout.json`` (docs/viewer.md).
"""

from __future__ import annotations

import functools
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import msgspec


def _package_file(ruleset_id: str, name: str) -> Traversable | None:
    path = resources.files("engine.rulesets").joinpath(ruleset_id, name)
    return path if path.is_file() else None


@functools.cache
def cards(ruleset_id: str) -> bytes:
    """The catalog as a JSON array of card objects (``[]`` when the ruleset has no ``cards.json``)."""
    path = _package_file(ruleset_id, "cards.json")
    data = msgspec.json.decode(path.read_bytes()) if path is not None else {}
    found: list[Any] = []
    for value in data.values() if isinstance(data, dict) else ():
        if isinstance(value, list) and value and all(isinstance(v, dict) and "id" in v and "name" in v for v in value):
            found.extend(value)
    return msgspec.json.encode(found)


@functools.cache
def layout(ruleset_id: str) -> bytes:
    """The ruleset's ``layout.json`` as compact JSON, or ``b""`` when it has none."""
    path = _package_file(ruleset_id, "layout.json")
    return b"" if path is None else msgspec.json.encode(msgspec.json.decode(path.read_bytes()))
