"""``activate`` (duel.md §8.7 checks 1-12, D6, D19, D20): which card, when, with which targets and choices.

The checks are split in two so that ``legal_commands`` can try a card once before trying its targets and
choices: ``check_card`` runs checks 1-7, ``check_details`` checks 8-12. ``check_activate`` runs both.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from msgspec import UNSET

from engine.errors import Rejected
from engine.rulesets.duel.board import free_slot, monster_count, monster_slot
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.data import CATALOG, SUMMONS, Card, SpecialSummon, Step
from engine.rulesets.duel.model.commands import Activate, Choices
from engine.rulesets.duel.model.state import MAIN_PHASES, State, card_of
from engine.rulesets.duel.resolve.effects import Activation
from engine.rulesets.duel.targets import check_target


def check_activate(state: State, seat: int, cmd: Activate) -> Activation:
    """All twelve checks of §8.7, in order; returns what resolution needs."""
    slot, from_hand, card = check_card(state, seat, cmd.card)
    check_details(state, seat, cmd, card)
    # G5 let the command through, so a pending decision here is the issuer's response window
    return Activation(seat, cmd.card, card.id, slot, from_hand, cmd.targets, cmd.choices, state.pending)


def check_card(state: State, seat: int, instance: str) -> tuple[int, bool, Card]:
    """§8.7 checks 1-7; returns the card's S/T slot (the lowest free one from the hand), whether it comes
    from the hand, and its definition."""
    side = state.sides[seat]
    from_hand = instance in side.hand
    field_slot = (
        None
        if from_hand
        else next(
            (s for s, c in enumerate(side.spell_traps) if c is not None and c.instance == instance),
            None,
        )
    )
    if not from_hand and field_slot is None:
        raise Rejected(Code.CARD_NOT_FOUND, "that card is not in your hand or spell/trap zone")
    card = CATALOG[card_of(state, instance)]
    if card.category == "monster":
        raise Rejected(Code.NOT_SPELL_OR_TRAP, "only spells and traps are activated")
    set_card = side.spell_traps[field_slot] if field_slot is not None else None
    if set_card is not None and set_card.face_up:
        raise Rejected(Code.ALREADY_FACE_UP, "that card is already face-up")
    if card.category == "trap" and from_hand:
        raise Rejected(Code.TRAP_FROM_HAND, "traps must be set first")
    _check_timing(state, seat, card, set_card.set_turn if set_card is not None else None)
    slot = free_slot(side.spell_traps) if from_hand else field_slot
    if slot is None:
        raise Rejected(Code.SPELL_TRAP_ZONE_FULL, "no free spell/trap slot")
    if card.id in SUMMONS and state.phase == "battle":
        raise Rejected(Code.NO_SUMMON_IN_BATTLE_PHASE, "no summons in the battle phase")
    return slot, from_hand, card


def _check_timing(state: State, seat: int, card: Card, set_turn: int | None) -> None:
    """§8.7 check 5 (D6): spells in the owner's open main phase; traps after their set turn, in the
    owner's open main phase (timing ``any``) or in a fitting response window."""
    pending = state.pending
    open_main = pending is None and seat == state.turn_seat and state.phase in MAIN_PHASES
    if card.category == "spell":
        if not open_main:
            raise Rejected(Code.TIMING_NOT_MET, "spells are used in your own main phases")
        return
    if set_turn is not None and set_turn >= state.turn:
        raise Rejected(Code.TRAP_SET_THIS_TURN, "a trap waits one turn after it is set")
    fits_window = False
    if pending is not None and pending.kind == "response_window" and pending.seat == seat:
        on_attack = pending.details.trigger == "attack_declared"
        fits_window = card.timing == "any" or (card.timing == "attack_declared_on_you" and on_attack)
    if not (fits_window or (open_main and card.timing == "any")):
        raise Rejected(Code.TIMING_NOT_MET, "this trap cannot be used now")


def check_details(state: State, seat: int, cmd: Activate, card: Card) -> None:
    """§8.7 checks 8-12: targets, choices, fusion materials and monster-zone room."""
    effect = card.effect.activate
    assert effect is not None
    if len(cmd.targets) != len(effect.targets):
        raise Rejected(Code.TARGET_COUNT_WRONG, f"this card takes {len(effect.targets)} targets")
    for spec, ref in zip(effect.targets, cmd.targets, strict=True):
        check_target(state, seat, spec, ref, cmd.card)
    if not _choices_valid(state, seat, cmd.choices, effect.choices, effect.steps):
        raise Rejected(Code.CHOICE_INVALID, f"this card needs the choices {list(effect.choices)}")
    field_materials = 0
    if "materials" in effect.choices:
        field_materials = _check_materials(state, seat, cmd)
    if card.id in SUMMONS and monster_count(state.sides[seat]) - field_materials >= 5:
        raise Rejected(Code.MONSTER_ZONE_FULL, "no free monster slot")


CHOICE_NAMES = ("position", "fusion", "materials", "source", "card")


def _choices_valid(
    state: State,
    seat: int,
    choices: Choices,
    names: tuple[str, ...],
    steps: tuple[Step, ...],
) -> bool:
    """§8.7 check 10: exactly the effect's choice names, each with a valid value."""
    given = {name for name in CHOICE_NAMES if getattr(choices, name) is not UNSET}
    if given != set(names):
        return False
    side = state.sides[seat]
    if "position" in given and choices.position not in ("attack", "defense"):
        return False
    if "fusion" in given:
        fusion = choices.fusion
        if fusion not in side.extra or CATALOG[card_of(state, str(fusion))].monster_kind != "fusion":
            return False
    if "source" in given and choices.source not in ("hand", "deck"):
        return False
    if "card" in given:
        step = next(s for s in steps if isinstance(s, SpecialSummon))
        return _summonable(state, seat, choices, step)
    return True


def _summonable(state: State, seat: int, choices: Choices, step: SpecialSummon) -> bool:
    """``choices.card``: a hand instance (source hand) or a card id in the deck (source deck) that passes
    the step's filter (§8.7 check 10)."""
    side = state.sides[seat]
    card = choices.card
    if choices.source == "hand":
        if card not in side.hand:
            return False
        card_id = card_of(state, str(card))
    else:
        card_id = str(card)
        if card_id not in CATALOG or all(card_of(state, i) != card_id for i in side.deck):
            return False
    definition = CATALOG[card_id]
    summon_filter = step.filter
    if summon_filter is None:
        return definition.category == "monster"
    return definition.monster_kind in summon_filter.monster_kind and definition.level <= summon_filter.max_level


def _check_materials(state: State, seat: int, cmd: Activate) -> int:
    """§8.7 check 11 (D20); returns how many materials are on the field (they free their slots)."""
    materials = cmd.choices.materials
    assert isinstance(materials, tuple) and isinstance(cmd.choices.fusion, str)
    side = state.sides[seat]
    ascending = all(a < b for a, b in pairwise(materials))
    on_field = [monster_slot(side, i) is not None for i in materials]
    owned = all(i in side.hand or f for i, f in zip(materials, on_field, strict=True))
    if not ascending or not owned or cmd.card in materials:
        raise Rejected(Code.MATERIALS_INVALID, "materials are your hand or field cards, strictly ascending")
    needed = Counter(CATALOG[card_of(state, cmd.choices.fusion)].materials)
    if Counter(card_of(state, i) for i in materials) != needed:
        raise Rejected(Code.MATERIALS_INVALID, "those are not this fusion's materials")
    return sum(on_field)
