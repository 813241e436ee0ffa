"""What the match domain answers: a created match, a command's result, a view, a seat's decision.

The edge (``services/edge/wire.py``) and the watch feed convert these; neither needs the manager that makes
them.
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from engine.contract import Viewer
from engine.match import encode
from services.matches.hot import HotMatch
from services.readmodels.matchrows import MatchRow


class Created(msgspec.Struct, frozen=True):
    row: MatchRow
    tokens: list[str]
    spectator_token: str = ""
    """Under the ``token`` spectator policy, the token that opens the spectator's view."""
    caster_token: str = ""
    """With a caster delay, the token that opens the caster feed."""


class RedactedEvent(msgspec.Struct, frozen=True):
    """One event as one viewer may see it: ``data`` is its JSON, redacted for that viewer."""

    version: int
    type: str
    data: bytes
    actor: str
    recorded_at: datetime


class Submitted(msgspec.Struct, frozen=True):
    """Everything the reply to a command needs, taken under the match's lock."""

    events: list[RedactedEvent]
    """The command's events as the submitter may see them."""
    version: int
    duplicate: bool
    to_act: tuple[int, ...]


class Viewed(msgspec.Struct, frozen=True):
    """What a viewer sees of a match now."""

    viewer: Viewer
    version: int
    view: bytes
    to_act: tuple[int, ...]


class Decision(msgspec.Struct, frozen=True):
    """What a seat needs to act now: its legal commands (JSON), and its view when asked for."""

    seat: int
    version: int
    commands: list[bytes]
    view: bytes | None
    to_act: tuple[int, ...]


def decision(hot: HotMatch, seat: int, include_view: bool) -> Decision:
    """A seat's legal commands (and view) on the match as it is now."""
    ruleset, state = hot.ruleset, hot.state
    view = encode(ruleset.view(state, seat)) if include_view else None
    return Decision(
        seat, hot.version, [encode(c) for c in ruleset.legal_commands(state, seat)], view, ruleset.to_act(state)
    )
