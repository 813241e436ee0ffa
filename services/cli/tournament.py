"""``duelhall tournament create|register|start|pair|standings|report|drop|cut|show|list|edit``, against a server.

Organiser commands send the admin token (``--admin-token``, default ``$DUELHALL_ADMIN_TOKEN``). A refusal
prints the server's one-sentence message and its reason, and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc
from google.rpc import error_details_pb2, status_pb2
from rich.table import Column, Table

from services.api import duelhall_pb2 as pb
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.cli.common import add_tls_options, add_verb, channel, err, out
from services.core.errors import DOMAIN

_SPECTATORS = {"public": pb.SPECTATORS_PUBLIC, "token": pb.SPECTATORS_TOKEN, "none": pb.SPECTATORS_NONE}

T = TypeVar("T")
Stub = tpb_grpc.TournamentServiceStub


def arguments(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    def verb(
        name: str, help: str, run: Callable[[argparse.Namespace], int], *, tournament: bool = True, admin: bool = True
    ) -> argparse.ArgumentParser:
        sub = add_verb(verbs, name, help)
        sub.add_argument(
            "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the server (default: 127.0.0.1:50051)"
        )
        add_tls_options(sub)
        if admin:
            sub.add_argument(
                "--admin-token",
                default=os.environ.get("DUELHALL_ADMIN_TOKEN", ""),
                help="the server's admin token (default: $DUELHALL_ADMIN_TOKEN)",
            )
        if tournament:
            sub.add_argument("tournament_id", help="the tournament's id (tournament create prints it)")
        sub.set_defaults(run=run)
        return sub

    create = verb("create", "create a tournament; prints its id", run_create, tournament=False)
    create.add_argument("name", help="the tournament's name, shown to its players")
    create.add_argument("--ruleset", required=True, help="the ruleset every game plays (duelhall rulesets)")
    create.add_argument(
        "--format",
        choices=("swiss", "single_elimination", "round_robin"),
        default="swiss",
        help="how rounds are paired (default: swiss)",
    )
    create.add_argument("--rounds", type=int, default=0, help="at most 64; 0: automatic from the player count")
    create.add_argument("--cut", type=int, default=0, help="top cut size after Swiss: 2, 4, ... 256 (0: none)")
    create.add_argument("--best-of", type=int, choices=(1, 3, 5), default=1, help="games per match (default: 1)")
    create.add_argument(
        "--tiebreak",
        choices=("mtg", "pokemon", "ygo"),
        default="mtg",
        help="the standings' tiebreakers, by the rules of that game family (default: mtg)",
    )
    create.add_argument(
        "--round-minutes",
        type=int,
        default=50,
        help="the round's time limit: at its end unfinished tables are decided by the tiebreak preset's rule; "
        "0 to 1440, 0: none (default: 50)",
    )
    create.add_argument("--seed", default="", help="64 hex digits: the seed of the pairing draws (default: random)")
    create.add_argument("--options", default="", help="match options as JSON")
    create.add_argument(
        "--spectators",
        choices=("public", "token", "none"),
        default="public",
        help="who may watch its games without a seat token (token: each game's token, shown by show --tokens; "
        "default: public)",
    )
    create.add_argument(
        "--caster-delay", type=int, default=0, help="seconds each game's caster feed runs behind (0: no feed)"
    )
    create.add_argument(
        "--decklists",
        choices=("private", "open"),
        default="private",
        help="open: both players of a table see each other's registered deck (default: private)",
    )
    create.add_argument(
        "--chooser-seconds",
        type=int,
        default=0,
        help="seconds a chooser has between games before the chooser is made to go first, 0 to 3600 (0: no limit)",
    )
    create.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a label tournament list filters by; repeatable",
    )
    reg = verb("register", "register a player; prints the player's token", run_register)
    reg.add_argument("player", help="the player's name (the name of their seat in every game)")
    reg.add_argument("--deck", default="", help='the seat configuration as JSON, e.g. {"deck": "starter_a"}')
    reg.add_argument("--seed", type=int, default=0, help="the player's seed, 1 (the top) to 1024 (default: none)")
    reg.add_argument(
        "--rating",
        type=int,
        default=0,
        help="the player's rating, ordering players after the seeded ones (default: none)",
    )
    verb("start", "pair round 1", run_start)
    verb("pair", "pair the next round", run_pair)
    verb("cut", "start the top cut", run_cut)
    standings = verb("standings", "the standings with tiebreakers", run_standings, admin=False)
    standings.add_argument("--round", type=int, default=0, help="as of this round (default: now)")
    report = verb("report", "enter (or correct) a table's result", run_report)
    report.add_argument("round", type=int, help="the round's number")
    report.add_argument("table", type=int, help="the table's number in that round")
    report.add_argument("wins_a", type=int, help="games won by the table's first player (a)")
    report.add_argument("wins_b", type=int, help="games won by the table's second player (b)")
    report.add_argument("--draws", type=int, default=0, help="games drawn (default: 0)")
    report.add_argument("--correction", action="store_true", help="replace the existing result")
    report.add_argument("--by", required=True, help="who enters it")
    report.add_argument("--why", required=True, help="why it is entered by hand (kept in the audit trail)")
    drop = verb("drop", "drop a player", run_drop)
    drop.add_argument("player", help="the player who drops")
    drop.add_argument("--by", required=True, help="who drops them (kept in the audit trail)")
    drop.add_argument("--why", default="", help="why (kept in the audit trail)")
    listing = verb("list", "the tournaments, oldest first", run_list, tournament=False, admin=False)
    listing.add_argument("--status", choices=("registration", "running", "ended"), default="", help="default: any")
    listing.add_argument(
        "--label", action="append", default=[], metavar="KEY=VALUE", help="only those with this label; repeatable"
    )
    edit = verb("edit", "edit the current Swiss round's pairings before any result", run_edit)
    edit.add_argument(
        "edit", choices=("swap", "bye", "loss"), help="swap two players, or give one the bye or an assigned loss"
    )
    edit.add_argument("players", nargs="+", help="the players: two to swap, one for a bye or a loss")
    edit.add_argument("--by", required=True, help="who edits (kept in the audit trail)")
    edit.add_argument("--why", required=True, help="why (kept in the audit trail)")
    show = verb("show", "the tournament and a round's pairings", run_show)
    show.add_argument("--round", type=int, default=0, help="default: the current round")
    show.add_argument(
        "--tokens", action="store_true", help="also each game's spectator and caster tokens (needs the admin token)"
    )


def _call(args: argparse.Namespace, work: Callable[[Stub], Awaitable[T]]) -> T:
    async def run() -> T:
        async with channel(args, args.server) as connected:
            return await work(tpb_grpc.TournamentServiceStub(connected))  # type: ignore[no-untyped-call]

    return asyncio.run(run())


def _refusals(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except grpc.aio.AioRpcError as error:
            err.print(f"{error.details()} ({_reason(error)})")
            return 1

    return guarded


def _reason(error: grpc.aio.AioRpcError) -> str:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info) and info.domain == DOMAIN:
                    return str(info.reason)
    return str(error.code().name)


@_refusals
def run_create(args: argparse.Namespace) -> int:
    reply = _call(
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
                labels=_labels(args.label),
            )
        ),
    )
    out.print(reply.tournament_id)
    return 0


def _labels(given: list[str]) -> dict[str, str]:
    labels = {}
    for label in given:
        key, equals, value = label.partition("=")
        if not equals:
            raise SystemExit(f"--label takes KEY=VALUE, not {label!r}")
        labels[key] = value
    return labels


@_refusals
def run_register(args: argparse.Namespace) -> int:
    reply = _call(
        args,
        lambda stub: stub.Register(
            tpb.RegisterRequest(
                admin_token=args.admin_token,
                tournament_id=args.tournament_id,
                player=args.player,
                deck_json=args.deck,
                seed=args.seed,
                rating=args.rating,
            )
        ),
    )
    late = " (late registration)" if any(p.late for p in reply.tournament.players if p.name == args.player) else ""
    err.print(f"registered {args.player}{late}; the player's token (shown once):")
    out.print(reply.player_token)
    return 0


def _paired(args: argparse.Namespace, action: Callable[[Stub, tpb.OrganiserRequest], Awaitable[Any]]) -> int:
    async def work(stub: Stub) -> tpb.Pairings:
        await action(stub, tpb.OrganiserRequest(admin_token=args.admin_token, tournament_id=args.tournament_id))
        pairings: tpb.Pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=args.tournament_id))
        return pairings

    out.print(pairings_table(_call(args, work)))
    return 0


@_refusals
def run_start(args: argparse.Namespace) -> int:
    return _paired(args, lambda stub, request: stub.Start(request))


@_refusals
def run_pair(args: argparse.Namespace) -> int:
    return _paired(args, lambda stub, request: stub.PairRound(request))


@_refusals
def run_cut(args: argparse.Namespace) -> int:
    return _paired(args, lambda stub, request: stub.StartCut(request))


@_refusals
def run_standings(args: argparse.Namespace) -> int:
    reply = _call(
        args,
        lambda stub: stub.GetStandings(
            tpb.GetStandingsRequest(tournament_id=args.tournament_id, through_round=args.round)
        ),
    )
    out.print(standings_table(reply))
    if reply.placings:
        out.print(placings_table(reply))
    return 0


@_refusals
def run_list(args: argparse.Namespace) -> int:
    labels = _labels(args.label)

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

    table = Table("tournament", "name", "ruleset", "format", "status", "labels", title="tournaments")
    for entry in _call(args, work):
        shown = " ".join(f"{k}={v}" for k, v in sorted(entry.labels.items()))
        table.add_row(entry.tournament_id, entry.name, entry.ruleset, entry.format, entry.status, shown)
    out.print(table)
    return 0


@_refusals
def run_edit(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tpb.Pairings:
        await stub.EditPairings(
            tpb.EditPairingsRequest(
                admin_token=args.admin_token,
                tournament_id=args.tournament_id,
                edit=args.edit,
                players=args.players,
                by=args.by,
                why=args.why,
            )
        )
        pairings: tpb.Pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=args.tournament_id))
        return pairings

    out.print(pairings_table(_call(args, work)))
    return 0


@_refusals
def run_report(args: argparse.Namespace) -> int:
    _call(
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
    verb = "corrected" if args.correction else "entered"
    out.print(f"{verb}: round {args.round} table {args.table} {args.wins_a}-{args.wins_b}-{args.draws}")
    return 0


@_refusals
def run_drop(args: argparse.Namespace) -> int:
    _call(
        args,
        lambda stub: stub.Drop(
            tpb.DropRequest(
                tournament_id=args.tournament_id, player=args.player, token=args.admin_token, by=args.by, why=args.why
            )
        ),
    )
    out.print(f"dropped: {args.player}")
    return 0


@_refusals
def run_show(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tuple[tpb.Tournament, tpb.Pairings | None]:
        state = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=args.tournament_id))
        if not state.current_round:
            return state, None
        admin_token = args.admin_token if args.tokens else ""
        asked = tpb.GetPairingsRequest(tournament_id=args.tournament_id, round=args.round, admin_token=admin_token)
        return state, await stub.GetPairings(asked)

    state, pairings = _call(args, work)
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


def tokens_table(pairings: tpb.Pairings) -> Table:
    """Each game's spectator and caster tokens, for the organiser to hand to its watchers and casters."""
    table = Table("table", "game", "match", "spectator token", "caster token", title="tokens")
    for entry in pairings.tables:
        for game in entry.games:
            if game.match_id:
                table.add_row(str(entry.table), str(game.game), game.match_id, game.spectator_token, game.caster_token)
    return table


def pairings_table(pairings: tpb.Pairings) -> Table:
    table = Table(
        "table", "player a", "player b", "result", "games", title=f"round {pairings.round} ({pairings.stage})"
    )
    for entry in pairings.tables:
        if not entry.b:
            table.add_row(str(entry.table), entry.a, "(loss)" if entry.loss else "(bye)", "", "")
            continue
        result = ""
        if entry.finished:
            r = entry.result
            result = f"{r.wins_a}-{r.wins_b}-{r.draws}" + ("" if r.source == "games" else f" ({r.source})")
        games = " ".join(g.match_id[:8] + ("*" if g.played else "") for g in entry.games if g.match_id)
        table.add_row(str(entry.table), entry.a, entry.b, result, games)
    return table


def standings_table(standings: tpb.Standings) -> Table:
    names = list(standings.tiebreak_names)
    table = Table(
        "rank", Column("player", no_wrap=True), "points", "W-L-D", *names, title=f"standings ({standings.tiebreak})"
    )
    for entry in standings.standings:
        percents = [f"{_percent(f):.2f}" for f in entry.tiebreaks]
        name = entry.player + (" (dropped)" if entry.dropped else "")
        table.add_row(str(entry.rank), name, str(entry.points), f"{entry.wins}-{entry.losses}-{entry.draws}", *percents)
    return table


def placings_table(standings: tpb.Standings) -> Table:
    table = Table("place", Column("player", no_wrap=True), title="final placings")
    for place, player in enumerate(standings.placings, start=1):
        table.add_row(str(place), player)
    return table


def _percent(fraction: str) -> float:
    numerator, denominator = fraction.split("/")
    return 100 * int(numerator) / int(denominator)
