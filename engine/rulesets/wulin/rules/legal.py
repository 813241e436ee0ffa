"""``legal_commands`` (wulin.md §8.11): the canonical candidates of each family, filtered through the checks
``decide`` runs. Gates prune a family whose every candidate its check would refuse, and candidates skip what is
plainly refused; the command's check still decides every listed command."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from engine.errors import Rejected
from engine.legal import Family, legal
from engine.rulesets.wulin.codes import Code
from engine.rulesets.wulin.data import (
    BATTLE,
    CONSUMABLE_IDS,
    FORMATIONS,
    PLAYABLE_IDS,
    QI_COST,
    SKILL_IDS,
    TARGETED,
)
from engine.rulesets.wulin.model import Command, State
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
    RejectTruce,
    UseCard,
)
from engine.rulesets.wulin.model.state import FieldCard, PendingDefend, PendingLoss
from engine.rulesets.wulin.rules.checks import (
    BATTLE_ZONE_SIZE,
    JOINT_SURCHARGE,
    check_answer_truce,
    check_attack,
    check_block,
    check_choose_loss,
    check_concede,
    check_defend,
    check_discard_card,
    check_end_phase,
    check_flip_card,
    check_no_block,
    check_no_defence,
    check_play_card,
    check_propose_truce,
    check_use_card,
    gate_concede,
)
from engine.rulesets.wulin.rules.common import gate_any, gate_block, gate_defend, gate_loss, gate_own, precheck
from engine.rulesets.wulin.rules.situations import by_situation, situation


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
    Family("concede", _one(Concede()), check_concede, gate_concede),
)
"""Every family in §7 table order (use, play, discard, flip, attack, ...), as §8.11 lists them."""


_SITUATIONS = by_situation(FAMILIES)
"""The families whose gates can pass, by the asking seat's situation; ``legal`` still runs every gate kept."""


def legal_commands(state: State, seat: int) -> list[Command]:
    """§8.11: exactly what ``decide`` accepts from ``seat`` now, in the canonical order."""
    return legal(_SITUATIONS[situation(state, seat)], precheck, state, seat)
