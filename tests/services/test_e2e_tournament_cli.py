"""The acceptance run, smaller: a Swiss with a top cut driven from ``duelhall tournament`` verbs alone. The
organiser creates, registers, pairs and cuts; each player's bot plays its own games with its own token
(``tournament play``), learning its table, its choices and its bye from WatchTournament; the final standings and
the winner print as JSON. Five players (a bye every Swiss round), best of 3 (choices between games), three Swiss
rounds and a top 4: the shape of the 32-player event in a fraction of its CI minutes."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from services.api import tournament_pb2 as tpb
from services.cli.main import main
from services.server import Running
from tests.services.conftest import ADMIN_TOKEN
from tests.services.test_e2e_tournament_feed import Feed
from tests.tournament.players import channel_stubs

PLAYERS = [f"p{i}" for i in range(5)]


async def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    """One organiser verb with --json; its reply (the last JSON line: the players' bots print beside it)."""
    status = await asyncio.to_thread(main, ["tournament", *argv, "--json"])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert status == 0 and lines, argv
    reply: dict[str, object] = json.loads(lines[-1])
    return reply


async def test_a_swiss_with_a_top_cut_from_the_command_line_alone(
    server: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    admin = [*where, "--admin-token", ADMIN_TOKEN]
    created = await _cli(
        capsys,
        "create",
        "cli cup",
        "--ruleset",
        "card_monsters",
        "--best-of",
        "3",
        "--cut",
        "4",
        "--seed",
        "5a" * 32,
        *admin,
    )
    tid = str(created["tournament_id"])
    tokens = {p: str((await _cli(capsys, "register", tid, p, *admin))["player_token"]) for p in PLAYERS}
    # Threads of their own: asyncio's default pool (cores + 4) would be taken by the bots, and the organiser's
    # verbs would wait behind them for ever.
    executor = ThreadPoolExecutor(max_workers=len(PLAYERS))
    loop = asyncio.get_running_loop()
    bots = [
        loop.run_in_executor(
            executor, main, ["tournament", "play", tid, p, f"--token={tokens[p]}", "--seed", str(i), *where]
        )
        for i, p in enumerate(PLAYERS)
    ]
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub, _ = channel_stubs(channel)
        feed = Feed(stub, tpb.WatchTournamentRequest(tournament_id=tid))
        paired = await _cli(capsys, "start", tid, *admin)
        for round_ in range(1, 6):
            tables = [t for t in paired["tables"] if t.get("b")]  # type: ignore[attr-defined]
            results = 0
            while results < len(tables):
                notice = await feed.notice("match_result")
                results += notice.match_result.round == round_
            if round_ == 5:
                break
            paired = await _cli(capsys, "cut" if round_ == 3 else "pair", tid, *admin)
        assert await feed.ended() == grpc.StatusCode.OK
    assert all(status == 0 for status in await asyncio.gather(*bots))
    executor.shutdown()
    notices = [n for e in feed.entries for n in e.notices]
    byes = [n.bye.round for n in notices if n.WhichOneof("notice") == "bye"]
    assert byes == [1, 2, 3] and len({n.bye.player for n in notices if n.WhichOneof("notice") == "bye"}) == 3
    choices = [e for e in feed.entries if e.type == "FirstChosen"]
    waiting = [n for n in notices if n.WhichOneof("notice") == "chooser_waiting"]
    assert choices and len(choices) == len(waiting)
    assert all(json.loads(e.data_json)["first"] == json.loads(e.data_json)["chooser"] for e in choices)
    standings = await _cli(capsys, "standings", tid, *where)
    shown = await _cli(capsys, "show", tid, *where)
    tournament = shown["tournament"]
    assert tournament["status"] == "ended" and tournament["winner"] in PLAYERS  # type: ignore[index,operator]
    assert [s["rank"] for s in standings["standings"]] == list(range(1, len(PLAYERS) + 1))  # type: ignore[attr-defined,index]
    assert len(standings["cut_seeds"]) == 4  # type: ignore[arg-type]
