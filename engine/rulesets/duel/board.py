"""Read-only questions about the field that rules, resolution and views share (duel.md §3.5, §8.2, §8.6).

Ordering follows §8.2: seat 0 before seat 1, then slot ascending; graveyards by (owner, index).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.rulesets.duel.data import ATTACK_LOCK, CATALOG, Equip
from engine.rulesets.duel.model.state import SEATS, SLOTS, Monster, Side, SpellTrap, State

EQUIP_ATK: dict[str, int] = {
    card.id: step.atk
    for card in CATALOG.values()
    if card.effect.activate
    for step in card.effect.activate.steps
    if isinstance(step, Equip)
}
"""ATK bonus of each equip card (§8.8 ``equip``)."""


def atk(state: State, monster: Monster) -> int:
    """§3.5: printed ATK plus the bonus of every face-up equip card attached to the monster."""
    return atk_with(monster, [card for _, _, card in equips_of(state, monster.instance)])


def atk_with(monster: Monster, equips: Iterable[SpellTrap]) -> int:
    """``atk`` given the equip cards attached to the monster."""
    return CATALOG[monster.card_id].atk + sum(EQUIP_ATK.get(c.card_id, 0) for c in equips if c.face_up)


def equipment(state: State) -> dict[str, list[SpellTrap]]:
    """Equip cards by the instance they are attached to, each list in §8.2 order."""
    found: dict[str, list[SpellTrap]] = {}
    for side in state.sides:
        for card in side.spell_traps:
            if card is not None and card.equipped_to is not None:
                found.setdefault(card.equipped_to, []).append(card)
    return found


def defense(monster: Monster) -> int:
    """§3.5: ``def(m)`` is the printed DEF."""
    return CATALOG[monster.card_id].defense


def free_slot(row: tuple[object | None, ...]) -> int | None:
    """The lowest free slot of a five-slot row (§8.2), or None when it is full."""
    for slot in SLOTS:
        if row[slot] is None:
            return slot
    return None


def monster_count(side: Side) -> int:
    return len(side.monsters) - side.monsters.count(None)


def occupied(side: Side) -> list[int]:
    """Slots holding a monster, ascending."""
    return [slot for slot in SLOTS if side.monsters[slot] is not None]


def window_eligible(state: State, seat: int) -> bool:
    """§8.6: the seat controls at least one face-down spell/trap card (public information)."""
    return any(card is not None and not card.face_up for card in state.sides[seat].spell_traps)


def attacks_forbidden(state: State, seat: int) -> bool:
    """The opponent of ``seat`` controls a face-up ``opponent_monsters_cannot_attack`` card (§8.8)."""
    return any(
        card is not None and card.face_up and card.card_id in ATTACK_LOCK for card in state.sides[1 - seat].spell_traps
    )


def monster_slot(side: Side, instance: str) -> int | None:
    """The slot of a monster on this side, or None."""
    for slot in SLOTS:
        monster = side.monsters[slot]
        if monster is not None and monster.instance == instance:
            return slot
    return None


def spell_trap_slot(side: Side, instance: str) -> int | None:
    """The slot of a spell/trap card on this side, or None."""
    for slot in SLOTS:
        card = side.spell_traps[slot]
        if card is not None and card.instance == instance:
            return slot
    return None


def equips_of(state: State, instance: str) -> Iterator[tuple[int, int, SpellTrap]]:
    """(seat, slot, card) of every equip card attached to ``instance``, in §8.2 order."""
    for seat in SEATS:
        for slot, card in enumerate(state.sides[seat].spell_traps):
            if card is not None and card.equipped_to == instance:
                yield seat, slot, card
