"""Tournament service rules through a real server: authentication, refusals, best-of-three choices, and a
match whose replay does not verify, which is not counted."""

from __future__ import annotations

import json

import grpc
import pytest
import sqlalchemy as sa

from eventstore.schema import events as events_table
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.readmodels.projector import CHECKPOINT_KEY
from services.server import Running, ServerConfig, create_server
from services.tournament.results import CHECKPOINTS
from tests.services.client import error_reason
from tests.services.conftest import ADMIN_TOKEN
from tests.tournament.players import channel_stubs, open_tournament, play_match, play_round


async def _tournament(
    stub: tpb_grpc.TournamentServiceStub, players: int, best_of: int = 1, tiebreak: str = "mtg"
) -> tuple[str, dict[str, str]]:
    return await open_tournament(
        stub, ADMIN_TOKEN, players, '{"deck": "starter_b"}', rounds=2, best_of=best_of, tiebreak=tiebreak
    )


async def _refused(call: object, code: grpc.StatusCode, reason: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await call  # type: ignore[misc]
    assert (refused.value.code(), error_reason(refused.value)) == (code, reason)


async def test_organiser_actions_need_the_admin_token_and_players_their_own(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, _ = channel_stubs(channel)
        await _refused(
            stub.CreateTournament(
                tpb.CreateTournamentRequest(name="x", ruleset="card_monsters", format="swiss", tiebreak="mtg")
            ),
            grpc.StatusCode.UNAUTHENTICATED,
            "TOKEN_MISSING",
        )
        await _refused(
            stub.CreateTournament(tpb.CreateTournamentRequest(admin_token="nope", name="x")),
            grpc.StatusCode.PERMISSION_DENIED,
            "ADMIN_REQUIRED",
        )
        await _refused(
            stub.CreateTournament(
                tpb.CreateTournamentRequest(
                    admin_token=ADMIN_TOKEN, name="x", ruleset="card_monsters", format="ladder", tiebreak="mtg"
                )
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "FORMAT_INVALID",
        )
        await _refused(
            stub.GetTournament(tpb.GetTournamentRequest(tournament_id="missing")),
            grpc.StatusCode.NOT_FOUND,
            "TOURNAMENT_NOT_FOUND",
        )
        tid, tokens = await _tournament(stub, 4)
        await _refused(
            stub.Register(
                tpb.RegisterRequest(
                    admin_token=ADMIN_TOKEN, tournament_id=tid, player="bad", deck_json='{"deck": "no_such_deck"}'
                )
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "DECK_UNKNOWN_PRESET",
        )
        await _refused(
            stub.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="p1")),
            grpc.StatusCode.FAILED_PRECONDITION,
            "PLAYER_EXISTS",
        )
        await _refused(
            stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player="p0", token=tokens["p1"])),
            grpc.StatusCode.PERMISSION_DENIED,
            "TOKEN_INVALID",
        )
        await _refused(
            stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player="p0", token=tokens["p0"])),
            grpc.StatusCode.FAILED_PRECONDITION,
            "TOURNAMENT_NOT_STARTED",
        )
        await _refused(
            stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid)),
            grpc.StatusCode.FAILED_PRECONDITION,
            "TOURNAMENT_NOT_STARTED",
        )
        await _refused(
            stub.Start(tpb.OrganiserRequest(admin_token="", tournament_id=tid)),
            grpc.StatusCode.UNAUTHENTICATED,
            "TOKEN_MISSING",
        )
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        await _refused(
            stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid)),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ROUND_NOT_FINISHED",
        )
        await _refused(
            stub.ReportResult(
                tpb.ReportResultRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, round=1, table=1, wins_a=1)
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "AUDIT_MISSING",
        )
        # Players see pairings and standings without any token.
        pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
        assert len(pairings.tables) == 2
        standings = await stub.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
        assert [s.points for s in standings.standings] == [0, 0, 0, 0]


async def test_best_of_three_games_seat_the_chosen_player_first(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, tokens = await _tournament(stub, 2, best_of=3, tiebreak="pokemon")
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        paired = await play_round(stub, matches, tid, "card_monsters", tokens, seed=5)
        table = paired.tables[0]
        assert table.finished and 2 <= len(table.games) <= 3 and max(table.result.wins_a, table.result.wins_b) == 2
        for earlier, later in zip(table.games, table.games[1:], strict=False):
            # The loser of each game chose to go first (tests/tournament/players.py), seated at seat 0.
            assert later.first == (table.b if earlier.winner == table.a else table.a)
            created = await matches.GetMatch(pb.GetMatchRequest(match_id=later.match_id))
            assert created.seats[0] == later.first
            assert dict(created.labels)["game"] == str(later.game)


async def test_a_search_bot_plays_its_tables_games_from_what_its_player_receives(server: Running) -> None:
    """The search level as a tournament player: from its seat's views and legal commands through the server, it
    takes a best of three from a random bot (its budget as iterations: the same seeds, the same games)."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, tokens = await _tournament(stub, 2, best_of=3)
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        paired = await play_round(stub, matches, tid, "card_monsters", tokens, seed=6, levels={"p1": "search"})
        table = paired.tables[0]
        assert table.finished
        wins = {table.a: table.result.wins_a, table.b: table.result.wins_b}
        assert wins["p1"] == 2, wins


async def test_a_match_whose_replay_does_not_verify_is_not_counted(server: Running, database_url: str) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, tokens = await _tournament(stub, 2)
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        seats = [
            await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=p, token=tokens[p])) for p in ("p0", "p1")
        ]
        match_id = seats[0].match_id
        _tamper(database_url, match_id)
        ordered = sorted(seats, key=lambda s: s.seat)
        await play_match(matches, "card_monsters", match_id, [s.token for s in ordered], seed=3)
        # Read at once: the call waits for the results of the matches that ended before it.
        table = (await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables[0]
        assert list(table.unverified_match_ids) == [match_id]
        assert not table.finished and not any(g.played for g in table.games)
        assert (await stub.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))).standings[0].points == 0
        await stub.ReportResult(
            tpb.ReportResultRequest(
                admin_token=ADMIN_TOKEN, tournament_id=tid, round=1, table=1, wins_b=1, by="judge", why="replay failed"
            )
        )
        table = (await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables[0]
        assert table.finished and table.result.source == "organiser"


def _tamper(database_url: str, match_id: str) -> None:
    """Changes one stored event's bytes behind the server's back (its hash no longer matches)."""
    engine = sa.create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.begin() as connection:
            where = sa.and_(events_table.c.stream_id == match_id, events_table.c.version == 2)
            data = connection.execute(sa.select(events_table.c.data).where(where)).scalar_one()
            connection.execute(sa.update(events_table).where(where).values(data=bytes(data) + b" "))
    finally:
        engine.dispose()


async def test_results_resume_from_the_checkpoint_and_count_each_match_once(database_url: str) -> None:
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN)
    first = await create_server(config)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            stub, matches = channel_stubs(channel)
            tid, tokens = await _tournament(stub, 2)
            await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
            await play_round(stub, matches, tid, "card_monsters", tokens, seed=8)
        # The result is in (play_round read it), and the checkpoint moved with it.
        checkpoint = await first.tournaments.results.checkpoint()
        assert checkpoint
    finally:
        await first.stop(0)
    # The checkpoint lost: a restarted server handles every change again, and nothing counts twice.
    second = await create_server(config)
    try:
        await second.tournaments.results.stop()  # saves where it stopped: the checkpoint is lost after it
        await second.store.rows.put(CHECKPOINTS, CHECKPOINT_KEY, b"0")
        await second.tournaments.results.start()
        async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
            stub, _ = channel_stubs(channel)
            events = (await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid))).events
        assert [e.type for e in events].count("GameRecorded") == 1
        assert [e.type for e in events].count("MatchResulted") == 1
    finally:
        await second.stop(0)


async def test_a_side_deck_swap_reaches_the_next_game_and_the_chosen_player_goes_first(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        created = await stub.CreateTournament(
            tpb.CreateTournamentRequest(
                admin_token=ADMIN_TOKEN,
                name="duel cup",
                ruleset="duel",
                format="swiss",
                rounds=1,
                best_of=3,
                tiebreak="ygo",
                seed_hex="03" * 32,
            )
        )
        tid = created.tournament_id
        tokens = {}
        for player in ("ann", "bob"):
            reply = await stub.Register(
                tpb.RegisterRequest(
                    admin_token=ADMIN_TOKEN, tournament_id=tid, player=player, deck_json='{"deck": "starter_a"}'
                )
            )
            tokens[player] = reply.player_token
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        table = (await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables[0]
        seats = [
            await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=p, token=tokens[p]))
            for p in (table.a, table.b)
        ]
        ordered = sorted(seats, key=lambda s: s.seat)
        await play_match(matches, "duel", seats[0].match_id, [s.token for s in ordered], seed=4)
        table = (await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables[0]
        loser = table.chooser
        assert loser
        await _refused(
            stub.SideDeck(
                tpb.SideDeckRequest(
                    tournament_id=tid,
                    player=loser,
                    token=tokens[loser],
                    round=1,
                    table=1,
                    removed=["cinder_wolf"],
                    added=["no_card"],
                )
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "SIDE_CARD_MISSING",
        )
        await stub.SideDeck(
            tpb.SideDeckRequest(
                tournament_id=tid,
                player=loser,
                token=tokens[loser],
                round=1,
                table=1,
                removed=["cinder_wolf"],
                added=["gale_sweep"],
            )
        )
        await stub.ChooseFirst(
            tpb.ChooseFirstRequest(tournament_id=tid, player=loser, token=tokens[loser], round=1, table=1, first=loser)
        )
        second = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=loser, token=tokens[loser]))
        assert (second.game, second.seat) == (2, 0)
        creation = (await server.store.read_commands(second.match_id))[0][0]
        configs = {seat["name"]: seat["config"] for seat in json.loads(creation.payload)["seats"]}
        assert configs[second.opponent] == {"deck": "starter_a"}
        starter = (await rulesets_presets(channel))["starter_a"]
        assert configs[loser]["deck"]["main"].count("gale_sweep") == starter["main"].count("gale_sweep") + 1
        assert "cinder_wolf" in configs[loser]["deck"]["side"]
        assert json.loads(creation.payload)["options"]["first_player"] == 0
        decided = await _first_player_event(matches, second.match_id)
        assert (decided["method"], decided["seat"]) == ("fixed", 0)


async def rulesets_presets(channel: grpc.aio.Channel) -> dict[str, dict[str, list[str]]]:
    described = await pb_grpc.RulesetServiceStub(channel).DescribeRuleset(pb.DescribeRulesetRequest(ruleset="duel"))
    presets: dict[str, dict[str, list[str]]] = json.loads(described.presets_json)
    return presets


async def _first_player_event(matches: pb_grpc.MatchServiceStub, match_id: str) -> dict[str, object]:
    """The duel's FirstPlayerDecided event, as a spectator sees it."""
    stream = matches.WatchMatch(pb.WatchMatchRequest(match_id=match_id))
    try:
        async for update in stream:
            if update.event.type == "FirstPlayerDecided":
                found: dict[str, object] = json.loads(update.event.data_json)
                return found
    finally:
        stream.cancel()
    raise AssertionError("no FirstPlayerDecided event")


async def test_the_next_round_pairs_as_soon_as_the_last_game_has_ended(server: Running) -> None:
    # No GetPairings between the games' ends and PairRound, no retry: the call waits for the games' results.
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        tid, tokens = await _tournament(stub, 4)
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        seats = [await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=p, token=t)) for p, t in tokens.items()]
        for match_id in sorted({s.match_id for s in seats}):
            ordered = sorted((s for s in seats if s.match_id == match_id), key=lambda s: s.seat)
            await play_match(matches, "card_monsters", match_id, [s.token for s in ordered], seed=5)
        paired = await stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        assert (paired.current_round, paired.current_round_finished) == (2, False)
