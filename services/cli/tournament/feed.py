"""``tournament watch``: the feed as it happens, a line per notice."""

from __future__ import annotations

import argparse

from services.api import tournament_pb2 as tpb
from services.cli.common import out
from services.cli.tournament.calls import (
    Stub,
    call,
    print_json,
    refusals,
)


@refusals
def run_watch(args: argparse.Namespace) -> int:
    async def work(stub: Stub) -> None:
        request = tpb.WatchTournamentRequest(
            tournament_id=args.tournament_id, from_version=args.from_version, player=args.player, token=args.token
        )
        async for entry in stub.WatchTournament(request):
            if args.json:
                print_json(entry)
            else:
                for line in notice_lines(entry) or [f"{entry.version} {entry.type}"]:
                    out.print(line)

    call(args, work)
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
