"""Commands of wulin: checks, emission, decide, legal_commands, to_act, deadline, outcome (wulin.md §6-§10).

Each ``check_<command>(state, actor, cmd)`` raises ``Rejected`` in the spec's precondition order and returns
what emission needs. ``decide_folded`` runs ``precheck``, the check, the emission and then the clock rule
(§9.2); ``legal_commands`` filters the canonical candidates through the same checks (§8.11).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, product
from typing import Any, NamedTuple

from engine.contract import ADMIN, Actor, Deadline, Outcome
from engine.dispatch import Decider, deciders
from engine.errors import Rejected
from engine.legal import Family, legal
from engine.precheck import check_common
from engine.rng import Rng
from engine.rulesets.wulin.codes import Code
from engine.rulesets.wulin.data import (
    BATTLE,
    CATALOG,
    CONSUMABLE_IDS,
    FORMATIONS,
    PLAYABLE_IDS,
    QI_COST,
    SKILL_IDS,
    TARGETED,
    BattleCard,
    Card,
    FormationCard,
    QiCard,
    SecretArtCard,
    SkillCard,
    TreasureCard,
    counters,
    effects_of,
)
from engine.rulesets.wulin.evolve import evolve
from engine.rulesets.wulin.model import (
    ENDED,
    IN_PROGRESS,
    AcceptTruce,
    Attack,
    AttackDeclared,
    AttackEnded,
    Block,
    CardDiscarded,
    CardFlipped,
    CardLeftField,
    CardPlayed,
    CardUsed,
    ChooseLoss,
    ClockRestarted,
    Command,
    Concede,
    Conceded,
    DefenceDeclared,
    DefenceDeclined,
    Defend,
    DiscardCard,
    EndPhase,
    Event,
    FieldCard,
    FieldZone,
    FlipCard,
    HiddenWeaponThrown,
    LossChosen,
    MatchEnded,
    NoBlock,
    NoDefence,
    PendingBlock,
    PendingDefend,
    PendingLoss,
    PhaseStarted,
    PlayCard,
    ProposeTruce,
    RefereeRuled,
    RefereeRuling,
    RejectTruce,
    Relation,
    Side,
    State,
    TimedOut,
    Timeout,
    TruceAccepted,
    TruceProposed,
    TruceRejected,
    UseCard,
    WeaponBlocked,
    WeaponNotBlocked,
    WeaponResolved,
)
from engine.rulesets.wulin.resolve import (
    IDLE_TIMEOUTS_LOSE,
    TIMEOUT_PENALTY,
    actual,
    change_hp,
    change_qi,
    direct_hit,
    end_phase,
    leave,
    pay,
    resolve_combat,
    run_effects,
)
from engine.tape import Tape

SEATS = (0, 1)
_NOT_SEAT = frozenset({"timeout", "referee_ruling"})
MODES = ("single", "joint", "combination")
BATTLE_ZONE_SIZE = 5
TRUCE_PROPOSALS = 3
JOINT_SURCHARGE = 10
CLOCKED = frozenset(
    {
        "use_card",
        "play_card",
        "discard_card",
        "flip_card",
        "attack",
        "defend",
        "no_defence",
        "block",
        "no_block",
        "choose_loss",
    }
)
"""§9.2: commands that restart the clock when their issuer holds it."""


# --- common checks (§7 R0, R1 and the gates) ------------------------------------------------------------


def precheck(state: State, actor: Actor, kind: str) -> None:
    """R0 (the actor's role) then R1 (MATCH_OVER): the checks that precede field decoding.

    Unlike the engine's default order, R0 comes first for seat commands too (NOT_A_PLAYER), and the referee's
    code is NOT_REFEREE.
    """
    if actor in SEATS and kind not in _NOT_SEAT and state.status != ENDED:
        return  # the common case, first: a seat's command in a running match
    if kind == "referee_ruling":
        if actor != ADMIN:
            raise Rejected(Code.NOT_REFEREE, "only the referee rules")
    elif kind != "timeout" and actor not in SEATS:
        raise Rejected(Code.NOT_A_PLAYER, "only a seat plays this command")
    check_common(kind, actor, over=state.status == ENDED, acting=SEATS, admin=("referee_ruling",), anytime=())


def _seat(actor: Actor) -> int:
    if not isinstance(actor, int) or actor not in (0, 1):
        raise Rejected(Code.NOT_A_PLAYER, "only a seat plays this command")
    return actor


def gate_own(state: State, seat: int) -> None:
    """Gate OWN: the seat's own phase with no decision pending."""
    if seat != state.active_seat:
        raise Rejected(Code.NOT_YOUR_PHASE, "it is not your phase")
    if state.pending is not None:
        raise Rejected(Code.DECISION_PENDING, "a decision is pending")


def gate_any(state: State, seat: int) -> None:
    """Gate ANY: either seat, unless the other one must answer a decision."""
    if state.pending is not None and state.pending.seat != seat:
        raise Rejected(Code.DECISION_PENDING, "the other seat must answer a decision")


def _respond(state: State, seat: int, kind: type) -> Any:
    """Gate RESP(k): the pending decision of this seat, of this kind."""
    pending = state.pending
    if pending is None or pending.seat != seat:
        raise Rejected(Code.NO_PENDING_DECISION, "you have no decision to answer")
    if type(pending) is not kind:
        raise Rejected(Code.WRONG_DECISION, "that answers another decision")
    return pending


def gate_defend(state: State, seat: int) -> None:
    _respond(state, seat, PendingDefend)


def gate_block(state: State, seat: int) -> None:
    _respond(state, seat, PendingBlock)


def gate_loss(state: State, seat: int) -> None:
    _respond(state, seat, PendingLoss)


def _field(side: Side, iid: str) -> tuple[FieldCard, FieldZone] | None:
    for card in side.battle_zone:
        if card.iid == iid:
            return card, "battle_zone"
    for card in side.skill_zone:
        if card.iid == iid:
            return card, "skill_zone"
    return None


def _battle_zone_card(side: Side, iid: str) -> FieldCard | None:
    for card in side.battle_zone:
        if card.iid == iid:
            return card
    return None


# --- command checks (§7 table, in precondition order) -----------------------------------------------------


def check_use_card(state: State, actor: Actor, cmd: UseCard) -> Card:
    seat = _seat(actor)
    gate_own(state, seat)
    side = state.sides[seat]
    if cmd.card not in side.hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, f"{cmd.card} is not in your hand")
    card_id = state.card_ids[cmd.card]
    card = CATALOG[card_id]
    if card_id not in CONSUMABLE_IDS:
        raise Rejected(Code.NOT_CONSUMABLE, f"{card.name} is not a secret art, treasure or qi card")
    if side.consumable_used:
        raise Rejected(Code.CONSUMABLE_ALREADY_USED, "you have used a consumable this phase")
    if card_id in TARGETED:
        if cmd.target is None:
            raise Rejected(Code.TARGET_REQUIRED, f"{card.name} needs a target")
        target = _battle_zone_card(side, cmd.target)
        if target is None or not target.face_up or target.card_id not in BATTLE:
            raise Rejected(Code.TARGET_INVALID, "the target must be one of your face-up battle cards")
    elif cmd.target is not None:
        raise Rejected(Code.TARGET_NOT_ALLOWED, f"{card.name} takes no target")
    _afford(side, QI_COST[card_id])
    return card


def check_play_card(state: State, actor: Actor, cmd: PlayCard) -> Card:
    seat = _seat(actor)
    gate_own(state, seat)
    side = state.sides[seat]
    if cmd.card not in side.hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, f"{cmd.card} is not in your hand")
    card = CATALOG[state.card_ids[cmd.card]]
    if card.id not in PLAYABLE_IDS:
        raise Rejected(Code.NOT_PLAYABLE, f"{card.name} is not a battle, skill or formation card")
    if side.play_used:
        raise Rejected(Code.PLAY_ALREADY_USED, "you have played a card this phase")
    if card.id in SKILL_IDS:
        if side.skill_zone:
            raise Rejected(Code.SKILL_ZONE_FULL, "your skill zone is occupied")
    elif len(side.battle_zone) >= BATTLE_ZONE_SIZE:
        raise Rejected(Code.ZONE_FULL, "your battle zone holds 5 cards")
    return card


def check_discard_card(state: State, actor: Actor, cmd: DiscardCard) -> FieldCard | None:
    """The field card being discarded, or None for a hand card."""
    seat = _seat(actor)
    gate_own(state, seat)
    side = state.sides[seat]
    found = None if cmd.card in side.hand else _field(side, cmd.card)
    if found is None and cmd.card not in side.hand:
        raise Rejected(Code.UNKNOWN_CARD, f"{cmd.card} is neither in your hand nor on your field")
    if side.discard_used:
        raise Rejected(Code.DISCARD_ALREADY_USED, "you have discarded this phase")
    if found is not None and found[0].attacked_phase == state.phase_no:
        raise Rejected(Code.CARD_JUST_ATTACKED, f"{cmd.card} attacked this phase")
    return found[0] if found is not None else None


def check_flip_card(state: State, actor: Actor, cmd: FlipCard) -> tuple[FieldCard, FieldZone]:
    seat = _seat(actor)
    gate_any(state, seat)
    side = state.sides[seat]
    found = _field(side, cmd.card)
    if found is None:
        raise Rejected(Code.CARD_NOT_ON_FIELD, f"{cmd.card} is not on your field")
    card, _ = found
    if card.face_up:
        raise Rejected(Code.ALREADY_FACE_UP, f"{cmd.card} is face-up")
    if card.card_id in BATTLE:
        if card.played_phase == state.phase_no:
            raise Rejected(Code.CARD_JUST_PLAYED, f"{cmd.card} was played this phase")
        if side.battle_flip_used:
            raise Rejected(Code.BATTLE_FLIP_USED, "you have flipped a battle card this phase")
    elif card.card_id in FORMATIONS:
        if not state.options.formation_flip:
            raise Rejected(Code.FORMATION_FLIP_DISABLED, "formations cannot be flipped in this match")
        _afford(side, QI_COST[card.card_id])
    return found


def _afford(side: Side, cost: int) -> None:
    if side.qi < cost:
        raise Rejected(Code.INSUFFICIENT_QI, f"costs {cost} qi, you have {side.qi}")


def _group(state: State, seat: int, cards: tuple[str, ...], mode: str, primary: str | None) -> list[FieldCard]:
    """Checks (1)-(8) shared by ``attack`` and ``defend``: the group's own face-up battle cards."""
    if mode not in MODES:
        raise Rejected(Code.BAD_MODE, "mode is single, joint or combination")
    if len(set(cards)) != len(cards):
        raise Rejected(Code.DUPLICATE_CARD, "a card is named twice")
    group = [c for c in state.sides[seat].battle_zone if c.iid in cards]
    if len(group) != len(cards):
        raise Rejected(Code.CARD_NOT_ON_FIELD, "a card is not in your battle zone")
    for c in group:
        if c.card_id not in BATTLE:
            raise Rejected(Code.NOT_BATTLE_CARD, "only battle cards fight")
    for c in group:
        if not c.face_up:
            raise Rejected(Code.NOT_FACE_UP, "a card is face-down")
    n = len(group)
    if (mode == "single" and n != 1) or (mode == "joint" and not 2 <= n <= 5) or (mode == "combination" and n != 2):
        raise Rejected(Code.BAD_GROUP_SIZE, f"{n} cards cannot fight {mode}")
    if (mode == "combination") != (primary is not None) or (primary is not None and primary not in cards):
        raise Rejected(Code.PRIMARY_INVALID, "a combination names one of its two cards as primary; nothing else does")
    entries = [BATTLE[c.card_id] for c in group]
    if mode == "joint" and len({e.attribute for e in entries}) != 1:
        raise Rejected(Code.ATTRIBUTE_MISMATCH, "a joint group shares one attribute")
    if mode == "combination" and (
        entries[1].id not in entries[0].combo_partners or entries[0].id not in entries[1].combo_partners
    ):
        raise Rejected(Code.NOT_COMBINATION_PAIR, "these two cards have no combination technique")
    return group


def _group_cost(group: list[FieldCard], mode: str, surcharge: bool) -> int:
    """§8.2: Σ qi_cost, plus 10 per card for a joint attack (D4)."""
    total = sum(BATTLE[c.card_id].qi_cost for c in group)
    if mode == "joint" and surcharge:
        total += JOINT_SURCHARGE * len(group)
    return total


def _event_primary(cards: tuple[str, ...], mode: str, primary: str | None) -> str | None:
    return cards[0] if mode == "single" else primary


def check_attack(state: State, actor: Actor, cmd: Attack) -> tuple[tuple[str, ...], int]:
    """The sorted attackers and the qi the attack costs."""
    seat = _seat(actor)
    gate_own(state, seat)
    group = _group(state, seat, cmd.cards, cmd.mode, cmd.primary)
    if any(c.acted_phase == state.phase_no for c in group):
        raise Rejected(Code.CARD_ALREADY_ACTED, "a card has spent its action this phase")
    cost = _group_cost(group, cmd.mode, True)
    _afford(state.sides[seat], cost)
    return tuple(sorted(cmd.cards)), cost


def check_defend(state: State, actor: Actor, cmd: Defend) -> tuple[tuple[str, ...], int]:
    """The sorted defenders and the qi the defence costs."""
    seat = _seat(actor)
    pending: PendingDefend = _respond(state, seat, PendingDefend)
    group = _group(state, seat, cmd.cards, cmd.mode, cmd.primary)
    if any(c.acted_phase == state.phase_no for c in group):
        raise Rejected(Code.CARD_ALREADY_ACTED, "a card has spent its action this phase")
    if any(c.attacked_phase == state.phase_no - 1 for c in group):
        raise Rejected(Code.CARD_ATTACKED_LAST_PHASE, "a card attacked in your last phase")
    if len(pending.attackers) >= 2:
        if cmd.focus is None:
            raise Rejected(Code.FOCUS_REQUIRED, "name the attacking card you single out")
        if cmd.focus not in pending.attackers:
            raise Rejected(Code.FOCUS_INVALID, "the focus must be one of the attackers")
    elif cmd.focus is not None:
        raise Rejected(Code.FOCUS_NOT_ALLOWED, "a single attacker needs no focus")
    cost = _group_cost(group, cmd.mode, False)
    _afford(state.sides[seat], cost)
    return tuple(sorted(cmd.cards)), cost


def check_no_defence(state: State, actor: Actor, cmd: NoDefence) -> None:
    _respond(state, _seat(actor), PendingDefend)


def check_block(state: State, actor: Actor, cmd: Block) -> tuple[FieldCard, Relation, int]:
    """The blocker, its relation to the weapon and the qi it costs."""
    seat = _seat(actor)
    pending: PendingBlock = _respond(state, seat, PendingBlock)
    side = state.sides[seat]
    card = _battle_zone_card(side, cmd.card)
    if card is None:
        raise Rejected(Code.CARD_NOT_ON_FIELD, f"{cmd.card} is not in your battle zone")
    if card.card_id not in BATTLE:
        raise Rejected(Code.NOT_BATTLE_CARD, "only battle cards block")
    if not card.face_up:
        raise Rejected(Code.NOT_FACE_UP, f"{cmd.card} is face-down")
    entry = BATTLE[card.card_id]
    relation: Relation
    if entry.attribute == pending.attribute:
        relation = "same"
    elif counters(entry.attribute, pending.attribute):
        relation = "counter"
    else:
        raise Rejected(Code.BLOCKER_INELIGIBLE, "a blocker shares or counters the weapon's attribute")
    if card.acted_phase == state.phase_no:
        raise Rejected(Code.CARD_ALREADY_ACTED, f"{cmd.card} has spent its action this phase")
    if card.attacked_phase == state.phase_no - 1:
        raise Rejected(Code.CARD_ATTACKED_LAST_PHASE, f"{cmd.card} attacked in your last phase")
    _afford(side, entry.qi_cost)
    return card, relation, entry.qi_cost


def check_no_block(state: State, actor: Actor, cmd: NoBlock) -> None:
    _respond(state, _seat(actor), PendingBlock)


def check_choose_loss(state: State, actor: Actor, cmd: ChooseLoss) -> None:
    pending: PendingLoss = _respond(state, _seat(actor), PendingLoss)
    if cmd.card not in pending.options:
        raise Rejected(Code.INVALID_CHOICE, "choose one of the defending cards")


def check_end_phase(state: State, actor: Actor, cmd: EndPhase) -> None:
    seat = _seat(actor)
    gate_own(state, seat)
    if state.sides[seat].actions == 0 and _has_action(state, seat):
        raise Rejected(Code.NO_ACTION_TAKEN, "take at least one action before ending the phase")


def check_propose_truce(state: State, actor: Actor, cmd: ProposeTruce) -> int:
    """The seat's proposal count after this one."""
    seat = _seat(actor)
    if state.truce_offer is not None:
        raise Rejected(Code.TRUCE_ALREADY_OPEN, "a truce offer is open")
    used = state.sides[seat].truce_proposals_used
    if used >= TRUCE_PROPOSALS:
        raise Rejected(Code.TRUCE_LIMIT_REACHED, "you have proposed a truce three times")
    return used + 1


def check_answer_truce(state: State, actor: Actor, cmd: AcceptTruce | RejectTruce) -> None:
    seat = _seat(actor)
    if state.truce_offer is None:
        raise Rejected(Code.NO_TRUCE_OFFER, "no truce is offered")
    if state.truce_offer == seat:
        raise Rejected(Code.CANNOT_ANSWER_OWN_TRUCE, "the other seat answers your offer")


def check_concede(state: State, actor: Actor, cmd: Concede) -> None:
    seat = _seat(actor)
    if not state.options.allow_concede:
        raise Rejected(Code.CONCEDE_DISABLED, "conceding is off in this match")
    if seat != state.active_seat:
        raise Rejected(Code.NOT_YOUR_PHASE, "you may concede only in your own phase")


def check_timeout(state: State, actor: Actor, cmd: Timeout) -> None:
    if state.clock is None or cmd.clock_seq != state.clock.seq:
        raise Rejected(Code.STALE_TIMEOUT, f"clock {cmd.clock_seq} is not the running clock")


def check_referee_ruling(state: State, actor: Actor, cmd: RefereeRuling) -> None:
    if not state.options.referee_enabled:
        raise Rejected(Code.REFEREE_DISABLED, "this match has no referee")
    if cmd.winner not in (0, 1, None):
        raise Rejected(Code.BAD_WINNER, "the winner is seat 0, seat 1 or null for a draw")


# --- emission (§7 effects, §8) ----------------------------------------------------------------------------


def emit_use_card(tape: Tape[State, Event], seat: int, cmd: UseCard, card: Card) -> None:
    tape.emit(CardUsed(seat, cmd.card, card.id, cmd.target))
    if isinstance(card, QiCard):
        change_qi(tape, seat, card.qi_gain, "qi_card", cmd.card)
        return
    art = isinstance(card, SecretArtCard)
    pay(tape, seat, QI_COST[card.id], "secret_art_cost" if art else "treasure_cost", cmd.card)
    if isinstance(card, TreasureCard) and card.hidden_weapon is not None:
        weapon = card.hidden_weapon
        tape.emit(
            HiddenWeaponThrown(tape.state.next_ref, seat, cmd.card, card.id, card.attribute, weapon.atk, weapon.stat)
        )
        return
    run_effects(tape, seat, cmd.card, effects_of(card), "secret_art" if art else "treasure", cmd.target)


def emit_discard_card(tape: Tape[State, Event], seat: int, cmd: DiscardCard, card: FieldCard | None) -> None:
    card_id = tape.state.card_ids[cmd.card]
    if card is None:
        tape.emit(CardDiscarded(seat, cmd.card, card_id, "hand", False, False))
        return
    origin: FieldZone = "skill_zone" if isinstance(CATALOG[card_id], SkillCard) else "battle_zone"
    tape.emit(CardDiscarded(seat, cmd.card, card_id, origin, card.face_up, card.face_up))
    entry = CATALOG[card_id]
    if card.face_up and isinstance(entry, BattleCard | SkillCard):
        run_effects(tape, seat, cmd.card, entry.on_discard, "discard_effect", None)


def emit_flip_card(tape: Tape[State, Event], seat: int, cmd: FlipCard, found: tuple[FieldCard, FieldZone]) -> None:
    card, zone = found
    tape.emit(CardFlipped(seat, card.iid, card.card_id, zone))
    entry = CATALOG[card.card_id]
    if not isinstance(entry, FormationCard):
        return
    pay(tape, seat, entry.qi_cost, "formation_cost", card.iid)
    if entry.mode == "instant":
        if run_effects(tape, seat, card.iid, entry.effects, "formation", None):
            return
        tape.emit(CardLeftField(seat, card.iid, card.card_id, "battle_zone", "instant_formation"))


def emit_attack(tape: Tape[State, Event], seat: int, cmd: Attack, plan: tuple[tuple[str, ...], int]) -> None:
    cards, cost = plan
    attack_id = tape.state.next_ref
    tape.emit(AttackDeclared(attack_id, seat, cards, cmd.mode, _event_primary(cards, cmd.mode, cmd.primary), cost))
    pay(tape, seat, cost, "attack_cost", attack_id)


def emit_defend(tape: Tape[State, Event], seat: int, cmd: Defend, plan: tuple[tuple[str, ...], int]) -> None:
    cards, cost = plan
    pending = tape.state.pending
    assert isinstance(pending, PendingDefend)
    primary = _event_primary(cards, cmd.mode, cmd.primary)
    tape.emit(DefenceDeclared(pending.attack_id, seat, cards, cmd.mode, primary, cmd.focus, cost))
    pay(tape, seat, cost, "defence_cost", pending.attack_id)
    resolve_combat(tape)


def emit_no_defence(tape: Tape[State, Event], seat: int, auto: bool) -> None:
    pending = tape.state.pending
    assert isinstance(pending, PendingDefend)
    tape.emit(DefenceDeclined(pending.attack_id, seat, auto))
    direct_hit(tape)


def emit_block(tape: Tape[State, Event], seat: int, plan: tuple[FieldCard, Relation, int]) -> None:
    card, relation, cost = plan
    pending = tape.state.pending
    assert isinstance(pending, PendingBlock)
    defence = actual(tape.state, seat, card, "def", "defending", False)
    leaves = relation == "same" and pending.atk >= defence
    tape.emit(WeaponBlocked(pending.weapon_id, seat, card.iid, relation, cost, leaves))
    pay(tape, seat, cost, "block_cost", pending.weapon_id)
    if leaves:
        leave(tape, seat, card.iid, "weapon")
    tape.emit(WeaponResolved(pending.weapon_id))


def emit_no_block(tape: Tape[State, Event], seat: int, auto: bool) -> None:
    pending = tape.state.pending
    assert isinstance(pending, PendingBlock)
    tape.emit(WeaponNotBlocked(pending.weapon_id, seat, auto))
    if pending.stat == "hp":
        if change_hp(tape, seat, -pending.atk, "hidden_weapon", pending.weapon_id):
            return
    else:
        change_qi(tape, seat, -pending.atk, "hidden_weapon", pending.weapon_id)
    tape.emit(WeaponResolved(pending.weapon_id))


def emit_choose_loss(tape: Tape[State, Event], seat: int, card: str, auto: bool) -> None:
    pending = tape.state.pending
    assert isinstance(pending, PendingLoss)
    tape.emit(LossChosen(pending.attack_id, seat, card, auto))
    leave(tape, 1 - seat, card, "combat")
    tape.emit(AttackEnded(pending.attack_id))


def emit_timeout(tape: Tape[State, Event], cmd: Timeout) -> None:
    """§9.3: the pending decision's default answer, or the phase's end (with the idle penalty)."""
    state = tape.state
    assert state.clock is not None
    seat = state.clock.seat
    pending = state.pending
    if pending is not None:
        tape.emit(TimedOut(seat, cmd.clock_seq, "pending"))
        if isinstance(pending, PendingDefend):
            emit_no_defence(tape, seat, True)
        elif isinstance(pending, PendingBlock):
            emit_no_block(tape, seat, True)
        else:
            emit_choose_loss(tape, seat, pending.options[0], True)
        return
    if state.sides[seat].actions >= 1:
        tape.emit(TimedOut(seat, cmd.clock_seq, "phase_auto_end"))
        end_phase(tape, "timeout")
        return
    tape.emit(TimedOut(seat, cmd.clock_seq, "phase_idle"))
    if change_hp(tape, seat, -TIMEOUT_PENALTY, "timeout_penalty", None):
        return
    if tape.state.sides[seat].idle_streak >= IDLE_TIMEOUTS_LOSE:
        tape.emit(MatchEnded(1 - seat, "idle_timeouts"))
        return
    end_phase(tape, "idle_timeout")


# --- the contract functions -------------------------------------------------------------------------------


def clock_seat(state: State) -> int:
    """§9.1: the pending decision's seat, else the active seat."""
    return state.pending.seat if state.pending is not None else state.active_seat


def decide_folded(state: State, actor: Actor, cmd: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events for ``cmd`` from ``actor`` and the state they fold to, or ``Rejected`` with the spec's code."""
    kind, decide = _DECIDERS[type(cmd)]
    precheck(state, actor, kind)
    tape: Tape[State, Event] = Tape(state, evolve)
    decide(tape, actor, cmd, rng)
    _restart_clock(tape, state, actor, kind)
    return tape.events, tape.state


# Each command's check and emission, found by one lookup on the exact type, as the fold does (isinstance on
# msgspec Structs is slow).

Tape_ = Tape[State, Event]


def _use(tape: Tape_, actor: Actor, cmd: UseCard, rng: Rng) -> None:
    emit_use_card(tape, _seat(actor), cmd, check_use_card(tape.state, actor, cmd))


def _play(tape: Tape_, actor: Actor, cmd: PlayCard, rng: Rng) -> None:
    card = check_play_card(tape.state, actor, cmd)
    zone: FieldZone = "skill_zone" if card.id in SKILL_IDS else "battle_zone"
    tape.emit(CardPlayed(_seat(actor), cmd.card, card.id, zone))


def _discard(tape: Tape_, actor: Actor, cmd: DiscardCard, rng: Rng) -> None:
    emit_discard_card(tape, _seat(actor), cmd, check_discard_card(tape.state, actor, cmd))


def _flip(tape: Tape_, actor: Actor, cmd: FlipCard, rng: Rng) -> None:
    emit_flip_card(tape, _seat(actor), cmd, check_flip_card(tape.state, actor, cmd))


def _attack(tape: Tape_, actor: Actor, cmd: Attack, rng: Rng) -> None:
    emit_attack(tape, _seat(actor), cmd, check_attack(tape.state, actor, cmd))


def _defend(tape: Tape_, actor: Actor, cmd: Defend, rng: Rng) -> None:
    emit_defend(tape, _seat(actor), cmd, check_defend(tape.state, actor, cmd))


def _no_defence(tape: Tape_, actor: Actor, cmd: NoDefence, rng: Rng) -> None:
    check_no_defence(tape.state, actor, cmd)
    emit_no_defence(tape, _seat(actor), False)


def _block(tape: Tape_, actor: Actor, cmd: Block, rng: Rng) -> None:
    emit_block(tape, _seat(actor), check_block(tape.state, actor, cmd))


def _no_block(tape: Tape_, actor: Actor, cmd: NoBlock, rng: Rng) -> None:
    check_no_block(tape.state, actor, cmd)
    emit_no_block(tape, _seat(actor), False)


def _choose_loss(tape: Tape_, actor: Actor, cmd: ChooseLoss, rng: Rng) -> None:
    check_choose_loss(tape.state, actor, cmd)
    emit_choose_loss(tape, _seat(actor), cmd.card, False)


def _end_phase(tape: Tape_, actor: Actor, cmd: EndPhase, rng: Rng) -> None:
    check_end_phase(tape.state, actor, cmd)
    end_phase(tape, "end_phase")


def _propose(tape: Tape_, actor: Actor, cmd: ProposeTruce, rng: Rng) -> None:
    tape.emit(TruceProposed(_seat(actor), check_propose_truce(tape.state, actor, cmd)))


def _accept(tape: Tape_, actor: Actor, cmd: AcceptTruce, rng: Rng) -> None:
    check_answer_truce(tape.state, actor, cmd)
    tape.emit(TruceAccepted(_seat(actor)))
    tape.emit(MatchEnded(None, "truce"))


def _reject(tape: Tape_, actor: Actor, cmd: RejectTruce, rng: Rng) -> None:
    check_answer_truce(tape.state, actor, cmd)
    tape.emit(TruceRejected(_seat(actor)))


def _concede(tape: Tape_, actor: Actor, cmd: Concede, rng: Rng) -> None:
    check_concede(tape.state, actor, cmd)
    tape.emit(Conceded(_seat(actor)))
    tape.emit(MatchEnded(1 - _seat(actor), "concede"))


def _timeout(tape: Tape_, actor: Actor, cmd: Timeout, rng: Rng) -> None:
    check_timeout(tape.state, actor, cmd)
    emit_timeout(tape, cmd)


def _ruling(tape: Tape_, actor: Actor, cmd: RefereeRuling, rng: Rng) -> None:
    check_referee_ruling(tape.state, actor, cmd)
    tape.emit(RefereeRuled(cmd.winner, cmd.note))
    tape.emit(MatchEnded(cmd.winner, "referee"))


_DECIDERS: dict[type, tuple[str, Decider[State, Event]]] = deciders(
    Command,
    (
        (UseCard, _use),
        (PlayCard, _play),
        (DiscardCard, _discard),
        (FlipCard, _flip),
        (Attack, _attack),
        (Defend, _defend),
        (NoDefence, _no_defence),
        (Block, _block),
        (NoBlock, _no_block),
        (ChooseLoss, _choose_loss),
        (EndPhase, _end_phase),
        (ProposeTruce, _propose),
        (AcceptTruce, _accept),
        (RejectTruce, _reject),
        (Concede, _concede),
        (Timeout, _timeout),
        (RefereeRuling, _ruling),
    ),
)
"""Each command type's tag (for ``precheck``) and the function that checks and emits it."""


def _restart_clock(tape: Tape[State, Event], before: State, actor: Actor, kind: str) -> None:
    """§9.2: one ``ClockRestarted`` after a command that moved the clock, unless the match ended."""
    after = tape.state
    if after.status != IN_PROGRESS:
        return
    seat = clock_seat(after)
    if (
        seat != clock_seat(before)
        or kind == "timeout"
        or (actor == seat and kind in CLOCKED)
        or any(type(e) is PhaseStarted for e in tape.events)
    ):
        seq = after.clock.seq + 1 if after.clock is not None else 1
        tape.emit(ClockRestarted(seat, seq, after.options.action_timer_s))


# --- legal commands (§8.11) -------------------------------------------------------------------------------
# Gates prune a family whose every candidate its check would refuse, and candidates skip what is plainly
# refused; the command's check still decides every listed command.


def _gate_use(state: State, seat: int) -> None:
    gate_own(state, seat)
    if state.sides[seat].consumable_used:
        raise Rejected(Code.CONSUMABLE_ALREADY_USED, "you have used a consumable this phase")


def _gate_play(state: State, seat: int) -> None:
    gate_own(state, seat)
    if state.sides[seat].play_used:
        raise Rejected(Code.PLAY_ALREADY_USED, "you have played a card this phase")


def _gate_discard(state: State, seat: int) -> None:
    gate_own(state, seat)
    if state.sides[seat].discard_used:
        raise Rejected(Code.DISCARD_ALREADY_USED, "you have discarded this phase")


def _gate_truce_answer(state: State, seat: int) -> None:
    if state.truce_offer is None or state.truce_offer == seat:
        raise Rejected(Code.NO_TRUCE_OFFER, "no truce is offered to you")


def _gate_concede(state: State, seat: int) -> None:
    if not state.options.allow_concede:
        raise Rejected(Code.CONCEDE_DISABLED, "conceding is off in this match")


def _use_candidates(state: State, seat: int) -> list[UseCard]:
    out: list[UseCard] = []
    side = state.sides[seat]
    targets: list[str] | None = None
    card_ids = state.card_ids
    for iid in sorted(side.hand):
        card_id = card_ids[iid]
        if card_id not in CONSUMABLE_IDS or QI_COST[card_id] > side.qi:
            continue
        if card_id in TARGETED:
            if targets is None:
                targets = sorted(c.iid for c in side.battle_zone if c.face_up and c.card_id in BATTLE)
            out.extend(UseCard(iid, t) for t in targets)
        else:
            out.append(UseCard(iid))
    return out


def _play_candidates(state: State, seat: int) -> list[PlayCard]:
    side = state.sides[seat]
    battle_room = len(side.battle_zone) < BATTLE_ZONE_SIZE
    skill_room = not side.skill_zone
    out = []
    card_ids = state.card_ids
    for iid in sorted(side.hand):
        card_id = card_ids[iid]
        room = skill_room if card_id in SKILL_IDS else battle_room
        if room and card_id in PLAYABLE_IDS:
            out.append(PlayCard(iid))
    return out


def _discard_candidates(state: State, seat: int) -> list[DiscardCard]:
    side = state.sides[seat]
    phase = state.phase_no
    field = [c.iid for c in (*side.battle_zone, *side.skill_zone) if c.attacked_phase != phase]
    return [DiscardCard(iid) for iid in sorted((*side.hand, *field))]


def _flip_candidates(state: State, seat: int) -> list[FlipCard]:
    side = state.sides[seat]
    out = []
    for c in (*side.battle_zone, *side.skill_zone):
        if c.face_up:
            continue
        if c.card_id in BATTLE:
            if side.battle_flip_used or c.played_phase == state.phase_no:
                continue
        elif c.card_id in FORMATIONS and (not state.options.formation_flip or QI_COST[c.card_id] > side.qi):
            continue
        out.append(c.iid)
    return [FlipCard(iid) for iid in sorted(out)]


def _groups(eligible: list[FieldCard], qi: int, surcharge: bool) -> list[tuple[tuple[str, ...], str, str | None]]:
    """(cards, mode, primary) of every affordable single, joint and combination group of ``eligible``, sorted."""
    if not eligible:
        return []
    entries = sorted([(c.iid, BATTLE[c.card_id]) for c in eligible], key=lambda e: e[0])
    if len(entries) == 1:
        return [((iid,), "single", None) for iid, entry in entries if entry.qi_cost <= qi]
    out: list[tuple[tuple[str, ...], str, str | None]] = [
        ((iid,), "single", None) for iid, entry in entries if entry.qi_cost <= qi
    ]
    for size in range(2, min(5, len(entries)) + 1):
        extra = JOINT_SURCHARGE * size if surcharge else 0
        for group in combinations(entries, size):
            if len({e.attribute for _, e in group}) == 1 and sum(e.qi_cost for _, e in group) + extra <= qi:
                out.append((tuple(iid for iid, _ in group), "joint", None))
    for (a, ea), (b, eb) in combinations(entries, 2):
        if eb.id in ea.combo_partners and ea.id in eb.combo_partners and ea.qi_cost + eb.qi_cost <= qi:
            out.append(((a, b), "combination", a))
            out.append(((a, b), "combination", b))
    out.sort(key=lambda g: (g[0], g[1], g[2] or ""))
    return out


def _attack_candidates(state: State, seat: int) -> list[Attack]:
    side = state.sides[seat]
    eligible = [c for c in side.battle_zone if c.face_up and c.card_id in BATTLE and c.acted_phase != state.phase_no]
    return [Attack(cards, mode, primary) for cards, mode, primary in _groups(eligible, side.qi, True)]


def _defend_candidates(state: State, seat: int) -> list[Defend]:
    pending = state.pending
    assert isinstance(pending, PendingDefend)
    side = state.sides[seat]
    phase = state.phase_no
    eligible = [
        c
        for c in side.battle_zone
        if c.face_up and c.card_id in BATTLE and c.acted_phase != phase and c.attacked_phase != phase - 1
    ]
    focuses: Sequence[str | None] = pending.attackers if len(pending.attackers) >= 2 else (None,)
    return [
        Defend(cards, mode, primary, focus)
        for cards, mode, primary in _groups(eligible, side.qi, False)
        for focus in focuses
    ]


def _block_candidates(state: State, seat: int) -> list[Block]:
    return [Block(iid) for iid in sorted(c.iid for c in state.sides[seat].battle_zone if c.face_up)]


def _loss_candidates(state: State, seat: int) -> list[ChooseLoss]:
    pending = state.pending
    assert isinstance(pending, PendingLoss)
    return [ChooseLoss(iid) for iid in pending.options]


def _one(cmd: Any) -> Callable[[State, int], list[Any]]:
    commands = [cmd]
    return lambda state, seat: commands


FAMILIES: tuple[Family[State], ...] = (
    Family("use_card", _use_candidates, check_use_card, _gate_use),
    Family("play_card", _play_candidates, check_play_card, _gate_play),
    Family("discard_card", _discard_candidates, check_discard_card, _gate_discard),
    Family("flip_card", _flip_candidates, check_flip_card, gate_any),
    Family("attack", _attack_candidates, check_attack, gate_own),
    Family("defend", _defend_candidates, check_defend, gate_defend),
    Family("no_defence", _one(NoDefence()), check_no_defence, gate_defend),
    Family("block", _block_candidates, check_block, gate_block),
    Family("no_block", _one(NoBlock()), check_no_block, gate_block),
    Family("choose_loss", _loss_candidates, check_choose_loss, gate_loss),
    Family("end_phase", _one(EndPhase()), check_end_phase, gate_own),
    Family("propose_truce", _one(ProposeTruce()), check_propose_truce),
    Family("accept_truce", _one(AcceptTruce()), check_answer_truce, _gate_truce_answer),
    Family("reject_truce", _one(RejectTruce()), check_answer_truce, _gate_truce_answer),
    Family("concede", _one(Concede()), check_concede, _gate_concede),
)
"""Every family in §7 table order (use, play, discard, flip, attack, ...), as §8.11 lists them."""


def _has_action(state: State, seat: int) -> bool:
    """D16: some action is possible for the active seat with no action taken yet exactly when it holds a card
    in hand or on its field, since discarding one is then always accepted (no discard has been made, and a
    card that attacked this phase would mean an action was taken)."""
    side = state.sides[seat]
    return bool(side.hand or side.battle_zone or side.skill_zone)


class _Situation(NamedTuple):
    """What the family gates look at, for one asking seat."""

    answering: str | None
    """The kind of decision the seat must answer, if any."""
    pending: bool
    active: bool
    offer: bool
    """A truce offer the seat may answer is open."""
    concede: bool
    consumable_used: bool
    play_used: bool
    discard_used: bool


def _in_play(tag: str, now: _Situation) -> bool:
    """Whether a family's gate can pass in this situation: only a shortcut past gates that would refuse (the
    gates and checks still run for every family kept), never a rule of its own."""
    own = now.active and not now.pending
    return {
        "use_card": own and not now.consumable_used,
        "play_card": own and not now.play_used,
        "discard_card": own and not now.discard_used,
        "flip_card": not now.pending or now.answering is not None,
        "attack": own,
        "defend": now.answering == "defend",
        "no_defence": now.answering == "defend",
        "block": now.answering == "block",
        "no_block": now.answering == "block",
        "choose_loss": now.answering == "choose_loss",
        "end_phase": own,
        "propose_truce": True,
        "accept_truce": now.offer,
        "reject_truce": now.offer,
        "concede": now.concede and now.active,
    }[tag]


_SITUATIONS: dict[tuple[object, ...], tuple[Family[State], ...]] = {
    now: tuple(f for f in FAMILIES if _in_play(f.tag, now))
    for now in (
        _Situation(answering, pending, *flags)
        for answering, pending in (
            (None, False),
            (None, True),
            ("defend", True),
            ("block", True),
            ("choose_loss", True),
        )
        for flags in product((False, True), repeat=6)
    )
}
_PENDING_KIND = {PendingDefend: "defend", PendingBlock: "block", PendingLoss: "choose_loss"}


def legal_commands(state: State, seat: int) -> list[Command]:
    """§8.11: exactly what ``decide`` accepts from ``seat`` now, in the canonical order."""
    pending = state.pending
    answering = _PENDING_KIND[type(pending)] if pending is not None and pending.seat == seat else None
    side = state.sides[seat] if seat in SEATS else state.sides[0]
    # A plain tuple finds its _Situation (a NamedTuple hashes and compares as one) without building it.
    now = (
        answering,
        pending is not None,
        seat == state.active_seat,
        state.truce_offer is not None and state.truce_offer != seat,
        state.options.allow_concede,
        side.consumable_used,
        side.play_used,
        side.discard_used,
    )
    return legal(_SITUATIONS[now], precheck, state, seat)


def to_act(state: State) -> tuple[int, ...]:
    """The seat that holds the clock while the match runs (§9.1)."""
    return (clock_seat(state),) if state.status == IN_PROGRESS else ()


def deadline(state: State) -> Deadline | None:
    """§9.1: the clock seat's countdown; expiry submits the system's ``timeout{clock_seq}``."""
    clock = state.clock
    if state.status != IN_PROGRESS or clock is None:
        return None
    return Deadline(seat=clock.seat, seconds=float(clock.duration_s), timeout=Timeout(clock.seq))


def outcome(state: State) -> Outcome | None:
    """§10: None while the match runs."""
    result = state.result
    return None if result is None else Outcome.two_seat(result.winner, result.reason)
