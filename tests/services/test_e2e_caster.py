"""The delayed caster feed through a real server on a hand-moved clock: every event unredacted with every seat's
view, each only once it is the delay old, resumable; the other watchers stay redacted and live."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import grpc
import msgspec
import pytest

from engine import registry
from engine.match import EventDecoder, Match, apply, start
from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.services.client import Created, end_match, error_reason, play_one
from tests.services.clock import ManualClock
from tests.services.conftest import ADMIN_TOKEN

DELAY = 120
MATCHES = 20
COMMANDS = 24
"""Random commands per match before seat 0 concedes: enough for hands to change, short enough for 20 matches."""
MARGIN = timedelta(milliseconds=1)
"""How far either side of an event's due time the clock stops: clear of the clock's float rounding."""
SEATS = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]
OPTIONS = '{"turn_seconds": 600}'  # no turn timer falls due while the clock runs up to DELAY ahead
RULESET = registry.get("card_monsters")


def at(update: pb.MatchUpdate) -> datetime:
    return datetime.fromisoformat(update.event.recorded_at)


class Caster:
    """A caster's batched stream, reopened from its last version on ``reconnect``; checks each update on arrival."""

    def __init__(self, stub: pb_grpc.MatchServiceStub, match_id: str, token: str, clock: ManualClock) -> None:
        self._stub, self._match_id, self._token, self._clock = stub, match_id, token, clock
        self.updates: list[pb.MatchUpdate] = []
        self.violations = 0
        self._stream = self._open(0)

    def _open(self, from_version: int) -> AsyncIterator[pb.MatchUpdateBatch]:
        request = pb.WatchMatchRequest(
            match_id=self._match_id, token=self._token, caster=True, include_view=True, from_version=from_version
        )
        self._call = self._stub.WatchMatchBatched(request)
        return aiter(self._call)

    @property
    def last(self) -> int:
        return self.updates[-1].event.version if self.updates else 0

    def reconnect(self) -> None:
        self._call.cancel()
        self._stream = self._open(self.last)

    async def until(self, version: int) -> None:
        while self.last < version:
            batch = await asyncio.wait_for(anext(self._stream), 30)
            for update in batch.updates:
                assert update.event.version == self.last + 1
                if self._clock.now() - at(update) < timedelta(seconds=DELAY):
                    self.violations += 1
                self.updates.append(update)

    def close(self) -> None:
        self._call.cancel()


async def spectate(stub: pb_grpc.MatchServiceStub, match_id: str) -> list[pb.MatchUpdate]:
    updates = []
    async for update in stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id)):
        updates.append(update)
    return updates


async def test_the_caster_feed_is_delayed_omniscient_and_resumable(database_url: str) -> None:
    clock = ManualClock()
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN), clock
    )
    violations = revealed = reconnects = 0
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            for game in range(MATCHES):
                reply = await stub.CreateMatch(
                    pb.CreateMatchRequest(
                        ruleset="card_monsters", seats=SEATS, options_json=OPTIONS, caster_delay_seconds=DELAY
                    )
                )
                tokens = [t.token for t in sorted(reply.tokens, key=lambda t: t.seat)]
                created = Created(reply.match.match_id, tokens, reply.match.version)
                caster = Caster(stub, created.match_id, ADMIN_TOKEN if game % 4 == 3 else reply.caster_token, clock)
                spectator = asyncio.create_task(spectate(stub, created.match_id))
                rng = random.Random(game)
                to_act = list((await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act)
                for step in range(COMMANDS):
                    if not to_act:
                        break
                    to_act = list((await play_one(stub, created, to_act[0], rng, f"g{game}-{step}")).to_act)
                await end_match(stub, created)
                # Live and redacted, the clock unmoved: the spectator has the whole match before the caster has any.
                seen = await asyncio.wait_for(spectator, 30)
                assert seen[-1].match_ended and not caster.updates
                times = sorted({at(u) for u in seen})
                for index, time in enumerate(times):
                    due = time + timedelta(seconds=DELAY)
                    clock.advance(max(0.0, (due - MARGIN - clock.now()).total_seconds()))
                    await caster.until(max((u.event.version for u in seen if at(u) < time), default=0))
                    clock.advance(max(0.0, (due + MARGIN - clock.now()).total_seconds()))
                    await caster.until(max(u.event.version for u in seen if at(u) == time))
                    if index == len(times) // 2:
                        caster.reconnect()
                        reconnects += 1
                caster.close()
                assert caster.updates[-1].match_ended and caster.last == seen[-1].event.version
                violations += caster.violations
                revealed += check_omniscient(caster.updates, seen)
                replay = decode_replay(
                    (await stub.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
                )
                assert [u.event.data_json for u in caster.updates] == [e.data for e in replay.events]
    finally:
        await running.stop(0)
    assert violations == 0
    assert reconnects == MATCHES
    assert revealed > MATCHES  # hands were dealt and shown in every match


def check_omniscient(caster: list[pb.MatchUpdate], spectator: list[pb.MatchUpdate]) -> int:
    """Every seat's hidden cards are in its view in the caster's update; returns how many cards that was."""
    decoder = EventDecoder(RULESET)
    match: Match | None = None
    revealed = 0
    for update in caster:
        event = decoder.decode(update.event.type, update.event.data_json)
        match = start(RULESET, event) if match is None else apply(RULESET, match, [event])
        views = msgspec.json.decode(update.view_json)
        assert len(views) == len(SEATS)
        hidden = set(RULESET.hidden_cards(match.state, None))
        for seat, view in enumerate(views):
            shown = hidden - set(RULESET.hidden_cards(match.state, seat))
            text = msgspec.json.encode(view).decode()
            assert all(card in text for card in shown), (seat, update.event.version)
            revealed += len(shown)
    assert any(c.event.data_json != s.event.data_json for c, s in zip(caster, spectator, strict=True))
    return revealed


async def refusal(stub: pb_grpc.MatchServiceStub, match_id: str, token: str) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        async for _ in stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id, token=token, caster=True)):
            pass
    return caught.value.code(), error_reason(caught.value)


async def test_the_caster_feed_needs_a_delay_and_the_caster_or_admin_token(matches: pb_grpc.MatchServiceStub) -> None:
    request = pb.CreateMatchRequest(ruleset="card_monsters", seats=SEATS, caster_delay_seconds=DELAY)
    cast = await matches.CreateMatch(request)
    plain = await matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=SEATS))
    assert cast.caster_token and not plain.caster_token
    match_id = cast.match.match_id
    assert await refusal(matches, match_id, "") == (grpc.StatusCode.UNAUTHENTICATED, "CASTER_TOKEN_REQUIRED")
    for token in (cast.tokens[0].token, "not-a-token"):
        assert await refusal(matches, match_id, token) == (grpc.StatusCode.PERMISSION_DENIED, "TOKEN_INVALID")
    off = (grpc.StatusCode.FAILED_PRECONDITION, "CASTER_FEED_OFF")
    assert await refusal(matches, plain.match.match_id, ADMIN_TOKEN) == off
    # The caster token opens no seat, nor the spectator's view of a token-only match.
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await matches.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=cast.caster_token))
    assert error_reason(caught.value) == "TOKEN_INVALID"
    too_long = pb.CreateMatchRequest(ruleset="card_monsters", seats=SEATS, caster_delay_seconds=86_401)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await matches.CreateMatch(too_long)
    assert error_reason(caught.value) == "CASTER_DELAY_INVALID"


async def test_a_retried_request_returns_the_same_caster_token(matches: pb_grpc.MatchServiceStub) -> None:
    request = pb.CreateMatchRequest(
        ruleset="card_monsters", seats=SEATS, caster_delay_seconds=DELAY, request_id="caster-retry"
    )
    first, second = await matches.CreateMatch(request), await matches.CreateMatch(request)
    assert first.caster_token and first.caster_token == second.caster_token
    assert first.match.match_id == second.match.match_id
    request.caster_delay_seconds = DELAY + 1
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await matches.CreateMatch(request)
    assert error_reason(caught.value) == "REQUEST_ID_REUSED"
