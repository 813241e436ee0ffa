"""``legal_commands`` from the same checks ``decide`` runs, so legality has one source.

A ruleset lists its command families in the spec's canonical order. For each family the loop runs the
ruleset's ``precheck`` for the family's tag and the family's gate (the checks its candidates share); a
refusal there skips the whole family. Each canonical candidate then goes through the command's own check,
which raises ``Rejected`` exactly as it does inside ``decide``; a family whose candidates cannot be
generated in canonical order names a sort key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from engine.contract import Actor
from engine.errors import Rejected

S = TypeVar("S")


class Family(NamedTuple, Generic[S]):
    """One command family: its tag, its canonical candidates for a seat, and the checks ``decide`` runs."""

    tag: str
    candidates: Callable[[S, int], Iterable[Any]]
    check: Callable[[S, int, Any], object]
    """The command's check, as ``decide`` runs it; here always asked for a seat."""
    gate: Callable[[S, int], None] | None = None
    order: Callable[[Any], Any] | None = None
    """A sort key for the accepted candidates, for a family whose candidates are not generated in order."""


def legal(families: Sequence[Family[S]], precheck: Callable[[S, Actor, str], None], state: S, seat: int) -> list[Any]:
    """Every candidate of every family that passes precheck, gate and check, in family then candidate order."""
    accepted: list[Any] = []
    for tag, candidates, check, gate, order in families:
        try:
            precheck(state, seat, tag)
            if gate is not None:
                gate(state, seat)
        except Rejected:
            continue
        start = len(accepted)
        for cmd in candidates(state, seat):
            try:
                check(state, seat, cmd)
            except Rejected:
                continue
            accepted.append(cmd)
        if order is not None:
            accepted[start:] = sorted(accepted[start:], key=order)
    return accepted
