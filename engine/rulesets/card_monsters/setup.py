"""Match configuration and setup of card_monsters (card_monsters.md §3.6, §4, §5).

``configure`` validates JSON-like data in the check order of §4 and expands presets, so the returned
``Config`` is self-contained; ``initial`` and ``setup`` are pure functions of it (and the RNG).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.errors import ConfigError
from engine.options import check_options
from engine.rng import Rng
from engine.rulesets.card_monsters.codes import Code
from engine.rulesets.card_monsters.data import CATALOG, PRESETS, MonsterCard
from engine.rulesets.card_monsters.evolve import evolve
from engine.rulesets.card_monsters.model import (
    Config,
    Event,
    FirstPlayerChosen,
    Options,
    PileShuffled,
    SeatConfig,
    Side,
    State,
)
from engine.rulesets.card_monsters.resolve import refill, start_turn
from engine.tape import Tape

SEATS = 2
DEFAULT_DECKS = ("starter_a", "starter_b")
MAX_PER_KIND = 8
MAX_COPIES = 2


def configure(data: Any) -> Config:
    """The validated configuration for ``{"seats": [{"deck": ...}, ...], "options": {...}}`` (§4)."""
    if not isinstance(data, dict) or set(data) - {"seats", "options"}:
        raise ConfigError(Code.BAD_CONFIG, None, "expected an object with 'seats' and 'options'")
    seats = data.get("seats", [])
    if not isinstance(seats, list):
        raise ConfigError(Code.BAD_CONFIG, None, "'seats' must be a list")
    if len(seats) != SEATS:
        raise ConfigError(Code.PLAYER_COUNT_INVALID, None, f"card_monsters needs exactly {SEATS} seats")
    # checks 2-3: unknown option names, then values, each over the names in sorted order
    options = check_options(
        data.get("options", {}), Options, unknown=Code.UNKNOWN_OPTION, invalid=Code.OPTION_OUT_OF_RANGE
    )
    decks = tuple(_check_deck(seat, entry) for seat, entry in enumerate(seats))
    return Config(seats=tuple(SeatConfig(deck=d) for d in decks), options=options)


def _check_deck(seat: int, entry: Any) -> tuple[str, ...]:
    """Checks 4-9 for one seat; a missing deck is the seat's starter deck (§4)."""
    if not isinstance(entry, dict) or set(entry) - {"deck"}:
        raise ConfigError(Code.BAD_CONFIG, seat, "a seat holds only 'deck'")
    deck = entry.get("deck", DEFAULT_DECKS[seat])
    if isinstance(deck, str):
        if deck not in PRESETS:
            raise ConfigError(Code.DECK_UNKNOWN_PRESET, seat, deck)
        deck = list(PRESETS[deck])
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise ConfigError(Code.BAD_CONFIG, seat, "a deck is a preset name or a list of card ids")
    unknown = [card for card in deck if card not in CATALOG]
    if unknown:
        raise ConfigError(Code.DECK_UNKNOWN_CARD, seat, unknown[0])
    monsters = sum(isinstance(CATALOG[card], MonsterCard) for card in deck)
    if monsters > MAX_PER_KIND:
        raise ConfigError(Code.DECK_TOO_MANY_MONSTERS, seat, str(monsters))
    if len(deck) - monsters > MAX_PER_KIND:
        raise ConfigError(Code.DECK_TOO_MANY_ITEMS, seat, str(len(deck) - monsters))
    if monsters == 0:
        raise ConfigError(Code.DECK_NO_MONSTERS, seat, "a deck needs at least one monster")
    counts = Counter(deck)
    for card in deck:
        if counts[card] > MAX_COPIES:
            raise ConfigError(Code.DECK_TOO_MANY_COPIES, seat, card)
    return tuple(deck)


def instance_id(seat: int, index: int) -> str:
    """§3.2: the instance id of the card at ``index`` of the seat's expanded deck."""
    return f"{seat}:{index}"


def initial(config: Config) -> State:
    """The state before the first setup event: empty zones, every instance id known."""
    decks = tuple(seat.deck for seat in config.seats)
    card_ids = {instance_id(s, i): card for s, deck in enumerate(decks) for i, card in enumerate(deck)}
    return State(options=config.options, decks=decks, card_ids=card_ids, sides=(Side(), Side()))


def setup(config: Config, rng: Rng) -> list[Event]:
    """§5: shuffle both piles of each seat, choose the first player, deal opening hands, start turn 1."""
    tape = Tape(initial(config), evolve)
    for seat, deck in enumerate(tape.state.decks):
        cards = [instance_id(seat, i) for i in range(len(deck))]
        monsters = [c for c, k in zip(cards, deck, strict=False) if isinstance(CATALOG[k], MonsterCard)]
        items = [c for c, k in zip(cards, deck, strict=False) if not isinstance(CATALOG[k], MonsterCard)]
        order = tuple(rng.shuffle(monsters))
        tape.emit(PileShuffled(seat, "monster", order, len(order)))
        order = tuple(rng.shuffle(items))
        tape.emit(PileShuffled(seat, "item", order, len(order)))
    first = rng.randbelow(SEATS)
    tape.emit(FirstPlayerChosen(first))
    for seat in range(SEATS):
        refill(tape, seat, "monster")
        refill(tape, seat, "item")
    start_turn(tape, first, 1)
    return tape.events
