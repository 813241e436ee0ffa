"""Main-phase field commands (duel.md §7.2): normal summon and set, flip summon, position change, setting
spells and traps (D7, D15-D19)."""

from __future__ import annotations

from itertools import pairwise

from engine.errors import Rejected
from engine.rulesets.duel.board import free_slot, monster_count
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.data import CATALOG, FLIP, FLIP_TO_DEFENSE, required_tributes
from engine.rulesets.duel.model.commands import ChangePosition, FlipSummon, NormalSummon, SetMonster, SetSpellTrap
from engine.rulesets.duel.model.events import (
    CardSentToGraveyard,
    EffectTriggered,
    Event,
    FlipSummoned,
    MonsterSet,
    NormalSummoned,
    PositionChanged,
    SpellTrapSet,
)
from engine.rulesets.duel.model.state import Monster, State, card_of, owner_of
from engine.rulesets.duel.resolve.effects import cleanup
from engine.tape import Tape

# Gates are the first checks of a command, those that do not depend on its fields; legal_commands runs
# them once for a whole family.


def check_summon_phase(state: State) -> None:
    """The first check of every summon command: none in the battle phase (D19)."""
    if state.phase == "battle":
        raise Rejected(Code.NO_SUMMON_IN_BATTLE_PHASE, "no summons in the battle phase")


def check_summon_unused(state: State) -> None:
    """The checks of ``normal_summon`` / ``set_monster`` that do not depend on the card."""
    check_summon_phase(state)
    if state.normal_summon_used:
        raise Rejected(Code.NORMAL_SUMMON_USED, "the normal summon of this turn is used")


def check_main_phase(state: State) -> None:
    """The first check of ``change_position`` and ``set_spell_trap``: main phases only."""
    if state.phase == "battle":
        raise Rejected(Code.WRONG_PHASE, "only in a main phase")


def check_summon(state: State, seat: int, cmd: NormalSummon | SetMonster) -> str:
    """§7.2 ``normal_summon`` / ``set_monster`` preconditions; returns the card id."""
    check_summon_unused(state)
    side = state.sides[seat]
    if cmd.card not in side.hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
    card = CATALOG[card_of(state, cmd.card)]
    if card.category != "monster":
        raise Rejected(Code.NOT_A_MONSTER, "only monsters are summoned")
    tributes = cmd.tributes
    ascending = all(a < b for a, b in pairwise(tributes))
    if not ascending or any(side.monsters[slot] is None for slot in tributes):
        raise Rejected(Code.TRIBUTE_INVALID, "tributes are your monsters' slots, strictly ascending")
    need = required_tributes(card.level)
    if len(tributes) != need:
        raise Rejected(Code.TRIBUTE_COUNT_WRONG, f"level {card.level} needs {need} tributes")
    if monster_count(side) - len(tributes) >= 5:
        raise Rejected(Code.MONSTER_ZONE_FULL, "no free monster slot")
    return card.id


def emit_summon(tape: Tape[State, Event], seat: int, cmd: NormalSummon | SetMonster, card_id: str) -> None:
    """Tributes in ascending slot order, then the summon or set in the lowest free slot (D18, D30)."""
    for slot in cmd.tributes:
        monster = tape.state.sides[seat].monsters[slot]
        assert monster is not None
        owner = owner_of(monster.instance)
        tape.emit(CardSentToGraveyard(seat, "monster", slot, monster.instance, monster.card_id, owner, "tribute"))
        cleanup(tape, monster.instance)
    free = free_slot(tape.state.sides[seat].monsters)
    assert free is not None
    if isinstance(cmd, NormalSummon):
        tape.emit(NormalSummoned(seat, free, cmd.card, card_id))
    else:
        tape.emit(MonsterSet(seat=seat, slot=free, instance=cmd.card, card_id=card_id))


def _own_monster(state: State, seat: int, slot: int) -> Monster:
    monster = state.sides[seat].monsters[slot]
    if monster is None:
        raise Rejected(Code.NO_MONSTER_IN_SLOT, f"you have no monster in slot {slot}")
    return monster


def _fresh(state: State, monster: Monster) -> None:
    """D15: not on the turn it arrived, and at most one position change per turn."""
    if monster.arrived_turn == state.turn:
        raise Rejected(Code.SUMMONED_THIS_TURN, "it arrived this turn")
    if monster.position_changed_turn == state.turn:
        raise Rejected(Code.ALREADY_CHANGED_POSITION, "its position already changed this turn")


def check_flip_summon(state: State, seat: int, cmd: FlipSummon) -> Monster:
    """§7.2 ``flip_summon`` preconditions (D16, D17)."""
    check_summon_phase(state)
    monster = _own_monster(state, seat, cmd.slot)
    if monster.face_up:
        raise Rejected(Code.NOT_FACE_DOWN, "that monster is face-up")
    _fresh(state, monster)
    if cmd.position == "defense" and monster.card_id not in FLIP_TO_DEFENSE:
        raise Rejected(Code.FLIP_TO_DEFENSE_NOT_ALLOWED, "only some monsters may finish in defence")
    return monster


def emit_flip_summon(tape: Tape[State, Event], seat: int, cmd: FlipSummon, monster: Monster) -> None:
    """``FlipSummoned``, its flip trigger (D13), and Bastion Marshal's move to defence (D17)."""
    instance, card_id = monster.instance, monster.card_id
    tape.emit(FlipSummoned(seat, cmd.slot, instance, card_id, monster.position))
    if card_id in FLIP:
        tape.emit(EffectTriggered(seat, instance, card_id, "flip"))
    if cmd.position == "defense":
        tape.emit(PositionChanged(seat, cmd.slot, instance, card_id, "fu_attack", "fu_defense", "effect"))


def check_change_position(state: State, seat: int, cmd: ChangePosition) -> Monster:
    """§7.2 ``change_position`` preconditions (D15)."""
    check_main_phase(state)
    monster = _own_monster(state, seat, cmd.slot)
    if not monster.face_up:
        raise Rejected(Code.MONSTER_FACE_DOWN, "face-down monsters are flip summoned instead")
    _fresh(state, monster)
    if monster.attacked_turn == state.turn:
        raise Rejected(Code.ATTACKED_THIS_TURN, "it attacked this turn")
    return monster


def emit_change_position(tape: Tape[State, Event], seat: int, cmd: ChangePosition, monster: Monster) -> None:
    to = "fu_defense" if monster.position == "fu_attack" else "fu_attack"
    tape.emit(PositionChanged(seat, cmd.slot, monster.instance, monster.card_id, monster.position, to, "manual"))


def check_set_spell_trap(state: State, seat: int, cmd: SetSpellTrap) -> tuple[int, str]:
    """§7.2 ``set_spell_trap`` preconditions (D7); returns the slot and the card id."""
    check_main_phase(state)
    side = state.sides[seat]
    if cmd.card not in side.hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
    card_id = card_of(state, cmd.card)
    if CATALOG[card_id].category == "monster":
        raise Rejected(Code.NOT_SPELL_OR_TRAP, "monsters are set with set_monster")
    slot = free_slot(side.spell_traps)
    if slot is None:
        raise Rejected(Code.SPELL_TRAP_ZONE_FULL, "no free spell/trap slot")
    return slot, card_id


def emit_set_spell_trap(tape: Tape[State, Event], seat: int, cmd: SetSpellTrap, slot: int, card_id: str) -> None:
    tape.emit(SpellTrapSet(seat=seat, slot=slot, instance=cmd.card, card_id=card_id))
