"""The tables a verb prints: pairings, tokens, standings and placings."""

from __future__ import annotations

from rich.table import Column, Table

from services.api import tournament_pb2 as tpb


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
        percents = [f"{percent(f):.2f}" for f in entry.tiebreaks]
        name = entry.player + (" (dropped)" if entry.dropped else "")
        table.add_row(str(entry.rank), name, str(entry.points), f"{entry.wins}-{entry.losses}-{entry.draws}", *percents)
    return table


def placings_table(standings: tpb.Standings) -> Table:
    table = Table("place", Column("player", no_wrap=True), title="final placings")
    for place, player in enumerate(standings.placings, start=1):
        table.add_row(str(place), player)
    return table


def percent(fraction: str) -> float:
    numerator, denominator = fraction.split("/")
    return 100 * int(numerator) / int(denominator)
