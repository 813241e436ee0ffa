"""The tournaments' deadlines through real servers on hand-moved clocks: a chooser who never chooses is chosen
for, a round past its time ends by its preset's procedure, a restarted server keeps the deadlines, and of two
instances on one PostgreSQL database exactly one appends each expiry."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import NamedTuple

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.server import Running, ServerConfig, create_server
from tests.postgres import throwaway_database
from tests.services.clock import ManualClock
from tests.services.conftest import ADMIN_TOKEN

SLACK = 600
"""Seconds a hand clock is moved past a deadline: the deadline runs from the recorded (real) time, later than
the hand clock's start by however long the setup took."""


class Served(NamedTuple):
    running: Running
    clock: ManualClock
    stub: tpb_grpc.TournamentServiceStub
    matches: pb_grpc.MatchServiceStub


@asynccontextmanager
async def serving(database_url: str) -> AsyncIterator[Served]:
    clock = ManualClock()
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN), clock
    )
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = tpb_grpc.TournamentServiceStub(channel)  # type: ignore[no-untyped-call]
            yield Served(running, clock, stub, pb_grpc.MatchServiceStub(channel))
    finally:
        await running.stop(0)


async def started(stub: tpb_grpc.TournamentServiceStub, players: int, **options: object) -> tuple[str, dict[str, str]]:
    created = await stub.CreateTournament(
        tpb.CreateTournamentRequest(
            admin_token=ADMIN_TOKEN,
            name="cup",
            ruleset="card_monsters",
            format="swiss",
            rounds=1,
            tiebreak="mtg",
            seed_hex="03" * 32,
            **options,  # type: ignore[arg-type]
        )
    )
    tid = created.tournament_id
    tokens = {}
    for i in range(players):
        registered = await stub.Register(
            tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player=f"p{i}", deck_json="{}")
        )
        tokens[f"p{i}"] = registered.player_token
    await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
    return tid, tokens


async def concede(
    stub: tpb_grpc.TournamentServiceStub, matches: pb_grpc.MatchServiceStub, tid: str, player: str, token: str
) -> None:
    """The player concedes the game waiting at their table."""
    seat = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=player, token=token))
    await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=seat.match_id, token=seat.token, command_json='{"type": "concede"}')
    )


async def events(stub: tpb_grpc.TournamentServiceStub, tid: str) -> list[tuple[str, dict[str, object]]]:
    listed = await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid))
    return [(e.type, json.loads(e.data_json)) for e in listed.events]


async def told(
    stub: tpb_grpc.TournamentServiceStub, tid: str, kind: str, player: str, token: str
) -> tpb.WatchTournamentEntry:
    """The player's feed's entry for the tournament's first event of ``kind``."""
    listed = await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid))
    version = next(e.version for e in listed.events if e.type == kind)
    feed = stub.WatchTournament(
        tpb.WatchTournamentRequest(tournament_id=tid, from_version=version, player=player, token=token)
    )
    entry: tpb.WatchTournamentEntry = await feed.read()
    feed.cancel()
    return entry


async def test_a_chooser_who_never_chooses_is_chosen_for_at_the_deadline(database_url: str) -> None:
    async with serving(database_url) as (running, clock, stub, matches):
        tid, tokens = await started(stub, 2, best_of=3, chooser_seconds=30, round_minutes=0)
        await concede(stub, matches, tid, "p1", tokens["p1"])
        waiting = (await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables[0]
        assert waiting.chooser == "p1" and waiting.chooser_deadline and len(waiting.games) == 1
        clock.advance(29)
        await running.tournaments.clocks.settled()
        assert "ChooserTimedOut" not in [t for t, _ in await events(stub, tid)]
        clock.advance(30 + SLACK)
        await running.tournaments.clocks.settled()
        chosen = [data for kind, data in await events(stub, tid) if kind == "ChooserTimedOut"]
        assert chosen == [
            {"type": "ChooserTimedOut", "round": 1, "table": 1, "game": 2, "chooser": "p1", "first": "p1"}
        ]
        table = (await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables[0]
        assert [g.first for g in table.games] == [table.games[0].first, "p1"] and not table.chooser_deadline
        seat = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player="p1", token=tokens["p1"]))
        assert (seat.game, seat.seat) == (2, 0)
        game = await matches.GetMatch(pb.GetMatchRequest(match_id=seat.match_id))
        assert game.seats[0] == "p1"
        # The chooser's feed says the game the system chose for is ready, with the seat token.
        entry = await told(stub, tid, "ChooserTimedOut", "p1", tokens["p1"])
        ready = [n.table_ready for n in entry.notices if n.HasField("table_ready")]
        assert [(r.game, r.match_id, r.seat, r.seat_token) for r in ready] == [(2, seat.match_id, 0, seat.token)]


async def test_a_round_past_its_time_ends_by_the_preset_also_after_a_restart(database_url: str) -> None:
    async with serving(database_url) as (_, _, stub, matches):
        tid, tokens = await started(stub, 4, round_minutes=1)
        first = (await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables[0]
        await concede(stub, matches, tid, first.b, tokens[first.b])
        before = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))
        assert before.round_ends_at and before.status == "running"
    async with serving(database_url) as (running, clock, stub, _):
        assert list(running.tournaments.clocks.due(tid)) == [f"round-time/1/{before.version - 2}"]
        clock.advance(60 + SLACK)
        await running.tournaments.clocks.settled()
        recorded = await events(stub, tid)
        kinds = [kind for kind, _ in recorded]
        assert kinds.count("RoundTimeEnded") == 1 and kinds[-1] == "TournamentEnded"
        pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
        results = [
            (t.table, t.result.wins_a, t.result.wins_b, t.result.draws, t.result.source) for t in pairings.tables
        ]
        # Table 1 finished by its game; table 2's game in progress is drawn (mtg).
        assert results == [(1, 1, 0, 0, "games"), (2, 0, 0, 1, "time")]
        standings = await stub.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
        assert standings.placings[0] == first.a and len(standings.placings) == 4
        ended = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))
        assert ended.status == "ended" and not ended.round_ends_at


@pytest.fixture
def shared_url() -> Iterator[str]:
    with throwaway_database("duelhall_tournament_clocks") as url:
        yield url


@pytest.mark.postgres
async def test_two_instances_append_one_expiry(shared_url: str) -> None:
    async with (
        serving(shared_url) as (one, clock_one, stub_one, _),
        serving(shared_url) as (two, clock_two, stub_two, _),
    ):
        tid, _ = await started(stub_one, 2, round_minutes=1, best_of=3, chooser_seconds=10)
        # The second instance learns of the round from the store (or this read) and arms the same deadline.
        await stub_two.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))
        assert two.tournaments.clocks.due(tid) == one.tournaments.clocks.due(tid) != {}
        clock_one.advance(60 + SLACK)
        clock_two.advance(60 + SLACK)
        await one.tournaments.clocks.settled()
        await two.tournaments.clocks.settled()
        kinds = [kind for kind, _ in await events(stub_two, tid)]
        assert kinds.count("RoundTimeEnded") == 1 and kinds.count("MatchResulted") == 1
        assert kinds[-1] == "TournamentEnded"
        assert one.tournaments.clocks.due(tid) == two.tournaments.clocks.due(tid) == {}
