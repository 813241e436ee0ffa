"""Test-side tournament players: bots that fetch their seat, play their match through the server, and
the organiser's loop that waits for a round's results to arrive from the lifecycle stream."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from typing import Any

import grpc
import msgspec

from engine import registry
from engine.bots import make_bot
from engine.contract import CONCEDE
from engine.match import encode
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc

SEARCH_SECONDS = 0.02
"""A search bot's budget here, as iterations (no clock: the same seed, the same play): a few per decision."""


async def play_match(
    matches: pb_grpc.MatchServiceStub,
    ruleset_id: str,
    match_id: str,
    tokens: list[str],
    seed: int,
    levels: Sequence[str] = (),
) -> None:
    """Bots play every seat of a match (only through their views and legal commands) to its end: random ones,
    or each seat's level in ``levels``."""
    ruleset = registry.get(ruleset_id)
    views: msgspec.json.Decoder[Any] = msgspec.json.Decoder(ruleset.View)
    commands = msgspec.json.Decoder(ruleset.Command)
    bots = [
        make_bot(level, ruleset, seed * 7 + seat, SEARCH_SECONDS)
        for seat, level in enumerate(levels or ["random"] * len(tokens))
    ]
    to_act = list((await matches.GetView(pb.GetViewRequest(match_id=match_id))).to_act)
    count = 0
    while to_act:
        seat = to_act[0]
        legal = await matches.ListLegalCommands(
            pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat], include_view=True)
        )
        options = [c for c in (commands.decode(c) for c in legal.commands_json) if c.__struct_config__.tag != CONCEDE]
        choice = bots[seat].choose(views.decode(legal.view_json), options)
        reply = await matches.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=match_id,
                token=tokens[seat],
                command_json=encode(choice).decode(),
                command_id=f"{match_id}-{count}",
            )
        )
        to_act = list(reply.to_act)
        count += 1


async def play_table(
    stub: tpb_grpc.TournamentServiceStub,
    matches: pb_grpc.MatchServiceStub,
    tournament_id: str,
    ruleset_id: str,
    table: tpb.TableEntry,
    tokens: dict[str, str],
    seed: int,
    levels: Mapping[str, str],
) -> None:
    """Both players fetch their seat in the table's current game and their bots play it (random, or the
    player's level in ``levels``)."""
    a = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tournament_id, player=table.a, token=tokens[table.a]))
    b = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tournament_id, player=table.b, token=tokens[table.b]))
    assert a.match_id == b.match_id and {a.seat, b.seat} == {0, 1}
    seated = sorted([(a.seat, table.a, a.token), (b.seat, table.b, b.token)])
    bots = [levels.get(player, "random") for _, player, _ in seated]
    await play_match(matches, ruleset_id, a.match_id, [token for _, _, token in seated], seed, bots)


async def settled(
    stub: tpb_grpc.TournamentServiceStub, tournament_id: str, round_: int, played: dict[int, int]
) -> tpb.Pairings:
    """The round's pairings, read at once: each table has at least ``played[table]`` games recorded (or is
    finished), as every tournament call first waits for the results of the matches that ended before it."""
    pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tournament_id, round=round_))
    behind = [
        t.table for t in pairings.tables if not t.finished and sum(g.played for g in t.games) < played.get(t.table, 0)
    ]
    assert not behind, f"tables {behind} lack the results of games that have ended"
    return pairings


async def play_round(
    stub: tpb_grpc.TournamentServiceStub,
    matches: pb_grpc.MatchServiceStub,
    tournament_id: str,
    ruleset_id: str,
    tokens: dict[str, str],
    seed: int,
    skip: frozenset[int] = frozenset(),
    concurrency: int = 16,
    levels: Mapping[str, str] | None = None,
) -> tpb.Pairings:
    """Plays every unfinished table of the current round (but ``skip``) game after game until each is decided;
    after a game the loser (or the last chooser) lets the player who lost go first."""
    pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tournament_id))
    slots = asyncio.Semaphore(concurrency)
    rng = random.Random(seed)

    async def table_loop(table: tpb.TableEntry) -> None:
        while not table.finished:
            async with slots:
                seed = rng.randrange(1 << 30)
                await play_table(stub, matches, tournament_id, ruleset_id, table, tokens, seed, levels or {})
            done = sum(g.played for g in table.games) + 1
            current = await settled(stub, tournament_id, pairings.round, {table.table: done})
            table = next(t for t in current.tables if t.table == table.table)
            if not table.finished:
                chooser = table.chooser
                assert chooser, table
                await stub.ChooseFirst(
                    tpb.ChooseFirstRequest(
                        tournament_id=tournament_id,
                        player=chooser,
                        token=tokens[chooser],
                        round=pairings.round,
                        table=table.table,
                        first=chooser,
                    )
                )
                table = next(
                    t
                    for t in (
                        await stub.GetPairings(
                            tpb.GetPairingsRequest(tournament_id=tournament_id, round=pairings.round)
                        )
                    ).tables
                    if t.table == table.table
                )

    await asyncio.gather(*(table_loop(t) for t in pairings.tables if t.b and not t.finished and t.table not in skip))
    return await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tournament_id, round=pairings.round))


async def open_tournament(
    stub: tpb_grpc.TournamentServiceStub, admin_token: str, players: int, deck_json: str = "", **fields: Any
) -> tuple[str, dict[str, str]]:
    """A tournament with ``players`` registered (p0, p1, ...), not started: its id and their tokens. ``fields`` set
    the request's fields over a card_monsters Swiss of best of 1."""
    request: dict[str, Any] = {
        "name": "cup",
        "ruleset": "card_monsters",
        "format": "swiss",
        "best_of": 1,
        "tiebreak": "mtg",
        "seed_hex": "01" * 32,
    }
    created = await stub.CreateTournament(tpb.CreateTournamentRequest(admin_token=admin_token, **(request | fields)))
    tokens = {}
    for i in range(players):
        reply = await stub.Register(
            tpb.RegisterRequest(
                admin_token=admin_token, tournament_id=created.tournament_id, player=f"p{i}", deck_json=deck_json
            )
        )
        tokens[f"p{i}"] = reply.player_token
    return created.tournament_id, tokens


def channel_stubs(channel: grpc.aio.Channel) -> tuple[tpb_grpc.TournamentServiceStub, pb_grpc.MatchServiceStub]:
    return tpb_grpc.TournamentServiceStub(channel), pb_grpc.MatchServiceStub(channel)
