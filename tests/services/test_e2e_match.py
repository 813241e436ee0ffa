"""A full match through a real server: watchers per seat and a spectator, raw bytes checked for leaks."""

from __future__ import annotations

import asyncio

import grpc
import msgspec
import pytest

from engine.match import EventDecoder, apply, fold
from engine.registry import RULESETS
from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match, play_random

WATCH = "/duelhall.v1.MatchService/WatchMatch"


async def watch_raw(channel: grpc.aio.Channel, match_id: str, token: str, from_version: int = 0) -> list[bytes]:
    """Every MatchUpdate exactly as it crossed the wire, until the one marking the end."""
    call = channel.unary_stream(
        WATCH, request_serializer=pb.WatchMatchRequest.SerializeToString, response_deserializer=None
    )
    raw: list[bytes] = []
    async for message in call(
        pb.WatchMatchRequest(match_id=match_id, token=token, from_version=from_version, include_view=True)
    ):
        update = pb.MatchUpdate.FromString(message)
        if not update.HasField("event"):
            continue  # a presence update
        raw.append(message)
        if update.match_ended:
            break
    return raw


@pytest.mark.parametrize(("ruleset_id", "players"), [("card_monsters", 2), ("aq", 6), ("duel", 2), ("wulin", 2)])
async def test_full_match_with_a_watcher_per_seat_never_leaks_a_hidden_card(
    channel: grpc.aio.Channel,
    matches: pb_grpc.MatchServiceStub,
    ruleset_id: str,
    players: int,
) -> None:
    created = await create_match(matches, ruleset_id, players)
    viewers: dict[int | None, str] = {seat: created.tokens[seat] for seat in range(players)} | {None: ""}
    watchers = {v: asyncio.create_task(watch_raw(channel, created.match_id, t)) for v, t in viewers.items()}
    commands = await play_random(matches, created, seed=1)
    streams = {v: await asyncio.wait_for(task, 60) for v, task in watchers.items()}

    final = await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
    assert final.status == pb.MATCH_STATUS_ENDED and commands > 0
    replay = decode_replay((await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay)
    states = states_by_version(ruleset_id, [(e.type, e.data) for e in replay.events])
    ruleset = RULESETS[ruleset_id]
    secrets_checked = 0
    for viewer, raw in streams.items():
        updates = [pb.MatchUpdate.FromString(m) for m in raw]
        assert [u.event.version for u in updates] == list(range(1, final.version + 1))
        for message, update in zip(raw, updates, strict=False):
            hidden = ruleset.hidden_cards(states[update.event.version], viewer)
            secrets_checked += len(hidden)
            leaked = [card for card in hidden if msgspec.json.encode(card) in message]
            assert not leaked, f"version {update.event.version} leaks {leaked} to {viewer}"
    assert secrets_checked > 0


def states_by_version(ruleset_id: str, stored: list[tuple[str, str]]) -> dict[int, object]:
    """The state after each event version (from its type as stored and data), folded once."""
    ruleset = RULESETS[ruleset_id]
    decoder = EventDecoder(ruleset)
    match = fold(ruleset, [decoder.decode(*stored[0])])
    states = {1: match.state}
    for version, (type_, raw) in enumerate(stored[1:], start=2):
        match = apply(ruleset, match, [decoder.decode(type_, raw)])
        states[version] = match.state
    return states


async def test_stored_events_hold_the_identities_the_wire_hides(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    await play_random(matches, created, seed=1)
    replay = decode_replay((await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay)
    drawn = [msgspec.json.decode(e.data) for e in replay.events if e.type == "CardDrawn"]
    assert drawn and all(d["card"] for d in drawn)


async def test_a_resumed_watch_gets_exactly_the_events_after_its_version(
    channel: grpc.aio.Channel,
    matches: pb_grpc.MatchServiceStub,
) -> None:
    created = await create_match(matches)
    await play_random(matches, created, seed=2)
    final = await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
    resume_from = final.version // 2
    raw = await asyncio.wait_for(watch_raw(channel, created.match_id, created.tokens[1], resume_from), 30)
    versions = [pb.MatchUpdate.FromString(m).event.version for m in raw]
    assert versions == list(range(resume_from + 1, final.version + 1))


async def test_a_live_watch_follows_commands_as_they_are_submitted(
    channel: grpc.aio.Channel,
    matches: pb_grpc.MatchServiceStub,
) -> None:
    created = await create_match(matches)
    stream = matches.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
    view = await matches.GetView(pb.GetViewRequest(match_id=created.match_id))
    seat = view.to_act[0]
    reply = await matches.SubmitCommand(
        pb.SubmitCommandRequest(
            match_id=created.match_id, token=created.tokens[seat], command_json='{"type": "engage"}', command_id="e1"
        )
    )
    received = []
    async for update in stream:
        received.append(update.event.version)
        if update.event.version == reply.version:
            break
    stream.cancel()
    assert received == list(range(created.version + 1, reply.version + 1))
    assert next(e.type for e in reply.events) == "TurnEnded"


async def test_a_batched_watch_gets_the_same_updates_as_a_watch_live_and_resumed(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    created = await create_match(matches)
    single = matches.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, token=created.tokens[0]))
    batched = matches.WatchMatchBatched(pb.WatchMatchRequest(match_id=created.match_id, token=created.tokens[0]))
    await single.wait_for_connection()
    await batched.wait_for_connection()
    await play_random(matches, created, seed=5)

    async def updates(stream: object, unpack: bool) -> tuple[list[pb.MatchUpdate], int]:
        found: list[pb.MatchUpdate] = []
        messages = 0
        async for message in stream:  # type: ignore[attr-defined]
            messages += 1
            found += [u for u in (message.updates if unpack else [message]) if u.HasField("event")]
            if found and found[-1].match_ended:
                return found, messages
        return found, messages

    one_by_one, _ = await asyncio.wait_for(updates(single, False), 30)
    in_batches, messages = await asyncio.wait_for(updates(batched, True), 30)
    # The events and the end are the same; who acts and the clock are as of when each stream rendered them.
    assert [(u.event, u.match_ended) for u in in_batches] == [(u.event, u.match_ended) for u in one_by_one]
    assert one_by_one[-1].match_ended
    assert [u.event.version for u in in_batches] == list(range(1, len(in_batches) + 1))
    assert messages < len(in_batches)  # a command's events travel together
    resumed = matches.WatchMatchBatched(pb.WatchMatchRequest(match_id=created.match_id, from_version=3))
    rest, _ = await asyncio.wait_for(updates(resumed, True), 30)
    assert [u.event.version for u in rest] == list(range(4, len(in_batches) + 1))
