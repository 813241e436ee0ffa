"""A player's verbs, with the player's token: check in, their seat, choose first, side deck, and play by bot."""

from __future__ import annotations

import argparse
import asyncio

from services.api import tournament_pb2 as tpb
from services.cli.common import channel, err, out
from services.cli.tournament.calls import (
    Stub,
    call,
    done,
    player_token,
    print_json,
    refusals,
)


@refusals
def run_check_in(args: argparse.Namespace) -> int:
    request = tpb.PlayerRequest(tournament_id=args.tournament_id, player=args.player, token=player_token(args))
    done(args, call(args, lambda stub: stub.CheckIn(request)), f"checked in: {args.player}")
    return 0


@refusals
def run_seat(args: argparse.Namespace) -> int:
    request = tpb.PlayerRequest(tournament_id=args.tournament_id, player=args.player, token=player_token(args))
    seat = call(args, lambda stub: stub.GetSeat(request))
    if args.json:
        print_json(seat)
        return 0
    err.print(f"round {seat.round}, table {seat.table}, game {seat.game}: seat {seat.seat} against {seat.opponent}")
    out.print(f"{seat.match_id} {seat.token}")
    return 0


async def table_of(stub: Stub, args: argparse.Namespace) -> tuple[int, int]:
    """The round and table the player asks about: as given, else the current round and the player's table there."""
    if args.round and args.table:
        return args.round, args.table
    pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=args.tournament_id, round=args.round))
    table = next((t.table for t in pairings.tables if args.player in (t.a, t.b)), 0)
    return pairings.round, args.table or table


@refusals
def run_choose_first(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tpb.Tournament:
        round_, table = await table_of(stub, args)
        chosen: tpb.Tournament = await stub.ChooseFirst(
            tpb.ChooseFirstRequest(
                tournament_id=args.tournament_id,
                player=args.player,
                token=player_token(args),
                round=round_,
                table=table,
                first=args.first,
            )
        )
        return chosen

    done(args, call(args, work), f"{args.first} goes first")
    return 0


@refusals
def run_side_deck(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tpb.Tournament:
        round_, table = await table_of(stub, args)
        sided: tpb.Tournament = await stub.SideDeck(
            tpb.SideDeckRequest(
                tournament_id=args.tournament_id,
                player=args.player,
                token=player_token(args),
                round=round_,
                table=table,
                removed=args.out,
                added=args.into,
            )
        )
        return sided

    done(args, call(args, work), f"sided: {len(args.out)} cards swapped")
    return 0


@refusals
def run_play(args: argparse.Namespace) -> int:
    from services.cli.tournament.bot import play_tournament  # here: the engine's bots load only for this verb

    async def work() -> tpb.Tournament:
        async with channel(args, args.server) as connected:
            return await play_tournament(
                connected, args.tournament_id, args.player, player_token(args), args.bot, args.seed
            )

    ended = asyncio.run(work())
    if args.json:
        print_json(ended)
    else:
        out.print(f"the tournament ended; winner {ended.winner or '(none)'}")
    return 0
