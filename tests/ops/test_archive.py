"""Bulk export, prune only what is archived and verified, import restores the same matches."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
import pytest

from eventstore import open_store
from services.cli.main import main
from services.matches.creation import SeatEntry
from services.matches.manager import MatchManager


async def last_events(url: str) -> dict[str, tuple[int, str]]:
    """Every listed match's (version, hash) of its last event as stored."""
    store = await open_store(url)
    try:
        result = {}
        for key, _ in await store.rows.list("matches", None, 1000):
            version = await store.last_version(key)
            result[key] = (version, (await store.read_stream(key, version, version))[0].hash.hex())
        return result
    finally:
        await store.close()


async def versions(url: str, match_ids: list[str]) -> list[int]:
    store = await open_store(url)
    try:
        return [await store.last_version(match_id) for match_id in match_ids]
    finally:
        await store.close()


async def running_match(url: str) -> str:
    store = await open_store(url)
    try:
        created = await MatchManager(store).create("card_monsters", [SeatEntry("a", {}), SeatEntry("b", {})], {})
        return created.row.match_id
    finally:
        await store.close()


def listed(url: str, capsys: pytest.CaptureFixture[str], *filters: str) -> dict[str, str]:
    assert main(["matches", "--database-url", url, "--json", *filters]) == 0
    return {row["match_id"]: row["status"] for row in msgspec.json.decode(capsys.readouterr().out)}


def test_export_prune_import_restores_the_same_matches(
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = database_url
    assert main(["selfplay", "card_monsters", "--games", "3", "--database-url", url]) == 0
    running = asyncio.run(running_match(url))
    capsys.readouterr()
    before = asyncio.run(last_events(url))
    ended = sorted(m for m, status in listed(url, capsys).items() if status == "ended")
    assert len(ended) == 3

    archive = tmp_path / "archive"
    assert main(["replay", "export", "--all", "--since", "2999-01-01", "-o", str(archive), "--database-url", url]) == 0
    assert not list(archive.glob("*.json"))
    assert main(["replay", "export", "--all", "--since", "2020-01-01", "-o", str(archive), "--database-url", url]) == 0
    files = sorted(archive.glob("*.json"))
    assert [f.stem for f in files] == ended
    # One file damaged after the export: its match must stay in the store.
    damaged = files[0]
    document = msgspec.json.decode(damaged.read_bytes())
    document["events"][3]["data"] += " "
    damaged.write_bytes(msgspec.json.encode(document))
    capsys.readouterr()

    assert main(["prune", "--archive", str(archive), "--dry-run", "--database-url", url]) == 0
    assert "would delete 2 matches, kept 1" in capsys.readouterr().out
    assert listed(url, capsys).keys() == set(before)
    assert main(["prune", "--archive", str(archive), "--database-url", url]) == 0
    assert "deleted 2 matches, kept 1" in capsys.readouterr().out
    assert set(listed(url, capsys)) == {damaged.stem, running}
    assert set(listed(url, capsys, "--ruleset", "card_monsters")) == {damaged.stem, running}  # its index too
    assert set(asyncio.run(last_events(url))) == {damaged.stem, running}
    assert asyncio.run(versions(url, [f.stem for f in files[1:]])) == [0, 0]

    assert main(["replay", "import", *map(str, files[1:]), "--database-url", url]) == 0
    imported = capsys.readouterr().out
    assert all(f"imported: {f.stem}" in imported for f in files[1:]) and "2 of 2 replay files stored" in imported
    assert asyncio.run(last_events(url)) == before
    assert listed(url, capsys) == {**{m: "ended" for m in ended}, running: "running"}
    assert listed(url, capsys, "--ruleset", "card_monsters") == listed(url, capsys)
    # A folder stands for its files (an archive of 100,000 matches is more than a shell passes as arguments).
    assert main(["replay", "import", str(archive), "--database-url", url]) == 1
    summary = capsys.readouterr().out
    assert "2 of 3 replay files stored" in summary and "1 refused" in summary
    assert all(f"already stored: {f.stem}" in summary for f in files[1:])
