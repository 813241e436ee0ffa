"""The aq catalog (aq.md §3, §13): pets, skills and boxes, loaded once from ``cards.json`` through msgspec.

Besides the catalog Structs this module precomputes the lookups the hot paths use (attack, attribute
masks, counter masks, hidden-information bits) so that rules and the fold never parse an id twice.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

import msgspec

_PATH = Path(__file__).with_name("cards.json")

Op = Literal[
    "reverse_direction",
    "skip_next_phase",
    "give_card",
    "cover_reserve",
    "remove_card",
    "all_playable_this_phase",
    "target_draws_from_field",
    "set_reserve_cap_this_phase",
]


class Pet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§3.1, §13.2: a pet number (both copies share it)."""

    id: str
    name: str
    attack: int
    attributes: tuple[str, ...]


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§13.1: a skill's op with its parameter (``count`` for Burden, ``value`` for Greed)."""

    op: Op
    count: int = 0
    value: int = 0


class Needs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§13.3: which ``use_skill`` fields the effect requires."""

    card: bool
    target_seat: bool


class Skill(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§3.3, §13.3."""

    id: str
    name: str
    effect: Effect
    needs: Needs


class BoxSkill(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    copies: int


class Box(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§13.4: a preset; every box holds every pet in every copy, and its own skill deck."""

    name: str
    title: str
    skills: tuple[BoxSkill, ...]


class Catalog(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    wheel: tuple[str, ...]
    pet_copies: tuple[str, ...]
    pets: tuple[Pet, ...]
    skills: tuple[Skill, ...]
    boxes: tuple[Box, ...]


_BYTES = _PATH.read_bytes()
CARD_DATA_HASH = hashlib.sha256(_BYTES).hexdigest()
CATALOG = msgspec.json.decode(_BYTES, type=Catalog)

# §3.2: each attribute counters the next one on the wheel.
_ATTR_BIT = {name: 1 << i for i, name in enumerate(CATALOG.wheel)}
_COUNTERS_BIT = {name: 1 << ((i + 1) % len(CATALOG.wheel)) for i, name in enumerate(CATALOG.wheel)}

PETS: dict[str, Pet] = {}
"""Pet by instance id ("Mon.07b"), all copies."""
for _pet in CATALOG.pets:
    for _copy in CATALOG.pet_copies:
        PETS[_pet.id + _copy] = _pet

ATTACK = {iid: pet.attack for iid, pet in PETS.items()}
ATTRS = {iid: sum(_ATTR_BIT[a] for a in pet.attributes) for iid, pet in PETS.items()}
"""Attribute bitmask per pet instance (0 = attributeless)."""
COUNTERS = {iid: sum(_COUNTERS_BIT[a] for a in pet.attributes) for iid, pet in PETS.items()}
"""Bitmask of the attributes a pet counters; distinct attributes counter distinct ones (§3.2)."""

SKILLS_BY_ID = {skill.id: skill for skill in CATALOG.skills}
BOXES = {box.name: box for box in CATALOG.boxes}


def box_skills(box: str) -> tuple[str, ...]:
    """The box's skill instances ("SK01-1" …) in canonical order (§3.3, §13.4)."""
    return tuple(f"{entry.id}-{k}" for entry in BOXES[box].skills for k in range(1, entry.copies + 1))


def pets_for(players: int) -> tuple[str, ...]:
    """D2: copy a of each number for up to 4 players, both copies from 5; canonical order."""
    copies = CATALOG.pet_copies[:1] if players <= 4 else CATALOG.pet_copies
    return tuple(pet.id + c for pet in CATALOG.pets for c in copies)


SKILLS: dict[str, Skill] = {iid: SKILLS_BY_ID[iid.split("-")[0]] for box in BOXES for iid in box_skills(box)}
"""Skill by instance id ("SK03-1")."""

BIT: dict[str, int] = {iid: 1 << i for i, iid in enumerate([*PETS, *sorted(SKILLS)])}
"""One bit per pet and skill instance: the state's record of which ids were ever shown publicly (§11)."""


def bits(ids: tuple[str, ...]) -> int:
    """The union of the ids' bits."""
    mask = 0
    for iid in ids:
        mask |= BIT[iid]
    return mask


def pairs(card: str, on: str) -> int:
    """§8.1 ``pairs(c, f)``: counter pairs of the card against the field card."""
    return (COUNTERS[card] & ATTRS[on]).bit_count()


def beats(card: str, on: str) -> bool:
    """§8.1 ``beats(c, f)``: strictly higher attack."""
    return ATTACK[card] > ATTACK[on]


def playable(card: str, on: str) -> bool:
    """§8.1: attributeless, or at least one counter pair, or higher attack (D6)."""
    return not ATTRS[card] or bool(COUNTERS[card] & ATTRS[on]) or ATTACK[card] > ATTACK[on]


def allowance(card: str, on: str, cap: int) -> int:
    """§8.1, D7: one reserve per counter pair plus one for higher attack, capped."""
    return min(cap, pairs(card, on) + (1 if beats(card, on) else 0))


def shares_attribute(a: str, b: str) -> bool:
    """D10: a learning cost needs one attribute in common (attributeless pets share none)."""
    return bool(ATTRS[a] & ATTRS[b])


HAND_SIZE = {2: 12, 3: 10, 4: 8, 5: 13, 6: 11}
"""§3.6 (D3): hand size per player count; the field is the remainder."""

PRESETS = {
    name: {"title": box.title, "pets": list(pets_for(6)), "skills": list(box_skills(name))}
    for name, box in BOXES.items()
}
