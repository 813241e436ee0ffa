"""What each viewer may see in voidlink (docs/rulesets/voidlink.md §11).

``view`` builds every field explicitly (opt-in); ``redact`` names every event type. Decks are counts for everyone;
hands, extra decks, tactics areas and face-down magic are cards for their owner and counts (or an occupied slot)
for everyone else; a hand card chosen as a target is hidden from the other seat (D33).
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.voidlink.checks import effect_of, face_of
from engine.rulesets.voidlink.data import System
from engine.rulesets.voidlink.model import (
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
    Event,
    FirstPlayerChosen,
    FormChanged,
    Link,
    LinkNegated,
    LinkResolved,
    LinkView,
    MagicSet,
    MagicView,
    MatchEnded,
    MatchStarted,
    ModifiersExpired,
    Monster,
    MonsterSummoned,
    MonsterView,
    Passed,
    PhaseChanged,
    PhaseEndRequested,
    PlayerView,
    PoolChanged,
    SentToGraveyard,
    SpecialVictory,
    State,
    StatModified,
    TimedOut,
    TurnEnded,
    TurnStarted,
    View,
)


def view(state: State, viewer: Viewer) -> View:
    """The match as ``viewer`` (a seat, or None for a spectator) may see it."""
    return View(
        viewer=viewer,
        turn=state.turn,
        turn_seat=state.turn_seat,
        first_seat=state.first_seat,
        phase=state.phase,
        awaiting=state.awaiting,
        chain=tuple([_link_view(link, viewer) for link in state.chain]),
        attack=state.attack,
        pending_phase_end=state.pending_phase_end,
        delayed=state.delayed,
        hand_limit=state.options.hand_limit,
        result=state.result,
        players=(_player_view(state, 0, viewer), _player_view(state, 1, viewer)),
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
    return MonsterView(
        zone=zone,
        card=m.card,
        card_id=m.card_id,
        form=m.form,
        atk=max(0, printed + sum(m.modifiers)),
        def_=defence,
        entry=m.entry,
        summoned_turn=m.summoned_turn,
        form_changed=m.form_changed,
        attacked=m.attacked,
        lock=m.lock,
        effects_used=m.effects_used,
        modifiers=m.modifiers,
        counters=m.counters,
    )


def _player_view(state: State, seat: int, viewer: Viewer) -> PlayerView:
    player = state.players[seat]
    owner = viewer == seat
    return PlayerView(
        seat=seat,
        hp=player.hp,
        lp=player.lp,
        decked_out=player.decked_out,
        normal_summons_used=player.normal_summons_used,
        commander_used=player.commander_used,
        combination_used=player.combination_used,
        open_timeouts=player.open_timeouts,
        commander=None if player.commander is None else CardRef(player.commander, state.card_ids[player.commander]),
        deck_count=len(player.deck),
        hand_count=len(player.hand),
        hand=_refs(state, player.hand) if owner else None,
        extra_count=len(player.extra),
        extra=_refs(state, player.extra) if owner else None,
        tactics_count=len(player.tactics),
        tactics=_refs(state, player.tactics) if owner else None,
        graveyard=_refs(state, player.graveyard),
        monsters=tuple([_monster_view(zone, m) for zone, m in enumerate(player.monsters) if m is not None]),
        magic=tuple(
            [
                MagicView(zone, s.face_down, s.card, s.card_id, s.set_turn)
                if owner or not s.face_down
                else MagicView(zone, True, None, None, None)
                for zone, s in enumerate(player.magic)
                if s is not None
            ]
        ),
    )


def _link_view(link: Link, viewer: Viewer) -> LinkView:
    return LinkView(
        link=link.link,
        seat=link.seat,
        card=link.card,
        card_id=link.card_id,
        source=link.source,
        zone=link.zone,
        effect=link.effect,
        system=link.system,
        targets=_visible_targets(link.card_id, link.source, link.effect, link.system, link.seat, link.targets, viewer),
        form=link.form,
        origin=link.origin,
        negated=link.negated,
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
