"""Filters, conditions and targets (docs/rulesets/voidlink.md §8.8, §13.1): what a card's filter matches, whether
a condition holds, the legal target lists of an effect, and the material and target checks commands and
resolution share."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import Rejected
from engine.rulesets.voidlink.board import _SYSTEM_OF, field_index, find, monsters, system_of
from engine.rulesets.voidlink.codes import Code
from engine.rulesets.voidlink.data import (
    CATALOG,
    FORMS,
    Card,
    CombinationCard,
    CommanderCard,
    Condition,
    Effect,
    Filter,
    Form,
    MagicCard,
    MonsterCard,
    MythCard,
    System,
    TacticsCard,
    TargetSpec,
)
from engine.rulesets.voidlink.model import State
from engine.rulesets.voidlink.model.state import Link, Monster


def matches(state: State, card: str, spec: Filter, field_monster: Monster | None) -> bool:
    """Filter match; ``field_monster`` is the card's monster state when it is on the field."""
    if spec.system is not None and (field_monster is None or system_of(field_monster.form) != spec.system):
        return False
    return state.card_ids[card] in printed(spec)


_printed: dict[int, tuple[Filter, frozenset[str]]] = {}


def printed(spec: Filter) -> frozenset[str]:
    """The catalog ids whose printed card (type, level, name) fits ``spec``, computed once per filter: keyed by
    the filter's identity, the entry holding the filter so that its identity cannot be reused."""
    found = _printed.get(id(spec))
    if found is None:
        found = _printed[id(spec)] = (
            spec,
            frozenset([i for i, entry in CATALOG.items() if _printed_match(entry, spec)]),
        )
    return found[1]


def _printed_match(entry: Card, spec: Filter) -> bool:
    kind = spec.type
    if kind == "monster" and not isinstance(entry, MonsterCard):
        return False
    if kind == "myth_monster" and not isinstance(entry, MythCard):
        return False
    if kind == "any_monster" and not isinstance(entry, MonsterCard | MythCard):
        return False
    if spec.level_max is not None and not (isinstance(entry, MonsterCard) and entry.level <= spec.level_max):
        return False
    return spec.name is None or entry.name == spec.name


def holds(state: State, seat: int, condition: Condition | None) -> bool:
    """§13.1 conditions, checked at activation only (D25)."""
    if condition is None:
        return True
    if condition == "defending_attack":
        return state.attack is not None and state.attack.defender == seat
    if condition == "responding_to_link":
        awaiting = state.awaiting
        return (
            awaiting is not None
            and awaiting.kind == "response"
            and awaiting.window == "chain"
            and bool(state.chain)
            and state.chain[-1].seat != seat
        )
    if condition == "control_no_monsters":
        return not monsters(state, seat)
    if condition == "opponent_controls_more_monsters":
        return len(monsters(state, 1 - seat)) > len(monsters(state, seat))
    player = state.players[seat]
    limit = condition.hp_or_lp_at_most
    return player.hp <= limit or player.lp <= limit


def target_ok(
    state: State, seat: int, spec: TargetSpec, card: str, source_system: System | None, gone: frozenset[str]
) -> bool:
    """A valid target at activation for ``spec`` (§8.8); ``gone`` = materials already paid (judged as graveyard)."""
    player = state.players[seat]
    if spec.zone == "field":
        if card in gone:
            return False
        found = field_index(state.players).get(card)
        if found is None:
            return False
        owner, _, monster = found
        if (spec.controller == "self" and owner != seat) or (spec.controller == "opponent" and owner == seat):
            return False
        system = _SYSTEM_OF[monster.form]
        if source_system is not None and system != source_system:
            return False
        flt = spec.filter
        return (flt.system is None or system == flt.system) and monster.card_id in printed(flt)  # ``matches``
    if spec.zone == "own_hand":
        return card in player.hand and card not in gone and matches(state, card, spec.filter, None)
    return (card in player.graveyard or card in gone) and matches(state, card, spec.filter, None)


def still_valid(
    state: State, link_seat: int, spec: TargetSpec, card: str, entry: int | None, system: System | None
) -> bool:
    """A target at resolution (§8.8): field targets by their recorded entry, others still in their zone."""
    if spec.zone == "field":
        found = find(state, card)
        if found is None or found[2].entry != entry:
            return False
    return target_ok(state, link_seat, spec, card, system, frozenset())


def target_candidates(state: State, seat: int, spec: TargetSpec, gone: Sequence[str] = ()) -> list[str]:
    """Canonical candidates for one target spec that match its filter: own zones 0..5 then the opponent's;
    hand or graveyard order (D36)."""
    player = state.players[seat]
    flt = spec.filter
    fits = printed(flt)
    system = flt.system
    if spec.zone == "field":
        seats = _SEATS[spec.controller][seat]
        return [
            m.card
            for s in seats
            for m in state.players[s].monsters
            if m is not None and m.card_id in fits and (system is None or system_of(m.form) == system)
        ]
    if system is not None:
        return []  # a system filter needs a field monster (``matches``)
    card_ids = state.card_ids
    if spec.zone == "own_hand":
        return [c for c in player.hand if card_ids[c] in fits]
    cards = [*player.graveyard, *(c for c in gone if c not in player.graveyard)]
    return [c for c in cards if card_ids[c] in fits]


_SEATS = {"self": ((0,), (1,)), "opponent": ((1,), (0,)), "any": ((0, 1), (1, 0))}
"""Field target seats by controller and activating seat: own zones first."""


def target_lists(state: State, seat: int, effect: Effect, gone: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """Every distinct assignment of candidates to the effect's target specs, in spec order."""
    lists: list[tuple[str, ...]] = [()]
    for spec in effect.targets:
        pool = target_candidates(state, seat, spec, gone)
        lists = [(*chosen, card) for chosen in lists for card in pool if card not in chosen]
    return lists


def form_choices(effect: Effect) -> tuple[Form | None, ...]:
    return FORMS if effect.form_choice else (None,)


def check_effect(
    state: State,
    seat: int,
    effect: Effect,
    targets: Sequence[str],
    form: Form | None,
    source_system: System | None = None,
    gone: frozenset[str] = frozenset(),
    with_form: bool = True,
) -> None:
    """Condition, target count, targets, and (``with_form``) the form rule of an activation (§7.2)."""
    if effect.condition is not None and not holds(state, seat, effect.condition):
        raise Rejected(Code.CONDITION_NOT_MET, "the activation condition does not hold")
    specs = effect.targets
    if len(targets) != len(specs):
        raise Rejected(Code.TARGET_COUNT, f"this effect takes {len(specs)} target(s)")
    if specs and (
        len(set(targets)) != len(targets)
        or not all(
            target_ok(state, seat, spec, card, source_system, gone) for spec, card in zip(specs, targets, strict=True)
        )
    ):
        raise Rejected(Code.TARGET_INVALID, "a target is not valid")
    if with_form and effect.form_choice != (form is not None):
        check_form(effect, form)


def check_form(effect: Effect, form: Form | None) -> None:
    if effect.form_choice and form is None:
        raise Rejected(Code.FORM_REQUIRED, "this effect needs a form")
    if not effect.form_choice and form is not None:
        raise Rejected(Code.FORM_NOT_EXPECTED, "this effect takes no form")


def link_effect(link: Link) -> Effect:
    """The effect a chain link executes, by its source."""
    return effect_of(link.card_id, link.source, link.effect, link.system)


def effect_of(card_id: str, source: str, index: int | None, system: System | None) -> Effect:
    """The effect a link from ``source`` runs: a monster face's effect ``index``, else the card's one effect."""
    entry = CATALOG[card_id]
    if source == "monster":
        assert index is not None and isinstance(entry, MonsterCard | MythCard)
        if isinstance(entry, MythCard):
            return entry.effects[index]
        face = entry.faces.void if system == "void" else entry.faces.reality
        return face.effects[index]
    if isinstance(entry, CommanderCard):
        return entry.ability
    assert isinstance(entry, MagicCard | CombinationCard | TacticsCard)
    return entry.effect


def check_materials(
    state: State, seat: int, slots: Sequence[Filter], materials: Sequence[str], from_hand: bool
) -> None:
    if len(materials) != len(slots):
        raise Rejected(Code.MATERIAL_COUNT, f"this card needs {len(slots)} material(s)")
    if len(set(materials)) != len(materials):
        raise Rejected(Code.MATERIALS_INVALID, "a material does not fit its slot")
    field = field_index(state.players)
    hand = state.players[seat].hand
    for card, spec in zip(materials, slots, strict=True):
        found = field.get(card)
        if found is not None and found[0] == seat:
            fits = spec.system is None or system_of(found[2].form) == spec.system
        else:  # ``matches`` off the field: a system filter never fits
            fits = from_hand and card in hand and spec.system is None
        if not fits or state.card_ids[card] not in printed(spec):
            raise Rejected(Code.MATERIALS_INVALID, "a material does not fit its slot")
