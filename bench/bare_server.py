"""The ceiling for bench/service.py: the same proto and the same store append, with trivial validation.

It keeps a version per match in memory, checks that a command is a JSON object with a type, and appends two
events through the real event store. Every match lasts ``--match-length`` commands, or until a concede.
``WatchMatch`` (the ceiling for bench/fanout.py) hands each event, encoded once, to every watcher's queue,
and writes it from there.

    python bench/bare_server.py --database-url URL [--listen 127.0.0.1:0]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
from collections.abc import AsyncIterator

import grpc
import msgspec

from eventstore import AsyncEventStore, CommandRecord, NewEvent, migrate, open_store
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc

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


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--listen", default="127.0.0.1:0")
    parser.add_argument("--match-length", type=int, default=50)
    args = parser.parse_args()
    await asyncio.to_thread(migrate, args.database_url)
    store = await open_store(args.database_url)
    server = grpc.aio.server()
    pb_grpc.add_MatchServiceServicer_to_server(BareMatches(store, args.match_length), server)
    port = server.add_insecure_port(args.listen)
    await server.start()
    print(f"bare server listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    asyncio.run(main())
