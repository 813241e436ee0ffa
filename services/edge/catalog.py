"""What viewers need besides views: a ruleset's card catalog and its board layout description.

Both are files of the ruleset's package (``engine/rulesets/<id>/``, or a frozen older version's own package):
``cards.json``, whose top-level lists of
objects with an ``id`` and a ``name`` are the catalog, and the optional ``layout.json`` (docs/viewer.md).
"""

from __future__ import annotations

import functools
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import msgspec

from engine.contract import Ruleset


def package(ruleset: Ruleset) -> str:
    """The package a ruleset version comes from: the one of its ``setup`` module (docs/adding-a-ruleset.md), so
    that each hosted version serves its own card data, not the newest one's."""
    return ruleset.configure.__module__.rpartition(".")[0]


def _package_file(package: str, name: str) -> Traversable | None:
    path = resources.files(package).joinpath(name)
    return path if path.is_file() else None


@functools.cache
def cards(package: str) -> bytes:
    """The catalog as a JSON array of card objects (``[]`` when the ruleset has no ``cards.json``)."""
    path = _package_file(package, "cards.json")
    data = msgspec.json.decode(path.read_bytes()) if path is not None else {}
    found: list[Any] = []
    for value in data.values() if isinstance(data, dict) else ():
        if isinstance(value, list) and value and all(isinstance(v, dict) and "id" in v and "name" in v for v in value):
            found.extend(value)
    return msgspec.json.encode(found)


@functools.cache
def layout(package: str) -> bytes:
    """The ruleset's ``layout.json`` as compact JSON, or ``b""`` when it has none."""
    path = _package_file(package, "layout.json")
    return b"" if path is None else msgspec.json.encode(msgspec.json.decode(path.read_bytes()))
