"""What each viewer may see in card_monsters (card_monsters.md §11).

``view`` builds every field explicitly (opt-in); ``redact`` names every event type. Piles are counts for
everyone, hands are cards for their owner and counts for everyone else, the rest is public.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.card_monsters.data import (
    CATALOG,
    PROFILES,
    MonsterCard,
)
from engine.rulesets.card_monsters.model import (
    POSITIONS,
    AttackHit,
    CardDrawn,
    CardView,
    ConsumableUsed,
    CrystalsGained,
    EffectHit,
    EquipmentAttached,
    Event,
    FirstPlayerChosen,
    MatchEnded,
    Monster,
    MonsterDestroyed,
    MonsterHealed,
    MonsterMoved,
    MonsterPlayed,
    MonsterView,
    PileShuffled,
    Sacrificed,
    SideView,
    State,
    TurnEnded,
    TurnStarted,
    View,
)


def view(state: State, viewer: Viewer) -> View:
    """The match as ``viewer`` (a seat, or None for a spectator) may see it."""
    options = state.options
    return View(
        viewer=viewer,
        turn=state.turn,
        active=state.active,
        status=state.status,
        turn_seconds=options.turn_seconds,
        max_turns=options.max_turns,
        crystal_cap=options.crystal_cap,
        result=state.result,
        sides=(_side_view(state, 0, viewer), _side_view(state, 1, viewer)),
    )


def _side_view(state: State, seat: int, viewer: Viewer) -> SideView:
    side = state.sides[seat]
    is_owner = viewer == seat
    return SideView(
        seat=seat,
        deck=state.decks[seat],  # D31: deck lists are public
        crystals=side.crystals,
        sacrifice_used=side.sacrifice_used,
        losses=side.losses,
        monster_pile=len(side.monster_pile),
        item_pile=len(side.item_pile),
        hand_monster_count=len(side.hand_monsters),
        hand_item_count=len(side.hand_items),
        hand_monsters=_cards(state, side.hand_monsters) if is_owner else None,
        hand_items=_cards(state, side.hand_items) if is_owner else None,
        field=tuple([_monster_view(p, m) for p, m in zip(POSITIONS, side.field, strict=False) if m is not None]),
        discard=_cards(state, side.discard),
    )


def _cards(state: State, cards: tuple[str, ...]) -> tuple[CardView, ...]:
    card_ids = state.card_ids
    return tuple([CardView(card, card_ids[card]) for card in cards])


def _monster_view(position: int, monster: Monster) -> MonsterView:
    """A field monster with its live effective attacks and traits (§3.3)."""
    profile = PROFILES[monster.card_id, monster.equipment_id]
    entry = CATALOG[monster.card_id]
    assert isinstance(entry, MonsterCard)
    magic, ranged, melee, random = profile.values
    return MonsterView(
        position=position,
        card=monster.card,
        card_id=monster.card_id,
        colour=entry.colour,
        hp=monster.hp,
        max_hp=monster.max_hp,
        equipment=monster.equipment,
        equipment_id=monster.equipment_id,
        magic=magic,
        ranged=ranged,
        melee=melee,
        random=random,
        traits=profile.trait_names,
    )


def redact(event: Event, viewer: Viewer) -> Event:
    """``event`` as ``viewer`` may see it (§11): pile orders for nobody, drawn cards for the drawer only."""
    match event:
        case PileShuffled():
            return replace(event, order=None)
        case CardDrawn(seat=seat):
            return event if viewer == seat else replace(event, card=None, card_id=None)
        case (
            FirstPlayerChosen()
            | TurnStarted()
            | CrystalsGained()
            | MonsterPlayed()
            | EquipmentAttached()
            | ConsumableUsed()
            | MonsterHealed()
            | EffectHit()
            | Sacrificed()
            | TurnEnded()
            | AttackHit()
            | MonsterDestroyed()
            | MonsterMoved()
            | MatchEnded()
        ):
            return event
        case _:
            assert_never(event)


def hidden_cards(state: State, viewer: Viewer) -> list[str]:
    """Instance ids ``viewer`` may not identify: every pile card, and the hands of the other seats."""
    hidden: list[str] = []
    for seat, side in enumerate(state.sides):
        hidden.extend(side.monster_pile)
        hidden.extend(side.item_pile)
        if seat != viewer:
            hidden.extend(side.hand_monsters)
            hidden.extend(side.hand_items)
    return hidden
