"""``replay show``: a readable text board of one viewer's view at one step of a replay."""

from __future__ import annotations

from typing import Any

import msgspec

from engine import registry
from engine.contract import Outcome, Viewer
from engine.match import EventDecoder, encode, fold, view_of
from replays.format import Replay


def view_at(replay: Replay, step: int | None, viewer: Viewer) -> tuple[int, Any]:
    """(version, view) after ``step`` events (all of them when None)."""
    ruleset = registry.exact(replay.ruleset.id, replay.ruleset.version, replay.ruleset.card_data_hash)
    decoder = EventDecoder(ruleset)
    last = len(replay.events) if step is None else max(1, min(step, len(replay.events)))
    match = fold(ruleset, [decoder.decode(e.type, e.data) for e in replay.events[:last]])
    return last, view_of(ruleset, match, viewer)


def board(replay: Replay, step: int | None, viewer: Viewer) -> str:
    """Header lines, then the view as an indented tree."""
    version, view = view_at(replay, step, viewer)
    who = "spectator" if viewer is None else f"seat {viewer} ({replay.seats[viewer]})"
    event = replay.events[version - 1]
    lines = [
        f"match {replay.match_id}  ruleset {replay.ruleset.id} v{replay.ruleset.version}",
        f"seats: {', '.join(f'{i}={name}' for i, name in enumerate(replay.seats))}",
        f"step {version}/{len(replay.events)}  last event: {event.type}  as: {who}",
    ]
    if version == len(replay.events) and replay.outcome is not None:
        lines.append(f"outcome: {outcome_text(replay.outcome)}")
    lines.append("")
    lines.extend(_tree(msgspec.json.decode(encode(view)), 0))
    return "\n".join(lines)


def outcome_text(outcome: Outcome) -> str:
    """'seat 0 wins (reason)', 'seats 0+2 win (reason)' or 'draw (reason)'."""
    if outcome.draw:
        return f"draw ({outcome.reason})"
    seats = "+".join(map(str, outcome.winners))
    if len(outcome.winners) == 1:
        return f"seat {seats} wins ({outcome.reason})"
    return f"seats {seats} win ({outcome.reason})"


def _tree(value: Any, depth: int) -> list[str]:
    pad = "  " * depth
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if _is_flat(item):
                lines.append(f"{pad}{key}: {_inline(item)}")
            else:
                lines.append(f"{pad}{key}:")
                lines.extend(_tree(item, depth + 1))
        return lines
    if isinstance(value, list) and not _is_flat(value):
        lines = []
        for item in value:
            if isinstance(item, dict) and all(_is_flat(v) for v in item.values()):
                lines.append(f"{pad}- " + ", ".join(f"{k}: {_inline(v)}" for k, v in item.items()))
            else:
                lines.append(f"{pad}-")
                lines.extend(_tree(item, depth + 1))
        return lines
    return [f"{pad}{_inline(value)}"]


def _is_flat(value: Any) -> bool:
    if isinstance(value, dict):
        return not value
    if isinstance(value, list):
        return all(not isinstance(v, (dict, list)) for v in value)
    return True


def _inline(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_inline(v)}" for k, v in value.items()) + "}"
    return str(value)
