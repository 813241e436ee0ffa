"""``legal_commands`` (duel.md §7.4): canonical candidates filtered through the same checks as ``decide``.

Candidates only leave out commands that fail a check whatever their other fields (an empty slot, a
tribute list of the wrong length), so the checks, not the generator, decide what is legal. A family of
candidates is skipped when its gate (the first checks of its command, shared with ``decide``) fails.

Order: the §7.2 table, then the canonical JSON of the fields (keys sorted). Families are generated in
that order (instances sorted as strings, slots ascending, ``null`` after numbers); ``activate`` and
``choose_target``, whose fields nest, are sorted by their canonical JSON. ``concede`` comes last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, product

import msgspec

from engine.errors import Rejected
from engine.rulesets.duel.data import CATALOG, required_tributes
from engine.rulesets.duel.model.commands import (
    Activate, Advance, CancelAttack, ChangePosition, ChooseTarget, Choices, Command, Concede, DeclareAttack,
    Discard, FlipSummon, NormalSummon, Pass, ReplayAttack, SetMonster, SetSpellTrap,
)
from engine.rulesets.duel.model.state import SLOTS, State, card_of
from engine.rulesets.duel.rules.activate import check_card
from engine.rulesets.duel.rules.battle import PHASE_TARGETS, attack_gate
from engine.rulesets.duel.rules.common import GENERAL_CODES
from engine.rulesets.duel.rules.decide import check, check_command
from engine.rulesets.duel.rules.summon import flip_gate, main_gate, summon_gate
from engine.rulesets.duel.targets import all_refs

_CONCEDE = Concede()


def legal_commands(state: State, seat: int) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now, in §7.4 order."""
    if state.ended:
        return []
    accepted: list[Command] = []
    for family, canonical in _families(state, seat):
        passed = _filter(state, seat, family)
        if not canonical and len(passed) > 1:
            passed.sort(key=canonical_json)
        accepted += passed
    accepted.append(_CONCEDE)
    return accepted


def _filter(state: State, seat: int, family: Iterable[Command]) -> list[Command]:
    """The family's commands that pass every check. The general checks (G1-G6) depend on the command's
    type alone once its values are in range, which generated candidates always are, so they run in full
    for the first candidate and only the command's own checks run for the rest."""
    passed: list[Command] = []
    checker: Callable[[State, int, Command], object] = check
    for cmd in family:
        try:
            checker(state, seat, cmd)
        except Rejected as refused:
            if checker is check and refused.code in GENERAL_CODES:
                return []
        else:
            passed.append(cmd)
        checker = check_command
    return passed


def canonical_json(cmd: Command) -> bytes:
    """The fields of a command as JSON with sorted keys, the §7.4 tie-break."""
    fields = msgspec.to_builtins(cmd)
    del fields["type"]
    return msgspec.json.encode(fields, order="sorted")


Family = tuple[Iterable[Command], bool]
"""Candidates of one command type and whether they already come in canonical order."""


def _families(state: State, seat: int) -> Iterator[Family]:
    """Candidate families in table order: a seat's answers while it decides, the turn player's commands
    in its open state, nothing otherwise (every other command fails G5/G6)."""
    pending = state.pending
    if pending is not None:
        if pending.seat == seat:
            yield from _answers(state, seat)
        return
    if seat != state.turn_seat:
        return
    side = state.sides[seat]
    hand = sorted(side.hand)
    spells = [i for i in hand if CATALOG[card_of(state, i)].category != "monster"]
    face_up = [s for s in SLOTS if (m := side.monsters[s]) is not None and m.face_up]
    face_down = [s for s in SLOTS if (m := side.monsters[s]) is not None and not m.face_up]
    if summon_gate(state) is None:
        occupied = sorted(face_up + face_down)
        yield _summons(state, hand, occupied, NormalSummon), True
        yield _summons(state, hand, occupied, SetMonster), True
    if flip_gate(state) is None:
        yield (FlipSummon(slot, position) for position in ("attack", "defense") for slot in face_down), True
    if main_gate(state) is None:
        yield (ChangePosition(slot) for slot in face_up), True
        yield (SetSpellTrap(instance) for instance in spells), True
    yield _activations(state, seat), False
    yield (Advance(to) for to in sorted(PHASE_TARGETS.get(state.phase, ()))), True  # type: ignore[arg-type]
    if attack_gate(state) is None:
        yield _attacks(state, seat), True


def _answers(state: State, seat: int) -> Iterator[Family]:
    pending = state.pending
    assert pending is not None
    candidates = pending.details.candidates
    if pending.kind == "response_window":
        yield _activations(state, seat), False
        yield (Pass(),), True
    elif pending.kind == "select_target":
        assert isinstance(candidates, tuple)
        yield (ChooseTarget(ref) for ref in candidates if not isinstance(ref, int)), False
    elif pending.kind == "replay":
        assert isinstance(candidates, tuple)
        yield (*(ReplayAttack(slot) for slot in candidates if isinstance(slot, int)), ReplayAttack(None)), True
        yield (CancelAttack(),), True
    else:
        yield (Discard(instance) for instance in sorted(state.sides[seat].hand)), True


def _summons(
    state: State, hand: list[str], occupied: list[int], kind: type[NormalSummon | SetMonster],
) -> Iterator[Command]:
    for instance in hand:
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
