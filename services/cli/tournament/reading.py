"""The verbs that read a tournament: show, standings, list and the audit trail's events."""

from __future__ import annotations

import argparse
import json
import sys

from rich.table import Column, Table

from services.api import tournament_pb2 as tpb
from services.cli.common import err, out
from services.cli.tournament.calls import (
    Stub,
    as_json,
    call,
    parsed_labels,
    print_json,
    refusals,
)
from services.cli.tournament.tables import pairings_table, placings_table, standings_table, tokens_table


@refusals
def run_show(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tuple[tpb.Tournament, tpb.Pairings | None]:
        state = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=args.tournament_id))
        if not state.current_round:
            return state, None
        # With the admin token (when there is one) the running games' match ids show too.
        admin_token = args.admin_token
        asked = tpb.GetPairingsRequest(tournament_id=args.tournament_id, round=args.round, admin_token=admin_token)
        return state, await stub.GetPairings(asked)

    state, pairings = call(args, work)
    if args.json:
        shown = {
            "tournament": json.loads(as_json(state)),
            "pairings": json.loads(as_json(pairings)) if pairings else None,
        }
        sys.stdout.write(json.dumps(shown, sort_keys=True) + "\n")
        return 0
    summary = Table(title=f"{state.name} ({state.tournament_id})", show_header=False)
    summary.add_row("ruleset", state.ruleset)
    summary.add_row("format", f"{state.format}, best of {state.best_of}" + (f", top {state.cut}" if state.cut else ""))
    summary.add_row("tiebreak", state.tiebreak)
    summary.add_row("status", state.status + (f", winner {state.winner}" if state.winner else ""))
    summary.add_row(
        "round",
        f"{state.current_round} of {state.rounds} ({state.current_stage})"
        if state.current_round
        else f"{state.rounds or 'auto'} planned",
    )
    summary.add_row("players", f"{len(state.players)} ({sum(p.dropped for p in state.players)} dropped)")
    out.print(summary)
    if pairings is not None:
        out.print(pairings_table(pairings))
        if args.tokens:
            out.print(tokens_table(pairings))
    return 0


@refusals
def run_standings(args: argparse.Namespace) -> int:
    reply = call(
        args,
        lambda stub: stub.GetStandings(
            tpb.GetStandingsRequest(tournament_id=args.tournament_id, through_round=args.round)
        ),
    )
    if args.json:
        print_json(reply)
        return 0
    out.print(standings_table(reply))
    if reply.placings:
        out.print(placings_table(reply))
    return 0


@refusals
def run_list(args: argparse.Namespace) -> int:
    labels = parsed_labels(args.label)

    async def work(stub: Stub) -> list[tpb.TournamentSummary]:
        found: list[tpb.TournamentSummary] = []
        token = ""
        while True:
            page = await stub.ListTournaments(
                tpb.ListTournamentsRequest(status=args.status, labels=labels, page_token=token)
            )
            found += page.tournaments
            token = page.next_page_token
            if not token:
                return found

    found = call(args, work)
    if args.json:
        print_json(tpb.ListTournamentsResponse(tournaments=found))
        return 0
    table = Table("tournament", "name", "ruleset", "format", "status", "labels", title="tournaments")
    for entry in found:
        shown = " ".join(f"{k}={v}" for k, v in sorted(entry.labels.items()))
        table.add_row(entry.tournament_id, entry.name, entry.ruleset, entry.format, entry.status, shown)
    out.print(table)
    return 0


@refusals
def run_events(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> list[tpb.TournamentEvents]:
        pages = []
        start = args.from_version
        while True:
            page: tpb.TournamentEvents = await stub.ListTournamentEvents(
                tpb.GetTournamentRequest(
                    tournament_id=args.tournament_id,
                    admin_token=args.admin_token,
                    from_version=start,
                    page_size=args.limit,
                )
            )
            pages.append(page)
            if not args.all or not page.next_version:
                return pages
            start = page.next_version

    pages = call(args, work)
    if args.json:
        for page in pages:
            print_json(page)
        return 0
    table = Table("version", "type", "recorded at", Column("event", overflow="fold"), title="events")
    for page in pages:
        for event in page.events:
            table.add_row(str(event.version), event.type, event.recorded_at, event.data_json)
    out.print(table)
    if pages[-1].next_version:
        err.print(f"more from version {pages[-1].next_version} (--from {pages[-1].next_version}, or --all)")
    return 0
