"""Tables keyed by the exact type of each member of a tagged union (a ruleset's Command or Event).

One dict lookup finds a command's decider or an event's fold, where a ``match`` pays an isinstance call per
case it tries (slow on msgspec's Struct metaclass). Each table is checked, when built, to cover its union
exactly: a type added to the union without its entry fails at import, not in the middle of a match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeAlias, TypeVar, get_args

from engine.contract import Actor
from engine.rng import Rng
from engine.tape import Tape

T = TypeVar("T")
S = TypeVar("S")
E = TypeVar("E")

Decider: TypeAlias = Callable[[Tape[S, E], Actor, Any, Rng], None]
"""Every ruleset's decide step for one command type: check, then emit onto the tape. The actor and the RNG
are passed to all, so a game that needs neither pays only two arguments (no wrapper, no second signature);
a seat-only command reads its seat with ``engine.contract.seat_of``, ``precheck`` having refused the rest."""


def by_type(union: Any, table: dict[type, T]) -> dict[type, T]:
    """``table`` itself, once it is known to hold one entry per member of ``union`` and no other."""
    members = set(get_args(union))
    if set(table) != members:
        names = sorted(t.__name__ for t in set(table) ^ members)
        raise TypeError(f"the table does not match the union: {', '.join(names)}")
    return table


def deciders(union: Any, entries: Iterable[tuple[type, Decider[S, E]]]) -> dict[type, tuple[str, Decider[S, E]]]:
    """A ruleset's decide table: each command type with its tag (what ``precheck`` takes) and its decider."""
    return by_type(union, {command: (str(command.__struct_config__.tag), decide) for command, decide in entries})  # type: ignore[attr-defined]
