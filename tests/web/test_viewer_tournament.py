"""The viewer page's tournament view in Chromium: pairings with a link to watch each game, the player's own table
with a link to play it, the bye, and an organiser's result arriving live until the tournament ends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from playwright.async_api import Page

from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.conftest import ADMIN_TOKEN

DRAWN_UP_TO_DATE = (
    "() => { const t = document.querySelector('#tournament'); return t.dataset.drawn === t.dataset.version; }"
)


@pytest.fixture
async def web_server(tmp_path: Path) -> AsyncIterator[Running]:
    """The browser fixtures' server, with an admin token for the organiser."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'web.db'}",
        listen="127.0.0.1:0",
        http="127.0.0.1:0",
        admin_token=ADMIN_TOKEN,
    )
    running = await create_server(config)
    try:
        yield running
    finally:
        await running.stop(0)


async def test_a_tournament_on_the_page(page: Page, web_server: Running, channel: grpc.aio.Channel) -> None:
    assert web_server.http is not None
    address = web_server.http.address
    stub = tpb_grpc.TournamentServiceStub(channel)
    created = await stub.CreateTournament(
        tpb.CreateTournamentRequest(
            admin_token=ADMIN_TOKEN,
            name="page cup",
            ruleset="card_monsters",
            format="swiss",
            rounds=1,
            tiebreak="mtg",
            seed_hex="ef" * 32,
        )
    )
    tid = created.tournament_id
    tokens = {}
    for name in ("ann", "bob", "cat"):
        registered = await stub.Register(tpb.RegisterRequest(admin_token=ADMIN_TOKEN, tournament_id=tid, player=name))
        tokens[name] = registered.player_token
    await stub.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
    pairings = await stub.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
    [table] = [t for t in pairings.tables if t.b]
    [bye] = [t.a for t in pairings.tables if not t.b]
    seat = await stub.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=table.a, token=tokens[table.a]))

    # Anyone: the pairings with a link to watch the game, and the standings.
    await page.goto(f"{address}/?tournament={tid}")
    row = f"#pairings tr[data-table='{table.table}']"
    await page.wait_for_selector(f"{row} a.watch[data-game='1']")
    assert await page.get_attribute(f"{row} a.watch", "href") == f"?watch={seat.match_id}"
    assert await page.locator(f"{row} a.play").count() == 0
    assert await page.locator("#standings tbody tr").count() == 3

    # The player with the bye is told so.
    await page.goto(f"{address}/?tournament={tid}&player={bye}&token={tokens[bye]}")
    await page.wait_for_selector("#you [data-you='bye']")

    # A player at the table gets a link to play it with their seat token.
    await page.goto(f"{address}/?tournament={tid}&player={table.a}&token={tokens[table.a]}")
    await page.wait_for_selector(f"{row} a.play")
    assert await page.get_attribute("#you a.play", "href") == f"?watch={seat.match_id}&token={seat.token}"
    # It opens the seat's table in the viewer, live.
    await page.click("#you a.play")
    await page.wait_for_selector("#status[data-live='true']")
    assert await page.locator("#tournament").is_hidden()
    await page.goto(f"{address}/?tournament={tid}&player={table.a}&token={tokens[table.a]}")
    await page.wait_for_selector("#tournament[data-live='true']")

    # The organiser enters the table's result: the page shows it, the standings change and the feed ends.
    await stub.ReportResult(
        tpb.ReportResultRequest(
            admin_token=ADMIN_TOKEN,
            tournament_id=tid,
            round=1,
            table=table.table,
            wins_a=1,
            by="judge",
            why="offline",
        )
    )
    await page.wait_for_selector("#tournament[data-live='ended']")
    # Drawn from reads made after the last entry arrived (an earlier draw may have read the standings before it).
    await page.wait_for_function(DRAWN_UP_TO_DATE)
    await page.wait_for_selector(f"{row}[data-finished='true']")
    assert "1-0-0 (organiser)" in await page.inner_text(row)
    assert await page.locator(f"{row} a.play").count() == 0
    assert await page.inner_text(f"#standings tr[data-player='{table.a}'] td:nth-child(3)") == "3"

    # A wrong token is refused, with its reason.
    await page.goto(f"{address}/?tournament={tid}&player={table.a}&token=nope")
    await page.wait_for_selector("#tournament-status[data-reason='TOKEN_INVALID']")
