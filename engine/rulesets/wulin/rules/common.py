"""The common checks of wulin.md §7 (R0, R1) and the gates every command of a family shares (OWN, ANY,
RESP(k)), with the field lookups the checks build on."""

from __future__ import annotations

from typing import Any

from engine.contract import ADMIN, FORFEIT, Actor
from engine.errors import Rejected
from engine.precheck import check_common
from engine.rulesets.wulin.codes import Code
from engine.rulesets.wulin.model import State
from engine.rulesets.wulin.model.state import (
    ENDED,
    FieldCard,
    FieldZone,
    PendingBlock,
    PendingDefend,
    PendingLoss,
    Side,
)

SEATS = (0, 1)
_NOT_SEAT = frozenset({"timeout", FORFEIT, "referee_ruling"})


def precheck(state: State, actor: Actor, kind: str) -> None:
    """R0 (the actor's role) then R1 (MATCH_OVER): the checks that precede field decoding.

    Unlike the engine's default order, R0 comes first for seat commands too (NOT_A_PLAYER), and the referee's
    code is NOT_REFEREE.
    """
    if actor in SEATS and kind not in _NOT_SEAT and state.status != ENDED:
        return  # the common case, first: a seat's command in a running match
    if kind == "referee_ruling":
        if actor != ADMIN:
            raise Rejected(Code.NOT_REFEREE, "only the referee rules")
    elif kind not in _NOT_SEAT and actor not in SEATS:
        raise Rejected(Code.NOT_A_PLAYER, "only a seat plays this command")
    check_common(kind, actor, over=state.status == ENDED, acting=SEATS, admin=("referee_ruling",), anytime=())


def player_seat(actor: Actor) -> int:
    if not isinstance(actor, int) or actor not in (0, 1):
        raise Rejected(Code.NOT_A_PLAYER, "only a seat plays this command")
    return actor


def gate_own(state: State, seat: int) -> None:
    """Gate OWN: the seat's own phase with no decision pending."""
    if seat != state.active_seat:
        raise Rejected(Code.NOT_YOUR_PHASE, "it is not your phase")
    if state.pending is not None:
        raise Rejected(Code.DECISION_PENDING, "a decision is pending")


def gate_any(state: State, seat: int) -> None:
    """Gate ANY: either seat, unless the other one must answer a decision."""
    if state.pending is not None and state.pending.seat != seat:
        raise Rejected(Code.DECISION_PENDING, "the other seat must answer a decision")


def respond(state: State, seat: int, kind: type) -> Any:
    """Gate RESP(k): the pending decision of this seat, of this kind."""
    pending = state.pending
    if pending is None or pending.seat != seat:
        raise Rejected(Code.NO_PENDING_DECISION, "you have no decision to answer")
    if type(pending) is not kind:
        raise Rejected(Code.WRONG_DECISION, "that answers another decision")
    return pending


def gate_defend(state: State, seat: int) -> None:
    respond(state, seat, PendingDefend)


def gate_block(state: State, seat: int) -> None:
    respond(state, seat, PendingBlock)


def gate_loss(state: State, seat: int) -> None:
    respond(state, seat, PendingLoss)


def field_card(side: Side, iid: str) -> tuple[FieldCard, FieldZone] | None:
    for card in side.battle_zone:
        if card.iid == iid:
            return card, "battle_zone"
    for card in side.skill_zone:
        if card.iid == iid:
            return card, "skill_zone"
    return None


def battle_zone_card(side: Side, iid: str) -> FieldCard | None:
    for card in side.battle_zone:
        if card.iid == iid:
            return card
    return None


def afford(side: Side, cost: int) -> None:
    if side.qi < cost:
        raise Rejected(Code.INSUFFICIENT_QI, f"costs {cost} qi, you have {side.qi}")
