"""The starter catalog and the preset decks (card_monsters.md §13), loaded once from cards.json.

``CARD_DATA_HASH`` is the SHA-256 of the file's bytes. The lookups below are precomputed at import so
that combat and ``legal_commands`` never walk modifier lists.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Literal

import msgspec

Colour = Literal["red", "green", "blue"]
AttackType = Literal["magic", "ranged", "melee", "random"]
Trait = Literal["long_reach", "double_strike", "aoe"]

ATTACK_TYPES: tuple[AttackType, ...] = ("magic", "ranged", "melee", "random")

Cost = Annotated[int, msgspec.Meta(ge=0, le=5)]
Bonus = Annotated[int, msgspec.Meta(ge=0, le=3)]
AttackValue = Annotated[int, msgspec.Meta(ge=0, le=20)]
Amount20 = Annotated[int, msgspec.Meta(ge=1, le=20)]
Amount10 = Annotated[int, msgspec.Meta(ge=1, le=10)]


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Attack(_Data, frozen=True):
    """Attack values by type (0 = no attack of that type)."""

    magic: AttackValue = 0
    ranged: AttackValue = 0
    melee: AttackValue = 0
    random: AttackValue = 0


class AddAttack(_Data, tag_field="op", tag="add_attack", frozen=True):
    attack_type: AttackType
    amount: Amount10


class AddMaxHp(_Data, tag_field="op", tag="add_max_hp", frozen=True):
    amount: Amount20


class GrantTrait(_Data, tag_field="op", tag="grant_trait", frozen=True):
    trait: Trait


class Heal(_Data, tag_field="op", tag="heal", frozen=True):
    target: Literal["own_monster"]
    amount: Amount20


class Damage(_Data, tag_field="op", tag="damage", frozen=True):
    target: Literal["enemy_monster"]
    amount: Amount20


class GainCrystals(_Data, tag_field="op", tag="gain_crystals", frozen=True):
    amount: Amount10


Modifier = AddAttack | AddMaxHp | GrantTrait
Effect = Heal | Damage | GainCrystals


class MonsterCard(_Data, tag_field="kind", tag="monster", frozen=True):
    id: str
    name: str
    colour: Colour
    cost: Cost
    max_hp: Annotated[int, msgspec.Meta(ge=1, le=30)]
    attack: Attack
    traits: tuple[Trait, ...] = ()
    sacrifice_bonus: Bonus = 0


class EquipmentCard(_Data, tag_field="kind", tag="equipment", frozen=True):
    id: str
    name: str
    colour: Literal["red", "green", "blue", "grey"]
    cost: Cost
    modifiers: tuple[Modifier, ...]
    sacrifice_bonus: Bonus = 0


class ConsumableCard(_Data, tag_field="kind", tag="consumable", frozen=True):
    id: str
    name: str
    cost: Cost
    effect: Effect
    sacrifice_bonus: Bonus = 0


Card = MonsterCard | EquipmentCard | ConsumableCard


class CardData(_Data, frozen=True):
    """The file's shape: the catalog and the preset decks (list order defines instance indexes, §13.4)."""

    cards: tuple[Card, ...]
    presets: dict[str, tuple[str, ...]]


class Profile(msgspec.Struct, frozen=True):
    """A monster's effective values with one piece of equipment (or none), §3.3."""

    attacks: tuple[tuple[AttackType, int], ...]
    """Non-zero attacks in resolution order (magic, ranged, melee, random; D11)."""
    traits: frozenset[str]
    trait_names: tuple[str, ...]
    """The traits sorted by name (for views)."""
    values: tuple[int, int, int, int]
    """All four attack values in ``ATTACK_TYPES`` order, zeros included (for views)."""


_BYTES = Path(__file__).with_name("cards.json").read_bytes()
CARD_DATA_HASH = hashlib.sha256(_BYTES).hexdigest()
_DATA = msgspec.json.decode(_BYTES, type=CardData)

CATALOG: dict[str, Card] = {card.id: card for card in _DATA.cards}
PRESETS: dict[str, tuple[str, ...]] = dict(_DATA.presets)


def max_hp_bonus(equipment_id: str | None) -> int:
    """Σ ``add_max_hp`` of an equipment card (0 for none), §8.2."""
    if equipment_id is None:
        return 0
    card = CATALOG[equipment_id]
    assert isinstance(card, EquipmentCard)
    return sum(m.amount for m in card.modifiers if isinstance(m, AddMaxHp))


def _profile(monster: MonsterCard, equipment: EquipmentCard | None) -> Profile:
    modifiers = equipment.modifiers if equipment is not None else ()
    values = tuple(
        getattr(monster.attack, t) + sum(m.amount for m in modifiers if isinstance(m, AddAttack) and m.attack_type == t)
        for t in ATTACK_TYPES
    )
    traits = frozenset(monster.traits) | {m.trait for m in modifiers if isinstance(m, GrantTrait)}
    return Profile(
        attacks=tuple((t, v) for t, v in zip(ATTACK_TYPES, values, strict=False) if v),
        traits=traits,
        trait_names=tuple(sorted(traits)),
        values=(values[0], values[1], values[2], values[3]),
    )


def _profiles() -> dict[tuple[str, str | None], Profile]:
    monsters = [c for c in CATALOG.values() if isinstance(c, MonsterCard)]
    equipment: list[EquipmentCard | None] = [None, *(c for c in CATALOG.values() if isinstance(c, EquipmentCard))]
    return {(m.id, e.id if e else None): _profile(m, e) for m in monsters for e in equipment}


PROFILES = _profiles()
"""Effective attacks and traits by (monster id, equipment id or None)."""

MONSTER_COLOURS: dict[str, Colour] = {c.id: c.colour for c in CATALOG.values() if isinstance(c, MonsterCard)}
"""Each monster's colour by catalog id, for the equip check's colour rule."""
EQUIPMENT_IDS = frozenset(c.id for c in CATALOG.values() if isinstance(c, EquipmentCard))
"""The catalog ids of equipment, so equip candidates need no catalog entry."""
