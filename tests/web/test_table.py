"""The viewer page as a table: a human plays a whole match of every ruleset by clicking the page's controls only.

The human (seat 0) picks among the offered controls at random (seeded), sometimes choosing a card on the board
first; the opponent is the greedy bot. Until the server plays bot seats itself, the opponent is a client of the
gRPC API here (``opponent``): switching to a server bot seat changes that one fixture.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from playwright.async_api import Page, Route
from playwright.async_api import TimeoutError as PlaywrightTimeout

from engine import registry
from replays.verify import verify_bytes
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.clock import ManualClock

RULESETS = ("card_monsters", "duel", "aq", "voidlink", "wulin")
SHORT = {"duel": {"starting_lp": 3000}, "aq": {"max_rounds": 1}, "wulin": {"starting_hp": 80}}
"""Options for a shorter whole match (20 to 60 commands against the greedy bot, rather than up to 250)."""
HUMAN = 0
MAX_CLICKS = 1_000
"""More commands than any seeded match here takes: a page that stops offering the game's moves fails the test."""

Seat = Callable[[str, str], Awaitable[tuple[str, str]]]
"""Creates a match of a ruleset (with options as JSON) with the human at seat 0 and the opponent playing;
returns (match id, the human's token)."""


@pytest.fixture
async def web_server(tmp_path: Path) -> AsyncIterator[Running]:
    """The browser fixtures' server on a clock that never moves: no turn timer runs out while a loaded machine
    plays (no ruleset here needs a timeout to go on)."""
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'web.db'}", listen="127.0.0.1:0", http="127.0.0.1:0")
    running = await create_server(config, ManualClock())
    try:
        yield running
    finally:
        await running.stop(0)


@pytest.fixture
def opponent(matches: pb_grpc.MatchServiceStub) -> Seat:
    """The one place the opponent is chosen: greedy bot seats, played by the server itself."""

    async def seat(ruleset_id: str, options: str) -> tuple[str, str]:
        ruleset = registry.get(ruleset_id)
        bots = [pb.SeatSpec(kind=pb.SEAT_KIND_BOT, bot_level="greedy") for _ in range(1, ruleset.min_seats)]
        created = await matches.CreateMatch(
            pb.CreateMatchRequest(ruleset=ruleset_id, seats=[pb.SeatSpec(name="you"), *bots], options_json=options)
        )
        [token] = [t.token for t in created.tokens if t.seat == HUMAN]  # bot seats have no token
        return created.match.match_id, token

    return seat


async def click_a_control(page: Page, rng: random.Random) -> None:
    """Clicks one of the offered commands, concession aside, picked at random; half the time when it names a
    card on the board, chooses that card first (the controls then offer only the commands naming it)."""
    offered: list[tuple[str, list[str]]] = await page.evaluate(
        """() => [...document.querySelectorAll("#controls button.command:not([data-type='concede'])")].map((b) =>
            [b.dataset.command, JSON.parse(b.dataset.refs).filter((ref) =>
              [...document.querySelectorAll("#board .pick")].some((pick) => pick.dataset.ref === ref))])"""
    )
    assert offered, await page.inner_html("#controls")
    command, on_board = rng.choice(offered)
    if on_board and rng.random() < 0.5:
        ref = rng.choice(on_board)
        await page.locator(f"#board .pick[data-ref='{ref}']").first.click()
        await page.wait_for_selector(f"#board .pick[data-ref='{ref}'][aria-pressed='true']")
        narrowed = await page.locator("#controls button.command").evaluate_all("bs => bs.map((b) => b.dataset.refs)")
        assert narrowed and all(ref in json.loads(refs) for refs in narrowed), (ref, narrowed)
    buttons = page.locator("#controls button.command")
    commands: list[str] = await buttons.evaluate_all("buttons => buttons.map((b) => b.dataset.command)")
    await buttons.nth(commands.index(command)).click()


async def play_by_clicking(page: Page, seed: int) -> int:
    """Plays seat 0 until the match ends; returns the commands clicked."""
    rng = random.Random(seed)
    for clicks in range(MAX_CLICKS):
        await page.wait_for_selector(
            "#status[data-live='ended'], #controls[data-state='ready'][data-turn='you'], #status.error"
        )
        if await page.get_attribute("#status", "data-live") == "ended":
            return clicks
        assert await page.get_attribute("#status", "data-live") == "true", await page.inner_text("#status")
        version = int(await page.get_attribute("#controls", "data-version") or 0)
        await click_a_control(page, rng)
        # The command's events move the controls on, or end the match; a refusal of a legal command is a defect.
        try:
            await page.wait_for_function(
                """(version) => Number(document.querySelector('#controls').dataset.version) > version ||
                     document.querySelector('#controls .refusal') || document.querySelector('#status.error') ||
                     document.querySelector('#status').dataset.live === 'ended'""",
                arg=version,
            )
        except PlaywrightTimeout:
            raise AssertionError(
                f"the controls stayed at version {version}: {await page.inner_html('#controls')}; "
                f"{await page.inner_text('#status')}; the log ends {(await page.inner_text('#log'))[-600:]}"
            ) from None
        refusal = page.locator("#controls .refusal")
        assert not await refusal.count(), await refusal.inner_text()
    raise AssertionError(f"no end after {MAX_CLICKS} clicks")


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_a_human_plays_a_whole_match_by_clicking_and_the_replay_verifies(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub, opponent: Seat, ruleset_id: str
) -> None:
    assert web_server.http is not None
    match_id, token = await opponent(ruleset_id, json.dumps(SHORT.get(ruleset_id, {})))
    await page.goto(f"{web_server.http.address}/?watch={match_id}&token={token}")
    clicks = await play_by_clicking(page, seed=RULESETS.index(ruleset_id))
    assert clicks > 0
    ended = await matches.GetMatch(pb.GetMatchRequest(match_id=match_id))
    assert ended.status == pb.MATCH_STATUS_ENDED
    # Every line of the log is a sentence, none the raw fallback.
    assert await page.locator("#log li").count() == ended.version
    assert await page.locator("#log li[data-raw]").count() == 0
    assert await page.inner_text("#controls .turn") == "The match has ended"
    verdict = verify_bytes((await matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id))).replay)
    assert verdict.ok, verdict.failure


async def test_a_refused_command_is_said_in_words_and_the_controls_stay(
    page: Page, web_server: Running, opponent: Seat
) -> None:
    """A command the server refuses (here one slipped into the page's list of legal commands) is said with its
    reason in words; the page's controls are offered again as they were."""
    assert web_server.http is not None
    forged = json.dumps({"type": "play_monster", "card": "9:99"})

    async def slip_in(route: Route) -> None:
        response = await route.fetch()
        legal = await response.json()
        legal["commandsJson"] = [*legal.get("commandsJson", []), forged]
        await route.fulfill(response=response, json=legal)

    await page.route("**/duelhall.v1.MatchService/ListLegalCommands", slip_in)
    match_id, token = await opponent("card_monsters", "")
    await page.goto(f"{web_server.http.address}/?watch={match_id}&token={token}")
    await page.wait_for_selector("#controls[data-state='ready'] button.command[data-type='play_monster']")
    offered = await page.locator("#controls button.command").evaluate_all("bs => bs.map((b) => b.dataset.command)")
    await page.locator("#controls button.command").nth(offered.index(forged)).click()
    refusal = page.locator("#controls .refusal")
    await refusal.wait_for()
    reason = await refusal.get_attribute("data-reason")
    assert reason
    assert (await refusal.inner_text()).startswith(f"Refused: {reason.lower().replace('_', ' ')} (")
    assert await page.get_attribute("#controls", "data-state") == "ready"
    assert (
        await page.locator("#controls button.command").evaluate_all("bs => bs.map((b) => b.dataset.command)") == offered
    )


HOSTILE = ["<img src=x onerror=alert(1)>", "</script><script>alert(2)</script>" + "W" * 60]
"""Seat names a client may choose (printable, up to 100 characters)."""


async def test_the_table_draws_names_as_text_and_every_control_is_a_labelled_button(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    assert web_server.http is not None
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    created = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset="aq", seats=[pb.SeatSpec(name=name) for name in HOSTILE])
    )
    tokens = {t.seat: t.token for t in created.tokens}
    await page.goto(f"{web_server.http.address}/?watch={created.match.match_id}&token={tokens[0]}")
    await page.wait_for_selector("#controls[data-state='ready'] button.command")
    assert await page.inner_text("#controls h2 bdi") == HOSTILE[0]
    assert await page.locator("img, script:not([src])").count() == 0
    assert await page.evaluate(
        "document.querySelector('#controls').scrollWidth <= document.querySelector('#controls').clientWidth + 1"
    )
    title = await page.get_attribute("#controls", "aria-labelledby")
    assert await page.locator(f"#{title}").count() == 1
    unlabelled = await page.locator("#controls button, #board .pick").evaluate_all(
        """(buttons) => buttons.map((b) => [b, b.getAttribute('aria-label') || b.textContent.trim()])
            .filter(([b, name]) => b.type !== 'button' || !name).map(([b]) => b.outerHTML)"""
    )
    assert unlabelled == []
    assert await page.locator("#controls [onclick], #controls [role='button']").count() == 0
    assert dialogs == []


async def test_the_seats_presence_is_listed(page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub) -> None:
    """The table lists each seat as connected or away (issue 34): the page's own watch connects its seat, and the
    other seat, whose player never opened a stream, is away since the match was created."""
    assert web_server.http is not None
    created = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset="duel", seats=[pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")])
    )
    token = next(t.token for t in created.tokens if t.seat == 0)
    await page.goto(f"{web_server.http.address}/?watch={created.match.match_id}&token={token}")
    await page.wait_for_selector("#controls .presence li[data-seat='0'][data-connected='true']")
    assert await page.get_attribute("#controls .presence li[data-seat='1']", "data-connected") == "false"
    assert (await page.inner_text("#controls .presence li[data-seat='1']")).startswith("Seat 1 (bob) away since ")


async def test_a_seat_waits_at_the_table_until_an_open_seat_is_joined(
    page: Page, web_server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    """``duelhall play --open``'s first player opens the page before the friend joins: it says it waits, then
    plays once the seat is taken."""
    assert web_server.http is not None
    created = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset="duel", seats=[pb.SeatSpec(name="you"), pb.SeatSpec(kind=pb.SEAT_KIND_OPEN)])
    )
    match_id = created.match.match_id
    [token] = [t.token for t in created.tokens if t.seat == HUMAN]
    await page.goto(f"{web_server.http.address}/?watch={match_id}&token={token}")
    await page.wait_for_selector("#status[data-live='seating']")
    assert "Waiting for every seat to be taken" in await page.inner_text("#status")
    await matches.JoinSeat(pb.JoinSeatRequest(match_id=match_id, request_id="friend", name="friend"))
    await page.wait_for_selector("#status[data-live='true']")
    started = await matches.GetMatch(pb.GetMatchRequest(match_id=match_id))
    await page.wait_for_selector(f"#log li >> nth={started.version - 1}")
