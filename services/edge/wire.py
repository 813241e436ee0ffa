"""Conversions between the service's values and the duelhall.v1 protobuf messages."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import msgspec

from engine import jsonbounds
from engine.contract import Ruleset
from engine.match import encode
from engine.seating import OPEN
from replays.format import Replay
from replays.steps import Step, recorded_time
from services.api import duelhall_pb2 as pb
from services.core.errors import InvalidArgument
from services.edge import catalog
from services.matches.bot_seats import PLAYER
from services.matches.creation import SeatEntry
from services.matches.presence import Seats
from services.matches.replies import Decision, RedactedEvent, Submitted, Viewed
from services.matches.spectators import NONE, TOKEN
from services.matches.watch import Update
from services.readmodels.lifecycle import CREATED, Change, CreateRequest, request_in
from services.readmodels.matchrows import BOT, ENDED, PUBLIC, RUNNING, MatchRow

_STATUS_TO_PB = {RUNNING: pb.MATCH_STATUS_RUNNING, ENDED: pb.MATCH_STATUS_ENDED}
STATUS_FROM_PB = {pb.MATCH_STATUS_UNSPECIFIED: "", pb.MATCH_STATUS_RUNNING: RUNNING, pb.MATCH_STATUS_ENDED: ENDED}
_SEAT_KINDS_FROM_PB = {pb.SEAT_KIND_PLAYER: PLAYER, pb.SEAT_KIND_OPEN: OPEN, pb.SEAT_KIND_BOT: BOT}


def timestamp(at: datetime) -> str:
    """RFC 3339 in UTC with a Z suffix."""
    return _timestamp(at, at.utcoffset())


@functools.lru_cache(maxsize=256)
def _timestamp(at: datetime, offset: timedelta | None) -> str:
    # A command's events share one time, and each watcher's update repeats it. The offset is part of the key:
    # equal instants in two time zones compare equal but print differently.
    return at.isoformat().replace("+00:00", "Z")


_SPECTATORS_FROM_PB: dict[int, str] = {
    pb.SPECTATORS_UNSPECIFIED: PUBLIC,
    pb.SPECTATORS_PUBLIC: PUBLIC,
    pb.SPECTATORS_TOKEN: TOKEN,
    pb.SPECTATORS_NONE: NONE,
}
_SPECTATORS_TO_PB = {PUBLIC: pb.SPECTATORS_PUBLIC, TOKEN: pb.SPECTATORS_TOKEN, NONE: pb.SPECTATORS_NONE}


def match(row: MatchRow, seats: Seats = ()) -> pb.Match:
    """The match as its row says, with each seat's presence when given (GetMatch)."""
    return pb.Match(
        match_id=row.match_id,
        ruleset=row.ruleset,
        ruleset_version=row.ruleset_version,
        seats=list(row.seats),
        status=_STATUS_TO_PB[row.status],
        version=row.version,
        outcome_json="" if row.outcome is None else msgspec.json.encode(row.outcome).decode(),
        created_at=timestamp(row.created_at),
        updated_at=timestamp(row.updated_at),
        seed_commitment=row.seed_commitment,
        labels=row.labels,
        spectators=spectators_pb(row.spectators),
        presence=presence(seats),
        seat_info=seat_info(row.seats, row.bots, row.open_seats),
        open_seats=len(row.open_seats),
    )


def seat_info(seats: Sequence[str], bots: dict[int, str], open_seats: Sequence[int] = ()) -> list[pb.SeatInfo]:
    """Every seat with its kind (an open seat has no name yet), and its level when it is a bot seat."""
    return [
        pb.SeatInfo(
            seat=seat,
            name=name,
            kind=pb.SEAT_KIND_BOT if seat in bots else pb.SEAT_KIND_OPEN if seat in open_seats else pb.SEAT_KIND_PLAYER,
            bot_level=bots.get(seat, ""),
        )
        for seat, name in enumerate(seats)
    ]


def seat_entries(specs: Sequence[pb.SeatSpec]) -> list[SeatEntry]:
    """A create request's seats; a bot seat without a name is named after its level (``greedy bot``)."""
    entries = []
    for index, spec in enumerate(specs):
        kind = _SEAT_KINDS_FROM_PB.get(spec.kind)  # an int outside the enum reaches here over the wire
        if kind is None:
            raise InvalidArgument(
                f"seats[{index}].kind {spec.kind} is not a SeatKind", reason="SEAT_KIND_UNSUPPORTED", seat=str(index)
            )
        name = spec.name or (f"{spec.bot_level} bot" if kind == BOT else "")
        config = json_object(spec.config_json, f"seats[{index}].config_json")
        entries.append(SeatEntry(name=name, config=config, kind=kind, bot_level=spec.bot_level))
    return entries


def spectators_pb(policy: str) -> pb.Spectators:
    return _SPECTATORS_TO_PB[policy]


def presence(seats: Seats) -> list[pb.SeatPresence]:
    return [pb.SeatPresence(seat=s.seat, connected=s.connected, since=timestamp(s.since)) for s in seats]


def spectators(policy: int) -> str:
    """A request's spectator policy (unspecified: public); ``InvalidArgument`` for a value not in the enum."""
    found = _SPECTATORS_FROM_PB.get(policy)  # an int outside the enum reaches here over the wire
    if found is None:
        raise InvalidArgument(f"spectators {policy} is not a Spectators value", reason="SPECTATORS_INVALID")
    return found


def lifecycle_change(change: Change) -> pb.LifecycleChange:
    kind = pb.LIFECYCLE_KIND_CREATED if change.kind == CREATED else pb.LIFECYCLE_KIND_ENDED
    return pb.LifecycleChange(
        position=change.position,
        kind=kind,
        match_id=change.match_id,
        ruleset=change.ruleset,
        seats=list(change.seats),
        labels=change.labels,
        outcome_json="" if change.outcome is None else msgspec.json.encode(change.outcome).decode(),
        version=change.version,
        recorded_at=timestamp(change.recorded_at),
    )


def redacted(event: RedactedEvent) -> pb.Event:
    """An event as its receiver may see it (hashes never leave: D-api-1)."""
    return pb.Event(
        version=event.version,
        type=event.type,
        data_json=event.data.decode(),
        actor=event.actor,
        recorded_at=timestamp(event.recorded_at),
    )


def update(sent: Update) -> pb.MatchUpdate:
    if sent.event is None:
        return pb.MatchUpdate(presence=presence(sent.presence))
    after, clock = sent.after, sent.after and sent.after.clock
    return pb.MatchUpdate(
        event=redacted(sent.event),
        view_json=sent.view.decode() if sent.view is not None else "",
        match_ended=sent.ended,
        to_act=after.to_act if after is not None else (),
        deadline=deadline(clock.seat, clock.timeout, clock.expires_at, clock.seconds) if clock else None,
    )


def turn(decided: Decision) -> pb.PlayTurn:
    return pb.PlayTurn(
        version=decided.version, to_act=decided.to_act, commands_json=[c.decode() for c in decided.commands]
    )


def submitted(result: Submitted) -> pb.SubmitCommandResponse:
    return pb.SubmitCommandResponse(
        events=[redacted(e) for e in result.events],
        version=result.version,
        duplicate=result.duplicate,
        to_act=result.to_act,
    )


def viewed(seen: Viewed) -> pb.GetViewResponse:
    return pb.GetViewResponse(
        seat=-1 if seen.viewer is None else seen.viewer,
        version=seen.version,
        view_json=seen.view.decode(),
        to_act=seen.to_act,
    )


def decision(decided: Decision) -> pb.ListLegalCommandsResponse:
    return pb.ListLegalCommandsResponse(
        seat=decided.seat,
        version=decided.version,
        commands_json=[c.decode() for c in decided.commands],
        view_json=decided.view.decode() if decided.view is not None else "",
        to_act=decided.to_act,
    )


def deadline(seat: int | None, timeout: bytes, expires_at: datetime | None, seconds: float) -> pb.Deadline:
    return pb.Deadline(
        seat=-1 if seat is None else seat,
        timeout_json=timeout.decode(),
        expires_at="" if expires_at is None else timestamp(expires_at),
        seconds=seconds,
    )


def replay_match(replay: Replay) -> pb.Match:
    """The match a replay file holds, as the API describes a stored one."""
    first, last = replay.events[0], replay.events[-1]
    created = request_in(replay.commands[0].payload.encode()) if replay.commands else CreateRequest()
    return pb.Match(
        match_id=replay.match_id,
        ruleset=replay.ruleset.id,
        ruleset_version=replay.ruleset.version,
        seats=replay.seats,
        status=pb.MATCH_STATUS_RUNNING if replay.outcome is None else pb.MATCH_STATUS_ENDED,
        version=last.version,
        outcome_json="" if replay.outcome is None else msgspec.json.encode(replay.outcome).decode(),
        created_at=_replay_time(first.recorded_at),
        updated_at=_replay_time(last.recorded_at),
        seed_commitment=replay.seed_commitment,
        seat_info=seat_info(replay.seats, created.bots),
    )


def _replay_time(text: str) -> str:
    at = recorded_time(text)
    return "" if at is None else timestamp(at)


def replay_step(step: Step) -> pb.ReplayStep:
    at = "" if step.recorded_at is None else timestamp(step.recorded_at)
    clock = None
    if step.deadline is not None:
        # A replay file's times are unchecked: one that is no time, or too late to add a clock to, gives none.
        try:
            expires = step.recorded_at + timedelta(seconds=step.deadline.seconds) if step.recorded_at else None
        except OverflowError:
            expires = None
        clock = deadline(step.deadline.seat, encode(step.deadline.timeout), expires, step.deadline.seconds)
    return pb.ReplayStep(
        event=pb.Event(
            version=step.version, type=step.type, data_json=step.data.decode(), actor=step.actor, recorded_at=at
        ),
        view_json=step.view.decode(),
        to_act=step.to_act,
        deadline=clock,
    )


def ruleset_summary(ruleset: Ruleset) -> pb.RulesetSummary:
    return pb.RulesetSummary(
        id=ruleset.id,
        version=ruleset.version,
        title=ruleset.title,
        min_seats=ruleset.min_seats,
        max_seats=ruleset.max_seats,
        card_data_hash=ruleset.card_data_hash,
    )


def ruleset_description(ruleset: Ruleset) -> pb.DescribeRulesetResponse:
    def schema(kind: Any) -> str:
        return msgspec.json.encode(msgspec.json.schema(kind)).decode()

    return pb.DescribeRulesetResponse(
        ruleset=ruleset_summary(ruleset),
        config_schema_json=schema(ruleset.Config),
        command_schema_json=schema(ruleset.Command),
        event_schema_json=schema(ruleset.Event),
        view_schema_json=schema(ruleset.View),
        presets_json=msgspec.json.encode(ruleset.presets).decode(),
        options_json=msgspec.json.encode(ruleset.options).decode(),
        cards_json=catalog.cards(catalog.package(ruleset)).decode(),
        layout_json=catalog.layout(catalog.package(ruleset)).decode(),
    )


def json_object(text: str, what: str) -> dict[str, Any]:
    """A JSON object from a request field ('' means {}); ``InvalidArgument`` otherwise."""
    if not text:
        return {}
    try:
        value = jsonbounds.decode(text.encode())
    except jsonbounds.OutOfBounds as exc:
        raise InvalidArgument(f"{what} {exc}", reason="BAD_JSON") from None
    except msgspec.DecodeError as exc:
        raise InvalidArgument(f"{what} is not valid JSON: {exc}", reason="BAD_JSON") from None
    if not isinstance(value, dict):
        raise InvalidArgument(f"{what} must be a JSON object", reason="BAD_JSON")
    return value
