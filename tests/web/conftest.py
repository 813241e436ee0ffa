"""Browser fixtures: Debian's Chromium driven by Playwright (no browser download), a real server with HTTP.

The browser tests skip with a reason when /usr/bin/chromium is missing, except in CI where ``.ci/run``
installs it and requires them (DUELHALL_REQUIRE_BROWSER=1, tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from playwright.async_api import Browser, Page, async_playwright

from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
"""Screenshots for people to look at (ignored by git)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Only the tests that start Chromium: the page's pure checks (test_sentences.py) need no browser.
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents and "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def page(browser: Browser, web_server: Running) -> AsyncIterator[Page]:
    """A page of its own, closed before the server stops (so no watch is left open on it)."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = await context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        await context.close()
    assert not errors, f"the page raised: {errors}"


@pytest.fixture
async def web_server(tmp_path: Path) -> AsyncIterator[Running]:
    running = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 'web.db'}", listen="127.0.0.1:0", http="127.0.0.1:0")
    )
    try:
        yield running
    finally:
        await running.stop(0)


@pytest.fixture
async def channel(web_server: Running) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{web_server.port}") as opened:
        yield opened


@pytest.fixture
def matches(channel: grpc.aio.Channel) -> pb_grpc.MatchServiceStub:
    return pb_grpc.MatchServiceStub(channel)


@pytest.fixture
def rulesets(channel: grpc.aio.Channel) -> pb_grpc.RulesetServiceStub:
    return pb_grpc.RulesetServiceStub(channel)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
