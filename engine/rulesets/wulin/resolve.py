"""Automatic procedures of wulin (docs/rulesets/wulin.md §8, §9.3), one function each.

Every procedure appends events to a ``Tape``, which folds them as it goes, so a later step reads the
state the earlier events led to. A procedure that may end the match returns True when it did: nothing
of the command is resolved after ``MatchEnded`` (§8.8).
"""

from __future__ import annotations

from engine.rulesets.wulin.data import (
    BATTLE,
    CATALOG,
    FIRST_STRIKE,
    LASTING,
    SKILLS,
    STAT_ABILITIES,
    DamageHp,
    DrainQi,
    Effect,
    GainQi,
    HealHp,
    ModifyStats,
    OpponentBattle,
    OwnBattle,
    SecretArtCard,
    Selector,
    SkillCard,
    TargetOwnBattle,
    counters,
)
from engine.rulesets.wulin.model import Event, State
from engine.rulesets.wulin.model.events import (
    AttackEnded,
    CardLeftField,
    CardsDrawn,
    CombatResolved,
    HpChanged,
    LossChoiceRequired,
    MatchEnded,
    PhaseEnded,
    PhaseStarted,
    QiChanged,
    SkillUpkeepFailed,
    TempModifierApplied,
    TruceExpired,
)
from engine.rulesets.wulin.model.state import (
    ENDED,
    EffectReason,
    FieldCard,
    HpReason,
    LeaveReason,
    PhaseEndReason,
    QiReason,
)
from engine.tape import Tape

HAND_SIZE = 5
TIMEOUT_PENALTY = 30
IDLE_TIMEOUTS_LOSE = 3


# --- actual attack and defence (§8.1) ---------------------------------------------------------------------


def actual(state: State, seat: int, card: FieldCard, stat: str, role: str, group: bool) -> int:
    """§8.1: the card's value after abilities, its skill, lasting formations and temporary modifiers."""
    atk, def_ = actual_both(state, seat, card, role, group)
    return atk if stat == "atk" else def_


def actual_both(state: State, seat: int, card: FieldCard, role: str, group: bool) -> tuple[int, int]:
    """§8.1 for attack and defence at once, each clamped at 0 once, at the end."""
    entry = BATTLE[card.card_id]
    atk, def_ = entry.atk + card.temp_atk, entry.def_ + card.temp_def
    skill = _face_up_skill(state, seat)
    for ability in STAT_ABILITIES[card.card_id]:
        if ability.when != "always" and ability.when != role:
            continue
        if ability.requires_skill is None:
            if group:
                continue
        elif skill is None or skill.card_id != ability.requires_skill:
            continue
        atk, def_ = atk + ability.atk, def_ + ability.def_
    if skill is not None:
        atk, def_ = _continuous(SKILLS[skill.card_id].continuous, seat, seat, entry.attribute, atk, def_)
    for controller in (seat, 1 - seat):
        for other in state.sides[controller].battle_zone:
            if other.face_up and other.card_id in LASTING:
                atk, def_ = _continuous(LASTING[other.card_id], controller, seat, entry.attribute, atk, def_)
    return max(0, atk), max(0, def_)


def _continuous(
    effects: tuple[ModifyStats, ...],
    controller: int,
    owner: int,
    attribute: str,
    atk: int,
    def_: int,
) -> tuple[int, int]:
    for e in effects:
        if _selects(e.selector, controller, owner, attribute):
            atk, def_ = atk + e.atk, def_ + e.def_
    return atk, def_


def _selects(selector: Selector, controller: int, owner: int, attribute: str) -> bool:
    """§3.3 for a face-up battle card of ``owner``; ``target_own_battle`` selects only by command target."""
    if isinstance(selector, OwnBattle):
        return owner == controller and selector.attribute in (None, attribute)
    if isinstance(selector, OpponentBattle):
        return owner != controller and selector.attribute in (None, attribute)
    return False


def _face_up_skill(state: State, seat: int) -> FieldCard | None:
    for card in state.sides[seat].skill_zone:
        if card.face_up:
            return card
    return None


def face_up_battle(state: State, seat: int) -> list[FieldCard]:
    """The seat's face-up battle cards, in zone order."""
    return [c for c in state.sides[seat].battle_zone if c.face_up and c.card_id in BATTLE]


def side_total(state: State, seat: int, cards: list[FieldCard], stat: str, role: str) -> int:
    group = len(cards) >= 2
    return sum(actual(state, seat, c, stat, role, group) for c in cards)


# --- hp and qi (§8.8) -------------------------------------------------------------------------------------


def change_hp(tape: Tape[State, Event], seat: int, amount: int, reason: HpReason, source: str | int | None) -> bool:
    """Emits ``HpChanged`` (floor 0, cap ``max_hp``) and, at 0 HP, ``MatchEnded``; True when the match ended."""
    side = tape.state.sides[seat]
    hp = min(side.max_hp, max(0, side.hp + amount))
    tape.emit(HpChanged(seat, amount, hp - side.hp, hp, reason, source))
    if hp == 0:
        tape.emit(MatchEnded(1 - seat, "hp_zero"))
        return True
    return False


def change_qi(tape: Tape[State, Event], seat: int, amount: int, reason: QiReason, source: str | int | None) -> None:
    """Emits ``QiChanged`` (floor 0, no cap)."""
    qi = tape.state.sides[seat].qi
    after = max(0, qi + amount)
    tape.emit(QiChanged(seat, amount, after - qi, after, reason, source))


def pay(tape: Tape[State, Event], seat: int, cost: int, reason: QiReason, source: str | int) -> None:
    """§8.2: a cost event only for a cost above 0."""
    if cost > 0:
        change_qi(tape, seat, -cost, reason, source)


# --- effects (§8.7) ---------------------------------------------------------------------------------------


def run_effects(
    tape: Tape[State, Event],
    seat: int,
    source: str,
    effects: tuple[Effect, ...],
    reason: EffectReason,
    target: str | None,
) -> bool:
    """Executes ``effects`` in order for controller ``seat``; True when the match ended."""
    opponent = 1 - seat
    for effect in effects:
        if isinstance(effect, DamageHp):
            if change_hp(tape, opponent, -_mult(tape.state, source, opponent, effect.amount), reason, source):
                return True
        elif isinstance(effect, DrainQi):
            change_qi(tape, opponent, -_mult(tape.state, source, opponent, effect.amount), reason, source)
        elif isinstance(effect, GainQi):
            change_qi(tape, seat, effect.amount, reason, source)
        elif isinstance(effect, HealHp):
            change_hp(tape, seat, effect.amount, reason, source)
        else:
            cards = _selected(tape.state, seat, effect.selector, target)
            if cards:
                tape.emit(TempModifierApplied(source, cards, effect.atk, effect.def_))
    return False


def _selected(state: State, seat: int, selector: Selector, target: str | None) -> tuple[str, ...]:
    if isinstance(selector, TargetOwnBattle):
        return (target,) if target is not None else ()
    owner = seat if isinstance(selector, OwnBattle) else 1 - seat
    return tuple(
        sorted(c.iid for c in face_up_battle(state, owner) if selector.attribute in (None, BATTLE[c.card_id].attribute))
    )


def _mult(state: State, source: str, opponent: int, n: int) -> int:
    """§8.7 mult (D21): attack secret arts are halved or raised by half against the hero's attribute."""
    art = CATALOG[state.card_ids[source]]
    if not state.options.secret_art_counters or not isinstance(art, SecretArtCard):
        return n
    hero = state.sides[opponent].hero_attribute
    if counters(hero, art.attribute):
        return n // 2
    if counters(art.attribute, hero):
        return (3 * n) // 2
    return n


# --- phases (§8.3, §8.4, §8.10) ---------------------------------------------------------------------------


def start_phase(tape: Tape[State, Event], seat: int, phase_no: int) -> None:
    """§8.3 steps 1-3: PhaseStarted, the refill, then skill upkeep (D24); the clock follows in 9.2."""
    tape.emit(PhaseStarted(phase_no, (phase_no + 1) // 2, seat))
    side = tape.state.sides[seat]
    k = min(HAND_SIZE - len(side.hand), len(side.library))
    if k > 0:
        drawn = side.library[:k]
        card_ids = tape.state.card_ids
        tape.emit(CardsDrawn(seat, drawn, tuple(card_ids[i] for i in drawn), k))
    skill = _face_up_skill(tape.state, seat)
    if skill is None:
        return
    entry = CATALOG[skill.card_id]
    assert isinstance(entry, SkillCard)
    if entry.upkeep == 0:
        return
    qi = tape.state.sides[seat].qi
    if qi >= entry.upkeep:
        change_qi(tape, seat, -entry.upkeep, "skill_upkeep", skill.iid)
    else:
        tape.emit(SkillUpkeepFailed(seat, skill.iid, skill.card_id, entry.upkeep, qi))
        tape.emit(CardLeftField(seat, skill.iid, skill.card_id, "skill_zone", "upkeep"))


def end_phase(tape: Tape[State, Event], reason: PhaseEndReason) -> None:
    """§8.4: the truce offer expires, PhaseEnded, the round limit, then the other seat's phase."""
    state = tape.state
    if state.truce_offer is not None:
        tape.emit(TruceExpired(state.truce_offer))
    tape.emit(PhaseEnded(state.phase_no, state.active_seat, reason))
    if state.phase_no == 2 * state.options.round_limit:
        adjudicate(tape)
        return
    start_phase(tape, 1 - state.active_seat, state.phase_no + 1)


def adjudicate(tape: Tape[State, Event]) -> None:
    """§8.10: higher HP, then fewer timeouts, then a draw."""
    a, b = tape.state.sides
    winner: int | None = None
    if a.hp != b.hp:
        winner = 0 if a.hp > b.hp else 1
    elif a.timeouts != b.timeouts:
        winner = 0 if a.timeouts < b.timeouts else 1
    tape.emit(MatchEnded(winner, "round_limit"))


# --- combat (§8.5) ----------------------------------------------------------------------------------------


def _attackers(state: State) -> tuple[int, list[FieldCard]]:
    attack = state.open_attack
    assert attack is not None
    seat = attack.seat
    present = [c for c in face_up_battle(state, seat) if c.iid in attack.cards]
    return seat, sorted(present, key=lambda c: c.iid)


def direct_hit(tape: Tape[State, Event]) -> None:
    """§8.5 direct hit: the defending hero loses the attackers' total actual attack."""
    seat, attackers = _attackers(tape.state)
    attack = tape.state.open_attack
    assert attack is not None
    damage = side_total(tape.state, seat, attackers, "atk", "attacking")
    if change_hp(tape, 1 - seat, -damage, "combat", attack.attack_id):
        return
    tape.emit(AttackEnded(attack.attack_id))


def resolve_combat(tape: Tape[State, Event]) -> None:
    """§8.5 steps 1-10: one simultaneous comparison, first strike, losses, the attacker's loss choice."""
    state = tape.state
    attack = state.open_attack
    assert attack is not None
    seat, attackers = _attackers(state)
    if not attackers:
        tape.emit(AttackEnded(attack.attack_id))
        return
    defender = 1 - seat
    defenders = sorted((c for c in face_up_battle(state, defender) if c.iid in attack.defenders), key=lambda c: c.iid)
    group_a, group_d = len(attackers) >= 2, len(defenders) >= 2
    atk_a = side_total(state, seat, attackers, "atk", "attacking")
    def_a = side_total(state, seat, attackers, "def", "attacking")
    atk_d = side_total(state, defender, defenders, "atk", "defending")
    def_d = side_total(state, defender, defenders, "def", "defending")
    hit_d = atk_a > def_d if group_d else atk_a >= def_d
    hit_a = atk_d > def_a if group_a else atk_d >= def_a
    if not group_a and not group_d:
        fa = attackers[0].card_id in FIRST_STRIKE
        fd = defenders[0].card_id in FIRST_STRIKE
        if fa and not fd and hit_d:
            hit_a = False
        elif fd and not fa and hit_a:
            hit_d = False
    a_losses: tuple[str, ...] = ()
    if hit_a:
        if not group_a:
            a_losses = (attackers[0].iid,)
        elif attack.focus in {c.iid for c in attackers}:
            assert attack.focus is not None
            a_losses = (attack.focus,)
    d_losses = (defenders[0].iid,) if hit_d and not group_d else ()
    choice = hit_d and group_d
    tape.emit(
        CombatResolved(
            attack.attack_id,
            tuple(c.iid for c in attackers),
            tuple(c.iid for c in defenders),
            atk_a,
            def_a,
            atk_d,
            def_d,
            a_losses,
            d_losses,
            choice,
        )
    )
    for iid in a_losses:
        leave(tape, seat, iid, "combat")
    for iid in d_losses:
        leave(tape, defender, iid, "combat")
    if choice:
        tape.emit(LossChoiceRequired(attack.attack_id, seat, tuple(c.iid for c in defenders)))
    else:
        tape.emit(AttackEnded(attack.attack_id))


def leave(tape: Tape[State, Event], seat: int, iid: str, reason: LeaveReason) -> None:
    """``CardLeftField`` for a card of the seat's battle zone."""
    card_id = tape.state.card_ids[iid]
    tape.emit(CardLeftField(seat, iid, card_id, "battle_zone", reason))


def ended(tape: Tape[State, Event]) -> bool:
    return tape.state.status == ENDED
