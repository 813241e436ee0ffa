"""Automatic procedures of card_monsters (card_monsters.md §6, §8, §10), one function each.

Every procedure appends events to a ``Tape``, which folds them as it goes, so a later step (a refill
after a play, a target after a compaction) reads the state the earlier events led to.
"""

from __future__ import annotations

from typing import Literal

from engine.rng import Rng
from engine.rulesets.card_monsters.data import PROFILES, AttackType
from engine.rulesets.card_monsters.model import (
    AttackHit,
    CardDrawn,
    CrystalReason,
    CrystalsGained,
    Event,
    HitKind,
    MatchEnded,
    Monster,
    MonsterDestroyed,
    MonsterMoved,
    Pile,
    State,
    TurnEnded,
    TurnStarted,
)
from engine.tape import Tape

BACK_ROW = (2, 3)
MAGIC_ORDER = {1: (1,), 2: (2, 1), 3: (3, 1)}
RANGED_ORDER = {2: (3, 2, 1), 3: (2, 3, 1)}


def gain_crystals(tape: Tape[State, Event], seat: int, amount: int, reason: CrystalReason) -> None:
    """§8.8: the nominal amount and the capped total, emitted even when nothing is added."""
    total = min(tape.state.options.crystal_cap, tape.state.sides[seat].crystals + amount)
    tape.emit(CrystalsGained(seat, amount, reason, total))


def refill(tape: Tape[State, Event], seat: int, pile: Pile) -> None:
    """§8.1: draw from the top of the matching pile until the sub-hand is full or the pile is empty."""
    options = tape.state.options
    limit = options.hand_monsters if pile == "monster" else options.hand_items
    while True:
        side = tape.state.sides[seat]
        if pile == "monster":
            hand, cards = side.hand_monsters, side.monster_pile
        else:
            hand, cards = side.hand_items, side.item_pile
        if len(hand) >= limit or not cards:
            return
        tape.emit(CardDrawn(seat, pile, cards[0], tape.state.card_ids[cards[0]]))


def destroy(tape: Tape[State, Event], seat: int, position: int) -> None:
    """§8.6: the owner gains one crystal (D4); losses go up in the fold."""
    monster = tape.state.sides[seat].field[position - 1]
    assert monster is not None
    tape.emit(MonsterDestroyed(seat, position, monster.card, monster.card_id, monster.equipment))
    gain_crystals(tape, seat, 1, "monster_destroyed")


def compact(tape: Tape[State, Event], seat: int) -> None:
    """§8.7 (D9): close the line up, 2→1 before 3→2, until it is compact."""
    while True:
        field = tape.state.sides[seat].field
        if field[0] is None and field[1] is not None:
            tape.emit(MonsterMoved(seat, field[1].card, 2, 1))
        elif field[1] is None and field[2] is not None:
            tape.emit(MonsterMoved(seat, field[2].card, 3, 2))
        else:
            return


def monsters_remaining(state: State, seat: int) -> int:
    """§8.9: occupied positions + hand monsters + monster pile."""
    side = state.sides[seat]
    field = side.field
    return len(field) - field.count(None) + len(side.hand_monsters) + len(side.monster_pile)


def check_elimination(tape: Tape[State, Event]) -> bool:
    """§10.1: ends the match if a seat has no monster left; True when it did."""
    # Runs after nearly every command: each seat is counted once, with no list or generator built.
    state = tape.state
    out_0 = monsters_remaining(state, 0) == 0
    out_1 = monsters_remaining(state, 1) == 0
    if not (out_0 or out_1):
        return False
    losses = _losses(state)
    if out_0 and out_1:
        tape.emit(MatchEnded("draw", None, "eliminated", losses))
    else:
        tape.emit(MatchEnded("win", 1 if out_0 else 0, "eliminated", losses))
    return True


def end_by_turn_limit(tape: Tape[State, Event]) -> None:
    """§10.3 (D25): fewer losses wins; equal losses is a draw."""
    losses = _losses(tape.state)
    if losses[0] == losses[1]:
        tape.emit(MatchEnded("draw", None, "turn_limit", losses))
    else:
        tape.emit(MatchEnded("win", 0 if losses[0] < losses[1] else 1, "turn_limit", losses))


def start_turn(tape: Tape[State, Event], seat: int, turn: int) -> None:
    """§6.1: TurnStarted, then the turn's 3 crystals."""
    tape.emit(TurnStarted(turn, seat, tape.state.options.turn_seconds))
    gain_crystals(tape, seat, 3, "turn_start")


def end_turn(tape: Tape[State, Event], reason: Literal["engage", "timeout"], rng: Rng) -> None:
    """§6.3: TurnEnded, combat, the elimination check, the turn limit, then the next turn."""
    state = tape.state
    seat, turn = state.active, state.turn
    tape.emit(TurnEnded(seat, turn, reason))
    combat(tape, seat, rng)
    if check_elimination(tape):
        return
    if turn == state.options.max_turns:
        end_by_turn_limit(tape)
        return
    start_turn(tape, 1 - seat, turn + 1)


def combat(tape: Tape[State, Event], attacker: int, rng: Rng) -> None:
    """§8.5 (D6, D11-D17): the attacker's monsters attack from position 3, then 2, then 1."""
    defender = 1 - attacker
    field = tape.state.sides[attacker].field  # D6: the attacker's field never changes in its own combat
    for p in (3, 2, 1):
        monster = field[p - 1]
        if monster is not None:
            _attack_with(tape, attacker, defender, p, monster, rng)


def _attack_with(tape: Tape[State, Event], attacker: int, defender: int, p: int, monster: Monster, rng: Rng) -> None:
    profile = PROFILES[monster.card_id, monster.equipment_id]
    traits = profile.traits
    for t, value in profile.attacks:
        target = _primary_target(tape.state, defender, p, t, "long_reach" in traits, rng)
        if target is None:
            continue  # D16: an attack without a target does nothing
        hits: list[tuple[int, HitKind]] = [(target, "primary")]
        if t == "magic" and "aoe" in traits:
            splash = _splash_target(tape.state, defender, target, rng)
            if splash is not None:
                hits.append((splash, "splash"))
        _apply_hits(tape, attacker, defender, p, t, value, hits)
        if t == "melee" and "double_strike" in traits:
            # D14, D17: the second target is chosen after the first hit's destructions and compaction
            back = _occupied(tape.state, defender, BACK_ROW)
            if back:
                _apply_hits(tape, attacker, defender, p, t, value, [(rng.choose(back), "double_strike")])


def _primary_target(state: State, defender: int, p: int, t: AttackType, long_reach: bool, rng: Rng) -> int | None:
    """§8.5 primary_target, D10, D12, D13: None when the attack type cannot hit from ``p``."""
    if t == "random":
        candidates = _occupied(state, defender, (1, 2, 3))
        return rng.choose(candidates) if candidates else None
    if t == "magic":
        order = MAGIC_ORDER[p]
    elif t == "ranged":
        if p == 1:
            return None
        order = RANGED_ORDER[p]
    else:
        if p != 1 and not long_reach:
            return None
        order = (1,)
    field = state.sides[defender].field
    for r in order:
        if field[r - 1] is not None:
            return r
    return None


def _splash_target(state: State, defender: int, primary: int, rng: Rng) -> int | None:
    """D15: a hit on 2 or 3 splashes enemy 1; a hit on 1 splashes a random occupied enemy 2/3."""
    if primary in BACK_ROW:
        return 1 if state.sides[defender].field[0] is not None else None
    back = _occupied(state, defender, BACK_ROW)
    return rng.choose(back) if back else None


def _occupied(state: State, seat: int, positions: tuple[int, ...]) -> list[int]:
    field = state.sides[seat].field
    return [r for r in positions if field[r - 1] is not None]


def _apply_hits(
    tape: Tape[State, Event],
    attacker: int,
    defender: int,
    p: int,
    t: AttackType,
    value: int,
    hits: list[tuple[int, HitKind]],
) -> None:
    """§8.5 apply_hits: all damage first, then destructions in hit order, then one compaction."""
    for r, kind in hits:
        target = tape.state.sides[defender].field[r - 1]
        assert target is not None
        tape.emit(AttackHit(attacker, p, t, kind, defender, r, target.card, value, max(0, target.hp - value)))
    for r, _ in hits:
        target = tape.state.sides[defender].field[r - 1]
        if target is not None and target.hp == 0:
            destroy(tape, defender, r)
    compact(tape, defender)


def _losses(state: State) -> tuple[int, int]:
    return (state.sides[0].losses, state.sides[1].losses)
