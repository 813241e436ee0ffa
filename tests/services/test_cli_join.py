"""``duelhall join``: an open seat taken from the command line, against a real server."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.main import main
from services.server import Running


async def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = await asyncio.to_thread(main, ["join", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


async def test_a_player_joins_from_the_command_line(
    server: Running, matches: pb_grpc.MatchServiceStub, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    seats = [pb.SeatSpec(name="ann"), pb.SeatSpec(kind=pb.SEAT_KIND_OPEN), pb.SeatSpec(kind=pb.SEAT_KIND_OPEN)]
    created = await matches.CreateMatch(pb.CreateMatchRequest(ruleset="aq", seats=seats))
    match_id = created.match.match_id
    status, out, err = await _cli(capsys, match_id, "--name", "bob", "--seat", "2", "--request-id", "b", *where)
    assert status == 0 and out.startswith("seat: 2\ntoken: ") and "1 seat(s) still open" in err
    token = out.split("token: ")[1].split()[0]
    status, out, _ = await _cli(capsys, match_id, "--name", "bob", "--request-id", "b", "--json", *where)
    url = f"http://127.0.0.1:8080/?watch={match_id}&token={token}"  # serve's default HTTP port on --server's host
    assert status == 0 and msgspec.json.decode(out) == {"match_id": match_id, "seat": 2, "token": token, "url": url}
    config = '{"deck": "starter_b"}'  # aq plays from the box: the ruleset refuses it, and the seat stays open
    status, _, err = await _cli(capsys, match_id, "--name", "cat", "--seat-config", config, *where)
    assert status == 1 and "INVALID_ARGUMENT" in err and "DECK_NOT_APPLICABLE" in err
    status, out, err = await _cli(capsys, match_id, "--name", "cat", "--json", *where)
    assert status == 0 and msgspec.json.decode(out)["seat"] == 1 and not err
    status, _, err = await _cli(capsys, match_id, "--name", "dan", *where)
    assert status == 1 and "FAILED_PRECONDITION" in err and "no seat is open" in err
    view = await matches.GetView(pb.GetViewRequest(match_id=match_id, token=token))
    assert view.seat == 2
