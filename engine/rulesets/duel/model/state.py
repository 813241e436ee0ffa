"""Configuration and folded match state (duel.md §3.2, §3.3, §3.6, §4, §5).

Cards are instance ids ``"{seat}-{section}{NN}"`` (§3.2): section ``m`` main, ``x`` extra, ``s`` side.
Zones hold instance ids; field slots hold ``Monster`` / ``SpellTrap`` records with their runtime fields.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType

Phase = Literal["draw", "standby", "main1", "battle", "main2", "end"]
Stage = Literal["declared", "responded", "damage_done"]
DecisionKind = Literal["response_window", "select_target", "replay", "discard"]
WindowTrigger = Literal["main_end", "attack_declared"]

SLOTS = (0, 1, 2, 3, 4)
SEATS = (0, 1)
OPEN_PHASES = frozenset({"main1", "battle", "main2"})
MAIN_PHASES = frozenset({"main1", "main2"})


# --- configuration (§4, §5) --------------------------------------------------------------------------


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Match options with the spec's defaults and ranges, in the spec's order (§5); a bool is not an int."""

    starting_lp: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 8000
    first_player: Literal["coin"] | Annotated[int, msgspec.Meta(ge=0, le=1)] = "coin"
    first_player_draws: bool = True
    first_turn_battle: bool = True
    turn_time_s: Annotated[int, msgspec.Meta(ge=10, le=3600)] = 180
    decision_time_s: Annotated[int, msgspec.Meta(ge=5, le=600)] = 30
    max_timeouts: Annotated[int, msgspec.Meta(ge=0, le=100)] = 3


class DeckList(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat's submitted deck as card ids, presets expanded (§4, §13.4)."""

    main: tuple[str, ...]
    extra: tuple[str, ...] = ()
    side: tuple[str, ...] = ()


class SeatConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    deck: DeckList


class Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A validated, self-contained configuration: both decks (side decks included, D28) and the options.

    ``public_config`` (``MatchCreated``) is the same type with every deck list empty (§11)."""

    seats: tuple[SeatConfig, ...]
    options: Options = Options()


# --- targets and decisions (§7.1, §7.3) ---------------------------------------------------------------


class _Ref(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="zone"):
    pass


class MonsterRef(_Ref, tag="monster", frozen=True):
    """A card in a monster slot (§7.1 TargetRef)."""

    seat: int
    slot: int


class SpellTrapRef(_Ref, tag="spell_trap", frozen=True):
    """A card in a spell/trap slot (§7.1 TargetRef)."""

    seat: int
    slot: int


class GraveyardRef(_Ref, tag="graveyard", frozen=True):
    """A card in a graveyard, by instance (§7.1 TargetRef)."""

    instance: str


TargetRef = MonsterRef | SpellTrapRef | GraveyardRef


class Details(msgspec.Struct, frozen=True, kw_only=True):
    """``DecisionRequested.details`` (§7.3): only the fields of the decision's kind are set."""

    trigger: str | UnsetType = UNSET
    advance_to: str | UnsetType = UNSET
    attacker: str | UnsetType = UNSET
    attacker_slot: int | UnsetType = UNSET
    target_slot: int | UnsetType | None = UNSET
    source: str | UnsetType = UNSET
    card_id: str | UnsetType = UNSET
    candidates: tuple[int | TargetRef, ...] | UnsetType = UNSET
    direct: bool | UnsetType = UNSET
    count: int | UnsetType = UNSET


class Pending(msgspec.Struct, frozen=True):
    """The decision the game waits on (§3.6)."""

    decision_id: int
    seat: int
    kind: DecisionKind
    details: Details


class Reason(msgspec.Struct, frozen=True):
    seat: int
    condition: str


class Result(msgspec.Struct, frozen=True):
    """How the duel ended, as ``MatchEnded`` said (§8.12)."""

    outcome: Literal["win", "draw"]
    winner: int | None
    reasons: tuple[Reason, ...]


# --- field and zones (§3.2, §3.3) ---------------------------------------------------------------------


class CardRef(msgspec.Struct, frozen=True):
    """A card instance and its catalog id: its identity, as events and views show it."""

    instance: str
    card_id: str


class Monster(msgspec.Struct, frozen=True):
    """A monster in a slot and its runtime fields (§3.2); the controller is the side holding it."""

    instance: str
    card_id: str
    position: str
    arrived_turn: int
    position_changed_turn: int | None = None
    attacked_turn: int | None = None

    @property
    def face_up(self) -> bool:
        return self.position[1] == "u"


class SpellTrap(msgspec.Struct, frozen=True):
    """A spell or trap in a slot (§3.2): ``counters`` are (name, value) pairs in first-set order."""

    instance: str
    card_id: str
    face_up: bool
    set_turn: int | None = None
    counters: tuple[tuple[str, int], ...] = ()
    equipped_to: str | None = None

    def counter(self, name: str) -> int:
        return next((v for n, v in self.counters if n == name), 0)


EMPTY_ROW: tuple[None, ...] = (None, None, None, None, None)


class Side(msgspec.Struct, frozen=True):
    """One seat's life points, flags and zones (§3.3, §3.6); ``deck[0]`` is the top card."""

    lp: int = 0
    deck_out: bool = False
    timeouts: int = 0
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    monsters: tuple[Monster | None, ...] = EMPTY_ROW
    spell_traps: tuple[SpellTrap | None, ...] = EMPTY_ROW
    graveyard: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    side_deck: tuple[str, ...] = ()


class Attack(msgspec.Struct, frozen=True):
    """The attack in progress (§3.6)."""

    attacker: str
    attacker_slot: int
    target_slot: int | None
    target: str | None
    defender_count: int
    stage: Stage


class QueuedTrigger(msgspec.Struct, frozen=True):
    """A triggered effect waiting in the FIFO queue (§8.9)."""

    seat: int
    instance: str
    card_id: str
    trigger: str


class State(msgspec.Struct, frozen=True):
    """The match folded from its events (§3.6).

    ``cards`` maps every instance of the match to its identity (fixed at ``DuelCreated``); ``revealed``
    lists cards a public event named while they sit in a hidden zone (returned to a hand, turned face-down
    after being face-up, named in an activation's choices), which stay known to everyone there (D29, §11)
    until they are set face-down.
    """

    options: Options
    cards: dict[str, CardRef] = {}
    first_seat: int = 0
    turn: int = 0
    turn_seat: int = 0
    phase: Phase = "draw"
    normal_summon_used: bool = False
    turn_expired: bool = False
    sides: tuple[Side, ...] = (Side(), Side())
    attack: Attack | None = None
    queue: tuple[QueuedTrigger, ...] = ()
    pending: Pending | None = None
    next_decision_id: int = 1
    ended: bool = False
    result: Result | None = None
    revealed: tuple[str, ...] = ()


def card_of(state: State, instance: str) -> str:
    """The card id of an instance known to be in this match (§3.2)."""
    return state.cards[instance].card_id


def owner_of(instance: str) -> int:
    """The owner is the seat in the instance id (§3.2)."""
    return ord(instance[0]) - 48


def instance_id(seat: int, section: str, index: int) -> str:
    """``"{seat}-{section}{NN}"`` for the 0-based ``index`` of a submitted list (§3.2)."""
    return f"{seat}-{section}{index + 1:02d}"
