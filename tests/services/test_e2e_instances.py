"""Two service instances on one PostgreSQL database: commands through either, one consistent stream.

Only PostgreSQL is shared between instances (``eventstore.urls.is_shared``); an embedded SQLite file belongs
to one server, which therefore never re-reads the store before refusing a command.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator, Sequence
from typing import Any

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.matches.replies import Submitted
from services.readmodels import lifecycle
from tests.postgres import throwaway_database
from tests.services.client import Created, create_match, play_one
from tests.services.conftest import ADMIN_TOKEN
from tests.services.instances import two_instances
from tests.tournament.players import channel_stubs, open_tournament


@pytest.fixture
def database_url() -> Iterator[str]:
    with throwaway_database("duelhall_instances") as url:
        yield url


@pytest.mark.postgres
async def test_two_instances_share_matches_and_their_watchers_see_both(database_url: str) -> None:
    async with two_instances(database_url) as (_, _, stubs):
        created = await create_match(stubs[0])
        watch = stubs[1].WatchMatch(pb.WatchMatchRequest(match_id=created.match_id))
        version = await stale_instance_decides_again(stubs, created)
        rng = random.Random(8)
        to_act = list(
            (await stubs[0].GetView(pb.GetViewRequest(match_id=created.match_id, min_version=version))).to_act
        )
        commands = 0
        while to_act:
            stub = stubs[commands % 2]
            reply = await play_one(stub, created, to_act[0], rng, f"x{commands}", min_version=version)
            to_act, version = list(reply.to_act), reply.version
            commands += 1

        async def watched() -> list[int]:
            versions = []
            async for update in watch:
                versions.append(update.event.version)
                if update.match_ended:
                    return versions
            return versions

        versions = await asyncio.wait_for(watched(), 30)
        ends = [await s.GetMatch(pb.GetMatchRequest(match_id=created.match_id, min_version=version)) for s in stubs]
        assert ends[0].version == ends[1].version == versions[-1]
        assert versions == list(range(1, versions[-1] + 1))
        assert all(e.status == pb.MATCH_STATUS_ENDED for e in ends) and commands > 10
        replay = (await stubs[1].ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
        assert (await stubs[0].VerifyReplay(pb.VerifyReplayRequest(replay=replay))).ok


async def stale_instance_decides_again(stubs: list[pb_grpc.MatchServiceStub], created: Created) -> int:
    """The second instance loads the match, the first moves it on, then the second takes a command at once."""
    seat = (await stubs[1].GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    engage = '{"type": "engage"}'
    moved = await stubs[0].SubmitCommand(
        pb.SubmitCommandRequest(
            match_id=created.match_id, token=created.tokens[seat], command_json=engage, command_id="first-engage"
        )
    )
    reply = await stubs[1].SubmitCommand(
        pb.SubmitCommandRequest(
            match_id=created.match_id, token=created.tokens[1 - seat], command_json=engage, command_id="second-engage"
        )
    )
    assert reply.version > moved.version
    assert next(e.type for e in reply.events) == "TurnEnded"
    return reply.version


async def test_a_retry_answered_by_the_other_instance_returns_the_first_result(database_url: str) -> None:
    async with two_instances(database_url) as (_, _, stubs):
        created = await create_match(stubs[0])
        replies = []
        for index in range(4):
            seat = (await stubs[0].GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
            legal = await stubs[0].ListLegalCommands(
                pb.ListLegalCommandsRequest(match_id=created.match_id, token=created.tokens[seat])
            )
            command = next(c for c in legal.commands_json if '"concede"' not in c)
            request = pb.SubmitCommandRequest(
                match_id=created.match_id, token=created.tokens[seat], command_json=command, command_id=f"d{index}"
            )
            replies.append((request, await stubs[0].SubmitCommand(request)))
        request, original = replies[0]
        retried = await stubs[1].SubmitCommand(request)
        assert retried.duplicate and retried.version == original.version < replies[-1][1].version
        assert [e.version for e in retried.events] == [e.version for e in original.events]
        assert [e.data_json for e in retried.events] == [e.data_json for e in original.events]


async def acting(watch: grpc.aio.UnaryStreamCall, through: int, versions: list[int]) -> None:
    """Reads ``watch`` up to version ``through``, noting the versions whose update names a seat to act."""
    while True:
        update = await watch.read()
        assert update is not grpc.aio.EOF, "the watch ended"
        if update.to_act:
            versions.append(update.event.version)
        if update.event.version == through:
            return


@pytest.mark.postgres
async def test_another_instance_shows_who_acts_only_once_a_command_is_folded_whole(database_url: str) -> None:
    """The events of one command are one transaction: the instance that follows them must not hand its watchers
    (nor its Play streams' turns, nor its timers) the states in between, which no seat can act on, e.g. the seat
    whose turn just ended still on the clock after its ``TurnEnded``."""
    async with two_instances(database_url) as (_, _, stubs):
        created = await create_match(stubs[0])
        # Live updates only: which catch-up update names the seats to act depends on when it was rendered.
        request = pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version)
        watches = [s.WatchMatch(request) for s in stubs]
        for watch in watches:
            await watch.initial_metadata()
        rng = random.Random(3)
        here: list[int] = []
        there: list[int] = []
        for index in range(12):
            seat = (await stubs[0].GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
            reply = await play_one(stubs[0], created, seat, rng, f"w{index}")
            # The other instance folds each command before the next is sent: its follower reads them one by one.
            await asyncio.wait_for(acting(watches[1], reply.version, there), 30)
        await asyncio.wait_for(acting(watches[0], reply.version, here), 30)
        assert there == here


@pytest.mark.postgres
async def test_an_instance_that_loads_a_match_mid_turn_runs_the_same_clock(database_url: str) -> None:
    """A seat's turn goes on over several commands through one instance; the other loads the match then, and
    its clock runs out when the first one's does, not a whole turn after the last command."""
    async with two_instances(database_url) as (_, _, stubs):
        created = await create_match(stubs[0], options='{"turn_seconds": 30}')
        rng = random.Random(5)
        kept = None
        for index in range(60):
            before = await stubs[0].GetView(pb.GetViewRequest(match_id=created.match_id))
            await play_one(stubs[0], created, before.to_act[0], rng, f"k{index}")
            after = await stubs[0].GetView(pb.GetViewRequest(match_id=created.match_id))
            if before.HasField("deadline") and after.deadline == before.deadline:
                kept = after
                break
        assert kept is not None, "no command kept the clock it found"
        there = await stubs[1].GetView(pb.GetViewRequest(match_id=created.match_id, min_version=kept.version))
        assert there.version == kept.version and there.deadline == kept.deadline


@pytest.mark.postgres
async def test_an_instance_reads_the_others_events_only_of_the_matches_it_holds(database_url: str) -> None:
    """The second instance watches one of the first's two matches: of the other instance's appends it reads the
    watched match's alone, and its watcher still sees every one of them."""
    async with two_instances(database_url) as (_, second, stubs):
        watched, other = await create_match(stubs[0]), await create_match(stubs[0])
        watch = stubs[1].WatchMatch(pb.WatchMatchRequest(match_id=watched.match_id))
        await watch.initial_metadata()
        foreign = second.store.foreign
        assert foreign is not None
        read: list[str] = []
        fetch = foreign._fetch

        async def recorded_fetch(text: str, *args: object) -> Sequence[Any]:
            rows = await fetch(text, *args)
            read.extend(row[1] for row in rows)  # the stream id
            return rows

        foreign._fetch = recorded_fetch
        rng = random.Random(5)
        last = watched.version
        for index in range(6):
            for created in (watched, other):
                seat = (await stubs[0].GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
                reply = await play_one(stubs[0], created, seat, rng, f"h{index}")
                if created is watched:
                    last = reply.version

        async def seen() -> int:
            async for update in watch:
                if update.event.version == last:
                    return last
            return 0

        assert await asyncio.wait_for(seen(), 30) == last
        assert read and set(read) == {watched.match_id}


@pytest.mark.postgres
async def test_a_tournament_call_on_the_other_instance_right_after_a_games_last_command_finds_it_counted(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The instance whose command ends a match records the end before it answers: a tournament call the other
    instance takes next waits for its result, so the round reads as finished and the next one pairs at once."""
    async with (
        two_instances(database_url) as (first, second, _),
        grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as one,
        grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as other,
    ):
        # Whether each end is recorded when its command is answered (the race this test meets only under load).
        recorded_when_answered = []
        submit = first.manager.submit

        async def answered(match_id: str, *args: Any) -> Submitted:
            submitted = await submit(match_id, *args)
            ended = await first.store.read_stream(lifecycle.ended_stream(match_id))
            recorded_when_answered.append(bool(ended))
            return submitted

        monkeypatch.setattr(first.manager, "submit", answered)
        (tournaments, matches), (elsewhere, _) = channel_stubs(one), channel_stubs(other)
        tid, tokens = await open_tournament(tournaments, ADMIN_TOKEN, 4, seed_hex="ef" * 32, rounds=2)
        await tournaments.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        for round_ in (1, 2):
            paired = await tournaments.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, round=round_))
            for table in paired.tables:  # a concedes
                seat = await tournaments.GetSeat(
                    tpb.PlayerRequest(tournament_id=tid, player=table.a, token=tokens[table.a])
                )
                concession = '{"type": "concede"}'
                await matches.SubmitCommand(
                    pb.SubmitCommandRequest(match_id=seat.match_id, token=seat.token, command_json=concession)
                )
            read = await elsewhere.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, round=round_))
            assert [(t.finished, t.result.wins_a, t.result.wins_b) for t in read.tables] == [(True, 0, 1)] * 2, read
            if round_ == 1:
                await elsewhere.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        assert recorded_when_answered == [True] * 4
