"""The organiser's tools through a real server: ListTournaments (status, labels, pages), seeds at registration,
and pairing edits before any result (audited, refused after one)."""

from __future__ import annotations

import json

import grpc
import pytest

from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.server import Running
from tests.services.client import error_reason
from tests.services.conftest import ADMIN_TOKEN


async def refusal(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code(), error_reason(caught.value)


def create(name: str, **fields: object) -> tpb.CreateTournamentRequest:
    return tpb.CreateTournamentRequest(
        admin_token=ADMIN_TOKEN, name=name, ruleset="card_monsters", format="swiss", tiebreak="mtg", **fields
    )


async def register(stub: tpb_grpc.TournamentServiceStub, tid: str, players: dict[str, int]) -> None:
    for player, seed in players.items():
        await stub.Register(
            tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player=player, deck_json="{}", seed=seed)
        )


async def test_tournaments_are_listed_by_status_and_label_a_page_at_a_time(channel: grpc.aio.Channel) -> None:
    stub = tpb_grpc.TournamentServiceStub(channel)  # type: ignore[no-untyped-call]
    spring = await stub.CreateTournament(create("spring", labels={"league": "north"}))
    await stub.CreateTournament(create("summer", labels={"league": "south"}))
    autumn = await stub.CreateTournament(create("autumn", labels={"league": "north", "tier": "2"}))
    await register(stub, autumn.tournament_id, {"a": 0, "b": 0})
    await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=autumn.tournament_id))

    everything = await stub.ListTournaments(tpb.ListTournamentsRequest())
    assert [t.name for t in everything.tournaments] == ["spring", "summer", "autumn"]
    assert [t.status for t in everything.tournaments] == ["registration", "registration", "running"]
    assert not everything.next_page_token and dict(everything.tournaments[2].labels) == {"league": "north", "tier": "2"}
    running = await stub.ListTournaments(tpb.ListTournamentsRequest(status="running"))
    assert [t.tournament_id for t in running.tournaments] == [autumn.tournament_id]

    north = {"league": "north"}
    first = await stub.ListTournaments(tpb.ListTournamentsRequest(labels=north, page_size=1))
    assert [t.tournament_id for t in first.tournaments] == [spring.tournament_id] and first.next_page_token
    second = await stub.ListTournaments(
        tpb.ListTournamentsRequest(labels=north, page_size=1, page_token=first.next_page_token)
    )
    assert [t.tournament_id for t in second.tournaments] == [autumn.tournament_id]
    if second.next_page_token:
        last = await stub.ListTournaments(
            tpb.ListTournamentsRequest(labels=north, page_size=1, page_token=second.next_page_token)
        )
        assert not last.tournaments and not last.next_page_token

    assert await refusal(
        stub.ListTournaments(tpb.ListTournamentsRequest(labels={"league": "south"}, page_token=first.next_page_token))
    ) == (grpc.StatusCode.INVALID_ARGUMENT, "PAGE_TOKEN_INVALID")
    assert await refusal(stub.ListTournaments(tpb.ListTournamentsRequest(page_token="not-a-token"))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "PAGE_TOKEN_INVALID",
    )
    assert await refusal(stub.ListTournaments(tpb.ListTournamentsRequest(status="paused"))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "STATUS_INVALID",
    )
    assert await refusal(stub.ListTournaments(tpb.ListTournamentsRequest(page_size=501))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "PAGE_SIZE_OUT_OF_RANGE",
    )
    assert await refusal(stub.CreateTournament(create("bad", labels={"": "x"}))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "LABELS_INVALID",
    )
    assert await refusal(stub.CreateTournament(create("bad", chooser_seconds=3601))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "CHOOSER_SECONDS_INVALID",
    )


async def test_seeds_pair_round_1_and_the_organiser_edits_it_until_a_result(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = tpb_grpc.TournamentServiceStub(channel)  # type: ignore[no-untyped-call]
        tid = (await stub.CreateTournament(create("seeded", rounds=2))).tournament_id
        await register(stub, tid, {"dan": 4, "ann": 1, "cat": 3, "bob": 2})
        assert await refusal(
            stub.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="eve", seed=2))
        ) == (grpc.StatusCode.FAILED_PRECONDITION, "SEED_TAKEN")
        shown = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))
        assert {p.name: p.seed for p in shown.players} == {"ann": 1, "bob": 2, "cat": 3, "dan": 4}
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))

        async def tables() -> list[tuple[str, str, bool]]:
            pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
            return [(t.a, t.b, t.loss) for t in pairings.tables]

        assert await tables() == [("ann", "cat", False), ("bob", "dan", False)]

        def edit(kind: str, *players: str, token: str = ADMIN_TOKEN) -> object:
            return stub.EditPairings(
                tpb.EditPairingsRequest(
                    admin_token=token, tournament_id=tid, edit=kind, players=players, by="judge", why="test"
                )
            )

        assert await refusal(edit("swap", "cat", "dan", token="nope")) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "ADMIN_REQUIRED",
        )
        assert await refusal(edit("swap", "cat", "nobody")) == (grpc.StatusCode.NOT_FOUND, "PLAYER_NOT_FOUND")
        await edit("swap", "cat", "dan")
        assert await tables() == [("ann", "dan", False), ("bob", "cat", False)]
        # The edit reaches the players' feeds as the round paired again, with their new table.
        feed = stub.WatchTournament(
            tpb.WatchTournamentRequest(tournament_id=tid, player="cat", token=ADMIN_TOKEN, from_version=1)
        )
        async for entry in feed:
            if entry.type == "PairingsEdited":
                break
        kinds = [n.WhichOneof("notice") for n in entry.notices]
        ready = entry.notices[1].table_ready
        assert kinds == ["round_paired", "table_ready"] and entry.notices[0].round_paired.repaired
        assert (ready.table, list(ready.seats) in (["bob", "cat"], ["cat", "bob"])) == (2, True)
        feed.cancel()
        await edit("loss", "bob")
        assert await tables() == [("ann", "dan", False), ("bob", "", True), ("cat", "", False)]
        history = await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid))
        edited = [json.loads(e.data_json) for e in history.events if e.type == "PairingsEdited"]
        assert [(e["edit"], e["players"], e["by"], e["why"]) for e in edited] == [
            ("swap", ["cat", "dan"], "judge", "test"),
            ("loss", ["bob"], "judge", "test"),
        ]
        await stub.ReportResult(
            tpb.ReportResultRequest(
                admin_token=ADMIN_TOKEN, tournament_id=tid, round=1, table=1, wins_a=1, by="judge", why="paper"
            )
        )
        assert await refusal(edit("bye", "dan")) == (grpc.StatusCode.FAILED_PRECONDITION, "ROUND_HAS_RESULTS")
        standings = await stub.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
        assert not standings.placings  # until it ends
        rows = {s.player: (s.points, s.wins, s.losses, s.byes) for s in standings.standings}
        assert rows == {"ann": (3, 1, 0, 0), "cat": (3, 0, 0, 1), "dan": (0, 0, 1, 0), "bob": (0, 0, 1, 0)}
