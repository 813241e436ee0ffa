"""Every ruleset plays to the end through a real server, bots decoding views and commands with its types."""

from __future__ import annotations

import grpc
import pytest

from engine.registry import RULESETS
from services.cli import games


@pytest.mark.parametrize(
    ("ruleset_id", "players"), [("card_monsters", 2), ("duel", 2), ("aq", 3), ("voidlink", 2), ("wulin", 2)]
)
@pytest.mark.parametrize("bot", ["random", "greedy"])
async def test_selfplay_through_the_server_finishes(
    channel: grpc.aio.Channel, ruleset_id: str, players: int, bot: str
) -> None:
    summary = await games.play_through_server(
        channel, RULESETS[ruleset_id], 2, 5, bot, players, lambda: None, concurrency=2
    )
    assert summary.finished == 2
    assert all(game.commands > 0 and game.events > game.commands for game in summary.games)
