"""Commands (duel.md §7.2): one tagged Struct per command, tag = the spec's command name.

Types are checked by the decoder (``BAD_FIELDS``); value ranges (seats 0-1, slots 0-4) by ``decide``
(G2), so that a command built in Python is held to the same rules as one decoded from JSON.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from engine.contract import ForfeitReason
from engine.rulesets.duel.model.state import TargetRef


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Choices(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``activate.choices`` (§7.2, §8.7 check 10): only the choice names of the card's effect are set."""

    position: str | UnsetType = UNSET
    fusion: str | UnsetType = UNSET
    materials: tuple[str, ...] | UnsetType = UNSET
    source: str | UnsetType = UNSET
    card: str | UnsetType = UNSET


NO_CHOICES = Choices()


class NormalSummon(_Command, tag="normal_summon", frozen=True):
    card: str
    tributes: tuple[int, ...] = ()


class SetMonster(_Command, tag="set_monster", frozen=True):
    card: str
    tributes: tuple[int, ...] = ()


class FlipSummon(_Command, tag="flip_summon", frozen=True):
    slot: int
    position: Literal["attack", "defense"] = "attack"


class ChangePosition(_Command, tag="change_position", frozen=True):
    slot: int


class SetSpellTrap(_Command, tag="set_spell_trap", frozen=True):
    card: str


class Activate(_Command, tag="activate", frozen=True):
    card: str
    targets: tuple[TargetRef, ...] = ()
    choices: Choices = NO_CHOICES


class Advance(_Command, tag="advance", frozen=True):
    to: Literal["battle", "main2", "end"]


class DeclareAttack(_Command, tag="declare_attack", frozen=True):
    attacker: int
    target: int | None


class Pass(_Command, tag="pass", frozen=True):
    pass


class ChooseTarget(_Command, tag="choose_target", frozen=True):
    target: TargetRef


class ReplayAttack(_Command, tag="replay_attack", frozen=True):
    target: int | None


class CancelAttack(_Command, tag="cancel_attack", frozen=True):
    pass


class Discard(_Command, tag="discard", frozen=True):
    card: str


class Concede(_Command, tag="concede", frozen=True):
    pass


class Timeout(_Command, tag="timeout", frozen=True):
    seat: int
    scope: Literal["turn", "decision"]
    ref: int


class Forfeit(_Command, tag="forfeit", frozen=True):
    """The system's concession for ``seat`` (its player gone, ``Ruleset.forfeit``)."""

    seat: int
    reason: ForfeitReason


Command = (
    NormalSummon
    | SetMonster
    | FlipSummon
    | ChangePosition
    | SetSpellTrap
    | Activate
    | Advance
    | DeclareAttack
    | Pass
    | ChooseTarget
    | ReplayAttack
    | CancelAttack
    | Discard
    | Concede
    | Timeout
    | Forfeit
)

ANSWERS: dict[str, frozenset[type[Command]]] = {
    "response_window": frozenset({Activate, Pass}),
    "select_target": frozenset({ChooseTarget}),
    "replay": frozenset({ReplayAttack, CancelAttack}),
    "discard": frozenset({Discard}),
}
"""Allowed answers by pending decision kind (§7.1)."""

ANSWER_ONLY: frozenset[type[Command]] = frozenset({Pass, ChooseTarget, ReplayAttack, CancelAttack, Discard})
