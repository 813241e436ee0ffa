"""The fold of voidlink (docs/rulesets/voidlink.md §7.3): pure, no randomness, no checks.

Every event type has its own case, so a new event cannot be folded by accident.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from msgspec.structs import replace

from engine.rulesets.voidlink.model import (
    Attack,
    AttackDeclared,
    AttackEnded,
    AttackNegated,
    Awaiting,
    AwaitingDecision,
    BattleCalculated,
    CardDestroyed,
    CardsDrawn,
    ChainLinkAdded,
    ChainResolved,
    Conceded,
    CounterAdded,
    DeckShuffled,
    Delayed,
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
    MagicSet,
    MagicSlot,
    MatchEnded,
    MatchStarted,
    ModifiersExpired,
    Monster,
    MonsterSummoned,
    Passed,
    PhaseChanged,
    PhaseEndRequested,
    Player,
    PoolChanged,
    Result,
    SentToGraveyard,
    SpecialVictory,
    State,
    StatModified,
    TimedOut,
    TurnEnded,
    TurnStarted,
)
from engine.tuples import drop, put


def evolve(state: State, event: Event) -> State:
    """The state after ``event``."""
    match event:
        case AwaitingDecision(seat=seat, kind=kind, window=window, count=count, seq=seq, timer_s=timer):
            awaiting = Awaiting(seat, kind, window, count, seq, timer)
            if kind == "open":
                return replace(state, awaiting=awaiting, seq=seq, pending_phase_end=None)
            return replace(state, awaiting=awaiting, seq=seq)
        case PhaseChanged(phase=phase):
            return replace(state, phase=phase, pending_phase_end=None)
        case LinkResolved() | Passed() | BattleCalculated() | DrawSkipped() | DestructionPrevented() | Conceded():
            return state
        case PhaseEndRequested(next=next_phase):
            return replace(state, pending_phase_end=next_phase)
        case ChainResolved():
            return replace(state, chain=())
        case ChainLinkAdded():
            return _add_link(state, event)
        case MonsterSummoned():
            return _summon(state, event)
        case SentToGraveyard(seat=seat, cards=cards):
            player = state.players[seat]
            on_chain = state.on_chain
            for moved in cards:
                player = _leave(player, moved.card, moved.from_)
                if moved.from_ == "chain":
                    on_chain = drop(on_chain, moved.card)
            player = replace(player, graveyard=(*player.graveyard, *[moved.card for moved in cards]))
            return _with(state, seat, player, on_chain=on_chain)
        case TurnEnded(turn=turn):
            return replace(state, delayed=tuple([d for d in state.delayed if d.turn != turn]))
        case CardDestroyed(card=card, seat=seat, from_=origin):
            player = _leave(state.players[seat], card, origin)
            player = replace(player, graveyard=(*player.graveyard, card))
            if origin == "chain":
                return _with(state, seat, player, on_chain=drop(state.on_chain, card))
            return _with(state, seat, player)
        case StatModified(card=card, atk_delta=delta):
            return _update_monster(state, card, lambda m: replace(m, modifiers=(*m.modifiers, delta)))
        case FormChanged(card=card, to=to, cause=cause):
            return _update_monster(
                state, card, lambda m: replace(m, form=to, form_changed=m.form_changed or cause == "command")
            )
        case EffectTriggered(card=card, system=system):
            return _update_monster(state, card, lambda m: replace(m, lock=system))
        case PoolChanged(seat=seat, pool=pool, value=value):
            player = state.players[seat]
            return _with(state, seat, replace(player, hp=value) if pool == "hp" else replace(player, lp=value))
        case CardsDrawn(seat=seat, cards=cards):
            assert cards is not None, "the fold takes full events, never a viewer's redacted copy"
            player = state.players[seat]
            return _with(state, seat, replace(player, deck=player.deck[len(cards) :], hand=(*player.hand, *cards)))
        case TurnStarted(turn=turn, seat=seat):
            return _start_turn(state, turn, seat)
        case MagicSet(seat=seat, card=card, card_id=card_id, zone=zone):
            assert card is not None and card_id is not None, "the fold takes full events"
            player = state.players[seat]
            slot = MagicSlot(card, card_id, True, state.turn)
            return _with(
                state, seat, replace(player, hand=drop(player.hand, card), magic=put(player.magic, zone, slot))
            )
        case AttackDeclared(attacker=attacker, target=target, system=system, defender=defender):
            entry = _entry(state, attacker)
            assert entry is not None
            attack = Attack(
                attacker, entry, target, None if target is None else _entry(state, target), system, defender
            )
            state = replace(state, attack=attack)
            return _update_monster(state, attacker, lambda m: replace(m, attacked=True))
        case AttackNegated():
            assert state.attack is not None
            return replace(state, attack=replace(state.attack, negated=True))
        case AttackEnded():
            return replace(state, attack=None)
        case LinkNegated(link=link):
            chain = state.chain
            return replace(state, chain=put(chain, link - 1, replace(chain[link - 1], negated=True)))
        case CounterAdded(card=card, counter=counter, value=value):
            return _update_monster(state, card, lambda m: replace(m, counters={**m.counters, counter: value}))
        case DelayedEffectRegistered(
            delayed_id=delayed_id, seat=seat, turn=turn, card_id=card_id, subjects=subjects, steps=steps
        ):
            delayed = Delayed(delayed_id, seat, turn, card_id, subjects, steps)
            return replace(state, delayed=(*state.delayed, delayed), delayed_counter=delayed_id)
        case DelayedEffectResolved(delayed_id=delayed_id):
            return replace(state, delayed=tuple([d for d in state.delayed if d.delayed_id != delayed_id]))
        case ModifiersExpired(cards=cards):
            gone = set(cards)
            return replace(state, players=tuple([_clear_modifiers(p, gone) for p in state.players]))
        case TimedOut(seat=seat, kind=kind):
            if kind != "open":
                return state
            player = state.players[seat]
            return _with(state, seat, replace(player, open_timeouts=player.open_timeouts + 1))
        case DrawFailed(seat=seat):
            return _with(state, seat, replace(state.players[seat], decked_out=True))
        case DeckShuffled(seat=seat, order=order):
            assert order is not None, "the fold takes full events, never a viewer's redacted copy"
            return _with(state, seat, replace(state.players[seat], deck=order))
        case FirstPlayerChosen(seat=seat):
            return replace(state, first_seat=seat)
        case MatchEnded(result=result, winner=winner, reason=reason):
            return replace(state, result=Result(result, winner, reason), awaiting=None)
        case MatchStarted():
            return _started(state, event)
        case SpecialVictory():
            return state
        case _:
            assert_never(event)


def _with(state: State, seat: int, player: Player, **changes: Any) -> State:
    """``state`` with ``player`` at ``seat`` and any other ``changes``, in one copy."""
    players = (player, state.players[1]) if seat == 0 else (state.players[0], player)
    return replace(state, players=players, **changes)


def _started(state: State, event: MatchStarted) -> State:
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


def _start_turn(state: State, turn: int, seat: int) -> State:
    """§3.4 per-turn reset."""
    players = []
    for s, player in enumerate(state.players):
        monsters = tuple([None if m is None else _reset(m) for m in player.monsters])
        if s == seat:
            player = replace(
                player, commander_used=False, monsters=monsters, normal_summons_used=0, combination_used=()
            )
        else:
            player = replace(player, commander_used=False, monsters=monsters)
        players.append(player)
    return replace(state, turn=turn, turn_seat=seat, players=tuple(players))


def _reset(monster: Monster) -> Monster:
    """A monster's per-turn marks cleared; an unmarked monster is kept as it is (an equal value)."""
    if not monster.form_changed and not monster.attacked and monster.lock is None and not monster.effects_used:
        return monster
    return replace(monster, form_changed=False, attacked=False, lock=None, effects_used=())


def _summon(state: State, event: MonsterSummoned) -> State:
    seat = event.seat
    player = _leave(state.players[seat], event.card, event.from_)
    monster = Monster(event.card, event.card_id, event.form, event.entry, state.turn)
    monsters = put(player.monsters, event.zone, monster)
    if event.method == "normal":
        player = replace(player, monsters=monsters, normal_summons_used=player.normal_summons_used + 1)
    else:
        player = replace(player, monsters=monsters)
    return _with(state, seat, player, entry_counter=event.entry)


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


def _add_link(state: State, event: ChainLinkAdded) -> State:
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
