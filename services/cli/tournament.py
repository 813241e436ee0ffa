"""``duelhall tournament VERB``: a verb for every ``TournamentService`` call, against a server.

Organiser commands send the admin token (``--admin-token``, default ``$DUELHALL_ADMIN_TOKEN``); a player's
commands send the player's token (``--token``, default ``$DUELHALL_PLAYER_TOKEN``), or the admin token when
only that is given. ``--json`` prints the server's reply as proto3 JSON (``watch``: one line per entry). A
refusal prints the server's one-sentence message and its reason, and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from rich.table import Column, Table

from engine.bots import BOT_KINDS
from services.api import duelhall_pb2 as pb
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.cli.common import add_tls_options, add_verb, channel, err, out
from services.core.errors import DOMAIN

_SPECTATORS = {"public": pb.SPECTATORS_PUBLIC, "token": pb.SPECTATORS_TOKEN, "none": pb.SPECTATORS_NONE}

T = TypeVar("T")
Stub = tpb_grpc.TournamentServiceStub
PLAYER_TOKEN_ENV = "DUELHALL_PLAYER_TOKEN"
DECK_FORMAT = 'a JSON object, the seat configuration for the ruleset, e.g. --deck \'{"deck": "starter_a"}\''
_NOT_DECK = ("PLAYER_NAME_MISSING", "PLAYER_NAME_INVALID", "TOURNAMENT_ID_MISSING")
"""Register's INVALID_ARGUMENT reasons that are not about the deck (every other one is the ruleset's)."""


def arguments(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    def verb(
        name: str,
        help: str,
        run: Callable[[argparse.Namespace], int],
        *,
        tournament: bool = True,
        admin: bool = True,
        player: bool = False,
    ) -> argparse.ArgumentParser:
        sub = add_verb(verbs, name, help)
        sub.add_argument(
            "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the server (default: 127.0.0.1:50051)"
        )
        add_tls_options(sub)
        sub.add_argument("--json", action="store_true", help="print the server's reply as JSON")
        if admin:
            sub.add_argument(
                "--admin-token",
                default=os.environ.get("DUELHALL_ADMIN_TOKEN", ""),
                help="the server's admin token (default: $DUELHALL_ADMIN_TOKEN)",
            )
        if player:
            sub.add_argument(
                "--token",
                default=os.environ.get(PLAYER_TOKEN_ENV, ""),
                help=f"the player's token (default: ${PLAYER_TOKEN_ENV}; without one, the admin token)",
            )
        if tournament:
            sub.add_argument("tournament_id", help="the tournament's id (tournament create prints it)")
        if player:
            sub.add_argument("player", help="the player's name")
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
    create.add_argument(
        "--deck-rule",
        choices=("any", "required", "fixed"),
        default="any",
        help="decks at registration: any (none: the ruleset's first preset), required, or fixed (everyone plays "
        "--fixed-deck) (default: any)",
    )
    create.add_argument("--fixed-deck", default="", help=f"with --deck-rule fixed: {DECK_FORMAT}")
    reg = verb("register", "register a player; prints the player's token", run_register)
    reg.add_argument("player", help="the player's name (the name of their seat in every game)")
    reg.add_argument("--deck", default="", help=f"the player's deck: {DECK_FORMAT}")
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
    drop = verb("drop", "drop a player (the organiser, or the player with --token)", run_drop)
    drop.add_argument("player", help="the player who drops")
    drop.add_argument("--token", default="", help="the player's own token, instead of the admin token")
    drop.add_argument("--by", default="", help="who drops them (kept in the audit trail; default: the player)")
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
    show = verb("show", "the tournament and a round's pairings (with the admin token: every game's match id)", run_show)
    show.add_argument("--round", type=int, default=0, help="default: the current round")
    show.add_argument(
        "--tokens", action="store_true", help="also each game's spectator and caster tokens (needs the admin token)"
    )
    verb("check-in", "check a player in before the start", run_check_in, player=True)
    reinstate = verb("reinstate", "bring a dropped player back (Swiss rounds)", run_reinstate)
    reinstate.add_argument("player", help="the dropped player")
    reinstate.add_argument("--by", required=True, help="who reinstates them (kept in the audit trail)")
    reinstate.add_argument("--why", default="", help="why (kept in the audit trail)")
    repair = verb("repair", "pair the current round again, before any of its results", run_repair)
    repair.add_argument("--by", required=True, help="who re-pairs it (kept in the audit trail)")
    repair.add_argument("--why", required=True, help="why (kept in the audit trail)")
    verb("seat", "a player's match to play now and their seat token in it", run_seat, player=True)
    choose = verb("choose-first", "the chooser picks who goes first in the next game", run_choose_first, player=True)
    choose.add_argument("first", help="the player who goes first")
    choose.add_argument("--round", type=int, default=0, help="the round (default: the current one)")
    choose.add_argument("--table", type=int, default=0, help="the table (default: the player's table)")
    side = verb("side-deck", "between games, swap cards one for one with the side deck", run_side_deck, player=True)
    side.add_argument("--out", action="append", default=[], metavar="CARD", help="a card out of the deck (repeat)")
    side.add_argument("--in", dest="into", action="append", default=[], metavar="CARD", help="a side card in (repeat)")
    side.add_argument("--round", type=int, default=0, help="the round (default: the current one)")
    side.add_argument("--table", type=int, default=0, help="the table (default: the player's table)")
    events = verb("events", "the audit trail, a page at a time", run_events)
    events.add_argument("--from", dest="from_version", type=int, default=0, help="the first version (default: 1)")
    events.add_argument("--limit", type=int, default=0, help="events per page, at most 1,000 (default: 500)")
    events.add_argument("--all", action="store_true", help="every page, not just the first")
    watch = verb("watch", "follow the tournament as it happens, until it ends", run_watch, admin=False)
    watch.add_argument("--from", dest="from_version", type=int, default=0, help="the first version (default: 1)")
    watch.add_argument("--player", default="", help="only what concerns this player (with --token)")
    watch.add_argument(
        "--token",
        default=os.environ.get(PLAYER_TOKEN_ENV, "") or os.environ.get("DUELHALL_ADMIN_TOKEN", ""),
        help=f"the player's token or the admin token (default: ${PLAYER_TOKEN_ENV}, else $DUELHALL_ADMIN_TOKEN)",
    )
    play = verb("play", "a bot plays the player's games with the player's token, until the end", run_play, player=True)
    play.add_argument("--bot", choices=BOT_KINDS, default="random", help="the bot's level (default: random)")
    play.add_argument("--seed", type=int, default=0, help="seed of the bot's choices (default: 0)")
    reissue = verb("reissue", "a new token for a player; the old one stops working", run_reissue)
    reissue.add_argument("player", help="the player")
    reissue.add_argument("--by", required=True, help="who re-issues it (kept in the audit trail)")
    reissue.add_argument("--why", required=True, help="why (kept in the audit trail)")
    publish = verb("publish", "lift the embargo on the replays before the end", run_publish)
    publish.add_argument("--by", required=True, help="who publishes them (kept in the audit trail)")
    publish.add_argument("--why", required=True, help="why (kept in the audit trail)")


def _json(message: Message) -> str:
    return json.dumps(json_format.MessageToDict(message, preserving_proto_field_name=True), sort_keys=True)


def _print_json(message: Message) -> None:
    """Straight to stdout, not through rich: JSON must stay one unwrapped, unstyled line."""
    sys.stdout.write(_json(message) + "\n")
    sys.stdout.flush()


def _player_token(args: argparse.Namespace) -> str:
    return str(args.token or args.admin_token)


class UsageError(Exception):
    """A flag's value the command refuses before calling the server (exit status 2, as argparse's own)."""


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
        except UsageError as error:
            err.print(str(error), soft_wrap=True, markup=False)
            return 2

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
                deck_rule=args.deck_rule,
                fixed_deck_json=_deck(args.fixed_deck, "--fixed-deck"),
            )
        ),
    )
    if args.json:
        _print_json(reply)
    else:
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


def _deck(text: str, flag: str) -> str:
    """``text`` if it is a JSON object (or empty), else exits 2 naming the flag and the format it takes."""
    if text:
        try:
            value = json.loads(text)
        except ValueError as exc:
            value = exc
        if not isinstance(value, dict):
            problem = f"not JSON ({value})" if isinstance(value, ValueError) else "not a JSON object"
            raise UsageError(f"{flag}: {problem}; expected {DECK_FORMAT.replace('--deck', flag)}")
    return text


@_refusals
def run_register(args: argparse.Namespace) -> int:
    deck = _deck(args.deck, "--deck")
    try:
        reply = _call(
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
        reason = _reason(error)
        if error.code() != grpc.StatusCode.INVALID_ARGUMENT or reason in _NOT_DECK:
            raise
        line = f"--deck: {error.details()} ({reason}); expected {DECK_FORMAT} (duelhall rulesets lists the presets)"
        err.print(line, soft_wrap=True, markup=False)
        return 1
    if args.json:
        _print_json(reply)
        return 0
    late = " (late registration)" if any(p.late for p in reply.tournament.players if p.name == args.player) else ""
    err.print(f"registered {args.player}{late}; the player's token (shown once):")
    out.print(reply.player_token)
    return 0


def _paired(args: argparse.Namespace, action: Callable[[Stub, tpb.OrganiserRequest], Awaitable[Any]]) -> int:
    async def work(stub: Stub) -> tpb.Pairings:
        await action(stub, tpb.OrganiserRequest(admin_token=args.admin_token, tournament_id=args.tournament_id))
        pairings: tpb.Pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=args.tournament_id))
        return pairings

    pairings = _call(args, work)
    if args.json:
        _print_json(pairings)
    else:
        out.print(pairings_table(pairings))
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
    if args.json:
        _print_json(reply)
        return 0
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

    found = _call(args, work)
    if args.json:
        _print_json(tpb.ListTournamentsResponse(tournaments=found))
        return 0
    table = Table("tournament", "name", "ruleset", "format", "status", "labels", title="tournaments")
    for entry in found:
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

    pairings = _call(args, work)
    if args.json:
        _print_json(pairings)
    else:
        out.print(pairings_table(pairings))
    return 0


@_refusals
def run_report(args: argparse.Namespace) -> int:
    reply = _call(
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
        _print_json(reply)
        return 0
    verb = "corrected" if args.correction else "entered"
    out.print(f"{verb}: round {args.round} table {args.table} {args.wins_a}-{args.wins_b}-{args.draws}")
    return 0


@_refusals
def run_drop(args: argparse.Namespace) -> int:
    reply = _call(
        args,
        lambda stub: stub.Drop(
            tpb.DropRequest(
                tournament_id=args.tournament_id,
                player=args.player,
                token=_player_token(args),
                by=args.by,
                why=args.why,
            )
        ),
    )
    _done(args, reply, f"dropped: {args.player}")
    return 0


def _done(args: argparse.Namespace, reply: Message, line: str) -> None:
    if args.json:
        _print_json(reply)
    else:
        out.print(line)


@_refusals
def run_show(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tuple[tpb.Tournament, tpb.Pairings | None]:
        state = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=args.tournament_id))
        if not state.current_round:
            return state, None
        # With the admin token (when there is one) the running games' match ids show too.
        admin_token = args.admin_token
        asked = tpb.GetPairingsRequest(tournament_id=args.tournament_id, round=args.round, admin_token=admin_token)
        return state, await stub.GetPairings(asked)

    state, pairings = _call(args, work)
    if args.json:
        shown = {"tournament": json.loads(_json(state)), "pairings": json.loads(_json(pairings)) if pairings else None}
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
        "table",
        "player a",
        "player b",
        "result",
        Column("games (* played)", no_wrap=True),
        title=f"round {pairings.round} ({pairings.stage})",
    )
    for entry in pairings.tables:
        if not entry.b:
            table.add_row(str(entry.table), entry.a, "(loss)" if entry.loss else "(bye)", "", "")
            continue
        result = ""
        if entry.finished:
            r = entry.result
            result = f"{r.wins_a}-{r.wins_b}-{r.draws}" + ("" if r.source == "games" else f" ({r.source})")
        # Whole ids, one a line: they are what a player or a watcher types (duelhall watch, join).
        games = "\n".join(g.match_id + ("*" if g.played else "") for g in entry.games if g.match_id)
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


@_refusals
def run_check_in(args: argparse.Namespace) -> int:
    request = tpb.PlayerRequest(tournament_id=args.tournament_id, player=args.player, token=_player_token(args))
    _done(args, _call(args, lambda stub: stub.CheckIn(request)), f"checked in: {args.player}")
    return 0


@_refusals
def run_reinstate(args: argparse.Namespace) -> int:
    request = tpb.DropRequest(
        tournament_id=args.tournament_id, player=args.player, token=args.admin_token, by=args.by, why=args.why
    )
    _done(args, _call(args, lambda stub: stub.Reinstate(request)), f"reinstated: {args.player}")
    return 0


@_refusals
def run_repair(args: argparse.Namespace) -> int:
    audited = tpb.AuditedRequest(
        admin_token=args.admin_token, tournament_id=args.tournament_id, by=args.by, why=args.why
    )
    return _paired(args, lambda stub, request: stub.RepairRound(audited))


@_refusals
def run_seat(args: argparse.Namespace) -> int:
    request = tpb.PlayerRequest(tournament_id=args.tournament_id, player=args.player, token=_player_token(args))
    seat = _call(args, lambda stub: stub.GetSeat(request))
    if args.json:
        _print_json(seat)
        return 0
    err.print(f"round {seat.round}, table {seat.table}, game {seat.game}: seat {seat.seat} against {seat.opponent}")
    out.print(f"{seat.match_id} {seat.token}")
    return 0


async def _table_of(stub: Stub, args: argparse.Namespace) -> tuple[int, int]:
    """The round and table the player asks about: as given, else the current round and the player's table there."""
    if args.round and args.table:
        return args.round, args.table
    pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=args.tournament_id, round=args.round))
    table = next((t.table for t in pairings.tables if args.player in (t.a, t.b)), 0)
    return pairings.round, args.table or table


@_refusals
def run_choose_first(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tpb.Tournament:
        round_, table = await _table_of(stub, args)
        chosen: tpb.Tournament = await stub.ChooseFirst(
            tpb.ChooseFirstRequest(
                tournament_id=args.tournament_id,
                player=args.player,
                token=_player_token(args),
                round=round_,
                table=table,
                first=args.first,
            )
        )
        return chosen

    _done(args, _call(args, work), f"{args.first} goes first")
    return 0


@_refusals
def run_side_deck(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> tpb.Tournament:
        round_, table = await _table_of(stub, args)
        sided: tpb.Tournament = await stub.SideDeck(
            tpb.SideDeckRequest(
                tournament_id=args.tournament_id,
                player=args.player,
                token=_player_token(args),
                round=round_,
                table=table,
                removed=args.out,
                added=args.into,
            )
        )
        return sided

    _done(args, _call(args, work), f"sided: {len(args.out)} cards swapped")
    return 0


@_refusals
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

    pages = _call(args, work)
    if args.json:
        for page in pages:
            _print_json(page)
        return 0
    table = Table("version", "type", "recorded at", Column("event", overflow="fold"), title="events")
    for page in pages:
        for event in page.events:
            table.add_row(str(event.version), event.type, event.recorded_at, event.data_json)
    out.print(table)
    if pages[-1].next_version:
        err.print(f"more from version {pages[-1].next_version} (--from {pages[-1].next_version}, or --all)")
    return 0


@_refusals
def run_watch(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> None:
        request = tpb.WatchTournamentRequest(
            tournament_id=args.tournament_id, from_version=args.from_version, player=args.player, token=args.token
        )
        async for entry in stub.WatchTournament(request):
            if args.json:
                _print_json(entry)
            else:
                for line in notice_lines(entry) or [f"{entry.version} {entry.type}"]:
                    out.print(line)

    _call(args, work)
    return 0


def notice_lines(entry: tpb.WatchTournamentEntry) -> list[str]:
    """One line per notice of a feed entry, prefixed with its version."""
    lines = []
    for notice in entry.notices:
        kind = notice.WhichOneof("notice")
        if kind == "round_paired":
            n = notice.round_paired
            lines.append(f"round {n.round} ({n.stage}) {'re-paired' if n.repaired else 'paired'}: {n.tables} tables")
        elif kind == "table_ready":
            r = notice.table_ready
            line = f"round {r.round} table {r.table} game {r.game}: {' vs '.join(r.seats)} in match {r.match_id}"
            lines.append(line + (f", seat {r.seat} token {r.seat_token}" if r.seat_token else ""))
        elif kind == "bye":
            lines.append(f"round {notice.bye.round}: {notice.bye.player} has the bye")
        elif kind == "chooser_waiting":
            w = notice.chooser_waiting
            lines.append(f"round {w.round} table {w.table}: {w.chooser} chooses who goes first in game {w.game}")
        elif kind == "game_result":
            g = notice.game_result
            outcome = (g.winner or "drawn") if g.counted else "not counted (replay did not verify)"
            lines.append(f"round {g.round} table {g.table} game {g.game}: {outcome}")
        elif kind == "match_result":
            m = notice.match_result
            result = f"{m.result.wins_a}-{m.result.wins_b}-{m.result.draws}"
            lines.append(f"round {m.round} table {m.table}: {m.a} {result} {m.b} ({m.result.source})")
        elif kind == "player_change":
            c = notice.player_change
            lines.append(f"{c.player}: {c.change.replace('_', ' ')}" + (f" by {c.by}" if c.by else ""))
        elif kind == "ended":
            lines.append(f"the tournament ended; winner {notice.ended.winner or '(none)'}")
    return [f"{entry.version} {line}" for line in lines]


@_refusals
def run_reissue(args: argparse.Namespace) -> int:
    request = tpb.ReissueTokenRequest(
        admin_token=args.admin_token, tournament_id=args.tournament_id, player=args.player, by=args.by, why=args.why
    )
    reply = _call(args, lambda stub: stub.ReissueToken(request))
    if args.json:
        _print_json(reply)
        return 0
    err.print(f"{args.player}'s new token (shown once; the old one no longer works):")
    out.print(reply.player_token)
    return 0


@_refusals
def run_publish(args: argparse.Namespace) -> int:
    request = tpb.AuditedRequest(
        admin_token=args.admin_token, tournament_id=args.tournament_id, by=args.by, why=args.why
    )
    _done(args, _call(args, lambda stub: stub.PublishReplays(request)), "replays published")
    return 0


@_refusals
def run_play(args: argparse.Namespace) -> int:
    from services.cli.tournament_bot import play_tournament  # here: the engine's bots load only for this verb

    async def work() -> tpb.Tournament:
        async with channel(args, args.server) as connected:
            return await play_tournament(
                connected, args.tournament_id, args.player, _player_token(args), args.bot, args.seed
            )

    ended = asyncio.run(work())
    if args.json:
        _print_json(ended)
    else:
        out.print(f"the tournament ended; winner {ended.winner or '(none)'}")
    return 0
