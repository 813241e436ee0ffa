"""Replay verification, in order: format, ruleset, chain, times, fold and outcome, seed, re-execution.

Each failure names its check and the first bad event version (0 when no single event is at fault). A verdict
also names what its checks do not cover: the times and command records of chain-1 events (a file, or the start
of a match, recorded before chain 2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from engine import jsonbounds, registry
from engine.contract import SCHEMA_MARK, SYSTEM, Actor, Ruleset
from engine.errors import ConfigError, Rejected
from engine.match import EventDecoder, MatchCreated, apply, create, decide, encode, fold, join, seed_commitment
from engine.seating import JOIN_COMMAND, decode_join, requested_seats
from eventstore import GENESIS_HASH, CommandRecord, chain2_hash, chain_hash, command_digest
from replays.format import (
    FORMAT,
    READABLE_VERSIONS,
    Replay,
    ReplayCommand,
    ReplayEvent,
    decode_replay,
    format_time,
    match_id_for,
    time_micros,
)

CHECKS = ("format", "ruleset", "chain", "times", "fold", "outcome", "seed", "reexecute")
MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_COMMAND_ID = 128
MAX_PART_BYTES = 1024 * 1024
"""Bytes of one event's data or one command's payload inside a replay."""


class Failure(msgspec.Struct, frozen=True):
    check: str
    version: int
    message: str

    def __str__(self) -> str:
        where = f" at version {self.version}" if self.version else ""
        return f"{self.check}{where}: {self.message}"


class Verdict(msgspec.Struct, frozen=True):
    ok: bool
    checks: list[str]
    """The checks that passed, in order."""
    failure: Failure | None = None
    replay: Replay | None = None
    uncovered: list[str] = []
    """What of the file no check covers, one sentence each (empty: every field is covered)."""


class _Failed(Exception):
    def __init__(self, check: str, version: int, message: str) -> None:
        super().__init__(message)
        self.failure = Failure(check=check, version=version, message=message)


def verify_bytes(data: bytes) -> Verdict:
    """Runs every check on a replay file's bytes; stops at the first failure."""
    passed: list[str] = []
    replay = None
    try:
        replay = _parse(data)
        passed.append("format")
        for check, run in _steps(replay):
            run()
            passed.append(check)
    except _Failed as failed:
        missed = [] if replay is None else uncovered(replay)
        return Verdict(ok=False, checks=passed, failure=failed.failure, replay=replay, uncovered=missed)
    return Verdict(ok=True, checks=passed, replay=replay, uncovered=uncovered(replay))


def uncovered(replay: Replay) -> list[str]:
    """The parts of ``replay`` no check covers: the times and command records of its chain-1 events."""
    old = [event.version for event in replay.events if event.chain == 1]
    if not old:
        return []
    versions = f"version {old[0]}" if len(old) == 1 else f"versions {old[0]}-{old[-1]}"
    return [
        f"recorded_at of {versions}: chain 1 does not hash times, and no check reads them",
        f"the command records of {versions} (command_id, actor, type, payload text): chain 1 does not hash them; "
        "re-execution checks only that their payloads and versions produce the recorded events",
    ]


def _parse(data: bytes) -> Replay:
    try:
        jsonbounds.decode(data, MAX_FILE_BYTES)
        replay = decode_replay(data)
    except jsonbounds.OutOfBounds as exc:
        raise _Failed("format", 0, f"the file {exc}") from None
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise _Failed("format", 0, f"not a replay file: {exc}") from None
    if replay.format != FORMAT or replay.format_version not in READABLE_VERSIONS:
        raise _Failed("format", 0, f"unsupported format {replay.format!r} version {replay.format_version}")
    chains = (1,) if replay.format_version == 1 else (1, 2)
    for event in replay.events:
        if event.chain not in chains:
            raise _Failed("format", event.version, f"no chain {event.chain} in format version {replay.format_version}")
    for command in replay.commands:
        if not (command.command_id.isprintable() and len(command.command_id) <= MAX_COMMAND_ID):
            raise _Failed("format", 0, f"a command id must be at most {MAX_COMMAND_ID} printable characters")
    return replay


def _steps(replay: Replay) -> Iterator[tuple[str, Any]]:
    ruleset = _ruleset(replay)
    yield "ruleset", lambda: None
    yield "chain", lambda: _check_chain(replay)
    yield "times", lambda: _check_times(replay)
    folded: dict[str, Any] = {}
    yield "fold", lambda: folded.update(events=_check_fold(replay, ruleset))
    yield "outcome", lambda: _check_outcome(replay, ruleset, folded["events"])
    yield "seed", lambda: _check_seed(replay)
    yield "reexecute", lambda: _check_reexecution(replay, ruleset, folded["events"])


def _ruleset(replay: Replay) -> Ruleset:
    ref = replay.ruleset
    if ref.id not in registry.RULESETS:
        raise _Failed("ruleset", 0, f"ruleset {ref.id!r} is not hosted here")
    try:
        return registry.exact(ref.id, ref.version, ref.card_data_hash)
    except registry.Unhosted as exc:
        raise _Failed("ruleset", 0, exc.message) from None


def _check_chain(replay: Replay) -> None:
    """Each event's hash, by its chain: chain 2 also covers its time and its command record, so a file with
    chain-2 events must have commands that cover the events exactly, one after another."""
    digests = _command_digests(replay) if any(event.chain == 2 for event in replay.events) else {}
    prev, chain = GENESIS_HASH, 1
    for index, event in enumerate(replay.events):
        version = index + 1
        if event.version != version:
            raise _Failed("chain", version, f"event {index} has version {event.version}, expected {version}")
        if event.chain < chain:
            raise _Failed("chain", version, f"chain {event.chain} after chain {chain}: a stream never goes back")
        chain = event.chain
        data = event.data.encode()
        if chain == 1:
            expected = chain_hash(prev, version, event.type, data)
        else:
            micros = time_micros(event.recorded_at)
            if micros is None:
                raise _Failed("chain", version, f"recorded_at {event.recorded_at!r} is no ISO 8601 time")
            expected = chain2_hash(prev, version, event.type, data, micros, digests[version])
        if event.hash != expected.hex():
            covered = "content" if chain == 1 else "content, time and command record"
            raise _Failed("chain", version, f"hash does not match the event's {covered} and its predecessor")
        prev = expected
    if replay.head_hash != prev.hex():
        raise _Failed("chain", len(replay.events), "head_hash is not the hash of the last event")


def _command_digests(replay: Replay) -> dict[int, bytes]:
    """The command digest each version is linked with; the commands must cover versions 1..n in turn."""
    digests: dict[int, bytes] = {}
    expected = 1
    for command in replay.commands:
        if command.first_version != expected or not expected <= command.last_version <= len(replay.events):
            raise _Failed(
                "chain",
                expected,
                f"command {command.command_id} covers versions {command.first_version}-{command.last_version}, "
                f"the next command must start at {expected} and end by {len(replay.events)}",
            )
        digest = command_digest(_record(command))
        digests.update((version, digest) for version in range(command.first_version, command.last_version + 1))
        expected = command.last_version + 1
    if expected != len(replay.events) + 1:
        raise _Failed("chain", expected, f"no command record covers version {expected}")
    return digests


def _record(command: ReplayCommand) -> CommandRecord:
    return CommandRecord(command.command_id, command.actor, command.type, command.payload.encode())


def _check_times(replay: Replay) -> None:
    """Chain-2 times are written in their one form (``format_time``) and never run backwards."""
    latest = None
    for event in replay.events:
        if event.chain != 2:
            continue
        micros = time_micros(event.recorded_at)
        if micros is None or format_time(micros) != event.recorded_at:
            raise _Failed("times", event.version, f"recorded_at {event.recorded_at!r} is not in its one form")
        if latest is not None and micros < latest:
            raise _Failed("times", event.version, f"recorded_at {event.recorded_at} is before the previous event's")
        latest = micros


def _check_fold(replay: Replay, ruleset: Ruleset) -> list[Any]:
    decoder = EventDecoder(ruleset)
    events: list[Any] = []
    for event in replay.events:
        try:
            jsonbounds.decode(event.data, MAX_PART_BYTES)
            decoded = decoder.decode(event.type, event.data)
        except jsonbounds.OutOfBounds as exc:
            raise _Failed("fold", event.version, f"the event's data {exc}") from None
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise _Failed("fold", event.version, f"event does not decode: {exc}") from None
        if type(decoded).__struct_config__.tag != event.type.partition(SCHEMA_MARK)[0]:
            raise _Failed("fold", event.version, f"type {event.type!r} differs from the data's type")
        events.append(decoded)
    if not events or not isinstance(events[0], MatchCreated):
        raise _Failed("fold", 1, "the first event is not MatchCreated")
    try:
        folded = fold(ruleset, events)
    except Exception as exc:
        raise _Failed("fold", _failing_version(ruleset, events), f"folding failed: {exc!r}") from None
    # The header shows the match as seated: a match created with open seats names its players as they joined.
    created = folded.created
    header = (
        replay.ruleset.id,
        replay.ruleset.version,
        replay.ruleset.card_data_hash,
        tuple(replay.seats),
        replay.config,
        replay.seed_commitment,
    )
    if header != (
        created.ruleset,
        created.version,
        created.card_data_hash,
        created.seats,
        created.config,
        created.seed_commitment,
    ):
        raise _Failed("fold", 1, "the replay header differs from MatchCreated")
    if replay.match_id != match_id_for(created.seed_commitment):
        raise _Failed("fold", 1, "match_id is not the id MatchCreated's seed commitment gives")
    return events


def _failing_version(ruleset: Ruleset, events: list[Any]) -> int:
    for version in range(1, len(events) + 1):
        try:
            fold(ruleset, events[:version])
        except Exception:
            return version
    return 0


def _check_outcome(replay: Replay, ruleset: Ruleset, events: list[Any]) -> None:
    folded = fold(ruleset, events)
    outcome = None if folded.seating else ruleset.outcome(folded.state)
    if outcome != replay.outcome:
        raise _Failed("outcome", len(events), f"folding gives outcome {outcome}, the replay says {replay.outcome}")


def _check_seed(replay: Replay) -> None:
    if replay.seed is None:
        raise _Failed("seed", 0, "the replay has no seed (exported before the match ended): cannot re-execute")
    try:
        seed = bytes.fromhex(replay.seed)
    except ValueError:
        raise _Failed("seed", 0, "the seed is not hex") from None
    if replay.seed != seed.hex():  # fromhex skips spaces and takes capitals: one text per seed
        raise _Failed("seed", 0, "the seed is not written as lowercase hex digits alone")
    if seed_commitment(seed) != replay.seed_commitment:
        raise _Failed("seed", 1, "sha256(seed) differs from the commitment in MatchCreated")


def _check_reexecution(replay: Replay, ruleset: Ruleset, events: list[Any]) -> None:
    seed = bytes.fromhex(replay.seed or "")
    recorded = replay.events
    current = EventDecoder(ruleset).is_current
    match = None
    expected_first = 1
    seating = _Seating()
    for command in replay.commands:
        if command.first_version != expected_first or command.last_version < command.first_version:
            raise _Failed(
                "reexecute", expected_first, f"command {command.command_id} does not start at version {expected_first}"
            )
        produced = _execute(ruleset, match, command, seed, seating)
        for offset, event in enumerate(produced):
            version = command.first_version + offset
            if version > command.last_version or not _same(event, recorded[version - 1], events[version - 1], current):
                raise _Failed(
                    "reexecute",
                    version,
                    f"command {command.command_id} ({command.type}) produces a different event at version {version}",
                )
        if command.first_version + len(produced) - 1 != command.last_version:
            raise _Failed(
                "reexecute",
                command.first_version + len(produced),
                f"command {command.command_id} produces fewer events than recorded",
            )
        done = events[command.first_version - 1 : command.last_version]
        match = fold(ruleset, done) if match is None else apply(ruleset, match, done)
        expected_first = command.last_version + 1
    if expected_first != len(recorded) + 1:
        raise _Failed("reexecute", expected_first, "events after the last command")


def _same(produced: Any, recorded: ReplayEvent, upcast: Any, current: Callable[[str], bool]) -> bool:
    """Whether re-execution produced the recorded event: byte for byte at its type's current schema; at an older
    schema (recorded before a refactor reshaped the type), equal to the recorded event once upcast."""
    if current(recorded.type):
        return encode(produced) == recorded.data.encode()
    return bool(produced == upcast)


class _Seating:
    """What the joins of a match created with open seats are decided with: the seats' configurations as requested
    so far and the options, from the creating command and the joins before."""

    def __init__(self) -> None:
        self.configs: list[Any] = []
        self.options: Any = {}


def _execute(ruleset: Ruleset, match: Any, command: ReplayCommand, seed: bytes, seating: _Seating) -> list[Any]:
    payload = command.payload.encode()
    try:
        if match is None:
            request = jsonbounds.decode(payload, MAX_PART_BYTES)
            names, seating.configs, opened = requested_seats(request)
            seating.options = request["options"]
            return create(ruleset, {"seats": seating.configs, "options": seating.options}, names, seed, opened)
        if command.type == JOIN_COMMAND and match.seating:
            joined = decode_join(payload)
            events = list(join(ruleset, match, joined, seating.configs, seating.options, seed).events)
            seating.configs[joined.seat] = joined.config
            return events
        return list(decide(ruleset, match, _actor(command.actor), payload, seed).events)
    except (Rejected, ConfigError, KeyError, TypeError, ValueError, msgspec.DecodeError) as exc:
        version = 1 if match is None else match.version + 1
        raise _Failed("reexecute", version, f"the command is refused on re-execution: {exc}") from None


def _actor(name: str) -> Actor:
    return int(name) if name.isdigit() else SYSTEM if name == SYSTEM else "admin"
