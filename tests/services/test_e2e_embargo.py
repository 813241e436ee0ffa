"""The embargo on a running tournament's replays and registered decks, through a real server (issue 32): a player
must not scout an opponent's deck in the replay of an earlier game, nor in the tournament's audit trail."""

from __future__ import annotations

import json

import grpc
import msgspec
import pytest

from engine.registry import RULESETS
from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.server import Running
from tests.services.client import Created, end_match, error_reason, play_random
from tests.services.conftest import ADMIN_TOKEN
from tests.services.test_e2e_match import states_by_version
from tests.services.test_e2e_tournament_rules import _tournament
from tests.tournament.players import channel_stubs, play_round

EMBARGOED = (grpc.StatusCode.PERMISSION_DENIED, "REPLAY_EMBARGOED")
SEATS = [pb.SeatSpec(name="p0"), pb.SeatSpec(name="p1")]


async def refusal(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code(), error_reason(caught.value)


async def decks(stub: tpb_grpc.TournamentServiceStub, tournament_id: str, admin_token: str = "") -> list[object]:
    """The decks the audit trail shows of each registration."""
    request = tpb.GetTournamentRequest(tournament_id=tournament_id, admin_token=admin_token)
    events = (await stub.ListTournamentEvents(request)).events
    return [json.loads(e.data_json)["deck"] for e in events if e.type == "PlayerRegistered"]


async def replay_refusals(matches: pb_grpc.MatchServiceStub, match_id: str) -> list[tuple[grpc.StatusCode, str]]:
    return [
        await refusal(matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id))),
        await refusal(matches.ViewReplay(pb.ViewReplayRequest(match_id=match_id, seat=-1))),
    ]


async def test_a_running_tournament_withholds_its_replays_and_decks_until_the_organiser_publishes(
    server: Running,
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, tokens = await _tournament(stub, 3)  # two Swiss rounds (a bye each): running after the first
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        pairings = await play_round(stub, matches, tid, "card_monsters", tokens, seed=5)
        match_id = next(t for t in pairings.tables if t.b).games[0].match_id
        assert not (await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))).replays_published

        assert await replay_refusals(matches, match_id) == [EMBARGOED, EMBARGOED]
        # A player's token is no admin token: the opponent's deck stays hidden from the player too.
        player_token = tokens["p0"]
        assert await refusal(matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id, token=player_token))) == (
            EMBARGOED
        )
        assert await decks(stub, tid) == [{}, {}, {}]
        assert await refusal(
            stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid, admin_token=player_token))
        ) == (grpc.StatusCode.PERMISSION_DENIED, "ADMIN_REQUIRED")
        # The organiser sees everything.
        assert (await matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id, token=ADMIN_TOKEN))).replay
        viewed = await matches.ViewReplay(pb.ViewReplayRequest(match_id=match_id, seat=-1, token=ADMIN_TOKEN))
        assert viewed.steps
        assert await decks(stub, tid, ADMIN_TOKEN) == [{"deck": "starter_b"}] * 3

        assert await refusal(stub.PublishReplays(tpb.AuditedRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "AUDIT_MISSING",
        )
        published = await stub.PublishReplays(
            tpb.AuditedRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, by="head judge", why="stream highlights")
        )
        assert published.replays_published and published.status == "running"
        assert (await matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id))).replay
        assert (await matches.ViewReplay(pb.ViewReplayRequest(match_id=match_id, seat=-1))).steps
        assert await decks(stub, tid) == [{"deck": "starter_b"}] * 3
        assert await refusal(
            stub.PublishReplays(tpb.AuditedRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, by="a", why="b"))
        ) == (grpc.StatusCode.FAILED_PRECONDITION, "REPLAYS_PUBLISHED")
        trail = (await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid))).events
        assert json.loads(trail[-1].data_json) == {
            "type": "ReplaysPublished",
            "by": "head judge",
            "why": "stream highlights",
        }


async def test_the_embargo_lifts_when_the_tournament_ends(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, tokens = await _tournament(stub, 3)
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        first = (
            next(t for t in (await play_round(stub, matches, tid, "card_monsters", tokens, seed=6)).tables if t.b)
            .games[0]
            .match_id
        )
        assert await replay_refusals(matches, first) == [EMBARGOED, EMBARGOED]
        await stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        await play_round(stub, matches, tid, "card_monsters", tokens, seed=7)
        ended = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))
        assert ended.status == "ended" and ended.replays_published
        assert (await matches.ExportReplay(pb.ExportReplayRequest(match_id=first))).replay
        assert await decks(stub, tid) == [{"deck": "starter_b"}] * 3


async def test_a_player_views_their_own_game_as_their_seat_saw_it_during_the_embargo(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, _ = await _tournament(stub, 3)
        # A game of the tournament is any match labelled with it: here one played outside its pairings.
        reply = await matches.CreateMatch(
            pb.CreateMatchRequest(
                ruleset="card_monsters",
                seats=[pb.SeatSpec(name="p0"), pb.SeatSpec(name="p1")],
                labels={"tournament": tid},
            )
        )
        tokens = [t.token for t in sorted(reply.tokens, key=lambda t: t.seat)]
        game = Created(reply.match.match_id, tokens, reply.match.version)
        await play_random(matches, game, seed=3)
        await end_match(matches, game)
        own = await matches.ViewReplay(pb.ViewReplayRequest(match_id=game.match_id, seat=0, token=tokens[0]))
        assert own.seat == 0 and own.steps
        for seat in (1, -1):  # another seat's view, or the spectator's: not the player's own
            viewed = pb.ViewReplayRequest(match_id=game.match_id, seat=seat, token=tokens[0])
            assert await refusal(matches.ViewReplay(viewed)) == EMBARGOED
        exported = pb.ExportReplayRequest(match_id=game.match_id, token=tokens[0])
        assert await refusal(matches.ExportReplay(exported)) == EMBARGOED  # a file holds every seat's cards


async def test_a_players_own_replay_of_a_private_deck_game_holds_no_card_hidden_from_their_seat(
    server: Running,
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, _ = await _tournament(stub, 3)
        reply = await matches.CreateMatch(
            pb.CreateMatchRequest(ruleset="duel", seats=SEATS, labels={"tournament": tid})
        )
        tokens = [t.token for t in sorted(reply.tokens, key=lambda t: t.seat)]
        game = Created(reply.match.match_id, tokens, reply.match.version)
        await play_random(matches, game, seed=4, max_commands=30)
        await end_match(matches, game)
        full = decode_replay(
            (await matches.ExportReplay(pb.ExportReplayRequest(match_id=game.match_id, token=ADMIN_TOKEN))).replay
        )
        states = states_by_version("duel", [(e.type, e.data) for e in full.events])
        for seat in (0, 1):
            own = await matches.ViewReplay(pb.ViewReplayRequest(match_id=game.match_id, seat=seat, token=tokens[seat]))
            assert [step.event.version for step in own.steps] == list(range(1, len(full.events) + 1))
            checked = 0
            for step in own.steps:
                hidden = RULESETS["duel"].hidden_cards(states[step.event.version], seat)
                shown = step.view_json + step.event.data_json
                leaked = [card for card in hidden if msgspec.json.encode(card).decode() in shown]
                assert not leaked, f"seat {seat}'s replay at {step.event.version} shows {leaked}"
                checked += len(hidden)
            assert checked > 0  # the opponent's private deck was there to leak
