"""Effect verbs, leaving the field, activations and the trigger queue (duel.md §8.7-§8.9, §8.11).

Every verb reads the state as it is at its step (§8.8) and resolution stops as soon as the match ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, assert_never

from engine.rulesets.duel.board import atk, equips_of, free_slot, monster_slot, spell_trap_slot
from engine.rulesets.duel.data import (
    AFTER,
    BATTLE_GRAVE,
    CATALOG,
    FLIP,
    TRIGGERS,
    AddCounter,
    ChangePosition,
    Countdown,
    Damage,
    Destroy,
    Draw,
    Equip,
    FlipUpAll,
    FusionSummon,
    ReturnToHand,
    SetCounter,
    SpecialSummon,
    Step,
)
from engine.rulesets.duel.model.commands import Choices
from engine.rulesets.duel.model.events import (
    CardActivated,
    CardDestroyed,
    CardReturned,
    CardSentToGraveyard,
    CountersChanged,
    DamageDealt,
    DecisionClosed,
    EffectResolved,
    EffectTriggered,
    EquipAttached,
    EquipTarget,
    Event,
    MonsterFlipped,
    MonsterTurnedFaceDown,
    PositionChanged,
    SpecialSummoned,
)
from engine.rulesets.duel.model.state import (
    Details,
    GraveyardRef,
    MonsterRef,
    Pending,
    QueuedTrigger,
    SpellTrapRef,
    State,
    TargetRef,
    card_of,
    owner_of,
)
from engine.rulesets.duel.resolve.decisions import request
from engine.rulesets.duel.resolve.end import check_end, draw
from engine.rulesets.duel.targets import candidates
from engine.tape import Tape


@dataclass
class Context:
    """One effect resolving: its controller ``seat`` (P), its ``source`` card (self), target and choices."""

    seat: int
    source: str
    target: TargetRef | None = None
    choices: Choices = Choices()
    target_atk: int = 0


@dataclass(frozen=True)
class Activation:
    """A checked ``activate`` (§8.7): what resolution needs."""

    seat: int
    instance: str
    card_id: str
    slot: int
    from_hand: bool
    targets: tuple[TargetRef, ...]
    choices: Choices
    window: Pending | None


def destroy_card(tape: Tape[State, Event], seat: int, zone: str, slot: int, cause: str) -> None:
    """§8.11 ``destroy_card``: to the owner's graveyard, cleanup, and the battle-destruction trigger."""
    side = tape.state.sides[seat]
    card = side.monsters[slot] if zone == "monster" else side.spell_traps[slot]
    assert card is not None
    instance, card_id = card.instance, card.card_id
    tape.emit(CardDestroyed(seat, zone, slot, instance, card_id, owner_of(instance), cause))  # type: ignore[arg-type]
    if zone == "monster":
        cleanup(tape, instance)
        if cause == "battle" and card_id in BATTLE_GRAVE:
            tape.emit(EffectTriggered(seat, instance, card_id, "sent_to_gy_by_battle"))


def cleanup(tape: Tape[State, Event], instance: str) -> None:
    """§8.11: equips of a monster that left the field or turned face-down go to the graveyard (D32)."""
    for seat, slot, card in list(equips_of(tape.state, instance)):
        tape.emit(
            CardSentToGraveyard(
                seat,
                "spell_trap",
                slot,
                card.instance,
                card.card_id,
                owner_of(card.instance),
                "equip_lost",
            )
        )


def resolve_activation(tape: Tape[State, Event], act: Activation) -> None:
    """§8.7 resolution: close the window, activate, run the steps, then the card's ``after``."""
    if act.window is not None:
        tape.emit(DecisionClosed(act.window.decision_id, act.seat, "answer"))
    window = act.window.details.trigger if act.window is not None else None
    tape.emit(
        CardActivated(
            act.seat,
            act.slot,
            act.instance,
            act.card_id,
            "hand" if act.from_hand else "set",
            act.targets,
            act.choices,
            window,  # type: ignore[arg-type]
        )
    )
    effect = CATALOG[act.card_id].effect.activate
    assert effect is not None
    target = act.targets[0] if act.targets else None
    run_steps(tape, Context(act.seat, act.instance, target, act.choices), effect.steps)
    if tape.state.ended or AFTER[act.card_id] != "graveyard":
        return
    card = tape.state.sides[act.seat].spell_traps[act.slot]
    if card is not None and card.instance == act.instance:
        owner = owner_of(act.instance)
        tape.emit(CardSentToGraveyard(act.seat, "spell_trap", act.slot, act.instance, act.card_id, owner, "resolved"))


def resolve_first_trigger(tape: Tape[State, Event]) -> None:
    """§8.9: resolve the first queued trigger, or ask its seat for a target; no candidates means it fizzles."""
    queued = tape.state.queue[0]
    spec = TRIGGERS[(queued.card_id, queued.trigger)]
    if spec.target is None:
        run_steps(tape, Context(queued.seat, queued.instance), spec.steps)
        if not tape.state.ended:
            tape.emit(EffectResolved(queued.seat, queued.instance, queued.card_id, queued.trigger, None, False))
        return
    refs = candidates(tape.state, queued.seat, spec.target, queued.instance)
    if not refs:
        tape.emit(EffectResolved(queued.seat, queued.instance, queued.card_id, queued.trigger, None, True))
        return
    details = Details(source=queued.instance, card_id=queued.card_id, trigger=queued.trigger, candidates=tuple(refs))
    request(tape, queued.seat, "select_target", details)


def resolve_chosen(tape: Tape[State, Event], queued: QueuedTrigger, target: TargetRef) -> None:
    """§8.9 ``choose_target``: the trigger's steps on the chosen target, then ``EffectResolved``."""
    spec = TRIGGERS[(queued.card_id, queued.trigger)]
    run_steps(tape, Context(queued.seat, queued.instance, target), spec.steps)
    if not tape.state.ended:
        tape.emit(EffectResolved(queued.seat, queued.instance, queued.card_id, queued.trigger, target, False))


def run_steps(tape: Tape[State, Event], ctx: Context, steps: tuple[Step, ...]) -> None:
    """Runs effect steps in order (§8.8); stops when the match ends."""
    for step in steps:
        target = ctx.target
        if isinstance(target, MonsterRef):
            monster = tape.state.sides[target.seat].monsters[target.slot]
            if monster is not None:
                ctx.target_atk = atk(tape.state, monster)
        run_step(tape, ctx, step)
        if tape.state.ended:
            return


def run_step(tape: Tape[State, Event], ctx: Context, step: Step) -> None:
    """One verb of §8.8."""
    match step:
        case Destroy(what=what):
            _destroy(tape, ctx, what)
        case Damage(to=to, amount=amount):
            value = ctx.target_atk if amount == "target_atk" else amount
            seats = [1 - ctx.seat] if to == "opponent" else [ctx.seat, 1 - ctx.seat]
            deal_damage(tape, seats, value, "effect", ctx.source)
        case Draw(count=count):
            draw(tape, ctx.seat, count)
        case FlipUpAll():
            _flip_up_all(tape, 1 - ctx.seat)
        case ChangePosition(to=to):
            _change_position(tape, ctx, to)
        case ReturnToHand():
            _return_to_hand(tape, ctx)
        case SpecialSummon():
            _special_summon(tape, ctx, step)
        case FusionSummon():
            _fusion_summon(tape, ctx)
        case Equip():
            _equip(tape, ctx)
        case SetCounter(counter=name, value=value):
            _counters(tape, ctx, name, lambda _: value)
        case AddCounter(counter=name, n=n):
            _counters(tape, ctx, name, lambda old: old + n)
            check_end(tape)
        case Countdown(counter=name):
            _countdown(tape, ctx, name)
        case _:
            assert_never(step)


def deal_damage(tape: Tape[State, Event], seats: list[int], amount: int, kind: str, source: str) -> None:
    """``DamageDealt`` for each seat in order when the amount is positive, then one check point (D24)."""
    if amount > 0:
        for seat in seats:
            lp = max(0, tape.state.sides[seat].lp - amount)
            tape.emit(DamageDealt(seat, amount, lp, kind, source))  # type: ignore[arg-type]
    check_end(tape)


def _destroy(tape: Tape[State, Event], ctx: Context, what: str) -> None:
    state = tape.state
    if what == "attacker":
        if state.attack is None:
            return
        slot = monster_slot(state.sides[state.turn_seat], state.attack.attacker)
        if slot is not None:
            destroy_card(tape, state.turn_seat, "monster", slot, "effect")
        return
    target = ctx.target
    if isinstance(target, MonsterRef) and state.sides[target.seat].monsters[target.slot] is not None:
        destroy_card(tape, target.seat, "monster", target.slot, "effect")
    elif isinstance(target, SpellTrapRef) and state.sides[target.seat].spell_traps[target.slot] is not None:
        destroy_card(tape, target.seat, "spell_trap", target.slot, "effect")


def _flip_up_all(tape: Tape[State, Event], seat: int) -> None:
    for slot in range(5):
        flip_face_up(tape, seat, slot, "effect")


def flip_face_up(tape: Tape[State, Event], seat: int, slot: int, cause: Literal["attacked", "effect"]) -> None:
    """A face-down monster in the slot turns face-up, keeping its stance, and its flip effect triggers (D13);
    an empty slot or a face-up monster is left alone."""
    monster = tape.state.sides[seat].monsters[slot]
    if monster is None or monster.face_up:
        return
    to = "fu_defense" if monster.position == "fd_defense" else "fu_attack"
    tape.emit(MonsterFlipped(seat, slot, monster.instance, monster.card_id, monster.position, to, cause))
    if monster.card_id in FLIP:
        tape.emit(EffectTriggered(seat, monster.instance, monster.card_id, "flip"))


def _change_position(tape: Tape[State, Event], ctx: Context, to: str) -> None:
    target = ctx.target
    assert isinstance(target, MonsterRef)
    monster = tape.state.sides[target.seat].monsters[target.slot]
    if monster is None:
        return
    args = (target.seat, target.slot, monster.instance, monster.card_id, monster.position, to)
    if to == "fd_attack":
        tape.emit(MonsterTurnedFaceDown(*args))
        cleanup(tape, monster.instance)
    else:
        tape.emit(PositionChanged(*args, "effect"))


def _return_to_hand(tape: Tape[State, Event], ctx: Context) -> None:
    target = ctx.target
    assert isinstance(target, MonsterRef)
    monster = tape.state.sides[target.seat].monsters[target.slot]
    if monster is None:
        return
    to: Literal["hand", "extra"] = "extra" if CATALOG[monster.card_id].monster_kind == "fusion" else "hand"  # D29
    owner = owner_of(monster.instance)
    tape.emit(CardReturned(target.seat, target.slot, monster.instance, monster.card_id, owner, to))
    cleanup(tape, monster.instance)
    check_end(tape)


def summon_position(choice: object) -> str:
    """``position: choice`` → attack ⇒ fu_attack, defense ⇒ fu_defense (§8.8)."""
    return "fu_attack" if choice == "attack" else "fu_defense"


def _special_summon(tape: Tape[State, Event], ctx: Context, step: SpecialSummon) -> None:
    state = tape.state
    choices = ctx.choices
    if step.what == "target":
        assert isinstance(ctx.target, GraveyardRef)
        instance, source = ctx.target.instance, "graveyard"
    elif choices.source == "hand":
        instance, source = str(choices.card), "hand"
    else:
        deck = state.sides[ctx.seat].deck
        instance = next(i for i in deck if card_of(state, i) == choices.card)  # the topmost copy (D3)
        source = "deck"
    slot = free_slot(state.sides[ctx.seat].monsters)
    assert slot is not None
    position = summon_position(choices.position) if step.position == "choice" else step.position
    tape.emit(SpecialSummoned(ctx.seat, slot, instance, card_of(state, instance), position, source))  # type: ignore[arg-type]


def _fusion_summon(tape: Tape[State, Event], ctx: Context) -> None:
    materials = ctx.choices.materials
    assert isinstance(materials, tuple) and isinstance(ctx.choices.fusion, str)
    for instance in materials:
        side = tape.state.sides[ctx.seat]
        card_id = card_of(tape.state, instance)
        slot = monster_slot(side, instance)
        zone: Literal["hand", "monster"] = "hand" if slot is None else "monster"
        tape.emit(CardSentToGraveyard(ctx.seat, zone, slot, instance, card_id, owner_of(instance), "fusion_material"))
        if slot is not None:
            cleanup(tape, instance)
    fusion = ctx.choices.fusion
    slot = free_slot(tape.state.sides[ctx.seat].monsters)
    assert slot is not None
    position = summon_position(ctx.choices.position)
    tape.emit(SpecialSummoned(ctx.seat, slot, fusion, card_of(tape.state, fusion), position, "extra"))


def _self_slot(tape: Tape[State, Event], ctx: Context) -> int:
    slot = spell_trap_slot(tape.state.sides[ctx.seat], ctx.source)
    assert slot is not None
    return slot


def _equip(tape: Tape[State, Event], ctx: Context) -> None:
    target = ctx.target
    assert isinstance(target, MonsterRef)
    monster = tape.state.sides[target.seat].monsters[target.slot]
    if monster is None:
        return
    equip_target = EquipTarget(target.seat, target.slot, monster.instance)
    tape.emit(EquipAttached(ctx.seat, _self_slot(tape, ctx), ctx.source, equip_target))


def _counters(tape: Tape[State, Event], ctx: Context, name: str, change: Callable[[int], int]) -> None:
    slot = _self_slot(tape, ctx)
    card = tape.state.sides[ctx.seat].spell_traps[slot]
    assert card is not None
    tape.emit(CountersChanged(ctx.seat, slot, ctx.source, name, change(card.counter(name))))


def _countdown(tape: Tape[State, Event], ctx: Context, name: str) -> None:
    _counters(tape, ctx, name, lambda old: old - 1)
    slot = _self_slot(tape, ctx)
    card = tape.state.sides[ctx.seat].spell_traps[slot]
    assert card is not None
    if card.counter(name) == 0:
        owner = owner_of(card.instance)
        tape.emit(CardSentToGraveyard(ctx.seat, "spell_trap", slot, card.instance, card.card_id, owner, "expired"))
