"""``legal_commands`` (docs/rulesets/voidlink.md §7.2): the spec's canonical candidates of each family, filtered
through the checks ``decide`` runs, so there is no second legality list."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from engine.contract import Actor
from engine.errors import Rejected
from engine.legal import Family, legal
from engine.rulesets.voidlink.board import cards_of, face_of, in_attack, monsters, system_of
from engine.rulesets.voidlink.checks import (
    check_activate_combination,
    check_activate_commander,
    check_activate_magic,
    check_activate_monster_effect,
    check_activate_tactics,
    check_change_form,
    check_concede,
    check_declare_attack,
    check_discard,
    check_end_turn,
    check_go_to_battle,
    check_myth_summon,
    check_normal_summon,
    check_pass,
    check_set_magic,
    check_tribute_summon,
    magic_candidates,
    tactics_candidates,
)
from engine.rulesets.voidlink.codes import Code
from engine.rulesets.voidlink.data import (
    CATALOG,
    FORMS,
    LEVELS,
    CombinationCard,
    CommanderCard,
    Filter,
    MagicCard,
    MythCard,
)
from engine.rulesets.voidlink.model import Command, State
from engine.rulesets.voidlink.model.commands import (
    ActivateCombination,
    ActivateCommander,
    ActivateMonsterEffect,
    ChangeForm,
    Concede,
    DeclareAttack,
    Discard,
    EndTurn,
    GoToBattle,
    MythSummon,
    NormalSummon,
    Pass,
    SetMagic,
    TributeSummon,
)
from engine.rulesets.voidlink.rules.common import ALLOWED, precheck
from engine.rulesets.voidlink.targets import holds, printed, target_lists


def _hand(state: State, seat: int, kind: type) -> list[str]:
    cards = cards_of(state)
    return [c for c in state.players[seat].hand if isinstance(cards[c], kind)]


def _normal_gate(state: State, seat: int) -> None:
    player = state.players[seat]
    if player.normal_summons_used >= 2:
        raise Rejected(Code.NORMAL_SUMMON_LIMIT, "two normal summons per turn")
    if None not in player.monsters:
        raise Rejected(Code.MONSTER_ZONE_FULL, "every monster zone is taken")


def _normal_candidates(state: State, seat: int) -> Iterator[NormalSummon]:
    card_ids = state.card_ids
    for card in state.players[seat].hand:
        if LEVELS.get(card_ids[card], 5) <= 4:
            for form in FORMS:
                yield NormalSummon(card, form)


def _tribute_candidates(state: State, seat: int) -> Iterator[TributeSummon]:
    """Tribute sets in ascending zone order; sets holding a myth monster or too few levels are left out."""
    card_ids = state.card_ids
    high = [(c, level) for c in state.players[seat].hand if (level := LEVELS.get(card_ids[c], 0)) >= 5]
    if not high:
        return
    levels = {m.card: LEVELS[m.card_id] for m in monsters(state, seat) if m.card_id in LEVELS}
    own = list(levels)
    sets = [(s, sum(levels[c] for c in s)) for n in range(1, len(own) + 1) for s in combinations(own, n)]
    for card, level in high:
        for tributes, total in sets:
            if total >= level:
                for form in FORMS:
                    yield TributeSummon(card, form, tributes)


def _assignments(state: State, seat: int, slots: tuple[Filter, ...], from_hand: bool) -> list[tuple[str, ...]]:
    """Distinct cards per material slot, slot by slot: own monster zones first, then the hand."""
    own = monsters(state, seat)
    hand = state.players[seat].hand if from_hand else ()
    card_ids = state.card_ids
    out: list[tuple[str, ...]] = [()]
    for spec in slots:
        fits = printed(spec)
        system = spec.system
        options = [m.card for m in own if m.card_id in fits and (system is None or system_of(m.form) == system)]
        if system is None:  # a system filter needs a field monster (``matches``)
            options += [c for c in hand if card_ids[c] in fits]
        out = [(*chosen, c) for chosen in out for c in options if c not in chosen]
        if not out:
            break
    return out


def _myth_candidates(state: State, seat: int) -> Iterator[MythSummon]:
    own = monsters(state, seat)
    assigned: dict[str, list[tuple[str, ...]]] = {}  # copies of one card share their material assignments
    for card in state.players[seat].extra:
        entry = cards_of(state)[card]
        if not isinstance(entry, MythCard) or len(own) < len(entry.materials):
            continue
        if any(m.card_id == entry.id for m in own):
            continue
        materials = assigned.get(entry.id)
        if materials is None:
            materials = assigned[entry.id] = _assignments(state, seat, entry.materials, from_hand=False)
        for form in FORMS:
            if system_of(form) != entry.system:
                continue
            for chosen in materials:
                yield MythSummon(card, form, chosen)


def _magic_zone_gate(state: State, seat: int) -> None:
    if None not in state.players[seat].magic:
        raise Rejected(Code.MAGIC_ZONE_FULL, "every magic zone is taken")


def _set_candidates(state: State, seat: int) -> Iterator[SetMagic]:
    for card in _hand(state, seat, MagicCard):
        yield SetMagic(card)


def _commander_gate(state: State, seat: int) -> None:
    player = state.players[seat]
    if player.commander is None:
        raise Rejected(Code.NO_COMMANDER, "you have no commander")
    if player.commander_used:
        raise Rejected(Code.ABILITY_USED_THIS_TURN, "the ability was used this turn")


def _commander_candidates(state: State, seat: int) -> Iterator[ActivateCommander]:
    commander = state.players[seat].commander
    assert commander is not None
    entry = cards_of(state)[commander]
    assert isinstance(entry, CommanderCard)
    if holds(state, seat, entry.ability.condition):
        for targets in target_lists(state, seat, entry.ability):
            yield ActivateCommander(targets)


def _monster_effect_candidates(state: State, seat: int) -> Iterator[ActivateMonsterEffect]:
    for monster in monsters(state, seat):
        for index, effect in enumerate(face_of(monster)[2]):
            if effect.kind == "activated" and holds(state, seat, effect.condition):
                for targets in target_lists(state, seat, effect):
                    yield ActivateMonsterEffect(monster.card, index, targets)


def _combination_candidates(state: State, seat: int) -> Iterator[ActivateCombination]:
    player = state.players[seat]
    cards = cards_of(state)
    assigned: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}  # shared by copies of one card
    for card in player.extra:
        entry = cards[card]
        if not isinstance(entry, CombinationCard) or entry.id in player.combination_used:
            continue
        options = assigned.get(entry.id)
        if options is None:
            options = assigned[entry.id] = _combination_options(state, seat, entry)
        for chosen, targets in options:
            yield ActivateCombination(card, chosen, targets)


def _combination_options(
    state: State, seat: int, entry: CombinationCard
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(materials, targets) pairs for one combination card. Only graveyard targets depend on the materials paid;
    a field or hand target that is also a material is invalid (§8.8), so such pairs are never listed."""
    effect = entry.effect
    if not holds(state, seat, effect.condition):
        return []
    assignments = _assignments(state, seat, entry.materials, from_hand=True)
    if not assignments:
        return []
    if any(spec.zone == "own_graveyard" for spec in effect.targets):
        return [(chosen, targets) for chosen in assignments for targets in target_lists(state, seat, effect, chosen)]
    lists = target_lists(state, seat, effect)
    return [(chosen, targets) for chosen in assignments for targets in lists if not any(t in chosen for t in targets)]


def _form_candidates(state: State, seat: int) -> Iterator[ChangeForm]:
    """Every other form; a myth monster's only within its fixed system (the check refuses the rest)."""
    for monster in monsters(state, seat):
        if monster.summoned_turn == state.turn or monster.form_changed:
            continue
        entry = CATALOG[monster.card_id]
        fixed = entry.system if isinstance(entry, MythCard) else None
        for form in FORMS:
            if form != monster.form and (fixed is None or system_of(form) == fixed):
                yield ChangeForm(monster.card, form)


def _attack_candidates(state: State, seat: int) -> Iterator[DeclareAttack]:
    """Targets of the attacker's system in zone order, then a direct attack when that system shows no
    opposing monster: the check refuses every other pair."""
    opposing = monsters(state, 1 - seat)
    for monster in monsters(state, seat):
        if in_attack(monster.form) and not monster.attacked:
            system = system_of(monster.form)
            targets = [m.card for m in opposing if system_of(m.form) == system]
            for target in targets:
                yield DeclareAttack(monster.card, target)
            if not targets:
                yield DeclareAttack(monster.card, None)


_GO_TO_BATTLE = (GoToBattle(),)
_END_TURN = (EndTurn(),)
_PASS = (Pass(),)
_CONCEDE = (Concede(),)


def _discard_candidates(state: State, seat: int) -> Iterator[Discard]:
    awaiting = state.awaiting
    if awaiting is None or awaiting.count is None:
        return
    for cards in combinations(state.players[seat].hand, awaiting.count):
        yield Discard(cards)


FAMILIES: tuple[Family[State], ...] = (
    Family("normal_summon", _normal_candidates, check_normal_summon, _normal_gate),
    Family("tribute_summon", _tribute_candidates, check_tribute_summon),
    Family("myth_summon", _myth_candidates, check_myth_summon),
    Family("set_magic", _set_candidates, check_set_magic, _magic_zone_gate),
    Family("activate_magic", magic_candidates, check_activate_magic),
    Family("activate_tactics", tactics_candidates, check_activate_tactics),
    Family("activate_commander", _commander_candidates, check_activate_commander, _commander_gate),
    Family("activate_monster_effect", _monster_effect_candidates, check_activate_monster_effect),
    Family("activate_combination", _combination_candidates, check_activate_combination, _magic_zone_gate),
    Family("change_form", _form_candidates, check_change_form),
    Family("go_to_battle", lambda state, seat: _GO_TO_BATTLE, check_go_to_battle),
    Family("declare_attack", _attack_candidates, check_declare_attack),
    Family("end_turn", lambda state, seat: _END_TURN, check_end_turn),
    Family("pass", lambda state, seat: _PASS, check_pass),
    Family("discard", _discard_candidates, check_discard),
    Family("concede", lambda state, seat: _CONCEDE, check_concede),
)
"""§7.2 command families in table order; their checks are the ones ``decide`` runs, and a gate refuses a whole
family at once."""


_DECISION_FAMILIES = {key: tuple([f for f in FAMILIES if f.tag in allowed]) for key, allowed in ALLOWED.items()}
"""The families G5-G6 let through for the awaited seat, by (decision kind, phase): ``precheck`` refuses every
other family, so ``legal_commands`` never asks it about them."""


def legal_commands(state: State, seat: int) -> list[Command]:
    """§7.2: exactly what ``decide`` accepts from ``seat`` now, in the canonical order."""
    awaiting = state.awaiting
    if awaiting is None or seat != awaiting.seat:
        return legal(FAMILIES, precheck, state, seat)
    return legal(_DECISION_FAMILIES[awaiting.kind, state.phase], _admitted, state, seat)


def _admitted(state: State, actor: Actor, kind: str) -> None:
    """``precheck`` for a family of ``_DECISION_FAMILIES`` and the awaited seat: its first test passes, always."""
