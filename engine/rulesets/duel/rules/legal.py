"""``legal_commands`` (duel.md §7.4): canonical candidates filtered through the same ``check`` as ``decide``.

Candidates only leave out commands that fail a check whatever their other fields (an empty slot, a
tribute list of the wrong length), so the filter, not the generator, decides what is legal. The result
is ordered by the §7.2 table, then by the canonical JSON of the fields, with ``concede`` last.
"""

from __future__ import annotations

from collections.abc import Iterator
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
from engine.rulesets.duel.rules.decide import check
from engine.rulesets.duel.targets import all_refs

TABLE_ORDER = (
    NormalSummon, SetMonster, FlipSummon, ChangePosition, SetSpellTrap, Activate, Advance, DeclareAttack,
    Pass, ChooseTarget, ReplayAttack, CancelAttack, Discard,
)
_RANK = {cls: rank for rank, cls in enumerate(TABLE_ORDER)}
_CONCEDE = Concede()


def legal_commands(state: State, seat: int) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now, in §7.4 order."""
    if state.ended:
        return []
    accepted = []
    for cmd in _candidates(state, seat):
        try:
            check(state, seat, cmd)
        except Rejected:
            continue
        accepted.append(cmd)
    if len(accepted) > 1:
        accepted.sort(key=_order)
    accepted.append(_CONCEDE)
    return accepted


def _order(cmd: Command) -> tuple[int, bytes]:
    fields = msgspec.to_builtins(cmd)
    del fields["type"]
    return _RANK[type(cmd)], msgspec.json.encode(fields, order="sorted")


def _candidates(state: State, seat: int) -> Iterator[Command]:
    pending = state.pending
    if pending is not None:
        if pending.seat == seat:
            yield from _answers(state, seat)
        return
    if seat != state.turn_seat:
        return
    yield from _summons(state, seat)
    side = state.sides[seat]
    for slot in SLOTS:
        if side.monsters[slot] is not None:
            yield FlipSummon(slot, "attack")
            yield FlipSummon(slot, "defense")
            yield ChangePosition(slot)
    for instance in side.hand:
        yield SetSpellTrap(instance)
    yield from _activations(state, seat)
    for to in ("battle", "main2", "end"):
        yield Advance(to)  # type: ignore[arg-type]
    yield from _attacks(state, seat)


def _answers(state: State, seat: int) -> Iterator[Command]:
    pending = state.pending
    assert pending is not None
    details = pending.details
    if pending.kind == "response_window":
        yield from _activations(state, seat)
        yield Pass()
    elif pending.kind == "select_target":
        for ref in details.candidates:  # type: ignore[union-attr]
            assert not isinstance(ref, int)
            yield ChooseTarget(ref)
    elif pending.kind == "replay":
        for slot in details.candidates:  # type: ignore[union-attr]
            assert isinstance(slot, int)
            yield ReplayAttack(slot)
        yield ReplayAttack(None)
        yield CancelAttack()
    else:
        for instance in state.sides[seat].hand:
            yield Discard(instance)


def _summons(state: State, seat: int) -> Iterator[Command]:
    side = state.sides[seat]
    occupied = [slot for slot in SLOTS if side.monsters[slot] is not None]
    for instance in side.hand:
        card = CATALOG[card_of(state, instance)]
        if card.category != "monster":
            continue
        for tributes in combinations(occupied, required_tributes(card.level)):
            yield NormalSummon(instance, tributes)
            yield SetMonster(instance, tributes)


def _attacks(state: State, seat: int) -> Iterator[Command]:
    own, other = state.sides[seat].monsters, state.sides[1 - seat].monsters
    targets = [slot for slot in SLOTS if other[slot] is not None] + [None]
    for attacker in SLOTS:
        if own[attacker] is not None:
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
        options = [{**partial, name: value} for partial in options for value in _values(state, seat, instance, name, partial)]
    for option in options:
        yield Choices(**option)  # type: ignore[arg-type]


def _values(state: State, seat: int, instance: str, name: str, partial: dict[str, object]) -> list[object]:
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


def _material_sets(state: State, seat: int, instance: str, fusion: object) -> list[object]:
    """Ascending sets of the fusion's size drawn from hand and field cards that are among its materials."""
    side = state.sides[seat]
    if fusion not in side.extra:
        return []
    needed = CATALOG[card_of(state, str(fusion))].materials
    pool = [i for i in side.hand if i != instance and card_of(state, i) in needed]
    pool += [m.instance for m in side.monsters if m is not None and m.card_id in needed]
    return [tuple(c) for c in combinations(sorted(pool), len(needed))]
