"""Commands of card_monsters: checks, emission, decide, legal_commands, outcome, deadline (§6, §7, §9, §10).

Each ``check_<command>(state, actor, cmd)`` raises ``Rejected`` in the precondition order of §7 and returns
what emission needs. ``decide`` runs ``precheck``, the check, then the emission; ``legal_commands`` filters
the canonical candidates of §7 through the same two, so there is no second legality list.
"""

from __future__ import annotations

from typing import Literal

from engine.contract import Actor, Deadline, ForfeitReason, Outcome
from engine.dispatch import Decider, deciders
from engine.errors import Rejected
from engine.legal import Family, legal
from engine.precheck import check_common
from engine.rng import Rng
from engine.rulesets.card_monsters.codes import Code
from engine.rulesets.card_monsters.data import (
    CATALOG,
    EQUIPMENT_IDS,
    MONSTER_COLOURS,
    Card,
    ConsumableCard,
    Damage,
    EquipmentCard,
    GainCrystals,
    Heal,
    MonsterCard,
    max_hp_bonus,
)
from engine.rulesets.card_monsters.evolve import evolve
from engine.rulesets.card_monsters.model import (
    MAIN,
    OVER,
    POSITIONS,
    Command,
    Concede,
    ConsumableUsed,
    EffectHit,
    Engage,
    Equip,
    EquipmentAttached,
    Event,
    Forfeit,
    MatchEnded,
    Monster,
    MonsterHealed,
    MonsterPlayed,
    PlayMonster,
    Sacrifice,
    Sacrificed,
    State,
    Timeout,
    UseConsumable,
)
from engine.rulesets.card_monsters.resolve import (
    check_elimination,
    compact,
    destroy,
    end_turn,
    gain_crystals,
    refill,
)
from engine.tape import Tape

# --- common checks (§7) ---------------------------------------------------------------------------------


def precheck(state: State, actor: Actor, kind: str) -> None:
    """§7 checks before the fields: MATCH_OVER and NOT_YOUR_TURN; concede and timeout use their own rows."""
    check_common(kind, actor, over=state.status == OVER, acting=(state.active,) if state.status == MAIN else ())


# --- command checks (§7 table, in precondition order) -----------------------------------------------------


def check_play_monster(state: State, actor: Actor, cmd: PlayMonster) -> tuple[MonsterCard, int, int]:
    """The card, the lowest empty position (D9) and the crystals left after paying."""
    card = _hand_card(state, cmd.card)
    if not isinstance(card, MonsterCard):
        raise Rejected(Code.NOT_A_MONSTER, f"{cmd.card} is not a monster")
    field = state.sides[state.active].field
    if None not in field:
        raise Rejected(Code.FIELD_FULL, "all three positions are occupied")
    return card, field.index(None) + 1, _pay(state, card.cost)


def check_equip(state: State, actor: Actor, cmd: Equip) -> tuple[EquipmentCard, Monster, int]:
    """The equipment, the monster it goes on and the crystals left after paying."""
    card = _hand_card(state, cmd.card)
    if not isinstance(card, EquipmentCard):
        raise Rejected(Code.NOT_EQUIPMENT, f"{cmd.card} is not equipment")
    monster = _own_monster(state, cmd.position)
    colour = MONSTER_COLOURS[monster.card_id]
    if card.colour != "grey" and card.colour != colour:
        raise Rejected(Code.COLOUR_MISMATCH, f"{card.colour} equipment does not fit a {colour} monster")
    return card, monster, _pay(state, card.cost)


def check_use_consumable(state: State, actor: Actor, cmd: UseConsumable) -> tuple[ConsumableCard, int | None, int]:
    """The consumable, the target seat (None when untargeted, §8.3) and the crystals left after paying."""
    card = _hand_card(state, cmd.card)
    if not isinstance(card, ConsumableCard):
        raise Rejected(Code.NOT_CONSUMABLE, f"{cmd.card} is not a consumable")
    target_seat = _effect_target(state, card, cmd.target_position)
    return card, target_seat, _pay(state, card.cost)


def check_sacrifice(state: State, actor: Actor, cmd: Sacrifice) -> Card | Monster:
    """The hand card's catalog entry, or the field monster, being sacrificed (§8.4)."""
    if (cmd.card is None) == (cmd.position is None):
        raise Rejected(Code.BAD_FIELDS, "give exactly one of card or position")
    check_sacrifice_unused(state)
    if cmd.card is not None:
        return _hand_card(state, cmd.card)
    assert cmd.position is not None
    return _own_monster(state, cmd.position)


def check_sacrifice_unused(state: State) -> None:
    """At most one sacrifice per turn (§6.2); the same for every candidate, so legal_commands asks once."""
    if state.sides[state.active].sacrifice_used:
        raise Rejected(Code.SACRIFICE_ALREADY_USED, "you have already sacrificed this turn")


def check_engage(state: State, actor: Actor, cmd: Engage) -> None:
    """``engage`` has no preconditions beyond the common ones."""


def check_concede(state: State, actor: Actor, cmd: Concede) -> int:
    """The conceding seat; only a seat can concede (the system and admins play no side)."""
    if actor not in (0, 1):
        raise Rejected(Code.NOT_YOUR_TURN, "only a seat can concede")
    return int(actor)


def check_forfeit(state: State, actor: Actor, cmd: Forfeit) -> int:
    """The seat the system forfeits (``precheck`` has refused any other actor)."""
    if cmd.seat not in (0, 1):
        raise Rejected(Code.BAD_FIELDS, f"seat {cmd.seat} is not 0 or 1")
    return cmd.seat


def check_timeout(state: State, actor: Actor, cmd: Timeout) -> None:
    """§9: a timeout for another turn is stale, so replays never depend on the wall clock."""
    if cmd.turn != state.turn:
        raise Rejected(Code.TIMEOUT_STALE, f"turn {cmd.turn} is not the current turn")


def _hand_card(state: State, card: str) -> Card:
    side = state.sides[state.active]
    if card not in side.hand_monsters and card not in side.hand_items:
        raise Rejected(Code.CARD_NOT_IN_HAND, f"{card} is not in your hand")
    return CATALOG[state.card_ids[card]]


def _own_monster(state: State, position: int) -> Monster:
    if position not in POSITIONS:
        raise Rejected(Code.BAD_FIELDS, "position must be 1, 2 or 3")
    monster = state.sides[state.active].field[position - 1]
    if monster is None:
        raise Rejected(Code.POSITION_EMPTY, f"you have no monster at position {position}")
    return monster


def _effect_target(state: State, card: ConsumableCard, position: int | None) -> int | None:
    effect = card.effect
    if isinstance(effect, GainCrystals):
        if position is not None:
            raise Rejected(Code.INVALID_TARGET, f"{card.name} takes no target")
        return None
    seat = state.active if isinstance(effect, Heal) else 1 - state.active
    if position not in POSITIONS or state.sides[seat].field[position - 1] is None:
        side = "own" if isinstance(effect, Heal) else "enemy"
        raise Rejected(Code.INVALID_TARGET, f"{card.name} needs an occupied {side} position")
    return seat


def _pay(state: State, cost: int) -> int:
    crystals = state.sides[state.active].crystals
    if crystals < cost:
        raise Rejected(Code.NOT_ENOUGH_CRYSTALS, f"costs {cost}, you have {crystals}")
    return crystals - cost


# --- emission (§7 effects, §8) ----------------------------------------------------------------------------


def emit_play_monster(tape: Tape[State, Event], cmd: PlayMonster, plan: tuple[MonsterCard, int, int]) -> None:
    card, position, crystals = plan
    tape.emit(MonsterPlayed(tape.state.active, cmd.card, card.id, position, card.cost, crystals))
    refill(tape, tape.state.active, "monster")


def emit_equip(tape: Tape[State, Event], cmd: Equip, plan: tuple[EquipmentCard, Monster, int]) -> None:
    """§8.2 (D19): the old equipment's HP bonus comes off (never to 0 hp), then the new one's goes on."""
    card, monster, crystals = plan
    max_hp = monster.max_hp - max_hp_bonus(monster.equipment_id)
    hp = min(monster.hp, max_hp)
    bonus = max_hp_bonus(card.id)
    seat = tape.state.active
    tape.emit(
        EquipmentAttached(
            seat, cmd.card, card.id, cmd.position, card.cost, crystals, monster.equipment, hp + bonus, max_hp + bonus
        )
    )
    refill(tape, seat, "item")


def emit_use_consumable(
    tape: Tape[State, Event], cmd: UseConsumable, plan: tuple[ConsumableCard, int | None, int]
) -> None:
    """§8.3: ConsumableUsed, the effect, the refill, then the elimination check."""
    card, target_seat, crystals = plan
    seat = tape.state.active
    tape.emit(ConsumableUsed(seat, cmd.card, card.id, card.cost, crystals, target_seat, cmd.target_position))
    effect = card.effect
    if isinstance(effect, GainCrystals):
        gain_crystals(tape, seat, effect.amount, "effect")
    else:
        assert target_seat is not None and cmd.target_position is not None
        _apply_effect(tape, cmd, effect, target_seat, cmd.target_position)
    refill(tape, seat, "item")
    check_elimination(tape)


def _apply_effect(
    tape: Tape[State, Event], cmd: UseConsumable, effect: Heal | Damage, seat: int, position: int
) -> None:
    target = tape.state.sides[seat].field[position - 1]
    assert target is not None
    if isinstance(effect, Heal):
        applied = min(effect.amount, target.max_hp - target.hp)
        tape.emit(MonsterHealed(seat, position, target.card, applied, target.hp + applied))
        return
    hp = max(0, target.hp - effect.amount)
    tape.emit(EffectHit(tape.state.active, cmd.card, seat, position, target.card, effect.amount, hp))
    if hp == 0:
        destroy(tape, seat, position)
        compact(tape, seat)


def emit_sacrifice(tape: Tape[State, Event], cmd: Sacrifice, plan: Card | Monster) -> None:
    """§8.4 (D18, D27): no destruction crystal, losses unchanged; compaction or refill, then elimination."""
    seat = tape.state.active
    if isinstance(plan, Monster):
        assert cmd.position is not None
        entry = CATALOG[plan.card_id]
        tape.emit(Sacrificed(seat, plan.card, plan.card_id, "field", cmd.position, plan.equipment))
        gain_crystals(tape, seat, 1 + entry.sacrifice_bonus, "sacrifice")
        compact(tape, seat)
    else:
        assert cmd.card is not None
        base = 2 if isinstance(plan, MonsterCard) else 1  # D30: a consumable yields like equipment
        tape.emit(Sacrificed(seat, cmd.card, plan.id, "hand", None, None))
        gain_crystals(tape, seat, base + plan.sacrifice_bonus, "sacrifice")
        refill(tape, seat, "monster" if isinstance(plan, MonsterCard) else "item")
    check_elimination(tape)


def emit_concede(tape: Tape[State, Event], seat: int, reason: Literal["concede", "disconnected"] = "concede") -> None:
    """§10.2 (D26): the other seat wins (``reason``: ``disconnected`` when the system forfeits the seat)."""
    losses = (tape.state.sides[0].losses, tape.state.sides[1].losses)
    tape.emit(MatchEnded("win", 1 - seat, reason, losses))


# --- the contract functions -------------------------------------------------------------------------------


def decide_folded(state: State, actor: Actor, cmd: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events for ``cmd`` from ``actor``, or ``Rejected`` with the code of §7."""
    kind, decide = _DECIDERS[type(cmd)]
    precheck(state, actor, kind)
    tape = Tape(state, evolve)
    decide(tape, actor, cmd, rng)
    return tape.events, tape.state


# Each command's check and emission, found by one lookup on the exact type. A match statement tried its
# class patterns in turn, each miss an isinstance call on a msgspec class, so engage, the fifth case, paid
# about 0.3 µs before its own work.


def _decide_play_monster(tape: Tape[State, Event], actor: Actor, cmd: PlayMonster, rng: Rng) -> None:
    emit_play_monster(tape, cmd, check_play_monster(tape.state, actor, cmd))


def _decide_equip(tape: Tape[State, Event], actor: Actor, cmd: Equip, rng: Rng) -> None:
    emit_equip(tape, cmd, check_equip(tape.state, actor, cmd))


def _decide_use_consumable(tape: Tape[State, Event], actor: Actor, cmd: UseConsumable, rng: Rng) -> None:
    emit_use_consumable(tape, cmd, check_use_consumable(tape.state, actor, cmd))


def _decide_sacrifice(tape: Tape[State, Event], actor: Actor, cmd: Sacrifice, rng: Rng) -> None:
    emit_sacrifice(tape, cmd, check_sacrifice(tape.state, actor, cmd))


def _decide_engage(tape: Tape[State, Event], actor: Actor, cmd: Engage, rng: Rng) -> None:
    end_turn(tape, "engage", rng)


def _decide_concede(tape: Tape[State, Event], actor: Actor, cmd: Concede, rng: Rng) -> None:
    emit_concede(tape, check_concede(tape.state, actor, cmd))


def _decide_timeout(tape: Tape[State, Event], actor: Actor, cmd: Timeout, rng: Rng) -> None:
    check_timeout(tape.state, actor, cmd)
    end_turn(tape, "timeout", rng)


def _decide_forfeit(tape: Tape[State, Event], actor: Actor, cmd: Forfeit, rng: Rng) -> None:
    emit_concede(tape, check_forfeit(tape.state, actor, cmd), cmd.reason)


_DECIDERS: dict[type, tuple[str, Decider[State, Event]]] = deciders(
    Command,
    (
        (PlayMonster, _decide_play_monster),
        (Equip, _decide_equip),
        (UseConsumable, _decide_use_consumable),
        (Sacrifice, _decide_sacrifice),
        (Engage, _decide_engage),
        (Concede, _decide_concede),
        (Timeout, _decide_timeout),
        (Forfeit, _decide_forfeit),
    ),
)
"""Each command type's tag (for ``precheck``) and the function that checks and emits it."""


def _play_candidates(state: State, seat: int) -> list[PlayMonster]:
    return [PlayMonster(card) for card in state.sides[state.active].hand_monsters]


def _equip_candidates(state: State, seat: int) -> list[Equip]:
    card_ids = state.card_ids
    return [
        Equip(card, p)
        for card in state.sides[state.active].hand_items
        if card_ids[card] in EQUIPMENT_IDS
        for p in POSITIONS
    ]


def _consumable_candidates(state: State, seat: int) -> list[UseConsumable]:
    card_ids = state.card_ids
    return [
        UseConsumable(card, target)
        for card in state.sides[state.active].hand_items
        for target in _CONSUMABLE_TARGETS.get(card_ids[card], ())
    ]


def _sacrifice_candidates(state: State, seat: int) -> list[Sacrifice]:
    side = state.sides[state.active]
    by_card = [Sacrifice(card=card) for card in (*side.hand_monsters, *side.hand_items)]
    by_card.extend(_FIELD_SACRIFICES)
    return by_card


_CONSUMABLE_TARGETS: dict[str, tuple[int | None, ...]] = {
    card.id: (None,) if isinstance(card.effect, GainCrystals) else POSITIONS
    for card in CATALOG.values()
    if isinstance(card, ConsumableCard)
}
"""Each consumable's targets in §7 canonical order: ascending positions, or null for an untargeted effect."""
_FIELD_SACRIFICES = tuple(Sacrifice(position=p) for p in POSITIONS)


_ENGAGE = (Engage(),)
_CONCEDE = (Concede(),)

FAMILIES: tuple[Family[State], ...] = (
    Family("play_monster", _play_candidates, check_play_monster),
    Family("equip", _equip_candidates, check_equip),
    Family("use_consumable", _consumable_candidates, check_use_consumable),
    Family("sacrifice", _sacrifice_candidates, check_sacrifice, gate=lambda state, seat: check_sacrifice_unused(state)),
    Family("engage", lambda state, seat: _ENGAGE, check_engage),
    Family("concede", lambda state, seat: _CONCEDE, check_concede),
)
"""§7 command families in canonical order; their checks are the ones ``decide`` runs."""


def legal_commands(state: State, seat: int) -> list[Command]:
    """§7: exactly what ``decide`` accepts from ``seat`` now, in the canonical order."""
    return legal(FAMILIES, precheck, state, seat)


def to_act(state: State) -> tuple[int, ...]:
    """The active seat during its main phase; nobody once the match is over."""
    return (state.active,) if state.status == MAIN else ()


def deadline(state: State) -> Deadline | None:
    """§9: the active seat's main phase runs for ``turn_seconds``; expiry submits ``timeout{turn}``."""
    if state.status != MAIN:
        return None
    return Deadline(seat=state.active, seconds=float(state.options.turn_seconds), timeout=Timeout(state.turn))


def forfeit(seat: int, reason: ForfeitReason) -> Forfeit:
    """The system's concession for ``seat``: the other seat wins as by ``concede``, for ``reason``."""
    return Forfeit(seat, reason)


def outcome(state: State) -> Outcome | None:
    """§10: None while the match runs."""
    result = state.result
    return None if result is None else Outcome.two_seat(result.winner, result.reason)
