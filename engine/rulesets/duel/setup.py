"""Configuration checks, the public configuration, the initial state and the setup events (duel.md §4, §5, §11,
D1-D3, D28)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from engine.errors import ConfigError, ConfigProblem
from engine.options import option_problems
from engine.rng import Rng
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.data import PRESETS
from engine.rulesets.duel.decks import deck_problems
from engine.rulesets.duel.evolve import evolve
from engine.rulesets.duel.model.events import (
    CardDrawn,
    DeckShuffled,
    DuelCreated,
    Event,
    FirstPlayerDecided,
    SeatDeck,
)
from engine.rulesets.duel.model.state import (
    SEATS,
    CardRef,
    Config,
    DeckList,
    Options,
    SeatConfig,
    State,
    card_of,
    instance_id,
)
from engine.rulesets.duel.resolve.end import check_end
from engine.rulesets.duel.resolve.turn import settle, start_turn
from engine.tape import Tape

OPENING_HAND = 5
DEFAULT_DECKS = ("starter_a", "starter_b")


class DuelConfigError(ConfigError):
    """A configuration that fails §4: ``errors`` lists every problem, the first one is the primary code."""

    def __init__(self, errors: Sequence[ConfigProblem]) -> None:
        first = errors[0]
        super().__init__(first.code, first.seat, msgspec.json.encode([_reported(e) for e in errors]).decode())
        self.errors = tuple(errors)


def _reported(problem: ConfigProblem) -> dict[str, Any]:
    """A problem as §4 reports it: its code and seat, then only the details its check names."""
    return {key: value for key, value in msgspec.structs.asdict(problem).items() if value is not None or key == "seat"}


def _config_problems(data: Any) -> list[ConfigProblem]:
    """§4 configuration checks: CONFIG_INVALID, then UNKNOWN_PRESET by seat, then OPTION_INVALID by key."""
    if not isinstance(data, dict) or not set(data) <= {"seats", "options"}:
        return [ConfigProblem(Code.CONFIG_INVALID)]
    seats, options = data.get("seats"), data.get("options", {})
    shaped = (
        isinstance(seats, list)
        and len(seats) == 2
        and isinstance(options, dict)
        and all(isinstance(s, dict) and set(s) <= {"deck"} and isinstance(s.get("deck", ""), str | dict) for s in seats)
    )
    if not shaped:
        return [ConfigProblem(Code.CONFIG_INVALID)]
    problems = [
        ConfigProblem(Code.UNKNOWN_PRESET, seat)
        for seat, deck in enumerate(_decks(data))
        if isinstance(deck, str) and deck not in PRESETS
    ]
    # unknown names and invalid values alike, by name in sorted order
    problems += (ConfigProblem(Code.OPTION_INVALID, key=p.name) for p in option_problems(options, Options))
    return problems


def _decks(data: Any) -> list[Any]:
    """Each seat's deck; a seat entry without one gets the spec's scenario default (docs/rulesets/duel.md)."""
    return [entry.get("deck", DEFAULT_DECKS[seat]) for seat, entry in enumerate(data["seats"])]


def configure(data: Any) -> Config:
    """A validated, self-contained configuration (presets expanded); raises ``DuelConfigError`` (§4)."""
    problems = _config_problems(data)
    if problems:
        raise DuelConfigError(problems)
    decks = [PRESETS[d] if isinstance(d, str) else d for d in _decks(data)]
    problems = [p for seat, deck in enumerate(decks) for p in deck_problems(seat, deck)]
    if problems:
        raise DuelConfigError(problems)
    seats = tuple(SeatConfig(msgspec.convert(deck, DeckList)) for deck in decks)
    return Config(seats=seats, options=msgspec.convert(data.get("options", {}), Options))


def public_config(config: Config) -> Config:
    """The configuration every viewer may see (§11), kept in the public ``MatchCreated``: the options, with every
    deck list left empty. Another seat's decks are hidden but for their sizes, and instance ids are deck positions
    (§3.2), so the lists reach each seat only through its own ``DuelCreated``, which the fold reads them from."""
    return replace(config, seats=tuple(SeatConfig(DeckList(main=())) for _ in config.seats))


def initial(config: Config) -> State:
    """The state before ``DuelCreated``: options only, empty zones. It reads no deck list, so the public
    configuration gives the same state as the full one."""
    return State(options=config.options)


def setup(config: Config, rng: Rng) -> list[Event]:
    """§5 steps 2-7: creation, first player, shuffles, opening hands, the first turn."""
    tape = Tape(initial(config), evolve)
    decks = tuple(_seat_deck(seat, entry.deck) for seat, entry in enumerate(config.seats))
    tape.emit(DuelCreated(config.options, decks))
    first = config.options.first_player
    if first == "coin":
        r = rng.randint(0, 1)
        tape.emit(FirstPlayerDecided("coin", "heads" if r == 0 else "tails", r))
    else:
        tape.emit(FirstPlayerDecided("fixed", None, int(first)))
    for seat in SEATS:
        tape.emit(DeckShuffled(seat=seat, order=tuple(rng.shuffle(tape.state.sides[seat].deck))))
    first_seat = tape.state.first_seat
    for seat in (first_seat, 1 - first_seat):
        for _ in range(OPENING_HAND):
            deck = tape.state.sides[seat].deck
            card_id = card_of(tape.state, deck[0])
            tape.emit(CardDrawn(seat=seat, instance=deck[0], card_id=card_id, deck_count=len(deck) - 1))
    check_end(tape)
    if not tape.state.ended:
        start_turn(tape, 1, first_seat)
        settle(tape)
    return tape.events


def _seat_deck(seat: int, deck: DeckList) -> SeatDeck:
    def refs(section: str, cards: tuple[str, ...]) -> tuple[CardRef, ...]:
        return tuple(CardRef(instance_id(seat, section, i), card_id) for i, card_id in enumerate(cards))

    return SeatDeck(seat=seat, main=refs("m", deck.main), extra=refs("x", deck.extra), side=refs("s", deck.side))
