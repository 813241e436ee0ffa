"""The viewer page in headless Chromium: replays step by step per viewer, hidden cards, live matches, refusals."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
from playwright.async_api import Page

from engine import registry, selfplay
from engine.match import encode
from replays.format import decode_replay, encode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.games import bots_for, play_with_store
from services.matches.creation import SeatEntry
from services.matches.manager import MatchManager
from services.server import Running
from tests.replays.rewritten import as_format_1
from tests.services.client import Created, create_match, play_random

DUELHALL = Path(sys.executable).parent / "duelhall"
PAGE_STEPS = 200
"""ViewReplay steps per page: a step holds a whole view, a few kilobytes."""


async def ended_match(
    matches: pb_grpc.MatchServiceStub, ruleset: str, players: int = 2, commands: int = 40, seed: int = 1
) -> Created:
    """A match played by random bots for up to ``commands`` commands, then conceded by all but the last seat."""
    created = await create_match(matches, ruleset=ruleset, players=players)
    await play_random(matches, created, seed=seed, max_commands=commands)
    for token in created.tokens[:-1]:
        view = await matches.GetView(pb.GetViewRequest(match_id=created.match_id))
        if not view.to_act and not view.HasField("deadline"):
            break
        await matches.SubmitCommand(
            pb.SubmitCommandRequest(match_id=created.match_id, token=token, command_json='{"type": "concede"}')
        )
    return created


async def long_duel(manager: MatchManager, events: int) -> tuple[str, int]:
    """An ended duel of at least ``events`` events, played by random bots through the manager.

    Life points high enough that only decking out ends it; duels without an early end run past 1,000 events.
    """
    duel = registry.get("duel")
    for game in range(40):
        created = await manager.create(
            "duel", [SeatEntry(name=n, config={}) for n in ("ann", "bob")], {"starting_lp": 1_000_000}
        )
        hot = await manager.get(created.row.match_id)
        bots = bots_for(duel, "random", 0, game, 2)
        while hot.outcome is None:
            actor, command = selfplay.next_move(duel, hot.state, bots)
            await manager.submit(hot.match_id, actor, encode(command))
        if hot.version >= events:
            return hot.match_id, hot.version
    raise AssertionError(f"no duel of {events} events in 40 games")


async def catalog(rulesets: pb_grpc.RulesetServiceStub, ruleset: str) -> dict[str, str]:
    """Card names by id, from DescribeRuleset."""
    response = await rulesets.DescribeRuleset(pb.DescribeRulesetRequest(ruleset=ruleset))
    return {card["id"]: card["name"] for card in msgspec.json.decode(response.cards_json)}


async def views(matches: pb_grpc.MatchServiceStub, match_id: str, seat: int) -> list[pb.ReplayStep]:
    """Every step, in pages: a long random match's whole answer passes the 4 MiB a client takes by default."""
    steps: list[pb.ReplayStep] = []
    page = pb.ViewReplayRequest(match_id=match_id, seat=seat, max_steps=PAGE_STEPS)
    while True:
        answer = await matches.ViewReplay(page)
        steps += answer.steps
        if not answer.next_version:
            return steps
        page.from_version = answer.next_version


async def open_match(page: Page, server: Running, match_id: str) -> None:
    assert server.http is not None
    await page.goto(f"{server.http.address}/?match={match_id}")
    await page.wait_for_selector("#status.ok")


async def choose_seat(page: Page, seat: int) -> None:
    await page.select_option("#seat", str(seat))
    await page.wait_for_selector(f"#board[data-viewer='{seat if seat >= 0 else 'spectator'}']")


async def go_to(page: Page, version: int) -> None:
    await page.locator("#scrubber").fill(str(version))
    await page.wait_for_selector(f"#board[data-version='{version}']")


async def check_duel_board(page: Page, view: dict[str, Any], seat: int, names: dict[str, str]) -> None:
    """What the board shows is what the API's view for this seat holds."""
    assert await page.inner_text("#board [data-field='turn'] strong") == str(view["turn"])
    for side in view["sides"]:
        panel = f"#board .seat[data-seat='{side['seat']}']"
        assert await page.inner_text(f"{panel} .life strong") == str(side["lp"])
        hand = f"{panel} [data-zone='hand']"
        assert f"({side['hand']['count']})" in await page.inner_text(f"{hand} h3")
        shown = await page.locator(f"{hand} .card .name").all_inner_texts()
        if side["seat"] == seat:
            assert shown == [names[card["card_id"]] for card in side["hand"]["cards"]]
        else:
            assert shown == [] and "cards" not in side["hand"]
        monsters = await page.locator(f"{panel} [data-zone='monsters'] .card").count()
        assert monsters == len([m for m in side["monsters"] if m is not None])


async def test_a_stored_match_steps_by_version_and_seat_as_the_api_sees_it(
    page: Page,
    web_server: Running,
    matches: pb_grpc.MatchServiceStub,
    rulesets: pb_grpc.RulesetServiceStub,
) -> None:
    created = await ended_match(matches, "duel", commands=60)
    names = await catalog(rulesets, "duel")
    await open_match(page, web_server, created.match_id)
    per_seat = {seat: await views(matches, created.match_id, seat) for seat in (0, 1)}
    version = len(per_seat[0]) // 2
    await go_to(page, version)
    for seat in (0, 1, 0):
        await choose_seat(page, seat)
        await page.wait_for_selector(f"#board[data-version='{version}']")
        await check_duel_board(page, msgspec.json.decode(per_seat[seat][version - 1].view_json), seat, names)
    await page.keyboard.press("ArrowRight")
    await page.wait_for_selector(f"#board[data-version='{version + 1}']")
    await check_duel_board(page, msgspec.json.decode(per_seat[0][version].view_json), 0, names)
    assert await page.locator("#log li").count() == version + 1
    await page.keyboard.press("End")
    await page.wait_for_selector(f"#board[data-version='{len(per_seat[0])}']")
    assert "Winners: seat 1" in await page.inner_text("#outcome")


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


async def test_an_opponents_hand_never_reaches_the_page(
    page: Page,
    web_server: Running,
    matches: pb_grpc.MatchServiceStub,
    rulesets: pb_grpc.RulesetServiceStub,
) -> None:
    created = await ended_match(matches, "duel", commands=60, seed=4)
    names = await catalog(rulesets, "duel")
    mine, theirs = await views(matches, created.match_id, 0), await views(matches, created.match_id, 1)
    await open_match(page, web_server, created.match_id)
    await choose_seat(page, 0)
    seen: set[str] = set()
    checked = 0
    for index, step in enumerate(mine):
        seen |= _strings(msgspec.json.decode(step.view_json)) | _strings(msgspec.json.decode(step.event.data_json))
        visible = seen | {names[s] for s in seen if s in names}
        hand = msgspec.json.decode(theirs[index].view_json)["sides"][1]["hand"].get("cards", [])
        secret = {names[card["card_id"]] for card in hand} | {card["instance"] for card in hand}
        secret -= visible
        if index:
            await page.keyboard.press("ArrowRight")
        await page.wait_for_selector(f"#board[data-version='{step.event.version}']")
        html = await page.content()
        assert not [text for text in secret if text in html], f"version {step.event.version}"
        checked += len(secret)
    assert checked > 0
    spectator = await views(matches, created.match_id, -1)
    await choose_seat(page, -1)
    checked = 0
    for version in range(10, len(spectator), 10):
        await go_to(page, version)
        shown = set().union(
            *(
                _strings(msgspec.json.decode(s.view_json)) | _strings(msgspec.json.decode(s.event.data_json))
                for s in spectator[:version]
            )
        )
        hands = [
            msgspec.json.decode(views_of[version - 1].view_json)["sides"][seat]["hand"].get("cards", [])
            for seat, views_of in ((0, mine), (1, theirs))
        ]
        secret = {names[c["card_id"]] for hand in hands for c in hand} - shown - {names[s] for s in shown if s in names}
        html = await page.content()
        assert not [text for text in secret if text in html], f"spectator at version {version}"
        checked += len(secret)
    assert checked > 0


async def test_a_live_match_played_by_bots_advances_on_the_page(
    page: Page,
    web_server: Running,
    matches: pb_grpc.MatchServiceStub,
) -> None:
    assert web_server.http is not None
    started = time.monotonic()
    created = await create_match(matches, options='{"turn_seconds": 40}')
    await page.goto(f"{web_server.http.address}/?watch={created.match_id}")
    await page.wait_for_selector("#status[data-live='true']")
    await page.wait_for_selector(f"#board[data-version='{created.version}']")
    left = int(await page.get_attribute(".clock.live", "data-left") or 0)
    # The page rounds up: at most the whole turn, at least what was left when it was read (however slow the load).
    assert 40 - (time.monotonic() - started) <= left <= 40
    await page.wait_for_function(f"Number(document.querySelector('.clock.live').dataset.left) < {left}")
    assert re.fullmatch(r"\d+ s left", await page.inner_text(".clock.live .remaining"))
    await play_random(matches, created, seed=9, max_commands=5)
    now = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).version
    await page.wait_for_selector(f"#board[data-version='{now}']")
    assert await page.locator("#log li").count() == now
    await play_random(matches, created, seed=10)
    await page.wait_for_selector("#status[data-live='ended']")
    assert "Reason" in await page.inner_text("#outcome")
    seated = await create_match(matches)
    await page.goto(f"{web_server.http.address}/?watch={seated.match_id}&token={seated.tokens[0]}")
    await page.wait_for_selector("#status[data-live='true']")
    assert await page.inner_text("#status") == "Live as seat 0"
    await page.wait_for_selector("#board .seat[data-seat='0'] [data-zone='hand_monsters'] .card")
    assert await page.locator("#board .seat[data-seat='1'] [data-zone='hand_monsters'] .card").count() == 0


async def _drop(page: Page, name: str, data: bytes) -> None:
    await page.evaluate(
        """([name, text]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], name, { type: "application/json" }));
        document.querySelector("#drop").dispatchEvent(
            new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }""",
        [name, data.decode()],
    )


async def test_dropped_replays_are_verified_and_tampered_ones_refused_by_check(
    page: Page,
    web_server: Running,
    matches: pb_grpc.MatchServiceStub,
) -> None:
    assert web_server.http is not None
    created = await ended_match(matches, "card_monsters")
    data = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    replay = decode_replay(data)
    await page.goto(web_server.http.address)
    events = list(replay.events)
    events[9] = msgspec.structs.replace(events[9], data=events[9].data.replace('"seat":0', '"seat":1', 1))
    await _drop(page, "tampered.json", encode_replay(msgspec.structs.replace(replay, events=events)))
    await page.wait_for_selector("#status[data-check='chain']")
    assert "the chain check failed at version 10" in await page.inner_text("#status")
    assert await page.locator("#board .seat").count() == 0
    commands = list(replay.commands)
    index = next(i for i, c in enumerate(commands) if c.type == "play_monster")
    payload = msgspec.json.decode(commands[index].payload) | {"position": 9}
    commands[index] = msgspec.structs.replace(commands[index], payload=msgspec.json.encode(payload).decode())
    changed = encode_replay(msgspec.structs.replace(replay, commands=commands))
    await page.set_input_files(
        "#file", files=[{"name": "changed.json", "mimeType": "application/json", "buffer": changed}]
    )
    # Chain 2 hashes the command records and the times (docs/replay-format.md). The status already names the
    # chain check from the file before: wait for this file's version, not for the check.
    failed = re.compile(rf"the chain check failed at version {commands[index].first_version}\b")
    await page.locator("#status[data-check='chain']", has_text=failed).wait_for()
    events = list(replay.events)
    events[4] = msgspec.structs.replace(events[4], recorded_at="1999-01-01T00:00:00.000000+00:00")
    await _drop(page, "backdated.json", encode_replay(msgspec.structs.replace(replay, events=events)))
    backdated = re.compile(r"the chain check failed at version 5\b")
    await page.locator("#status[data-check='chain']", has_text=backdated).wait_for()
    await _drop(page, "good.json", data)
    await page.wait_for_selector("#status.ok[data-uncovered='0']")
    assert (
        "verified: format, ruleset, chain, times, fold, outcome, seed, reexecute"
        in (await page.inner_text("#status")).lower()
    )
    assert "not covered" not in await page.inner_text("#status")
    assert await page.locator("#board .seat").count() == 2
    await _drop(page, "old.json", encode_replay(as_format_1(replay)))
    await page.wait_for_selector("#status.ok[data-uncovered='2']")
    assert f"not covered: recorded_at of versions 1-{len(replay.events)}" in await page.inner_text("#status")


@pytest.mark.parametrize("ruleset_id", sorted(registry.RULESETS))
async def test_every_ruleset_draws_a_board_and_a_screenshot_is_kept(
    page: Page,
    web_server: Running,
    matches: pb_grpc.MatchServiceStub,
    artifacts: Path,
    ruleset_id: str,
) -> None:
    ruleset = registry.get(ruleset_id)
    players = min(max(ruleset.min_seats, 3), ruleset.max_seats)
    played = await play_with_store(web_server.manager, ruleset, 1, 7, "random", players, lambda: None)
    match_id = played.games[0].match_id
    await open_match(page, web_server, match_id)
    await choose_seat(page, 0)
    steps = await views(matches, match_id, 0)
    await go_to(page, len(steps) // 2)
    assert await page.locator("#board .seat").count() == players
    assert await page.locator("#log li").count() == len(steps) // 2
    await page.screenshot(path=str(artifacts / f"viewer-{ruleset_id}.png"), full_page=True)


async def test_duelhall_view_opens_a_replay_file_without_a_service(
    page: Page,
    web_server: Running,
    matches: pb_grpc.MatchServiceStub,
    tmp_path: Path,
) -> None:
    created = await ended_match(matches, "card_monsters")
    path = tmp_path / "match.json"
    path.write_bytes((await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay)
    process = subprocess.Popen([str(DUELHALL), "view", str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)
        found = re.fullmatch(r"duelhall viewer on (http://127\.0\.0\.1:\d+/\?replay=/replay\.json)\n", line)
        assert found, line
        await page.goto(found.group(1))
        await page.wait_for_selector("#status.ok")
        assert created.match_id in await page.inner_text("#match")
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


async def test_opening_a_long_replay_and_stepping_to_its_last_version(
    page: Page,
    web_server: Running,
    matches: pb_grpc.MatchServiceStub,
    artifacts: Path,
    tmp_path: Path,
) -> None:
    """Prints the time (not asserted: speed is reported, not tested) for a replay of at least 1,000 events."""
    assert web_server.http is not None
    match_id, events = await long_duel(web_server.manager, 1000)
    path = tmp_path / "long.json"
    path.write_bytes((await matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id))).replay)
    await page.goto(web_server.http.address)
    started = time.perf_counter()
    await page.set_input_files("#file", str(path))
    await page.wait_for_selector("#status.ok")
    opened_ms = await page.get_attribute("body", "data-load-ms")
    await page.keyboard.press("End")
    await page.wait_for_selector(f"#board[data-version='{events}']")
    seconds = time.perf_counter() - started
    report = (
        f"open a {events}-event replay and step to its last version: {seconds:.3f} s as the test sees it; "
        f"in the page {opened_ms} ms from the file to its first version (read, verify and every view on "
        f"the server, parse, draw), then {await page.get_attribute('body', 'data-step-ms')} ms to the last"
    )
    print(report)
    (artifacts / "viewer-timing.txt").write_text(report + "\n")
