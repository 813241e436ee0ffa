"""``TournamentService``: authenticate (admin token or player token), one call into the manager, encode."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeAlias

import grpc
import msgspec

from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.core import limits
from services.core.errors import InvalidArgument, NotFound
from services.edge import wire
from services.edge.rpc_errors import rpc_errors
from services.matches import admin_asked, check_admin, is_admin
from services.tournament import convert, edits, listing, registration, rounds, series
from services.tournament.feed import Changes, Watcher
from services.tournament.manager import TournamentManager
from services.tournament.state import Result

Context: TypeAlias = grpc.aio.ServicerContext
SETTLE_SECONDS = 10.0
"""How long ListTournaments waits for the tournament list to show the changes made before it."""
_SEED_HEX = re.compile(f"[0-9a-fA-F]{{{2 * registration.SEED_BYTES}}}")
EVENTS_PAGE = 500
"""``ListTournamentEvents`` events per page by default, and (``MAX_EVENTS_PAGE``) at most."""
MAX_EVENTS_PAGE = 1000


class TournamentServicer(tpb_grpc.TournamentServiceServicer):
    """Every call on an existing tournament first awaits ``settled``: the results of the matches that ended
    before it, so a round whose last game has just ended reads as finished and pairs at once."""

    def __init__(
        self,
        tournaments: TournamentManager,
        admin_token: str | None,
        settled: Callable[[], Awaitable[None]],
        listed: listing.Listing,
        changes: Changes,
    ) -> None:
        self._tournaments, self._admin_token, self._settled = tournaments, admin_token, settled
        self._listing, self._changes = listed, changes

    def _admin(self, token: str) -> None:
        check_admin(token, self._admin_token)

    async def _player_or_admin(self, tournament_id: str, player: str, token: str) -> None:
        if not is_admin(token, self._admin_token):
            await self._tournaments.check_player(tournament_id, player, token)

    @rpc_errors
    async def CreateTournament(self, request: tpb.CreateTournamentRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        # Not bytes.fromhex alone: it skips whitespace, so "  " became an empty seed (a random one).
        if request.seed_hex and not _SEED_HEX.fullmatch(request.seed_hex):
            raise InvalidArgument(
                f"seed_hex is {2 * registration.SEED_BYTES} hex digits (or empty: a random seed)", reason="SEED_INVALID"
            )
        seed = bytes.fromhex(request.seed_hex)
        state = await self._tournaments.create(
            request.name,
            request.ruleset,
            request.format,
            request.rounds,
            request.cut,
            request.best_of or 1,
            request.tiebreak,
            request.round_minutes,
            seed,
            wire.json_object(request.options_json, "options_json"),
            request.ruleset_version,
            registration.Audience(
                wire.spectators(request.spectators), request.caster_delay_seconds, request.decklists or "private"
            ),
            registration.Timing(request.chooser_seconds, dict(request.labels)),
            registration.DeckRule(
                request.deck_rule or "any", wire.json_object(request.fixed_deck_json, "fixed_deck_json")
            ),
        )
        return convert.tournament(state)

    @rpc_errors
    async def GetTournament(self, request: tpb.GetTournamentRequest, context: Context) -> tpb.Tournament:
        await self._settled()
        return convert.tournament(await self._tournaments.load(request.tournament_id))

    @rpc_errors
    async def Register(self, request: tpb.RegisterRequest, context: Context) -> tpb.RegisterResponse:
        self._admin(request.admin_token)
        await self._settled()
        deck = wire.json_object(request.deck_json, "deck_json")
        state, token = await self._tournaments.register(
            request.tournament_id, request.player, deck, request.seed, request.rating
        )
        return tpb.RegisterResponse(tournament=convert.tournament(state), player_token=token)

    @rpc_errors
    async def CheckIn(self, request: tpb.PlayerRequest, context: Context) -> tpb.Tournament:
        await self._player_or_admin(request.tournament_id, request.player, request.token)
        await self._settled()
        state = await self._tournaments.execute(
            request.tournament_id,
            "check_in",
            {"player": request.player},
            lambda t: registration.check_in(t, request.player),
        )
        return convert.tournament(state)

    @rpc_errors
    async def Drop(self, request: tpb.DropRequest, context: Context) -> tpb.Tournament:
        await self._player_or_admin(request.tournament_id, request.player, request.token)
        await self._settled()
        by = request.by or request.player
        state = await self._tournaments.execute(
            request.tournament_id,
            "drop",
            {"player": request.player, "by": by, "why": request.why},
            lambda t: registration.drop(t, request.player, by, request.why),
        )
        return convert.tournament(state)

    @rpc_errors
    async def Reinstate(self, request: tpb.DropRequest, context: Context) -> tpb.Tournament:
        self._admin(request.token)
        await self._settled()
        state = await self._tournaments.execute(
            request.tournament_id,
            "reinstate",
            {"player": request.player, "by": request.by, "why": request.why},
            lambda t: registration.reinstate(t, request.player, request.by, request.why),
        )
        return convert.tournament(state)

    @rpc_errors
    async def Start(self, request: tpb.OrganiserRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        await self._settled()
        return convert.tournament(await self._tournaments.execute(request.tournament_id, "start", {}, rounds.start))

    @rpc_errors
    async def PairRound(self, request: tpb.OrganiserRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        await self._settled()
        return convert.tournament(await self._tournaments.execute(request.tournament_id, "pair", {}, rounds.pair))

    @rpc_errors
    async def RepairRound(self, request: tpb.AuditedRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        await self._settled()
        state = await self._tournaments.execute(
            request.tournament_id,
            "repair",
            {"by": request.by, "why": request.why},
            lambda t: rounds.repair(t, request.by, request.why),
        )
        return convert.tournament(state)

    @rpc_errors
    async def StartCut(self, request: tpb.OrganiserRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        await self._settled()
        return convert.tournament(await self._tournaments.execute(request.tournament_id, "cut", {}, rounds.cut))

    @rpc_errors
    async def ReportResult(self, request: tpb.ReportResultRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        await self._settled()
        result = Result(request.wins_a, request.wins_b, request.draws)
        verb = series.correct if request.correction else series.report
        payload = {
            "round": request.round,
            "table": request.table,
            "result": msgspec.to_builtins(result),
            "by": request.by,
            "why": request.why,
        }
        state = await self._tournaments.execute(
            request.tournament_id,
            "correct" if request.correction else "report",
            payload,
            lambda t: verb(t, request.round, request.table, result, request.by, request.why),
        )
        return convert.tournament(state)

    @rpc_errors
    async def GetPairings(self, request: tpb.GetPairingsRequest, context: Context) -> tpb.Pairings:
        await self._settled()
        state = await self._tournaments.load(request.tournament_id)
        found = state.round(request.round or len(state.rounds))
        if found is None:
            raise NotFound(f"no round {request.round or 1} has been paired", reason="ROUND_NOT_FOUND")
        if not request.admin_token:
            return convert.pairings(state, found)
        self._admin(request.admin_token)
        return convert.pairings(state, found, await self._tournaments.games(state, found))

    @rpc_errors
    async def GetStandings(self, request: tpb.GetStandingsRequest, context: Context) -> tpb.Standings:
        await self._settled()
        state = await self._tournaments.load(request.tournament_id)
        return convert.standings(state, request.through_round or None)

    @rpc_errors
    async def GetSeat(self, request: tpb.PlayerRequest, context: Context) -> tpb.Seat:
        await self._player_or_admin(request.tournament_id, request.player, request.token)
        await self._settled()
        seat = await self._tournaments.seat(request.tournament_id, request.player)
        return tpb.Seat(
            round=seat.round,
            table=seat.table,
            game=seat.game,
            match_id=seat.match_id,
            seat=seat.seat,
            token=seat.token,
            opponent=seat.opponent,
            opponent_deck_json="" if seat.opponent_deck is None else msgspec.json.encode(seat.opponent_deck).decode(),
        )

    @rpc_errors
    async def ChooseFirst(self, request: tpb.ChooseFirstRequest, context: Context) -> tpb.Tournament:
        await self._player_or_admin(request.tournament_id, request.player, request.token)
        await self._settled()
        state = await self._tournaments.execute(
            request.tournament_id,
            "choose_first",
            {"round": request.round, "table": request.table, "player": request.player, "first": request.first},
            lambda t: series.choose_first(t, request.round, request.table, request.player, request.first),
        )
        return convert.tournament(state)

    @rpc_errors
    async def SideDeck(self, request: tpb.SideDeckRequest, context: Context) -> tpb.Tournament:
        await self._player_or_admin(request.tournament_id, request.player, request.token)
        await self._settled()
        removed, added = list(request.removed), list(request.added)
        state = await self._tournaments.execute(
            request.tournament_id,
            "side_deck",
            {
                "round": request.round,
                "table": request.table,
                "player": request.player,
                "removed": removed,
                "added": added,
            },
            lambda t: series.side_deck(
                t, self._tournaments.ruleset(t), request.round, request.table, request.player, removed, added
            ),
        )
        return convert.tournament(state)

    @rpc_errors
    async def ListTournamentEvents(self, request: tpb.GetTournamentRequest, context: Context) -> tpb.TournamentEvents:
        from_version = limits.version(int(request.from_version), "from_version")
        if not 0 <= request.page_size <= MAX_EVENTS_PAGE:
            raise InvalidArgument(f"page_size is 0 to {MAX_EVENTS_PAGE}", reason="PAGE_SIZE_INVALID")
        admin = admin_asked(request.admin_token, self._admin_token)
        await self._settled()
        size = request.page_size or EVENTS_PAGE
        # One more than asked: whether a next page exists, without a second read.
        history = await self._tournaments.history(request.tournament_id, from_version, size + 1)
        more = len(history) > size
        history = history[:size]
        if not admin and (await self._tournaments.load(request.tournament_id)).embargoed:
            history = [(v, t, convert.without_decks(t, d), at) for v, t, d, at in history]
        return tpb.TournamentEvents(
            events=[
                tpb.TournamentEvent(version=v, type=t, data_json=d.decode(), recorded_at=at) for v, t, d, at in history
            ],
            next_version=history[-1][0] + 1 if more else 0,
        )

    @rpc_errors
    async def WatchTournament(
        self, request: tpb.WatchTournamentRequest, context: Context
    ) -> AsyncIterator[tpb.WatchTournamentEntry]:
        from_version = limits.version(int(request.from_version), "from_version")
        if request.player:
            await self._player_or_admin(request.tournament_id, request.player, request.token)
            admin = is_admin(request.token, self._admin_token)
        else:
            admin = admin_asked(request.token, self._admin_token)
        state = await self._tournaments.load(request.tournament_id)
        if request.player and request.player not in state.players:
            raise NotFound(f"no player {request.player!r} in this tournament", reason="PLAYER_NOT_FOUND")
        watcher = Watcher(self._tournaments, self._changes, request.tournament_id, request.player, admin)
        async for entry in watcher.entries(from_version):
            yield entry

    @rpc_errors
    async def ReissueToken(self, request: tpb.ReissueTokenRequest, context: Context) -> tpb.ReissueTokenResponse:
        self._admin(request.admin_token)
        await self._settled()
        state, token = await self._tournaments.reissue(request.tournament_id, request.player, request.by, request.why)
        return tpb.ReissueTokenResponse(tournament=convert.tournament(state), player_token=token)

    @rpc_errors
    async def PublishReplays(self, request: tpb.AuditedRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        await self._settled()
        state = await self._tournaments.execute(
            request.tournament_id,
            "publish_replays",
            {"by": request.by, "why": request.why},
            lambda t: registration.publish(t, request.by, request.why),
        )
        return convert.tournament(state)

    @rpc_errors
    async def ListTournaments(
        self, request: tpb.ListTournamentsRequest, context: Context
    ) -> tpb.ListTournamentsResponse:
        size = listing.checked_size(request.page_size)
        status = listing.checked_status(request.status)
        labels = limits.labels(dict(request.labels))
        after = listing.decode_token(request.page_token, status, labels)
        await self._listing.settled(SETTLE_SECONDS)
        rows, next_key = await self._listing.page(after, size, status, labels)
        token = "" if next_key is None else listing.encode_token(next_key, status, labels)
        return tpb.ListTournamentsResponse(tournaments=[convert.summary(r) for r in rows], next_page_token=token)

    @rpc_errors
    async def EditPairings(self, request: tpb.EditPairingsRequest, context: Context) -> tpb.Tournament:
        self._admin(request.admin_token)
        await self._settled()
        players = list(request.players)
        state = await self._tournaments.execute(
            request.tournament_id,
            "edit_pairings",
            {"round": request.round, "edit": request.edit, "players": players, "by": request.by, "why": request.why},
            lambda t: edits.edit(t, request.round, request.edit, players, request.by, request.why),
        )
        return convert.tournament(state)
