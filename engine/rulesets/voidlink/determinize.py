"""A state a voidlink seat could be in, from its view alone (docs/rulesets/voidlink.md §11): the search bot's sample.

An instance id names its part of the deck list and its place there (``p<seat>.<part><nn>``, §3.3), but deck lists
are not in the view. Each seat's list is guessed as the preset that agrees with the most instances seen (their
identities by place); the instances not seen take their identity from it. Unseen main-deck instances are dealt
among the deck, the opponent's hand and its face-down magic (always a magic card there); unseen extra and
commander-deck instances are the opponent's extra deck and tactics.
"""

from __future__ import annotations

import random

from engine.rulesets.voidlink.data import CATALOG, PRESETS, MagicCard, PresetDeck, TacticsCard
from engine.rulesets.voidlink.model import State, View
from engine.rulesets.voidlink.model.state import Link, MagicSlot, Monster, Options, Player
from engine.rulesets.voidlink.model.views import PlayerView
from engine.rulesets.voidlink.setup import instance_id
from engine.search.determinize import closest, deal, unaccounted

PARTS = ("m", "x", "c")


def _expansion(seat: int, deck: PresetDeck) -> dict[str, str]:
    """Instance id to card id, as setup expands a deck list (§3.3)."""
    parts = {
        "m": [c for c, n in deck.main for _ in range(n)],
        "x": [c for c, n in deck.extra for _ in range(n)],
        "c": list(deck.commander),
    }
    return {instance_id(seat, part, i): card for part, cards in parts.items() for i, card in enumerate(cards)}


_EXPANSIONS = {seat: [_expansion(seat, deck) for _, deck in sorted(PRESETS.items())] for seat in (0, 1)}


def _seen(p: PlayerView, v: View) -> dict[str, str]:
    refs = [*(p.hand or ()), *(p.extra or ()), *(p.tactics or ()), *p.graveyard]
    if p.commander is not None:
        refs.append(p.commander)
    seen = {r.card: r.card_id for r in refs}
    seen.update((m.card, m.card_id) for m in p.monsters)
    seen.update((m.card, m.card_id) for m in p.magic if m.card is not None and m.card_id is not None)
    seen.update((link.card, link.card_id) for link in v.chain if link.seat == p.seat)
    return seen


def _player(p: PlayerView, v: View, mine: bool, card_ids: dict[str, str], rng: random.Random) -> Player:
    seen = _seen(p, v)
    guess = closest(seen, _EXPANSIONS[p.seat], rng)
    card_ids.update(seen)
    hidden_magic = [m for m in p.magic if m.card is None]
    hidden = {
        "m": p.deck_count + (0 if mine else p.hand_count + len(hidden_magic)),
        "x": 0 if mine else p.extra_count,
        "c": 0 if mine else p.tactics_count,
    }
    unseen: dict[str, list[str]] = {}
    for part in PARTS:
        known = sum(1 for iid in seen if iid.split(".")[1][0] == part)
        ids = [instance_id(p.seat, part, i) for i in range(known + hidden[part])]
        unseen[part] = [iid for iid in ids if iid not in seen]
        pool = [card for iid, card in guess.items() if iid.split(".")[1][0] == part] or list(guess.values())
        if part == "c":
            # The commander deck's places are not fixed by kind (a seat may have no commander): the hidden ones
            # are tactics, so they take the guessed list's tactics not seen yet.
            pool = [c for c in pool if isinstance(CATALOG[c], TacticsCard)] or pool
            left = unaccounted(pool, [card for iid, card in seen.items() if iid.split(".")[1][0] == "c"])
            for k, iid in enumerate(unseen[part]):
                card_ids[iid] = left[k] if k < len(left) else pool[rng.randrange(len(pool))]
            continue
        for iid in unseen[part]:
            card_ids[iid] = guess.get(iid) or pool[rng.randrange(len(pool))]
    main = unseen["m"]
    rng.shuffle(main)
    magic: list[MagicSlot | None] = [None] * 6
    for m in p.magic:
        if m.card is not None and m.card_id is not None:
            magic[m.zone] = MagicSlot(m.card, m.card_id, m.face_down, m.set_turn)
        else:
            # The opponent set a magic card from its hand: an unseen magic instance, or one made a magic card.
            k = next((k for k, iid in enumerate(main) if isinstance(CATALOG[card_ids[iid]], MagicCard)), 0)
            iid = main.pop(k)
            if not isinstance(CATALOG[card_ids[iid]], MagicCard):
                card_ids[iid] = next(c for c in guess.values() if isinstance(CATALOG[c], MagicCard))
            magic[m.zone] = MagicSlot(iid, card_ids[iid], True, max(0, v.turn - 1))
    monsters: list[Monster | None] = [None] * 6
    for mv in p.monsters:
        monsters[mv.zone] = Monster(
            mv.card,
            mv.card_id,
            mv.form,
            mv.entry,
            mv.summoned_turn,
            mv.form_changed,
            mv.attacked,
            mv.lock,
            mv.effects_used,
            mv.modifiers,
            mv.counters,
        )
    if mine:
        (deck,) = deal(main, [p.deck_count], rng)
        hand = tuple(r.card for r in p.hand or ())
        extra = tuple(r.card for r in p.extra or ())
        tactics = tuple(r.card for r in p.tactics or ())
    else:
        hand, deck = deal(main, [p.hand_count, p.deck_count], rng)
        (extra,) = deal(unseen["x"], [p.extra_count], rng)
        (tactics,) = deal(unseen["c"], [p.tactics_count], rng)
    return Player(
        p.hp,
        p.lp,
        p.decked_out,
        p.normal_summons_used,
        p.commander_used,
        p.combination_used,
        p.open_timeouts,
        deck,
        hand,
        extra,
        tuple(r.card for r in p.graveyard),
        tuple(monsters),
        tuple(magic),
        None if p.commander is None else p.commander.card,
        tactics,
    )


def _entry(players: tuple[Player, ...], card: str | None) -> int | None:
    for player in players:
        for m in player.monsters:
            if m is not None and m.card == card:
                return m.entry
    return None


def determinize(v: View, seat: int, rng: random.Random) -> State:
    """A state whose ``view(state, seat)`` is ``v``, the hidden cards dealt from those unaccounted for."""
    card_ids: dict[str, str] = {}
    players = tuple(_player(p, v, p.seat == seat, card_ids, rng) for p in v.players)
    chain = []
    for link in v.chain:
        # A target in the activator's hand is hidden (D33): any card of that hand stands for it.
        hand = players[link.seat].hand
        targets = tuple(t if t is not None else hand[rng.randrange(len(hand))] if hand else "" for t in link.targets)
        chain.append(
            Link(
                link.link,
                link.seat,
                link.card,
                link.card_id,
                link.source,
                link.zone,
                link.effect,
                link.system,
                targets,
                tuple(_entry(players, t) for t in targets),
                _entry(players, link.card) if link.source == "monster" else None,
                link.form,
                link.origin,
                link.negated,
            )
        )
    entries = [m.entry for p in players for m in p.monsters if m is not None]
    entries += [s.entry for d in v.delayed for s in d.subjects]
    if v.attack is not None:
        entries += [v.attack.attacker_entry, v.attack.target_entry or 0]
    return State(
        options=Options(hand_limit=v.hand_limit),
        card_ids=card_ids,
        players=players,
        on_chain=tuple(link.card for link in v.chain if link.source == "tactics"),
        turn=v.turn,
        turn_seat=v.turn_seat,
        first_seat=v.first_seat,
        phase=v.phase,
        awaiting=v.awaiting,
        chain=tuple(chain),
        attack=v.attack,
        pending_phase_end=v.pending_phase_end,
        delayed=v.delayed,
        entry_counter=max(entries, default=0),
        delayed_counter=max((d.delayed_id for d in v.delayed), default=0),
        seq=v.awaiting.seq if v.awaiting is not None else 0,
        result=v.result,
    )
