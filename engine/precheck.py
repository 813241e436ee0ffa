"""The checks every ruleset runs before a command's fields: is the match over, is it this actor's move.

A ruleset's ``precheck`` calls ``check_common`` with its own codes and adds what its spec orders
differently. Kinds named in ``system`` (timeouts, the forfeit) are the system's alone and are checked for the actor
before the match state, so a seat sending one learns NOT_SYSTEM even after the match ended; ``admin`` kinds
(referee rulings) likewise; ``anytime`` kinds (concession) need only a running match.
"""

from __future__ import annotations

from collections.abc import Collection

from engine.contract import ADMIN, FORFEIT, SYSTEM, Actor
from engine.errors import MATCH_OVER, NOT_ADMIN, NOT_SYSTEM, NOT_YOUR_TURN, Rejected


def check_common(
    kind: str,
    actor: Actor,
    *,
    over: bool,
    acting: Collection[int],
    system: Collection[str] = ("timeout", FORFEIT),
    admin: Collection[str] = (),
    anytime: Collection[str] = ("concede",),
    not_your_turn: str = NOT_YOUR_TURN,
) -> None:
    """Raise the first common refusal for ``kind`` from ``actor``; ``acting`` holds the seats that may move."""
    if kind in system:
        if actor != SYSTEM:
            raise Rejected(NOT_SYSTEM, "only the system sends this command")
    elif kind in admin and actor != ADMIN:
        raise Rejected(NOT_ADMIN, "only a referee sends this command")
    if over:
        raise Rejected(MATCH_OVER, "the match is over")
    if kind in system or kind in admin or kind in anytime:
        return
    if actor not in acting:
        raise Rejected(not_your_turn, "it is not your turn")
