"""The disconnect grace a match was created with: the match option ``disconnect_grace_seconds`` (0 or absent: off).

It is the server's option, not the ruleset's: it rides in the options JSON beside the ruleset's own (so every
client and tournament passes it the same way), is taken out before the ruleset sees them, and is recorded on its
own in the creating command (``creation.requested``), where replays keep it, and as a secret of the stream, read
with the others when the match loads (as the caster delay is). The timer that acts on it is
``services/matches/grace_timers.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.errors import InvalidArgument

OPTION = "disconnect_grace_seconds"
MAX_SECONDS = 86_400
"""The longest grace a match takes, in seconds (a day)."""
SECRET = "disconnect_grace"


def split(options: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The ruleset's options and the grace in seconds; ``InvalidArgument`` (``DISCONNECT_GRACE_INVALID``) for a grace
    that is not a whole number of seconds from 0 to ``MAX_SECONDS``."""
    rest = {name: value for name, value in options.items() if name != OPTION}
    seconds = options.get(OPTION, 0)
    # JSON true is not a number of seconds (bool is an int in Python).
    if type(seconds) is not int or not 0 <= seconds <= MAX_SECONDS:
        raise InvalidArgument(
            f"{OPTION} must be a whole number of seconds from 0 (off) to {MAX_SECONDS}, not {seconds!r}",
            reason="DISCONNECT_GRACE_INVALID",
        )
    return rest, seconds


def secrets(seconds: int) -> dict[str, bytes]:
    """What the creating append stores (nothing without a grace: as a match stored before it existed)."""
    return {SECRET: str(seconds).encode()} if seconds else {}


def stored(hidden: Mapping[str, bytes]) -> int:
    """The grace a match was created with, from its stream's secrets."""
    return int(hidden.get(SECRET, b"0"))
