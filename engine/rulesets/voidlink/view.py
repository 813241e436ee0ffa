"""What each viewer may see in voidlink (docs/rulesets/voidlink.md §11).

``view`` builds every field explicitly (opt-in); ``redact`` names every event type. Decks are counts for everyone;
hands, extra decks, tactics areas and face-down magic are cards for their owner and counts (or an occupied slot)
for everyone else; a hand card chosen as a target is hidden from the other seat (D33).
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.voidlink.board import face_of
from engine.rulesets.voidlink.data import System
from engine.rulesets.voidlink.model import Event, State, View
from engine.rulesets.voidlink.model.events import (
    AttackDeclared,
    AttackEnded,
    AttackNegated,
    AwaitingDecision,
    BattleCalculated,
    CardDestroyed,
    CardRef,
    CardsDrawn,
    ChainLinkAdded,
    ChainResolved,
    Conceded,
    CounterAdded,
    DeckShuffled,
    DelayedEffectRegistered,
    DelayedEffectResolved,
    DestructionPrevented,
    DrawFailed,
    DrawSkipped,
    EffectTriggered,
    FirstPlayerChosen,
    FormChanged,
    LinkNegated,
    LinkResolved,
    MagicSet,
    MatchEnded,
    MatchStarted,
    ModifiersExpired,
    MonsterSummoned,
    Passed,
    PhaseChanged,
    PhaseEndRequested,
    PoolChanged,
    SentToGraveyard,
    SpecialVictory,
    StatModified,
    TimedOut,
    TurnEnded,
    TurnStarted,
)
from engine.rulesets.voidlink.model.state import Link, Monster, Player
from engine.rulesets.voidlink.model.views import LinkView, MagicView, MonsterView, PlayerView
from engine.rulesets.voidlink.targets import effect_of


def view(state: State, viewer: Viewer) -> View:
    """The match as ``viewer`` (a seat, or None for a spectator) may see it."""
    return View(  # positional, in field order: keywords cost several times more here
        viewer,
        state.turn,
        state.turn_seat,
        state.first_seat,
        state.phase,
        state.awaiting,
        tuple([_link_view(link, viewer) for link in state.chain]),
        state.attack,
        state.pending_phase_end,
        state.delayed,
        state.options.hand_limit,
        state.result,
        (_player_view(state, 0, viewer), _player_view(state, 1, viewer)),
    )


def _refs(state: State, cards: tuple[str, ...]) -> tuple[CardRef, ...]:
    refs = _ref_index(state.card_ids)
    return tuple([refs[card] for card in cards])


_last: list[tuple[dict[str, str], dict[str, CardRef]]] = []


def _ref_index(card_ids: dict[str, str]) -> dict[str, CardRef]:
    """One ``CardRef`` per instance, built once per match: ``card_ids`` never changes after ``MatchStarted``
    (a new dict replaces it), and the cache holds the dict, so its identity cannot be reused while cached."""
    if _last and _last[0][0] is card_ids:
        return _last[0][1]
    refs = {card: CardRef(card, card_id) for card, card_id in card_ids.items()}
    _last[:] = [(card_ids, refs)]
    return refs


def _monster_view(zone: int, m: Monster) -> MonsterView:
    printed, defence, _ = face_of(m)
    return MonsterView(  # positional, in field order: keywords cost several times more here
        zone,
        m.card,
        m.card_id,
        m.form,
        max(0, printed + sum(m.modifiers)),
        defence,
        m.entry,
        m.summoned_turn,
        m.form_changed,
        m.attacked,
        m.lock,
        m.effects_used,
        m.modifiers,
        m.counters,
    )


_seen: dict[tuple[int, bool], tuple[Player, dict[str, str], PlayerView]] = {}
"""The last view of each (seat, owner or not): a player's view depends on that ``Player`` and ``card_ids`` alone,
and an unchanged seat keeps its ``Player`` object from state to state. Each entry holds both objects, so their
identities cannot be reused while cached."""


def _player_view(state: State, seat: int, viewer: Viewer) -> PlayerView:
    player = state.players[seat]
    owner = viewer == seat
    seen = _seen.get((seat, owner))
    if seen is not None and seen[0] is player and seen[1] is state.card_ids:
        return seen[2]
    built = _build_player_view(state, seat, player, owner)
    _seen[seat, owner] = (player, state.card_ids, built)
    return built


def _build_player_view(state: State, seat: int, player: Player, owner: bool) -> PlayerView:
    return PlayerView(  # positional, in field order: keywords cost several times more here
        seat,
        player.hp,
        player.lp,
        player.decked_out,
        player.normal_summons_used,
        player.commander_used,
        player.combination_used,
        player.open_timeouts,
        None if player.commander is None else CardRef(player.commander, state.card_ids[player.commander]),
        len(player.deck),
        len(player.hand),
        _refs(state, player.hand) if owner else None,
        len(player.extra),
        _refs(state, player.extra) if owner else None,
        len(player.tactics),
        _refs(state, player.tactics) if owner else None,
        _refs(state, player.graveyard),
        _monster_views(seat, player.monsters),
        tuple(
            [
                MagicView(zone, s.face_down, s.card, s.card_id, s.set_turn)
                if owner or not s.face_down
                else MagicView(zone, True, None, None, None)
                for zone, s in enumerate(player.magic)
                if s is not None
            ]
        ),
    )


_zones_seen: dict[int, tuple[tuple[Monster | None, ...], tuple[MonsterView, ...]]] = {}
"""The last monster views of each seat: a seat's monster zones often outlive a change to its other fields."""


def _monster_views(seat: int, zones: tuple[Monster | None, ...]) -> tuple[MonsterView, ...]:
    seen = _zones_seen.get(seat)
    if seen is not None and seen[0] is zones:
        return seen[1]
    built = tuple([_zone_view(seat, zone, m) for zone, m in enumerate(zones) if m is not None])
    _zones_seen[seat] = (zones, built)
    return built


_monsters_seen: dict[tuple[int, int], tuple[Monster, MonsterView]] = {}
"""The last view of each (seat, zone): a monster keeps its object until it changes."""


def _zone_view(seat: int, zone: int, monster: Monster) -> MonsterView:
    seen = _monsters_seen.get((seat, zone))
    if seen is not None and seen[0] is monster:
        return seen[1]
    built = _monster_view(zone, monster)
    _monsters_seen[seat, zone] = (monster, built)
    return built


def _link_view(link: Link, viewer: Viewer) -> LinkView:
    return LinkView(  # positional, in field order: keywords cost several times more here
        link.link,
        link.seat,
        link.card,
        link.card_id,
        link.source,
        link.zone,
        link.effect,
        link.system,
        _visible_targets(link.card_id, link.source, link.effect, link.system, link.seat, link.targets, viewer),
        link.form,
        link.origin,
        link.negated,
    )


def _visible_targets(
    card_id: str,
    source: str,
    effect: int | None,
    system: System | None,
    seat: int,
    targets: tuple[str | None, ...],
    viewer: Viewer,
) -> tuple[str | None, ...]:
    """D33: a target chosen in the activator's hand is null for every other viewer."""
    if viewer == seat or not targets:
        return targets
    specs = effect_of(card_id, source, effect, system).targets
    return tuple([None if spec.zone == "own_hand" else t for spec, t in zip(specs, targets, strict=True)])


def redact(event: Event, viewer: Viewer) -> Event:
    """``event`` as ``viewer`` may see it (§11)."""
    match event:
        case DeckShuffled():
            return replace(event, order=None)
        case CardsDrawn(seat=seat):
            return event if viewer == seat else replace(event, cards=None)
        case MagicSet(seat=seat):
            return event if viewer == seat else replace(event, card=None, card_id=None)
        case MatchStarted(players=players):
            return replace(
                event,
                players=tuple(
                    [p if p.seat == viewer else replace(p, main=None, extra=None, tactics=None) for p in players]
                ),
            )
        case ChainLinkAdded():
            targets = _visible_targets(
                event.card_id, event.source, event.effect, event.system, event.seat, event.targets, viewer
            )
            return event if targets == event.targets else replace(event, targets=targets)
        case (
            FirstPlayerChosen()
            | DrawSkipped()
            | DrawFailed()
            | TurnStarted()
            | PhaseChanged()
            | AwaitingDecision()
            | PhaseEndRequested()
            | MonsterSummoned()
            | EffectTriggered()
            | SentToGraveyard()
            | Passed()
            | LinkNegated()
            | LinkResolved()
            | ChainResolved()
            | StatModified()
            | FormChanged()
            | PoolChanged()
            | CardDestroyed()
            | DestructionPrevented()
            | CounterAdded()
            | DelayedEffectRegistered()
            | DelayedEffectResolved()
            | AttackDeclared()
            | AttackNegated()
            | BattleCalculated()
            | AttackEnded()
            | ModifiersExpired()
            | TurnEnded()
            | TimedOut()
            | Conceded()
            | SpecialVictory()
            | MatchEnded()
        ):
            return event
        case _:
            assert_never(event)


def hidden_cards(state: State, viewer: Viewer) -> list[str]:
    """Instance ids ``viewer`` may not identify: the other seats' decks, hands, extra decks, tactics and set magic.

    A seat knows its own deck list (``MatchStarted``), so its own deck ids are not secret to it; their order is,
    and no event or view shows it.
    """
    hidden: list[str] = []
    for seat, player in enumerate(state.players):
        if seat == viewer:
            continue
        hidden.extend(player.deck)
        hidden.extend(player.hand)
        hidden.extend(player.extra)
        hidden.extend(player.tactics)
        hidden.extend(s.card for s in player.magic if s is not None and s.face_down)
    return hidden
