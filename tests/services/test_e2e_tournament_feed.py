"""WatchTournament through a real server: the players learn their table, their game, their choice and their bye
from their own feed and play with the seat tokens it hands them; organiser results and drops arrive live; a
resumed feed continues exactly; a re-issued token replaces the old one; events are listed a page at a time."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import grpc
import httpx
import pytest

from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.cli.tournament.calls import reason_of
from services.server import Running
from services.tournament.manager import TournamentManager
from tests.services.conftest import ADMIN_TOKEN
from tests.services.connect_client import TOURNAMENTS, ConnectFailure, call, stream
from tests.tournament.players import channel_stubs, play_match

STREAM_SECONDS = 60
"""A guard against a hung test, never a wait: every await below ends on a message the server sends."""


class Feed:
    """One WatchTournament call read into a queue as it arrives; None marks its end."""

    def __init__(self, stub: tpb_grpc.TournamentServiceStub, request: tpb.WatchTournamentRequest) -> None:
        self.call = stub.WatchTournament(request)
        self.entries: list[tpb.WatchTournamentEntry] = []
        self._queue: asyncio.Queue[tpb.WatchTournamentNotice | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for entry in self.call:
                self.entries.append(entry)
                for notice in entry.notices:
                    await self._queue.put(notice)
        finally:
            await self._queue.put(None)

    async def notice(self, kind: str) -> tpb.WatchTournamentNotice:
        """The next notice of this kind (``table_ready``, ``bye``, ...), skipping the others."""
        async with asyncio.timeout(STREAM_SECONDS):
            while True:
                notice = await self._queue.get()
                assert notice is not None, f"the feed ended before a {kind} notice"
                if notice.WhichOneof("notice") == kind:
                    return notice

    async def ended(self) -> grpc.StatusCode:
        async with asyncio.timeout(STREAM_SECONDS):
            await self._task
        return await self.call.code()


async def refusal(call: AsyncIterator[tpb.WatchTournamentEntry]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        async for _ in call:
            pass
    return caught.value.code(), reason_of(caught.value)


async def create(stub: tpb_grpc.TournamentServiceStub, players: list[str]) -> tuple[str, dict[str, str]]:
    created = await stub.CreateTournament(
        tpb.CreateTournamentRequest(
            admin_token=ADMIN_TOKEN,
            name="feed",
            ruleset="card_monsters",
            format="swiss",
            rounds=2,
            best_of=3,
            tiebreak="mtg",
            seed_hex="cd" * 32,
        )
    )
    tid = created.tournament_id
    tokens = {}
    for name in players:
        reply = await stub.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player=name))
        tokens[name] = reply.player_token
    return tid, tokens


async def test_players_play_a_tournament_from_their_own_feeds(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        players = ["ann", "bob", "cat"]
        tid, tokens = await create(stub, players)
        everything = Feed(stub, tpb.WatchTournamentRequest(tournament_id=tid))
        feeds = {
            p: Feed(stub, tpb.WatchTournamentRequest(tournament_id=tid, player=p, token=tokens[p])) for p in players
        }
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
        [table] = [t for t in pairings.tables if t.b]
        [bye] = [t.a for t in pairings.tables if not t.b]
        assert (await feeds[bye].notice("bye")).bye.player == bye

        # Game after game, each player learns from its feed alone where it plays and when it chooses.
        while True:
            ready = {p: (await feeds[p].notice("table_ready")).table_ready for p in (table.a, table.b)}
            assert ready[table.a].match_id == ready[table.b].match_id and ready[table.a].seat_token
            seats = sorted(ready.values(), key=lambda r: r.seat)
            assert all(r.seats[r.seat] == p for p, r in ready.items()) and {r.seat for r in seats} == {0, 1}
            await play_match(matches, "card_monsters", seats[0].match_id, [r.seat_token for r in seats], seed=7)
            result = (await feeds[table.a].notice("game_result")).game_result
            assert result.counted and result.match_id == seats[0].match_id
            pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
            current = next(t for t in pairings.tables if t.table == table.table)
            if current.finished:
                break
            chooser = current.chooser
            waiting = (await feeds[chooser].notice("chooser_waiting")).chooser_waiting
            assert waiting.chooser == chooser and waiting.game == result.game + 1
            await stub.ChooseFirst(
                tpb.ChooseFirstRequest(
                    tournament_id=tid, player=chooser, token=tokens[chooser], round=1, table=table.table, first=chooser
                )
            )
        outcome = (await feeds[table.a].notice("match_result")).match_result
        assert outcome.result.source == "games" and (outcome.a, outcome.b) == (table.a, table.b)

        # Organiser actions reach the feeds at once: a drop, then round 2's result entered by hand.
        late = await stub.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="dan"))
        await stub.Drop(tpb.DropRequest(tournament_id=tid, player="dan", token=ADMIN_TOKEN, by="judge", why="left"))
        dropped = (await everything.notice("player_change")).player_change
        while dropped.change != "dropped":
            dropped = (await everything.notice("player_change")).player_change
        assert (dropped.player, dropped.by, dropped.why) == ("dan", "judge", "left") and late.player_token
        await stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        second = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
        [played] = [t for t in second.tables if t.b]
        await stub.ReportResult(
            tpb.ReportResultRequest(
                admin_token=ADMIN_TOKEN,
                tournament_id=tid,
                round=2,
                table=played.table,
                wins_a=2,
                by="judge",
                why="offline table",
            )
        )
        entered = (await feeds[played.a].notice("match_result")).match_result
        assert (entered.round, entered.result.source, entered.by) == (2, "organiser", "judge")

        # The last result ended the tournament: every feed ends OK after its TournamentEnded entry.
        for feed in (everything, *feeds.values()):
            assert await feed.ended() == grpc.StatusCode.OK
            assert feed.entries[-1].type == "TournamentEnded"
            assert feed.entries[-1].notices[0].ended.winner
            assert [e.version for e in feed.entries] == list(range(1, len(feed.entries) + 1))
        # The player's form holds only that player's tables (and seat tokens only of their own seats).
        for name, feed in feeds.items():
            for entry in feed.entries:
                for notice in entry.notices:
                    if notice.WhichOneof("notice") == "table_ready":
                        assert name in notice.table_ready.seats
        assert not any(n.table_ready.seat_token for e in everything.entries for n in e.notices)
        # Every wait for a chooser was for a game that followed, none after the deciding game.
        waits = [n.chooser_waiting for e in everything.entries for n in e.notices if n.HasField("chooser_waiting")]
        chosen = [json.loads(e.data_json) for e in everything.entries if e.type == "FirstChosen"]
        assert [(w.round, w.table, w.game, w.chooser) for w in waits] == [
            (c["round"], c["table"], c["game"], c["chooser"]) for c in chosen
        ]

        # Resuming from any version sends exactly the rest.
        middle = len(everything.entries) // 2
        resumed = Feed(stub, tpb.WatchTournamentRequest(tournament_id=tid, from_version=middle))
        assert await resumed.ended() == grpc.StatusCode.OK
        assert [(e.version, e.type) for e in resumed.entries] == [
            (e.version, e.type) for e in everything.entries[middle - 1 :]
        ]
        assert [e.notices for e in resumed.entries] == [e.notices for e in everything.entries[middle - 1 :]]


async def test_a_watcher_of_a_big_round_is_shown_its_matches_without_loading_them(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every table's match exists once the round is paired; a watcher only looks up their ids (one read each),
    # where going through the match's creation would load every match of the round for every watcher.
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, _ = channel_stubs(channel)
        tid, _ = await create(stub, [f"p{n}" for n in range(12)])
        await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, admin_token=ADMIN_TOKEN))
        expected = {t.table: t.games[0].match_id for t in pairings.tables}

        def refused(*_: object) -> None:
            raise AssertionError("a watcher went through a match's creation")

        monkeypatch.setattr(TournamentManager, "game_match", refused)
        feed = Feed(stub, tpb.WatchTournamentRequest(tournament_id=tid))
        shown = {}
        while len(shown) < len(expected):
            ready = (await feed.notice("table_ready")).table_ready
            shown[ready.table] = ready.match_id
        feed.call.cancel()
    assert shown == expected and all(expected.values())


async def test_watch_refusals_and_reissued_tokens(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, _ = channel_stubs(channel)
        tid, tokens = await create(stub, ["ann", "bob"])
        assert await refusal(stub.WatchTournament(tpb.WatchTournamentRequest(tournament_id="nope"))) == (
            grpc.StatusCode.NOT_FOUND,
            "TOURNAMENT_NOT_FOUND",
        )
        assert await refusal(
            stub.WatchTournament(tpb.WatchTournamentRequest(tournament_id=tid, player="ann", token=tokens["bob"]))
        ) == (grpc.StatusCode.PERMISSION_DENIED, "TOKEN_INVALID")
        assert await refusal(stub.WatchTournament(tpb.WatchTournamentRequest(tournament_id=tid, from_version=9))) == (
            grpc.StatusCode.OUT_OF_RANGE,
            "VERSION_AHEAD",
        )
        assert await refusal(
            stub.WatchTournament(tpb.WatchTournamentRequest(tournament_id=tid, player="eve", token=ADMIN_TOKEN))
        ) == (grpc.StatusCode.NOT_FOUND, "PLAYER_NOT_FOUND")

        feed = Feed(stub, tpb.WatchTournamentRequest(tournament_id=tid, player="ann", token=tokens["ann"]))
        reissued = await stub.ReissueToken(
            tpb.ReissueTokenRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="ann", by="desk", why="lost")
        )
        change = (await feed.notice("player_change")).player_change
        while change.change != "token_reissued":
            change = (await feed.notice("player_change")).player_change
        assert (change.by, change.why) == ("desk", "lost")
        new = reissued.player_token
        assert new and new != tokens["ann"]
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.CheckIn(tpb.PlayerRequest(tournament_id=tid, player="ann", token=tokens["ann"]))
        assert reason_of(caught.value) == "TOKEN_INVALID"
        await stub.CheckIn(tpb.PlayerRequest(tournament_id=tid, player="ann", token=new))
        # Twice: each token has its own secret, the second re-issue replaces the first.
        again = await stub.ReissueToken(
            tpb.ReissueTokenRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="ann", by="desk", why="again")
        )
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.CheckIn(tpb.PlayerRequest(tournament_id=tid, player="ann", token=new))
        assert reason_of(caught.value) == "TOKEN_INVALID"
        await stub.CheckIn(tpb.PlayerRequest(tournament_id=tid, player="ann", token=again.player_token))
        for bad, reason in (("", "TOKEN_MISSING"), (tokens["bob"], "ADMIN_REQUIRED")):
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.ReissueToken(
                    tpb.ReissueTokenRequest(admin_token=bad, tournament_id=tid, player="ann", by="x", why="y")
                )
            assert reason_of(caught.value) == reason
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.ReissueToken(
                tpb.ReissueTokenRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="eve", by="x", why="y")
            )
        assert reason_of(caught.value) == "PLAYER_NOT_FOUND"
        feed.call.cancel()

        # The audit trail a page at a time.
        listed = await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid, page_size=2))
        assert [e.version for e in listed.events] == [1, 2] and listed.next_version == 3
        rest = await stub.ListTournamentEvents(
            tpb.GetTournamentRequest(tournament_id=tid, from_version=listed.next_version)
        )
        assert rest.next_version == 0 and rest.events[0].version == 3
        assert [e.type for e in rest.events][-2:] == ["PlayerCheckedIn", "PlayerTokenReissued"]
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid, page_size=1001))
        assert reason_of(caught.value) == "PAGE_SIZE_INVALID"


async def test_tournament_service_over_connect(server: Running) -> None:
    """A browser's view: the organiser's and the players' calls and the feed, over Connect on the HTTP port."""
    assert server.http is not None
    async with httpx.AsyncClient(base_url=server.http.address, http1=True, http2=False, timeout=30) as web:
        created = await call(
            web,
            TOURNAMENTS,
            "CreateTournament",
            {
                "adminToken": ADMIN_TOKEN,
                "name": "web",
                "ruleset": "card_monsters",
                "format": "swiss",
                "rounds": 1,
                "tiebreak": "mtg",
            },
        )
        tid = created["tournamentId"]
        tokens = {}
        for name in ("ann", "bob"):
            reply = await call(
                web, TOURNAMENTS, "Register", {"adminToken": ADMIN_TOKEN, "tournamentId": tid, "player": name}
            )
            tokens[name] = reply["playerToken"]
        await call(web, TOURNAMENTS, "Start", {"adminToken": ADMIN_TOKEN, "tournamentId": tid})
        seat = await call(web, TOURNAMENTS, "GetSeat", {"tournamentId": tid, "player": "ann", "token": tokens["ann"]})
        assert seat["matchId"] and seat["token"]
        with pytest.raises(ConnectFailure) as caught:
            await call(web, TOURNAMENTS, "GetSeat", {"tournamentId": tid, "player": "ann", "token": tokens["bob"]})
        assert (caught.value.code, caught.value.reason) == ("permission_denied", "TOKEN_INVALID")
        await call(
            web,
            TOURNAMENTS,
            "ReportResult",
            {"adminToken": ADMIN_TOKEN, "tournamentId": tid, "round": 1, "table": 1, "winsA": 1, "by": "j", "why": "w"},
        )
        body = {"tournamentId": tid, "player": "ann", "token": tokens["ann"]}
        entries = [e async for e in stream(web, TOURNAMENTS, "WatchTournament", body)]
        assert [int(e["version"]) for e in entries] == list(range(1, len(entries) + 1))
        ready = [n["tableReady"] for e in entries for n in e.get("notices", []) if "tableReady" in n]
        assert ready[0]["matchId"] == seat["matchId"] and "ann" in ready[0]["seats"]
        assert entries[-1]["type"] == "TournamentEnded"
        with pytest.raises(ConnectFailure) as caught:
            async for _ in stream(web, TOURNAMENTS, "WatchTournament", {"tournamentId": "nope"}):
                pass
        assert (caught.value.code, caught.value.reason) == ("not_found", "TOURNAMENT_NOT_FOUND")
