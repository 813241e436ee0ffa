"""The fold of voidlink (docs/rulesets/voidlink.md §7.3): pure, no randomness, no checks.

Every event type has its own entry in the fold's table, checked at import, so no event goes unfolded by accident.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.dispatch import by_type
from engine.rulesets.voidlink.model import Event, State
from engine.rulesets.voidlink.model.events import (
    AttackDeclared,
    AttackEnded,
    AttackNegated,
    AwaitingDecision,
    BattleCalculated,
    CardDestroyed,
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
from engine.rulesets.voidlink.model.state import Attack, Awaiting, Delayed, Link, MagicSlot, Monster, Player, Result
from engine.tuples import drop, put


def evolve(state: State, event: Event) -> State:
    """The state after ``event``."""
    return _FOLDS[type(event)](state, event)


# One function per event type, found by one lookup on the exact type. A match statement tried its class
# patterns in turn, each miss an isinstance call on a msgspec class, and later events paid for earlier ones.


def _awaiting_decision(state: State, event: AwaitingDecision) -> State:
    kind, seq = event.kind, event.seq
    awaiting = Awaiting(event.seat, kind, event.window, event.count, seq, event.timer_s)
    if kind == "open":
        return replace(state, awaiting=awaiting, seq=seq, pending_phase_end=None)
    return replace(state, awaiting=awaiting, seq=seq)


def _phase_changed(state: State, event: PhaseChanged) -> State:
    return replace(state, phase=event.phase, pending_phase_end=None)


def _no_change(
    state: State,
    event: LinkResolved | Passed | BattleCalculated | DrawSkipped | DestructionPrevented | Conceded | SpecialVictory,
) -> State:
    return state


def _phase_end_requested(state: State, event: PhaseEndRequested) -> State:
    return replace(state, pending_phase_end=event.next)


def _chain_resolved(state: State, event: ChainResolved) -> State:
    return replace(state, chain=())


def _chain_link_added(state: State, event: ChainLinkAdded) -> State:
    seat = event.seat
    entries = tuple([_entry(state, t) if t is not None else None for t in event.targets])
    source_entry = _entry(state, event.card) if event.source == "monster" else None
    targets = tuple([t for t in event.targets if t is not None])
    assert len(targets) == len(event.targets), "the fold takes full events, never a viewer's redacted copy"
    link = Link(
        event.link,
        seat,
        event.card,
        event.card_id,
        event.source,
        event.zone,
        event.effect,
        event.system,
        targets,
        entries,
        source_entry,
        event.form,
        event.origin,
    )
    chain = (*state.chain, link)
    player = state.players[seat]
    source = event.source
    if source in ("hand", "extra"):
        assert event.zone is not None
        player = _leave(player, event.card, "hand" if source == "hand" else "extra")
        player = replace(player, magic=put(player.magic, event.zone, MagicSlot(event.card, event.card_id, False, None)))
        if source == "extra":
            player = replace(player, combination_used=(*player.combination_used, event.card_id))
    elif source == "set":
        assert event.zone is not None
        slot = player.magic[event.zone]
        assert slot is not None
        player = replace(player, magic=put(player.magic, event.zone, replace(slot, face_down=False)))
    elif source == "tactics":
        player = replace(player, tactics=drop(player.tactics, event.card))
        return _with(state, seat, player, chain=chain, on_chain=(*state.on_chain, event.card))
    elif source == "commander":
        player = replace(player, commander_used=True)
    else:
        system, index = event.system, event.effect
        assert system is not None and index is not None
        return _update_monster(
            replace(state, chain=chain),
            event.card,
            lambda m: replace(m, lock=system, effects_used=(*m.effects_used, (system, index))),
        )
    return _with(state, seat, player, chain=chain)


def _monster_summoned(state: State, event: MonsterSummoned) -> State:
    seat = event.seat
    player = _leave(state.players[seat], event.card, event.from_)
    monster = Monster(event.card, event.card_id, event.form, event.entry, state.turn)
    monsters = put(player.monsters, event.zone, monster)
    if event.method == "normal":
        player = replace(player, monsters=monsters, normal_summons_used=player.normal_summons_used + 1)
    else:
        player = replace(player, monsters=monsters)
    return _with(state, seat, player, entry_counter=event.entry)


def _sent_to_graveyard(state: State, event: SentToGraveyard) -> State:
    seat, cards = event.seat, event.cards
    player = state.players[seat]
    on_chain = state.on_chain
    for moved in cards:
        player = _leave(player, moved.card, moved.from_)
        if moved.from_ == "chain":
            on_chain = drop(on_chain, moved.card)
    player = replace(player, graveyard=(*player.graveyard, *[moved.card for moved in cards]))
    return _with(state, seat, player, on_chain=on_chain)


def _turn_ended(state: State, event: TurnEnded) -> State:
    turn = event.turn
    return replace(state, delayed=tuple([d for d in state.delayed if d.turn != turn]))


def _card_destroyed(state: State, event: CardDestroyed) -> State:
    card, seat, origin = event.card, event.seat, event.from_
    player = _leave(state.players[seat], card, origin)
    player = replace(player, graveyard=(*player.graveyard, card))
    if origin == "chain":
        return _with(state, seat, player, on_chain=drop(state.on_chain, card))
    return _with(state, seat, player)


def _stat_modified(state: State, event: StatModified) -> State:
    delta = event.atk_delta
    return _update_monster(state, event.card, lambda m: replace(m, modifiers=(*m.modifiers, delta)))


def _form_changed(state: State, event: FormChanged) -> State:
    to, cause = event.to, event.cause
    return _update_monster(
        state, event.card, lambda m: replace(m, form=to, form_changed=m.form_changed or cause == "command")
    )


def _effect_triggered(state: State, event: EffectTriggered) -> State:
    system = event.system
    return _update_monster(state, event.card, lambda m: replace(m, lock=system))


def _pool_changed(state: State, event: PoolChanged) -> State:
    seat, value = event.seat, event.value
    player = state.players[seat]
    return _with(state, seat, replace(player, hp=value) if event.pool == "hp" else replace(player, lp=value))


def _cards_drawn(state: State, event: CardsDrawn) -> State:
    seat, cards = event.seat, event.cards
    assert cards is not None, "the fold takes full events, never a viewer's redacted copy"
    player = state.players[seat]
    return _with(state, seat, replace(player, deck=player.deck[len(cards) :], hand=(*player.hand, *cards)))


def _turn_started(state: State, event: TurnStarted) -> State:
    """§3.4 per-turn reset."""
    players = []
    for s, player in enumerate(state.players):
        monsters = tuple([None if m is None else _reset(m) for m in player.monsters])
        if s == event.seat:
            player = replace(
                player, commander_used=False, monsters=monsters, normal_summons_used=0, combination_used=()
            )
        else:
            player = replace(player, commander_used=False, monsters=monsters)
        players.append(player)
    return replace(state, turn=event.turn, turn_seat=event.seat, players=tuple(players))


def _magic_set(state: State, event: MagicSet) -> State:
    seat, card, card_id = event.seat, event.card, event.card_id
    assert card is not None and card_id is not None, "the fold takes full events"
    player = state.players[seat]
    slot = MagicSlot(card, card_id, True, state.turn)
    return _with(state, seat, replace(player, hand=drop(player.hand, card), magic=put(player.magic, event.zone, slot)))


def _attack_declared(state: State, event: AttackDeclared) -> State:
    attacker, target = event.attacker, event.target
    entry = _entry(state, attacker)
    assert entry is not None
    target_entry = None if target is None else _entry(state, target)
    state = replace(state, attack=Attack(attacker, entry, target, target_entry, event.system, event.defender))
    return _update_monster(state, attacker, lambda m: replace(m, attacked=True))


def _attack_negated(state: State, event: AttackNegated) -> State:
    assert state.attack is not None
    return replace(state, attack=replace(state.attack, negated=True))


def _attack_ended(state: State, event: AttackEnded) -> State:
    return replace(state, attack=None)


def _link_negated(state: State, event: LinkNegated) -> State:
    link, chain = event.link, state.chain
    return replace(state, chain=put(chain, link - 1, replace(chain[link - 1], negated=True)))


def _counter_added(state: State, event: CounterAdded) -> State:
    counter, value = event.counter, event.value
    return _update_monster(state, event.card, lambda m: replace(m, counters={**m.counters, counter: value}))


def _delayed_effect_registered(state: State, event: DelayedEffectRegistered) -> State:
    delayed_id = event.delayed_id
    delayed = Delayed(delayed_id, event.seat, event.turn, event.card_id, event.subjects, event.steps)
    return replace(state, delayed=(*state.delayed, delayed), delayed_counter=delayed_id)


def _delayed_effect_resolved(state: State, event: DelayedEffectResolved) -> State:
    delayed_id = event.delayed_id
    return replace(state, delayed=tuple([d for d in state.delayed if d.delayed_id != delayed_id]))


def _modifiers_expired(state: State, event: ModifiersExpired) -> State:
    gone = set(event.cards)
    return replace(state, players=tuple([_clear_modifiers(p, gone) for p in state.players]))


def _timed_out(state: State, event: TimedOut) -> State:
    if event.kind != "open":
        return state
    seat = event.seat
    player = state.players[seat]
    return _with(state, seat, replace(player, open_timeouts=player.open_timeouts + 1))


def _draw_failed(state: State, event: DrawFailed) -> State:
    return _with(state, event.seat, replace(state.players[event.seat], decked_out=True))


def _deck_shuffled(state: State, event: DeckShuffled) -> State:
    order = event.order
    assert order is not None, "the fold takes full events, never a viewer's redacted copy"
    return _with(state, event.seat, replace(state.players[event.seat], deck=order))


def _first_player_chosen(state: State, event: FirstPlayerChosen) -> State:
    return replace(state, first_seat=event.seat)


def _match_ended(state: State, event: MatchEnded) -> State:
    return replace(state, result=Result(event.result, event.winner, event.reason), awaiting=None)


def _match_started(state: State, event: MatchStarted) -> State:
    card_ids: dict[str, str] = {}
    players: list[Player] = []
    for setup in event.players:
        assert setup.main is not None and setup.extra is not None and setup.tactics is not None, "full events only"
        refs = [*setup.main, *setup.extra, *setup.tactics]
        if setup.commander is not None:
            refs.append(setup.commander)
        card_ids.update({ref.card: ref.card_id for ref in refs})
        players.append(
            Player(
                hp=setup.hp,
                lp=setup.lp,
                deck=tuple([r.card for r in setup.main]),
                extra=tuple([r.card for r in setup.extra]),
                tactics=tuple([r.card for r in setup.tactics]),
                commander=None if setup.commander is None else setup.commander.card,
            )
        )
    return replace(state, card_ids=card_ids, players=tuple(players))


_FOLDS: dict[type, Callable[[State, Any], State]] = by_type(
    Event,
    {
        AwaitingDecision: _awaiting_decision,
        PhaseChanged: _phase_changed,
        LinkResolved: _no_change,
        Passed: _no_change,
        BattleCalculated: _no_change,
        DrawSkipped: _no_change,
        DestructionPrevented: _no_change,
        Conceded: _no_change,
        PhaseEndRequested: _phase_end_requested,
        ChainResolved: _chain_resolved,
        ChainLinkAdded: _chain_link_added,
        MonsterSummoned: _monster_summoned,
        SentToGraveyard: _sent_to_graveyard,
        TurnEnded: _turn_ended,
        CardDestroyed: _card_destroyed,
        StatModified: _stat_modified,
        FormChanged: _form_changed,
        EffectTriggered: _effect_triggered,
        PoolChanged: _pool_changed,
        CardsDrawn: _cards_drawn,
        TurnStarted: _turn_started,
        MagicSet: _magic_set,
        AttackDeclared: _attack_declared,
        AttackNegated: _attack_negated,
        AttackEnded: _attack_ended,
        LinkNegated: _link_negated,
        CounterAdded: _counter_added,
        DelayedEffectRegistered: _delayed_effect_registered,
        DelayedEffectResolved: _delayed_effect_resolved,
        ModifiersExpired: _modifiers_expired,
        TimedOut: _timed_out,
        DrawFailed: _draw_failed,
        DeckShuffled: _deck_shuffled,
        FirstPlayerChosen: _first_player_chosen,
        MatchEnded: _match_ended,
        MatchStarted: _match_started,
        SpecialVictory: _no_change,
    },
)


def _with(state: State, seat: int, player: Player, **changes: Any) -> State:
    """``state`` with ``player`` at ``seat`` and any other ``changes``, in one copy."""
    players = (player, state.players[1]) if seat == 0 else (state.players[0], player)
    return replace(state, players=players, **changes)


def _reset(monster: Monster) -> Monster:
    """A monster's per-turn marks cleared; an unmarked monster is kept as it is (an equal value)."""
    if not monster.form_changed and not monster.attacked and monster.lock is None and not monster.effects_used:
        return monster
    return replace(monster, form_changed=False, attacked=False, lock=None, effects_used=())


def _leave(player: Player, card: str, origin: str) -> Player:
    """``card`` leaves the zone it is in; the caller puts it where it goes."""
    if origin == "hand":
        return replace(player, hand=drop(player.hand, card))
    if origin == "graveyard":
        return replace(player, graveyard=drop(player.graveyard, card))
    if origin == "extra":
        return replace(player, extra=drop(player.extra, card))
    if origin == "monster_zone":
        zones = player.monsters
        i = next(i for i, m in enumerate(zones) if m is not None and m.card == card)
        return replace(player, monsters=put(zones, i, None))
    if origin == "magic_zone":
        slots = player.magic
        i = next(i for i, s in enumerate(slots) if s is not None and s.card == card)
        return replace(player, magic=put(slots, i, None))
    assert origin == "chain"
    return player


def _entry(state: State, card: str) -> int | None:
    """The entry of ``card`` if it is on the field, else None."""
    for player in state.players:
        for m in player.monsters:
            if m is not None and m.card == card:
                return m.entry
    return None


def _update_monster(state: State, card: str, change: Callable[[Monster], Monster]) -> State:
    for seat, player in enumerate(state.players):
        for i, m in enumerate(player.monsters):
            if m is not None and m.card == card:
                return _with(state, seat, replace(player, monsters=put(player.monsters, i, change(m))))
    raise AssertionError(f"{card} is not on the field")


def _clear_modifiers(player: Player, cards: set[str]) -> Player:
    if not any(m is not None and m.card in cards for m in player.monsters):
        return player
    return replace(
        player,
        monsters=tuple([replace(m, modifiers=()) if m is not None and m.card in cards else m for m in player.monsters]),
    )
