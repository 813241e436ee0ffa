"""Open seats through the match manager on a real store: seating, reload from a snapshot, replay export,
re-execution of the joins and import (docs/replay-format.md, Matches with open seats)."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from engine.match import encode
from engine.rng import Rng
from eventstore import AsyncEventStore, migrate, open_store
from replays import storage
from replays.format import decode_replay, encode_replay
from replays.verify import verify_bytes
from services.core.errors import Refused
from services.matches import snapshots
from services.matches.creation import SeatEntry
from services.matches.manager import MatchManager
from services.readmodels.matchrows import ENDED
from tests.replays.rewritten import rechained
from tests.services.test_manager import play

OPEN = SeatEntry(name="", config={}, kind="open")


async def test_a_seated_match_reloads_from_its_snapshot_and_its_replay_verifies_and_imports(
    store: AsyncEventStore, tmp_path: object
) -> None:
    manager = MatchManager(store, capacity=1, snapshot_every=5)
    created = await manager.create("card_monsters", [SeatEntry(name="ann", config={"deck": "starter_b"}), OPEN], {})
    match_id = created.row.match_id
    assert created.tokens[1] == "" and created.row.open_seats == (1,)
    with pytest.raises(ConfigError):
        await manager.join(match_id, None, "bob", {"deck": "no_such_deck"})
    with pytest.raises(Refused) as refused:
        await manager.submit(match_id, 0, b'{"type": "concede"}')
    assert refused.value.reason == "MATCH_NOT_STARTED"
    seated = await manager.join(match_id, 1, "bob", {"deck": "starter_a"})
    assert seated.seat == 1 and (await manager.read_model.get(match_id)) is not None
    await play(manager, match_id, 12)
    before = manager.loaded(match_id)
    assert before is not None
    other = (await manager.create("card_monsters", [OPEN, OPEN], {})).row.match_id
    assert manager.loaded(match_id) is None and manager.loaded(other) is not None
    snapshot = await store.snapshots.load(match_id, snapshots.schema(before.ruleset))
    assert snapshot is not None and snapshot.version > 3  # past the seating: the load folds that from its events
    reloaded = await manager.get(match_id)
    assert (reloaded.state, reloaded.version, reloaded.match.created) == (
        before.state,
        before.version,
        before.match.created,
    )
    assert reloaded.token_hashes == before.token_hashes and all(reloaded.token_hashes)
    await play(manager, match_id, 500)
    assert reloaded.outcome is not None

    data = await storage.export(store, match_id, include_seed=True)
    replay = decode_replay(data)
    assert replay.seats == ["ann", "bob"] and [c.type for c in replay.commands[:2]] == ["create_match", "join_seat"]
    verdict = verify_bytes(data)
    assert verdict.ok, verdict.failure
    # The joiner's configuration is in its command: another one re-executes to other events (the forger
    # recomputes every hash, so the chain holds and re-execution is what catches it).
    forged = replay.commands[1].payload.replace("starter_a", "starter_b")
    tampered = replay.__class__(
        **{**{f: getattr(replay, f) for f in replay.__struct_fields__}, "commands": list(replay.commands)}
    )
    tampered.commands[1] = replay.commands[1].__class__(
        **{**{f: getattr(replay.commands[1], f) for f in replay.commands[1].__struct_fields__}, "payload": forged}
    )
    failed = verify_bytes(encode_replay(rechained(tampered)))
    assert failed.failure is not None and failed.failure.check == "reexecute"

    url = f"sqlite:///{tmp_path}/imported.db"
    migrate(url)
    elsewhere = await open_store(url)
    try:
        assert await storage.import_(elsewhere, data) == storage.Imported(match_id, True, [])
        importer = MatchManager(elsewhere)
        await importer.reindex(match_id)
        row = await importer.read_model.get(match_id)
        assert row is not None and row.seats == ("ann", "bob") and row.open_seats == () and row.status == ENDED
    finally:
        await elsewhere.close()


async def test_three_seats_two_open_start_with_the_last_join_only(store: AsyncEventStore) -> None:
    manager = MatchManager(store)
    created = await manager.create("aq", [OPEN, SeatEntry(name="ann", config={}), OPEN], {"phase_seconds": 40})
    match_id = created.row.match_id
    first = await manager.join(match_id, None, "bob", {})
    assert first.seat == 0 and first.version == 2
    hot = await manager.get(match_id)
    assert hot.match.seating and hot.match.created.open_seats == (2,) and hot.deadlines.expires_at is None
    with pytest.raises(Refused) as taken:
        await manager.join(match_id, 0, "cat", {})
    assert taken.value.reason == "NO_OPEN_SEAT"
    last = await manager.join(match_id, None, "cat", {})
    assert last.seat == 2 and last.version > 4 and not hot.match.seating
    assert hot.match.created.seats == ("bob", "ann", "cat") and hot.deadlines.expires_at is not None
    recorded = await store.read_stream(match_id)
    assert [r.type for r in recorded[:4]] == ["MatchCreated", "SeatJoined", "SeatJoined", "SeatsFilled"]
    # The setup draws from the RNG stream of the last join's first version (docs/rng.md), v = 3 here.
    config = hot.ruleset.configure({"seats": [{}, {}, {}], "options": {"phase_seconds": 40}})
    setup = [encode(e) for e in hot.ruleset.setup(config, Rng(hot.seed, 3))]
    assert [r.data for r in recorded[4 : 4 + len(setup)]] == setup and recorded[4 + len(setup) :] == []
    row = await manager.read_model.get(match_id)
    assert row is not None and row.seats == ("bob", "ann", "cat") and row.open_seats == ()
    await manager.match_list.rebuild()
    rebuilt = await manager.read_model.get(match_id)
    assert rebuilt is not None and (rebuilt.seats, rebuilt.open_seats) == (row.seats, ())
