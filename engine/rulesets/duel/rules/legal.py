"""``legal_commands`` (duel.md §7.4): canonical candidates filtered through the same checks as ``decide``.

Candidates only leave out commands that fail a check whatever their other fields (an empty slot, a
tribute list of the wrong length), so the checks, not the generator, decide what is legal. Each family's
gate is the general checks G3-G6 for its command type (its candidates' values are in range, so G2 holds)
and then the first checks of its command that do not read the fields, both shared with ``decide``; when
the gate refuses, the whole family is skipped. So a seat gets its answers while it decides, the turn
player its commands in its open state, and only ``concede`` otherwise.

Order: the §7.2 table, then the canonical JSON of the fields (keys sorted). Families are generated in
that order (instances sorted as strings, slots ascending, ``null`` after numbers); ``activate`` and
``choose_target``, whose fields nest, are sorted by their canonical JSON. ``concede`` comes last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, product
from typing import Any, cast

import msgspec

from engine.errors import Rejected
from engine.legal import Family, legal
from engine.rulesets.duel.data import CATALOG, required_tributes
from engine.rulesets.duel.model.commands import (
    Activate,
    Advance,
    CancelAttack,
    ChangePosition,
    Choices,
    ChooseTarget,
    Command,
    Concede,
    DeclareAttack,
    Discard,
    FlipSummon,
    NormalSummon,
    Pass,
    ReplayAttack,
    SetMonster,
    SetSpellTrap,
)
from engine.rulesets.duel.model.state import SLOTS, State, card_of
from engine.rulesets.duel.rules.activate import check_activate, check_card
from engine.rulesets.duel.rules.answers import (
    check_choose_target,
    check_discard,
    check_general_only,
    check_replay_attack,
)
from engine.rulesets.duel.rules.battle import PHASE_TARGETS, check_advance, check_battle_phase, check_declare_attack
from engine.rulesets.duel.rules.common import check_actor, precheck
from engine.rulesets.duel.rules.summon import (
    check_change_position,
    check_flip_summon,
    check_main_phase,
    check_set_spell_trap,
    check_summon,
    check_summon_phase,
    check_summon_unused,
)
from engine.rulesets.duel.targets import all_refs


def canonical_json(cmd: Command) -> bytes:
    """The fields of a command as JSON with sorted keys, the §7.4 tie-break."""
    fields = msgspec.to_builtins(cmd)
    del fields["type"]
    return msgspec.json.encode(fields, order="sorted")


def _family(
    command: type[Command],
    candidates: Callable[[State, int], Iterable[Command]],
    check: Callable[[State, int, Any], object],
    shared: Callable[[State], None] | None = None,
    order: Callable[[Any], Any] | None = None,
) -> Family[State]:
    """The family of ``command``: its gate runs G3-G6 for the type, then ``shared`` (its field-free checks)."""

    def gate(state: State, seat: int) -> None:
        check_actor(state, seat, command)
        if shared is not None:
            shared(state)

    tag = str(command.__struct_config__.tag)
    # legal() gives the check a seat, and the gate has just made it the issuer, as decide does
    return Family(tag, candidates, cast(Callable[[State, Any, Any], object], check), gate, order)


_PASS = (Pass(),)
_CANCEL_ATTACK = (CancelAttack(),)
_CONCEDE = (Concede(),)


def _normal_summons(state: State, seat: int) -> Iterator[Command]:
    return _summons(state, seat, NormalSummon)


def _monster_sets(state: State, seat: int) -> Iterator[Command]:
    return _summons(state, seat, SetMonster)


def _flips(state: State, seat: int) -> Iterator[Command]:
    monsters = state.sides[seat].monsters
    face_down = [s for s in SLOTS if (m := monsters[s]) is not None and not m.face_up]
    return (FlipSummon(slot, position) for position in ("attack", "defense") for slot in face_down)


def _position_changes(state: State, seat: int) -> Iterator[Command]:
    monsters = state.sides[seat].monsters
    return (ChangePosition(s) for s in SLOTS if (m := monsters[s]) is not None and m.face_up)


def _spell_trap_sets(state: State, seat: int) -> Iterator[Command]:
    hand = sorted(state.sides[seat].hand)
    return (SetSpellTrap(i) for i in hand if CATALOG[card_of(state, i)].category != "monster")


def _advances(state: State, seat: int) -> Iterator[Command]:
    return (Advance(to) for to in sorted(PHASE_TARGETS.get(state.phase, ())))  # type: ignore[arg-type]


def _target_choices(state: State, seat: int) -> Iterator[Command]:
    assert state.pending is not None
    candidates = state.pending.details.candidates
    assert isinstance(candidates, tuple)
    return (ChooseTarget(ref) for ref in candidates if not isinstance(ref, int))


def _replays(state: State, seat: int) -> tuple[Command, ...]:
    assert state.pending is not None
    candidates = state.pending.details.candidates
    assert isinstance(candidates, tuple)
    return (*(ReplayAttack(slot) for slot in candidates if isinstance(slot, int)), ReplayAttack(None))


def _discards(state: State, seat: int) -> Iterator[Command]:
    return (Discard(instance) for instance in sorted(state.sides[seat].hand))


def _summons(state: State, seat: int, kind: type[NormalSummon | SetMonster]) -> Iterator[Command]:
    side = state.sides[seat]
    occupied = [s for s in SLOTS if side.monsters[s] is not None]
    for instance in sorted(side.hand):
        card = CATALOG[card_of(state, instance)]
        if card.category == "monster":
            for tributes in combinations(occupied, required_tributes(card.level)):
                yield kind(instance, tributes)


def _attacks(state: State, seat: int) -> Iterator[Command]:
    """Attacks by ready face-up attack monsters: at each enemy monster, or directly at an empty field."""
    own, other = state.sides[seat].monsters, state.sides[1 - seat].monsters
    targets: list[int | None] = [slot for slot in SLOTS if other[slot] is not None] or [None]
    for attacker in SLOTS:
        monster = own[attacker]
        if monster is not None and monster.position == "fu_attack" and monster.attacked_turn != state.turn:
            for target in targets:
                yield DeclareAttack(attacker, target)


def _activations(state: State, seat: int) -> Iterator[Command]:
    """Activations of hand spells and set cards; a card failing checks 1-7 is not expanded further."""
    side = state.sides[seat]
    cards = [i for i in side.hand if CATALOG[card_of(state, i)].category != "monster"]
    cards += [c.instance for c in side.spell_traps if c is not None and not c.face_up]
    for instance in cards:
        try:
            card = check_card(state, seat, instance)[2]
        except Rejected:
            continue
        effect = card.effect.activate
        assert effect is not None
        ref_lists = [all_refs(state, spec.zone) for spec in effect.targets]
        for targets in product(*ref_lists):
            for choices in _choices(state, seat, instance, effect.choices):
                yield Activate(instance, tuple(targets), choices)


def _choices(state: State, seat: int, instance: str, names: tuple[str, ...]) -> Iterator[Choices]:
    """Every combination of values for the effect's choice names; dependent choices follow their parent."""
    options: list[dict[str, object]] = [{}]
    for name in names:
        options = [
            {**partial, name: value} for partial in options for value in _values(state, seat, instance, name, partial)
        ]
    for option in options:
        yield Choices(**option)  # type: ignore[arg-type]


def _values(state: State, seat: int, instance: str, name: str, partial: dict[str, object]) -> Sequence[object]:
    """Candidate values of one choice (§8.7 check 10); ``card`` depends on ``source``, ``materials`` on
    ``fusion``."""
    side = state.sides[seat]
    if name == "position":
        return ["attack", "defense"]
    if name == "fusion":
        return list(side.extra)
    if name == "source":
        return ["hand", "deck"]
    if name == "card":
        if partial.get("source") == "hand":
            return list(side.hand)
        return sorted({card_of(state, i) for i in side.deck})
    return _material_sets(state, seat, instance, partial.get("fusion"))


def _material_sets(state: State, seat: int, instance: str, fusion: object) -> Sequence[object]:
    """Ascending sets of the fusion's size drawn from hand and field cards that are among its materials."""
    side = state.sides[seat]
    if fusion not in side.extra:
        return []
    needed = CATALOG[card_of(state, str(fusion))].materials
    pool = [i for i in side.hand if i != instance and card_of(state, i) in needed]
    pool += [m.instance for m in side.monsters if m is not None and m.card_id in needed]
    return [tuple(c) for c in combinations(sorted(pool), len(needed))]


FAMILIES: tuple[Family[State], ...] = (
    _family(NormalSummon, _normal_summons, check_summon, check_summon_unused),
    _family(SetMonster, _monster_sets, check_summon, check_summon_unused),
    _family(FlipSummon, _flips, check_flip_summon, check_summon_phase),
    _family(ChangePosition, _position_changes, check_change_position, check_main_phase),
    _family(SetSpellTrap, _spell_trap_sets, check_set_spell_trap, check_main_phase),
    _family(Activate, _activations, check_activate, order=canonical_json),
    _family(Advance, _advances, check_advance),
    _family(DeclareAttack, _attacks, check_declare_attack, check_battle_phase),
    _family(Pass, lambda state, seat: _PASS, check_general_only),
    _family(ChooseTarget, _target_choices, check_choose_target, order=canonical_json),
    _family(ReplayAttack, _replays, check_replay_attack),
    _family(CancelAttack, lambda state, seat: _CANCEL_ATTACK, check_general_only),
    _family(Discard, _discards, check_discard),
    _family(Concede, lambda state, seat: _CONCEDE, check_general_only),
)
"""§7.2 command families in table order (``timeout`` is the system's alone); their checks are ``decide``'s."""


def legal_commands(state: State, seat: int) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now, in §7.4 order."""
    return legal(FAMILIES, precheck, state, seat)
