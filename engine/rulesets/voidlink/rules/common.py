"""The generic checks of voidlink (docs/rulesets/voidlink.md §7.1): G1 and G3-G6 in order, and what G5-G6 let
through by decision kind and phase."""

from __future__ import annotations

from engine.contract import FORFEIT, SYSTEM, Actor
from engine.errors import Rejected
from engine.precheck import check_common
from engine.rulesets.voidlink.codes import Code
from engine.rulesets.voidlink.model import State

_KINDS: dict[str, frozenset[str]] = {
    "open": frozenset(
        {
            "normal_summon",
            "tribute_summon",
            "myth_summon",
            "set_magic",
            "activate_magic",
            "activate_tactics",
            "activate_commander",
            "activate_monster_effect",
            "activate_combination",
            "change_form",
            "go_to_battle",
            "declare_attack",
            "end_turn",
        }
    ),
    "response": frozenset({"activate_magic", "activate_tactics", "pass"}),
    "discard": frozenset({"discard"}),
}
_MAIN_ONLY = frozenset(
    {
        "normal_summon",
        "tribute_summon",
        "myth_summon",
        "set_magic",
        "activate_commander",
        "activate_monster_effect",
        "change_form",
        "go_to_battle",
    }
)


def _allowed(kind: str, phase: str) -> frozenset[str]:
    """The command kinds G5 and G6 let through for a decision kind in a phase."""
    allowed = _KINDS[kind]
    if phase != "main":
        allowed -= _MAIN_ONLY
    if phase != "battle":
        allowed -= {"declare_attack"}
    return allowed | {"concede"}


ALLOWED = {(kind, phase): _allowed(kind, phase) for kind in _KINDS for phase in ("draw", "main", "battle", "end")}
"""G5-G6 by (decision kind, phase): the awaited seat's common checks are one lookup when they pass."""


def precheck(state: State, actor: Actor, kind: str) -> None:
    """G1 and G3-G6 in order (G2, field decoding, is the engine's and follows these, D34)."""
    awaiting = state.awaiting
    if awaiting is not None and actor == awaiting.seat and kind in ALLOWED[awaiting.kind, state.phase]:
        return  # a running match (awaiting is cleared when it ends), the awaited seat, an allowed kind
    if state.result is not None:
        raise Rejected(Code.MATCH_OVER, "the match is over")
    if kind == "timeout" or kind == FORFEIT:
        if actor != SYSTEM:
            raise Rejected(Code.SYSTEM_ONLY, "only the system times a decision out or forfeits a seat")
        return
    acting = () if awaiting is None else (awaiting.seat,)
    check_common(kind, actor, over=False, acting=acting, system=(), not_your_turn=Code.NOT_AWAITED_SEAT)
    if kind == "concede":
        return
    assert awaiting is not None
    if kind not in _KINDS[awaiting.kind]:
        raise Rejected(Code.WRONG_DECISION_KIND, f"{kind} is not allowed in a {awaiting.kind} decision")
    if kind in _MAIN_ONLY and state.phase != "main":
        raise Rejected(Code.WRONG_PHASE, f"{kind} needs the Main phase")
    if kind == "declare_attack" and state.phase != "battle":
        raise Rejected(Code.WRONG_PHASE, "declare_attack needs the Battle phase")
