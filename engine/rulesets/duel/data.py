"""The starter catalog, its effects and the preset decks (duel.md §3.1, §13), loaded once from cards.json.

Effects are declarative data (§13.2): steps are a tagged union on ``verb``, static abilities on ``ability``.
``CARD_DATA_HASH`` is the SHA-256 of the file's bytes. The lookups at the bottom are precomputed at import
so that the rules never walk effect lists on the hot path.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

import msgspec

Category = Literal["monster", "spell", "trap"]
MonsterKind = Literal["normal", "effect", "fusion", "synchro", "xyz"]
Position = Literal["fu_attack", "fu_defense", "fd_defense", "fd_attack"]
Zone = Literal["monster", "spell_trap", "graveyard"]
Side = Literal["any", "self", "opponent"]
TriggerKind = Literal["flip", "sent_to_gy_by_battle", "own_standby", "opponent_end_phase"]
After = Literal["graveyard", "stay", "attach"]


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class TargetSpec(_Data, frozen=True):
    """What a target must be (§13.2); ``side`` is relative to the effect's controller."""

    zone: Zone
    side: Side
    face: Literal["up"] | None = None
    positions: tuple[Position, ...] | None = None
    category: Literal["monster"] | None = None
    not_self: bool = False


class _Step(_Data, tag_field="verb", frozen=True):
    pass


class Destroy(_Step, tag="destroy", frozen=True):
    what: Literal["target", "attacker"]


class Damage(_Step, tag="damage", frozen=True):
    to: Literal["opponent", "both"]
    amount: int | Literal["target_atk"]


class Draw(_Step, tag="draw", frozen=True):
    count: int


class FlipUpAll(_Step, tag="flip_up_all", frozen=True):
    side: Literal["opponent"]


class ChangePosition(_Step, tag="change_position", frozen=True):
    what: Literal["target"]
    to: Literal["fd_attack", "fu_defense"]


class ReturnToHand(_Step, tag="return_to_hand", frozen=True):
    what: Literal["target"]


class SummonFilter(_Data, frozen=True):
    monster_kind: tuple[MonsterKind, ...]
    max_level: int


class SpecialSummon(_Step, tag="special_summon", frozen=True):
    position: Literal["choice", "fu_defense"]
    what: Literal["target"] | None = None
    sources: tuple[Literal["hand", "deck"], ...] = msgspec.field(default=(), name="from")
    filter: SummonFilter | None = None


class FusionSummon(_Step, tag="fusion_summon", frozen=True):
    pass


class Equip(_Step, tag="equip", frozen=True):
    what: Literal["target"]
    atk: int


class SetCounter(_Step, tag="set_counter", frozen=True):
    counter: str
    value: int


class AddCounter(_Step, tag="add_counter", frozen=True):
    counter: str
    n: int


class Countdown(_Step, tag="countdown", frozen=True):
    counter: str


Step = (
    Destroy
    | Damage
    | Draw
    | FlipUpAll
    | ChangePosition
    | ReturnToHand
    | SpecialSummon
    | FusionSummon
    | Equip
    | SetCounter
    | AddCounter
    | Countdown
)


class _Ability(_Data, tag_field="ability", frozen=True):
    pass


class OpponentMonstersCannotAttack(_Ability, tag="opponent_monsters_cannot_attack", frozen=True):
    pass


class FlipSummonToDefense(_Ability, tag="flip_summon_to_defense", frozen=True):
    pass


class HandAssemblyWin(_Ability, tag="hand_assembly_win", frozen=True):
    pieces: tuple[str, ...]


class CounterWin(_Ability, tag="counter_win", frozen=True):
    counter: str
    at_least: int


Ability = OpponentMonstersCannotAttack | FlipSummonToDefense | HandAssemblyWin | CounterWin

ChoiceName = Literal["position", "fusion", "materials", "source", "card"]


class Activation(_Data, frozen=True):
    targets: tuple[TargetSpec, ...]
    choices: tuple[ChoiceName, ...]
    steps: tuple[Step, ...]


class Trigger(_Data, frozen=True):
    on: TriggerKind
    steps: tuple[Step, ...]
    target: TargetSpec | None = None


class Effect(_Data, frozen=True):
    activate: Activation | None = None
    after: After | None = None
    static: tuple[Ability, ...] = ()
    triggers: tuple[Trigger, ...] = ()


class Card(_Data, frozen=True):
    """A card definition (§3.1); ``def`` is spelled ``defense`` in Python."""

    id: str
    name: str
    category: Category
    text: str
    limit: int = 3
    monster_kind: MonsterKind | None = None
    level: int = 0
    atk: int = 0
    defense: int = msgspec.field(default=0, name="def")
    materials: tuple[str, ...] = ()
    spell_kind: Literal["normal", "equip"] | None = None
    trap_kind: Literal["normal", "continuous"] | None = None
    timing: Literal["any", "attack_declared_on_you"] | None = None
    effect: Effect = Effect()


class PresetDeck(_Data, frozen=True):
    """A preset as (card id, copies) runs, expanded in order (§13.4)."""

    main: tuple[tuple[str, int], ...]
    extra: tuple[tuple[str, int], ...] = ()
    side: tuple[tuple[str, int], ...] = ()


class CardData(_Data, frozen=True):
    cards: tuple[Card, ...]
    presets: dict[str, PresetDeck]


_PATH = Path(__file__).with_name("cards.json")
_BYTES = _PATH.read_bytes()
CARD_DATA_HASH = hashlib.sha256(_BYTES).hexdigest()
_DATA = msgspec.json.decode(_BYTES, type=CardData)

CATALOG: dict[str, Card] = {card.id: card for card in _DATA.cards}
"""Every card definition by id."""


def _expand(runs: tuple[tuple[str, int], ...]) -> list[str]:
    return [card_id for card_id, copies in runs for _ in range(copies)]


PRESETS: dict[str, dict[str, list[str]]] = {
    name: {"main": _expand(p.main), "extra": _expand(p.extra), "side": _expand(p.side)}
    for name, p in sorted(_DATA.presets.items())
}
"""Preset decks by name, expanded to card-id lists (JSON-like, as the API serves them)."""


def _trigger(card: Card, on: TriggerKind) -> Trigger | None:
    return next((t for t in card.effect.triggers if t.on == on), None)


def _after(card: Card) -> After:
    """§8.7: ``after`` defaults to attach for equips, stay for continuous traps, graveyard otherwise."""
    if card.effect.after is not None:
        return card.effect.after
    if card.spell_kind == "equip":
        return "attach"
    return "stay" if card.trap_kind == "continuous" else "graveyard"


def _has(card: Card, ability: type) -> bool:
    return any(isinstance(a, ability) for a in card.effect.static)


FLIP = {c.id: t for c in _DATA.cards if (t := _trigger(c, "flip")) is not None}
BATTLE_GRAVE = {c.id: t for c in _DATA.cards if (t := _trigger(c, "sent_to_gy_by_battle")) is not None}
OWN_STANDBY = {c.id: t for c in _DATA.cards if (t := _trigger(c, "own_standby")) is not None}
OPPONENT_END = {c.id: t for c in _DATA.cards if (t := _trigger(c, "opponent_end_phase")) is not None}
TRIGGERS: dict[tuple[str, str], Trigger] = {(c.id, t.on): t for c in _DATA.cards for t in c.effect.triggers}
AFTER: dict[str, After] = {c.id: _after(c) for c in _DATA.cards if c.category != "monster"}
ATTACK_LOCK = frozenset(c.id for c in _DATA.cards if _has(c, OpponentMonstersCannotAttack))
FLIP_TO_DEFENSE = frozenset(c.id for c in _DATA.cards if _has(c, FlipSummonToDefense))
ASSEMBLY: dict[str, frozenset[str]] = {
    c.id: frozenset(a.pieces) for c in _DATA.cards for a in c.effect.static if isinstance(a, HandAssemblyWin)
}
COUNTER_WIN: dict[str, CounterWin] = {
    c.id: a for c in _DATA.cards for a in c.effect.static if isinstance(a, CounterWin)
}
SUMMONS = frozenset(
    c.id
    for c in _DATA.cards
    if c.effect.activate and any(isinstance(s, SpecialSummon | FusionSummon) for s in c.effect.activate.steps)
)
"""Cards whose activation summons: never in the battle phase (§8.7 check 7, D19)."""


def required_tributes(level: int) -> int:
    """§3.5: levels 1-4 need 0 tributes, 5-6 need 1, 7-12 need 2."""
    return 0 if level <= 4 else 1 if level <= 6 else 2
