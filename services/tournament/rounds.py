"""A tournament's rounds (pure commands): the start, the next round, a Swiss round paired again, the top cut;
every draw from the seed happens here, each decision drawing from its own stream."""

from __future__ import annotations

from collections.abc import Sequence

from engine.rng import Rng
from services.core.errors import Refused
from services.tournament import brackets, checks, pairing, ranking, seeding
from services.tournament.events import (
    ELIMINATION_STAGES,
    ROUND_ROBIN,
    STAGE_CUT,
    STAGE_ELIMINATION,
    STAGE_ROBIN,
    STAGE_SWISS,
    SWISS,
    CutStarted,
    Event,
    PlayerDropped,
    RoundPaired,
    RoundRepaired,
    Table,
)
from services.tournament.state import Tournament


def start(state: Tournament) -> list[Event]:
    """Round 1; when anyone checked in, those who did not are dropped first."""
    checks.not_ended(state)
    if state.started:
        raise Refused("the tournament has started", reason="TOURNAMENT_STARTED")
    events: list[Event] = []
    if any(p.checked_in for p in state.players.values()):
        events += [
            PlayerDropped(player=p.name, after_round=0, by="check-in", why="did not check in")
            for p in sorted(state.players.values(), key=lambda p: p.name)
            if not p.checked_in and not p.dropped
        ]
    dropped = {e.player for e in events if isinstance(e, PlayerDropped)}
    players = [p for p in state.active() if p not in dropped]
    if len(players) < 2:
        raise Refused("a tournament needs at least two players", reason="NOT_ENOUGH_PLAYERS")
    version = state.version + len(events) + 1
    rng = _rng(state, version)
    created = state.created
    if created.format == SWISS:
        planned = _planned(created.rounds or brackets.swiss_rounds(len(players)), len(players))
        ordered = seeding.order(state, players, rng)
        tables = pairing.random_round(players, rng).tables if ordered is None else seeding.halves(ordered)
        events.append(_paired(state, rng, 1, STAGE_SWISS, tables, planned=planned))
    elif created.format == ROUND_ROBIN:
        order = rng.shuffle(players)
        planned = _planned(created.rounds or brackets.robin_rounds(len(order)), len(order))
        events.append(_paired(state, rng, 1, STAGE_ROBIN, brackets.round_robin(order, 1), planned=planned, order=order))
    else:
        ordered = seeding.order(state, players, rng)
        events.append(_paired(state, rng, 1, STAGE_ELIMINATION, brackets.bracket(ordered or rng.shuffle(players))))
    return events


def pair(state: Tournament) -> list[Event]:
    """The next round of the current stage, once the last one is finished."""
    current = checks.current_round(state)
    if not current.finished:
        raise Refused(f"round {current.number} is not finished", reason="ROUND_NOT_FINISHED", round=str(current.number))
    number = current.number + 1
    rng = _rng(state, state.version + 1)
    if current.stage in ELIMINATION_STAGES:
        winners = [w for t in current.tables if (w := t.winner()) is not None]
        if len(winners) < 2:
            raise Refused("the elimination is over", reason="TOURNAMENT_OVER")
        return [_paired(state, rng, number, current.stage, brackets.next_elimination(winners))]
    if number > state.planned:
        if state.created.cut:
            raise Refused("the Swiss rounds are over: start the cut", reason="CUT_PENDING")
        raise Refused("every round has been played", reason="TOURNAMENT_OVER")
    if current.stage == STAGE_ROBIN:
        tables = [_robin_table(state, t) for t in brackets.round_robin(state.order, number)]
        tables = [t for t in tables if t[0] and t[1] is not None] + [t for t in tables if t[0] and t[1] is None]
        return [_paired(state, rng, number, STAGE_ROBIN, tables)]
    result = pairing.swiss_round(ranking.entrants(state), rng)
    return [
        _paired(
            state, rng, number, STAGE_SWISS, result.tables, rematches=result.rematches, pair_downs=result.pair_downs
        )
    ]


def repair(state: Tournament, by: str, why: str) -> list[Event]:
    """The current Swiss round paired again (after a late drop or registration), only before any result."""
    checks.bounded(by, why)
    current = checks.current_round(state)
    if current.stage != STAGE_SWISS:
        raise Refused("only Swiss rounds are paired again", reason="REPAIR_NOT_ALLOWED")
    if current.has_results():
        raise Refused(
            f"round {current.number} already has results", reason="ROUND_HAS_RESULTS", round=str(current.number)
        )
    rng = _rng(state, state.version + 1)
    earlier = Tournament(created=state.created, players=state.players, rounds=state.rounds[:-1])
    ordered = seeding.order(state, state.active(), rng) if current.number == 1 else None
    if ordered is not None:
        result = pairing.Pairing(tables=seeding.halves(ordered), rematches=0, pair_downs=0)
    elif current.number == 1:
        result = pairing.random_round(state.active(), rng)
    else:
        result = pairing.swiss_round(ranking.entrants(earlier), rng)
    paired = _paired(
        state, rng, current.number, STAGE_SWISS, result.tables, rematches=result.rematches, pair_downs=result.pair_downs
    )
    return [
        RoundRepaired(
            round=paired.round,
            stage=paired.stage,
            tables=paired.tables,
            by=by,
            why=why,
            rematches=paired.rematches,
            pair_downs=paired.pair_downs,
        )
    ]


def cut(state: Tournament) -> list[Event]:
    """The top cut: the best ``cut`` players still in, seeded 1v8, 4v5, 2v7, 3v6."""
    current = checks.current_round(state)
    if state.created.format != SWISS or not state.created.cut:
        raise Refused("this tournament has no top cut", reason="NO_CUT")
    if state.cut_seeds:
        raise Refused("the cut has started", reason="CUT_STARTED")
    if current.number < state.planned or not current.finished:
        raise Refused("the Swiss rounds are not over", reason="ROUND_NOT_FINISHED", round=str(current.number))
    seeds = [s.player for s in ranking.standings_of(state) if not s.dropped][: state.created.cut]
    if len(seeds) < 2:
        raise Refused("a cut needs at least two players", reason="NOT_ENOUGH_PLAYERS")
    rng = _rng(state, state.version + 2)
    return [
        CutStarted(size=len(seeds), seeds=seeds),
        _paired(state, rng, current.number + 1, STAGE_CUT, brackets.bracket(seeds)),
    ]


def _rng(state: Tournament, version: int) -> Rng:
    """The draws of the decision that appends the event at ``version``: each decision its own stream."""
    return Rng(bytes.fromhex(state.created.seed), version)


def _paired(
    state: Tournament,
    rng: Rng,
    number: int,
    stage: str,
    tables: Sequence[tuple[str, str | None]],
    planned: int = 0,
    rematches: int = 0,
    pair_downs: int = 0,
    order: Sequence[str] = (),
) -> RoundPaired:
    specs = []
    for index, (a, b) in enumerate(tables, start=1):
        first = a if b is None else (a, b)[rng.randbelow(2)]
        specs.append(Table(table=index, a=a, b=b, first=first))
    return RoundPaired(
        round=number,
        stage=stage,
        tables=specs,
        planned=planned,
        rematches=rematches,
        pair_downs=pair_downs,
        order=list(order),
    )


def _robin_table(state: Tournament, table: tuple[str, str | None]) -> tuple[str, str | None]:
    """A round robin table with a dropped player: the other sits out with a bye; both dropped: no table."""
    a, b = table
    if b is not None and state.players[b].dropped:
        b = None
    if state.players[a].dropped:
        a, b = (b, None) if b is not None else ("", None)
    return a, b


def _planned(rounds: int, players: int) -> int:
    """The rounds to play, at most a whole round robin of the players: past it a Swiss pairs only rematches and a
    round robin starts its cycle again. Capped rather than refused, since rounds cannot change after creation."""
    return min(rounds, brackets.robin_rounds(players))
