"""A real replay of an ended match, exported from a SQLite store through the match manager."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
import pytest

from engine.registry import RULESETS
from eventstore import migrate, open_store
from replays import storage
from replays.format import decode_replay, encode_replay
from services.cli import games
from services.matches.manager import MatchManager
from tests.replays.rewritten import as_format_1


async def _played(url: str) -> bytes:
    migrate(url)
    store = await open_store(url)
    try:
        summary = await games.play_with_store(
            MatchManager(store), RULESETS["card_monsters"], 1, 4, "random", None, lambda: None
        )
        return await storage.export(store, summary.games[0].match_id, include_seed=True)
    finally:
        await store.close()


@pytest.fixture(scope="session")
def replay_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path: Path = tmp_path_factory.mktemp("replay") / "store.db"
    return asyncio.run(_played(f"sqlite:///{path}"))


@pytest.fixture(scope="session")
def old_replay_bytes(replay_bytes: bytes) -> bytes:
    """The fixture's replay as a format-1 file (``as_format_1``), without the ``chain`` fields it never had."""
    document = msgspec.json.decode(encode_replay(as_format_1(decode_replay(replay_bytes))))
    for event in document["events"]:
        del event["chain"]
    return msgspec.json.format(msgspec.json.encode(document), indent=1)
