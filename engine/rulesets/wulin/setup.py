"""Match configuration and setup of wulin (docs/rulesets/wulin.md §3.8, §4, §5).

``configure`` validates JSON-like data (options first, then every deck check of §4, all problems collected)
and expands presets, so the returned ``Config`` is self-contained; ``setup`` is a pure function of it and
the RNG, calling the RNG in exactly the order of §5.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from engine.errors import ConfigError, ConfigProblem
from engine.options import check_options
from engine.rng import Rng
from engine.rulesets.wulin.codes import Code
from engine.rulesets.wulin.data import ATTRIBUTES, CATALOG, PRESET_ATTRIBUTES, PRESETS, Attribute, BattleCard, QiCard
from engine.rulesets.wulin.evolve import evolve
from engine.rulesets.wulin.model import Config, Event, Options, State
from engine.rulesets.wulin.model.events import (
    CardsDrawn,
    ClockRestarted,
    FirstPlayerDecided,
    Hero,
    LibraryShuffled,
    OpeningReshuffled,
    WulinCreated,
)
from engine.rulesets.wulin.model.state import SeatConfig, Side
from engine.rulesets.wulin.resolve import HAND_SIZE, start_phase
from engine.tape import Tape

SEATS = 2
DECK_SIZE = 32
MIN_QI = 10
MIN_BATTLE = 8
MAX_COPIES = {
    "none": (Code.TOO_MANY_COPIES, 3),
    "semi_limited": (Code.SEMI_LIMITED_EXCEEDED, 2),
    "limited": (Code.LIMITED_EXCEEDED, 1),
}
DEFAULT_DECKS = ("starter_a", "starter_b")
THROWS = ("rock", "paper", "scissors")


def configure(data: Any) -> Config:
    """The validated configuration, or ``ConfigError`` for the first problem with every problem in its detail."""
    config, problems = check_config(data)
    if problems:
        first = problems[0]
        detail = "; ".join(f"{p.code}({p.detail})" for p in problems)
        raise ConfigError(first.code, first.seat, detail)
    assert config is not None
    return config


def check_config(data: Any) -> tuple[Config | None, list[ConfigProblem]]:
    """§4: the configuration and every deck problem, ordered by seat, check number and card id."""
    if not isinstance(data, dict) or set(data) - {"seats", "options"}:
        raise ConfigError(Code.BAD_CONFIG, None, "expected an object with 'seats' and 'options'")
    seats = data.get("seats", [])
    if not isinstance(seats, list):
        raise ConfigError(Code.BAD_CONFIG, None, "'seats' must be a list")
    if len(seats) != SEATS:
        raise ConfigError(Code.PLAYER_COUNT_INVALID, None, f"wulin needs exactly {SEATS} seats")
    options = check_options(data.get("options", {}), Options, unknown=Code.OPTION_UNKNOWN, invalid=Code.OPTION_INVALID)
    problems: list[ConfigProblem] = []
    configs = []
    for seat, entry in enumerate(seats):
        config, found = _check_seat(seat, entry)
        configs.append(config)
        problems.extend(found)
    if problems:
        return None, problems
    return Config(seats=tuple(c for c in configs if c is not None), options=options), []


def _check_seat(seat: int, entry: Any) -> tuple[SeatConfig | None, list[ConfigProblem]]:
    if not isinstance(entry, dict) or set(entry) - {"deck", "hero_attribute"}:
        raise ConfigError(Code.BAD_CONFIG, seat, "a seat holds only 'deck' and 'hero_attribute'")
    deck = entry.get("deck", DEFAULT_DECKS[seat])
    hero = entry.get("hero_attribute")
    problems: list[ConfigProblem] = []

    def problem(code: str, detail: str) -> None:
        problems.append(ConfigProblem(code, seat, detail))

    cards: list[str] | None
    if isinstance(deck, str):
        if deck in PRESETS:
            cards = list(PRESETS[deck])
            hero = PRESET_ATTRIBUTES[deck] if hero is None else hero
        else:
            problem(Code.DECK_UNKNOWN_PRESET, deck)
            cards = None
    elif isinstance(deck, list) and all(isinstance(card, str) for card in deck):
        cards = list(deck)
    else:
        raise ConfigError(Code.BAD_CONFIG, seat, "a deck is a preset name or a list of card ids")
    if cards is not None:
        _check_cards(cards, problem)
    if (cards is not None or hero is not None) and hero not in ATTRIBUTES:
        problem(Code.HERO_ATTRIBUTE_INVALID, str(hero))
    if problems or cards is None:
        return None, problems
    return SeatConfig(hero_attribute=msgspec.convert(hero, Attribute), deck=tuple(cards)), []


def _check_cards(cards: list[str], problem: Any) -> None:
    """Checks 2-9 of §4 for one deck."""
    unknown = sorted({card for card in cards if card not in CATALOG})
    if unknown:
        problem(Code.UNKNOWN_CARD_ID, ",".join(unknown))
        return
    if len(cards) < DECK_SIZE:
        problem(Code.DECK_TOO_SMALL, str(len(cards)))
    if len(cards) > DECK_SIZE:
        problem(Code.DECK_TOO_LARGE, str(len(cards)))
    qi = sum(isinstance(CATALOG[card], QiCard) for card in cards)
    if qi < MIN_QI:
        problem(Code.TOO_FEW_QI_CARDS, str(qi))
    battle = sum(isinstance(CATALOG[card], BattleCard) for card in cards)
    if battle < MIN_BATTLE:
        problem(Code.TOO_FEW_BATTLE_CARDS, str(battle))
    counts = Counter(cards)
    for limit, (code, most) in MAX_COPIES.items():
        for card_id in sorted(counts):
            entry = CATALOG[card_id]
            if entry.limit == limit and not isinstance(entry, QiCard) and counts[card_id] > most:
                problem(code, f"{card_id},{counts[card_id]},{most}")


def public_config(config: Config) -> Config:
    """The configuration every viewer may see: deck lists stay private (§5 step 1)."""
    return Config(
        seats=tuple(SeatConfig(hero_attribute=s.hero_attribute) for s in config.seats), options=config.options
    )


def initial(config: Config) -> State:
    """The state before the first setup event: heroes only, empty zones."""
    options = config.options
    sides = tuple(
        Side(
            hp=options.starting_hp,
            max_hp=options.starting_hp,
            qi=options.starting_qi,
            hero_attribute=seat.hero_attribute,
        )
        for seat in config.seats
    )
    return State(options=options, sides=sides)


def _opening_ok(top: list[str]) -> bool:
    kinds = [CATALOG[card] for card in top]
    return any(isinstance(k, BattleCard) for k in kinds) and any(isinstance(k, QiCard) for k in kinds)


def setup(config: Config, rng: Rng) -> list[Event]:
    """§5: WulinCreated, rock-paper-scissors, the opening shuffles, both hands, phase 1 and its clock."""
    tape: Tape[State, Event] = Tape(initial(config), evolve)
    options = config.options
    heroes = tuple(
        Hero(seat, s.hero_attribute, options.starting_hp, options.starting_qi) for seat, s in enumerate(config.seats)
    )
    tape.emit(WulinCreated(options, heroes, tuple(len(s.deck) for s in config.seats)))
    throws = []
    while True:
        t0, t1 = rng.randbelow(3), rng.randbelow(3)
        throws.append((THROWS[t0], THROWS[t1]))
        if t0 != t1:
            break
    first = 0 if (t0 - t1) % 3 == 1 else 1
    tape.emit(FirstPlayerDecided(tuple(throws), first))
    for seat, entry in enumerate(config.seats):
        cards = list(entry.deck)
        attempt = 1
        while True:
            cards = rng.shuffle(cards)
            if _opening_ok(cards[:HAND_SIZE]):
                break
            tape.emit(OpeningReshuffled(seat, attempt))
            attempt += 1
        tape.emit(LibraryShuffled(seat, attempt, tuple(cards), len(cards)))
    for seat in range(SEATS):
        drawn = tape.state.sides[seat].library[:HAND_SIZE]
        tape.emit(CardsDrawn(seat, drawn, tuple(tape.state.card_ids[i] for i in drawn), len(drawn)))
    start_phase(tape, first, 1)
    tape.emit(ClockRestarted(first, 1, options.action_timer_s))
    return tape.events
