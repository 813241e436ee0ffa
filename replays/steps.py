"""Every version of a replay as one viewer saw it: the event redacted for the viewer, then the viewer's view.

The viewer page steps through these; it never receives an event or a view the viewer may not see.
"""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from engine import registry
from engine.contract import Deadline, Viewer
from engine.match import MATCH_LEVEL, EventDecoder, apply, encode, fold, stored_type, to_act_of, view_of
from replays.format import Replay


class Step(msgspec.Struct, frozen=True):
    version: int
    type: str
    data: bytes
    """The event's JSON, redacted for the viewer."""
    actor: str
    recorded_at: datetime | None
    """In UTC; None when the file's ``recorded_at`` is no ISO 8601 time (it is informational and unchecked)."""
    view: bytes
    """The viewer's view after the event, as JSON."""
    to_act: tuple[int, ...]
    deadline: Deadline | None
    """The clock that ran after the event (from its time), while the match was running."""


def steps(replay: Replay, viewer: Viewer, first: int = 1, most: int = 0) -> list[Step]:
    """One step per event of ``replay`` (which must have passed the fold check), in version order: from version
    ``first``, at most ``most`` of them (0: all). Every event is folded; only the steps sent are redacted."""
    ruleset = registry.exact(replay.ruleset.id, replay.ruleset.version, replay.ruleset.card_data_hash)
    decoder = EventDecoder(ruleset)
    actors = {}
    for command in replay.commands:
        for version in range(command.first_version, command.last_version + 1):
            actors[version] = command.actor
    found: list[Step] = []
    match = None
    for recorded in replay.events:
        if most and len(found) == most:
            break
        event = decoder.decode(recorded.type, recorded.data)
        match = fold(ruleset, [event]) if match is None else apply(ruleset, match, [event])
        if recorded.version < first:
            continue
        state = match.state
        data = recorded.data.encode() if recorded.type in MATCH_LEVEL else encode(ruleset.redact(event, viewer))
        running = not match.seating and ruleset.outcome(state) is None
        found.append(
            Step(
                version=recorded.version,
                type=stored_type(ruleset, event),  # today's schema: the data is redacted and encoded anew
                data=data,
                actor=actors.get(recorded.version, "system"),
                recorded_at=recorded_time(recorded.recorded_at),
                view=encode(view_of(ruleset, match, viewer)),
                to_act=to_act_of(ruleset, match),
                deadline=ruleset.deadline(state) if running else None,
            )
        )
    return found


def recorded_time(text: str) -> datetime | None:
    """A replay event's time in UTC (a time without an offset is taken as UTC), None if it is none."""
    try:
        at = datetime.fromisoformat(text)
        return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
