"""The ceilings for bench/service.py: the same proto and the same store append, with trivial validation or
with the rules alone.

It keeps a version per match in memory, checks that a command is a JSON object with a type, and appends two
events through the real event store. Every match lasts ``--match-length`` commands, or until a concede.
``WatchMatch`` (the ceiling for bench/fanout.py) hands each event, encoded once, to every watcher's queue,
and writes it from there.

With ``--engine`` it runs the rules instead, as the engine is called and nothing more: a match is created,
its commands decided and folded, its legal commands listed and its events redacted for the submitter by the
ruleset, and appended. No tokens (a seat's token is its number), retries, clocks, match list, log or metrics:
what any server that hosts this engine in its process pays per command at least.

    python bench/bare_server.py --database-url URL [--listen 127.0.0.1:0] [--engine]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import grpc
import msgspec

from engine import registry
from engine.errors import Rejected
from engine.match import Match, create, decide, encode, fold, stored_type
from eventstore import AsyncEventStore, CommandRecord, NewEvent, migrate, open_store
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.matches.hot import seen

LEGAL = ['{"type":"engage"}', '{"type":"pass"}']


class BareMatches(pb_grpc.MatchServiceServicer):
    def __init__(self, store: AsyncEventStore, match_length: int) -> None:
        self._store = store
        self._versions: dict[str, int] = {}
        self._length = match_length
        self._watchers: dict[str, list[asyncio.Queue[pb.MatchUpdate]]] = {}

    async def CreateMatch(self, request: pb.CreateMatchRequest, context: object) -> pb.CreateMatchResponse:
        match_id = secrets.token_hex(16)
        event = NewEvent(type="MatchCreated", data=b'{"type":"MatchCreated"}')
        command = CommandRecord(command_id=f"create-{match_id}", actor="system", type="create", payload=b"{}")
        await self._store.append(match_id, 0, [event], command)
        self._versions[match_id] = 1
        tokens = [pb.SeatToken(seat=i, token=str(i)) for i in range(len(request.seats))]
        return pb.CreateMatchResponse(match=pb.Match(match_id=match_id, version=1), tokens=tokens)

    async def GetView(self, request: pb.GetViewRequest, context: object) -> pb.GetViewResponse:
        return pb.GetViewResponse(version=self._versions[request.match_id], view_json="{}", to_act=[0])

    async def ListLegalCommands(
        self, request: pb.ListLegalCommandsRequest, context: object
    ) -> pb.ListLegalCommandsResponse:
        version = self._versions[request.match_id]
        return pb.ListLegalCommandsResponse(seat=0, version=version, commands_json=LEGAL, view_json="{}", to_act=[0])

    async def SubmitCommand(
        self, request: pb.SubmitCommandRequest, context: grpc.aio.ServicerContext
    ) -> pb.SubmitCommandResponse:
        command = msgspec.json.decode(request.command_json)
        if not isinstance(command, dict) or "type" not in command:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "bad command")
        version = self._versions[request.match_id]
        events = [NewEvent(type="Done", data=request.command_json.encode()), NewEvent(type="Next", data=b"{}")]
        record = CommandRecord(
            command_id=request.command_id, actor="0", type=command["type"], payload=request.command_json.encode()
        )
        appended = await self._store.append(request.match_id, version, events, record)
        recorded_at = appended.recorded_at.isoformat().replace("+00:00", "Z")
        self._versions[request.match_id] = version + 2
        ended = (version + 1) // 2 >= self._length or command["type"] == "concede"
        to_act = [] if ended else [0]
        for offset, event in enumerate(events):
            last = offset == len(events) - 1
            update = pb.MatchUpdate(
                event=pb.Event(
                    version=version + 1 + offset,
                    type=event.type,
                    data_json=event.data.decode(),
                    recorded_at=recorded_at,
                ),
                match_ended=ended and last,
                to_act=to_act if last else [],
            )
            for queue in self._watchers.get(request.match_id, ()):
                queue.put_nowait(update)
        return pb.SubmitCommandResponse(version=version + 2, to_act=to_act)

    async def WatchMatch(self, request: pb.WatchMatchRequest, context: grpc.aio.ServicerContext) -> None:
        async for updates in self._watch(request.match_id, context):
            for update in updates:
                await context.write(update)

    async def WatchMatchBatched(self, request: pb.WatchMatchRequest, context: grpc.aio.ServicerContext) -> None:
        async for updates in self._watch(request.match_id, context):
            await context.write(pb.MatchUpdateBatch(updates=updates))

    async def _watch(self, match_id: str, context: grpc.aio.ServicerContext) -> AsyncIterator[list[pb.MatchUpdate]]:
        """Every update queued for this watcher, as many at a time as are waiting, until the match ends."""
        queue: asyncio.Queue[pb.MatchUpdate] = asyncio.Queue()
        self._watchers.setdefault(match_id, []).append(queue)
        try:
            await context.send_initial_metadata(())
            while True:
                updates = [await queue.get()]
                while not queue.empty():
                    updates.append(queue.get_nowait())
                yield updates
                if updates[-1].match_ended:
                    return
        finally:
            self._watchers[match_id].remove(queue)

    async def GetMatch(self, request: pb.GetMatchRequest, context: object) -> pb.Match:
        return pb.Match(
            match_id=request.match_id, version=self._versions[request.match_id], status=pb.MATCH_STATUS_ENDED
        )


class EngineMatches(pb_grpc.MatchServiceServicer):
    """The engine's work per call, and the store append."""

    def __init__(self, store: AsyncEventStore) -> None:
        self._store = store
        self._matches: dict[str, tuple[Match, bytes]] = {}

    async def CreateMatch(self, request: pb.CreateMatchRequest, context: object) -> pb.CreateMatchResponse:
        ruleset = registry.get(request.ruleset)
        seed = secrets.token_bytes(32)
        config: dict[str, Any] = {"seats": [{} for _ in request.seats], "options": {}}
        events = create(ruleset, config, [seat.name for seat in request.seats], seed)
        match_id = secrets.token_hex(16)
        command = CommandRecord(command_id=f"create-{match_id}", actor="system", type="create", payload=b"{}")
        await self._store.append(
            match_id, 0, [NewEvent(type=stored_type(ruleset, e), data=encode(e)) for e in events], command
        )
        match = fold(ruleset, events)
        self._matches[match_id] = (match, seed)
        tokens = [pb.SeatToken(seat=i, token=str(i)) for i in range(len(request.seats))]
        return pb.CreateMatchResponse(match=pb.Match(match_id=match_id, version=match.version), tokens=tokens)

    async def GetView(self, request: pb.GetViewRequest, context: object) -> pb.GetViewResponse:
        match, _ = self._matches[request.match_id]
        ruleset = registry.get(match.created.ruleset)
        return pb.GetViewResponse(version=match.version, view_json="{}", to_act=ruleset.to_act(match.state))

    async def ListLegalCommands(
        self, request: pb.ListLegalCommandsRequest, context: object
    ) -> pb.ListLegalCommandsResponse:
        match, _ = self._matches[request.match_id]
        ruleset, seat = registry.get(match.created.ruleset), int(request.token)
        commands = [encode(c).decode() for c in ruleset.legal_commands(match.state, seat)]
        return pb.ListLegalCommandsResponse(
            seat=seat, version=match.version, commands_json=commands, to_act=ruleset.to_act(match.state)
        )

    async def SubmitCommand(
        self, request: pb.SubmitCommandRequest, context: grpc.aio.ServicerContext
    ) -> pb.SubmitCommandResponse:
        match, seed = self._matches[request.match_id]
        ruleset, seat, raw = registry.get(match.created.ruleset), int(request.token), request.command_json.encode()
        try:
            decided = decide(ruleset, match, seat, raw, seed)
        except Rejected as exc:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))
        new = [NewEvent(type=stored_type(ruleset, e), data=encode(e)) for e in decided.events]
        record = CommandRecord(command_id=request.command_id, actor=str(seat), type="command", payload=raw)
        appended = await self._store.append(request.match_id, match.version, new, record)
        self._matches[request.match_id] = (decided.match, seed)
        recorded_at = appended.recorded_at.isoformat().replace("+00:00", "Z")
        events = [
            pb.Event(
                version=match.version + 1 + offset,
                type=event.type,
                data_json=seen(ruleset, seat, event.type, engine_event, event.data).decode(),
                actor=str(seat),
                recorded_at=recorded_at,
            )
            for offset, (event, engine_event) in enumerate(zip(new, decided.events, strict=True))
        ]
        return pb.SubmitCommandResponse(
            events=events, version=decided.match.version, to_act=ruleset.to_act(decided.match.state)
        )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--listen", default="127.0.0.1:0")
    parser.add_argument("--match-length", type=int, default=50)
    parser.add_argument("--engine", action="store_true", help="run the rules (the ceiling of any server of them)")
    args = parser.parse_args()
    await asyncio.to_thread(migrate, args.database_url)
    store = await open_store(args.database_url)
    server = grpc.aio.server()
    servicer = EngineMatches(store) if args.engine else BareMatches(store, args.match_length)
    pb_grpc.add_MatchServiceServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port(args.listen)
    await server.start()
    print(f"bare server listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    asyncio.run(main())
