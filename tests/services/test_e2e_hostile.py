"""Hostile or unlucky clients the fuzz tests miss: oversized names and labels that would poison every listing
and the match's own replay, a request id burnt by a refused request, a Play start from an impossible version,
a watch or a read from a version the match does not have, a lifecycle watch from a negative position or
from past the store, a replay file whose informational times are not times, and Connect bodies that do not
parse."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Awaitable, Callable

import grpc
import httpx
import pytest

from replays.format import decode_replay, encode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.server import Running
from services.tournament import registration
from tests.replays.rewritten import as_format_1
from tests.services.client import create_match, error_metadata, error_reason
from tests.services.conftest import ADMIN_TOKEN
from tests.services.connect_client import MATCHES, ConnectFailure, failure, stream
from tests.services.test_e2e_errors import refused

TWO = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]


async def test_names_labels_and_request_ids_are_bounded(matches: pb_grpc.MatchServiceStub) -> None:
    """A 2 MB seat name would make every ListMatches page (and the match's replay, and the lifecycle stream)
    too big to send or to verify: it is refused up front, and the listing stays readable."""
    big = "x" * (2 << 20)
    for seats, labels, request_id, reason in [
        ([pb.SeatSpec(name=big), TWO[1]], {}, "", "SEAT_NAME_INVALID"),
        ([pb.SeatSpec(name="a\x00b"), TWO[1]], {}, "", "SEAT_NAME_INVALID"),
        (TWO, {"k": big}, "", "LABELS_INVALID"),
        (TWO, {"k\x00": "v"}, "", "LABELS_INVALID"),
        (TWO, {"": "v"}, "", "LABELS_INVALID"),
        (TWO, {f"k{i}": "v" for i in range(1000)}, "", "LABELS_INVALID"),
        (TWO, {}, big, "REQUEST_ID_INVALID"),
        (TWO, {}, "a\x00b", "REQUEST_ID_INVALID"),
    ]:
        request = pb.CreateMatchRequest(ruleset="card_monsters", seats=seats, labels=labels, request_id=request_id)
        assert await refused(matches.CreateMatch(request)) == (grpc.StatusCode.INVALID_ARGUMENT, reason)
    fine = pb.CreateMatchRequest(
        ruleset="card_monsters",
        seats=[pb.SeatSpec(name="é" * 100), TWO[1]],
        labels={f"k{i}": "v" * 100 for i in range(32)},
        request_id="r" * 128,
    )
    await matches.CreateMatch(fine)
    assert len((await matches.ListMatches(pb.ListMatchesRequest())).matches) == 1


INVALID = grpc.StatusCode.INVALID_ARGUMENT


def tournament(**fields: object) -> tpb.CreateTournamentRequest:
    """A Swiss card_monsters cup, with ``fields`` in place of the defaults."""
    asked = {"admin_token": ADMIN_TOKEN, "name": "cup", "ruleset": "card_monsters", "format": "swiss"}
    return tpb.CreateTournamentRequest(**(asked | fields), tiebreak="mtg")


async def test_a_player_name_a_match_would_refuse_is_refused_at_registration(channel: grpc.aio.Channel) -> None:
    tournaments = tpb_grpc.TournamentServiceStub(channel)
    created = await tournaments.CreateTournament(tournament())
    register = tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=created.tournament_id, player="p" * 101)
    assert await refused(tournaments.Register(register)) == (INVALID, "PLAYER_NAME_INVALID")


async def test_tournament_rounds_cut_seed_and_audit_texts_are_bounded(channel: grpc.aio.Channel) -> None:
    """2^31 rounds, a megabyte seed hashed at every draw, a megabyte why that every read of the stream repeats:
    refused up front, while the largest sensible values pass."""
    tournaments = tpb_grpc.TournamentServiceStub(channel)

    for fields, reason in [
        ({"rounds": 2**31 - 1}, "ROUNDS_INVALID"),
        ({"rounds": 65}, "ROUNDS_INVALID"),
        ({"rounds": 65, "format": "round_robin"}, "ROUNDS_INVALID"),
        ({"cut": 2**30}, "CUT_INVALID"),
        ({"cut": 512}, "CUT_INVALID"),
        ({"seed_hex": "ab"}, "SEED_INVALID"),
        ({"seed_hex": "ab" * 33}, "SEED_INVALID"),
        ({"seed_hex": "ab" * (1 << 20)}, "SEED_INVALID"),
    ]:
        assert await refused(tournaments.CreateTournament(tournament(**fields))) == (INVALID, reason), fields
    await tournaments.CreateTournament(tournament(rounds=64, format="round_robin"))
    tid = (await tournaments.CreateTournament(tournament(rounds=64, cut=256, seed_hex="ab" * 32))).tournament_id
    for player in ("ann", "bob", "cat", "dan"):
        await tournaments.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player=player))
    await tournaments.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
    fine, long, unprintable = "j" * 200, "j" * 201, "line\nbreak"

    def calls(by: str, why: str) -> list[Callable[[], Awaitable[object]]]:
        drop = tpb.DropRequest(tournament_id=tid, player="dan", token=ADMIN_TOKEN, by=by, why=why)
        audited = tpb.AuditedRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, by=by, why=why)
        result = {"admin_token": ADMIN_TOKEN, "tournament_id": tid, "round": 1, "table": 1, "wins_a": 1}
        return [
            lambda: tournaments.RepairRound(audited),
            lambda: tournaments.ReportResult(tpb.ReportResultRequest(**result, by=by, why=why)),
            lambda: tournaments.Drop(drop),
            lambda: tournaments.Reinstate(drop),
            lambda: tournaments.ReportResult(tpb.ReportResultRequest(**result, by=by, why=why, correction=True)),
        ]

    for by, why in [(long, fine), (fine, long), (unprintable, fine), (fine, unprintable), (fine, "\x00")]:
        for call in calls(by, why):
            assert await refused(call()) == (grpc.StatusCode.INVALID_ARGUMENT, "AUDIT_INVALID"), (by, why)
    for call in calls(fine, fine):
        await call()
    history = await tournaments.ListTournamentEvents(tpb.GetTournamentRequest(tournament_id=tid))
    audited = [e for e in history.events if '"why":' in e.data_json]
    assert len(audited) == 5 and all(f'"why":"{fine}"' in e.data_json for e in audited)


async def test_tournament_round_minutes_seed_text_and_registrations_are_bounded(
    channel: grpc.aio.Channel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round of 2^31 minutes, a seed that is not just its 64 hex digits (spaces, a line break, only spaces,
    which used to become a random seed), and a registration past the tournament's cap: refused, while the
    largest sensible values pass."""
    tournaments = tpb_grpc.TournamentServiceStub(channel)

    for fields, reason in [
        ({"round_minutes": 2**31 - 1}, "ROUNDS_INVALID"),
        ({"round_minutes": 1441}, "ROUNDS_INVALID"),
        ({"seed_hex": " ".join(["ab"] * 32)}, "SEED_INVALID"),
        ({"seed_hex": "ab" * 32 + "\n"}, "SEED_INVALID"),
        ({"seed_hex": " " + "ab" * 32}, "SEED_INVALID"),
        ({"seed_hex": "  "}, "SEED_INVALID"),
        ({"seed_hex": "+b" + "ab" * 31}, "SEED_INVALID"),
    ]:
        assert await refused(tournaments.CreateTournament(tournament(**fields))) == (INVALID, reason), fields
    created = await tournaments.CreateTournament(tournament(round_minutes=1440, seed_hex="aB" * 32))
    assert (created.round_minutes, created.seed_hex) == (1440, "ab" * 32)
    monkeypatch.setattr(registration, "MAX_PLAYERS", 3)
    tid = created.tournament_id
    for player in ("ann", "bob", "cat"):
        await tournaments.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player=player))
    register = tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player="dan")
    assert await refused(tournaments.Register(register)) == (grpc.StatusCode.FAILED_PRECONDITION, "TOURNAMENT_FULL")
    shown = await tournaments.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))
    assert [p.name for p in shown.players] == ["ann", "bob", "cat"]


async def test_a_refused_create_does_not_burn_its_request_id(matches: pb_grpc.MatchServiceStub) -> None:
    """The corrected retry of a refused request must create the match, not be told the id is taken by a
    match that never existed."""
    for bad in [
        pb.CreateMatchRequest(ruleset="chess", seats=TWO, request_id="rid-1"),
        pb.CreateMatchRequest(
            ruleset="card_monsters",
            seats=[pb.SeatSpec(name="ann", config_json='{"deck": "nope"}'), TWO[1]],
            request_id="rid-2",
        ),
        pb.CreateMatchRequest(ruleset="card_monsters", seats=[*TWO, TWO[0]], request_id="rid-3"),
    ]:
        code, _ = await refused(matches.CreateMatch(bad))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        fixed = pb.CreateMatchRequest(ruleset="card_monsters", seats=TWO, request_id=bad.request_id)
        created = await matches.CreateMatch(fixed)
        again = await matches.CreateMatch(fixed)
        assert again.match.match_id == created.match.match_id
        assert (await matches.GetMatch(pb.GetMatchRequest(match_id=created.match.match_id))).version > 0


async def first_answer(call: object) -> object:
    """A stream's first message, or the status (code, reason, metadata) it ended with instead."""
    try:
        return await asyncio.wait_for(call.read(), 10)  # type: ignore[attr-defined]
    except grpc.aio.AioRpcError as error:
        return error.code(), error_reason(error), error_metadata(error)
    finally:
        call.cancel()  # type: ignore[attr-defined]


async def test_a_play_start_from_an_impossible_version_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    """Not a silent stream (from -1 it used to spin on the store), nor a turn for a version beyond the end."""
    created = await create_match(matches)
    for version in (-1, 2**31, 2**63 - 1):
        call = matches.Play()
        await call.write(
            pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id, token=created.tokens[0], from_version=version))
        )
        answer = await first_answer(call)
        assert isinstance(answer, tuple), version
        assert answer[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "VERSION_OUT_OF_RANGE"), version


async def test_a_version_the_match_does_not_have_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    """Not a stream that stays silent until the match gets that far, nor a read "at least" that version that
    answers an older one; the match's own version is still fine, and an ended match from it ends at once."""
    created = await create_match(matches)
    match_id, token, at = created.match_id, created.tokens[0], created.version
    ahead = (grpc.StatusCode.OUT_OF_RANGE, "VERSION_AHEAD", {"version": str(at)})

    async def play(version: int) -> object:
        call = matches.Play()
        await call.write(pb.PlayRequest(start=pb.PlayStart(match_id=match_id, token=token, from_version=version)))
        return call

    async def watches(version: int) -> list[object]:
        request = pb.WatchMatchRequest(match_id=match_id, from_version=version)
        return [matches.WatchMatch(request), matches.WatchMatchBatched(request), await play(version)]

    for call in await watches(at + 1):
        assert await first_answer(call) == ahead
    for read in (
        matches.GetMatch(pb.GetMatchRequest(match_id=match_id, min_version=at + 1)),
        matches.GetView(pb.GetViewRequest(match_id=match_id, min_version=at + 1)),
        matches.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=token, min_version=at + 1)),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await read
        assert (caught.value.code(), error_reason(caught.value), error_metadata(caught.value)) == ahead
    assert (await matches.GetView(pb.GetViewRequest(match_id=match_id, min_version=at))).version == at
    turn = await first_answer(await play(at))
    assert isinstance(turn, pb.PlayResponse) and turn.turn.version == at

    await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=match_id, token=token, command_json='{"type": "concede"}')
    )
    final = (await matches.GetMatch(pb.GetMatchRequest(match_id=match_id))).version
    assert [u async for u in matches.WatchMatch(pb.WatchMatchRequest(match_id=match_id, from_version=final))] == []
    ahead = (grpc.StatusCode.OUT_OF_RANGE, "VERSION_AHEAD", {"version": str(final)})
    for call in await watches(final + 1):
        assert await first_answer(call) == ahead


async def test_a_lifecycle_watch_from_a_negative_position_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    """Not taken as "from the start": the proto names 0 and 1 for that."""
    answer = await first_answer(matches.WatchLifecycle(pb.WatchLifecycleRequest(from_position=-1)))
    assert isinstance(answer, tuple)
    assert answer[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "POSITION_OUT_OF_RANGE")


async def test_a_lifecycle_watch_from_past_the_store_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    """One past the last position is where a consumer that handled everything resumes: it sees the next change.
    Further is a position from another database (or from before a restore) and would skip changes in silence."""
    ended = await create_match(matches)
    await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=ended.match_id, token=ended.tokens[0], command_json='{"type": "concede"}')
    )
    changes = matches.WatchLifecycle(pb.WatchLifecycleRequest(from_position=1))
    await changes.read()
    head = (await first_answer(changes)).position  # the end, recorded last
    beyond = await first_answer(matches.WatchLifecycle(pb.WatchLifecycleRequest(from_position=head + 2)))
    assert beyond == (grpc.StatusCode.OUT_OF_RANGE, "POSITION_AHEAD", {"head": str(head)})
    created = await create_match(matches)
    change = await first_answer(matches.WatchLifecycle(pb.WatchLifecycleRequest(from_position=head + 1)))
    assert (change.match_id, change.position) == (created.match_id, head + 1)


async def test_replay_files_with_odd_recorded_times_are_viewable(matches: pb_grpc.MatchServiceStub) -> None:
    """In a file written before chain 2 ``recorded_at`` is not covered (docs/replay-format.md): odd times are
    shown, never an INTERNAL. In a current file the chain covers them: an edited time fails, naming the check."""
    created = await create_match(matches)
    await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=created.match_id, token=created.tokens[0], command_json='{"type": "concede"}')
    )
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    current = json.loads(replay)
    old = json.loads(encode_replay(as_format_1(decode_replay(replay))))
    for at in ("garbage", "", "2026-01-01T00:00:00", "9999-12-31T23:59:59+00:00", "2026-01-01T05:00:00+05:00"):
        for document, covered in ((old, False), (current, True)):
            edited = copy.deepcopy(document)
            for event in edited["events"]:
                event["recorded_at"] = at
            viewed = await matches.ViewReplay(pb.ViewReplayRequest(replay=json.dumps(edited).encode(), seat=0))
            if covered:
                assert not viewed.verification.ok and viewed.verification.failure.check in ("chain", "times"), at
                continue
            assert viewed.verification.ok and len(viewed.steps) == len(edited["events"]), at
            times = {step.event.recorded_at for step in viewed.steps}
            assert times <= {"", "2026-01-01T00:00:00Z", "9999-12-31T23:59:59Z"}, (at, times)


async def test_connect_bodies_that_do_not_parse_carry_the_grpc_reason(server: Running) -> None:
    """The same INVALID_ARGUMENT MALFORMED_REQUEST (metadata method) as over gRPC, not a bare code."""
    assert server.http is not None
    async with httpx.AsyncClient(base_url=server.http.address, timeout=30) as web:
        for body, content_type in [
            (b'{"matchId": "\xff"}', "application/json"),
            (b'{"matchId": ', "application/json"),
            (b"null", "application/json"),
            (b"[]", "application/json"),  # the JSON parser took it for an empty request
            (b' "GetMatch"', "application/json"),
            (b'{"matchId": 5}', "application/json"),
            (b'{"minVersion": "abc"}', "application/json"),
            (b"\xff\xff\xff", "application/proto"),
        ]:
            response = await web.post(f"/{MATCHES}/GetMatch", content=body, headers={"content-type": content_type})
            assert response.status_code == 400, body
            refusal = failure(response.json())
            assert (refusal.code, refusal.reason) == ("invalid_argument", "MALFORMED_REQUEST"), body


async def test_a_connect_stream_flagged_compressed_without_an_encoding_is_malformed(server: Running) -> None:
    """connectrpc answers a compressed message in an uncompressed stream ``internal``; it is the client's
    mistake, refused as INVALID_ARGUMENT MALFORMED_REQUEST. A gzipped one that says so reaches the servicer."""
    assert server.http is not None
    watch = {"matchId": "0" * 32}
    async with httpx.AsyncClient(base_url=server.http.address, timeout=30) as web:
        for encoding in (None, "", "identity", "gzip"):
            with pytest.raises(ConnectFailure) as refused:
                async for _ in stream(web, MATCHES, "WatchMatch", watch, flags=0x01, encoding=encoding):
                    pass
            expected = (
                ("not_found", "MATCH_NOT_FOUND") if encoding == "gzip" else ("invalid_argument", "MALFORMED_REQUEST")
            )
            assert (refused.value.code, refused.value.reason) == expected, encoding
