"""Scenario helpers for card_monsters: a ``given`` state builder, one-command runs and rejections.

Cards are written ``("0:5", "M04")`` (instance label, catalog id); as in spec §14, labels are free, so a
builder state maps exactly the labels it mentions. Unless told otherwise each seat keeps one filler
monster in its pile, so nobody is eliminated by accident (§14 conventions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.rulesets.card_monsters import RULESET
from engine.rulesets.card_monsters.data import (
    CATALOG,
    PRESETS,
    MonsterCard,
    max_hp_bonus,
)
from engine.rulesets.card_monsters.model import (
    AttackHit,
    HitKind,
    Monster,
    Options,
    Side,
    State,
)
from tests.engine.scenario import Scenario

CardRef = tuple[str, str]
NO_PILE: tuple[CardRef, ...] = ()


class SideSpec(msgspec.Struct, frozen=True):
    """One seat of a ``given`` board; ``monster_pile=None`` means one filler monster."""

    field: tuple[Monster, ...] = ()
    hand_monsters: tuple[CardRef, ...] = ()
    hand_items: tuple[CardRef, ...] = ()
    monster_pile: tuple[CardRef, ...] | None = None
    item_pile: tuple[CardRef, ...] = ()
    discard: tuple[CardRef, ...] = ()
    crystals: int = 0
    sacrifice_used: bool = False
    losses: int = 0


def mon(
    card: str, card_id: str, hp: int | None = None, max_hp: int | None = None, equipment: CardRef | None = None
) -> Monster:
    """A field monster; hp and max_hp default to the catalog value plus the equipment's HP bonus."""
    entry = CATALOG[card_id]
    assert isinstance(entry, MonsterCard)
    equipment_id = equipment[1] if equipment else None
    full = entry.max_hp + max_hp_bonus(equipment_id)
    max_hp = full if max_hp is None else max_hp
    hp = max_hp if hp is None else hp
    return Monster(card, card_id, hp, max_hp, equipment[0] if equipment else None, equipment_id)


def side(**fields: Any) -> SideSpec:
    """A ``SideSpec`` with tuple-converted fields (lists are accepted for brevity)."""
    converted: dict[str, Any] = {name: tuple(v) if isinstance(v, list) else v for name, v in fields.items()}
    return SideSpec(**converted)


def given(
    s0: SideSpec = SideSpec(), s1: SideSpec = SideSpec(), *, active: int = 0, turn: int = 5, **options: int
) -> State:
    """A main-phase state with exactly these boards, hands, piles and counters."""
    card_ids: dict[str, str] = {}
    sides = []
    for seat, spec in enumerate((s0, s1)):
        pile = spec.monster_pile if spec.monster_pile is not None else ((f"{seat}:99", "M09"),)
        refs = [*spec.hand_monsters, *spec.hand_items, *pile, *spec.item_pile, *spec.discard]
        refs += [(m.card, m.card_id) for m in spec.field]
        refs += [(m.equipment, m.equipment_id) for m in spec.field if m.equipment and m.equipment_id]
        for card, card_id in refs:
            assert card_ids.setdefault(card, card_id) == card_id, f"label {card} used for two cards"
        field = (*spec.field, *(None,) * (3 - len(spec.field)))
        sides.append(
            Side(
                monster_pile=_ids(pile),
                item_pile=_ids(spec.item_pile),
                hand_monsters=_ids(spec.hand_monsters),
                hand_items=_ids(spec.hand_items),
                field=field,
                discard=_ids(spec.discard),
                crystals=spec.crystals,
                sacrifice_used=spec.sacrifice_used,
                losses=spec.losses,
            )
        )
    return State(
        options=Options(**options),
        decks=(PRESETS["starter_a"], PRESETS["starter_b"]),
        card_ids=card_ids,
        sides=tuple(sides),
        turn=turn,
        active=active,
        status="main",
    )


def _ids(refs: Sequence[CardRef]) -> tuple[str, ...]:
    return tuple(card for card, _ in refs)


_scenario = Scenario(RULESET)
fold, run, rejection = _scenario.fold, _scenario.run, _scenario.rejection


def hit(
    seat: int, origin: int, kind: str, hit_kind: HitKind, target_position: int, target: str, amount: int, hp: int
) -> AttackHit:
    """§14's abbreviated ``AttackHit{from, type, hit, target_pos, target, amount, hp}`` for attacker ``seat``."""
    return AttackHit(seat, origin, kind, hit_kind, 1 - seat, target_position, target, amount, hp)
