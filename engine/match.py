"""A match as events: the ruleset-agnostic first event ``MatchCreated``, creation, folding and deciding.

Every stream starts with ``MatchCreated`` (ARCHITECTURE.md), then the ruleset's setup events in the same append;
a match created with open seats is seated first (``engine/seating.py``), its setup appended by the last join.
``v``, the RNG stream key of a command, is the version of the first event the command appends.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

import msgspec

from engine.commands import decode_command
from engine.contract import CONCEDE, SCHEMA_MARK, Actor, Ruleset, Viewer, schema_type
from engine.errors import Rejected
from engine.rng import Rng
from engine.seating import SEAT_JOINED, SEATS_FILLED, Join, SeatJoined, SeatsFilled

MATCH_CREATED = "MatchCreated"
MATCH_LEVEL = frozenset({MATCH_CREATED, SEAT_JOINED, SEATS_FILLED})
"""The events of every match that no ruleset knows of: public, never redacted."""
S = TypeVar("S")


# omit_defaults: a match without open seats encodes its ``MatchCreated`` byte for byte as before they existed.
class MatchCreated(msgspec.Struct, frozen=True, tag_field="type", tag=MATCH_CREATED, omit_defaults=True):
    """The first event of every match stream, public; ``config`` is the ruleset's public configuration.

    With ``open_seats`` the match is seating: those seats have no name yet and ``config`` is empty until
    ``SeatsFilled``. A folded match's ``created`` shows the seating as it stands (names joined, seats open)."""

    ruleset: str
    version: int
    card_data_hash: str
    seats: tuple[str, ...]
    config: dict[str, Any]
    seed_commitment: str
    open_seats: tuple[int, ...] = ()


class Match(msgspec.Struct, frozen=True):
    """A folded match: its ``created`` event, the ruleset state and the stream version it reflects. A match still
    seating (open seats) has neither configuration nor state: both are None."""

    created: MatchCreated
    config: Any
    state: Any
    version: int

    @property
    def seating(self) -> bool:
        """Whether the match waits for open seats to be joined (no setup has run)."""
        return self.state is None


def seed_commitment(seed: bytes) -> str:
    """Hex SHA-256 of the seed: published at creation, checked against the seed revealed later."""
    return hashlib.sha256(seed).hexdigest()


def create(
    ruleset: Ruleset, config_data: Any, seat_names: Sequence[str], seed: bytes, open_seats: Sequence[int] = ()
) -> list[Any]:
    """The creation append: ``MatchCreated`` then the setup events (RNG stream v = 1); with ``open_seats``
    (named "", configured ``{}``: the configuration checks the other seats) ``MatchCreated`` alone.

    ``config_data`` is JSON-like; ``ConfigError`` is raised for an invalid configuration.
    """
    config = ruleset.configure(config_data)
    created = MatchCreated(
        ruleset=ruleset.id,
        version=ruleset.version,
        card_data_hash=ruleset.card_data_hash,
        seats=tuple(seat_names),
        config={} if open_seats else _public(ruleset, config),
        seed_commitment=seed_commitment(seed),
        open_seats=tuple(open_seats),
    )
    return [created] if open_seats else [created, *ruleset.setup(config, Rng(seed, 1))]


def _public(ruleset: Ruleset, config: Any) -> dict[str, Any]:
    public: dict[str, Any] = msgspec.json.decode(_encoder.encode(ruleset.public_config(config)))
    return public


def start(ruleset: Ruleset, created: MatchCreated, version: int = 1) -> Match:
    """The match right after its ``MatchCreated`` event (or, seated, its ``SeatsFilled`` at ``version``), before
    any setup event; a match with open seats is seating."""
    if created.open_seats:
        return Match(created=created, config=None, state=None, version=version)
    config: Any = msgspec.convert(created.config, ruleset.Config)
    return Match(created=created, config=config, state=ruleset.initial(config), version=version)


def apply(ruleset: Ruleset, match: Match, events: Iterable[Any]) -> Match:
    """Folds events (ruleset events, or a seating's) onto a match."""
    state, version = match.state, match.version
    for event in events:
        if isinstance(event, SeatJoined | SeatsFilled):
            match = _seated(ruleset, msgspec.structs.replace(match, state=state, version=version), event)
            state, version = match.state, match.version
            continue
        state = ruleset.evolve(state, event)
        version += 1
    return msgspec.structs.replace(match, state=state, version=version)


def _seated(ruleset: Ruleset, match: Match, event: SeatJoined | SeatsFilled) -> Match:
    created = match.created
    if isinstance(event, SeatsFilled):
        return start(ruleset, msgspec.structs.replace(created, config=event.config), match.version + 1)
    seats = tuple(event.name if i == event.seat else name for i, name in enumerate(created.seats))
    still_open = tuple(seat for seat in created.open_seats if seat != event.seat)
    joined = msgspec.structs.replace(created, seats=seats, open_seats=still_open)
    return msgspec.structs.replace(match, created=joined, version=match.version + 1)


def join(ruleset: Ruleset, match: Match, joined: Join, configs: Sequence[Any], options: Any, seed: bytes) -> Decided:
    """A ``join_seat`` command's events and the match after them: ``SeatJoined``, and once no seat is left open
    ``SeatsFilled`` and the setup events (RNG stream v = the join's first version). ``configs``: every seat's
    configuration as requested so far (an open seat's ``{}``); ``ConfigError`` when the joiner's is invalid,
    ``Rejected(NO_OPEN_SEAT)`` when its seat is not open."""
    if joined.seat not in match.created.open_seats:
        raise Rejected("NO_OPEN_SEAT", f"seat {joined.seat} is not open")
    seats = [joined.config if i == joined.seat else config for i, config in enumerate(configs)]
    config = ruleset.configure({"seats": seats, "options": options})
    events: list[Any] = [SeatJoined(seat=joined.seat, name=joined.name)]
    if match.created.open_seats == (joined.seat,):
        events += [SeatsFilled(config=_public(ruleset, config)), *ruleset.setup(config, Rng(seed, match.version + 1))]
    return Decided(joined, events, apply(ruleset, match, events))


def view_of(ruleset: Ruleset, match: Match, viewer: Viewer) -> Any:
    """What ``viewer`` sees of the match; of a match still seating, the seating (names and open seats)."""
    if match.seating:
        return {"seating": {"seats": match.created.seats, "open_seats": match.created.open_seats}}
    return ruleset.view(match.state, viewer)


def to_act_of(ruleset: Ruleset, match: Match) -> tuple[int, ...]:
    """The seats the match waits on: none while it is seating (it waits on joiners, not on seats)."""
    return () if match.seating else tuple(ruleset.to_act(match.state))


def fold(ruleset: Ruleset, events: Sequence[Any]) -> Match:
    """The match from its full event list (``MatchCreated`` first)."""
    return apply(ruleset, start(ruleset, events[0]), events[1:])


class Decided(msgspec.Struct, frozen=True):
    command: Any
    events: Sequence[Any]
    match: Match
    """The match after the events."""


def decide(ruleset: Ruleset, match: Match, actor: Actor, raw: bytes, seed: bytes) -> Decided:
    """The command given as JSON bytes, its events and the match after them; RNG stream = next version."""
    command = decode_command(ruleset, match.state, actor, raw)
    return decide_command(ruleset, match, actor, command, seed)


def decide_command(ruleset: Ruleset, match: Match, actor: Actor, command: Any, seed: bytes) -> Decided:
    """A typed command's events and the match after them, folded once."""
    events, state = ruleset.decide_folded(match.state, actor, command, Rng(seed, match.version + 1))
    after = msgspec.structs.replace(match, state=state, version=match.version + len(events))
    return Decided(command, events, after)


class _SnapshotBody(msgspec.Struct, Generic[S], frozen=True):
    version: int
    state: S


def snapshot(match: Match) -> bytes:
    """The match's state and version as JSON: a cache entry, never the truth."""
    return _encoder.encode(_SnapshotBody(version=match.version, state=match.state))


def restore(ruleset: Ruleset, created: MatchCreated, data: bytes) -> Match | None:
    """The match from a snapshot, or None when the snapshot does not decode as this ruleset's state."""
    try:
        body = msgspec.json.decode(data, type=_SnapshotBody[ruleset.State])  # type: ignore[name-defined]
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    return msgspec.structs.replace(start(ruleset, created), state=body.state, version=body.version)


class EventDecoder:
    """Decodes the events of a ruleset's streams (``MatchCreated`` included) from their type as stored and their
    bytes. An event at its type's current schema decodes straight into its class; one at an older schema is
    decoded as JSON, taken through the ruleset's upcasters to the current schema, then converted. The stored
    bytes are never re-encoded: the hash chain covers them as they are."""

    def __init__(self, ruleset: Ruleset) -> None:
        self._union: Any = MatchCreated | SeatJoined | SeatsFilled | ruleset.Event
        self._typed = msgspec.json.Decoder(self._union)
        self._current = frozenset({*MATCH_LEVEL, *ruleset.stored_types.values()})
        self._upcasters = ruleset.upcasters

    def is_current(self, stored_type: str) -> bool:
        """Whether events of this stored type are at their type's current schema (no upcasting)."""
        return stored_type in self._current

    def decode(self, stored_type: str, data: bytes | str) -> Any:
        """The event, at its type's current schema; ``msgspec.ValidationError`` for a type the ruleset has not or
        data that does not upcast."""
        if stored_type in self._current:
            return self._typed.decode(data)
        tag, mark, schema = stored_type.partition(SCHEMA_MARK)
        chain = self._upcasters.get(tag, ())
        old = int(schema) if schema.isascii() and schema.isdigit() else 1 if not mark else 0
        raw = msgspec.json.decode(data)
        if not 1 <= old <= len(chain) or stored_type != schema_type(tag, old) or not isinstance(raw, dict):
            raise msgspec.ValidationError(f"unknown event type {stored_type!r}")
        try:
            for upcaster in chain[old - 1 :]:
                raw = upcaster(raw)
        except (KeyError, TypeError, ValueError) as exc:  # a stored (or a replay file's) event of another shape
            raise msgspec.ValidationError(f"{stored_type} does not upcast: {exc!r}") from None
        return msgspec.convert(raw, self._union)


def stored_type(ruleset: Ruleset, event: Any) -> str:
    """The type an event is stored under, at its type's current schema (``MatchCreated``: its tag)."""
    tag = type_tag(event)
    return ruleset.stored_types.get(tag, tag)


_encoder = msgspec.json.Encoder()


def encode(value: Any) -> bytes:
    """Canonical JSON of an event, command or view (field order = declaration order)."""
    return _encoder.encode(value)


def type_tag(value: Any) -> str:
    """The ``type`` tag of an event or a command."""
    return str(value.__struct_config__.tag)


def playable(commands: Sequence[Any]) -> list[Any]:
    """A bot's choices among a seat's legal commands: concession left out while there is another."""
    return [c for c in commands if type_tag(c) != CONCEDE] or list(commands)
