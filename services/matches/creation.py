"""A create request checked and turned into what the store takes: the first events, the creating command and
the secrets (the seed and the seat tokens' hashes)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from engine.contract import SYSTEM, Ruleset
from engine.match import MatchCreated, create, encode, start, stored_type
from engine.seating import OPEN
from eventstore import CommandRecord, NewEvent
from replays.format import match_id_for
from replays.storage import SEED_SECRET
from services.core import limits
from services.core.errors import InvalidArgument
from services.matches import bot_seats, grace
from services.matches.bot_seats import PLAYER
from services.matches.caster import Caster, checked_delay
from services.matches.deadlines import NONE, folded
from services.matches.hot import HotMatch
from services.matches.loader import ruleset_for
from services.matches.spectators import POLICIES, TOKEN, Spectators
from services.matches.tokens import TOKEN_SECRET_PREFIX, new_token, token_hash
from services.readmodels.matchrows import PUBLIC

CREATE_COMMAND = "create_match"


# omit_defaults: a player's seat records (and fingerprints) as it did before seats had kinds.
class SeatEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    name: str
    config: dict[str, Any]
    kind: str = PLAYER
    """``player`` (named now), ``open`` (no name nor configuration: ``JoinSeat`` brings them) or ``bot`` (the
    server plays it at ``bot_level``, ``services/matches/bot_seats.py``)."""
    bot_level: str = ""

    @property
    def open(self) -> bool:
        return self.kind == OPEN


def open_seats(seats: Sequence[SeatEntry]) -> tuple[int, ...]:
    return tuple(i for i, seat in enumerate(seats) if seat.open)


class Creation(msgspec.Struct, frozen=True):
    """A match about to be created: its first append, and what the reply hands out."""

    ruleset: Ruleset
    match_id: str
    events: list[Any]
    """``MatchCreated``, then the ruleset's setup events."""
    command: CommandRecord
    secrets: dict[str, bytes]
    seed: bytes
    tokens: list[str]
    token_hashes: tuple[bytes, ...]
    labels: dict[str, str]
    spectators: Spectators
    spectator_token: str
    """The token that opens the spectator's view, under the ``token`` policy (else empty)."""
    caster: Caster
    caster_token: str
    """The token that opens the caster feed, when the match has one (else empty)."""
    bots: dict[int, str]
    """The bot seats' levels by seat."""
    grace: int
    """The disconnect grace in seconds (0: off, ``services/matches/grace.py``)."""

    @property
    def created(self) -> MatchCreated:
        first: MatchCreated = self.events[0]
        return first


def checked(
    ruleset_id: str,
    version: int,
    seats: Sequence[SeatEntry],
    labels: dict[str, str],
    spectators: str,
    caster_delay: int = 0,
) -> Ruleset:
    """The ruleset in this version (0: the newest), once the seats, labels, spectator policy and caster delay are
    ones it can create a match with (else ``InvalidArgument``)."""
    checked_delay(caster_delay)
    if spectators not in POLICIES:
        raise InvalidArgument(f"no spectator policy {spectators!r}", reason="SPECTATORS_INVALID")
    ruleset = ruleset_for(ruleset_id, version)
    if not ruleset.min_seats <= len(seats) <= ruleset.max_seats:
        players = (
            f"{ruleset.min_seats}"
            if ruleset.min_seats == ruleset.max_seats
            else f"{ruleset.min_seats} to {ruleset.max_seats}"
        )
        raise InvalidArgument(
            f"{ruleset.id} takes {players} seats, not {len(seats)}",
            reason="PLAYER_COUNT_INVALID",
            min=str(ruleset.min_seats),
            max=str(ruleset.max_seats),
            count=str(len(seats)),
        )
    for index, seat in enumerate(seats):
        if seat.open:
            if seat.name or seat.config:
                raise InvalidArgument(
                    f"seat {index} is open: its player names it and configures it on joining",
                    reason="OPEN_SEAT_INVALID",
                    seat=str(index),
                )
            continue
        if not seat.name.strip():
            raise InvalidArgument(f"seat {index} has no name", reason="SEAT_NAME_MISSING", seat=str(index))
        limits.name(seat.name, f"seat {index}'s name", "SEAT_NAME_INVALID", seat=str(index))
    bot_seats.check(seats)
    limits.labels(labels)
    return ruleset


def check(
    ruleset_id: str,
    seats: Sequence[SeatEntry],
    options: dict[str, Any],
    labels: dict[str, str],
    version: int,
    spectators: str,
    caster_delay: int,
) -> None:
    """Raises what ``creation`` would refuse this request with, before anything is stored (a request id's claim
    must not be spent on a request that cannot create its match)."""
    ruleset = checked(ruleset_id, version, seats, labels, spectators, caster_delay)
    ruleset.configure({"seats": [seat.config for seat in seats], "options": grace.split(options)[0]})


def creation(
    ruleset_id: str,
    version: int,
    seats: Sequence[SeatEntry],
    options: dict[str, Any],
    labels: dict[str, str],
    seed: bytes,
    tokens: Sequence[str],
    spectators: str,
    spectator_token: str,
    caster_delay: int = 0,
    caster_token: str = "",
) -> Creation:
    """The match a request creates, with a fresh seed and fresh tokens unless given; ``ConfigError`` for a bad
    configuration. Its id follows from the seed (``match_id_for``)."""
    ruleset = checked(ruleset_id, version, seats, labels, spectators, caster_delay)
    seed = seed or secrets.token_bytes(32)
    ruleset_options, grace_seconds = grace.split(options)
    config_data = {"seats": [seat.config for seat in seats], "options": ruleset_options}
    events = create(ruleset, config_data, [seat.name for seat in seats], seed, open_seats(seats))
    match_id = match_id_for(events[0].seed_commitment)
    tokens = list(tokens) or seat_tokens(seats)
    labels = dict(sorted(labels.items()))
    payload = encode(requested(ruleset_id, version, seats, options, labels, spectators, caster_delay))
    command = CommandRecord(command_id=f"create-{match_id}", actor=SYSTEM, type=CREATE_COMMAND, payload=payload)
    hashes = tuple(token_hash(token) if token else b"" for token in tokens)  # open and bot seats have none
    spectator_token = (spectator_token or new_token()) if spectators == TOKEN else ""
    watchers = Spectators(spectators, token_hash(spectator_token) if spectator_token else b"")
    caster_token = (caster_token or new_token()) if caster_delay else ""
    caster = Caster(caster_delay, token_hash(caster_token) if caster_token else b"")
    hidden = (
        {SEED_SECRET: seed}
        | {f"{TOKEN_SECRET_PREFIX}{i}": hashed for i, hashed in enumerate(hashes) if hashed}
        | watchers.secrets()
        | caster.secrets()
        | bot_seats.secrets(bot_seats.levels(seats))
        | grace.secrets(grace_seconds)
    )
    return Creation(
        ruleset,
        match_id,
        list(events),
        command,
        hidden,
        seed,
        tokens,
        hashes,
        labels,
        watchers,
        spectator_token,
        caster,
        caster_token,
        bot_seats.levels(seats),
        grace_seconds,
    )


def seat_tokens(seats: Sequence[SeatEntry]) -> list[str]:
    """A fresh token per seat; none ("") for an open seat, whose joiner gets one, nor for a bot seat, which only
    the server plays."""
    return [new_token() if seat.kind == PLAYER else "" for seat in seats]


def requested(
    ruleset_id: str,
    version: int,
    seats: Sequence[SeatEntry],
    options: dict[str, Any],
    labels: dict[str, str],
    spectators: str,
    caster_delay: int = 0,
) -> dict[str, Any]:
    """A create request as recorded and fingerprinted (the match list reads its labels and spectator policy); the
    version only when one was named, the policy only when it is not public and the caster delay only when there
    is one, so that a request for the newest version of a public match records (and fingerprints) as it did
    before any could be named. The disconnect grace is taken out of the options (the ruleset's alone, which
    replays configure it with) and recorded beside them, only when there is one."""
    options, grace_seconds = grace.split(options)
    named = {"ruleset_version": version} if version else {}
    seated = [msgspec.to_builtins(s) for s in seats]
    watched = {"spectators": spectators} if spectators != PUBLIC else {}
    return {
        "ruleset": ruleset_id,
        **named,
        "seats": seated,
        "options": options,
        "labels": dict(sorted(labels.items())),
        **watched,
        **({"caster_delay_seconds": caster_delay} if caster_delay else {}),
        **({grace.OPTION: grace_seconds} if grace_seconds else {}),
    }


def created_match(new: Creation, recorded_at: datetime) -> HotMatch:
    """The match a creation appended (at ``recorded_at``), as the manager holds it."""
    ruleset, events = new.ruleset, new.events
    match, deadlines = folded(ruleset, start(ruleset, events[0]), NONE, [(events[1:], recorded_at)])
    command_ids = {new.command.command_id: (1, len(events))}
    return HotMatch(
        new.match_id,
        ruleset,
        match,
        new.seed,
        new.token_hashes,
        command_ids,
        recorded_at,
        deadlines,
        new.spectators,
        new.caster,
        bots=new.bots,
        grace=new.grace,
    )


def new_events(ruleset: Ruleset, events: Sequence[Any]) -> list[NewEvent]:
    """Events as the store takes them: their types as stored (tag and schema) and JSON."""
    return [NewEvent(type=stored_type(ruleset, e), data=encode(e)) for e in events]
