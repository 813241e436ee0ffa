"""The viewer page as the caster: nothing before the delay has passed on the server's clock, then every hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.async_api import Page

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.clock import ManualClock

DELAY = 60


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def web_server(tmp_path: Path, clock: ManualClock) -> AsyncIterator[Running]:
    """The browser fixtures' server, on a hand-moved clock."""
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'web.db'}", listen="127.0.0.1:0", http="127.0.0.1:0")
    running = await create_server(config, clock)
    try:
        yield running
    finally:
        await running.stop(0)


async def test_the_caster_sees_every_hand_once_the_delay_has_passed(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub, clock: ManualClock
) -> None:
    assert web_server.http is not None
    seats = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]
    created = await matches.CreateMatch(
        pb.CreateMatchRequest(
            ruleset="card_monsters", seats=seats, options_json='{"turn_seconds": 600}', caster_delay_seconds=DELAY
        )
    )
    match_id, token = created.match.match_id, created.caster_token
    await page.goto(f"{web_server.http.address}/?watch={match_id}&token={token}&caster=1")
    await page.wait_for_selector("#status[data-live='true']")
    assert await page.inner_text("#status") == "Live as the caster (delayed)"
    assert await page.locator("#board .caster-view").count() == 0
    # From the match's recorded time, not the clock's start: a loaded machine may take seconds to start the server.
    due = datetime.fromisoformat(created.match.created_at) + timedelta(seconds=DELAY + 1)
    clock.advance(max(0.0, (due - clock.now()).total_seconds()))
    await page.wait_for_selector(f"#board[data-viewer='caster'][data-version='{created.match.version}']")
    for seat in (0, 1):
        hand = f"#board .caster-view[data-viewer='{seat}'] .seat[data-seat='{seat}'] [data-zone='hand_monsters']"
        assert await page.locator(f"{hand} .card:not(.back)").count() > 0
    await page.goto(f"{web_server.http.address}/?watch={match_id}&caster=1")
    await page.wait_for_selector("#status[data-reason='CASTER_TOKEN_REQUIRED']")
