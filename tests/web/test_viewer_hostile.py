"""The viewer page against what clients control and what goes wrong: hostile names, addresses that cannot be
fetched, answers overtaken by a later choice, a server that goes away while a match is watched."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import msgspec
import pytest
from playwright.async_api import Browser, Page, Route

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.core import limits
from services.core.limits import MAX_STREAMS
from services.server import Running, ServerConfig, create_server
from tests.services.client import Created, create_match, play_random
from tests.web.test_viewer import choose_seat, ended_match, go_to, open_match, views

HOSTILE = ["<img src=x onerror=alert(1)>", "W" * 100, "</script><script>alert(2)</script>", "javascript:alert(3)"]
"""Seat names (printable, up to 100 characters) a client may choose."""


async def shown_at_the_end(
    page: Page, server: Running, matches: pb_grpc.MatchServiceStub, ruleset: str, names: list[str], seat: int
) -> None:
    """A match of seats with these names, played to its end by random bots, opened as ``seat`` at its last step."""
    reply = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset=ruleset, seats=[pb.SeatSpec(name=name) for name in names])
    )
    tokens = [t.token for t in sorted(reply.tokens, key=lambda t: t.seat)]
    await play_random(matches, Created(reply.match.match_id, tokens, reply.match.version), seed=3)
    await open_match(page, server, reply.match.match_id)
    await choose_seat(page, seat)
    await page.keyboard.press("End")
    await page.wait_for_selector("#outcome h2")


async def test_hostile_seat_names_are_drawn_as_text_and_do_not_widen_the_page(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    await shown_at_the_end(page, web_server, matches, "aq", HOSTILE, seat=1)
    assert HOSTILE[0] in await page.inner_text("#match")
    assert HOSTILE[2] in await page.inner_text("#board .seat[data-seat='2'] h2")
    assert await page.locator("img, script:not([src])").count() == 0
    too_wide = await page.evaluate(
        """() => [document.documentElement, ...document.querySelectorAll('.steps, #match, .seat, aside, #log li')]
            .filter((node) => node.scrollWidth > node.clientWidth + 1)
            .map((node) => `${node.tagName}.${node.className}: ${node.scrollWidth} > ${node.clientWidth}`)"""
    )
    assert too_wide == []
    assert dialogs == []


RIGHT_TO_LEFT = ["דנה", "علي"]
"""A Hebrew and an Arabic seat name."""


async def test_right_to_left_seat_names_do_not_reorder_the_text_around_them(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    """Unisolated, a right-to-left name carries the digits and punctuation after it into its own run ("0=NAME, 1=..."
    drawn with that "1" left of the name): every name is in a <bdi>, or in an <option>, which holds only text,
    between U+2068 and U+2069 (what <bdi> does)."""
    await shown_at_the_end(page, web_server, matches, "card_monsters", RIGHT_TO_LEFT, seat=0)
    shown, unisolated = await page.evaluate(
        """(names) => {
        const shown = [], unisolated = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const name of names.filter((name) => node.data.includes(name))) {
            const where = node.parentElement;
            const isolated = where.closest("option") ? node.data.includes(`\u2068${name}\u2069`)
              : where.tagName === "BDI" && node.data === name;
            (isolated ? shown : unisolated).push(`${where.closest("[id]").id}: ${node.data}`);
          }
        }
        return [shown, unisolated];
    }""",
        RIGHT_TO_LEFT,
    )
    assert unisolated == []
    assert {place.split(":")[0] for place in shown} >= {"seat", "match", "board", "log", "outcome"}
    name_ends, next_seat = await page.locator("#match").evaluate(
        """(match, name) => {
        const rect = (text) => {
          const walker = document.createTreeWalker(match, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = node.data.indexOf(text);
            if (at >= 0) {
              const range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + text.length);
              return range.getBoundingClientRect();
            }
          }
          return null;
        };
        return [rect(name).right, rect("1=").left];
    }""",
        RIGHT_TO_LEFT[0],
    )
    assert next_seat > name_ends, "seat 1's number is drawn inside seat 0's name"


@pytest.mark.parametrize("address", ["/missing.json", "javascript:alert(1)"])
async def test_a_replay_address_that_cannot_be_fetched_is_said_so(
    page: Page, web_server: Running, address: str
) -> None:
    assert web_server.http is not None
    await page.goto(f"{web_server.http.address}/?replay={address}")
    await page.wait_for_selector("#status.error[data-fetch='failed']")
    assert f"Failed to fetch the replay file {address}" in await page.inner_text("#status")
    if address == "/missing.json":
        assert "404" in await page.inner_text("#status")


async def test_a_replay_file_over_4_mib_is_said_too_large_without_sending_it(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    """Dropped, chosen or at an address: the page names the size and the limit (the server's, which it would
    refuse with REPLAY_TOO_LARGE), and a file at the limit still opens."""
    assert web_server.http is not None
    created = await ended_match(matches, "card_monsters")
    data = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    largest = data + b" " * (limits.MAX_VIEWED_REPLAY - len(data))
    over = largest + b" "
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.url.endswith("/ViewReplay") else None)
    await page.route(
        f"{web_server.http.address}/over.json", lambda route: route.fulfill(body=over, content_type="application/json")
    )
    await page.goto(web_server.http.address)
    for opened in ("file", "address"):
        if opened == "file":
            await page.set_input_files(
                "#file", files=[{"name": "over.json", "mimeType": "application/json", "buffer": over}]
            )
        else:
            await page.goto(f"{web_server.http.address}/?replay=/over.json")
        await page.wait_for_selector("#status.error[data-reason='REPLAY_TOO_LARGE']")
        said = await page.inner_text("#status")
        assert f"{len(over):,} bytes" in said and "at most 4 MiB" in said, opened
    assert sent == []
    await page.set_input_files(
        "#file", files=[{"name": "largest.json", "mimeType": "application/json", "buffer": largest}]
    )
    await page.wait_for_selector("#status.ok")
    assert len(sent) == 1


async def test_loading_the_page_logs_no_error(page: Page, web_server: Running) -> None:
    assert web_server.http is not None
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    await page.goto(web_server.http.address, wait_until="networkidle")
    assert errors == []


async def test_an_answer_for_a_viewer_since_replaced_is_dropped(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    created = await ended_match(matches, "duel", commands=60)
    await open_match(page, web_server, created.match_id)
    steps = await views(matches, created.match_id, 1)
    version = next(
        s.event.version
        for s in reversed(steps)
        if msgspec.json.decode(s.view_json)["sides"][1]["hand"].get("cards")
        and not msgspec.json.decode(s.view_json)["sides"][0]["hand"].get("cards")
    )
    await go_to(page, version)
    held: list[Route] = []

    async def hold_seat_0(route: Route) -> None:
        if msgspec.json.decode(route.request.post_data or "{}").get("seat") == 0 and not held:
            held.append(route)
        else:
            await route.continue_()

    await page.route("**/ViewReplay", hold_seat_0)
    await page.select_option("#seat", "0")
    await page.wait_for_function("document.querySelector('#status').textContent === 'Loading…'")
    assert held
    await choose_seat(page, 1)
    await held[0].continue_()
    await page.wait_for_function("document.body.dataset.stale === '1'")
    assert await page.input_value("#seat") == "1"
    assert await page.get_attribute("#board", "data-version") == str(version)
    you = await page.locator("#board .badge.you").evaluate_all("ns => ns.map(n => n.closest('.seat').dataset.seat)")
    assert you == ["1"]
    assert await page.locator("#board .seat[data-seat='1'] [data-zone='hand'] .card").count() > 0


async def test_a_watch_overtaken_by_opening_an_ended_match_leaves_it_alone(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    assert web_server.http is not None
    ended = await ended_match(matches, "card_monsters")
    running = await create_match(matches, ruleset="duel")
    await page.goto(web_server.http.address)
    held: list[Route] = []

    async def hold_first(route: Route) -> None:
        if not held:
            held.append(route)
        else:
            await route.continue_()

    await page.route("**/GetMatch", hold_first)
    await page.fill("#watch-id", running.match_id)
    await page.click("#watch button")
    await page.wait_for_function("document.querySelector('#status').textContent === 'Connecting…'")
    await page.fill("#match-id", ended.match_id)
    await page.click("#open-match button")
    await page.wait_for_selector("#status.ok")
    await held[0].continue_()
    await page.wait_for_function("document.body.dataset.stale === '1'")
    steps = await views(matches, ended.match_id, -1)
    assert await page.get_attribute("body", "data-ruleset") == "card_monsters"
    assert await page.inner_text("#position") == f"version 1 of {len(steps)}"
    assert await page.get_attribute("#status", "data-live") is None
    assert not await page.is_disabled("#seat")


async def _serve(database: Path, http: str = "127.0.0.1:0", max_streams: int = MAX_STREAMS) -> Running:
    return await create_server(
        ServerConfig(database_url=f"sqlite:///{database}", listen="127.0.0.1:0", http=http, max_streams=max_streams)
    )


@pytest.fixture
async def restartable(browser: Browser, tmp_path: Path) -> AsyncIterator[tuple[list[Running], Page]]:
    """A server (restarted by the test: the last of the list runs) and a page of its own."""
    servers = [await _serve(tmp_path / "restart.db")]
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = await context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield servers, opened
    finally:
        await context.close()
        await servers[-1].stop(0)
    assert not errors, f"the page raised: {errors}"


async def test_a_watch_says_the_connection_is_lost_and_resumes_when_the_server_is_back(
    restartable: tuple[list[Running], Page], tmp_path: Path
) -> None:
    servers, page = restartable
    first = servers[0]
    assert first.http is not None
    async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub, options='{"turn_seconds": 60}')
        await page.goto(f"{first.http.address}/?watch={created.match_id}&token={created.tokens[0]}")
        await page.wait_for_selector("#status[data-live='true']")
        await play_random(stub, created, seed=1, max_commands=3)
        before = (await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).version
        await page.wait_for_selector(f"#board[data-version='{before}']")
    await first.stop(0)
    await page.wait_for_selector("#status[data-live='reconnecting']")
    assert f"lost after version {before}" in await page.inner_text("#status")
    assert await page.locator(".clock.live").count() == 0
    servers.append(await _serve(tmp_path / "restart.db", http=f"127.0.0.1:{first.http.port}"))
    await page.wait_for_selector("#status[data-live='true']")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{servers[-1].port}") as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        await play_random(stub, created, seed=2, max_commands=3)
        now = (await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).version
        await page.wait_for_selector(f"#board[data-version='{now}']")
        assert await page.locator("#log li").count() == now
        assert await page.locator(".clock.live").count() == 1
        await play_random(stub, created, seed=3)
        await page.wait_for_selector("#status[data-live='ended']")


async def test_versions_arriving_while_an_earlier_one_is_shown_are_counted(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    assert web_server.http is not None
    created = await create_match(matches, ruleset="duel")
    await page.goto(f"{web_server.http.address}/?watch={created.match_id}")
    await page.wait_for_selector(f"#board[data-version='{created.version}']")
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector(f"#board[data-version='{created.version - 1}']")
    await play_random(matches, created, seed=1, max_commands=5)
    now = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).version
    await page.wait_for_function(
        f"document.querySelector('#position').textContent === 'version {created.version - 1} of {now}'"
    )
    assert await page.get_attribute("#scrubber", "max") == str(now)
    assert await page.get_attribute("#board", "data-version") == str(created.version - 1)
    await page.keyboard.press("End")
    await page.wait_for_selector(f"#board[data-version='{now}']")


async def test_a_watch_on_a_full_server_says_so_and_goes_live_once_a_stream_closes(
    browser: Browser, tmp_path: Path
) -> None:
    server = await _serve(tmp_path / "full.db", max_streams=1)
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = await context.new_page()
        assert server.http is not None
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            holder = stub.WatchLifecycle(pb.WatchLifecycleRequest())
            assert await holder.read() is not grpc.aio.EOF  # the one stream the server takes
            await page.goto(f"{server.http.address}/?watch={created.match_id}")
            await page.wait_for_selector("#status[data-live='reconnecting'][data-reason='TOO_MANY_STREAMS']")
            assert "as many watches as it takes (1)" in await page.inner_text("#status")
            holder.cancel()
            await page.wait_for_selector("#status[data-live='true']")
            await play_random(stub, created, seed=1, max_commands=3)
            now = (await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).version
            await page.wait_for_selector(f"#board[data-version='{now}']")
    finally:
        await context.close()
        await server.stop(0)


async def test_a_watch_whose_history_arrives_in_one_piece_shows_its_every_version(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    """Updates read together reach the page before it draws the first: each is kept, and the last is drawn."""
    assert web_server.http is not None
    created = await ended_match(matches, "duel", commands=20)
    ended = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).version

    watches: list[str] = []

    async def whole(route: Route) -> None:
        watches.append(route.request.post_data or "")
        await route.fulfill(response=await route.fetch())  # the ended match's watch, its every message in one body

    await page.route("**/WatchMatch", whole)
    await page.goto(f"{web_server.http.address}/?watch={created.match_id}")
    await page.wait_for_selector("#status[data-live='ended']")
    assert await page.get_attribute("#board", "data-version") == str(ended)
    assert await page.inner_text("#position") == f"version {ended} of {ended}"
    assert len(watches) == 1, "the watch was retried"


@pytest.mark.parametrize(
    ("spectators", "reason", "says"),
    [
        (pb.SPECTATORS_NONE, "SPECTATORS_NONE", "admits no spectators"),
        (pb.SPECTATORS_TOKEN, "SPECTATOR_TOKEN_REQUIRED", "with its spectator token only"),
    ],
)
async def test_a_watch_the_match_does_not_admit_says_why_and_its_spectator_token_opens_it(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub, spectators: int, reason: str, says: str
) -> None:
    seats = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]
    reply = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset="card_monsters", seats=seats, spectators=spectators)
    )
    assert web_server.http is not None
    await page.goto(f"{web_server.http.address}/?watch={reply.match.match_id}")
    await page.wait_for_selector(f"#status[data-reason='{reason}']")
    assert says in await page.inner_text("#status")
    if reply.spectator_token:
        await page.goto(f"{web_server.http.address}/?watch={reply.match.match_id}&token={reply.spectator_token}")
        await page.wait_for_selector("#status[data-live='true']")
        assert "Live as a spectator" in await page.inner_text("#status")
