"""An event field renamed by a refactor (no rule changed) keeps older streams and replays readable and verifiable
through the ruleset's upcaster (docs/adding-a-ruleset.md, Changing a ruleset; docs/replay-format.md)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import msgspec
import pytest

from engine import registry
from engine.bots import RandomBot
from engine.contract import Ruleset
from engine.match import EventDecoder, encode, fold
from engine.selfplay import next_move
from eventstore import migrate, open_store
from replays import steps, storage
from replays.format import decode_replay
from replays.verify import CHECKS, verify_bytes
from services.matches.creation import SeatEntry
from services.matches.hot import seen
from services.matches.manager import MatchManager
from tests.versions import card_monsters_renamed, hosting

__all__ = ["card_monsters_renamed"]  # the fixture, used by name

SEED = bytes(range(32))


async def _play(manager: MatchManager, match_id: str, ruleset: Ruleset, moves: int | None) -> None:
    """Random bots' moves on the match (``moves`` of them, None: until it ends)."""
    hot = await manager.get(match_id)
    bots = [RandomBot(seat) for seat in range(2)]
    while hot.outcome is None and (moves is None or moves > 0):
        actor, command = next_move(ruleset, hot.state, bots)
        await manager.submit(match_id, actor, encode(command))
        moves = None if moves is None else moves - 1


async def _across_the_refactor(url: str, renamed: Ruleset) -> tuple[list[tuple[str, bytes]], bytes, bytes, bytes]:
    """A match begun before the refactor and finished after it: its stored events, its state's JSON as the
    refactored code loads it and as the shipped code folds the same events, and its replay."""
    migrate(url)
    store = await open_store(url)
    try:
        before = MatchManager(store)
        created = await before.create(
            "card_monsters", [SeatEntry(name="a", config={}), SeatEntry(name="b", config={})], {}, seed=SEED
        )
        match_id = created.row.match_id
        shipped = registry.RULESETS["card_monsters"]
        await _play(before, match_id, shipped, 30)
        await before.stop()
        old = [(r.type, r.data) for r in await store.read_stream(match_id)]
        with hosting(renamed):
            after = MatchManager(store)
            hot = await after.get(match_id)
            assert hot.ruleset is renamed
            loaded = encode(hot.state)
            folded = encode(fold(shipped, [EventDecoder(shipped).decode(t, d) for t, d in old]).state)
            await _play(after, match_id, renamed, None)
            await after.stop()
            stored = [(r.type, r.data) for r in await store.read_stream(match_id)]
            replay = await storage.export(store, match_id, include_seed=True)
        return stored, loaded, folded, replay
    finally:
        await store.close()


def test_a_stream_begun_before_a_field_rename_loads_continues_and_verifies_after_it(
    tmp_path: Path, card_monsters_renamed: Ruleset
) -> None:
    stored, loaded, folded, replay = asyncio.run(
        _across_the_refactor(f"sqlite:///{tmp_path / 'store.db'}", card_monsters_renamed)
    )
    assert loaded == folded, "the upcast events fold to the state the old ones folded to"
    types = [t for t, _ in stored]
    old = [d for t, d in stored if t == "MonsterPlayed"]
    new = [d for t, d in stored if t == "MonsterPlayed@2"]
    assert old and new, "the stream holds the renamed type at both schemas"
    assert all(b'"crystals":' in d for d in old) and all(b'"crystals_left":' in d for d in new)
    assert "MonsterPlayed" in types[: types.index("MonsterPlayed@2")]
    with hosting(card_monsters_renamed):
        verdict = verify_bytes(replay)
        assert verdict.ok and verdict.checks == list(CHECKS), verdict.failure
        shown = steps.steps(decode_replay(replay), None)
    assert len(shown) == len(stored)
    assert {s.type for s in shown if s.type.startswith("MonsterPlayed")} == {"MonsterPlayed@2"}
    played = [msgspec.json.decode(s.data) for s in shown if s.type.startswith("MonsterPlayed")]
    assert all("crystals_left" in e and "crystals" not in e for e in played), "every step in today's shape"


def test_a_replay_exported_before_a_field_rename_verifies_after_it(
    replay_bytes: bytes, card_monsters_renamed: Ruleset
) -> None:
    assert b'"MonsterPlayed"' in replay_bytes and b"MonsterPlayed@" not in replay_bytes
    with hosting(card_monsters_renamed):
        verdict = verify_bytes(replay_bytes)
        assert verdict.ok and verdict.checks == list(CHECKS), verdict.failure
        assert len(steps.steps(decode_replay(replay_bytes), 0)) == len(decode_replay(replay_bytes).events)


def test_an_unknown_schema_does_not_decode(card_monsters_renamed: Ruleset) -> None:
    decoder = EventDecoder(card_monsters_renamed)
    for stored_type in ("MonsterPlayed@3", "MonsterPlayed@1", "MonsterPlayed@", "Nothing", "CardDrawn@2"):
        with pytest.raises(msgspec.ValidationError, match="unknown event type"):
            decoder.decode(stored_type, b'{"type": "MonsterPlayed"}')


def test_a_watcher_gets_an_older_schema_in_todays_shape(replay_bytes: bytes, card_monsters_renamed: Ruleset) -> None:
    old = next(e for e in decode_replay(replay_bytes).events if e.type == "MonsterPlayed")
    event = EventDecoder(card_monsters_renamed).decode(old.type, old.data)
    for viewer in (0, 1, None):
        shown = msgspec.json.decode(seen(card_monsters_renamed, viewer, old.type, event, old.data.encode()))
        assert "crystals_left" in shown and "crystals" not in shown


def test_an_older_schema_that_does_not_upcast_does_not_decode(card_monsters_renamed: Ruleset) -> None:
    def failing(event: dict[str, object]) -> dict[str, object]:
        return {**event, "crystals_left": event["nothing"]}

    decoder = EventDecoder(dataclasses.replace(card_monsters_renamed, upcasters={"MonsterPlayed": (failing,)}))
    with pytest.raises(msgspec.ValidationError, match="MonsterPlayed does not upcast"):
        decoder.decode("MonsterPlayed", b'{"type": "MonsterPlayed"}')
