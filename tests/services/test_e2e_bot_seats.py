"""Bot seats on a real server: the server plays them to the end from their seat's view, as recorded commands of
their seats that replays re-execute; they resume after a restart, and two instances driving one seat do not fork
the match."""

from __future__ import annotations

import contextlib
import os
import random
import select
from pathlib import Path

import grpc
import msgspec
import pytest

from engine import registry
from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.client import error_reason
from tests.services.instances import two_instances
from tests.services.process import ServerProcess

RULESETS = ("aq", "card_monsters", "duel", "voidlink", "wulin")


def bot(level: str, name: str = "") -> pb.SeatSpec:
    return pb.SeatSpec(name=name, kind=pb.SEAT_KIND_BOT, bot_level=level)


async def ended(stub: pb_grpc.MatchServiceStub, match_id: str) -> None:
    """Returns once the match has ended (a watch's last update says so)."""
    async for update in stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id)):
        if update.match_ended:
            return


async def verified(stub: pb_grpc.MatchServiceStub, match_id: str) -> bytes:
    """The match's replay, once the server verified it."""
    replay = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=match_id))).replay
    verdict = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
    assert verdict.ok, verdict.failure
    return replay


async def play_seat(stub: pb_grpc.MatchServiceStub, match_id: str, token: str, seat: int, seed: int) -> None:
    """A human client of ``seat``: random legal commands whenever the match waits on it, until it ends."""
    rng = random.Random(seed)
    async for update in stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id, token=token)):
        if update.match_ended:
            return
        if seat not in update.to_act:
            continue
        legal = await stub.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=token))
        options = [c for c in legal.commands_json if '"concede"' not in c] or list(legal.commands_json)
        request = pb.SubmitCommandRequest(
            match_id=match_id,
            token=token,
            command_json=rng.choice(options),
            command_id=f"human-{legal.version}",
            expected_version=legal.version,
        )
        await stub.SubmitCommand(request)


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_bot_seats_play_a_match_to_its_end_and_its_replay_records_them(
    matches: pb_grpc.MatchServiceStub, ruleset: str
) -> None:
    seats = registry.get(ruleset).min_seats
    levels = ["greedy", "random", "greedy", "random", "greedy"][:seats]
    created = await matches.CreateMatch(pb.CreateMatchRequest(ruleset=ruleset, seats=[bot(level) for level in levels]))
    assert list(created.tokens) == []  # only the server plays a bot seat
    match_id = created.match.match_id
    await ended(matches, match_id)
    match = await matches.GetMatch(pb.GetMatchRequest(match_id=match_id))
    assert match.status == pb.MATCH_STATUS_ENDED
    assert [(s.seat, s.name, s.kind, s.bot_level) for s in match.seat_info] == [
        (i, f"{level} bot", pb.SEAT_KIND_BOT, level) for i, level in enumerate(levels)
    ]
    listed = await matches.ListMatches(pb.ListMatchesRequest(ruleset=ruleset))
    assert [list(m.seat_info) for m in listed.matches] == [list(match.seat_info)]
    replay = decode_replay(await verified(matches, match_id))
    first, *played = replay.commands
    recorded = msgspec.json.decode(first.payload)
    assert [(s["kind"], s["bot_level"]) for s in recorded["seats"]] == [("bot", level) for level in levels]
    assert played and all(c.command_id == f"bot-{c.actor}-{c.first_version - 1}" for c in played if c.actor != "system")


async def test_a_human_plays_against_a_bot_seat(matches: pb_grpc.MatchServiceStub) -> None:
    created = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset="duel", seats=[pb.SeatSpec(name="ada"), bot("greedy", "hal")])
    )
    assert [(t.seat, bool(t.token)) for t in created.tokens] == [(0, True)]
    match = created.match
    assert [(s.name, s.kind, s.bot_level) for s in match.seat_info] == [
        ("ada", pb.SEAT_KIND_PLAYER, ""),
        ("hal", pb.SEAT_KIND_BOT, "greedy"),
    ]
    await play_seat(matches, match.match_id, created.tokens[0].token, 0, seed=3)
    replay = decode_replay(await verified(matches, match.match_id))
    actors = {c.actor for c in replay.commands[1:]}
    assert {"0", "1"} <= actors


async def test_a_bot_seat_reads_as_connected_and_its_decisions_are_timed(
    server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    created = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset="duel", seats=[pb.SeatSpec(name="ada"), bot("greedy", "hal")])
    )
    match = await matches.GetMatch(pb.GetMatchRequest(match_id=created.match.match_id))
    # The server plays the bot from the start; the human has not connected yet.
    assert [(p.seat, p.connected, p.since) for p in match.presence] == [
        (0, False, match.created_at),
        (1, True, match.created_at),
    ]
    await play_seat(matches, match.match_id, created.tokens[0].token, 0, seed=5)
    replay = decode_replay(await verified(matches, match.match_id))
    decided = [c for c in replay.commands if c.actor == "1"]
    timed = server.metrics.registry.get_sample_value(
        "duelhall_bot_decision_seconds_count", {"ruleset": "duel", "level": "greedy"}
    )
    assert decided and timed is not None and timed >= len(decided)


REFUSED = [
    (bot("grandmaster"), "BOT_LEVEL_UNKNOWN"),
    (bot(""), "BOT_LEVEL_UNKNOWN"),
    (pb.SeatSpec(name="x", bot_level="greedy"), "BOT_LEVEL_UNEXPECTED"),
    (pb.SeatSpec(name="x", kind=pb.SEAT_KIND_OPEN), "OPEN_SEAT_INVALID"),  # an open seat's joiner names it
    (pb.SeatSpec(kind=pb.SEAT_KIND_OPEN, bot_level="greedy"), "BOT_LEVEL_UNEXPECTED"),
    (pb.SeatSpec(name="x", kind=7), "SEAT_KIND_UNSUPPORTED"),
]


async def test_a_seat_the_server_cannot_seat_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    for seat, reason in REFUSED:
        for request_id in ("", f"refused-{reason}-{seat.kind}"):
            request = pb.CreateMatchRequest(
                ruleset="duel", seats=[pb.SeatSpec(name="ada"), seat], request_id=request_id
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await matches.CreateMatch(request)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert error_reason(refused.value) == reason, seat
    listed = await matches.ListMatches(pb.ListMatchesRequest())
    assert list(listed.matches) == []


async def test_a_bot_seat_that_must_act_at_start_resumes(database_url: str) -> None:
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0")
    first = await create_server(config)
    try:
        await first.bots.stop()  # this server plays no more: its bots wait for the next start
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(ruleset="wulin", seats=[bot("greedy"), bot("random")])
            )
            waiting = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match.match_id))
            assert waiting.status == pb.MATCH_STATUS_RUNNING and waiting.version == created.match.version
    finally:
        await first.stop(0)
    second = await create_server(config)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            await ended(stub, created.match.match_id)
            await verified(stub, created.match.match_id)
    finally:
        await second.stop(0)


@pytest.mark.postgres
async def test_two_instances_driving_one_bot_seat_do_not_fork_the_match(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("instances share a database on PostgreSQL only")
    async with two_instances(database_url) as (first, second, stubs):
        created = await stubs[0].CreateMatch(
            pb.CreateMatchRequest(ruleset="duel", seats=[pb.SeatSpec(name="ada"), bot("greedy")])
        )
        match_id = created.match.match_id
        await stubs[1].GetMatch(pb.GetMatchRequest(match_id=match_id))  # loaded there too: both play the bot
        assert all(running.manager.loaded(match_id) for running in (first, second))
        await play_seat(stubs[0], match_id, created.tokens[0].token, 0, seed=8)
        replay = decode_replay(await verified(stubs[1], match_id))
        decisions = [c for c in replay.commands if c.actor == "1"]
        # Each of the bot's commands was decided at the version it was appended after, under that decision's id.
        assert decisions and all(c.command_id == f"bot-1-{c.first_version - 1}" for c in decisions)


async def test_the_bot_workers_of_a_killed_server_end_with_it(tmp_path: Path) -> None:
    """SIGKILL runs no shutdown: the worker processes, their forkserver and the resource tracker must end all the
    same, or they live on, holding the server's output pipe open (``kill`` reads it to its end)."""
    process = ServerProcess(f"sqlite:///{tmp_path / 'bots.db'}")
    try:
        async with grpc.aio.insecure_channel(process.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await stub.CreateMatch(
                pb.CreateMatchRequest(ruleset="duel", seats=[bot("greedy"), bot("random")])
            )
            await ended(stub, created.match.match_id)
        helpers = descendants(process.proc.pid)
        assert len(helpers) >= 3  # the forkserver, its workers, the resource tracker
        handles = [os.pidfd_open(pid) for pid in helpers]
        process.kill()
        alive = set(handles)
        while alive:
            gone, _, _ = select.select(list(alive), [], [], 10)
            assert gone, f"{len(alive)} of the server's processes outlived it"
            alive -= set(gone)
    finally:
        process.stop()


def descendants(pid: int) -> list[int]:
    """The process ids under ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # a process that ended meanwhile
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found
