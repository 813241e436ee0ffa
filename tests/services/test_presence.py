"""Folding a match's presence rows: live instances, dead ones, seats never connected."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from services.matches.presence import STALE, InstanceRow, SeatPresence, folded

CREATED = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return CREATED + timedelta(seconds=seconds)


def test_a_seat_never_connected_is_away_since_the_match_was_created() -> None:
    assert folded(2, CREATED, [], {}, at(100)) == (SeatPresence(0, False, CREATED), SeatPresence(1, False, CREATED))


def test_a_seat_is_connected_since_its_oldest_live_stream_and_away_since_its_last_one_closed() -> None:
    rows = [
        (0, "a", InstanceRow(1, at(10))),
        (0, "b", InstanceRow(2, at(20))),
        (1, "a", InstanceRow(0, at(30))),
        (1, "b", InstanceRow(0, at(40))),
    ]
    beats = {"a": at(99), "b": at(99)}
    assert folded(2, CREATED, rows, beats, at(100)) == (SeatPresence(0, True, at(10)), SeatPresence(1, False, at(40)))


def test_the_streams_of_an_instance_without_a_recent_heartbeat_count_as_gone_since_its_last_one() -> None:
    rows = [(0, "dead", InstanceRow(1, at(10))), (1, "live", InstanceRow(1, at(10)))]
    now = at(50)
    beats = {"dead": now - timedelta(seconds=STALE + 1), "live": now - timedelta(seconds=STALE)}
    assert folded(2, CREATED, rows, beats, now) == (
        SeatPresence(0, False, beats["dead"]),
        SeatPresence(1, True, at(10)),
    )
    assert folded(1, CREATED, [(0, "unknown", InstanceRow(1, at(10)))], {}, now) == (SeatPresence(0, False, at(10)),)


def test_a_bot_seat_is_connected_since_the_match_was_created_whatever_its_rows() -> None:
    rows = [(1, "a", InstanceRow(0, at(30)))]
    assert folded(2, CREATED, rows, {"a": at(99)}, at(100), bots=(1,)) == (
        SeatPresence(0, False, CREATED),
        SeatPresence(1, True, CREATED),
    )


def test_alone_on_its_database_an_instance_counts_an_earlier_ones_fresh_streams_as_gone() -> None:
    rows = [(0, "earlier", InstanceRow(1, at(10))), (1, "this", InstanceRow(1, at(60)))]
    beats = {"earlier": at(99), "this": at(100)}
    assert folded(2, CREATED, rows, beats, at(100), alone="this") == (
        SeatPresence(0, False, at(99)),
        SeatPresence(1, True, at(60)),
    )
    assert folded(2, CREATED, rows, beats, at(100))[0] == SeatPresence(0, True, at(10))
