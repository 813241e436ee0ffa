"""Tournaments in the event store: one stream per tournament, decisions appended with the expected version.

A command folds the stream (cached, caught up with the store first), decides (the pure commands of
services/tournament/registration.py, rounds.py and series.py) and appends; another instance having appended
first means fold the tail and decide again. After a pairing or a choice of who goes first, the games to play
are created as matches through ``CreateMatch``'s request id (services/matches/create_requests.py), so
creating one again, on any instance, finds the same match and tokens.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from engine.contract import Ruleset
from eventstore import AsyncEventStore, CommandRecord, NewEvent, WrongExpectedVersion
from services.core.errors import InvalidArgument, NotFound, PermissionDenied, Refused, Unauthenticated, VersionMismatch
from services.matches import (
    Created,
    MatchManager,
    SeatEntry,
    claimed_match,
    create_once,
    new_token,
    ruleset_for,
    token_hash,
)
from services.tournament import registration
from services.tournament.events import (
    ChooserTimedOut,
    Event,
    FirstChosen,
    PairingsEdited,
    RoundPaired,
    RoundRepaired,
    decoder,
    type_of,
)
from services.tournament.state import Game, Round, TableState, Tournament, apply, fold

STREAM_PREFIX = "tournament:"
PLAYER_SECRET_PREFIX = "player:"
REISSUED_SECRET_PREFIX = "reissued:"
_RETRIES = 8


def new_tournament_id() -> str:
    """Time-ordered: 12 hex digits of milliseconds, then 20 random hex digits (a match's id, by contrast, is
    derived from its seed commitment, ``replays.format.match_id_for``)."""
    return f"{int(time.time() * 1000):012x}{secrets.token_hex(10)}"


class Seat(msgspec.Struct, frozen=True):
    """Where a player plays now: the match of the current game and the player's seat token in it."""

    round: int
    table: int
    game: int
    match_id: str
    seat: int
    token: str
    opponent: str
    opponent_deck: dict[str, Any] | None = None
    """The opponent's registered seat configuration, with open decklists."""


Decision = Callable[[Tournament], list[Event]]


class TournamentManager:
    def __init__(self, store: AsyncEventStore, matches: MatchManager) -> None:
        self._store = store
        self._matches = matches
        self._folded: dict[str, Tournament] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self.listeners: list[Callable[[Tournament], None]] = []
        """Called with a tournament each time this instance folds new events into it (the deadlines' clocks)."""

    # -- commands ---------------------------------------------------------------------------------

    async def create(
        self,
        name: str,
        ruleset_id: str,
        format: str,
        rounds: int,
        cut: int,
        best_of: int,
        tiebreak: str,
        round_minutes: int,
        seed: bytes,
        options: dict[str, Any],
        ruleset_version: int = 0,
        audience: registration.Audience = registration.Audience(),
        timing: registration.Timing = registration.Timing(),
        decks: registration.DeckRule = registration.DeckRule(),
    ) -> Tournament:
        tournament_id = new_tournament_id()
        events = registration.create(
            tournament_id,
            name,
            ruleset_for(ruleset_id, ruleset_version),
            format,
            rounds,
            cut,
            best_of,
            tiebreak,
            round_minutes,
            seed or secrets.token_bytes(registration.SEED_BYTES),
            options,
            audience,
            timing,
            decks,
        )
        appended = await self._store.append(
            stream_id(tournament_id), 0, _new(events), _command("create", {"name": name})
        )
        self._folded[tournament_id] = fold(events, [appended.recorded_at])
        return self._folded[tournament_id]

    async def register(
        self, tournament_id: str, player: str, deck: dict[str, Any], seed: int = 0, rating: int = 0
    ) -> tuple[Tournament, str]:
        """Registers a player; returns the player's token (shown once; the store keeps its SHA-256)."""
        token = new_token()
        state = await self.execute(
            tournament_id,
            "register",
            {"player": player, "seed": seed, "rating": rating},
            lambda t: registration.register(t, self.ruleset(t), player, deck, seed, rating),
            secrets={f"{PLAYER_SECRET_PREFIX}{player}": token_hash(token)},
        )
        return state, token

    async def reissue(self, tournament_id: str, player: str, by: str, why: str) -> tuple[Tournament, str]:
        """A new token for a player, kept (as its SHA-256) under a name of its own: the store's secrets are
        written once, so each token the player is given has its own row and only the last one counts."""
        token = new_token()

        def decision(state: Tournament) -> list[Event]:
            events = registration.reissue(state, player, by, why)
            secret[_secret_name(player, state.players[player].tokens + 1)] = token_hash(token)
            return events

        secret: dict[str, bytes] = {}
        state = await self.execute(
            tournament_id, "reissue_token", {"player": player, "by": by, "why": why}, decision, secrets=secret
        )
        return state, token

    async def execute(
        self,
        tournament_id: str,
        kind: str,
        payload: dict[str, Any],
        decision: Decision,
        command_id: str = "",
        secrets: dict[str, bytes] | None = None,
    ) -> Tournament:
        """Decides on the current fold and appends; a lost race folds the tail and decides again."""
        command = _command(kind, payload, command_id)
        async with self._lock(tournament_id):
            for _ in range(_RETRIES):
                state = await self._current(tournament_id)
                # On a worker thread: a Swiss pairing of the 1,024-player cap takes about 0.35 s, which on the
                # loop would stall every match of this instance. Under the lock nothing else touches ``state``.
                events = await asyncio.to_thread(decision, state)
                if not events:
                    return state
                try:
                    appended = await self._store.append(
                        stream_id(tournament_id), state.version, _new(events), command, secrets=secrets
                    )
                except WrongExpectedVersion:
                    continue
                if appended.duplicate:
                    return await self._current(tournament_id)
                for event in events:
                    apply(state, event, state.version + 1, appended.recorded_at)
                self._tell(state)
                await self._open_games(state, events)
                return state
        raise VersionMismatch("the tournament kept changing under this command; retry")

    # -- reading ----------------------------------------------------------------------------------

    @property
    def store(self) -> AsyncEventStore:
        return self._store

    async def load(self, tournament_id: str) -> Tournament:
        """The folded tournament, caught up with the store; ``NotFound`` if there is none."""
        async with self._lock(tournament_id):
            return await self._current(tournament_id)

    async def _current(self, tournament_id: str) -> Tournament:
        """``load`` under the tournament's lock: only one coroutine folds into the cached state at a time."""
        state = self._folded.get(tournament_id)
        if state is None:
            recorded = await self._store.read_stream(stream_id(tournament_id))
            if not recorded:
                raise NotFound(f"no tournament {tournament_id!r}", reason="TOURNAMENT_NOT_FOUND")
            state = fold([decoder.decode(r.data) for r in recorded], [r.meta.recorded_at for r in recorded])
            self._folded[tournament_id] = state
            self._tell(state)
            return state
        new = await self._store.read_stream(stream_id(tournament_id), state.version + 1)
        for event in new:
            apply(state, decoder.decode(event.data), event.version, event.meta.recorded_at)
        if new:
            self._tell(state)
        return state

    def _tell(self, state: Tournament) -> None:
        for listener in self.listeners:
            listener(state)

    async def history(
        self, tournament_id: str, from_version: int = 1, limit: int | None = None
    ) -> list[tuple[int, str, bytes, str]]:
        """The events from ``from_version`` (at most ``limit``) as (version, type, JSON, recorded at): the audit
        trail. ``NotFound`` if there is no such tournament."""
        first = max(from_version, 1)
        last = None if limit is None else first + limit - 1
        recorded = await self._store.read_stream(stream_id(tournament_id), first, last)
        if not recorded and not await self._store.last_version(stream_id(tournament_id)):
            raise NotFound(f"no tournament {tournament_id!r}", reason="TOURNAMENT_NOT_FOUND")
        return [(r.version, r.type, r.data, r.meta.recorded_at.isoformat()) for r in recorded]

    def ruleset(self, state: Tournament) -> Ruleset:
        return ruleset_for(state.created.ruleset, state.created.ruleset_version)

    async def check_player(self, tournament_id: str, player: str, token: str) -> None:
        """Refuses unless ``token`` is the player's: the one from registration, or from its last re-issue."""
        if not token:
            raise Unauthenticated("the player's token is required")
        known = (await self.load(tournament_id)).players.get(player)
        name = _secret_name(player, known.tokens if known is not None else 1)
        expected = (await self._store.secrets.read(stream_id(tournament_id))).get(name)
        if expected is None or expected != token_hash(token):
            raise PermissionDenied("the token is not this player's", reason="TOKEN_INVALID")

    async def seat(self, tournament_id: str, player: str) -> Seat:
        """The player's match in the current game of their table now (created if it was not yet)."""
        state = await self.load(tournament_id)
        if player not in state.players:
            raise NotFound(f"no player {player!r} in this tournament", reason="PLAYER_NOT_FOUND")
        if not state.rounds:
            raise Refused("the tournament has not started", reason="TOURNAMENT_NOT_STARTED")
        current = state.rounds[-1]
        table = next((t for t in current.tables if player in t.players()), None)
        if table is None or table.b is None:
            raise Refused(f"{player} has no match to play in round {current.number}", reason="NO_MATCH")
        game = table.current_game()
        if game is None:
            reason = "MATCH_DECIDED" if table.finished else "FIRST_NOT_CHOSEN"
            raise Refused(f"{player} has no game waiting at table {table.table}", reason=reason)
        created = await self.game_match(state, table, game)
        seats = table.seats(game)
        index = seats.index(player)
        opponent = seats[1 - index]
        return Seat(
            round=current.number,
            table=table.table,
            game=game.number,
            match_id=created.row.match_id,
            seat=index,
            token=created.tokens[index],
            opponent=opponent,
            opponent_deck=(
                table.deck_for(opponent, game.number, state.players[opponent].deck)
                if state.created.decklists == "open"
                else None
            ),
        )

    async def games(self, state: Tournament, found: Round) -> dict[tuple[int, int], Created]:
        """A round's games that have a match, by (table, game), with the tokens their creation handed out."""
        return {
            (table.table, game.number): await self.game_match(state, table, game)
            for table in found.tables
            if table.b is not None
            for game in table.games
        }

    # -- games ------------------------------------------------------------------------------------

    async def _open_games(self, state: Tournament, events: Sequence[Event]) -> None:
        """Creates the matches the new events call for: game 1 of each new table, or the chosen next game."""
        for event in events:
            if isinstance(event, RoundPaired | RoundRepaired | PairingsEdited):
                current = state.rounds[event.round - 1]
                for table in current.tables:
                    game = table.current_game()
                    if game is not None:
                        await self.game_match(state, table, game)
            elif isinstance(event, FirstChosen | ChooserTimedOut):
                chosen = state.rounds[event.round - 1].table(event.table)
                game = chosen.current_game() if chosen is not None else None
                if chosen is not None and game is not None:
                    await self.game_match(state, chosen, game)

    async def game_match(self, state: Tournament, table: TableState, game: Game) -> Created:
        created = state.created
        ruleset = self.ruleset(state)
        seats = table.seats(game)
        options = dict(created.options)
        if "first_player" in ruleset.options:
            options["first_player"] = 0
        entries = [SeatEntry(name=p, config=table.deck_for(p, game.number, state.players[p].deck)) for p in seats]
        labels = {
            "tournament": created.tournament_id,
            "round": str(table.round),
            "table": str(table.table),
            "game": str(game.number),
            "pairing": str(table.generation),
        }
        return await create_once(
            self._matches,
            _request_id(created.tournament_id, table, game),
            created.ruleset,
            entries,
            options,
            labels,
            created.ruleset_version,
            created.spectators,
            created.caster_delay_seconds,
        )

    async def game_match_id(self, state: Tournament, table: TableState, game: Game) -> str:
        """The game's match id, created if it is not yet (``game_match``), without loading the match when it is."""
        claimed = await claimed_match(self._matches, _request_id(state.created.tournament_id, table, game))
        return claimed or (await self.game_match(state, table, game)).row.match_id

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())


def _request_id(tournament_id: str, table: TableState, game: Game) -> str:
    """The request id of a game's match: one per game of a table's pairing, so a re-paired table gets new matches."""
    return f"tournament/{tournament_id}/{table.round}/{table.table}/{game.number}/{table.generation}"


def _secret_name(player: str, tokens: int) -> str:
    """The secret holding the hash of a player's ``tokens``-th token. A re-issued one's prefix differs from the
    registration's, so no player name can make the two collide."""
    return f"{PLAYER_SECRET_PREFIX}{player}" if tokens == 1 else f"{REISSUED_SECRET_PREFIX}{tokens}:{player}"


def stream_id(tournament_id: str) -> str:
    if not tournament_id:
        raise InvalidArgument("a tournament id is required", reason="TOURNAMENT_ID_MISSING")
    return f"{STREAM_PREFIX}{tournament_id}"


def _new(events: Sequence[Event]) -> list[NewEvent]:
    return [NewEvent(type=type_of(e), data=msgspec.json.encode(e)) for e in events]


def _command(kind: str, payload: dict[str, Any], command_id: str = "") -> CommandRecord:
    return CommandRecord(
        command_id=command_id or uuid.uuid4().hex, actor="admin", type=kind, payload=msgspec.json.encode(payload)
    )
