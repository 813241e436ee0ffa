"""Match configuration and setup of voidlink (docs/rulesets/voidlink.md §4, §5).

``violations`` lists every deck-construction failure in the spec's order; ``configure`` raises the first one and
otherwise returns a self-contained ``Config`` (presets expanded). Deck lists are private: ``public_config`` empties
them, and ``MatchStarted`` carries them, redacted per viewer.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from engine.errors import ConfigError, ConfigProblem
from engine.options import option_problems
from engine.rng import Rng
from engine.rulesets.voidlink.codes import Code
from engine.rulesets.voidlink.data import (
    CATALOG,
    PRESETS,
    CombinationCard,
    CommanderCard,
    MagicCard,
    MonsterCard,
    MythCard,
    TacticsCard,
)
from engine.rulesets.voidlink.model import Config, Event, Options, State
from engine.rulesets.voidlink.model.events import (
    CardRef,
    CardsDrawn,
    DeckShuffled,
    FirstPlayerChosen,
    MatchStarted,
    PlayerSetup,
)
from engine.rulesets.voidlink.model.state import Deck, SeatConfig
from engine.rulesets.voidlink.resolve import new_tape, start_turn

SEATS = 2
DEFAULT_DECKS = ("starter_a", "starter_b")
NO_COMMANDER_POOLS = (7000, 7000)
MAIN_MIN, MAIN_MAX, MAIN_COPIES = 40, 80, 4
EXTRA_MAX, EXTRA_COPIES = 30, 2
COMMANDER_DECK_MAX = 5


def configure(data: Any) -> Config:
    """The validated configuration for ``{"seats": [{"deck": ...}, ...], "options": {...}}`` (§4, D35)."""
    found = violations(data)
    if found:
        first = found[0]
        raise ConfigError(first.code, first.seat, first.card_id if first.card_id is not None else first.detail or "")
    seats = data.get("seats", [])
    decks = tuple(_deck(seat, entry) for seat, entry in enumerate(seats))
    return Config(
        seats=tuple(SeatConfig(deck=d) for d in decks), options=msgspec.convert(data.get("options", {}), Options)
    )


def violations(data: Any) -> list[ConfigProblem]:
    """§4: every violation, config checks first, then seat 0's, then seat 1's, each in check order."""
    if not isinstance(data, dict) or set(data) - {"seats", "options"}:
        return [ConfigProblem(Code.BAD_CONFIG, None, "expected an object with 'seats' and 'options'")]
    seats = data.get("seats", [])
    if not isinstance(seats, list):
        return [ConfigProblem(Code.BAD_CONFIG, None, "'seats' must be a list")]
    found: list[ConfigProblem] = []
    if len(seats) != SEATS:
        found.append(ConfigProblem(Code.PLAYER_COUNT_INVALID, None, f"voidlink needs exactly {SEATS} seats"))
    found.extend(_option_violations(data.get("options", {})))
    for seat, entry in enumerate(seats):
        if not isinstance(entry, dict) or set(entry) - {"deck"}:
            found.append(ConfigProblem(Code.BAD_CONFIG, seat, "a seat holds only 'deck'"))
            continue
        found.extend(deck_violations(seat, entry.get("deck", DEFAULT_DECKS[seat % SEATS])))
    return found


def _option_violations(raw: Any) -> list[ConfigProblem]:
    """CF2: every unknown name or bad value, names in sorted order (``engine/options.py``)."""
    if not isinstance(raw, dict):
        return [ConfigProblem(Code.OPTION_INVALID, None, "'options' must be an object")]
    if not raw:
        return []  # the common case, without walking the Options fields
    return [
        ConfigProblem(
            Code.OPTION_INVALID, None, f"unknown option {p.name!r}" if p.unknown else f"bad value for {p.name!r}"
        )
        for p in option_problems(raw, Options)
    ]


def deck_violations(seat: int, deck: Any) -> list[ConfigProblem]:
    """K1-K17 for one seat's deck (a preset name or a ``{main, extra, commander}`` object)."""
    if isinstance(deck, str):
        if deck not in PRESETS:
            return [ConfigProblem(Code.UNKNOWN_PRECONSTRUCTED_DECK, seat, deck)]
        return []
    shape = _shape_violations(seat, deck)
    if shape:
        return shape
    main = [(str(c), int(n)) for c, n in deck["main"]]
    extra = [(str(c), int(n)) for c, n in deck["extra"]]
    commander = [str(c) for c in deck["commander"]]
    unknown = [c for c, _ in main] + [c for c, _ in extra] + commander
    found = [ConfigProblem(Code.UNKNOWN_CARD, seat, card_id=c, detail=c) for c in unknown if c not in CATALOG]
    if found:
        return found
    return _content_violations(seat, main, extra, commander)


def _shape_violations(seat: int, deck: Any) -> list[ConfigProblem]:
    """K1-K2: an object with exactly main/extra/commander, entries well formed, no id twice in a part."""
    if not isinstance(deck, dict) or set(deck) != {"main", "extra", "commander"}:
        return [ConfigProblem(Code.DECK_MALFORMED, seat, "a deck is a preset name or {main, extra, commander}")]
    for part in ("main", "extra"):
        entries = deck[part]
        if not isinstance(entries, list):
            return [ConfigProblem(Code.DECK_MALFORMED, seat, f"'{part}' must be a list")]
        seen: set[str] = set()
        for entry in entries:
            if not (
                isinstance(entry, list)
                and len(entry) == 2
                and isinstance(entry[0], str)
                and isinstance(entry[1], int)
                and not isinstance(entry[1], bool)
                and entry[1] >= 1
            ):
                return [ConfigProblem(Code.DECK_MALFORMED, seat, f"'{part}' entries are [card id, count >= 1]")]
            if entry[0] in seen:
                return [
                    ConfigProblem(
                        Code.DECK_MALFORMED, seat, card_id=entry[0], detail=f"{entry[0]} listed twice in '{part}'"
                    )
                ]
            seen.add(entry[0])
    commander = deck["commander"]
    if not isinstance(commander, list) or not all(isinstance(c, str) for c in commander):
        return [ConfigProblem(Code.DECK_MALFORMED, seat, "'commander' is a list of card ids")]
    return []


def _content_violations(
    seat: int, main: list[tuple[str, int]], extra: list[tuple[str, int]], commander: list[str]
) -> list[ConfigProblem]:
    """K4-K17, each check over the cards in deck-list order."""
    found: list[ConfigProblem] = []

    def add(code: Code, card: str | None, detail: str) -> None:
        found.append(ConfigProblem(code, seat, detail, card_id=card))

    for card, _ in main:
        if not isinstance(CATALOG[card], MonsterCard | MagicCard):
            add(Code.MAIN_DECK_CARD_TYPE, card, f"{card} cannot be in the main deck")
    total = sum(n for _, n in main)
    if total < MAIN_MIN:
        add(Code.MAIN_DECK_TOO_SMALL, None, f"{total} < {MAIN_MIN}")
    if total > MAIN_MAX:
        add(Code.MAIN_DECK_TOO_LARGE, None, f"{total} > {MAIN_MAX}")
    for card, n in main:
        if n > MAIN_COPIES:
            add(Code.MAIN_DECK_TOO_MANY_COPIES, card, f"{n} > {MAIN_COPIES}")
    for card, _ in extra:
        if not isinstance(CATALOG[card], CombinationCard | MythCard):
            add(Code.EXTRA_DECK_CARD_TYPE, card, f"{card} cannot be in the extra deck")
    total = sum(n for _, n in extra)
    if total > EXTRA_MAX:
        add(Code.EXTRA_DECK_TOO_LARGE, None, f"{total} > {EXTRA_MAX}")
    for card, n in extra:
        if n > EXTRA_COPIES:
            add(Code.EXTRA_DECK_TOO_MANY_COPIES, card, f"{n} > {EXTRA_COPIES}")
    for card in commander:
        if not isinstance(CATALOG[card], CommanderCard | TacticsCard):
            add(Code.COMMANDER_DECK_CARD_TYPE, card, f"{card} cannot be in the commander deck")
    if len(commander) > COMMANDER_DECK_MAX:
        add(Code.COMMANDER_DECK_TOO_LARGE, None, f"{len(commander)} > {COMMANDER_DECK_MAX}")
    counts = Counter(commander)
    for card in dict.fromkeys(commander):
        if counts[card] > 1:
            add(Code.COMMANDER_DECK_DUPLICATE, card, f"{card} listed {counts[card]} times")
    leaders = [CATALOG[c] for c in commander if isinstance(CATALOG[c], CommanderCard)]
    if len(leaders) > 1:
        add(Code.TOO_MANY_COMMANDERS, None, f"{len(leaders)} commanders")
        return found
    leader = leaders[0] if leaders else None
    assert leader is None or isinstance(leader, CommanderCard)
    for card in commander:
        entry = CATALOG[card]
        if isinstance(entry, TacticsCard) and not tactics_allowed(entry, leader):
            add(Code.TACTICS_RESTRICTION_UNMET, card, f"{card} is not usable by this commander deck")
    if leader is None:
        return found
    every = [c for c, _ in main] + [c for c, _ in extra] + commander
    forbidden = set(leader.deck_restriction.forbidden_archetypes)
    for card in every:
        if forbidden & set(CATALOG[card].archetypes):
            add(Code.COMMANDER_FORBIDDEN_ARCHETYPE, card, f"{leader.id} forbids {card}")
    races = leader.deck_restriction.allowed_monster_races
    if races is not None:
        for card in every:
            entry = CATALOG[card]
            if isinstance(entry, MonsterCard | MythCard) and entry.race not in races:
                add(Code.COMMANDER_RACE_RESTRICTION, card, f"{leader.id} allows only {', '.join(races)}")
    return found


def tactics_allowed(card: TacticsCard, leader: CommanderCard | None) -> bool:
    """K15: a restricted tactics card needs a matching commander; a generic one is always allowed."""
    restriction = card.restriction
    if restriction is None:
        return True
    if leader is None:
        return False
    return leader.id in (restriction.commander_ids or ()) or leader.race in (restriction.commander_races or ())


def _deck(seat: int, entry: dict[str, Any]) -> Deck:
    deck = entry.get("deck", DEFAULT_DECKS[seat % SEATS])
    if isinstance(deck, str):
        preset = PRESETS[deck]
        return Deck(main=preset.main, extra=preset.extra, commander=preset.commander)
    return Deck(
        main=tuple((c, n) for c, n in deck["main"]),
        extra=tuple((c, n) for c, n in deck["extra"]),
        commander=tuple(deck["commander"]),
    )


def public_config(config: Config) -> Config:
    """The configuration every viewer may see: options, and seats with their deck lists left empty (§11)."""
    return Config(seats=tuple(SeatConfig(deck=Deck()) for _ in config.seats), options=config.options)


def instance_id(seat: int, part: str, index: int) -> str:
    """§3.3: ``p<seat>.<part><nn>``, nn the 1-based position in the expanded part."""
    return f"p{seat}.{part}{index + 1:02d}"


def _expand(seat: int, part: str, entries: tuple[tuple[str, int], ...]) -> tuple[CardRef, ...]:
    cards = [card for card, n in entries for _ in range(n)]
    return tuple(CardRef(instance_id(seat, part, i), card) for i, card in enumerate(cards))


def _player(seat: int, deck: Deck) -> PlayerSetup:
    commander_deck = _expand(seat, "c", tuple((c, 1) for c in deck.commander))
    leaders = [ref for ref in commander_deck if isinstance(CATALOG[ref.card_id], CommanderCard)]
    leader = leaders[0] if leaders else None
    hp, lp = NO_COMMANDER_POOLS
    if leader is not None:
        entry = CATALOG[leader.card_id]
        assert isinstance(entry, CommanderCard)
        hp, lp = entry.hp, entry.lp
    main = _expand(seat, "m", deck.main)
    extra = _expand(seat, "x", deck.extra)
    tactics = tuple(ref for ref in commander_deck if ref is not leader)
    return PlayerSetup(seat, leader, hp, lp, main, len(main), extra, len(extra), tactics, len(tactics))


def initial(config: Config) -> State:
    """The state before ``MatchStarted``: options only (the deck lists come with that event)."""
    return State(options=config.options)


def setup(config: Config, rng: Rng) -> list[Event]:
    """§5.2: MatchStarted, both shuffles, the first player, opening hands, then turn 1."""
    tape = new_tape(initial(config))
    players = tuple(_player(seat, s.deck) for seat, s in enumerate(config.seats))
    tape.emit(MatchStarted("voidlink", config.options, players))
    for seat in range(SEATS):
        order = tuple(rng.shuffle(tape.state.players[seat].deck))
        tape.emit(DeckShuffled(seat, order, len(order)))
    choice = config.options.first_player
    if choice == "random":
        tape.emit(FirstPlayerChosen(rng.randrange(SEATS), "rng"))
    else:
        tape.emit(FirstPlayerChosen(int(choice), "option"))
    first = tape.state.first_seat
    n = config.options.opening_hand_size
    for seat in (first, 1 - first):
        cards = tape.state.players[seat].deck[:n]
        tape.emit(CardsDrawn(seat, cards, len(cards), "opening"))
    start_turn(tape, 1, first)
    return tape.events
