"""``WatchTournament``: a tournament's events from a version on, as they are appended, with what each means.

A watcher folds its own copy of the stream (never the manager's cached one, which commands change under their
lock) and sends one entry per event, so resuming from a version is exact. Between reads it waits on
``Changes``, which one store subscription per server wakes whenever any instance appends to a tournament's
stream: the wait is taken before each read, so an append that lands during the read wakes the next wait. The
subscription runs only while the server has a watcher (an instance nobody watches tournaments on reads none of
their events).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from typing import get_args

from eventstore import AsyncEventStore
from services.api import tournament_pb2 as tpb
from services.core.errors import Ahead
from services.core.tasks import cancel
from services.tournament import convert, series
from services.tournament.events import (
    ChooserTimedOut,
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
    ResultCorrected,
    RoundPaired,
    RoundRepaired,
    TournamentCreated,
    TournamentEnded,
    decoder,
)
from services.tournament.manager import STREAM_PREFIX, TournamentManager, stream_id
from services.tournament.state import Game, TableState, Tournament, apply, fold

TYPES = tuple(kind.__struct_config__.tag for kind in get_args(Event) if kind is not TournamentCreated)
"""The event types appended after a tournament's creation: what the subscription reads of the global order."""
LINGER = 0.02
"""Seconds the subscription lets commits gather between reads, as the other followers of the global order: on a
database shared with other instances, one read of their commits then serves every subscriber of this process."""
_PlayerEvent = PlayerRegistered | PlayerCheckedIn | PlayerDropped | PlayerReinstated | PlayerTokenReissued
_PLAYER_CHANGES: dict[type, str] = {
    PlayerRegistered: "registered",
    PlayerCheckedIn: "checked_in",
    PlayerDropped: "dropped",
    PlayerReinstated: "reinstated",
    PlayerTokenReissued: "token_reissued",
}


class Changes:
    """Wakes the watchers of a tournament when any instance appends to its stream, following the store while at
    least one ``watching`` is open."""

    def __init__(self, store: AsyncEventStore) -> None:
        self._store = store
        self._waiters: dict[str, set[asyncio.Future[None]]] = {}
        self._watching = 0
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            await cancel(self._task)
        for waiters in self._waiters.values():
            for waiter in waiters:
                waiter.cancel()

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """Follows the store while open (the whole of one watch: its waiters wake on every append)."""
        self._watching += 1
        if self._task is None and not self._stopped:
            self._task = asyncio.create_task(self._follow(), name="duelhall-tournament-changes")
        try:
            yield
        finally:
            self._watching -= 1
            if not self._watching and self._task is not None:
                self._task.cancel()
                self._task = None

    def waiter(self, tournament_id: str) -> asyncio.Future[None]:
        """Done at the next append to the tournament's stream after this call (inside ``watching``)."""
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(tournament_id, set()).add(waiter)
        return waiter

    def forget(self, tournament_id: str, waiter: asyncio.Future[None]) -> None:
        waiters = self._waiters.get(tournament_id)
        if waiters is not None:
            waiters.discard(waiter)
            if not waiters:
                del self._waiters[tournament_id]

    async def _follow(self) -> None:
        position = await self._store.head() + 1
        # The waiters taken before the head was read may have missed an append in between: they read again.
        for tournament_id in list(self._waiters):
            self._wake(tournament_id)
        async for page in self._store.subscribe(position, LINGER, TYPES):
            for recorded in page.events:
                if recorded.stream_id.startswith(STREAM_PREFIX):
                    self._wake(recorded.stream_id.removeprefix(STREAM_PREFIX))

    def _wake(self, tournament_id: str) -> None:
        for waiter in self._waiters.pop(tournament_id, ()):
            if not waiter.done():
                waiter.set_result(None)


class Watcher:
    """One ``WatchTournament`` call: its entries from ``from_version`` on, until the tournament ends."""

    def __init__(
        self,
        tournaments: TournamentManager,
        changes: Changes,
        tournament_id: str,
        player: str,
        admin: bool,
    ) -> None:
        self._tournaments, self._changes = tournaments, changes
        self._id, self._player, self._admin = tournament_id, player, admin
        self._state: Tournament | None = None
        self._final: Tournament | None = None
        """The stream folded as far as read: the match ids of games played since the event being sent."""

    async def entries(self, from_version: int) -> AsyncIterator[tpb.WatchTournamentEntry]:
        with self._changes.watching():
            async with contextlib.aclosing(self._entries(from_version)) as entries:
                async for entry in entries:
                    yield entry

    async def _entries(self, from_version: int) -> AsyncGenerator[tpb.WatchTournamentEntry, None]:
        stream = stream_id(self._id)
        read = 1
        while True:
            waiter = self._changes.waiter(self._id)
            try:
                recorded = await self._tournaments.store.read_stream(stream, read)
                if self._state is None and recorded:
                    self._final = fold([decoder.decode(r.data) for r in recorded])
                    if from_version > recorded[-1].version + 1:
                        raise Ahead(
                            f"the tournament has no version {from_version}: its last is {recorded[-1].version}",
                            reason="VERSION_AHEAD",
                            version=str(recorded[-1].version),
                        )
                elif self._final is not None:
                    for r in recorded:
                        apply(self._final, decoder.decode(r.data), r.version)
                for r in recorded:
                    event = decoder.decode(r.data)
                    if self._state is None:
                        self._state = fold([event])
                    else:
                        apply(self._state, event, r.version)
                    read = r.version + 1
                    if r.version >= from_version:
                        yield await self._entry(r.version, r.type, r.data, r.meta.recorded_at.isoformat(), event)
                    if isinstance(event, TournamentEnded):
                        return
                await waiter
            finally:
                self._changes.forget(self._id, waiter)

    async def _entry(self, version: int, type: str, data: bytes, at: str, event: Event) -> tpb.WatchTournamentEntry:
        state = self._state
        assert state is not None
        if not self._admin and state.embargoed:
            data = convert.without_decks(type, data)
        return tpb.WatchTournamentEntry(
            version=version,
            type=type,
            data_json=data.decode(),
            recorded_at=at,
            notices=[n for n in await self._notices(state, event) if n is not None],
        )

    async def _notices(self, state: Tournament, event: Event) -> list[tpb.WatchTournamentNotice | None]:
        if isinstance(event, RoundPaired | RoundRepaired | PairingsEdited):
            found = state.rounds[event.round - 1]
            paired = tpb.WatchTournamentRoundPaired(
                round=found.number,
                stage=found.stage,
                tables=len(found.tables),
                repaired=not isinstance(event, RoundPaired),
            )
            notices: list[tpb.WatchTournamentNotice | None] = [tpb.WatchTournamentNotice(round_paired=paired)]
            for table in found.tables:
                if not self._concerns(table.players()):
                    continue
                if table.b is None:
                    if not table.loss:  # an assigned loss is no bye (PairingsEdited and GetPairings say it)
                        bye = tpb.WatchTournamentBye(round=found.number, table=table.table, player=table.a)
                        notices.append(tpb.WatchTournamentNotice(bye=bye))
                else:
                    notices.append(await self._ready(state, table, table.games[0]))
            return notices
        if isinstance(event, FirstChosen | ChooserTimedOut):
            table = _table(state, event.round, event.table)
            if not self._concerns(table.players()):
                return []
            return [await self._ready(state, table, table.games[event.game - 1])]
        if isinstance(event, GameRecorded | GameUnverified):
            table = _table(state, event.round, event.table)
            if not self._concerns(table.players()):
                return []
            counted = isinstance(event, GameRecorded)
            winner = (event.winner or "") if isinstance(event, GameRecorded) else ""
            result = tpb.WatchTournamentGameResult(
                round=event.round,
                table=event.table,
                game=event.game,
                match_id=event.match_id,
                winner=winner,
                counted=counted,
            )
            notices = [tpb.WatchTournamentNotice(game_result=result)]
            # The series' own rule, not ``table.finished``: the result that ends it is the next event of the append.
            going_on = series.series_result(table.stage, table.best_of, table.tally()) is None
            if counted and going_on and not table.finished and table.current_game() is None:
                waiting = tpb.WatchTournamentChooserWaiting(
                    round=event.round, table=event.table, game=len(table.games) + 1, chooser=series.next_chooser(table)
                )
                notices.append(tpb.WatchTournamentNotice(chooser_waiting=waiting))
            return notices
        if isinstance(event, MatchResulted | ResultCorrected):
            table = _table(state, event.round, event.table)
            if not self._concerns(table.players()):
                return []
            source = "corrected" if isinstance(event, ResultCorrected) else event.source
            entered = tpb.WatchTournamentMatchResult(
                round=event.round,
                table=event.table,
                a=table.a,
                b=table.b or "",
                result=tpb.TableResult(wins_a=event.wins_a, wins_b=event.wins_b, draws=event.draws, source=source),
                by=event.by,
                why=event.why,
            )
            return [tpb.WatchTournamentNotice(match_result=entered)]
        if isinstance(event, _PlayerEvent):
            if not self._concerns((event.player,)):
                return []
            audited = event if isinstance(event, PlayerDropped | PlayerReinstated | PlayerTokenReissued) else None
            changed = tpb.WatchTournamentPlayerChange(
                player=event.player,
                change=_PLAYER_CHANGES[type(event)],
                by=audited.by if audited else "",
                why=audited.why if audited else "",
            )
            return [tpb.WatchTournamentNotice(player_change=changed)]
        if isinstance(event, TournamentEnded):
            return [tpb.WatchTournamentNotice(ended=tpb.WatchTournamentEnded(winner=event.winner or ""))]
        return []

    def _concerns(self, players: tuple[str, ...]) -> bool:
        return not self._player or self._player in players

    async def _ready(self, state: Tournament, table: TableState, game: Game) -> tpb.WatchTournamentNotice:
        """The game's match: its id once played (from the stream), else created (or found) through its request
        id, as ``GetSeat`` does, with the player's seat token in it while it is still to be played. Another
        table's match is only looked up (``game_match_id``): a watcher joining a big round loads none of them."""
        seats = table.seats(game)
        ready = tpb.WatchTournamentTableReady(round=table.round, table=table.table, game=game.number, seats=seats)
        played = self._played(table, game)
        if played:
            ready.match_id = played
        elif self._player in seats:
            created = await self._tournaments.game_match(state, table, game)
            ready.match_id = created.row.match_id
            ready.seat = seats.index(self._player)
            ready.seat_token = created.tokens[ready.seat]
        else:
            ready.match_id = await self._tournaments.game_match_id(state, table, game)
        return tpb.WatchTournamentNotice(table_ready=ready)

    def _played(self, table: TableState, game: Game) -> str:
        """The match id of the game if the stream read so far shows it ended (counted or not), else ""."""
        assert self._final is not None
        found = self._final.round(table.round)
        now = found.table(table.table) if found is not None else None
        if now is None or now.generation != table.generation:
            return ""
        if len(now.games) >= game.number and now.games[game.number - 1].played:
            return now.games[game.number - 1].match_id
        unverified = [u.match_id for u in now.unverified if u.game == game.number]
        return unverified[-1] if unverified else ""


def _table(state: Tournament, round: int, number: int) -> TableState:
    found = state.rounds[round - 1].table(number)
    assert found is not None
    return found
