"""Targets against their specs (duel.md §8.7 check 9, §8.9): one test used by activation and triggers."""

from __future__ import annotations

from engine.errors import Rejected
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.data import CATALOG, TargetSpec
from engine.rulesets.duel.model.state import (
    SEATS,
    SLOTS,
    GraveyardRef,
    MonsterRef,
    SpellTrapRef,
    State,
    TargetRef,
    card_of,
)

_MISFIT = "that target does not fit this card"


def check_target(state: State, seat: int, spec: TargetSpec, ref: TargetRef, source: str) -> None:
    """§8.7 check 9: raises ``Rejected`` with the code of the first failed check unless ``ref`` fits ``spec``.

    ``seat`` is the effect's controller (sides are relative to it); ``source`` is the effect's own card.
    """
    found = _locate(state, spec, ref)
    if found is None:
        raise Rejected(Code.TARGET_INVALID, _MISFIT)
    holder, instance, card_id, position, face_up = found
    if (spec.side == "self" and holder != seat) or (spec.side == "opponent" and holder == seat):
        raise Rejected(Code.TARGET_INVALID, _MISFIT)
    if spec.face == "up" and not face_up:
        raise Rejected(Code.TARGET_FACE_DOWN, _MISFIT)
    if spec.positions is not None and position not in spec.positions:
        raise Rejected(Code.TARGET_INVALID, _MISFIT)
    if spec.category is not None and CATALOG[card_id].category != spec.category:
        raise Rejected(Code.TARGET_INVALID, _MISFIT)
    if spec.not_self and instance == source:
        raise Rejected(Code.TARGET_INVALID, _MISFIT)


def _locate(state: State, spec: TargetSpec, ref: TargetRef) -> tuple[int, str, str, str | None, bool] | None:
    """(holding seat, instance, card id, position, face-up) of the card ``ref`` names in the spec's zone."""
    if spec.zone == "monster" and isinstance(ref, MonsterRef):
        monster = state.sides[ref.seat].monsters[ref.slot]
        if monster is None:
            return None
        return ref.seat, monster.instance, monster.card_id, monster.position, monster.face_up
    if spec.zone == "spell_trap" and isinstance(ref, SpellTrapRef):
        card = state.sides[ref.seat].spell_traps[ref.slot]
        if card is None:
            return None
        return ref.seat, card.instance, card.card_id, None, card.face_up
    if spec.zone == "graveyard" and isinstance(ref, GraveyardRef):
        for seat in SEATS:
            if ref.instance in state.sides[seat].graveyard:
                return seat, ref.instance, card_of(state, ref.instance), None, True
    return None


def all_refs(state: State, zone: str) -> list[TargetRef]:
    """Every occupied reference of a zone in canonical order (§8.2)."""
    if zone == "graveyard":
        return [GraveyardRef(i) for seat in SEATS for i in state.sides[seat].graveyard]
    if zone == "monster":
        return [MonsterRef(s, slot) for s in SEATS for slot in SLOTS if state.sides[s].monsters[slot] is not None]
    return [SpellTrapRef(s, slot) for s in SEATS for slot in SLOTS if state.sides[s].spell_traps[slot] is not None]


def candidates(state: State, seat: int, spec: TargetSpec, source: str) -> list[TargetRef]:
    """Every reference that fits ``spec`` now, in canonical order (§8.2, §8.9)."""
    fitting = []
    for ref in all_refs(state, spec.zone):
        try:
            check_target(state, seat, spec, ref, source)
        except Rejected:
            continue
        fitting.append(ref)
    return fitting
