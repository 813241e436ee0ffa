"""The starter catalog and the preset decks (docs/rulesets/wulin.md §3, §13), loaded once from cards.json.

``CARD_DATA_HASH`` is the SHA-256 of the file's bytes. Effects, selectors and abilities are data (§3.3):
tagged msgspec Structs, so a malformed catalog fails at import.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Literal

import msgspec

Attribute = Literal["metal", "wood", "water", "fire", "earth"]
ATTRIBUTES: tuple[Attribute, ...] = ("metal", "wood", "water", "fire", "earth")
Limit = Literal["none", "semi_limited", "limited"]
Stat = Annotated[int, msgspec.Meta(ge=0, le=999)]
Amount = Annotated[int, msgspec.Meta(ge=1, le=999)]
Delta = Annotated[int, msgspec.Meta(ge=-999, le=999)]

COUNTERS: frozenset[tuple[str, str]] = frozenset(
    {("metal", "wood"), ("wood", "earth"), ("earth", "water"), ("water", "fire"), ("fire", "metal")}
)


def counters(x: str | None, y: str | None) -> bool:
    """§3.1: attribute ``x`` overcomes attribute ``y`` on the five-phase wheel."""
    return (x, y) in COUNTERS


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


# --- selectors and effects (§3.3) --------------------------------------------------------------------------


class TargetOwnBattle(_Data, tag_field="sel", tag="target_own_battle", frozen=True):
    pass


class OwnBattle(_Data, tag_field="sel", tag="own_battle", frozen=True):
    attribute: Attribute | None = None


class OpponentBattle(_Data, tag_field="sel", tag="opponent_battle", frozen=True):
    attribute: Attribute | None = None


Selector = TargetOwnBattle | OwnBattle | OpponentBattle


class DamageHp(_Data, tag_field="verb", tag="damage_hp", frozen=True):
    amount: Amount


class DrainQi(_Data, tag_field="verb", tag="drain_qi", frozen=True):
    amount: Amount


class GainQi(_Data, tag_field="verb", tag="gain_qi", frozen=True):
    amount: Amount


class HealHp(_Data, tag_field="verb", tag="heal_hp", frozen=True):
    amount: Amount


class ModifyStats(_Data, tag_field="verb", tag="modify_stats", frozen=True):
    selector: Selector
    atk: Delta
    def_: Delta = msgspec.field(name="def")


Effect = DamageHp | DrainQi | GainQi | HealHp | ModifyStats


# --- abilities (§3.3) ---------------------------------------------------------------------------------------


class FirstStrike(_Data, tag_field="ability", tag="first_strike", frozen=True):
    pass


class StatAbility(_Data, tag_field="ability", tag="stat", frozen=True):
    when: Literal["always", "attacking", "defending"]
    atk: Delta
    def_: Delta = msgspec.field(name="def")
    requires_skill: str | None = None


Ability = FirstStrike | StatAbility


class HiddenWeapon(_Data, frozen=True):
    stat: Literal["hp", "qi"]
    atk: Amount


# --- cards (§3.2) -------------------------------------------------------------------------------------------


class BattleCard(_Data, tag_field="type", tag="battle", frozen=True):
    id: str
    name: str
    limit: Limit
    attribute: Attribute
    atk: Stat
    def_: Stat = msgspec.field(name="def")
    qi_cost: Stat = 0
    abilities: tuple[Ability, ...] = ()
    combo_partners: tuple[str, ...] = ()
    on_discard: tuple[Effect, ...] = ()


class SecretArtCard(_Data, tag_field="type", tag="secret_art", frozen=True):
    id: str
    name: str
    limit: Limit
    attribute: Attribute
    qi_cost: Stat
    effects: tuple[Effect, ...]


class SkillCard(_Data, tag_field="type", tag="skill", frozen=True):
    id: str
    name: str
    limit: Limit
    upkeep: Stat
    continuous: tuple[ModifyStats, ...] = ()
    on_discard: tuple[Effect, ...] = ()


class TreasureCard(_Data, tag_field="type", tag="treasure", frozen=True):
    id: str
    name: str
    limit: Limit
    qi_cost: Stat
    attribute: Attribute | None = None
    hidden_weapon: HiddenWeapon | None = None
    effects: tuple[Effect, ...] = ()


class FormationCard(_Data, tag_field="type", tag="formation", frozen=True):
    id: str
    name: str
    limit: Limit
    qi_cost: Stat
    mode: Literal["instant", "lasting"]
    effects: tuple[Effect, ...] = ()
    continuous: tuple[ModifyStats, ...] = ()


class QiCard(_Data, tag_field="type", tag="qi", frozen=True):
    id: str
    name: str
    limit: Literal["none"]
    qi_gain: Amount


Card = BattleCard | SecretArtCard | SkillCard | TreasureCard | FormationCard | QiCard


class PresetRow(_Data, frozen=True):
    id: str
    count: Annotated[int, msgspec.Meta(ge=1, le=32)]


class Preset(_Data, frozen=True):
    hero_attribute: Attribute
    cards: tuple[PresetRow, ...]


class CardData(_Data, frozen=True):
    """The file's shape: the catalog and the preset decks (row order is the expansion order, §13.3)."""

    cards: tuple[Card, ...]
    presets: dict[str, Preset]


_BYTES = Path(__file__).with_name("cards.json").read_bytes()
CARD_DATA_HASH = hashlib.sha256(_BYTES).hexdigest()
_DATA = msgspec.json.decode(_BYTES, type=CardData)

CATALOG: dict[str, Card] = {card.id: card for card in _DATA.cards}
BATTLE: dict[str, BattleCard] = {c.id: c for c in _DATA.cards if isinstance(c, BattleCard)}
PRESET_ATTRIBUTES: dict[str, Attribute] = {name: p.hero_attribute for name, p in _DATA.presets.items()}
PRESETS: dict[str, tuple[str, ...]] = {
    name: tuple(row.id for row in preset.cards for _ in range(row.count)) for name, preset in _DATA.presets.items()
}
FIRST_STRIKE: frozenset[str] = frozenset(
    c.id for c in BATTLE.values() if any(isinstance(a, FirstStrike) for a in c.abilities)
)
STAT_ABILITIES: dict[str, tuple[StatAbility, ...]] = {
    c.id: tuple(a for a in c.abilities if isinstance(a, StatAbility)) for c in BATTLE.values()
}
FORMATIONS: dict[str, FormationCard] = {c.id: c for c in _DATA.cards if isinstance(c, FormationCard)}
SKILLS: dict[str, SkillCard] = {c.id: c for c in _DATA.cards if isinstance(c, SkillCard)}
LASTING: dict[str, tuple[ModifyStats, ...]] = {
    c.id: c.continuous for c in _DATA.cards if isinstance(c, FormationCard) and c.mode == "lasting"
}
"""The continuous effects of every lasting formation, by id."""
CONSUMABLE = (SecretArtCard, TreasureCard, QiCard)
PLAYABLE = (BattleCard, SkillCard, FormationCard)


def _qi_cost(card: Card) -> int:
    return card.qi_cost if isinstance(card, BattleCard | SecretArtCard | TreasureCard | FormationCard) else 0


def effects_of(card: Card) -> tuple[Effect, ...]:
    """A consumable's or an instant formation's ``effects`` (empty for the rest)."""
    return card.effects if isinstance(card, SecretArtCard | TreasureCard | FormationCard) else ()


QI_COST: dict[str, int] = {card.id: _qi_cost(card) for card in _DATA.cards}
"""§8.2 by card id: what using (consumables), flipping (formations) or engaging (battle cards) costs."""
TARGETED: frozenset[str] = frozenset(
    card.id
    for card in _DATA.cards
    if any(isinstance(e, ModifyStats) and isinstance(e.selector, TargetOwnBattle) for e in effects_of(card))
)
"""§7 use_card (4): the cards with a ``target_own_battle`` selector."""
CONSUMABLE_IDS: frozenset[str] = frozenset(c.id for c in _DATA.cards if isinstance(c, CONSUMABLE))
PLAYABLE_IDS: frozenset[str] = frozenset(c.id for c in _DATA.cards if isinstance(c, PLAYABLE))
SKILL_IDS: frozenset[str] = frozenset(c.id for c in _DATA.cards if isinstance(c, SkillCard))
