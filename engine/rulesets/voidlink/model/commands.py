"""voidlink commands (docs/rulesets/voidlink.md §7.2): a tagged union, tag = the command name."""

from __future__ import annotations

import msgspec

from engine.contract import ForfeitReason
from engine.rulesets.voidlink.data import Form


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class NormalSummon(_Command, tag="normal_summon", frozen=True):
    card: str
    form: Form


class TributeSummon(_Command, tag="tribute_summon", frozen=True):
    card: str
    form: Form
    tributes: tuple[str, ...]


class MythSummon(_Command, tag="myth_summon", frozen=True):
    card: str
    form: Form
    materials: tuple[str, ...]


class SetMagic(_Command, tag="set_magic", frozen=True):
    card: str


class ActivateMagic(_Command, tag="activate_magic", frozen=True):
    card: str
    targets: tuple[str, ...] = ()
    form: Form | None = None


class ActivateTactics(_Command, tag="activate_tactics", frozen=True):
    card: str
    targets: tuple[str, ...] = ()
    form: Form | None = None


class ActivateCommander(_Command, tag="activate_commander", frozen=True):
    targets: tuple[str, ...] = ()


class ActivateMonsterEffect(_Command, tag="activate_monster_effect", frozen=True):
    card: str
    effect: int
    targets: tuple[str, ...] = ()


class ActivateCombination(_Command, tag="activate_combination", frozen=True):
    card: str
    materials: tuple[str, ...]
    targets: tuple[str, ...] = ()


class ChangeForm(_Command, tag="change_form", frozen=True):
    card: str
    form: Form


class GoToBattle(_Command, tag="go_to_battle", frozen=True):
    pass


class DeclareAttack(_Command, tag="declare_attack", frozen=True):
    attacker: str
    target: str | None = None


class EndTurn(_Command, tag="end_turn", frozen=True):
    pass


class Pass(_Command, tag="pass", frozen=True):
    pass


class Discard(_Command, tag="discard", frozen=True):
    cards: tuple[str, ...]


class Concede(_Command, tag="concede", frozen=True):
    pass


class Timeout(_Command, tag="timeout", frozen=True):
    seat: int
    seq: int


class Forfeit(_Command, tag="forfeit", frozen=True):
    """The system's concession for ``seat`` (its player gone, ``Ruleset.forfeit``)."""

    seat: int
    reason: ForfeitReason


Command = (
    NormalSummon
    | TributeSummon
    | MythSummon
    | SetMagic
    | ActivateMagic
    | ActivateTactics
    | ActivateCommander
    | ActivateMonsterEffect
    | ActivateCombination
    | ChangeForm
    | GoToBattle
    | DeclareAttack
    | EndTurn
    | Pass
    | Discard
    | Concede
    | Timeout
    | Forfeit
)
