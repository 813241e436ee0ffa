"""The command preconditions of voidlink (docs/rulesets/voidlink.md §7.2), and the responder test of WINDOW (§8.5).

Each ``check_<command>(state, seat, cmd)`` raises ``Rejected`` in the spec's precondition order and returns what
emission needs; ``decide`` and ``legal_commands`` run the same checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from msgspec.structs import replace

from engine.contract import Actor
from engine.errors import Rejected
from engine.rulesets.voidlink.board import (
    cards_of,
    empty_zone,
    face_of,
    field_index,
    find,
    in_attack,
    monsters,
    system_of,
)
from engine.rulesets.voidlink.codes import Code
from engine.rulesets.voidlink.data import (
    CATALOG,
    FORMS,
    Card,
    CombinationCard,
    CommanderCard,
    Effect,
    Form,
    MagicCard,
    MonsterCard,
    MythCard,
    System,
    TacticsCard,
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
from engine.rulesets.voidlink.model.state import Awaiting, MagicSlot, Monster, Window
from engine.rulesets.voidlink.targets import check_effect, check_materials, form_choices, holds, target_lists


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
    field = field_index(state.players)
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
    check_materials(state, seat, entry.materials, cmd.materials, from_hand=False)
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
    check_materials(state, seat, entry.materials, cmd.materials, from_hand=True)
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
