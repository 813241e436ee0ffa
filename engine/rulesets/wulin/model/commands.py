"""Wulin commands (docs/rulesets/wulin.md §7): a tagged union, tag = the command name."""

from __future__ import annotations

from typing import Annotated

import msgspec

from engine.contract import ForfeitReason


class _Command(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag_field="type"):
    pass


class UseCard(_Command, tag="use_card", frozen=True, gc=False):
    card: str
    target: str | None = None


class PlayCard(_Command, tag="play_card", frozen=True, gc=False):
    card: str


class DiscardCard(_Command, tag="discard_card", frozen=True, gc=False):
    card: str


class FlipCard(_Command, tag="flip_card", frozen=True, gc=False):
    card: str


class Attack(_Command, tag="attack", frozen=True, gc=False):
    cards: tuple[str, ...]
    mode: str
    primary: str | None = None


class Defend(_Command, tag="defend", frozen=True, gc=False):
    cards: tuple[str, ...]
    mode: str
    primary: str | None = None
    focus: str | None = None


class NoDefence(_Command, tag="no_defence", frozen=True, gc=False):
    pass


class Block(_Command, tag="block", frozen=True, gc=False):
    card: str


class NoBlock(_Command, tag="no_block", frozen=True, gc=False):
    pass


class ChooseLoss(_Command, tag="choose_loss", frozen=True, gc=False):
    card: str


class EndPhase(_Command, tag="end_phase", frozen=True, gc=False):
    pass


class ProposeTruce(_Command, tag="propose_truce", frozen=True, gc=False):
    pass


class AcceptTruce(_Command, tag="accept_truce", frozen=True, gc=False):
    pass


class RejectTruce(_Command, tag="reject_truce", frozen=True, gc=False):
    pass


class Concede(_Command, tag="concede", frozen=True, gc=False):
    pass


class Timeout(_Command, tag="timeout", frozen=True, gc=False):
    clock_seq: int


class Forfeit(_Command, tag="forfeit", frozen=True, gc=False):
    """The system's concession for ``seat`` (its player gone, ``Ruleset.forfeit``), whatever ``allow_concede``."""

    seat: int
    reason: ForfeitReason


class RefereeRuling(_Command, tag="referee_ruling", frozen=True, gc=False):
    winner: int | None
    note: Annotated[str, msgspec.Meta(max_length=200)] = ""


Command = (
    UseCard
    | PlayCard
    | DiscardCard
    | FlipCard
    | Attack
    | Defend
    | NoDefence
    | Block
    | NoBlock
    | ChooseLoss
    | EndPhase
    | ProposeTruce
    | AcceptTruce
    | RejectTruce
    | Concede
    | Timeout
    | Forfeit
    | RefereeRuling
)
