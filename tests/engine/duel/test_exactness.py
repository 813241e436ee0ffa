"""``legal_commands`` is exact (duel.md §7.4): a wide universe of commands is accepted iff it is listed.

The contract suite mutates listed commands one field at a time; this walks every command shape over the
cards and slots of real positions from random games.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from engine.bots import RandomBot
from engine.contract import SYSTEM
from engine.errors import Rejected
from engine.match import apply, create, fold
from engine.rng import Rng, ScriptedRng
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import (
    Activate, Advance, CancelAttack, ChangePosition, ChooseTarget, Choices, Concede, DeclareAttack, Discard,
    FlipSummon, NormalSummon, Pass, ReplayAttack, SetMonster, SetSpellTrap,
)
from engine.rulesets.duel.model.state import GraveyardRef, MonsterRef, SpellTrapRef, State
from engine.selfplay import next_move

SLOTS = range(5)


def _universe(state: State, seat: int) -> Iterator[Any]:
    side = state.sides[seat]
    cards = [*side.hand, *(c.instance for c in side.spell_traps if c), *side.deck[:2], "1-m01", "0-x01", "zz"]
    graves = [*state.sides[0].graveyard, *state.sides[1].graveyard][:4]
    refs: list[Any] = [MonsterRef(s, n) for s in (0, 1) for n in SLOTS] + [SpellTrapRef(s, 0) for s in (0, 1)]
    refs += [GraveyardRef(g) for g in graves]
    for card in cards:
        for tributes in [(), (0,), (1,), (0, 1), (1, 0), (0, 2)]:
            yield NormalSummon(card, tributes)
            yield SetMonster(card, tributes)
        yield SetSpellTrap(card)
        yield Discard(card)
        yield Activate(card)
        yield Activate(card, choices=Choices(position="attack"))
        yield Activate(card, choices=Choices(source="deck", card="shell_sentinel"))
        yield Activate(card, choices=Choices(source="hand", card=side.hand[0] if side.hand else "zz"))
        for ref in refs:
            yield Activate(card, (ref,))
            yield Activate(card, (ref,), Choices(position="defense"))
    for slot in SLOTS:
        yield from (FlipSummon(slot), FlipSummon(slot, "defense"), ChangePosition(slot), ReplayAttack(slot))
        yield from (DeclareAttack(slot, target) for target in (*SLOTS, None))
    for ref in refs:
        yield ChooseTarget(ref)
    yield from (ReplayAttack(None), CancelAttack(), Pass(), Concede())
    yield from (Advance("battle"), Advance("main2"), Advance("end"))


def _accepted(state: State, seat: Any, cmd: Any) -> bool:
    try:
        RULESET.decide(state, seat, cmd, ScriptedRng())
    except Rejected:
        return False
    return True


@pytest.mark.parametrize("seed", [11, 12])
def test_listed_iff_accepted(seed: int) -> None:
    config: dict[str, Any] = {"seats": [{}, {}], "options": {}}
    match = fold(RULESET, create(RULESET, config, ["a", "b"], seed.to_bytes(32, "big")))
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    step = 0
    while RULESET.outcome(match.state) is None and step < 160:
        if step % 4 == 0:
            for seat in (0, 1):
                listed = {msgspec.json.encode(c) for c in RULESET.legal_commands(match.state, seat)}
                for cmd in _universe(match.state, seat):
                    assert _accepted(match.state, seat, cmd) == (msgspec.json.encode(cmd) in listed), (step, seat, cmd)
            deadline = RULESET.deadline(match.state)
            assert deadline is not None and _accepted(match.state, SYSTEM, deadline.timeout)
        actor, cmd = next_move(RULESET, match.state, bots)
        match = apply(RULESET, match, RULESET.decide(match.state, actor, cmd, Rng(b"", 0)))
        step += 1
    assert step > 40
