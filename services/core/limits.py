"""Bounds on what a request names or sends: command ids and versions the store can hold, names, texts and files,
checked before the store (or the work) sees them."""

from __future__ import annotations

from services.core.errors import InvalidArgument

MAX_VERSION = 2**31 - 1
"""The largest stream version the store holds."""
MAX_COMMAND_ID = 128
"""Also what replay verification allows (``replays/verify.py``)."""
MAX_NAME = 100
"""A player's name (a seat's, a tournament player's, a tournament's): every listing of it repeats it."""
MAX_AUDIT = 200
"""Characters of who took an organiser's action and of why: kept in its event, which every read of the stream
repeats."""
MAX_VIEWED_REPLAY = 4 * 1024 * 1024
"""Bytes of a replay file ``ViewReplay`` takes: its answer holds every version's view, about ten times the file
(a long duel's 3.8 MB file: some 40 MB), and the verification and views before it grow with the file too."""
MAX_LABELS = 32
MAX_LABEL = 100
"""Characters of a label's key and of its value."""


def version(value: int, what: str) -> int:
    """A version a client asks for (``min_version``, ``from_version``): 0 up to ``MAX_VERSION``."""
    if not 0 <= value <= MAX_VERSION:
        raise InvalidArgument(f"{what} must be 0 to {MAX_VERSION}, not {value}", reason="VERSION_OUT_OF_RANGE")
    return value


def position(value: int, what: str) -> int:
    """A global position a client asks for (``from_position``): 0 or more (0 and 1 both mean the start)."""
    if value < 0:
        raise InvalidArgument(f"{what} must be 0 or more, not {value}", reason="POSITION_OUT_OF_RANGE")
    return value


def printable(text: str, most: int, what: str, reason: str, **details: str) -> str:
    """``text`` if it is at most ``most`` printable characters, else ``InvalidArgument(reason)``."""
    if len(text) > most or not text.isprintable():
        raise InvalidArgument(f"{what} must be at most {most} printable characters", reason=reason, **details)
    return text


def command_id(text: str) -> str:
    """A client's command id: up to 128 printable characters ('' lets the server pick one)."""
    return printable(text, MAX_COMMAND_ID, "command_id", "COMMAND_ID_INVALID")


def request_id(text: str) -> str:
    """A client's ``CreateMatch.request_id``: up to 128 printable characters ('' for none)."""
    return printable(text, MAX_COMMAND_ID, "request_id", "REQUEST_ID_INVALID")


def name(text: str, what: str, reason: str, **details: str) -> str:
    """A name the server stores and lists: at most ``MAX_NAME`` printable characters."""
    return printable(text, MAX_NAME, what, reason, **details)


def viewed_replay(data: bytes) -> bytes:
    """A replay file for ``ViewReplay``: at most ``MAX_VIEWED_REPLAY`` bytes (metadata ``limit``)."""
    if len(data) > MAX_VIEWED_REPLAY:
        raise InvalidArgument(
            f"the replay file is {len(data):,} bytes; ViewReplay takes at most {MAX_VIEWED_REPLAY >> 20} MiB "
            f"({MAX_VIEWED_REPLAY:,} bytes)",
            reason="REPLAY_TOO_LARGE",
            limit=str(MAX_VIEWED_REPLAY),
        )
    return data


def labels(found: dict[str, str]) -> dict[str, str]:
    """A match's labels: at most ``MAX_LABELS``, keys of 1 and values of 0 to ``MAX_LABEL`` printable characters."""
    if len(found) > MAX_LABELS or any(
        not 0 < len(key) <= MAX_LABEL or len(value) > MAX_LABEL or not (key + value).isprintable()
        for key, value in found.items()
    ):
        raise InvalidArgument(
            f"labels are at most {MAX_LABELS}, each key 1 and each value 0 to {MAX_LABEL} printable characters",
            reason="LABELS_INVALID",
        )
    return found


MAX_STREAMS = 10_000
"""Streams (watches, ``Play``, lifecycle) a server holds open by default. Each holds a task, a mailbox and gRPC's
buffers; past the bound a client hears RESOURCE_EXHAUSTED rather than the process running out of memory."""

LEASE_SECONDS = 10.0
"""How long a match's lease lasts without renewal (``serve --lease-seconds``, services/matches/ownership.py): the
longest a dead instance's matches wait for a survivor, plus one heartbeat."""
