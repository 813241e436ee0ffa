"""Tables keyed by the exact type of each member of a tagged union (a ruleset's Command or Event).

One dict lookup finds a command's decider or an event's fold, where a ``match`` pays an isinstance call per
case it tries (slow on msgspec's Struct metaclass). Each table is checked, when built, to cover its union
exactly: a type added to the union without its entry fails at import, not in the middle of a match.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar, get_args

T = TypeVar("T")


def by_type(union: Any, table: dict[type, T]) -> dict[type, T]:
    """``table`` itself, once it is known to hold one entry per member of ``union`` and no other."""
    members = set(get_args(union))
    if set(table) != members:
        names = sorted(t.__name__ for t in set(table) ^ members)
        raise TypeError(f"the table does not match the union: {', '.join(names)}")
    return table


def deciders(union: Any, entries: Iterable[tuple[type, T]]) -> dict[type, tuple[str, T]]:
    """A ruleset's decide table: each command type with its tag (what ``precheck`` takes) and its decider."""
    return by_type(union, {command: (str(command.__struct_config__.tag), decide) for command, decide in entries})  # type: ignore[attr-defined]
