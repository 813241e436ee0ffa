"""The fold of a tournament stream: players, rounds, tables, games and results, as the events say."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from services.tournament.events import (
    ELIMINATION_STAGES,
    ChooserTimedOut,
    CutStarted,
    DeckSided,
    Event,
    FirstChosen,
    GameRecorded,
    GameUnverified,
    MatchResulted,
    PairingsEdited,
    PlayerCheckedIn,
    PlayerDropped,
    PlayerRegistered,
    PlayerReinstated,
    PlayerTokenReissued,
    ReplaysPublished,
    ResultCorrected,
    RoundPaired,
    RoundRepaired,
    RoundTimeEnded,
    Table,
    TournamentCreated,
    TournamentEnded,
)


@dataclass(frozen=True)
class Result:
    wins_a: int
    wins_b: int
    draws: int


@dataclass
class Player:
    name: str
    deck: dict[str, Any]
    late: bool
    seed: int = 0
    rating: int = 0
    checked_in: bool = False
    dropped: bool = False
    dropped_after: int = 0
    absences: list[tuple[int, int | None]] = field(default_factory=list)
    """Each drop as (rounds paired when the player dropped, rounds paired when reinstated, None while out)."""
    tokens: int = 1
    """Tokens the player was given (registration, then each re-issue): only the last one is theirs."""

    def dropped_as_of(self, round: int) -> bool:
        """Whether the player was out of round ``round``: dropped before it was paired, and not back by then."""
        return any(out < round and (back is None or round <= back) for out, back in self.absences)


@dataclass
class Game:
    number: int
    first: str
    chooser: str
    match_id: str = ""
    winner: str | None = None
    played: bool = False


@dataclass
class TableState:
    round: int
    stage: str
    table: int
    a: str
    b: str | None
    generation: int
    """The stream version of the pairing event: matches of a replaced pairing are recognised and ignored."""
    best_of: int
    loss: bool = False
    """An assigned loss (``b`` None): ``a`` loses the round without an opponent."""
    games: list[Game] = field(default_factory=list)
    decks: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """(player, game) -> the sided seat configuration for that game."""
    unverified: list[GameUnverified] = field(default_factory=list)
    result: Result | None = None
    corrections: list[ResultCorrected] = field(default_factory=list)
    manual: MatchResulted | None = None
    waiting_since: datetime | None = None
    """When the last game was recorded, while the next one waits for its chooser (the chooser's deadline runs
    from here); None otherwise."""

    @property
    def bye(self) -> bool:
        """No opponent: a bye, or an assigned loss."""
        return self.b is None

    @property
    def finished(self) -> bool:
        return self.bye or self.result is not None

    def players(self) -> tuple[str, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def opponent(self, player: str) -> str | None:
        return self.b if player == self.a else self.a

    def winner(self) -> str | None:
        """The table's winner once finished (None for a drawn match)."""
        if self.b is None:
            return None if self.loss else self.a
        if self.result is None or self.result.wins_a == self.result.wins_b:
            return None
        return self.a if self.result.wins_a > self.result.wins_b else self.b

    def tally(self) -> Result:
        """Game wins of a and b and drawn games among the played games."""
        played = [g for g in self.games if g.played]
        return Result(
            wins_a=sum(g.winner == self.a for g in played),
            wins_b=sum(g.winner == self.b for g in played),
            draws=sum(g.winner is None for g in played),
        )

    def current_game(self) -> Game | None:
        """The game being (or about to be) played: its first player is known and it has no result yet."""
        if self.finished or not self.games or self.games[-1].played:
            return None
        return self.games[-1]

    def seats(self, game: Game) -> tuple[str, str]:
        """Seat 0 is the player going first."""
        assert self.b is not None
        return (game.first, self.b if game.first == self.a else self.a)

    def deck_for(self, player: str, game: int, registered: dict[str, Any]) -> dict[str, Any]:
        """The deck a player brings to a game: the last side-deck swap of this match before it, else the
        registered deck (every match starts again from the registered deck)."""
        for number in range(game, 0, -1):
            if (player, number) in self.decks:
                return self.decks[(player, number)]
        return registered


@dataclass
class Round:
    number: int
    stage: str
    tables: list[TableState]
    paired_at: datetime | None = None
    """When it was paired (or paired again): its ``round_minutes`` run from here."""
    paired_version: int = 0
    """The stream version of that pairing: a round's time is called once per pairing."""
    time_ended: bool = False

    @property
    def finished(self) -> bool:
        return all(t.finished for t in self.tables)

    def has_results(self) -> bool:
        return any(t.result is not None or any(g.played for g in t.games) for t in self.tables if not t.bye)

    def table(self, number: int) -> TableState | None:
        return next((t for t in self.tables if t.table == number), None)


@dataclass
class Tournament:
    created: TournamentCreated
    version: int = 1
    players: dict[str, Player] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    cut_seeds: list[str] = field(default_factory=list)
    planned: int = 0
    """Swiss or round robin rounds, fixed when round 1 was paired."""
    order: list[str] = field(default_factory=list)
    """Round robin: round 1's circle."""
    ended: bool = False
    winner: str | None = None
    published: bool = False
    """Whether the organiser published the replays before the end (``embargoed``)."""
    match_ids: set[str] = field(default_factory=set)
    """Matches already counted or refused: a lifecycle change seen twice changes nothing."""

    @property
    def started(self) -> bool:
        return bool(self.rounds)

    @property
    def embargoed(self) -> bool:
        """Whether its matches' replays and its registered decks are withheld from all but the organiser: until
        it ends or the organiser publishes them (a player must not scout an opponent's deck mid-event)."""
        return not (self.ended or self.published)

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 0 < number <= len(self.rounds) else None

    def swiss_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.stage not in ELIMINATION_STAGES]

    def active(self) -> list[str]:
        """Players not dropped, in name order."""
        return sorted(p.name for p in self.players.values() if not p.dropped)


def fold(events: list[Event], times: list[datetime] | None = None) -> Tournament:
    """The tournament the events make; ``times`` are when the store recorded each (the deadlines run from them)."""
    created = events[0]
    assert isinstance(created, TournamentCreated)
    state = Tournament(created=created)
    for version, event in enumerate(events[1:], start=2):
        apply(state, event, version, times[version - 1] if times else None)
    return state


def apply(state: Tournament, event: Event, version: int, at: datetime | None = None) -> None:
    """Folds one event into ``state`` (in place); ``version`` is the event's stream version, ``at`` when it was
    recorded."""
    state.version = version
    if isinstance(event, PlayerRegistered):
        state.players[event.player] = Player(event.player, event.deck, event.late, event.seed, event.rating)
    elif isinstance(event, PlayerCheckedIn):
        state.players[event.player].checked_in = True
    elif isinstance(event, PlayerDropped):
        player = state.players[event.player]
        player.dropped, player.dropped_after = True, event.after_round
        player.absences.append((event.after_round, None))
    elif isinstance(event, PlayerReinstated):
        player = state.players[event.player]
        player.dropped = False
        player.absences[-1] = (player.absences[-1][0], len(state.rounds))
    elif isinstance(event, RoundPaired | RoundRepaired):
        tables = [_table(state, event.round, event.stage, t, version) for t in event.tables]
        paired = Round(event.round, event.stage, tables, at, version)
        if isinstance(event, RoundPaired):
            state.rounds.append(paired)
            state.planned = event.planned or state.planned
            state.order = event.order or state.order
        else:
            state.rounds[event.round - 1] = paired
    elif isinstance(event, PairingsEdited):
        edited = state.rounds[event.round - 1]
        kept = {(t.table, t.a, t.b, t.loss): t for t in edited.tables}
        edited.tables = [
            kept.get((t.table, t.a, t.b, t.loss)) or _table(state, event.round, edited.stage, t, version)
            for t in event.tables
        ]
    elif isinstance(event, FirstChosen | ChooserTimedOut):
        table = _table_of(state, event.round, event.table)
        table.games.append(Game(event.game, event.first, event.chooser))
        table.waiting_since = None
    elif isinstance(event, DeckSided):
        _table_of(state, event.round, event.table).decks[(event.player, event.game)] = event.deck
    elif isinstance(event, GameRecorded):
        table = _table_of(state, event.round, event.table)
        game = table.games[event.game - 1]
        game.match_id, game.winner, game.played = event.match_id, event.winner, True
        state.match_ids.add(event.match_id)
        table.waiting_since = at
    elif isinstance(event, GameUnverified):
        _table_of(state, event.round, event.table).unverified.append(event)
        state.match_ids.add(event.match_id)
    elif isinstance(event, MatchResulted):
        table = _table_of(state, event.round, event.table)
        table.result = Result(event.wins_a, event.wins_b, event.draws)
        table.waiting_since = None
        if event.source != "games":
            table.manual = event
    elif isinstance(event, ResultCorrected):
        table = _table_of(state, event.round, event.table)
        table.result = Result(event.wins_a, event.wins_b, event.draws)
        table.corrections.append(event)
    elif isinstance(event, CutStarted):
        state.cut_seeds = list(event.seeds)
    elif isinstance(event, TournamentEnded):
        state.ended, state.winner = True, event.winner
    elif isinstance(event, ReplaysPublished):
        state.published = True
    elif isinstance(event, RoundTimeEnded):
        state.rounds[event.round - 1].time_ended = True
    elif isinstance(event, PlayerTokenReissued):
        state.players[event.player].tokens += 1


def _table(state: Tournament, number: int, stage: str, spec: Table, version: int) -> TableState:
    table = TableState(
        round=number,
        stage=stage,
        table=spec.table,
        a=spec.a,
        b=spec.b,
        generation=version,
        best_of=state.created.best_of,
        loss=spec.loss,
    )
    if spec.b is not None:
        table.games.append(Game(1, spec.first, spec.first))
    return table


def _table_of(state: Tournament, number: int, table: int) -> TableState:
    found = state.rounds[number - 1].table(table)
    assert found is not None
    return found
