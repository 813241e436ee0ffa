"""Card Monsters data: configuration, state, commands, events and views (card_monsters.md §3, §5-§8, §11).

Data only: the functions live in rules.py, resolve.py, evolve.py and view.py. Cards are instance ids
``"{seat}:{index}"`` (§3.2); field positions 1..3 are stored at tuple index ``position - 1``.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.contract import ForfeitReason

Pile = Literal["monster", "item"]
Status = Literal["setup", "main", "over"]
CrystalReason = Literal["turn_start", "sacrifice", "monster_destroyed", "effect"]
HitKind = Literal["primary", "splash", "double_strike"]

MAIN: Status = "main"
OVER: Status = "over"
POSITIONS = (1, 2, 3)


# --- configuration (§3.6, §4) ---------------------------------------------------------------------------


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Match options with the defaults and ranges of §3.6 (§4 check 3)."""

    turn_seconds: Annotated[int, msgspec.Meta(ge=10, le=600)] = 40
    crystal_cap: Annotated[int, msgspec.Meta(ge=3, le=99)] = 10
    hand_monsters: Annotated[int, msgspec.Meta(ge=1, le=8)] = 3
    hand_items: Annotated[int, msgspec.Meta(ge=0, le=8)] = 3
    max_turns: Annotated[int, msgspec.Meta(ge=2, le=400)] = 40


class SeatConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat's deck, presets already expanded: catalog ids in deck-list order (§4)."""

    deck: tuple[str, ...]


class Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A validated, self-contained match configuration (public, D31)."""

    seats: tuple[SeatConfig, ...]
    options: Options = Options()


# --- state (§3.3, §3.4) -----------------------------------------------------------------------------------


class Monster(msgspec.Struct, frozen=True):
    """A monster on the field (§3.3); ``equipment_id`` caches the catalog id of ``equipment``."""

    card: str
    card_id: str
    hp: int
    max_hp: int
    equipment: str | None = None
    equipment_id: str | None = None


class Side(msgspec.Struct, frozen=True):
    """One seat's zones and counters (§3.4). ``field[p - 1]`` holds position p."""

    monster_pile: tuple[str, ...] = ()
    item_pile: tuple[str, ...] = ()
    hand_monsters: tuple[str, ...] = ()
    hand_items: tuple[str, ...] = ()
    field: tuple[Monster | None, ...] = (None, None, None)
    discard: tuple[str, ...] = ()
    crystals: int = 0
    sacrifice_used: bool = False
    losses: int = 0


class Result(msgspec.Struct, frozen=True):
    """How the match ended, as ``MatchEnded`` reported it (§10)."""

    result: Literal["win", "draw"]
    winner: int | None
    reason: Literal["eliminated", "turn_limit", "concede", "disconnected"]
    losses: tuple[int, ...]


class State(msgspec.Struct, frozen=True):
    """The whole match. ``card_ids`` maps every instance id to its catalog id and never changes."""

    options: Options
    decks: tuple[tuple[str, ...], ...]
    card_ids: dict[str, str]
    sides: tuple[Side, ...]
    turn: int = 0
    active: int = 0
    status: Status = "setup"
    result: Result | None = None


# --- commands (§7) ----------------------------------------------------------------------------------------


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class PlayMonster(_Command, tag="play_monster", frozen=True):
    card: str


class Equip(_Command, tag="equip", frozen=True):
    card: str
    position: int


class UseConsumable(_Command, tag="use_consumable", frozen=True):
    card: str
    target_position: int | None = None


class Sacrifice(_Command, tag="sacrifice", frozen=True):
    """Exactly one of ``card`` (from hand) or ``position`` (from the field); null counts as absent."""

    card: str | None = None
    position: int | None = None


class Engage(_Command, tag="engage", frozen=True):
    pass


class Concede(_Command, tag="concede", frozen=True):
    pass


class Timeout(_Command, tag="timeout", frozen=True):
    turn: int


class Forfeit(_Command, tag="forfeit", frozen=True):
    """The system's concession for ``seat`` (its player gone, ``Ruleset.forfeit``)."""

    seat: int
    reason: ForfeitReason


Command = PlayMonster | Equip | UseConsumable | Sacrifice | Engage | Concede | Timeout | Forfeit


# --- events (§5-§8, §10) ----------------------------------------------------------------------------------


class _Event(msgspec.Struct, frozen=True, tag_field="type", tag=True):
    pass


class PileShuffled(_Event, frozen=True):
    """``order`` is redacted to null for every viewer (§11); ``count`` is what they see."""

    seat: int
    pile: Pile
    order: tuple[str, ...] | None
    count: int


class FirstPlayerChosen(_Event, frozen=True):
    seat: int


class CardDrawn(_Event, frozen=True):
    """``card`` and ``card_id`` are null for everyone but the drawing seat (§11)."""

    seat: int
    pile: Pile
    card: str | None
    card_id: str | None


class TurnStarted(_Event, frozen=True):
    turn: int
    seat: int
    seconds: int


class CrystalsGained(_Event, frozen=True):
    seat: int
    amount: int
    reason: CrystalReason
    total: int


class MonsterPlayed(_Event, frozen=True):
    seat: int
    card: str
    card_id: str
    position: int
    cost: int
    crystals: int


class EquipmentAttached(_Event, frozen=True):
    seat: int
    card: str
    card_id: str
    position: int
    cost: int
    crystals: int
    replaced: str | None
    hp: int
    max_hp: int


class ConsumableUsed(_Event, frozen=True):
    seat: int
    card: str
    card_id: str
    cost: int
    crystals: int
    target_seat: int | None
    target_position: int | None


class MonsterHealed(_Event, frozen=True):
    seat: int
    position: int
    card: str
    amount: int
    hp: int


class EffectHit(_Event, frozen=True):
    source_seat: int
    card: str
    target_seat: int
    target_position: int
    target_card: str
    amount: int
    hp: int


class Sacrificed(_Event, frozen=True):
    seat: int
    card: str
    card_id: str
    from_: Literal["hand", "field"] = msgspec.field(name="from")
    position: int | None
    equipment: str | None


class TurnEnded(_Event, frozen=True):
    seat: int
    turn: int
    reason: Literal["engage", "timeout"]


class AttackHit(_Event, frozen=True):
    attacker_seat: int
    from_position: int
    attack_type: str
    hit: HitKind
    target_seat: int
    target_position: int
    target_card: str
    amount: int
    hp: int


class MonsterDestroyed(_Event, frozen=True):
    seat: int
    position: int
    card: str
    card_id: str
    equipment: str | None


class MonsterMoved(_Event, frozen=True):
    seat: int
    card: str
    from_: int = msgspec.field(name="from")
    to: int


class MatchEnded(_Event, frozen=True):
    result: Literal["win", "draw"]
    winner: int | None
    reason: Literal["eliminated", "turn_limit", "concede", "disconnected"]
    losses: tuple[int, ...]


Event = (
    PileShuffled
    | FirstPlayerChosen
    | CardDrawn
    | TurnStarted
    | CrystalsGained
    | MonsterPlayed
    | EquipmentAttached
    | ConsumableUsed
    | MonsterHealed
    | EffectHit
    | Sacrificed
    | TurnEnded
    | AttackHit
    | MonsterDestroyed
    | MonsterMoved
    | MatchEnded
)


# --- views (§11) ------------------------------------------------------------------------------------------


class CardView(msgspec.Struct, frozen=True):
    """A card the viewer may identify: its instance and catalog ids."""

    card: str
    card_id: str


class MonsterView(msgspec.Struct, frozen=True):
    """A field monster with its live effective values (§3.3)."""

    position: int
    card: str
    card_id: str
    colour: str
    hp: int
    max_hp: int
    equipment: str | None
    equipment_id: str | None
    magic: int
    ranged: int
    melee: int
    random: int
    traits: tuple[str, ...]


class SideView(msgspec.Struct, frozen=True):
    """One seat as the viewer sees it; hands are null unless the viewer owns them (§11)."""

    seat: int
    deck: tuple[str, ...]
    crystals: int
    sacrifice_used: bool
    losses: int
    monster_pile: int
    item_pile: int
    hand_monster_count: int
    hand_item_count: int
    hand_monsters: tuple[CardView, ...] | None
    hand_items: tuple[CardView, ...] | None
    field: tuple[MonsterView, ...]
    discard: tuple[CardView, ...]


class View(msgspec.Struct, frozen=True):
    """The match for one viewer (a seat, or None for a spectator); ``sides`` are indexed by seat."""

    viewer: int | None
    turn: int
    active: int
    status: Status
    turn_seconds: int
    max_turns: int
    crystal_cap: int
    result: Result | None
    sides: tuple[SideView, ...]
