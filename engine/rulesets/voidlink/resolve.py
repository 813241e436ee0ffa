"""Automatic procedures of voidlink (docs/rulesets/voidlink.md §8), one function each.

Every procedure appends events to a ``Tape``, which folds them as it goes, so a later step reads the state the
earlier events led to. Once ``MatchEnded`` is on the tape every procedure stops (§8): callers test ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import engine.tape
from engine.rulesets.voidlink.board import (
    atk,
    catalog,
    empty_zone,
    face_of,
    find,
    flipped,
    in_attack,
    monsters,
    on_field,
    system_of,
)
from engine.rulesets.voidlink.checks import has_response
from engine.rulesets.voidlink.data import (
    AddCounter,
    AllMonsters,
    DealDamage,
    DelayedEndPhase,
    Destroy,
    Draw,
    FlipSystem,
    Form,
    Gain,
    ModifyAtk,
    MonsterCard,
    NegateAndDestroy,
    NegateAttack,
    Pool,
    SpecialSummon,
    Step,
    System,
    TargetSpec,
    WinIfCounter,
)
from engine.rulesets.voidlink.evolve import evolve
from engine.rulesets.voidlink.model import Event, State
from engine.rulesets.voidlink.model.events import (
    AttackEnded,
    AttackNegated,
    AwaitingDecision,
    BattleCalculated,
    CardDestroyed,
    CardsDrawn,
    ChainLinkAdded,
    ChainResolved,
    CounterAdded,
    DelayedEffectRegistered,
    DelayedEffectResolved,
    DestructionPrevented,
    DrawFailed,
    DrawSkipped,
    EffectTriggered,
    FormChanged,
    LinkNegated,
    LinkResolved,
    MatchEnded,
    ModifiersExpired,
    MonsterSummoned,
    Moved,
    PhaseChanged,
    PoolChanged,
    SentToGraveyard,
    SpecialVictory,
    StatModified,
    TurnEnded,
    TurnStarted,
)
from engine.rulesets.voidlink.model.state import (
    Cause,
    Link,
    LinkSource,
    Monster,
    Subject,
    SummonFrom,
    SummonMethod,
    Window,
)
from engine.rulesets.voidlink.targets import link_effect, still_valid

Tape = engine.tape.Tape[State, Event]


def new_tape(state: State) -> Tape:
    """The engine's tape on this ruleset's fold."""
    return engine.tape.Tape(state, evolve)


def over(tape: Tape) -> bool:
    return tape.state.result is not None


def pool_of(system: System) -> Pool:
    """§8.1.4: Void hits LP, Reality hits HP (D7)."""
    return "lp" if system == "void" else "hp"


# --- decisions and windows (§8.5, §8.6) ----------------------------------------------------------------------


def await_open(tape: Tape) -> None:
    state = tape.state
    tape.emit(AwaitingDecision(state.turn_seat, "open", None, None, state.seq + 1, state.options.open_timer_s))


def window(tape: Tape, responder: int, kind: Window) -> None:
    """§8.5 (D18): a window opens only when the responder has a legal activation."""
    state = tape.state
    if has_response(state, responder, kind):
        tape.emit(AwaitingDecision(responder, "response", kind, None, state.seq + 1, state.options.response_timer_s))
    else:
        proceed(tape, kind)


def proceed(tape: Tape, kind: Window) -> None:
    """CONTINUE (§8.6)."""
    if kind == "chain":
        resolve_chain(tape)
    elif kind == "summon":
        await_open(tape)
    elif kind == "attack":
        battle(tape)
    else:
        pending = tape.state.pending_phase_end
        assert pending is not None
        phase_transition(tape, pending)


def add_link(
    tape: Tape,
    seat: int,
    card: str,
    source: LinkSource,
    zone: int | None,
    targets: tuple[str, ...],
    form: Form | None,
    effect: int | None = None,
    system: System | None = None,
) -> None:
    """ACTIVATE steps 2-3 (§8.4): the link, then a chain window for the other seat."""
    state = tape.state
    awaiting = state.awaiting
    assert awaiting is not None
    link = len(state.chain) + 1
    origin = (awaiting.window if awaiting.kind == "response" else "open") if link == 1 else None
    tape.emit(
        ChainLinkAdded(link, seat, card, state.card_ids[card], source, zone, effect, system, targets, form, origin)
    )
    window(tape, 1 - seat, "chain")


# --- effects (§8.3, §8.8, §8.9) --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What a list of steps runs with: its controller, source, source system and targets or frozen subjects."""

    seat: int
    card: str | None
    card_id: str
    source_entry: int | None
    system: System | None
    link: Link | None = None
    specs: tuple[TargetSpec, ...] = ()
    subjects: tuple[Subject, ...] | None = None


def resolve_chain(tape: Tape) -> None:
    """RESOLVE_CHAIN (§8.7): last in, first out; CHECK after every link."""
    origin = tape.state.chain[0].origin
    for i in range(len(tape.state.chain) - 1, -1, -1):
        link = tape.state.chain[i]
        if not link.negated:
            effect = link_effect(link)
            context = Context(link.seat, link.card, link.card_id, link.source_entry, link.system, link, effect.targets)
            execute(tape, context, effect.steps)
            if over(tape):
                return
        _clear_link(tape, tape.state.chain[i])
        tape.emit(LinkResolved(link.link, tape.state.chain[i].negated))
        if check(tape):
            return
    tape.emit(ChainResolved())
    if origin == "attack":
        battle(tape)
    else:
        await_open(tape)


def _clear_link(tape: Tape, link: Link) -> None:
    """A resolved link's card goes to the graveyard if it is still face-up in its zone or on the chain."""
    player = tape.state.players[link.seat]
    if link.source in ("hand", "set", "extra"):
        assert link.zone is not None
        slot = player.magic[link.zone]
        if slot is not None and slot.card == link.card and not slot.face_down:
            tape.emit(SentToGraveyard(link.seat, (Moved(link.card, link.card_id, "magic_zone"),), "resolved"))
    elif link.source == "tactics" and link.card in tape.state.on_chain:
        tape.emit(SentToGraveyard(link.seat, (Moved(link.card, link.card_id, "chain"),), "resolved"))


def execute(tape: Tape, context: Context, steps: tuple[Step, ...]) -> None:
    """§8.9: the steps in order; stops once the match has ended."""
    for step in steps:
        _step(tape, context, step)
        if over(tape):
            return


def _target0(tape: Tape, context: Context) -> str | None:
    """The first target if still valid (§8.8), or the first frozen subject of a delayed effect."""
    state = tape.state
    if context.subjects is not None:
        if not context.subjects:
            return None
        first = context.subjects[0]
        return first.card if on_field(state, first.card, first.entry) is not None else None
    link = context.link
    if link is None or not link.targets:
        return None
    card, entry = link.targets[0], link.entries[0]
    return card if still_valid(state, link.seat, context.specs[0], card, entry, link.system) else None


def _subjects(tape: Tape, context: Context, subject: object) -> list[Monster]:
    """The monsters a step acts on (§8.8 subjects), in order."""
    state = tape.state
    if subject == "self":
        if context.card is None or context.subjects is not None:
            return []
        monster = on_field(state, context.card, context.source_entry)
        return [monster] if monster is not None else []
    if subject == "target0":
        card = _target0(tape, context)
        found = find(state, card) if card is not None else None
        return [found[2]] if found is not None else []
    if subject == "attacker":
        attack = state.attack
        monster = on_field(state, attack.attacker, attack.attacker_entry) if attack is not None else None
        return [monster] if monster is not None else []
    assert isinstance(subject, AllMonsters)
    seat = context.seat if subject.all_monsters == "self" else 1 - context.seat
    chosen = monsters(state, seat)
    if context.system is not None:
        chosen = [m for m in chosen if system_of(m.form) == context.system]
    return chosen


def _step(tape: Tape, context: Context, step: Step) -> None:
    seat = context.seat
    match step:
        case Draw(who=who, n=n):
            draw(tape, (seat,) if who == "self" else (seat, 1 - seat), n, "effect")
        case DealDamage(who=who, pool=pool, amount=amount):
            target = _pool(context, pool)
            for s in (1 - seat,) if who == "opponent" else (seat, 1 - seat):
                damage(tape, s, target, amount, "effect")
        case Gain(pool=pool, amount=amount):
            gain(tape, seat, _pool(context, pool), amount)
        case ModifyAtk(subject=subject, amount=amount):
            for m in _subjects(tape, context, subject):
                tape.emit(StatModified(m.card, amount, max(0, face_of(m)[0] + sum(m.modifiers) + amount)))
        case Destroy(subject=subject):
            for m in _subjects(tape, context, subject):
                found = find(tape.state, m.card)
                assert found is not None
                tape.emit(CardDestroyed(m.card, m.card_id, found[0], "monster_zone", "effect"))
        case FlipSystem(subject=subject):
            for m in _subjects(tape, context, subject):
                if isinstance(catalog(tape.state, m.card), MonsterCard):
                    tape.emit(FormChanged(m.card, m.form, flipped(m.form), "effect"))
        case SpecialSummon():
            _special_summon(tape, context)
        case NegateAttack():
            attack = tape.state.attack
            if attack is not None and not attack.negated:
                tape.emit(AttackNegated(attack.attacker))
        case NegateAndDestroy():
            assert context.link is not None
            _negate_and_destroy(tape, context.link.link)
        case DelayedEndPhase(steps=steps):
            card = _target0(tape, context)
            found = find(tape.state, card) if card is not None else None
            subjects = (Subject(found[2].card, found[2].entry),) if found is not None else ()
            state = tape.state
            tape.emit(
                DelayedEffectRegistered(state.delayed_counter + 1, seat, state.turn, context.card_id, subjects, steps)
            )
        case AddCounter(counter=counter, n=n):
            for m in _subjects(tape, context, "self"):
                tape.emit(CounterAdded(m.card, counter, m.counters.get(counter, 0) + n))
        case WinIfCounter(counter=counter, at_least=at_least):
            for m in _subjects(tape, context, "self"):
                if m.counters.get(counter, 0) >= at_least:
                    tape.emit(SpecialVictory(seat, m.card, m.card_id))
                    tape.emit(MatchEnded("win", seat, "special_victory"))


def _pool(context: Context, pool: str) -> Pool:
    if pool == "source_system":
        assert context.system is not None, "source_system is for monster effects only (§13.1)"
        return pool_of(context.system)
    return "hp" if pool == "hp" else "lp"


def _special_summon(tape: Tape, context: Context) -> None:
    card = _target0(tape, context)
    link = context.link
    if card is None or link is None or link.form is None:
        return
    player = tape.state.players[context.seat]
    origin: SummonFrom = "hand" if card in player.hand else "graveyard"
    summon(tape, context.seat, card, origin, link.form, "special")


def _negate_and_destroy(tape: Tape, by_link: int) -> None:
    """§8.9: negate the link below and destroy its source (a commander is never destroyed, D20)."""
    state = tape.state
    below = state.chain[by_link - 2]
    tape.emit(LinkNegated(below.link, by_link))
    if below.source == "commander":
        tape.emit(DestructionPrevented(below.card, "commander"))
    elif below.source == "monster":
        monster = on_field(state, below.card, below.source_entry)
        if monster is not None:
            tape.emit(CardDestroyed(below.card, below.card_id, below.seat, "monster_zone", "effect"))
    elif below.source == "tactics":
        if below.card in state.on_chain:
            tape.emit(CardDestroyed(below.card, below.card_id, below.seat, "chain", "effect"))
    else:
        assert below.zone is not None
        slot = state.players[below.seat].magic[below.zone]
        if slot is not None and slot.card == below.card and not slot.face_down:
            tape.emit(CardDestroyed(below.card, below.card_id, below.seat, "magic_zone", "effect"))


def summon(tape: Tape, seat: int, card: str, origin: SummonFrom, form: Form, method: SummonMethod) -> None:
    """SUMMON (§8.2): lowest empty zone, on-summon triggers, then a summon window for command summons."""
    state = tape.state
    zone = empty_zone(state.players[seat].monsters)
    if zone is None:
        return
    entry = state.entry_counter + 1
    tape.emit(MonsterSummoned(seat, card, state.card_ids[card], origin, zone, form, method, entry))
    in_link = method == "special"
    found = find(tape.state, card)
    assert found is not None
    for index, effect in enumerate(face_of(found[2])[2]):
        if effect.kind == "on_summon":
            trigger(tape, seat, card, entry, index, in_link)
            if over(tape):
                return
    if not in_link:
        window(tape, 1 - seat, "summon")


def trigger(tape: Tape, seat: int, card: str, entry: int, index: int, in_link: bool) -> None:
    """TRIGGER (§8.3, D5, D24): skipped when locked to the other system; CHECK unless inside a link."""
    monster = on_field(tape.state, card, entry)
    if monster is None:
        return
    system = system_of(monster.form)
    if monster.lock is not None and monster.lock != system:
        return
    tape.emit(EffectTriggered(seat, card, monster.card_id, system, index))
    effect = face_of(monster)[2][index]
    execute(tape, Context(seat, card, monster.card_id, entry, system), effect.steps)
    if not in_link and not over(tape):
        check(tape)


# --- pools, draws and the checkpoint (§8.9, §8.11, §8.12) ------------------------------------------------------


def damage(tape: Tape, seat: int, pool: Pool, amount: int, cause: Cause) -> None:
    player = tape.state.players[seat]
    current = player.hp if pool == "hp" else player.lp
    new = max(0, current - amount)
    tape.emit(PoolChanged(seat, pool, new - current, new, cause))


def gain(tape: Tape, seat: int, pool: Pool, amount: int) -> None:
    player = tape.state.players[seat]
    current = player.hp if pool == "hp" else player.lp
    tape.emit(PoolChanged(seat, pool, amount, current + amount, "effect"))


def draw(tape: Tape, seats: tuple[int, ...], n: int, reason: Literal["draw_phase", "effect"]) -> None:
    """DRAW (§8.11, D12): a short deck moves nothing and marks the seat decked out."""
    for seat in seats:
        deck = tape.state.players[seat].deck
        if len(deck) >= n:
            tape.emit(CardsDrawn(seat, deck[:n], n, reason))
        else:
            tape.emit(DrawFailed(seat, n, len(deck)))


def check(tape: Tape) -> bool:
    """CHECK (§8.12, D11, D12): ends the match when a seat has lost; True when it did."""
    lost = [s for s, p in enumerate(tape.state.players) if p.hp == 0 or p.lp == 0 or p.decked_out]
    if not lost:
        return False
    if len(lost) == 2:
        tape.emit(MatchEnded("draw", None, "simultaneous"))
        return True
    player = tape.state.players[lost[0]]
    tape.emit(MatchEnded("win", 1 - lost[0], "pool_zero" if player.hp == 0 or player.lp == 0 else "deck_out"))
    return True


# --- battle (§8.10) -------------------------------------------------------------------------------------------


def battle(tape: Tape) -> None:
    """BATTLE: revalidate (D9), then calculate (D6) and route damage to the battle's system pool (D7)."""
    state = tape.state
    attack = state.attack
    assert attack is not None
    if attack.negated:
        _end_attack(tape, attack.attacker, "negated")
        return
    attacker = on_field(state, attack.attacker, attack.attacker_entry)
    if attacker is None or not in_attack(attacker.form) or system_of(attacker.form) != attack.system:
        _end_attack(tape, attack.attacker, "fizzled")
        return
    defender, system = attack.defender, attack.system
    pool = pool_of(system)
    a = atk(attacker)
    if attack.target is None:
        if any(system_of(m.form) == system for m in monsters(state, defender)):
            _end_attack(tape, attack.attacker, "fizzled")
            return
        tape.emit(BattleCalculated(attacker.card, None, a, None, None))
        damage(tape, defender, pool, a, "battle")
        _end_attack(tape, attack.attacker, "resolved")
        return
    target = on_field(state, attack.target, attack.target_entry)
    if target is None or system_of(target.form) != system:
        _end_attack(tape, attack.attacker, "fizzled")
        return
    owner = 1 - defender
    if in_attack(target.form):
        t = atk(target)
        tape.emit(BattleCalculated(attacker.card, target.card, a, t, "attack"))
        if a > t:
            damage(tape, defender, pool, a - t, "battle")
            _destroy_in_battle(tape, target, defender)
        elif a < t:
            damage(tape, owner, pool, t - a, "battle")
            _destroy_in_battle(tape, attacker, owner)
        elif a > 0:
            _destroy_in_battle(tape, attacker, owner)
            _destroy_in_battle(tape, target, defender)
    else:
        d = face_of(target)[1]
        tape.emit(BattleCalculated(attacker.card, target.card, a, d, "defence"))
        if a > d:
            _destroy_in_battle(tape, target, defender)
        elif a < d:
            damage(tape, owner, pool, d - a, "battle")
    _end_attack(tape, attack.attacker, "resolved")


def _destroy_in_battle(tape: Tape, monster: Monster, seat: int) -> None:
    tape.emit(CardDestroyed(monster.card, monster.card_id, seat, "monster_zone", "battle"))


def _end_attack(tape: Tape, attacker: str, outcome: Literal["resolved", "negated", "fizzled"]) -> None:
    """AttackEnded, CHECK after a battle that was fought, then the open decision."""
    tape.emit(AttackEnded(attacker, outcome))
    if outcome == "resolved" and check(tape):
        return
    await_open(tape)


# --- turns and phases (§8.13, §8.14) --------------------------------------------------------------------------


def start_turn(tape: Tape, turn: int, seat: int) -> None:
    """START_TURN: reset, the draw (skipped on turn 1, D10), CHECK, then the Main phase's open decision."""
    tape.emit(TurnStarted(turn, seat))
    tape.emit(PhaseChanged(turn, "draw"))
    if turn == 1:
        tape.emit(DrawSkipped(seat))
    else:
        draw(tape, (seat,), 1, "draw_phase")
        if check(tape):
            return
    tape.emit(PhaseChanged(turn, "main"))
    await_open(tape)


def phase_transition(tape: Tape, next_phase: Literal["battle", "end"]) -> None:
    if next_phase == "battle":
        tape.emit(PhaseChanged(tape.state.turn, "battle"))
        await_open(tape)
    else:
        end_phase(tape)


def end_phase(tape: Tape) -> None:
    """END_PHASE (D24): turn-seat triggers in zone order, delayed effects, modifiers expire, the hand limit."""
    state = tape.state
    turn, seat = state.turn, state.turn_seat
    tape.emit(PhaseChanged(turn, "end"))
    for card, entry in [(m.card, m.entry) for m in monsters(tape.state, seat)]:
        monster = on_field(tape.state, card, entry)
        if monster is None:
            continue
        for index, effect in enumerate(face_of(monster)[2]):
            if effect.kind == "end_phase":
                trigger(tape, seat, card, entry, index, in_link=False)
                if over(tape):
                    return
    for delayed in [d for d in tape.state.delayed if d.turn == turn]:
        tape.emit(DelayedEffectResolved(delayed.delayed_id))
        context = Context(delayed.seat, None, delayed.card_id, None, None, subjects=delayed.subjects)
        execute(tape, context, delayed.steps)
        if over(tape) or check(tape):
            return
    modified = [m.card for p in tape.state.players for m in p.monsters if m is not None and m.modifiers]
    if modified:
        tape.emit(ModifiersExpired(tuple(modified)))
    state = tape.state
    excess = len(state.players[seat].hand) - state.options.hand_limit
    if excess > 0:
        tape.emit(AwaitingDecision(seat, "discard", None, excess, state.seq + 1, state.options.discard_timer_s))
    else:
        finish_turn(tape)


def finish_turn(tape: Tape) -> None:
    state = tape.state
    tape.emit(TurnEnded(state.turn, state.turn_seat))
    start_turn(tape, state.turn + 1, 1 - state.turn_seat)


def discard(tape: Tape, seat: int, cards: tuple[str, ...]) -> None:
    """The hand-limit discard (D27), then the turn finishes."""
    card_ids = tape.state.card_ids
    tape.emit(SentToGraveyard(seat, tuple([Moved(c, card_ids[c], "hand") for c in cards]), "hand_limit"))
    finish_turn(tape)
