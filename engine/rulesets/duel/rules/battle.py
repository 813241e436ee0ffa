"""Phase and battle commands (duel.md §7.2): ``advance`` (D1, D34) and ``declare_attack`` (D8, D16, D31)."""

from __future__ import annotations

from engine.errors import Rejected
from engine.rulesets.duel.board import attacks_forbidden, monster_count
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.model.commands import Advance, DeclareAttack
from engine.rulesets.duel.model.state import State

PHASE_TARGETS = {"main1": ("battle", "end"), "battle": ("main2", "end"), "main2": ("end",)}


def check_advance(state: State, seat: int, cmd: Advance) -> None:
    """§7.2 ``advance`` preconditions."""
    if cmd.to not in PHASE_TARGETS.get(state.phase, ()):
        raise Rejected(Code.INVALID_PHASE_TARGET, f"{state.phase} cannot advance to {cmd.to}")
    if state.turn == 1 and state.phase == "main1" and cmd.to == "battle" and not state.options.first_turn_battle:
        raise Rejected(Code.NO_BATTLE_FIRST_TURN, "no battle phase on turn 1 in this duel")


def check_battle_phase(state: State) -> None:
    """The first check of ``declare_attack``: the battle phase only."""
    if state.phase != "battle":
        raise Rejected(Code.WRONG_PHASE, "attacks are declared in the battle phase")


def check_declare_attack(state: State, seat: int, cmd: DeclareAttack) -> None:
    """§7.2 ``declare_attack`` preconditions, in order."""
    check_battle_phase(state)
    attacker = state.sides[seat].monsters[cmd.attacker]
    if attacker is None:
        raise Rejected(Code.NO_MONSTER_IN_SLOT, f"you have no monster in slot {cmd.attacker}")
    if attacker.position != "fu_attack":
        raise Rejected(Code.ATTACKER_NOT_IN_ATTACK_POSITION, "only face-up attack position monsters attack")
    if attacker.attacked_turn == state.turn:
        raise Rejected(Code.ALREADY_ATTACKED, "that monster already attacked this turn")
    if attacks_forbidden(state, seat):
        raise Rejected(Code.ATTACKS_FORBIDDEN, "your monsters cannot attack now")
    check_attack_target(state, seat, cmd.target)


def check_attack_target(state: State, seat: int, target: int | None) -> None:
    """A direct attack only against an empty field (D8); otherwise a slot holding an opponent's monster."""
    defender = state.sides[1 - seat]
    if target is None:
        if monster_count(defender) > 0:
            raise Rejected(Code.DIRECT_ATTACK_NOT_ALLOWED, "the opponent controls monsters")
    elif defender.monsters[target] is None:
        raise Rejected(Code.TARGET_INVALID, f"the opponent has no monster in slot {target}")
