"""Bot seats as a match records them: which seats the server plays, at which level, and from which seed.

A bot seat is a seat entry of kind ``bot`` with a level of ``engine.bots.LEVELS``; the creating command's payload
records both (``creation.requested``), so the replay names its bots. The seat gets no token: only the server plays
it. Its levels are also a secret of the stream (``bot_seats``), read with the others when the match loads, so a
restarted server knows whom it plays without reading the command log.

A bot's seed is derived from the match seed (``bot_seed``): hidden while the seed is, and checkable by anyone once
the replay reveals it. Each decision draws from its own seed, keyed by the version it is taken at
(``decision_seed``), so two instances driving the same seat choose the same command under the same id.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Protocol

import msgspec

from engine.bots import LEVELS
from engine.seating import OPEN
from services.core.errors import InvalidArgument
from services.readmodels.matchrows import BOT

PLAYER = "player"
SECRET = "bot_seats"


class Seated(Protocol):
    """What of a seat entry this module reads (``creation.SeatEntry``)."""

    @property
    def kind(self) -> str: ...

    @property
    def bot_level(self) -> str: ...


def check(seats: Sequence[Seated]) -> None:
    """Refuses a seat of a kind this server cannot seat, or a bot of no known level (``InvalidArgument``)."""
    for index, seat in enumerate(seats):
        if seat.kind == BOT:
            if seat.bot_level not in LEVELS:
                raise InvalidArgument(
                    f"seat {index}: no bot level {seat.bot_level!r}; choose from {', '.join(LEVELS)}",
                    reason="BOT_LEVEL_UNKNOWN",
                    seat=str(index),
                    levels=",".join(LEVELS),
                )
        elif seat.kind not in (PLAYER, OPEN):
            raise InvalidArgument(
                f"seat {index}: seats of kind {seat.kind!r} are not supported", reason="SEAT_KIND_UNSUPPORTED"
            )
        elif seat.bot_level:
            raise InvalidArgument(
                f"seat {index}: bot_level is for bot seats only", reason="BOT_LEVEL_UNEXPECTED", seat=str(index)
            )


def levels(seats: Sequence[Seated]) -> dict[int, str]:
    """The bot seats' levels by seat."""
    return {index: seat.bot_level for index, seat in enumerate(seats) if seat.kind == BOT}


def secrets(bots: Mapping[int, str]) -> dict[str, bytes]:
    """What the creating append stores (nothing without bots: as a match stored before bot seats)."""
    return {SECRET: msgspec.json.encode(dict(bots))} if bots else {}


def stored(hidden: Mapping[str, bytes]) -> dict[int, str]:
    """The bot seats a match was created with, from its stream's secrets."""
    found = hidden.get(SECRET)
    return msgspec.json.decode(found, type=dict[int, str]) if found else {}


def bot_seed(seed: bytes, seat: int) -> bytes:
    """The seed of the bot in ``seat``: HMAC-SHA256 keyed by the match seed (docs/rng.md)."""
    return hmac.new(seed, f"duelhall bot seat {seat}".encode(), hashlib.sha256).digest()


def decision_seed(seed: bytes, seat: int, version: int) -> int:
    """The seed of the bot's decision at ``version`` (the match's version when it decides)."""
    digest = hashlib.sha256(bot_seed(seed, seat) + version.to_bytes(8, "big")).digest()
    return int.from_bytes(digest[:8], "big")
