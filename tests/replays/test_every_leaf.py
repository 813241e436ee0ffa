"""Any single edit of any leaf value of a replay file fails verification, naming its check and version (issue 39).

Every leaf of a real replay of each hosted ruleset (a short match: random bots play a few commands, then a seat
concedes; exported from a SQLite store through the match manager) is edited in turn: event data, type, version,
hash, chain and recorded time, every command record field, the seats, every leaf of the configuration, the seed
and its commitment, the outcome, the header.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.bots import RandomBot
from engine.contract import Ruleset
from engine.match import encode
from engine.registry import HOSTED
from engine.selfplay import next_move
from eventstore import migrate, open_store
from replays import storage
from replays.format import FORMAT_VERSION, decode_replay, format_time, time_micros
from replays.verify import CHECKS, verify_bytes
from services.matches.creation import SeatEntry
from services.matches.manager import MatchManager

PLAYED = 3
"""Commands the bots play before a seat concedes."""


async def _short_match(ruleset: Ruleset, url: str) -> bytes:
    migrate(url)
    store = await open_store(url)
    try:
        manager = MatchManager(store)
        seats = [SeatEntry(name=f"p{seat}", config={}) for seat in range(ruleset.min_seats)]
        created = await manager.create(
            ruleset.id, seats, dict(ruleset.concede_options), seed=bytes(32), ruleset_version=ruleset.version
        )
        match_id = created.row.match_id
        hot = await manager.get(match_id)
        bots = [RandomBot(seat) for seat in range(len(seats))]
        for number in range(PLAYED):
            actor, command = next_move(ruleset, hot.state, bots)
            await manager.submit(match_id, actor, encode(command), command_id=f"c{number}")
        actor = (hot.ruleset.to_act(hot.state) or (0,))[0]
        await manager.submit(match_id, actor, b'{"type":"concede"}', command_id="concede")
        await manager.stop()
        return await storage.export(store, match_id, include_seed=True)
    finally:
        await store.close()


Path_ = tuple[str | int, ...]


def leaves(value: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every leaf of a JSON value with its path; an empty list or object is a leaf too."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def edits(path: Path_, value: Any) -> list[Any]:
    """Single edits of a leaf: a trailing space (the same JSON once parsed, for data and payloads), a number
    one up and one down, a flipped flag, something in an empty container; a time one microsecond later."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int | float):
        return [value + 1, value - 1]
    if isinstance(value, str):
        changed = [value + " "]
        if path[-1] == "recorded_at" and (micros := time_micros(value)) is not None:
            changed.append(format_time(micros + 1))
        return changed
    if value is None:
        return [0]
    return [[0]] if isinstance(value, list) else [{"x": 0}]


def edited(document: Any, path: Path_, value: Any) -> bytes:
    """The file with the leaf at ``path`` set to ``value`` (``document`` is left as it was)."""
    target = document
    for key in path[:-1]:
        target = target[key]
    kept, target[path[-1]] = target[path[-1]], value
    try:
        return msgspec.json.encode(document)
    finally:
        target[path[-1]] = kept


def expected(document: Any, path: Path_) -> tuple[set[str], range]:
    """The check an edit at ``path`` must fail and the versions it may name."""
    top, events = path[0], len(document["events"])
    if top == "events":
        version = document["events"][path[1]]["version"]
        return {"format", "chain", "times"}, range(version, version + 1)
    if top == "commands":
        # Its events, or where a moved last version makes the next command start at the wrong version.
        command = document["commands"][path[1]]
        return {"chain"}, range(command["first_version"], command["last_version"] + 3)
    return {
        "format": ({"format"}, range(0, 1)),
        "format_version": ({"format"}, range(0, 2)),  # format 1 refuses chain 2 at its first event
        "ruleset": ({"ruleset"}, range(0, 1)),
        "match_id": ({"fold"}, range(1, 2)),
        "seats": ({"fold"}, range(1, 2)),
        "config": ({"fold"}, range(1, 2)),
        "seed_commitment": ({"fold"}, range(1, 2)),
        "seed": ({"seed"}, range(0, 1)),
        "outcome": ({"outcome"}, range(events, events + 1)),
        "head_hash": ({"chain"}, range(events, events + 1)),
    }[str(top)]


@pytest.mark.parametrize("key", sorted(HOSTED), ids=[f"{id_}-v{version}" for id_, version in sorted(HOSTED)])
def test_any_single_edit_of_any_leaf_fails_naming_its_check_and_version(key: tuple[str, int], tmp_path: Path) -> None:
    data = asyncio.run(_short_match(HOSTED[key], f"sqlite:///{tmp_path / 'store.db'}"))
    verdict = verify_bytes(data)
    assert verdict.ok and verdict.uncovered == [] and decode_replay(data).format_version == FORMAT_VERSION
    document = msgspec.json.decode(data)
    tried: set[str] = set()
    for where, value in leaves(document):
        for edit in edits(where, value):
            verdict = verify_bytes(edited(document, where, edit))
            checks, versions = expected(document, where)
            assert verdict.failure is not None, (where, edit)
            assert verdict.failure.check in checks and verdict.failure.version in versions, (where, edit, verdict)
            assert verdict.checks == list(CHECKS[: CHECKS.index(verdict.failure.check)])
            tried.add(str(where[0]) if where[0] not in ("events", "commands") else f"{where[0]}.{where[-1]}")
    fields = {"data", "type", "version", "hash", "recorded_at", "chain"}
    assert tried >= {f"events.{f}" for f in fields} | {
        f"commands.{f}" for f in ("command_id", "actor", "type", "payload", "first_version", "last_version")
    } | {"seats", "config", "seed", "seed_commitment", "outcome", "match_id", "ruleset", "head_hash"}
