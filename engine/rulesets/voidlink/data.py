"""The starter catalog and the preconstructed decks (docs/rulesets/voidlink.md §13), loaded once from cards.json.

``CARD_DATA_HASH`` is the SHA-256 of the file's bytes. Effects are data (§13.1): conditions, target specs, filters
and step verbs are msgspec Structs, so the file is validated when it loads.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Literal

import msgspec

System = Literal["void", "reality"]
Position = Literal["attack", "defence"]
Form = Literal["void_attack", "void_defence", "reality_attack", "reality_defence"]
Race = Literal["warrior", "machine", "beast", "specter", "spellcaster", "dragon", "human"]
Attribute = Literal["light", "dark", "fire", "earth", "water", "wind"]
Pool = Literal["hp", "lp"]

FORMS: tuple[Form, ...] = ("void_attack", "void_defence", "reality_attack", "reality_defence")
SYSTEMS: tuple[System, ...] = ("void", "reality")

Stat = Annotated[int, msgspec.Meta(ge=0, le=9999)]
Life = Annotated[int, msgspec.Meta(ge=1, le=99999)]


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


# --- §13.1 the effect vocabulary ---------------------------------------------------------------------------


class Filter(_Data, frozen=True):
    """What a target or material must be; every given key must hold (§8.8)."""

    type: Literal["monster", "myth_monster", "any_monster"] | None = None
    level_max: int | None = None
    name: str | None = None
    system: System | None = None


class TargetSpec(_Data, frozen=True):
    zone: Literal["field", "own_hand", "own_graveyard"]
    filter: Filter
    controller: Literal["self", "opponent", "any"] = "any"


class HpOrLpAtMost(_Data, frozen=True):
    hp_or_lp_at_most: int


Condition = (
    Literal["defending_attack", "responding_to_link", "control_no_monsters", "opponent_controls_more_monsters"]
    | HpOrLpAtMost
)


class AllMonsters(_Data, frozen=True):
    all_monsters: Literal["self", "opponent"]


Subject = Literal["self", "target0", "attacker"] | AllMonsters


class _Step(_Data, tag_field="verb", frozen=True):
    pass


class Draw(_Step, tag="draw", frozen=True):
    who: Literal["self", "both"]
    n: int


class DealDamage(_Step, tag="deal_damage", frozen=True):
    who: Literal["opponent", "both"]
    pool: Literal["hp", "lp", "source_system"]
    amount: int


class Gain(_Step, tag="gain", frozen=True):
    pool: Literal["hp", "lp", "source_system"]
    amount: int


class ModifyAtk(_Step, tag="modify_atk", frozen=True):
    subject: Subject
    amount: int


class Destroy(_Step, tag="destroy", frozen=True):
    subject: Subject


class FlipSystem(_Step, tag="flip_system", frozen=True):
    subject: Subject


class SpecialSummon(_Step, tag="special_summon", frozen=True):
    subject: Literal["target0"]


class NegateAttack(_Step, tag="negate_attack", frozen=True):
    pass


class NegateAndDestroy(_Step, tag="negate_and_destroy", frozen=True):
    pass


class DelayedEndPhase(_Step, tag="delayed_end_phase", frozen=True):
    steps: tuple[Step, ...]


class AddCounter(_Step, tag="add_counter", frozen=True):
    counter: str
    n: int


class WinIfCounter(_Step, tag="win_if_counter", frozen=True):
    counter: str
    at_least: int


Step = (
    Draw
    | DealDamage
    | Gain
    | ModifyAtk
    | Destroy
    | FlipSystem
    | SpecialSummon
    | NegateAttack
    | NegateAndDestroy
    | DelayedEndPhase
    | AddCounter
    | WinIfCounter
)


class Effect(_Data, frozen=True):
    kind: Literal["activated", "on_summon", "end_phase"]
    steps: tuple[Step, ...]
    condition: Condition | None = None
    targets: tuple[TargetSpec, ...] = ()
    form_choice: bool = False


# --- §3.2 cards --------------------------------------------------------------------------------------------


class Face(_Data, frozen=True):
    atk: Stat
    def_: Stat = msgspec.field(name="def")
    effects: tuple[Effect, ...] = ()


class Faces(_Data, frozen=True):
    void: Face
    reality: Face


class DeckRestriction(_Data, frozen=True):
    forbidden_archetypes: tuple[str, ...] = ()
    allowed_monster_races: tuple[Race, ...] | None = None


class TacticsRestriction(_Data, frozen=True):
    commander_ids: tuple[str, ...] | None = None
    commander_races: tuple[Race, ...] | None = None


class _Card(_Data, tag_field="type", frozen=True):
    id: str
    name: str
    archetypes: tuple[str, ...]


class MonsterCard(_Card, tag="monster", frozen=True):
    level: Annotated[int, msgspec.Meta(ge=1, le=12)]
    race: Race
    attribute: Attribute
    faces: Faces


class MythCard(_Card, tag="myth_monster", frozen=True):
    system: System
    race: Race
    attribute: Attribute
    atk: Stat
    def_: Stat = msgspec.field(name="def")
    effects: tuple[Effect, ...] = ()
    materials: tuple[Filter, ...] = ()


class MagicCard(_Card, tag="magic", frozen=True):
    effect: Effect


class CombinationCard(_Card, tag="combination_magic", frozen=True):
    materials: tuple[Filter, ...]
    effect: Effect


class CommanderCard(_Card, tag="commander", frozen=True):
    race: Race
    attribute: Attribute
    hp: Life
    lp: Life
    ability: Effect
    deck_restriction: DeckRestriction


class TacticsCard(_Card, tag="tactics", frozen=True):
    restriction: TacticsRestriction | None
    effect: Effect


Card = MonsterCard | MythCard | MagicCard | CombinationCard | CommanderCard | TacticsCard


class PresetDeck(_Data, frozen=True):
    """A deck list (§4): main and extra as [card id, count] entries, the commander deck as card ids."""

    main: tuple[tuple[str, int], ...]
    extra: tuple[tuple[str, int], ...]
    commander: tuple[str, ...]


class CardData(_Data, frozen=True):
    cards: tuple[Card, ...]
    presets: dict[str, PresetDeck]


_BYTES = Path(__file__).with_name("cards.json").read_bytes()
CARD_DATA_HASH = hashlib.sha256(_BYTES).hexdigest()
_DATA = msgspec.json.decode(_BYTES, type=CardData)

CATALOG: dict[str, Card] = {card.id: card for card in _DATA.cards}
PRESETS: dict[str, PresetDeck] = dict(_DATA.presets)
LEVELS: dict[str, int] = {card.id: card.level for card in _DATA.cards if isinstance(card, MonsterCard)}
"""Levels by catalog id, for the monster cards that have one (summon candidates read them for every hand card)."""


def deck_builtins(deck: PresetDeck) -> dict[str, object]:
    """A preset as the JSON object a seat's ``deck`` may hold (§4)."""
    built: dict[str, object] = msgspec.to_builtins(deck)
    return built
