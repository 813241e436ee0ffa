"""A tournament's deadlines (pure): the chooser's between games of a series, and the round's clock.

Both run from the times the store recorded the events that started them (the game before the choice, the
round's pairing), so every instance that folds the stream, and a restarted one, finds the same expiry. Each is
a ``Due`` with a key that names it once per table, game and pairing: the key is the command id of its expiry,
and ``expire`` decides nothing unless the deadline is still due on the stream as it stands and has passed. So
an expiry handled by another instance, or a choice made in the last moment, leaves nothing to do.

On expiry (docs/tournaments.md):

- **chooser**: the chooser goes first (playing first is the choice nearly every chooser makes), as a
  ``ChooserTimedOut`` event.
- **round time** (``round_minutes``, Swiss and round robin rounds; elimination matches play to a decision):
  every unfinished table gets a ``MatchResulted`` with source ``time`` from the games it has finished. Under
  ``mtg`` (MTR 2.5) the game in progress is a drawn game; under ``pokemon`` and ``ygo`` it is not counted, so
  the player ahead in games wins the match and players level in games draw it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from services.tournament import ranking, series, standings
from services.tournament.events import (
    ELIMINATION_STAGES,
    MTG,
    ChooserTimedOut,
    Event,
    MatchResulted,
    RoundTimeEnded,
    TournamentEnded,
)
from services.tournament.state import Result, TableState, Tournament

CHOOSER = "chooser"
ROUND = "round"
MAX_CHOOSER_SECONDS = 3600
"""A chooser's deadline: an hour is longer than any break between games."""
TIME_SOURCE = "time"
"""``MatchResulted.source`` of a table ended by the round's clock."""


@dataclass(frozen=True)
class Due:
    key: str
    """Names this deadline once: the command id of its expiry."""
    kind: str
    at: datetime
    round: int
    table: int = 0
    game: int = 0
    """The game waiting for its chooser."""


def deadlines(state: Tournament) -> list[Due]:
    """Every deadline running in the tournament now."""
    if state.ended or not state.rounds:
        return []
    found: list[Due] = []
    current = state.rounds[-1]
    minutes = state.created.round_minutes
    if (
        minutes
        and current.stage not in ELIMINATION_STAGES
        and current.paired_at is not None
        and not current.time_ended
        and not current.finished
    ):
        found.append(
            Due(
                key=f"round-time/{current.number}/{current.paired_version}",
                kind=ROUND,
                at=current.paired_at + timedelta(minutes=minutes),
                round=current.number,
            )
        )
    seconds = state.created.chooser_seconds
    if seconds:
        for table in current.tables:
            if table.waiting_since is None or table.finished:
                continue
            game = table.games[-1].number + 1
            found.append(
                Due(
                    key=f"chooser/{current.number}/{table.table}/{table.generation}/{game}",
                    kind=CHOOSER,
                    at=table.waiting_since + timedelta(seconds=seconds),
                    round=current.number,
                    table=table.table,
                    game=game,
                )
            )
    return found


def expire(state: Tournament, key: str, now: datetime) -> list[Event]:
    """The events of the deadline ``key`` expiring at ``now``; none unless it is still running and has passed."""
    due = next((d for d in deadlines(state) if d.key == key), None)
    if due is None or now < due.at:
        return []
    current = state.rounds[-1]
    if due.kind == CHOOSER:
        table = current.table(due.table)
        assert table is not None
        chooser = series.next_chooser(table)
        return [ChooserTimedOut(round=due.round, table=due.table, game=due.game, chooser=chooser, first=chooser)]
    minutes = state.created.round_minutes
    events: list[Event] = [RoundTimeEnded(round=due.round, minutes=minutes)]
    decided: list[standings.Record] = []
    for table in current.tables:
        if table.finished:
            continue
        result = at_time(state.created.tiebreak, table)
        events.append(
            MatchResulted(
                round=due.round,
                table=table.table,
                wins_a=result.wins_a,
                wins_b=result.wins_b,
                draws=result.draws,
                source=TIME_SOURCE,
                by="system",
                why=f"round time ({minutes} minutes)",
            )
        )
        decided.append(standings.Record(due.round, table.a, table.b, result.wins_a, result.wins_b, result.draws))
    if current.number >= state.planned and not state.created.cut:
        events.append(TournamentEnded(winner=ranking.standings_of(state, extra=decided)[0].player))
    return events


def at_time(preset: str, table: TableState) -> Result:
    """An unfinished table's result when time is called: its finished games, and under ``mtg`` the game in
    progress (chosen, not finished) as a drawn game."""
    played = table.tally()
    running = table.current_game() is not None
    return Result(played.wins_a, played.wins_b, played.draws + (preset == MTG and running))
