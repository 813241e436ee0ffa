"""A state a duel seat could be in, from its view alone (duel.md §11): the search bot's sample.

Instance ids number the places of a seat's deck list by section (``"{seat}-{section}{NN}"``, §3.2), but deck lists
are not in the view (not even the seat's own main deck, whose order and contents it does not see). Each seat's list
is guessed as the preset agreeing with the most instances seen; the instances not seen take their identity from
it. Unseen main-deck instances are dealt among the deck, the opponent's hand and its face-down cards (a monster
card in a monster slot, a spell or trap in a spell/trap slot); unseen extra and side instances are the opponent's
extra and side decks.
"""

from __future__ import annotations

import random

from msgspec import UNSET

from engine.rulesets.duel.data import CATALOG, PRESETS
from engine.rulesets.duel.model.state import (
    Attack,
    CardRef,
    Details,
    Monster,
    Pending,
    Side,
    SpellTrap,
    State,
    instance_id,
    owner_of,
)
from engine.rulesets.duel.model.views import AttackView, SideView, View
from engine.search.determinize import closest, deal

SECTIONS = {"m": "main", "x": "extra", "s": "side"}

_EXPANSIONS = {
    seat: [
        {instance_id(seat, section, i): card for section, key in SECTIONS.items() for i, card in enumerate(deck[key])}
        for _, deck in sorted(PRESETS.items())
    ]
    for seat in (0, 1)
}


def _section(instance: str) -> str:
    return instance.split("-")[1][0]


def _seen(v: SideView) -> dict[str, str]:
    refs = [*v.graveyard]
    for pile in (v.hand, v.extra, v.side_deck):
        if pile.cards is not UNSET:
            refs.extend(pile.cards)
    seen = {r.instance: r.card_id for r in refs}
    for m in v.monsters:
        if m is not None and m.instance is not UNSET and m.card_id is not UNSET:
            seen[m.instance] = m.card_id
    for c in v.spell_traps:
        if c is not None and c.instance is not UNSET and c.card_id is not UNSET:
            seen[c.instance] = c.card_id
    return seen


def _fits(card_id: str, monster: bool) -> bool:
    card = CATALOG[card_id]
    return card.monster_kind != "fusion" if monster and card.category == "monster" else card.category != "monster"


def _side(v: SideView, mine: bool, cards: dict[str, str], rng: random.Random, elsewhere: dict[str, str]) -> Side:
    """``elsewhere``: this seat's cards seen on the other side (a monster the other seat took from this seat's
    graveyard): accounted for, never dealt again into this side's hidden zones."""
    seen = _seen(v)
    guess = closest(seen | elsewhere, _EXPANSIONS[v.seat], rng)
    cards.update(seen)
    seen |= elsewhere
    hidden_monsters = sum(1 for m in v.monsters if m is not None and m.instance is UNSET)
    hidden_spells = sum(1 for c in v.spell_traps if c is not None and c.instance is UNSET)
    hidden = {
        "m": v.deck.count + (0 if mine else v.hand.count + hidden_monsters + hidden_spells),
        "x": 0 if mine else v.extra.count,
        "s": 0 if mine else v.side_deck.count,
    }
    unseen: dict[str, list[str]] = {}
    for section in SECTIONS:
        # Only this seat's own instances number its places: a monster taken from the other seat lies here too.
        known = sum(1 for i in seen if owner_of(i) == v.seat and _section(i) == section)
        ids = [instance_id(v.seat, section, k) for k in range(known + hidden[section])]
        unseen[section] = [i for i in ids if i not in seen]
        pool = [c for i, c in guess.items() if _section(i) == section] or list(guess.values())
        for i in unseen[section]:
            cards[i] = guess.get(i) or pool[rng.randrange(len(pool))]
    main = unseen["m"]
    rng.shuffle(main)

    def face_down(monster: bool) -> str:
        """An unseen main instance of the kind the slot holds (one made that kind when none is)."""
        k = next((k for k, i in enumerate(main) if _fits(cards[i], monster)), 0)
        instance = main.pop(k)
        if not _fits(cards[instance], monster):
            cards[instance] = next(c for c in guess.values() if _fits(c, monster))
        return instance

    monsters: list[Monster | None] = []
    for m in v.monsters:
        if m is None:
            monsters.append(None)
            continue
        instance = face_down(True) if m.instance is UNSET else m.instance
        turns = (m.arrived_turn, m.position_changed_turn, m.attacked_turn)
        monsters.append(Monster(instance, cards[instance], m.position, *turns))
    spell_traps: list[SpellTrap | None] = []
    for c in v.spell_traps:
        if c is None:
            spell_traps.append(None)
        elif c.instance is UNSET:
            instance = face_down(False)
            spell_traps.append(SpellTrap(instance, cards[instance], False, c.set_turn))
        else:
            counters = tuple(c.counters.items()) if c.counters is not UNSET else ()
            equipped = c.equipped_to if c.equipped_to is not UNSET else None
            spell_traps.append(
                SpellTrap(c.instance, cards[c.instance], not c.face_down, c.set_turn, counters, equipped)
            )
    if mine:
        (deck,) = deal(main, [v.deck.count], rng)
        hand, extra, side_deck = (tuple(r.instance for r in p.cards or ()) for p in (v.hand, v.extra, v.side_deck))
    else:
        hand, deck = deal(main, [v.hand.count, v.deck.count], rng)
        (extra,) = deal(unseen["x"], [v.extra.count], rng)
        (side_deck,) = deal(unseen["s"], [v.side_deck.count], rng)
    return Side(
        lp=v.lp,
        deck_out=v.deck_out,
        timeouts=v.timeouts,
        deck=deck,
        hand=hand,
        monsters=tuple(monsters),
        spell_traps=tuple(spell_traps),
        graveyard=tuple(r.instance for r in v.graveyard),
        extra=extra,
        side_deck=side_deck,
    )


def _attack(a: AttackView | None, sides: tuple[Side, ...], defender: int) -> Attack | None:
    if a is None:
        return None
    target = a.target
    if target is UNSET:
        # Hidden from this seat: the face-down card in the target slot (a stand-in the view would not show).
        slot = sides[defender].monsters[a.target_slot] if a.target_slot is not None else None
        target = slot.instance if slot is not None and not slot.face_up else ""
    return Attack(a.attacker, a.attacker_slot, a.target_slot, target, a.defender_count, a.stage)  # type: ignore[arg-type]


def _elsewhere(owner: int, shown: dict[int, dict[str, str]]) -> dict[str, str]:
    """The cards of ``owner``'s deck list seen on the other seat's side."""
    prefix = f"{owner}-"
    return {i: c for side, seen in shown.items() if side != owner for i, c in seen.items() if i.startswith(prefix)}


def determinize(v: View, seat: int, rng: random.Random) -> State:
    """A state whose ``view(state, seat)`` is ``v``, the hidden cards dealt from those unaccounted for."""
    cards: dict[str, str] = {}
    shown = {s.seat: _seen(s) for s in v.sides}
    sides = tuple(_side(s, s.seat == seat, cards, rng, _elsewhere(s.seat, shown)) for s in v.sides)
    pending = None
    if v.pending is not None:
        details = v.pending.details if v.pending.details is not UNSET else Details()
        pending = Pending(v.pending.decision_id, v.pending.seat, v.pending.kind, details)  # type: ignore[arg-type]
    return State(
        options=v.options,
        cards={i: CardRef(i, c) for i, c in sorted(cards.items())},
        first_seat=v.first_seat,
        turn=v.turn,
        turn_seat=v.turn_seat,
        phase=v.phase,  # type: ignore[arg-type]
        normal_summon_used=v.normal_summon_used,
        sides=sides,
        attack=_attack(v.attack, sides, 1 - v.turn_seat),
        queue=v.queue,
        pending=pending,
        next_decision_id=v.pending.decision_id + 1 if v.pending is not None else 1,
        ended=v.ended,
        result=v.result,
    )
