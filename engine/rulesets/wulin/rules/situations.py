"""The families ``legal_commands`` asks, by the asking seat's situation, derived from the families' own gates.

A gate (``Family.gate``) reads only what a ``Situation`` holds: whose phase it is, the pending decision and
whose it is, an open truce offer, the concede option and the seat's once-per-phase flags. So each of the 320
situations is built as a probe state and every family's precheck and gate run on it once, at import: the
table restates no gate, and a family is skipped only where its gate refuses (the rule tests check the probe
against real states).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from typing import NamedTuple

from msgspec.structs import replace

from engine.errors import Rejected
from engine.legal import Family
from engine.rulesets.wulin.model import Options, State
from engine.rulesets.wulin.model.state import IN_PROGRESS, Pending, PendingBlock, PendingDefend, PendingLoss, Side
from engine.rulesets.wulin.rules.common import SEATS, precheck


class Situation(NamedTuple):
    """What the family gates look at, for one asking seat."""

    answering: str | None
    """The kind of decision the seat must answer, if any."""
    pending: bool
    active: bool
    offer: bool
    """A truce offer the seat may answer is open."""
    concede: bool
    consumable_used: bool
    play_used: bool
    discard_used: bool


_PENDING_KIND = {PendingDefend: "defend", PendingBlock: "block", PendingLoss: "choose_loss"}


def situation(state: State, seat: int) -> tuple[object, ...]:
    """The seat's ``Situation`` as a plain tuple: it finds its entry (a NamedTuple hashes and compares as one)
    without building the NamedTuple on every ``legal_commands``."""
    pending = state.pending
    answering = _PENDING_KIND[type(pending)] if pending is not None and pending.seat == seat else None
    side = state.sides[seat] if seat in SEATS else state.sides[0]
    return (
        answering,
        pending is not None,
        seat == state.active_seat,
        state.truce_offer is not None and state.truce_offer != seat,
        state.options.allow_concede,
        side.consumable_used,
        side.play_used,
        side.discard_used,
    )


def every_situation() -> Iterator[Situation]:
    """No decision, the other seat's, or one of this seat's three kinds; then the six flags."""
    for answering, pending in ((None, False), (None, True), ("defend", True), ("block", True), ("choose_loss", True)):
        for flags in product((False, True), repeat=6):
            yield Situation(answering, pending, *flags)


_DECISIONS: dict[str, Pending] = {
    "defend": PendingDefend(seat=0, attack_id=0, attackers=(), mode="single"),
    "block": PendingBlock(seat=0, weapon_id=0, attribute=None, atk=0, stat="hp"),
    "choose_loss": PendingLoss(seat=0, attack_id=0, options=()),
}


def probe(now: Situation) -> State:
    """A running match in which seat 0 is in the situation ``now`` (seat 1 holds the rest)."""
    pending: Pending | None = None
    if now.answering is not None:
        pending = _DECISIONS[now.answering]
    elif now.pending:
        pending = PendingDefend(seat=1, attack_id=0, attackers=(), mode="single")
    other = Side(hp=1, max_hp=1, qi=0, hero_attribute="metal")
    asking = replace(other, consumable_used=now.consumable_used, play_used=now.play_used, discard_used=now.discard_used)
    return State(
        options=Options(allow_concede=now.concede),
        sides=(asking, other),
        status=IN_PROGRESS,
        active_seat=0 if now.active else 1,
        pending=pending,
        truce_offer=1 if now.offer else None,
    )


def admits(family: Family[State], state: State, seat: int) -> bool:
    """Whether ``precheck`` and the family's gate let the seat's candidates of this family through."""
    try:
        precheck(state, seat, family.tag)
        if family.gate is not None:
            family.gate(state, seat)
    except Rejected:
        return False
    return True


def by_situation(families: Sequence[Family[State]]) -> dict[tuple[object, ...], tuple[Family[State], ...]]:
    """For every situation, the families (in their order) whose precheck and gate pass for seat 0 in it."""
    table: dict[tuple[object, ...], tuple[Family[State], ...]] = {}
    for now in every_situation():
        state = probe(now)
        table[now] = tuple([f for f in families if admits(f, state, 0)])
    return table
