"""The servicers: authenticate, one call into the manager (or replays), encode. No rules, no SQL.

They are registered on the gRPC server and served over Connect too (``services/web/connect.py``), which calls
them with a context of its own: one implementation for both edges.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import TypeAlias, TypeVar

import grpc

from engine import registry
from engine.commands import read_type
from engine.contract import ADMIN, Actor, Ruleset, Viewer
from replays import storage as replay_io
from replays.format import Replay, encode_replay, is_match_id
from replays.steps import steps as replay_steps
from replays.verify import Verdict, verify_bytes
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.core import limits
from services.core.errors import Ahead, InvalidArgument, MatchNotFound, PermissionDenied, Refused
from services.edge import wire
from services.edge.embargo import Embargo
from services.edge.pages import decode_token, encode_token
from services.edge.play import play
from services.edge.routing import to_owner
from services.edge.rpc_errors import rpc_errors
from services.matches import caster, spectators
from services.matches.caster_watch import CasterWatch
from services.matches.create_requests import create_once
from services.matches.hot import HotMatch
from services.matches.loader import ruleset_for
from services.matches.manager import MatchManager
from services.matches.presence import Presence
from services.matches.timers import Timers
from services.matches.tokens import SeatToken, admin_asked, check_admin, is_admin, seat_for
from services.matches.watch import Feed, Watch
from services.readmodels import lifecycle
from services.readmodels.matchrows import PUBLIC, row_for

Context: TypeAlias = grpc.aio.ServicerContext
T = TypeVar("T")
_MAX_PAGE = 500
REPLAY_WORKERS = 2
"""Replay checks and steps that run at once, each on a worker thread; more wait their turn. Each holds the
interpreter most of its time: a flood of them, unbounded, would leave the event loop (every match) a sliver."""


class RulesetServicer(pb_grpc.RulesetServiceServicer):
    @rpc_errors
    async def ListRulesets(self, request: pb.ListRulesetsRequest, context: Context) -> pb.ListRulesetsResponse:
        rulesets = [wire.ruleset_summary(registry.RULESETS[key]) for key in sorted(registry.RULESETS)]
        versions = [wire.ruleset_summary(registry.HOSTED[key]) for key in sorted(registry.HOSTED)]
        return pb.ListRulesetsResponse(rulesets=rulesets, versions=versions)

    @rpc_errors
    async def DescribeRuleset(self, request: pb.DescribeRulesetRequest, context: Context) -> pb.DescribeRulesetResponse:
        return wire.ruleset_description(ruleset_for(request.ruleset, request.version))


class MatchServicer(pb_grpc.MatchServiceServicer):
    def __init__(
        self,
        matches: MatchManager,
        feed: Feed[pb.MatchUpdate],
        admin_token: str | None,
        timers: Timers,
        embargo: Embargo,
        presence: Presence,
    ) -> None:
        self._matches, self._feed, self._admin_token, self._timers = matches, feed, admin_token, timers
        self._embargo, self._presence = embargo, presence
        self._replay_workers = asyncio.Semaphore(REPLAY_WORKERS)
        self.play_results: list[Callable[[str, pb.CommandResult], None]] = []
        """Told of each command a Play stream submitted, with its match id (metrics)."""

    @rpc_errors
    async def CreateMatch(self, request: pb.CreateMatchRequest, context: Context) -> pb.CreateMatchResponse:
        seats = wire.seat_entries(request.seats)
        options, labels = wire.json_object(request.options_json, "options_json"), dict(request.labels)
        watchers, version = wire.spectators(request.spectators), request.ruleset_version
        delay = request.caster_delay_seconds
        if limits.request_id(request.request_id):
            created = await create_once(
                self._matches, request.request_id, request.ruleset, seats, options, labels, version, watchers, delay
            )
        else:
            created = await self._matches.create(
                request.ruleset,
                seats,
                options,
                labels,
                ruleset_version=version,
                spectators=watchers,
                caster_delay=delay,
            )
        tokens = [pb.SeatToken(seat=i, token=t) for i, t in enumerate(created.tokens) if t]  # open and bot seats: none
        return pb.CreateMatchResponse(
            match=wire.match(created.row),
            tokens=tokens,
            spectator_token=created.spectator_token,
            caster_token=created.caster_token,
        )

    @rpc_errors
    async def JoinSeat(self, request: pb.JoinSeatRequest, context: Context) -> pb.JoinSeatResponse:
        await to_owner(self._matches.ownership, request.match_id, context)
        config = wire.json_object(request.config_json, "config_json")
        seat = request.seat if request.HasField("seat") else None
        request_id = limits.request_id(request.request_id)
        seated = await self._matches.join(request.match_id, seat, request.name, config, request_id)
        hot = await self._matches.get(request.match_id)
        previous = await self._matches.read_model.get(request.match_id)
        return pb.JoinSeatResponse(
            seat=seated.seat, token=seated.token, match=wire.match(row_for(hot, created_at=None, previous=previous))
        )

    @rpc_errors
    async def GetMatch(self, request: pb.GetMatchRequest, context: Context) -> pb.Match:
        await to_owner(self._matches.ownership, request.match_id, context)
        hot = await self._matches.at_least(request.match_id, limits.version(request.min_version, "min_version"))
        previous = await self._matches.read_model.get(request.match_id)
        seats = await self._presence.of(hot.match_id, len(hot.match.created.seats), hot.created_at, hot.bots)
        return wire.match(row_for(hot, created_at=None, previous=previous), seats)

    @rpc_errors
    async def ListMatches(self, request: pb.ListMatchesRequest, context: Context) -> pb.ListMatchesResponse:
        if not 0 <= request.page_size <= _MAX_PAGE:
            raise InvalidArgument(
                f"page_size must be 0 (the default, 50) to {_MAX_PAGE}, not {request.page_size}",
                reason="PAGE_SIZE_OUT_OF_RANGE",
            )
        status = wire.STATUS_FROM_PB.get(request.status)
        if status is None:
            raise InvalidArgument(f"status {request.status} is not a MatchStatus", reason="STATUS_UNKNOWN")
        if request.ruleset:
            ruleset_for(request.ruleset)  # a typo lists nothing, silently, unless it is refused
        labels = limits.labels(dict(request.labels))
        admin = admin_asked(request.token, self._admin_token)
        joinable = request.open_seats
        after = decode_token(request.page_token, request.ruleset, status, labels, joinable)
        await self._matches.ends.recorded()
        rows, next_key = await self._matches.read_model.page(
            after, request.page_size or 50, request.ruleset, status, labels, joinable
        )
        token = "" if next_key is None else encode_token(next_key, request.ruleset, status, labels, joinable)
        listed = [r for r in rows if admin or r.spectators == PUBLIC]
        return pb.ListMatchesResponse(matches=[wire.match(r) for r in listed], next_page_token=token)

    @rpc_errors
    async def GetView(self, request: pb.GetViewRequest, context: Context) -> pb.GetViewResponse:
        await to_owner(self._matches.ownership, request.match_id, context)
        viewed = wire.viewed(
            await self._matches.viewed(
                request.match_id,
                request.token,
                limits.version(request.min_version, "min_version"),
                is_admin(request.token, self._admin_token),
            )
        )
        clock = self._clock(request.match_id)
        if clock is not None:
            viewed.deadline.CopyFrom(clock)
        return viewed

    @rpc_errors
    async def ListLegalCommands(
        self,
        request: pb.ListLegalCommandsRequest,
        context: Context,
    ) -> pb.ListLegalCommandsResponse:
        await to_owner(self._matches.ownership, request.match_id, context)
        decided = wire.decision(
            await self._matches.decision(
                request.match_id,
                request.token,
                limits.version(request.min_version, "min_version"),
                request.include_view,
            )
        )
        clock = self._clock(request.match_id)
        if clock is not None:
            decided.deadline.CopyFrom(clock)
        return decided

    @rpc_errors
    async def SubmitCommand(self, request: pb.SubmitCommandRequest, context: Context) -> pb.SubmitCommandResponse:
        """A seat's command with its seat token, or a referee's with the admin token (docs/api.md)."""
        await to_owner(self._matches.ownership, request.match_id, context)
        expected = request.expected_version if request.HasField("expected_version") else None
        raw = request.command_json.encode()
        actor: Actor | SeatToken = SeatToken(request.token)
        if is_admin(request.token, self._admin_token):
            _admit_admin_command((await self._matches.get(request.match_id)).ruleset, raw)
            actor = ADMIN
        return wire.submitted(await self._matches.submit(request.match_id, actor, raw, request.command_id, expected))

    @rpc_errors
    async def WatchMatch(self, request: pb.WatchMatchRequest, context: Context) -> None:
        with await self._opened(request, context) as watch:
            # Written, not yielded: one layer less per message, the cost that grows with the watchers.
            while updates := await watch.next():
                for update in updates:
                    await context.write(update)

    @rpc_errors
    async def WatchMatchBatched(self, request: pb.WatchMatchRequest, context: Context) -> None:
        with await self._opened(request, context) as watch:
            while updates := await watch.next():
                await context.write(pb.MatchUpdateBatch(updates=updates))

    async def _opened(
        self, request: pb.WatchMatchRequest, context: Context
    ) -> Watch[pb.MatchUpdate] | CasterWatch[pb.MatchUpdate]:
        """The request's watch, in place before the client hears that the stream started."""
        await to_owner(self._matches.ownership, request.match_id, context)
        admin = is_admin(request.token, self._admin_token)

        def viewer_of(hot: HotMatch) -> Viewer:
            return spectators.viewer_of(request.token, hot.token_hashes, hot.spectators, admin)

        def admit(hot: HotMatch) -> None:
            caster.admit(request.token, hot.caster, admin)

        from_version = limits.version(request.from_version, "from_version")
        watch: Watch[pb.MatchUpdate] | CasterWatch[pb.MatchUpdate]
        if request.caster:
            watch = await self._feed.open_caster(request.match_id, admit, from_version, request.include_view)
        else:
            watch = await self._feed.open(request.match_id, viewer_of, from_version, request.include_view)
        try:
            await context.send_initial_metadata(())
        except BaseException:
            watch.close()
            raise
        return watch

    @rpc_errors
    async def Play(self, requests: AsyncIterator[pb.PlayRequest], context: Context) -> None:
        await play(self._matches, self._feed, requests, context, self.play_results)

    @rpc_errors
    async def ExportReplay(self, request: pb.ExportReplayRequest, context: Context) -> pb.ExportReplayResponse:
        replay = await self._stored_replay(request.match_id)
        if replay is None:
            raise MatchNotFound(f"no match {request.match_id!r}")
        if replay.outcome is None:
            check_admin(request.token, self._admin_token)
        await self._lifted(replay, request.token)
        return pb.ExportReplayResponse(replay=encode_replay(replay))

    @rpc_errors
    async def ImportReplay(self, request: pb.ImportReplayRequest, context: Context) -> pb.ImportReplayResponse:
        async with self._replay_workers:  # its check runs on a thread (replays/storage.py)
            done = await replay_io.import_(self._matches.store, request.replay)
        await self._matches.reindex(done.match_id)
        return pb.ImportReplayResponse(match_id=done.match_id, imported=done.imported, uncovered=done.uncovered)

    @rpc_errors
    async def VerifyReplay(self, request: pb.VerifyReplayRequest, context: Context) -> pb.VerifyReplayResponse:
        # Off the event loop: a long replay takes about a second per 16 MiB to re-execute.
        return _verification(await self._replay_work(verify_bytes, request.replay))

    @rpc_errors
    async def ViewReplay(self, request: pb.ViewReplayRequest, context: Context) -> pb.ViewReplayResponse:
        verification = None
        if request.WhichOneof("source") == "replay":
            verdict = await self._replay_work(verify_bytes, limits.viewed_replay(request.replay))
            verification = _verification(verdict)
            if verdict.replay is None or not verdict.ok:
                return pb.ViewReplayResponse(verification=verification, seat=request.seat)
            replay = verdict.replay
        else:
            replay = await self._ended_replay(request.match_id)
            await self._lifted(replay, request.token, request.seat)
        if not -1 <= request.seat < len(replay.seats):
            raise InvalidArgument(
                f"seat {request.seat} is not -1 (spectator) or a seat 0..{len(replay.seats) - 1}", reason="SEAT_INVALID"
            )
        viewer = None if request.seat == -1 else request.seat
        first = limits.version(request.from_version, "from_version")
        if request.max_steps < 0:
            raise InvalidArgument(
                f"max_steps must be 0 (all) or more, not {request.max_steps}", reason="MAX_STEPS_INVALID"
            )
        most = request.max_steps
        found = await self._replay_work(replay_steps, replay, viewer, first, most)
        last = found[-1].version if found else len(replay.events)
        return pb.ViewReplayResponse(
            match=wire.replay_match(replay),
            verification=verification,
            seat=request.seat,
            steps=[wire.replay_step(step) for step in found],
            next_version=last + 1 if last < len(replay.events) else 0,
        )

    async def _replay_work(self, work: Callable[..., T], *args: object) -> T:
        async with self._replay_workers:
            return await asyncio.to_thread(work, *args)

    async def _ended_replay(self, match_id: str) -> Replay:
        """A stored match's replay once its events say it ended: a running one stays hidden."""
        replay = await self._stored_replay(match_id)
        if replay is None:
            raise MatchNotFound(f"no match {match_id!r}")
        if replay.outcome is None:
            raise Refused("the match is still running: watch it instead", reason="MATCH_RUNNING")
        return replay

    async def _lifted(self, replay: Replay, token: str, seat: int | None = None) -> None:
        """Refuses a stored match's replay under embargo (a running tournament's game) unless ``token`` is the
        admin token, or opens ``seat``: a player views their own game as their seat saw it (no other seat's
        hidden cards, no seed) during the event."""
        if is_admin(token, self._admin_token):
            return
        if token and seat is not None and seat >= 0:
            with contextlib.suppress(PermissionDenied):  # a token of no seat of this match is only not this seat's
                if seat_for(token, (await self._matches.get(replay.match_id)).token_hashes) == seat:
                    return
        # The labels are in the creating command, the replay's first.
        labels = lifecycle.labels_in(replay.commands[0].payload.encode()) if replay.commands else {}
        if await self._embargo.holds(labels):
            raise PermissionDenied(
                "the replays of this tournament are withheld until it ends or its organiser publishes them",
                reason="REPLAY_EMBARGOED",
                tournament=labels.get("tournament", ""),
            )

    async def _stored_replay(self, match_id: str) -> Replay | None:
        """The stored match's replay (None when there is none), refused like every other call on the match when
        this server does not host its ruleset version."""
        if not is_match_id(match_id):
            return None
        try:
            return await replay_io.stored(self._matches.store, match_id)
        except registry.Unhosted as exc:
            raise self._matches.unhosted.refusal(match_id, exc) from None

    def _clock(self, match_id: str) -> pb.Deadline | None:
        armed = self._timers.armed(match_id)
        if armed is None:
            return None
        return wire.deadline(armed.seat, armed.timeout, armed.expires_at, armed.seconds)

    @rpc_errors
    async def WatchLifecycle(
        self,
        request: pb.WatchLifecycleRequest,
        context: Context,
    ) -> AsyncIterator[pb.LifecycleChange]:
        from_position = limits.position(request.from_position, "from_position")
        labels = limits.labels(dict(request.labels))
        head = await self._matches.store.head()
        if from_position > head + 1:  # one past the head is where a consumer that has handled it all resumes
            raise Ahead(
                f"the store has no position {from_position}: its last is {head}",
                reason="POSITION_AHEAD",
                head=str(head),
            )
        everything = admin_asked(request.token, self._admin_token)
        async for change in lifecycle.changes(self._matches.store, from_position, labels, everything):
            yield wire.lifecycle_change(change)


def _verification(verdict: Verdict) -> pb.VerifyReplayResponse:
    failure = None
    if verdict.failure is not None:
        failure = pb.ReplayFailure(
            check=verdict.failure.check, version=verdict.failure.version, message=verdict.failure.message
        )
    return pb.VerifyReplayResponse(ok=verdict.ok, failure=failure, checks=verdict.checks, uncovered=verdict.uncovered)


def _admit_admin_command(ruleset: Ruleset, raw: bytes) -> None:
    """Refuses, before deciding, a command the ruleset does not accept from an admin (its ``admin_commands``)."""
    kind, _ = read_type(ruleset, raw)
    if kind not in ruleset.admin_commands:
        raise PermissionDenied(f"{ruleset.id} accepts no {kind!r} command from an admin", reason="NOT_AN_ADMIN_COMMAND")
