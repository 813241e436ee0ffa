"""The organiser's verbs, with the admin token: create, register, pair, report, edit, drop and the rest."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from services.api import duelhall_pb2 as pb
from services.api import tournament_pb2 as tpb
from services.cli.common import err, out
from services.cli.tournament.calls import (
    DECK_FORMAT,
    Stub,
    call,
    checked_deck,
    done,
    parsed_labels,
    player_token,
    print_json,
    reason_of,
    refusals,
)
from services.cli.tournament.tables import pairings_table

_SPECTATORS = {"public": pb.SPECTATORS_PUBLIC, "token": pb.SPECTATORS_TOKEN, "none": pb.SPECTATORS_NONE}
_NOT_DECK = ("PLAYER_NAME_MISSING", "PLAYER_NAME_INVALID", "TOURNAMENT_ID_MISSING")
"""Register's INVALID_ARGUMENT reasons that are not about the deck (every other one is the ruleset's)."""


@refusals
def run_create(args: argparse.Namespace) -> int:
    reply = call(
        args,
        lambda stub: stub.CreateTournament(
            tpb.CreateTournamentRequest(
                admin_token=args.admin_token,
                name=args.name,
                ruleset=args.ruleset,
                format=args.format,
                rounds=args.rounds,
                cut=args.cut,
                best_of=args.best_of,
                tiebreak=args.tiebreak,
                round_minutes=args.round_minutes,
                seed_hex=args.seed,
                options_json=args.options,
                spectators=_SPECTATORS[args.spectators],
                caster_delay_seconds=args.caster_delay,
                decklists=args.decklists,
                chooser_seconds=args.chooser_seconds,
                labels=parsed_labels(args.label),
                deck_rule=args.deck_rule,
                fixed_deck_json=checked_deck(args.fixed_deck, "--fixed-deck"),
            )
        ),
    )
    if args.json:
        print_json(reply)
    else:
        out.print(reply.tournament_id)
    return 0


@refusals
def run_register(args: argparse.Namespace) -> int:
    deck = checked_deck(args.deck, "--deck")
    try:
        reply = call(
            args,
            lambda stub: stub.Register(
                tpb.RegisterRequest(
                    admin_token=args.admin_token,
                    tournament_id=args.tournament_id,
                    player=args.player,
                    deck_json=deck,
                    seed=args.seed,
                    rating=args.rating,
                )
            ),
        )
    except grpc.aio.AioRpcError as error:
        refused = reason_of(error)
        if error.code() != grpc.StatusCode.INVALID_ARGUMENT or refused in _NOT_DECK:
            raise
        line = f"--deck: {error.details()} ({refused}); expected {DECK_FORMAT} (duelhall rulesets lists the presets)"
        err.print(line, soft_wrap=True, markup=False)
        return 1
    if args.json:
        print_json(reply)
        return 0
    late = " (late registration)" if any(p.late for p in reply.tournament.players if p.name == args.player) else ""
    err.print(f"registered {args.player}{late}; the player's token (shown once):")
    out.print(reply.player_token)
    return 0


def paired(args: argparse.Namespace, action: Callable[[Stub, tpb.OrganiserRequest], Awaitable[Any]]) -> int:
    async def work(stub: Stub) -> tpb.Pairings:
        await action(stub, tpb.OrganiserRequest(admin_token=args.admin_token, tournament_id=args.tournament_id))
        pairings: tpb.Pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=args.tournament_id))
        return pairings

    pairings = call(args, work)
    if args.json:
        print_json(pairings)
    else:
        out.print(pairings_table(pairings))
    return 0


@refusals
def run_start(args: argparse.Namespace) -> int:
    return paired(args, lambda stub, request: stub.Start(request))


@refusals
def run_pair(args: argparse.Namespace) -> int:
    return paired(args, lambda stub, request: stub.PairRound(request))


@refusals
def run_cut(args: argparse.Namespace) -> int:
    return paired(args, lambda stub, request: stub.StartCut(request))


@refusals
def run_repair(args: argparse.Namespace) -> int:
    audited = tpb.AuditedRequest(
        admin_token=args.admin_token, tournament_id=args.tournament_id, by=args.by, why=args.why
    )
    return paired(args, lambda stub, request: stub.RepairRound(audited))


@refusals
def run_edit(args: argparse.Namespace) -> int:
    edit = tpb.EditPairingsRequest(
        admin_token=args.admin_token,
        tournament_id=args.tournament_id,
        edit=args.edit,
        players=args.players,
        by=args.by,
        why=args.why,
    )
    return paired(args, lambda stub, _: stub.EditPairings(edit))


@refusals
def run_report(args: argparse.Namespace) -> int:
    reply = call(
        args,
        lambda stub: stub.ReportResult(
            tpb.ReportResultRequest(
                admin_token=args.admin_token,
                tournament_id=args.tournament_id,
                round=args.round,
                table=args.table,
                wins_a=args.wins_a,
                wins_b=args.wins_b,
                draws=args.draws,
                correction=args.correction,
                by=args.by,
                why=args.why,
            )
        ),
    )
    if args.json:
        print_json(reply)
        return 0
    verb = "corrected" if args.correction else "entered"
    out.print(f"{verb}: round {args.round} table {args.table} {args.wins_a}-{args.wins_b}-{args.draws}")
    return 0


@refusals
def run_drop(args: argparse.Namespace) -> int:
    reply = call(
        args,
        lambda stub: stub.Drop(
            tpb.DropRequest(
                tournament_id=args.tournament_id,
                player=args.player,
                token=player_token(args),
                by=args.by,
                why=args.why,
            )
        ),
    )
    done(args, reply, f"dropped: {args.player}")
    return 0


@refusals
def run_reinstate(args: argparse.Namespace) -> int:
    request = tpb.DropRequest(
        tournament_id=args.tournament_id, player=args.player, token=args.admin_token, by=args.by, why=args.why
    )
    done(args, call(args, lambda stub: stub.Reinstate(request)), f"reinstated: {args.player}")
    return 0


@refusals
def run_reissue(args: argparse.Namespace) -> int:
    request = tpb.ReissueTokenRequest(
        admin_token=args.admin_token, tournament_id=args.tournament_id, player=args.player, by=args.by, why=args.why
    )
    reply = call(args, lambda stub: stub.ReissueToken(request))
    if args.json:
        print_json(reply)
        return 0
    err.print(f"{args.player}'s new token (shown once; the old one no longer works):")
    out.print(reply.player_token)
    return 0


@refusals
def run_publish(args: argparse.Namespace) -> int:
    request = tpb.AuditedRequest(
        admin_token=args.admin_token, tournament_id=args.tournament_id, by=args.by, why=args.why
    )
    done(args, call(args, lambda stub: stub.PublishReplays(request)), "replays published")
    return 0
