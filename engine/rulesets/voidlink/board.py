"""Values derived from a voidlink board (docs/rulesets/voidlink.md §8.1): a monster's face in its form, its
attack and defence, where a card is, the catalog entry of an instance."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.rulesets.voidlink.data import (
    CATALOG,
    FORMS,
    Card,
    Effect,
    Form,
    MonsterCard,
    MythCard,
    System,
)
from engine.rulesets.voidlink.model import State
from engine.rulesets.voidlink.model.state import Monster, Player

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
    return field_index(state.players).get(card)


_last: list[tuple[tuple[Player, ...], dict[str, tuple[int, int, Monster]]]] = []


def field_index(players: tuple[Player, ...]) -> dict[str, tuple[int, int, Monster]]:
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
