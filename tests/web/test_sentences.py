"""The event log as sentences: the share of log lines that fall back to the raw ``type, field value`` text.

The page (services/web/static/sentences.js) uses the first template of the event's type whose ``{field}``
placeholders are all set (not null) in the event as the viewer got it; an event without one is drawn raw. This
measures that rule over seeded self-play matches, as every seat and the spectator see them.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import msgspec
import pytest

from engine import registry, selfplay
from engine.bots import GreedyBot, RandomBot
from engine.contract import Ruleset
from services.cli.games import match_seed

RULESETS = ("card_monsters", "duel", "aq", "voidlink", "wulin")
GAMES = 6
MOST_RAW = 0.0
"""The share of raw lines a ruleset's layout may leave: none, in these seeded matches."""
PLACEHOLDER = re.compile(r"\{([\w.]+)\}")


def templates(ruleset: Ruleset) -> dict[str, list[str]]:
    layout = json.loads(resources.files(f"engine.rulesets.{ruleset.id}").joinpath("layout.json").read_text())
    return {kind: [found] if isinstance(found, str) else found for kind, found in layout.get("events", {}).items()}


def value(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data.get(part) if isinstance(data, dict) else None
    return data


def is_sentence(by_type: dict[str, list[str]], data: dict[str, Any]) -> bool:
    """True when some template of the event's type has every placeholder set, as sentences.js picks one."""
    return any(
        all(value(data, key) is not None for key in PLACEHOLDER.findall(template))
        for template in by_type.get(data["type"], [])
    )


def raw_lines(ruleset: Ruleset, game: int) -> tuple[int, int, set[str]]:
    """(raw lines, lines, the raw lines' types) of one seeded match, seen by every seat and the spectator."""
    seats = ruleset.min_seats
    bots = [
        RandomBot(game * 10 + seat) if (game + seat) % 2 else GreedyBot(ruleset, game * 10 + seat)
        for seat in range(seats)
    ]
    config: dict[str, Any] = {"seats": [{} for _ in range(seats)], "options": {}}
    played = selfplay.play(ruleset, config, [f"p{seat}" for seat in range(seats)], match_seed(34, game), bots)
    by_type = templates(ruleset)
    raw, lines, types = 0, 0, set[str]()
    # The first event is MatchCreated, which the page words itself.
    for event in played.events[1:]:
        for viewer in [None, *range(seats)]:
            data = msgspec.to_builtins(ruleset.redact(event, viewer))
            lines += 1
            if not is_sentence(by_type, data):
                raw += 1
                types.add(data["type"])
    return raw, lines, types


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_almost_every_log_line_reads_as_a_sentence(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    raw, lines, types = 0, 0, set[str]()
    for game in range(GAMES):
        more, seen, kinds = raw_lines(ruleset, game)
        raw, lines, types = raw + more, lines + seen, types | kinds
    print(f"{ruleset_id}: {raw} of {lines} log lines raw ({raw / lines:.2%}): {sorted(types)}")
    assert raw / lines <= MOST_RAW, f"{raw} of {lines} lines raw ({raw / lines:.2%}), types {sorted(types)}"
