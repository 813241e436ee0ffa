"""Each command's preconditions (wulin.md §7 table): ``check_<command>(state, actor, cmd)`` raises ``Rejected``
in the spec's precondition order and returns what emission needs; ``decide`` and ``legal_commands`` run the same
checks."""

from __future__ import annotations

from engine.contract import Actor
from engine.errors import Rejected
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
    Card,
    counters,
)
from engine.rulesets.wulin.model import State
from engine.rulesets.wulin.model.commands import (
    AcceptTruce,
    Attack,
    Block,
    ChooseLoss,
    Concede,
    Defend,
    DiscardCard,
    EndPhase,
    FlipCard,
    NoBlock,
    NoDefence,
    PlayCard,
    ProposeTruce,
    RefereeRuling,
    RejectTruce,
    Timeout,
    UseCard,
)
from engine.rulesets.wulin.model.state import FieldCard, FieldZone, PendingBlock, PendingDefend, PendingLoss, Relation
from engine.rulesets.wulin.rules.common import (
    afford,
    battle_zone_card,
    field_card,
    gate_any,
    gate_own,
    player_seat,
    respond,
)

MODES = ("single", "joint", "combination")
BATTLE_ZONE_SIZE = 5
TRUCE_PROPOSALS = 3
JOINT_SURCHARGE = 10


def check_use_card(state: State, actor: Actor, cmd: UseCard) -> Card:
    seat = player_seat(actor)
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
        target = battle_zone_card(side, cmd.target)
        if target is None or not target.face_up or target.card_id not in BATTLE:
            raise Rejected(Code.TARGET_INVALID, "the target must be one of your face-up battle cards")
    elif cmd.target is not None:
        raise Rejected(Code.TARGET_NOT_ALLOWED, f"{card.name} takes no target")
    afford(side, QI_COST[card_id])
    return card


def check_play_card(state: State, actor: Actor, cmd: PlayCard) -> Card:
    seat = player_seat(actor)
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
    seat = player_seat(actor)
    gate_own(state, seat)
    side = state.sides[seat]
    found = None if cmd.card in side.hand else field_card(side, cmd.card)
    if found is None and cmd.card not in side.hand:
        raise Rejected(Code.UNKNOWN_CARD, f"{cmd.card} is neither in your hand nor on your field")
    if side.discard_used:
        raise Rejected(Code.DISCARD_ALREADY_USED, "you have discarded this phase")
    if found is not None and found[0].attacked_phase == state.phase_no:
        raise Rejected(Code.CARD_JUST_ATTACKED, f"{cmd.card} attacked this phase")
    return found[0] if found is not None else None


def check_flip_card(state: State, actor: Actor, cmd: FlipCard) -> tuple[FieldCard, FieldZone]:
    seat = player_seat(actor)
    gate_any(state, seat)
    side = state.sides[seat]
    found = field_card(side, cmd.card)
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
        afford(side, QI_COST[card.card_id])
    return found


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


def check_attack(state: State, actor: Actor, cmd: Attack) -> tuple[tuple[str, ...], int]:
    """The sorted attackers and the qi the attack costs."""
    seat = player_seat(actor)
    gate_own(state, seat)
    group = _group(state, seat, cmd.cards, cmd.mode, cmd.primary)
    if any(c.acted_phase == state.phase_no for c in group):
        raise Rejected(Code.CARD_ALREADY_ACTED, "a card has spent its action this phase")
    cost = _group_cost(group, cmd.mode, True)
    afford(state.sides[seat], cost)
    return tuple(sorted(cmd.cards)), cost


def check_defend(state: State, actor: Actor, cmd: Defend) -> tuple[tuple[str, ...], int]:
    """The sorted defenders and the qi the defence costs."""
    seat = player_seat(actor)
    pending: PendingDefend = respond(state, seat, PendingDefend)
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
    afford(state.sides[seat], cost)
    return tuple(sorted(cmd.cards)), cost


def check_no_defence(state: State, actor: Actor, cmd: NoDefence) -> None:
    respond(state, player_seat(actor), PendingDefend)


def check_block(state: State, actor: Actor, cmd: Block) -> tuple[FieldCard, Relation, int]:
    """The blocker, its relation to the weapon and the qi it costs."""
    seat = player_seat(actor)
    pending: PendingBlock = respond(state, seat, PendingBlock)
    side = state.sides[seat]
    card = battle_zone_card(side, cmd.card)
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
    afford(side, entry.qi_cost)
    return card, relation, entry.qi_cost


def check_no_block(state: State, actor: Actor, cmd: NoBlock) -> None:
    respond(state, player_seat(actor), PendingBlock)


def check_choose_loss(state: State, actor: Actor, cmd: ChooseLoss) -> None:
    pending: PendingLoss = respond(state, player_seat(actor), PendingLoss)
    if cmd.card not in pending.options:
        raise Rejected(Code.INVALID_CHOICE, "choose one of the defending cards")


def check_end_phase(state: State, actor: Actor, cmd: EndPhase) -> None:
    seat = player_seat(actor)
    gate_own(state, seat)
    if state.sides[seat].actions == 0 and has_action(state, seat):
        raise Rejected(Code.NO_ACTION_TAKEN, "take at least one action before ending the phase")


def has_action(state: State, seat: int) -> bool:
    """D16: some action is possible for the active seat with no action taken yet exactly when it holds a card
    in hand or on its field, since discarding one is then always accepted (no discard has been made, and a
    card that attacked this phase would mean an action was taken)."""
    side = state.sides[seat]
    return bool(side.hand or side.battle_zone or side.skill_zone)


def check_propose_truce(state: State, actor: Actor, cmd: ProposeTruce) -> int:
    """The seat's proposal count after this one."""
    seat = player_seat(actor)
    if state.truce_offer is not None:
        raise Rejected(Code.TRUCE_ALREADY_OPEN, "a truce offer is open")
    used = state.sides[seat].truce_proposals_used
    if used >= TRUCE_PROPOSALS:
        raise Rejected(Code.TRUCE_LIMIT_REACHED, "you have proposed a truce three times")
    return used + 1


def check_answer_truce(state: State, actor: Actor, cmd: AcceptTruce | RejectTruce) -> None:
    seat = player_seat(actor)
    if state.truce_offer is None:
        raise Rejected(Code.NO_TRUCE_OFFER, "no truce is offered")
    if state.truce_offer == seat:
        raise Rejected(Code.CANNOT_ANSWER_OWN_TRUCE, "the other seat answers your offer")


def gate_concede(state: State, seat: int) -> None:
    """The whole of ``check_concede`` past the actor's role: its one candidate needs nothing else."""
    if not state.options.allow_concede:
        raise Rejected(Code.CONCEDE_DISABLED, "conceding is off in this match")
    if seat != state.active_seat:
        raise Rejected(Code.NOT_YOUR_PHASE, "you may concede only in your own phase")


def check_concede(state: State, actor: Actor, cmd: Concede) -> None:
    gate_concede(state, player_seat(actor))


def check_timeout(state: State, actor: Actor, cmd: Timeout) -> None:
    if state.clock is None or cmd.clock_seq != state.clock.seq:
        raise Rejected(Code.STALE_TIMEOUT, f"clock {cmd.clock_seq} is not the running clock")


def check_referee_ruling(state: State, actor: Actor, cmd: RefereeRuling) -> None:
    if not state.options.referee_enabled:
        raise Rejected(Code.REFEREE_DISABLED, "this match has no referee")
    if cmd.winner not in (0, 1, None):
        raise Rejected(Code.BAD_WINNER, "the winner is seat 0, seat 1 or null for a draw")
