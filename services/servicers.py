"""The API's calls: authenticate, one call into the manager (or replays), encode. No rules, no SQL.

Transport-free: a call takes the request message and returns the response (or an async iterator of them) and
raises the service's exceptions. Both edges serve these same objects: gRPC (``services/grpc_edge.py``) and
Connect over HTTP (``services/web/connect.py``), each turning exceptions into its protocol's rich errors.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from engine import registry
from engine.contract import Viewer
from engine.match import encode
from replays import storage as replay_io
from replays.format import Replay
from replays.steps import steps as replay_steps
from replays.verify import Verdict, verify_bytes
from services import wire
from services.api import duelhall_pb2 as pb
from services.errors import FailedPrecondition, InvalidArgument, MatchNotFound
from services.hot import HotMatch
from services.manager import MatchManager, SeatEntry, ruleset_for
from services.readmodel import ENDED, row_for
from services.timers import Timers
from services.tokens import check_admin, seat_for, viewer_for
from services.watch import Feed

_MAX_PAGE = 500


class RulesetServicer:
    async def ListRulesets(self, request: pb.ListRulesetsRequest) -> pb.ListRulesetsResponse:
        rulesets = [wire.ruleset_summary(registry.RULESETS[key]) for key in sorted(registry.RULESETS)]
        return pb.ListRulesetsResponse(rulesets=rulesets)

    async def DescribeRuleset(self, request: pb.DescribeRulesetRequest) -> pb.DescribeRulesetResponse:
        return wire.ruleset_description(ruleset_for(request.ruleset))


class MatchServicer:
    def __init__(self, matches: MatchManager, feed: Feed, admin_token: str | None, timers: Timers) -> None:
        self._matches, self._feed, self._admin_token, self._timers = matches, feed, admin_token, timers

    async def CreateMatch(self, request: pb.CreateMatchRequest) -> pb.CreateMatchResponse:
        seats = [SeatEntry(name=s.name, config=wire.json_object(s.config_json, f"seats[{i}].config_json"))
                 for i, s in enumerate(request.seats)]
        created = await self._matches.create(request.ruleset, seats, wire.json_object(request.options_json,
                                                                                     "options_json"))
        tokens = [pb.SeatToken(seat=i, token=t) for i, t in enumerate(created.tokens)]
        return pb.CreateMatchResponse(match=wire.match(created.row), tokens=tokens)

    async def GetMatch(self, request: pb.GetMatchRequest) -> pb.Match:
        hot = await self._matches.at_least(request.match_id, request.min_version)
        previous = await self._matches.read_model.get(request.match_id)
        return wire.match(row_for(hot, created_at=None, previous=previous))

    async def ListMatches(self, request: pb.ListMatchesRequest) -> pb.ListMatchesResponse:
        size = min(request.page_size or 50, _MAX_PAGE)
        rows, next_key = await self._matches.read_model.page(
            request.page_token or None, size, request.ruleset, wire.STATUS_FROM_PB.get(request.status, ""))
        return pb.ListMatchesResponse(matches=[wire.match(r) for r in rows], next_page_token=next_key or "")

    async def GetView(self, request: pb.GetViewRequest) -> pb.GetViewResponse:
        hot = await self._matches.at_least(request.match_id, request.min_version)
        viewer = viewer_for(request.token, hot.token_hashes)
        return pb.GetViewResponse(seat=-1 if viewer is None else viewer, version=hot.version,
                                  view_json=_view_json(hot, viewer),
                                  to_act=hot.ruleset.to_act(hot.state), deadline=self._deadline(hot))

    async def ListLegalCommands(self, request: pb.ListLegalCommandsRequest) -> pb.ListLegalCommandsResponse:
        hot = await self._matches.at_least(request.match_id, request.min_version)
        seat = seat_for(request.token, hot.token_hashes)
        commands = hot.ruleset.legal_commands(hot.state, seat)
        return pb.ListLegalCommandsResponse(seat=seat, version=hot.version,
                                            commands_json=[encode(c).decode() for c in commands],
                                            view_json=_view_json(hot, seat) if request.include_view else "",
                                            to_act=hot.ruleset.to_act(hot.state), deadline=self._deadline(hot))

    async def SubmitCommand(self, request: pb.SubmitCommandRequest) -> pb.SubmitCommandResponse:
        hot = await self._matches.get(request.match_id)
        seat = seat_for(request.token, hot.token_hashes)
        expected = request.expected_version if request.HasField("expected_version") else None
        result = await self._matches.submit(request.match_id, seat, request.command_json.encode(),
                                            request.command_id, expected)
        return pb.SubmitCommandResponse(events=wire.submitted_events(hot.ruleset, result, seat),
                                        version=result.version, duplicate=result.duplicate,
                                        to_act=hot.ruleset.to_act(hot.state))

    async def WatchMatch(self, request: pb.WatchMatchRequest) -> AsyncIterator[pb.MatchUpdate]:
        hot = await self._matches.get(request.match_id)
        viewer = viewer_for(request.token, hot.token_hashes)
        async for update in self._feed.watch(request.match_id, viewer, request.from_version, request.include_view):
            latest = update.recorded.version == hot.version
            yield pb.MatchUpdate(event=wire.event(update.recorded, update.data),
                                 view_json=update.view.decode() if update.view else "", match_ended=update.ended,
                                 deadline=self._deadline(hot) if latest else None,
                                 to_act=hot.ruleset.to_act(hot.state) if latest else ())

    async def ExportReplay(self, request: pb.ExportReplayRequest) -> pb.ExportReplayResponse:
        row = await self._matches.read_model.get(request.match_id)
        if row is None:
            raise MatchNotFound(f"no match {request.match_id!r}")
        ended = row.status == ENDED
        if not ended:
            check_admin(request.token, self._admin_token)
        return pb.ExportReplayResponse(replay=await replay_io.export(self._matches.store, request.match_id, ended))

    async def ImportReplay(self, request: pb.ImportReplayRequest) -> pb.ImportReplayResponse:
        match_id, imported = await replay_io.import_(self._matches.store, request.replay)
        await self._matches.reindex(match_id)
        return pb.ImportReplayResponse(match_id=match_id, imported=imported)

    async def VerifyReplay(self, request: pb.VerifyReplayRequest) -> pb.VerifyReplayResponse:
        return _verification(verify_bytes(request.replay))

    async def ViewReplay(self, request: pb.ViewReplayRequest) -> pb.ViewReplayResponse:
        verification = None
        if request.WhichOneof("source") == "replay":
            verdict = await asyncio.to_thread(verify_bytes, request.replay)
            verification = _verification(verdict)
            if verdict.replay is None or not verdict.ok:
                return pb.ViewReplayResponse(verification=verification, seat=request.seat)
            replay = verdict.replay
        else:
            replay = await self._ended_replay(request.match_id)
        if not -1 <= request.seat < len(replay.seats):
            raise InvalidArgument(f"seat {request.seat} is not -1 (spectator) or a seat 0..{len(replay.seats) - 1}",
                                  reason="SEAT_INVALID")
        viewer = None if request.seat == -1 else request.seat
        found = await asyncio.to_thread(replay_steps, replay, viewer)
        return pb.ViewReplayResponse(match=wire.replay_match(replay), verification=verification, seat=request.seat,
                                     steps=[wire.replay_step(step) for step in found])

    async def _ended_replay(self, match_id: str) -> Replay:
        """A stored match's replay (without its seed), once the match has ended: a running one stays hidden."""
        row = await self._matches.read_model.get(match_id)
        if row is None:
            raise MatchNotFound(f"no match {match_id!r}")
        if row.status != ENDED:
            raise FailedPrecondition("the match is still running: watch it instead", reason="MATCH_RUNNING")
        store = self._matches.store
        return replay_io.build(match_id, await store.read_stream(match_id), await store.read_commands(match_id), None)

    def _deadline(self, hot: HotMatch) -> pb.Deadline | None:
        armed = self._timers.armed(hot.match_id)
        if armed is None:
            return None
        return wire.deadline(armed.seat, armed.timeout, armed.expires_at, armed.seconds)


def _verification(verdict: Verdict) -> pb.VerifyReplayResponse:
    failure = None
    if verdict.failure is not None:
        failure = pb.ReplayFailure(check=verdict.failure.check, version=verdict.failure.version,
                                   message=verdict.failure.message)
    return pb.VerifyReplayResponse(ok=verdict.ok, failure=failure, checks=verdict.checks)


def _view_json(hot: HotMatch, viewer: Viewer) -> str:
    return encode(hot.ruleset.view(hot.state, viewer)).decode()
