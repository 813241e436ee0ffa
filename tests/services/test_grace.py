"""The disconnect grace option (``services/matches/grace.py``): taken out of the ruleset's options, checked, recorded
beside them and in the stream's secrets; and which forfeit a match's presence leads to (``grace_timers.due``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine import registry
from services.core.errors import InvalidArgument
from services.matches import grace
from services.matches.creation import SeatEntry, created_match, creation, requested
from services.matches.grace_timers import GraceTimers, due
from services.matches.presence import SeatPresence
from tests.services.clock import ManualClock

SEATS = [SeatEntry("ada", {}), SeatEntry("bob", {})]
AT = datetime(2026, 1, 1, tzinfo=UTC)


def test_the_grace_is_taken_out_of_the_options_and_recorded_beside_them() -> None:
    assert grace.split({"turn_seconds": 60, "disconnect_grace_seconds": 90}) == ({"turn_seconds": 60}, 90)
    assert grace.split({"turn_seconds": 60}) == ({"turn_seconds": 60}, 0)
    recorded = requested("card_monsters", 0, SEATS, {"turn_seconds": 60, "disconnect_grace_seconds": 90}, {}, "public")
    assert recorded["options"] == {"turn_seconds": 60} and recorded["disconnect_grace_seconds"] == 90
    # Without a grace a request records (and fingerprints) as before the option existed.
    assert "disconnect_grace_seconds" not in requested("card_monsters", 0, SEATS, {}, {}, "public")


@pytest.mark.parametrize("value", [-1, 86_401, 1.5, True, "60", None])
def test_a_grace_that_is_not_whole_seconds_from_0_to_a_day_is_refused(value: Any) -> None:
    with pytest.raises(InvalidArgument) as refused:
        grace.split({"disconnect_grace_seconds": value})
    assert refused.value.reason == "DISCONNECT_GRACE_INVALID"


def test_a_match_keeps_its_grace_in_its_secrets() -> None:
    options = {"disconnect_grace_seconds": 45}
    new = creation("card_monsters", 0, SEATS, options, {}, b"", (), "public", "")
    assert grace.stored(new.secrets) == 45 == created_match(new, AT).grace
    plain = creation("card_monsters", 0, SEATS, {}, {}, b"", (), "public", "")
    assert grace.SECRET not in plain.secrets and grace.stored(plain.secrets) == 0


def test_the_forfeit_due_is_for_the_seat_waited_on_that_went_away_first() -> None:
    new = creation("card_monsters", 0, SEATS, {"disconnect_grace_seconds": 60}, {}, b"", (), "public", "")
    hot = created_match(new, AT)
    waits_on = registry.get("card_monsters").to_act(hot.state)[0]
    other = 1 - waits_on
    away = SeatPresence(waits_on, False, AT + timedelta(seconds=5))
    assert due(hot, (away, SeatPresence(other, False, AT))) == (waits_on, hot.version, AT + timedelta(seconds=65))
    assert due(hot, (SeatPresence(waits_on, True, AT), SeatPresence(other, False, AT))) is None
    # Away before the match began to wait on it (its last event): the grace runs from then.
    early = SeatPresence(waits_on, False, AT - timedelta(seconds=300))
    assert due(hot, (early, SeatPresence(other, True, AT))) == (waits_on, hot.version, AT + timedelta(seconds=60))
    hot.bots = {waits_on: "greedy"}
    assert due(hot, (away, SeatPresence(other, False, AT))) is None


class _SlowPresence:
    """A presence whose read returns only when the test lets it (as a loaded store would, after the clock moved)."""

    def __init__(self, seats: tuple[SeatPresence, ...]) -> None:
        self.listeners: list[Any] = []
        self.seats = seats
        self.read = asyncio.Event()

    async def follow(self, *args: Any) -> tuple[SeatPresence, ...]:
        await self.read.wait()
        return self.seats

    def unfollow(self, match_id: str) -> None:
        pass


class _Submitted:
    def __init__(self) -> None:
        self.commands: list[tuple[str, str]] = []
        self.done = asyncio.Event()

    async def submit(self, match_id: str, actor: Any, raw: bytes, command_id: str = "", **_: Any) -> None:
        self.commands.append((match_id, command_id))
        self.done.set()


async def test_a_forfeit_already_due_when_the_presence_is_read_is_submitted_at_once() -> None:
    """A restarted server reads the presence after its clock passed the grace: it must not wait for the clock's next
    tick (a clock moved by hand may make none; this hung an end-to-end test)."""
    new = creation("card_monsters", 0, SEATS, {"disconnect_grace_seconds": 60}, {}, b"", (), "public", "")
    hot = created_match(new, AT)
    waits_on = registry.get("card_monsters").to_act(hot.state)[0]
    presence = _SlowPresence((SeatPresence(waits_on, False, AT), SeatPresence(1 - waits_on, True, AT)))
    clock = ManualClock(AT)
    submitted = _Submitted()
    timers = GraceTimers(submitted, presence, clock)  # type: ignore[arg-type]
    timers.arm(hot)
    clock.advance(61)  # past the grace, before the read returns
    presence.read.set()
    await asyncio.wait_for(submitted.done.wait(), 10)
    assert submitted.commands == [(hot.match_id, f"disconnected-{waits_on}-{hot.version}")]
    timers.close()
