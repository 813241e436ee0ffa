"""The API over Connect on the HTTP port, from a plain HTTP/1.1 client: JSON calls, the watch stream, errors.

The refusals mirror tests/services/test_e2e_errors.py: the same reasons as over gRPC, with Connect's codes.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running
from tests.services.connect_client import MATCHES, RULESETS, ConnectFailure, call, stream


@pytest.fixture
async def web(server: Running) -> AsyncIterator[httpx.AsyncClient]:
    assert server.http is not None
    async with httpx.AsyncClient(base_url=server.http.address, http1=True, http2=False, timeout=30) as client:
        yield client


async def create(web: httpx.AsyncClient, ruleset: str = "card_monsters") -> tuple[str, list[str], list[int]]:
    reply = await call(web, MATCHES, "CreateMatch", {"ruleset": ruleset, "seats": [{"name": "ann"}, {"name": "bob"}]})
    tokens = [t["token"] for t in sorted(reply["tokens"], key=lambda t: t.get("seat", 0))]
    match_id = reply["match"]["matchId"]
    view = await call(web, MATCHES, "GetView", {"matchId": match_id})
    return match_id, tokens, view["toAct"]


async def refused(coroutine: Any) -> tuple[str, str]:
    with pytest.raises(ConnectFailure) as caught:
        await coroutine
    return caught.value.code, caught.value.reason


async def test_unary_calls_take_and_return_json(web: httpx.AsyncClient) -> None:
    listed = await call(web, RULESETS, "ListRulesets", {})
    assert "card_monsters" in [r["id"] for r in listed["rulesets"]]
    match_id, tokens, to_act = await create(web)
    seat = to_act[0]
    legal = await call(
        web, MATCHES, "ListLegalCommands", {"matchId": match_id, "token": tokens[seat], "includeView": True}
    )
    assert legal.get("seat", 0) == seat and legal["commandsJson"] and legal["viewJson"]
    submitted = await call(
        web,
        MATCHES,
        "SubmitCommand",
        {"matchId": match_id, "token": tokens[seat], "commandJson": legal["commandsJson"][0], "commandId": "c1"},
    )
    assert int(submitted["version"]) > 0 and submitted["events"]


async def test_the_same_match_over_both_protocols(web: httpx.AsyncClient, matches: pb_grpc.MatchServiceStub) -> None:
    match_id, tokens, _ = await create(web)
    for viewer in ("", tokens[0], tokens[1]):
        over_grpc = await matches.GetView(pb.GetViewRequest(match_id=match_id, token=viewer))
        over_http = await call(web, MATCHES, "GetView", {"matchId": match_id, "token": viewer})
        assert over_http["viewJson"] == over_grpc.view_json
        assert int(over_http["version"]) == over_grpc.version


async def test_the_watch_stream_matches_grpc_redaction(
    web: httpx.AsyncClient, matches: pb_grpc.MatchServiceStub
) -> None:
    match_id, tokens, _ = await create(web)
    for viewer in ("", tokens[1]):
        over_grpc = []
        async for update in matches.WatchMatch(pb.WatchMatchRequest(match_id=match_id, token=viewer)):
            over_grpc.append(update.event.data_json)
            if update.event.version == 20:
                break
        over_http = []
        async for message in stream(
            web, MATCHES, "WatchMatch", {"matchId": match_id, "token": viewer, "includeView": True}
        ):
            assert message["viewJson"]
            over_http.append(message["event"]["dataJson"])
            if int(message["event"]["version"]) == 20:
                break
        assert over_http == over_grpc


async def test_a_conceded_match_streams_to_its_end(web: httpx.AsyncClient) -> None:
    match_id, tokens, _ = await create(web)
    await call(
        web, MATCHES, "SubmitCommand", {"matchId": match_id, "token": tokens[0], "commandJson": '{"type": "concede"}'}
    )
    updates = [u async for u in stream(web, MATCHES, "WatchMatch", {"matchId": match_id})]
    assert updates[-1]["matchEnded"] is True
    assert [int(u["event"]["version"]) for u in updates] == list(range(1, len(updates) + 1))


async def test_tokens_are_required_and_checked(web: httpx.AsyncClient) -> None:
    match_id, tokens, _ = await create(web)
    _, other, _ = await create(web)
    command = '{"type": "engage"}'
    assert await refused(call(web, MATCHES, "SubmitCommand", {"matchId": match_id, "commandJson": command})) == (
        "unauthenticated",
        "TOKEN_MISSING",
    )
    assert await refused(
        call(web, MATCHES, "SubmitCommand", {"matchId": match_id, "token": other[0], "commandJson": command})
    ) == ("permission_denied", "TOKEN_INVALID")
    assert await refused(call(web, MATCHES, "ExportReplay", {"matchId": match_id})) == (
        "unauthenticated",
        "TOKEN_MISSING",
    )
    assert await refused(call(web, MATCHES, "ExportReplay", {"matchId": match_id, "token": tokens[0]})) == (
        "permission_denied",
        "ADMIN_REQUIRED",
    )


async def test_commands_refused_by_form_and_by_rule(web: httpx.AsyncClient) -> None:
    match_id, tokens, to_act = await create(web)
    seat = to_act[0]
    for command, expected in [
        ("{not json", ("invalid_argument", "BAD_JSON")),
        ('{"type": "fly_to_the_moon"}', ("invalid_argument", "UNKNOWN_COMMAND")),
        ('{"type": "play_monster", "card": 7}', ("invalid_argument", "BAD_FIELDS")),
        ('{"type": "play_monster", "card": "9:99"}', ("failed_precondition", "CARD_NOT_IN_HAND")),
    ]:
        assert (
            await refused(
                call(
                    web, MATCHES, "SubmitCommand", {"matchId": match_id, "token": tokens[seat], "commandJson": command}
                )
            )
            == expected
        ), command
    assert await refused(
        call(
            web,
            MATCHES,
            "SubmitCommand",
            {"matchId": match_id, "token": tokens[1 - seat], "commandJson": '{"type": "engage"}'},
        )
    ) == ("failed_precondition", "NOT_YOUR_TURN")
    stale = {"matchId": match_id, "token": tokens[seat], "commandJson": '{"type": "engage"}', "expectedVersion": 1}
    assert await refused(call(web, MATCHES, "SubmitCommand", stale)) == ("aborted", "VERSION_MISMATCH")


async def test_unknown_match_ruleset_and_bad_configuration(web: httpx.AsyncClient) -> None:
    assert await refused(call(web, MATCHES, "GetMatch", {"matchId": "nope"})) == ("not_found", "MATCH_NOT_FOUND")
    assert await refused(call(web, MATCHES, "CreateMatch", {"ruleset": "chess"})) == (
        "invalid_argument",
        "UNKNOWN_RULESET",
    )
    seats = [{"name": "a", "configJson": '{"deck": ["M99"]}'}, {"name": "b"}]
    assert await refused(call(web, MATCHES, "CreateMatch", {"ruleset": "card_monsters", "seats": seats})) == (
        "invalid_argument",
        "DECK_UNKNOWN_CARD",
    )
    assert await refused(
        call(web, MATCHES, "CreateMatch", {"ruleset": "card_monsters", "seats": [{"name": "a"}, {"name": " "}]})
    ) == ("invalid_argument", "SEAT_NAME_MISSING")


async def test_views_of_replays_and_clocks_over_connect(web: httpx.AsyncClient) -> None:
    match_id, tokens, to_act = await create(web)
    view = await call(web, MATCHES, "GetView", {"matchId": match_id})
    assert view["deadline"].get("seat", 0) == to_act[0] and view["deadline"]["expiresAt"].endswith("Z")
    assert await refused(call(web, MATCHES, "ViewReplay", {"matchId": match_id})) == (
        "failed_precondition",
        "MATCH_RUNNING",
    )
    await call(
        web, MATCHES, "SubmitCommand", {"matchId": match_id, "token": tokens[0], "commandJson": '{"type": "concede"}'}
    )
    assert await refused(call(web, MATCHES, "ViewReplay", {"matchId": match_id, "seat": 2})) == (
        "invalid_argument",
        "SEAT_INVALID",
    )
    viewed = await call(web, MATCHES, "ViewReplay", {"matchId": match_id, "seat": 1})
    assert len(viewed["steps"]) == int(viewed["match"]["version"]) and viewed["seat"] == 1  # 0 would be left out


async def test_watch_refusals_end_the_stream_with_the_reason(web: httpx.AsyncClient) -> None:
    match_id, _, _ = await create(web)

    async def first(body: dict[str, Any]) -> None:
        async for _ in stream(web, MATCHES, "WatchMatch", body):
            return

    assert await refused(first({"matchId": "nope"})) == ("not_found", "MATCH_NOT_FOUND")
    assert await refused(first({"matchId": match_id, "token": "forged"})) == ("permission_denied", "TOKEN_INVALID")


async def test_the_viewer_page_and_cross_origin_calls_are_served(web: httpx.AsyncClient) -> None:
    page = await web.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert (await web.get("/missing.js")).status_code == 404
    preflight = await web.options(f"/{MATCHES}/GetView")
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"
    response = await web.post(f"/{MATCHES}/GetMatch", json={"matchId": "nope"}, headers={"origin": "http://x"})
    assert response.headers["access-control-allow-origin"] == "*"


async def test_unknown_fields_and_enum_names_are_ignored_unknown_numbers_refused(web: httpx.AsyncClient) -> None:
    """A client built on a newer proto still talks to this server (docs/api.md): what it does not know of a
    JSON request is ignored, as by other Connect servers; a number outside MatchStatus is refused as over gRPC."""
    match_id, _, _ = await create(web)
    viewed = await call(web, MATCHES, "GetView", {"matchId": match_id, "addedLater": {"x": 1}})
    assert int(viewed["version"]) >= 1 and viewed["viewJson"]
    listed = await call(web, MATCHES, "ListMatches", {"status": "MATCH_STATUS_ADDED_LATER"})
    assert [m["matchId"] for m in listed["matches"]] == [match_id]
    assert await refused(call(web, MATCHES, "ListMatches", {"status": 99})) == ("invalid_argument", "STATUS_UNKNOWN")


async def test_grpc_and_grpc_web_are_refused_415_whatever_the_method_and_path(
    web: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """gRPC needs HTTP/2 trailers, which the HTTP port has not: it answered 200 with grpc-status 2 and logged a
    traceback. gRPC-Web is refused too (docs/api.md): the gRPC port serves gRPC, this one Connect."""
    kinds = ["application/grpc", "application/grpc+proto", "application/grpc+json", "Application/GRPC"]
    kinds += ["application/grpc-web", "application/grpc-web+proto", "application/grpc-web-text"]
    paths = [f"/{MATCHES}/GetView", f"/{MATCHES}/WatchMatch", "/", "/index.html", "/metrics", "/nowhere"]
    framed = b"\x00" + len(pb.GetViewRequest(match_id="m").SerializeToString()).to_bytes(4, "big")
    body = framed + pb.GetViewRequest(match_id="m").SerializeToString()
    for kind in kinds:
        for method in ("POST", "GET", "PUT", "HEAD", "OPTIONS"):
            for path in paths:
                reply = await web.request(method, path, content=body, headers={"content-type": kind})
                assert reply.status_code == 415, (kind, method, path, reply.status_code)
                assert "grpc-status" not in reply.headers
                if method != "HEAD":
                    assert reply.text.startswith("gRPC and gRPC-Web are not served on the HTTP port")
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_an_open_seat_is_joined_over_connect(web: httpx.AsyncClient) -> None:
    seats = [{"name": "ann"}, {"kind": "SEAT_KIND_OPEN"}]
    created = await call(web, MATCHES, "CreateMatch", {"ruleset": "card_monsters", "seats": seats})
    match_id = created["match"]["matchId"]
    assert created["match"]["openSeats"] == 1 and created["match"]["seatInfo"][1]["kind"] == "SEAT_KIND_OPEN"

    async def watched() -> None:
        async for _ in stream(web, MATCHES, "WatchMatch", {"matchId": match_id}):
            return

    assert await refused(watched()) == ("failed_precondition", "MATCH_NOT_STARTED")
    listed = await call(web, MATCHES, "ListMatches", {"openSeats": True})
    assert [m["matchId"] for m in listed["matches"]] == [match_id]
    joined = await call(web, MATCHES, "JoinSeat", {"matchId": match_id, "requestId": "r", "name": "bob"})
    assert joined["seat"] == 1 and joined["token"] and "openSeats" not in joined["match"]
    again = await call(web, MATCHES, "JoinSeat", {"matchId": match_id, "requestId": "r", "name": "bob"})
    assert again["token"] == joined["token"]
    assert await refused(call(web, MATCHES, "JoinSeat", {"matchId": match_id, "name": "cat"})) == (
        "failed_precondition",
        "NO_OPEN_SEAT",
    )
    view = await call(web, MATCHES, "GetView", {"matchId": match_id, "token": joined["token"]})
    assert view["seat"] == 1 and view["viewJson"]
