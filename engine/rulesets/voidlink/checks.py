"""Derived values, filters, conditions and targets (docs/rulesets/voidlink.md §8.1, §8.8, §13.1), and the
command preconditions of §7.2 built on them.

Each ``check_<command>(state, seat, cmd)`` raises ``Rejected`` in the spec's precondition order and returns what
emission needs; ``decide`` and ``legal_commands`` run the same checks. Resolution (resolve.py) reuses the target
rules, and ``has_response`` is the responder test of WINDOW (§8.5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from msgspec.structs import replace

from engine.contract import Actor
from engine.errors import Rejected
from engine.rulesets.voidlink.codes import Code
from engine.rulesets.voidlink.data import (
    CATALOG,
    FORMS,
    Card,
    CombinationCard,
    CommanderCard,
    Condition,
    Effect,
    Filter,
    Form,
    MagicCard,
    MonsterCard,
    MythCard,
    System,
    TacticsCard,
    TargetSpec,
)
from engine.rulesets.voidlink.model import State
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
from engine.rulesets.voidlink.model.state import Awaiting, Link, MagicSlot, Monster, Player, Window

# --- §8.1 derived values ---------------------------------------------------------------------------------


_SYSTEM_OF: dict[Form, System] = {form: "void" if form.startswith("void") else "reality" for form in FORMS}
_IN_ATTACK: dict[Form, bool] = {form: form.endswith("attack") for form in FORMS}

system_of: Callable[[Form], System] = _SYSTEM_OF.__getitem__
"""The system a form shows (a lookup: it runs for every monster a candidate or check looks at)."""
in_attack: Callable[[Form], bool] = _IN_ATTACK.__getitem__


def flipped(form: Form) -> Form:
    """The same position in the other system (``flip_system``)."""
    table: dict[str, Form] = {
        "void_attack": "reality_attack",
        "void_defence": "reality_defence",
        "reality_attack": "void_attack",
        "reality_defence": "void_defence",
    }
    return table[form]


def face_of(monster: Monster) -> tuple[int, int, tuple[Effect, ...]]:
    """(printed ATK, DEF, effects) of the monster's current face (§8.1.2, D5)."""
    return _FACES[monster.card_id, monster.form]


def _face(entry: Card, form: Form) -> tuple[int, int, tuple[Effect, ...]]:
    if isinstance(entry, MythCard):
        return entry.atk, entry.def_, entry.effects
    assert isinstance(entry, MonsterCard)
    face = entry.faces.void if form.startswith("void") else entry.faces.reality
    return face.atk, face.def_, face.effects


_FACES = {
    (card_id, form): _face(entry, form)
    for card_id, entry in CATALOG.items()
    if isinstance(entry, MonsterCard | MythCard)
    for form in FORMS
}


def atk(monster: Monster) -> int:
    return max(0, face_of(monster)[0] + sum(monster.modifiers))


def def_of(monster: Monster) -> int:
    return face_of(monster)[1]


def find(state: State, card: str) -> tuple[int, int, Monster] | None:
    """(seat, zone, monster) of ``card`` on the field, or None."""
    return _field_index(state.players).get(card)


_last: list[tuple[tuple[Player, ...], dict[str, tuple[int, int, Monster]]]] = []


def _field_index(players: tuple[Player, ...]) -> dict[str, tuple[int, int, Monster]]:
    """Every field monster by card, for the last players tuple asked about (states are immutable, and the
    cache holds the tuple, so its identity cannot be reused while cached)."""
    if _last and _last[0][0] is players:
        return _last[0][1]
    index = {
        m.card: (seat, zone, m)
        for seat, player in enumerate(players)
        for zone, m in enumerate(player.monsters)
        if m is not None
    }
    _last[:] = [(players, index)]
    return index


def on_field(state: State, card: str, entry: int | None) -> Monster | None:
    """The monster if ``card`` is on the field with the same ``entry`` (§8.8), else None."""
    found = find(state, card)
    if found is None or found[2].entry != entry:
        return None
    return found[2]


def monsters(state: State, seat: int) -> list[Monster]:
    return [m for m in state.players[seat].monsters if m is not None]


def empty_zone(zones: Sequence[object | None]) -> int | None:
    """D15: the lowest empty slot."""
    for i, slot in enumerate(zones):
        if slot is None:
            return i
    return None


def catalog(state: State, card: str) -> Card:
    return cards_of(state)[card]


_cards: list[tuple[dict[str, str], dict[str, Card]]] = []


def cards_of(state: State) -> dict[str, Card]:
    """Every instance's catalog entry. ``card_ids`` is never changed in place (``MatchStarted`` sets a new dict),
    so its identity keys the cache, which holds it so that the identity cannot be reused."""
    card_ids = state.card_ids
    if _cards and _cards[0][0] is card_ids:
        return _cards[0][1]
    cards = {card: CATALOG[card_id] for card, card_id in card_ids.items()}
    _cards[:] = [(card_ids, cards)]
    return cards


# --- §8.8 filters, conditions and targets ------------------------------------------------------------------


def matches(state: State, card: str, spec: Filter, field_monster: Monster | None) -> bool:
    """Filter match; ``field_monster`` is the card's monster state when it is on the field."""
    if spec.system is not None and (field_monster is None or system_of(field_monster.form) != spec.system):
        return False
    return state.card_ids[card] in printed(spec)


_printed: dict[int, tuple[Filter, frozenset[str]]] = {}


def printed(spec: Filter) -> frozenset[str]:
    """The catalog ids whose printed card (type, level, name) fits ``spec``, computed once per filter: keyed by
    the filter's identity, the entry holding the filter so that its identity cannot be reused."""
    found = _printed.get(id(spec))
    if found is None:
        found = _printed[id(spec)] = (
            spec,
            frozenset([i for i, entry in CATALOG.items() if _printed_match(entry, spec)]),
        )
    return found[1]


def _printed_match(entry: Card, spec: Filter) -> bool:
    kind = spec.type
    if kind == "monster" and not isinstance(entry, MonsterCard):
        return False
    if kind == "myth_monster" and not isinstance(entry, MythCard):
        return False
    if kind == "any_monster" and not isinstance(entry, MonsterCard | MythCard):
        return False
    if spec.level_max is not None and not (isinstance(entry, MonsterCard) and entry.level <= spec.level_max):
        return False
    return spec.name is None or entry.name == spec.name


def holds(state: State, seat: int, condition: Condition | None) -> bool:
    """§13.1 conditions, checked at activation only (D25)."""
    if condition is None:
        return True
    if condition == "defending_attack":
        return state.attack is not None and state.attack.defender == seat
    if condition == "responding_to_link":
        awaiting = state.awaiting
        return (
            awaiting is not None
            and awaiting.kind == "response"
            and awaiting.window == "chain"
            and bool(state.chain)
            and state.chain[-1].seat != seat
        )
    if condition == "control_no_monsters":
        return not monsters(state, seat)
    if condition == "opponent_controls_more_monsters":
        return len(monsters(state, 1 - seat)) > len(monsters(state, seat))
    player = state.players[seat]
    limit = condition.hp_or_lp_at_most
    return player.hp <= limit or player.lp <= limit


def target_ok(
    state: State, seat: int, spec: TargetSpec, card: str, source_system: System | None, gone: frozenset[str]
) -> bool:
    """A valid target at activation for ``spec`` (§8.8); ``gone`` = materials already paid (judged as graveyard)."""
    player = state.players[seat]
    if spec.zone == "field":
        if card in gone:
            return False
        found = _field_index(state.players).get(card)
        if found is None:
            return False
        owner, _, monster = found
        if (spec.controller == "self" and owner != seat) or (spec.controller == "opponent" and owner == seat):
            return False
        system = _SYSTEM_OF[monster.form]
        if source_system is not None and system != source_system:
            return False
        flt = spec.filter
        return (flt.system is None or system == flt.system) and monster.card_id in printed(flt)  # ``matches``
    if spec.zone == "own_hand":
        return card in player.hand and card not in gone and matches(state, card, spec.filter, None)
    return (card in player.graveyard or card in gone) and matches(state, card, spec.filter, None)


def still_valid(
    state: State, link_seat: int, spec: TargetSpec, card: str, entry: int | None, system: System | None
) -> bool:
    """A target at resolution (§8.8): field targets by their recorded entry, others still in their zone."""
    if spec.zone == "field":
        found = find(state, card)
        if found is None or found[2].entry != entry:
            return False
    return target_ok(state, link_seat, spec, card, system, frozenset())


def target_candidates(state: State, seat: int, spec: TargetSpec, gone: Sequence[str] = ()) -> list[str]:
    """Canonical candidates for one target spec that match its filter: own zones 0..5 then the opponent's;
    hand or graveyard order (D36)."""
    player = state.players[seat]
    flt = spec.filter
    fits = printed(flt)
    system = flt.system
    if spec.zone == "field":
        seats = _SEATS[spec.controller][seat]
        return [
            m.card
            for s in seats
            for m in state.players[s].monsters
            if m is not None and m.card_id in fits and (system is None or system_of(m.form) == system)
        ]
    if system is not None:
        return []  # a system filter needs a field monster (``matches``)
    card_ids = state.card_ids
    if spec.zone == "own_hand":
        return [c for c in player.hand if card_ids[c] in fits]
    cards = [*player.graveyard, *(c for c in gone if c not in player.graveyard)]
    return [c for c in cards if card_ids[c] in fits]


_SEATS = {"self": ((0,), (1,)), "opponent": ((1,), (0,)), "any": ((0, 1), (1, 0))}
"""Field target seats by controller and activating seat: own zones first."""


def target_lists(state: State, seat: int, effect: Effect, gone: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """Every distinct assignment of candidates to the effect's target specs, in spec order."""
    lists: list[tuple[str, ...]] = [()]
    for spec in effect.targets:
        pool = target_candidates(state, seat, spec, gone)
        lists = [(*chosen, card) for chosen in lists for card in pool if card not in chosen]
    return lists


def form_choices(effect: Effect) -> tuple[Form | None, ...]:
    return FORMS if effect.form_choice else (None,)


def check_effect(
    state: State,
    seat: int,
    effect: Effect,
    targets: Sequence[str],
    form: Form | None,
    source_system: System | None = None,
    gone: frozenset[str] = frozenset(),
    with_form: bool = True,
) -> None:
    """Condition, target count, targets, and (``with_form``) the form rule of an activation (§7.2)."""
    if effect.condition is not None and not holds(state, seat, effect.condition):
        raise Rejected(Code.CONDITION_NOT_MET, "the activation condition does not hold")
    specs = effect.targets
    if len(targets) != len(specs):
        raise Rejected(Code.TARGET_COUNT, f"this effect takes {len(specs)} target(s)")
    if specs and (
        len(set(targets)) != len(targets)
        or not all(
            target_ok(state, seat, spec, card, source_system, gone) for spec, card in zip(specs, targets, strict=True)
        )
    ):
        raise Rejected(Code.TARGET_INVALID, "a target is not valid")
    if with_form and effect.form_choice != (form is not None):
        check_form(effect, form)


def check_form(effect: Effect, form: Form | None) -> None:
    if effect.form_choice and form is None:
        raise Rejected(Code.FORM_REQUIRED, "this effect needs a form")
    if not effect.form_choice and form is not None:
        raise Rejected(Code.FORM_NOT_EXPECTED, "this effect takes no form")


def link_effect(link: Link) -> Effect:
    """The effect a chain link executes, by its source."""
    return effect_of(link.card_id, link.source, link.effect, link.system)


def effect_of(card_id: str, source: str, index: int | None, system: System | None) -> Effect:
    """The effect a link from ``source`` runs: a monster face's effect ``index``, else the card's one effect."""
    entry = CATALOG[card_id]
    if source == "monster":
        assert index is not None and isinstance(entry, MonsterCard | MythCard)
        if isinstance(entry, MythCard):
            return entry.effects[index]
        face = entry.faces.void if system == "void" else entry.faces.reality
        return face.effects[index]
    if isinstance(entry, CommanderCard):
        return entry.ability
    assert isinstance(entry, MagicCard | CombinationCard | TacticsCard)
    return entry.effect


def _materials(state: State, seat: int, slots: Sequence[Filter], materials: Sequence[str], from_hand: bool) -> None:
    if len(materials) != len(slots):
        raise Rejected(Code.MATERIAL_COUNT, f"this card needs {len(slots)} material(s)")
    if len(set(materials)) != len(materials):
        raise Rejected(Code.MATERIALS_INVALID, "a material does not fit its slot")
    field = _field_index(state.players)
    hand = state.players[seat].hand
    for card, spec in zip(materials, slots, strict=True):
        found = field.get(card)
        if found is not None and found[0] == seat:
            fits = spec.system is None or system_of(found[2].form) == spec.system
        else:  # ``matches`` off the field: a system filter never fits
            fits = from_hand and card in hand and spec.system is None
        if not fits or state.card_ids[card] not in printed(spec):
            raise Rejected(Code.MATERIALS_INVALID, "a material does not fit its slot")


# --- §7.2 command preconditions --------------------------------------------------------------------------


def _form(form: object, optional: bool = False) -> None:
    """G2 for a typed command built in process (decoding already enforces it for JSON)."""
    if not (form in FORMS or (optional and form is None)):
        raise Rejected(Code.BAD_FIELDS, f"{form!r} is not a form")


def _hand_card(state: State, seat: int, card: str) -> Card:
    if card not in state.players[seat].hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, f"{card} is not in your hand")
    return cards_of(state)[card]


def _own_monster(state: State, seat: int, card: str) -> Monster:
    found = find(state, card)
    if found is None or found[0] != seat:
        raise Rejected(Code.CARD_NOT_ON_FIELD, f"{card} is not your monster on the field")
    return found[2]


def check_normal_summon(state: State, seat: int, cmd: NormalSummon) -> MonsterCard:
    if cmd.form not in FORMS:
        _form(cmd.form)
    entry = _hand_card(state, seat, cmd.card)
    if not isinstance(entry, MonsterCard):
        raise Rejected(Code.NOT_A_MONSTER, f"{cmd.card} is not a monster")
    if entry.level > 4:
        raise Rejected(Code.LEVEL_TOO_HIGH, "a normal summon is for level 4 or less")
    player = state.players[seat]
    if player.normal_summons_used >= 2:
        raise Rejected(Code.NORMAL_SUMMON_LIMIT, "two normal summons per turn")
    if None not in player.monsters:
        raise Rejected(Code.MONSTER_ZONE_FULL, "every monster zone is taken")
    return entry


def check_tribute_summon(state: State, seat: int, cmd: TributeSummon) -> MonsterCard:
    if cmd.form not in FORMS:
        _form(cmd.form)
    entry = _hand_card(state, seat, cmd.card)
    if not isinstance(entry, MonsterCard):
        raise Rejected(Code.NOT_A_MONSTER, f"{cmd.card} is not a monster")
    if entry.level < 5:
        raise Rejected(Code.LEVEL_TOO_LOW, "a tribute summon is for level 5 or more (D14)")
    field = _field_index(state.players)
    placed = [field.get(t) for t in cmd.tributes]
    if (
        not cmd.tributes
        or len(set(cmd.tributes)) != len(cmd.tributes)
        or any(p is None or p[0] != seat for p in placed)
    ):
        raise Rejected(Code.TRIBUTE_INVALID, "tributes are distinct monsters in your zones")
    levels = []
    cards = cards_of(state)
    for t in cmd.tributes:
        tribute = cards[t]
        if not isinstance(tribute, MonsterCard):
            raise Rejected(Code.TRIBUTE_NO_LEVEL, f"{t} has no level")
        levels.append(tribute.level)
    order = [p[1] for p in placed if p is not None]
    if order != sorted(order):
        raise Rejected(Code.NOT_CANONICAL, "list tributes by ascending zone")
    if sum(levels) < entry.level:
        raise Rejected(Code.TRIBUTE_LEVEL_INSUFFICIENT, f"tribute levels {sum(levels)} < {entry.level}")
    return entry


def check_myth_summon(state: State, seat: int, cmd: MythSummon) -> MythCard:
    if cmd.form not in FORMS:
        _form(cmd.form)
    player = state.players[seat]
    entry = cards_of(state)[cmd.card] if cmd.card in player.extra else None
    if not isinstance(entry, MythCard):
        raise Rejected(Code.CARD_NOT_IN_EXTRA, f"{cmd.card} is not a myth monster in your extra deck")
    if system_of(cmd.form) != entry.system:
        raise Rejected(Code.MYTH_SYSTEM_FIXED, f"{entry.name} is fixed to {entry.system}")
    if any(m.card_id == entry.id for m in monsters(state, seat)):
        raise Rejected(Code.MYTH_NAME_ON_FIELD, f"you already control {entry.name}")
    _materials(state, seat, entry.materials, cmd.materials, from_hand=False)
    return entry


def check_set_magic(state: State, seat: int, cmd: SetMagic) -> int:
    if not isinstance(_hand_card(state, seat, cmd.card), MagicCard):
        raise Rejected(Code.NOT_A_MAGIC, f"{cmd.card} is not a magic card")
    zone = empty_zone(state.players[seat].magic)
    if zone is None:
        raise Rejected(Code.MAGIC_ZONE_FULL, "every magic zone is taken")
    return zone


def check_activate_magic(state: State, seat: int, cmd: ActivateMagic) -> tuple[bool, int]:
    """(from hand, magic zone)."""
    if cmd.form is not None and cmd.form not in FORMS:
        _form(cmd.form, optional=True)
    player = state.players[seat]
    cards = cards_of(state)
    from_hand = cmd.card in player.hand and isinstance(cards[cmd.card], MagicCard)
    if from_hand:
        awaiting = state.awaiting
        if awaiting is None or awaiting.kind != "open" or state.phase != "main":
            raise Rejected(Code.HAND_MAGIC_MAIN_PHASE_ONLY, "magic from the hand only in your Main phase")
        zone = empty_zone(player.magic)
        if zone is None:
            raise Rejected(Code.MAGIC_ZONE_FULL, "every magic zone is taken")
    else:
        zone = _set_zone(player.magic, cmd.card)
        if zone is None:
            raise Rejected(Code.CARD_NOT_AVAILABLE, f"{cmd.card} is not a magic card in your hand or set")
        slot = player.magic[zone]
        assert slot is not None and slot.set_turn is not None
        if slot.set_turn >= state.turn:
            raise Rejected(Code.SET_THIS_TURN, "a card set this turn cannot be activated")
    entry = cards[cmd.card]
    assert isinstance(entry, MagicCard)
    check_effect(state, seat, entry.effect, cmd.targets, cmd.form)
    return from_hand, zone


def _set_zone(slots: tuple[MagicSlot | None, ...], card: str) -> int | None:
    """The zone holding ``card`` face down, or None."""
    for i, slot in enumerate(slots):
        if slot is not None and slot.card == card and slot.face_down:
            return i
    return None


def check_activate_tactics(state: State, seat: int, cmd: ActivateTactics) -> None:
    if cmd.form is not None and cmd.form not in FORMS:
        _form(cmd.form, optional=True)
    if cmd.card not in state.players[seat].tactics:
        raise Rejected(Code.CARD_NOT_AVAILABLE, f"{cmd.card} is not in your tactics area")
    entry = cards_of(state)[cmd.card]
    assert isinstance(entry, TacticsCard)
    check_effect(state, seat, entry.effect, cmd.targets, cmd.form)


def check_activate_commander(state: State, seat: int, cmd: ActivateCommander) -> str:
    player = state.players[seat]
    if player.commander is None:
        raise Rejected(Code.NO_COMMANDER, "you have no commander")
    if player.commander_used:
        raise Rejected(Code.ABILITY_USED_THIS_TURN, "the ability was used this turn")
    entry = cards_of(state)[player.commander]
    assert isinstance(entry, CommanderCard)
    check_effect(state, seat, entry.ability, cmd.targets, None, with_form=False)
    return player.commander


def check_activate_monster_effect(state: State, seat: int, cmd: ActivateMonsterEffect) -> System:
    monster = _own_monster(state, seat, cmd.card)
    effects = face_of(monster)[2]
    if not 0 <= cmd.effect < len(effects) or effects[cmd.effect].kind != "activated":
        raise Rejected(Code.NO_SUCH_EFFECT, f"the current face has no activated effect {cmd.effect}")
    system = system_of(monster.form)
    if (system, cmd.effect) in monster.effects_used:
        raise Rejected(Code.EFFECT_USED_THIS_TURN, "that effect was used this turn")
    if monster.lock is not None and monster.lock != system:
        raise Rejected(Code.SYSTEM_LOCKED, f"this card used a {monster.lock} effect this turn (D5)")
    check_effect(state, seat, effects[cmd.effect], cmd.targets, None, source_system=system, with_form=False)
    return system


def check_activate_combination(state: State, seat: int, cmd: ActivateCombination) -> int:
    player = state.players[seat]
    entry = cards_of(state)[cmd.card] if cmd.card in player.extra else None
    if not isinstance(entry, CombinationCard):
        raise Rejected(Code.CARD_NOT_IN_EXTRA, f"{cmd.card} is not combination magic in your extra deck")
    if entry.id in player.combination_used:
        raise Rejected(Code.COMBINATION_USED_THIS_TURN, f"{entry.name} was used this turn (D22)")
    zone = empty_zone(player.magic)
    if zone is None:
        raise Rejected(Code.MAGIC_ZONE_FULL, "every magic zone is taken")
    _materials(state, seat, entry.materials, cmd.materials, from_hand=True)
    check_effect(state, seat, entry.effect, cmd.targets, None, gone=frozenset(cmd.materials), with_form=False)
    return zone


def check_change_form(state: State, seat: int, cmd: ChangeForm) -> Monster:
    if cmd.form not in FORMS:
        _form(cmd.form)
    monster = _own_monster(state, seat, cmd.card)
    if cmd.form == monster.form:
        raise Rejected(Code.FORM_UNCHANGED, "the monster already shows that form")
    if monster.summoned_turn == state.turn:
        raise Rejected(Code.SUMMONED_THIS_TURN, "not in the turn it was summoned (D4)")
    if monster.form_changed:
        raise Rejected(Code.FORM_ALREADY_CHANGED, "one form change per card per turn")
    entry = CATALOG[monster.card_id]
    if isinstance(entry, MythCard) and system_of(cmd.form) != entry.system:
        raise Rejected(Code.MYTH_SYSTEM_FIXED, f"{entry.name} is fixed to {entry.system}")
    return monster


def check_go_to_battle(state: State, seat: int, cmd: GoToBattle) -> None:
    if state.turn == 1:
        raise Rejected(Code.FIRST_TURN_NO_BATTLE, "the first turn has no Battle phase (D10)")


def check_declare_attack(state: State, seat: int, cmd: DeclareAttack) -> Monster:
    attacker = _own_monster(state, seat, cmd.attacker)
    if not in_attack(attacker.form):
        raise Rejected(Code.NOT_IN_ATTACK_POSITION, f"{cmd.attacker} is in defence position")
    if attacker.attacked:
        raise Rejected(Code.ALREADY_ATTACKED, f"{cmd.attacker} has attacked this turn")
    system = system_of(attacker.form)
    if cmd.target is not None:
        found = find(state, cmd.target)
        if found is None or found[0] == seat:
            raise Rejected(Code.TARGET_INVALID, f"{cmd.target} is not an opponent's monster")
        if system_of(found[2].form) != system:
            raise Rejected(Code.TARGET_SYSTEM_MISMATCH, "a monster battles only within its system")
    elif any(system_of(m.form) == system for m in monsters(state, 1 - seat)):
        raise Rejected(Code.DIRECT_ATTACK_BLOCKED, f"the opponent shows a {system} monster")
    return attacker


def check_end_turn(state: State, seat: int, cmd: EndTurn) -> None:
    """``end_turn`` has no preconditions beyond the generic ones."""


def check_pass(state: State, seat: int, cmd: Pass) -> None:
    """``pass`` has no preconditions beyond the generic ones."""


def check_discard(state: State, seat: int, cmd: Discard) -> None:
    awaiting = state.awaiting
    assert awaiting is not None
    if len(cmd.cards) != awaiting.count:
        raise Rejected(Code.DISCARD_COUNT, f"discard exactly {awaiting.count} card(s)")
    hand = state.players[seat].hand
    if len(set(cmd.cards)) != len(cmd.cards) or not all(c in hand for c in cmd.cards):
        raise Rejected(Code.CARD_NOT_IN_HAND, "discard distinct cards from your hand")
    order = [hand.index(c) for c in cmd.cards]
    if order != sorted(order):
        raise Rejected(Code.NOT_CANONICAL, "list discards by ascending hand index")


def check_concede(state: State, actor: Actor, cmd: Concede) -> int:
    """The conceding seat: precheck lets any actor concede, and only a seat can."""
    if actor != 0 and actor != 1:
        raise Rejected(Code.NOT_AWAITED_SEAT, "only a seat can concede")
    assert isinstance(actor, int)
    return actor


def check_timeout(state: State, actor: Actor, cmd: Timeout) -> Awaiting:
    awaiting = state.awaiting
    if awaiting is None or cmd.seat != awaiting.seat or cmd.seq != awaiting.seq:
        raise Rejected(Code.STALE_TIMEOUT, "that decision is no longer awaited")
    return awaiting


# --- canonical candidates of the two response families (§7.2 legal_commands) -------------------------------


def _effect_candidates(state: State, seat: int, effect: Effect) -> list[tuple[tuple[str, ...], Form | None]]:
    """(targets, form) pairs for one effect; none when its condition fails (the check's first step)."""
    if effect.condition is not None and not holds(state, seat, effect.condition):
        return []
    forms = form_choices(effect)
    return [(targets, form) for targets in target_lists(state, seat, effect) for form in forms]


def magic_candidates(state: State, seat: int) -> Iterator[ActivateMagic]:
    """Hand magic (hand order, in an open Main decision), then set magic of earlier turns (zone order)."""
    player = state.players[seat]
    awaiting = state.awaiting
    cards: list[str] = []
    if awaiting is not None and awaiting.kind == "open" and state.phase == "main":
        known = cards_of(state)
        cards = [c for c in player.hand if isinstance(known[c], MagicCard)]
    cards += [s.card for s in player.magic if s is not None and s.face_down and (s.set_turn or 0) < state.turn]
    known = cards_of(state)
    options: dict[str, list[tuple[tuple[str, ...], Form | None]]] = {}  # shared by copies of one card
    for card in cards:
        entry = known[card]
        assert isinstance(entry, MagicCard)
        found = options.get(entry.id)
        if found is None:
            found = options[entry.id] = _effect_candidates(state, seat, entry.effect)
        for targets, form in found:
            yield ActivateMagic(card, targets, form)


def tactics_candidates(state: State, seat: int) -> Iterator[ActivateTactics]:
    for card in state.players[seat].tactics:
        entry = cards_of(state)[card]
        assert isinstance(entry, TacticsCard)
        for targets, form in _effect_candidates(state, seat, entry.effect):
            yield ActivateTactics(card, targets, form)


def has_response(state: State, seat: int, window: Window) -> bool:
    """WINDOW step 1 (§8.5): would any activation be accepted from ``seat`` in a response window now?"""
    player = state.players[seat]
    if not player.tactics and not any(s is not None and s.face_down for s in player.magic):
        return False
    asked = replace(state, awaiting=Awaiting(seat, "response", window, None, state.seq, 0))
    cards = cards_of(state)
    for card in player.tactics:
        entry = cards[card]
        assert isinstance(entry, TacticsCard)
        if not entry.effect.targets and holds(asked, seat, entry.effect.condition):
            return True  # its candidates pass check_activate_tactics: the area holds it, no targets to judge
    for slot in player.magic:
        if slot is not None and slot.face_down and (slot.set_turn or 0) < state.turn:
            set_card = cards[slot.card]
            assert isinstance(set_card, MagicCard)
            if not set_card.effect.targets and holds(asked, seat, set_card.effect.condition):
                return True  # likewise for check_activate_magic: set on an earlier turn, no targets
    for magic in magic_candidates(asked, seat):
        if _accepted(check_activate_magic, asked, seat, magic):
            return True
    return any(_accepted(check_activate_tactics, asked, seat, t) for t in tactics_candidates(asked, seat))


def _accepted(check: Callable[[State, int, Any], object], state: State, seat: int, cmd: Any) -> bool:
    try:
        check(state, seat, cmd)
    except Rejected:
        return False
    return True
