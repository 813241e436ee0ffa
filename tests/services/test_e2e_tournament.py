"""A 64-player, 6-round Swiss with a top 8, played by bots through a real server, results from the matches."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction

import grpc
import pytest

from services.api import tournament_pb2 as tpb
from services.matches.ownership import heartbeat_seconds
from services.server import Running, ServerConfig, create_server
from services.tournament.wiring import SETTLE_SECONDS
from tests.services.conftest import ADMIN_TOKEN
from tests.tournament.players import channel_stubs, open_tournament, play_round

FLOOR = Fraction(33, 100)


def recompute_mtg(players: list[str], rounds: list[tpb.Pairings]) -> list[tuple[str, int, list[str]]]:
    """MTG standings from the published pairings and results alone: (player, points, [OMW, GW, OGW])."""
    points: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    game_points: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    for paired in rounds:
        for table in paired.tables:
            if not table.b:
                points[table.a] += 3
                played[table.a] += 1
                game_points[table.a] += 6
                games[table.a] += 2
                continue
            r = table.result
            for me, them, mine, theirs in (
                (table.a, table.b, r.wins_a, r.wins_b),
                (table.b, table.a, r.wins_b, r.wins_a),
            ):
                points[me] += 3 if mine > theirs else 1 if mine == theirs else 0
                played[me] += 1
                game_points[me] += 3 * mine + r.draws
                games[me] += mine + theirs + r.draws
                opponents[me].append(them)
    mwp = {p: max(FLOOR, Fraction(points[p], 3 * played[p])) if played[p] else FLOOR for p in players}
    gwp = {p: max(FLOOR, Fraction(game_points[p], 3 * games[p])) if games[p] else FLOOR for p in players}

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else FLOOR

    rows = [
        (p, points[p], [mean([mwp[o] for o in opponents[p]]), gwp[p], mean([gwp[o] for o in opponents[p]])])
        for p in players
    ]
    rows.sort(key=lambda row: (-row[1], *(-f for f in row[2]), row[0]))
    return [(p, pts, [f"{f.numerator}/{f.denominator}" for f in breaks]) for p, pts, breaks in rows]


async def test_a_64_player_swiss_with_top_8_drops_and_a_corrected_result(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, matches = channel_stubs(channel)
        created = await stub.CreateTournament(
            tpb.CreateTournamentRequest(
                admin_token=ADMIN_TOKEN,
                name="open",
                ruleset="card_monsters",
                format="swiss",
                cut=8,
                best_of=1,
                tiebreak="mtg",
                seed_hex="ab" * 32,
            )
        )
        tid = created.tournament_id
        tokens = {}
        for i in range(63):
            reply = await stub.Register(
                tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player=f"p{i:02d}")
            )
            tokens[f"p{i:02d}"] = reply.player_token
        state = await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        assert state.rounds == 6
        rounds = [await play_round(stub, matches, tid, "card_monsters", tokens, seed=1)]
        # Before pairing round 2: one player drops, one registers late.
        await stub.Drop(tpb.DropRequest(tournament_id=tid, player="p05", token=tokens["p05"], why="had to leave"))
        late = await stub.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="late"))
        tokens["late"] = late.player_token
        await stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        # After pairing round 2: this player still plays round 2, then is not paired again.
        await stub.Drop(tpb.DropRequest(tournament_id=tid, player="p06", token=ADMIN_TOKEN, by="judge", why="ill"))
        rounds.append(await play_round(stub, matches, tid, "card_monsters", tokens, seed=2))
        await stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        # Round 3: table 2 plays offline; the organiser enters its result.
        rounds.append(await play_round(stub, matches, tid, "card_monsters", tokens, seed=3, skip=frozenset({2})))
        await stub.ReportResult(
            tpb.ReportResultRequest(
                admin_token=ADMIN_TOKEN, tournament_id=tid, round=3, table=2, wins_a=1, by="judge", why="offline table"
            )
        )
        # One corrected result: round 2, table 1 went the other way.
        before = rounds[1].tables[0].result
        await stub.ReportResult(
            tpb.ReportResultRequest(
                admin_token=ADMIN_TOKEN,
                tournament_id=tid,
                round=2,
                table=1,
                wins_a=before.wins_b,
                wins_b=before.wins_a,
                draws=before.draws,
                correction=True,
                by="head judge",
                why="slip signed wrong",
            )
        )
        for number in range(4, 7):
            await stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
            await play_round(stub, matches, tid, "card_monsters", tokens, seed=number)
        swiss = [await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, round=n)) for n in range(1, 7)]
        standings = await stub.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
        await stub.StartCut(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        cut_rounds = []
        while (state := await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))).status != "ended":
            if state.current_round_finished:
                await stub.PairRound(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
            cut_rounds.append(await play_round(stub, matches, tid, "card_monsters", tokens, seed=10 + state.version))
        events = (await stub.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid))).events

    players = sorted(tokens)
    # Pairings: everyone active exactly once, no rematches, drops honoured, the late player in from round 2.
    met: set[frozenset[str]] = set()
    for paired in swiss:
        seated = [p for t in paired.tables for p in (t.a, t.b) if p]
        assert len(seated) == len(set(seated))
        expected = set(players) - {"late"} if paired.round == 1 else set(players) - {"p05"}
        if paired.round >= 3:
            expected -= {"p06"}
        assert set(seated) == expected
        for table in paired.tables:
            if table.b:
                assert frozenset((table.a, table.b)) not in met
                met.add(frozenset((table.a, table.b)))
        assert sum(not t.b for t in paired.tables) == len(expected) % 2
    # Results: from verified matches, one entered by hand, one corrected, both audited.
    assert swiss[2].tables[1].result.source == "organiser"
    assert swiss[1].tables[0].result.source == "corrected"
    assert (swiss[1].tables[0].result.wins_a, swiss[1].tables[0].result.wins_b) == (before.wins_b, before.wins_a)
    corrected = [json.loads(e.data_json) for e in events if e.type == "ResultCorrected"]
    assert corrected == [
        {
            "type": "ResultCorrected",
            "round": 2,
            "table": 1,
            "wins_a": before.wins_b,
            "wins_b": before.wins_a,
            "draws": before.draws,
            "by": "head judge",
            "why": "slip signed wrong",
        }
    ]
    counted = [t for p in swiss for t in p.tables if t.b and t.result.source == "games"]
    assert len(counted) > 150 and all(t.games[0].match_id for t in counted)
    # Standings: dropped players stay; everything matches an independent recomputation.
    mine = recompute_mtg(players, swiss)
    theirs = [(s.player, s.points, list(s.tiebreaks)) for s in standings.standings]
    assert theirs == mine
    assert {s.player for s in standings.standings if s.dropped} == {"p05", "p06"}
    # The cut: the best eight still in, 1v8 4v5 2v7 3v6, then to a single winner without draws.
    seeds = [s.player for s in standings.standings if not s.dropped][:8]
    first_cut = cut_rounds[0]
    assert [(t.a, t.b) for t in first_cut.tables] == [
        (seeds[0], seeds[7]),
        (seeds[3], seeds[4]),
        (seeds[1], seeds[6]),
        (seeds[2], seeds[5]),
    ]
    assert [len(r.tables) for r in cut_rounds] == [4, 2, 1]
    final = cut_rounds[-1].tables[0]
    assert final.result.wins_a != final.result.wins_b
    assert state.winner == (final.a if final.result.wins_a > final.result.wins_b else final.b)


async def test_a_tournament_call_waits_a_lease_longer_for_the_results_where_another_instance_may_run_them(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the instance that runs the projections may die: a survivor takes them over within a lease and a
    heartbeat, so a tournament call waits that much longer than 10 s for the results before it answers as they are."""
    lease = 20.0
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN, lease_seconds=lease)
    )
    try:
        waits = []
        caught_up = running.tournaments.results.caught_up

        async def waited(position: int, timeout: float) -> bool:
            waits.append(timeout)
            return await caught_up(position, timeout)

        monkeypatch.setattr(running.tournaments.results, "caught_up", waited)
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            tournaments, _ = channel_stubs(channel)
            tid, _ = await open_tournament(tournaments, ADMIN_TOKEN, 2)
            await tournaments.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
        shared = database_url.startswith("postgresql")
        assert waits and set(waits) == {SETTLE_SECONDS + (lease + heartbeat_seconds(lease) if shared else 0.0)}
    finally:
        await running.stop(0)
