"""Commands of voidlink: generic checks, emission, decide, legal_commands, to_act, deadline, outcome (§7, §9, §10).

``decide`` runs ``precheck`` (G1, G3-G6), the command's check (checks.py), then the emission; ``legal_commands``
filters the spec's canonical candidates through the same two, so there is no second legality list.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from engine.contract import SYSTEM, Actor, Deadline, Outcome, seat_of
from engine.dispatch import Decider, deciders
from engine.errors import Rejected
from engine.legal import Family, legal
from engine.precheck import check_common
from engine.rng import Rng
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
    check_timeout,
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
from engine.rulesets.voidlink.model import Command, Event, State
from engine.rulesets.voidlink.model.commands import (
    ActivateCombination,
    ActivateCommander,
    ActivateMagic,
    ActivateMonsterEffect,
    ActivateTactics,
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
    Timeout,
    TributeSummon,
)
from engine.rulesets.voidlink.model.events import (
    AttackDeclared,
    Conceded,
    FormChanged,
    MagicSet,
    MatchEnded,
    Moved,
    Passed,
    PhaseEndRequested,
    SentToGraveyard,
    TimedOut,
)
from engine.rulesets.voidlink.model.state import GraveReason
from engine.rulesets.voidlink.resolve import Tape, add_link, await_open, discard, new_tape, proceed, summon, window
from engine.rulesets.voidlink.targets import holds, printed, target_lists

# --- generic checks (§7.1) -------------------------------------------------------------------------------------

_KINDS: dict[str, frozenset[str]] = {
    "open": frozenset(
        {
            "normal_summon",
            "tribute_summon",
            "myth_summon",
            "set_magic",
            "activate_magic",
            "activate_tactics",
            "activate_commander",
            "activate_monster_effect",
            "activate_combination",
            "change_form",
            "go_to_battle",
            "declare_attack",
            "end_turn",
        }
    ),
    "response": frozenset({"activate_magic", "activate_tactics", "pass"}),
    "discard": frozenset({"discard"}),
}
_MAIN_ONLY = frozenset(
    {
        "normal_summon",
        "tribute_summon",
        "myth_summon",
        "set_magic",
        "activate_commander",
        "activate_monster_effect",
        "change_form",
        "go_to_battle",
    }
)


def _allowed(kind: str, phase: str) -> frozenset[str]:
    """The command kinds G5 and G6 let through for a decision kind in a phase."""
    allowed = _KINDS[kind]
    if phase != "main":
        allowed -= _MAIN_ONLY
    if phase != "battle":
        allowed -= {"declare_attack"}
    return allowed | {"concede"}


_ALLOWED = {(kind, phase): _allowed(kind, phase) for kind in _KINDS for phase in ("draw", "main", "battle", "end")}
"""G5-G6 by (decision kind, phase): the awaited seat's common checks are one lookup when they pass."""


def precheck(state: State, actor: Actor, kind: str) -> None:
    """G1 and G3-G6 in order (G2, field decoding, is the engine's and follows these, D34)."""
    awaiting = state.awaiting
    if awaiting is not None and actor == awaiting.seat and kind in _ALLOWED[awaiting.kind, state.phase]:
        return  # a running match (awaiting is cleared when it ends), the awaited seat, an allowed kind
    if state.result is not None:
        raise Rejected(Code.MATCH_OVER, "the match is over")
    if kind == "timeout":
        if actor != SYSTEM:
            raise Rejected(Code.SYSTEM_ONLY, "only the system times a decision out")
        return
    acting = () if awaiting is None else (awaiting.seat,)
    check_common(kind, actor, over=False, acting=acting, system=(), not_your_turn=Code.NOT_AWAITED_SEAT)
    if kind == "concede":
        return
    assert awaiting is not None
    if kind not in _KINDS[awaiting.kind]:
        raise Rejected(Code.WRONG_DECISION_KIND, f"{kind} is not allowed in a {awaiting.kind} decision")
    if kind in _MAIN_ONLY and state.phase != "main":
        raise Rejected(Code.WRONG_PHASE, f"{kind} needs the Main phase")
    if kind == "declare_attack" and state.phase != "battle":
        raise Rejected(Code.WRONG_PHASE, "declare_attack needs the Battle phase")


# --- emission (§7.2 effects, §8) ---------------------------------------------------------------------------------


def _to_graveyard(tape: Tape, seat: int, cards: Iterable[str], reason: GraveReason) -> None:
    state = tape.state
    hand = state.players[seat].hand
    moved = tuple([Moved(c, state.card_ids[c], "hand" if c in hand else "monster_zone") for c in cards])
    tape.emit(SentToGraveyard(seat, moved, reason))


def _end_turn(tape: Tape, seat: int) -> None:
    tape.emit(PhaseEndRequested(seat, "end"))
    window(tape, 1 - seat, "phase_end")


def _pass(tape: Tape, seat: int) -> None:
    awaiting = tape.state.awaiting
    assert awaiting is not None and awaiting.window is not None
    tape.emit(Passed(seat))
    proceed(tape, awaiting.window)


def _timeout(tape: Tape, actor: Actor, cmd: Timeout, rng: Rng) -> None:
    """§9 (D28): the least committal default for the decision that ran out."""
    awaiting = check_timeout(tape.state, actor, cmd)
    seat = awaiting.seat
    tape.emit(TimedOut(seat, awaiting.seq, awaiting.kind))
    if awaiting.kind == "open":
        limit = tape.state.options.open_timeouts_to_lose
        if limit and tape.state.players[seat].open_timeouts >= limit:
            tape.emit(MatchEnded("win", 1 - seat, "timeout"))
            return
        _end_turn(tape, seat)
    elif awaiting.kind == "response":
        _pass(tape, seat)
    else:
        assert awaiting.count is not None
        hand = tape.state.players[seat].hand
        discard(tape, seat, hand[len(hand) - awaiting.count :])


# --- the contract functions -----------------------------------------------------------------------------------


def decide_folded(state: State, actor: Actor, cmd: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events for ``cmd`` from ``actor``, or ``Rejected`` with the spec's code (voidlink uses no RNG here)."""
    kind, decide = _DECIDERS[type(cmd)]
    precheck(state, actor, kind)
    tape = new_tape(state)
    decide(tape, actor, cmd, rng)
    return tape.events, tape.state


# Each command's check and emission, found by one lookup on the exact type: a match statement paid an
# isinstance call on a msgspec class for every case it tried first.


def _decide_normal_summon(tape: Tape, actor: Actor, cmd: NormalSummon, rng: Rng) -> None:
    seat = seat_of(actor)
    check_normal_summon(tape.state, seat, cmd)
    summon(tape, seat, cmd.card, "hand", cmd.form, "normal")


def _decide_tribute_summon(tape: Tape, actor: Actor, cmd: TributeSummon, rng: Rng) -> None:
    seat = seat_of(actor)
    check_tribute_summon(tape.state, seat, cmd)
    _to_graveyard(tape, seat, cmd.tributes, "tribute")
    summon(tape, seat, cmd.card, "hand", cmd.form, "tribute")


def _decide_myth_summon(tape: Tape, actor: Actor, cmd: MythSummon, rng: Rng) -> None:
    seat = seat_of(actor)
    check_myth_summon(tape.state, seat, cmd)
    _to_graveyard(tape, seat, cmd.materials, "material")
    summon(tape, seat, cmd.card, "extra", cmd.form, "myth")


def _decide_set_magic(tape: Tape, actor: Actor, cmd: SetMagic, rng: Rng) -> None:
    seat = seat_of(actor)
    zone = check_set_magic(tape.state, seat, cmd)
    tape.emit(MagicSet(seat, cmd.card, tape.state.card_ids[cmd.card], zone))
    await_open(tape)


def _decide_activate_magic(tape: Tape, actor: Actor, cmd: ActivateMagic, rng: Rng) -> None:
    seat = seat_of(actor)
    from_hand, zone = check_activate_magic(tape.state, seat, cmd)
    add_link(tape, seat, cmd.card, "hand" if from_hand else "set", zone, cmd.targets, cmd.form)


def _decide_activate_tactics(tape: Tape, actor: Actor, cmd: ActivateTactics, rng: Rng) -> None:
    seat = seat_of(actor)
    check_activate_tactics(tape.state, seat, cmd)
    add_link(tape, seat, cmd.card, "tactics", None, cmd.targets, cmd.form)


def _decide_activate_commander(tape: Tape, actor: Actor, cmd: ActivateCommander, rng: Rng) -> None:
    seat = seat_of(actor)
    card = check_activate_commander(tape.state, seat, cmd)
    add_link(tape, seat, card, "commander", None, cmd.targets, None)


def _decide_activate_monster_effect(tape: Tape, actor: Actor, cmd: ActivateMonsterEffect, rng: Rng) -> None:
    seat = seat_of(actor)
    system = check_activate_monster_effect(tape.state, seat, cmd)
    add_link(tape, seat, cmd.card, "monster", None, cmd.targets, None, cmd.effect, system)


def _decide_activate_combination(tape: Tape, actor: Actor, cmd: ActivateCombination, rng: Rng) -> None:
    seat = seat_of(actor)
    zone = check_activate_combination(tape.state, seat, cmd)
    _to_graveyard(tape, seat, cmd.materials, "material")
    add_link(tape, seat, cmd.card, "extra", zone, cmd.targets, None)


def _decide_change_form(tape: Tape, actor: Actor, cmd: ChangeForm, rng: Rng) -> None:
    seat = seat_of(actor)
    monster = check_change_form(tape.state, seat, cmd)
    tape.emit(FormChanged(cmd.card, monster.form, cmd.form, "command"))
    await_open(tape)


def _decide_go_to_battle(tape: Tape, actor: Actor, cmd: GoToBattle, rng: Rng) -> None:
    seat = seat_of(actor)
    check_go_to_battle(tape.state, seat, cmd)
    tape.emit(PhaseEndRequested(seat, "battle"))
    window(tape, 1 - seat, "phase_end")


def _decide_declare_attack(tape: Tape, actor: Actor, cmd: DeclareAttack, rng: Rng) -> None:
    seat = seat_of(actor)
    attacker = check_declare_attack(tape.state, seat, cmd)
    tape.emit(AttackDeclared(cmd.attacker, cmd.target, system_of(attacker.form), 1 - seat))
    window(tape, 1 - seat, "attack")


def _decide_end_turn(tape: Tape, actor: Actor, cmd: EndTurn, rng: Rng) -> None:
    seat = seat_of(actor)
    check_end_turn(tape.state, seat, cmd)
    _end_turn(tape, seat)


def _decide_pass(tape: Tape, actor: Actor, cmd: Pass, rng: Rng) -> None:
    seat = seat_of(actor)
    check_pass(tape.state, seat, cmd)
    _pass(tape, seat)


def _decide_discard(tape: Tape, actor: Actor, cmd: Discard, rng: Rng) -> None:
    seat = seat_of(actor)
    check_discard(tape.state, seat, cmd)
    discard(tape, seat, cmd.cards)


def _decide_concede(tape: Tape, actor: Actor, cmd: Concede, rng: Rng) -> None:
    seat = check_concede(tape.state, actor, cmd)
    tape.emit(Conceded(seat))
    tape.emit(MatchEnded("win", 1 - seat, "concede"))


_DECIDERS: dict[type, tuple[str, Decider[State, Event]]] = deciders(
    Command,
    (
        (NormalSummon, _decide_normal_summon),
        (TributeSummon, _decide_tribute_summon),
        (MythSummon, _decide_myth_summon),
        (SetMagic, _decide_set_magic),
        (ActivateMagic, _decide_activate_magic),
        (ActivateTactics, _decide_activate_tactics),
        (ActivateCommander, _decide_activate_commander),
        (ActivateMonsterEffect, _decide_activate_monster_effect),
        (ActivateCombination, _decide_activate_combination),
        (ChangeForm, _decide_change_form),
        (GoToBattle, _decide_go_to_battle),
        (DeclareAttack, _decide_declare_attack),
        (EndTurn, _decide_end_turn),
        (Pass, _decide_pass),
        (Discard, _decide_discard),
        (Concede, _decide_concede),
        (Timeout, _timeout),
    ),
)
"""Each command type's tag (for ``precheck``) and the function that checks and emits it."""


# --- canonical candidates (§7.2 legal_commands) ------------------------------------------------------------------


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


_DECISION_FAMILIES = {key: tuple([f for f in FAMILIES if f.tag in allowed]) for key, allowed in _ALLOWED.items()}
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


def to_act(state: State) -> tuple[int, ...]:
    """The awaited seat; nobody once the match is over."""
    awaiting = state.awaiting
    return (awaiting.seat,) if awaiting is not None and state.result is None else ()


def deadline(state: State) -> Deadline | None:
    """§9: every decision runs for its ``timer_s``; expiry submits ``timeout{seat, seq}``."""
    awaiting = state.awaiting
    if awaiting is None or state.result is not None:
        return None
    return Deadline(seat=awaiting.seat, seconds=float(awaiting.timer_s), timeout=Timeout(awaiting.seat, awaiting.seq))


def outcome(state: State) -> Outcome | None:
    """§10: None while the match runs."""
    result = state.result
    return None if result is None else Outcome.two_seat(result.winner, result.reason)
