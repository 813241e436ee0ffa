"""Who sees a tournament's games and decks, through a real server (issue 32): its games' spectator policy and
caster feed, their tokens for the organiser only, and open decklists shown to a table's two players only."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.client import error_reason
from tests.services.clock import ManualClock
from tests.services.conftest import ADMIN_TOKEN
from tests.tournament.players import channel_stubs

DELAY = 120
DECKS = {"p0": "starter_a", "p1": "starter_b"}


@pytest.fixture
async def clocked(database_url: str) -> AsyncIterator[tuple[Running, ManualClock]]:
    clock = ManualClock()
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN), clock
    )
    try:
        yield running, clock
    finally:
        await running.stop(0)


async def refusal(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code(), error_reason(caught.value)


async def started(stub: tpb_grpc.TournamentServiceStub, tid: str) -> dict[str, str]:
    """Registers DECKS' players and starts the tournament; each player's token by name."""
    tokens = {}
    for player, deck in DECKS.items():
        registered = await stub.Register(
            tpb.RegisterRequest(
                admin_token=ADMIN_TOKEN, tournament_id=tid, player=player, deck_json=json.dumps({"deck": deck})
            )
        )
        tokens[player] = registered.player_token
    await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
    return tokens


def created(**audience: object) -> tpb.CreateTournamentRequest:
    return tpb.CreateTournamentRequest(
        admin_token=ADMIN_TOKEN,
        name="cup",
        ruleset="card_monsters",
        format="swiss",
        rounds=1,
        tiebreak="mtg",
        seed_hex="02" * 32,
        options_json='{"turn_seconds": 600}',
        **audience,  # type: ignore[arg-type]
    )


async def test_the_organiser_hands_out_each_games_spectator_and_caster_tokens_and_open_decklists_show(
    clocked: tuple[Running, ManualClock],
) -> None:
    server, clock = clocked
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tournament = await stub.CreateTournament(
            created(spectators=pb.SPECTATORS_TOKEN, caster_delay_seconds=DELAY, decklists="open")
        )
        tid = tournament.tournament_id
        assert (tournament.spectators, tournament.caster_delay_seconds, tournament.decklists) == (
            pb.SPECTATORS_TOKEN,
            DELAY,
            "open",
        )
        tokens = await started(stub, tid)

        public = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
        game = public.tables[0].games[0]
        assert (game.spectator_token, game.caster_token) == ("", "")
        assert await refusal(stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, admin_token=tokens["p0"]))) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "ADMIN_REQUIRED",
        )
        organiser = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, admin_token=ADMIN_TOKEN))
        game = organiser.tables[0].games[0]
        seat = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player="p0", token=tokens["p0"]))
        assert game.match_id == seat.match_id
        assert game.spectator_token and game.caster_token and game.spectator_token != game.caster_token
        # Asked again, the same tokens: they are the game's, not minted per call.
        again = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, admin_token=ADMIN_TOKEN))
        assert again.tables[0].games[0] == game

        match = await matches.GetMatch(pb.GetMatchRequest(match_id=game.match_id))
        assert match.spectators == pb.SPECTATORS_TOKEN
        assert await refusal(matches.GetView(pb.GetViewRequest(match_id=game.match_id))) == (
            grpc.StatusCode.UNAUTHENTICATED,
            "SPECTATOR_TOKEN_REQUIRED",
        )
        view = await matches.GetView(pb.GetViewRequest(match_id=game.match_id, token=game.spectator_token))
        assert view.view_json

        # The caster token opens the game's caster feed, which delivers the creation once it is DELAY old (by
        # the time the store recorded it, which PostgreSQL takes from its own clock).
        watched = matches.WatchMatch(pb.WatchMatchRequest(match_id=game.match_id, token=game.spectator_token))
        recorded = datetime.fromisoformat((await anext(aiter(watched))).event.recorded_at)
        watched.cancel()
        clock.advance(max(0.0, (recorded + timedelta(seconds=DELAY + 1) - clock.now()).total_seconds()))
        feed = matches.WatchMatch(
            pb.WatchMatchRequest(match_id=game.match_id, token=game.caster_token, caster=True, include_view=True)
        )
        first = await anext(aiter(feed))
        assert first.event.version == 1
        feed.cancel()

        for player, opponent in (("p0", "p1"), ("p1", "p0")):
            seat = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=player, token=tokens[player]))
            assert (seat.opponent, json.loads(seat.opponent_deck_json)) == (opponent, {"deck": DECKS[opponent]})


async def test_decklists_stay_private_by_default_and_bad_settings_are_refused(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, _ = channel_stubs(channel)
        tournament = await stub.CreateTournament(created())
        assert (tournament.spectators, tournament.caster_delay_seconds, tournament.decklists) == (
            pb.SPECTATORS_PUBLIC,
            0,
            "private",
        )
        tid = tournament.tournament_id
        tokens = await started(stub, tid)
        seat = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player="p0", token=tokens["p0"]))
        assert (seat.opponent, seat.opponent_deck_json) == ("p1", "")
        organiser = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, admin_token=ADMIN_TOKEN))
        game = organiser.tables[0].games[0]
        assert (game.spectator_token, game.caster_token) == ("", "")

        invalid = grpc.StatusCode.INVALID_ARGUMENT
        assert await refusal(stub.CreateTournament(created(decklists="public"))) == (invalid, "DECKLISTS_INVALID")
        assert await refusal(stub.CreateTournament(created(caster_delay_seconds=-1))) == (
            invalid,
            "CASTER_DELAY_INVALID",
        )
        assert await refusal(stub.CreateTournament(created(spectators=99))) == (invalid, "SPECTATORS_INVALID")
