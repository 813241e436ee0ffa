"""The buffer of this process's last commits answers reads only where it holds every position asked for."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from eventstore.model import EventMeta, RecordedEvent
from eventstore.recent import RecentEvents

META = EventMeta("c", "0", datetime(2026, 1, 1, tzinfo=UTC))


def event(position: int) -> RecordedEvent:
    return RecordedEvent(position, "s", position, "T", b"{}", META, b"")


def positions(found: list[RecordedEvent] | None) -> list[int] | None:
    return None if found is None else [e.position for e in found]


def test_a_read_runs_on_to_the_first_gap_and_a_position_not_held_is_none() -> None:
    recent = RecentEvents()
    recent.add(2, (event(p) for p in (3, 4, 5)))
    recent.add(7, (event(p) for p in (8, 9)))  # 6 and 7: another process's commit
    assert positions(recent.read(3, 100)) == [3, 4, 5]
    assert positions(recent.read(4, 1)) == [4]
    assert positions(recent.read(8, 100)) == [8, 9]
    assert recent.read(6, 100) is None
    assert recent.read(2, 100) is None
    assert recent.read(10, 100) is None


def test_evicted_positions_go_to_the_database() -> None:
    recent = RecentEvents(capacity=4)
    recent.add(0, (event(p) for p in range(1, 11)))
    assert recent.read(6, 100) is None
    assert positions(recent.read(7, 100)) == [7, 8, 9, 10]


@given(st.lists(st.booleans(), min_size=1, max_size=60), st.integers(1, 70), st.integers(1, 10))
def test_a_read_is_exactly_the_held_run_from_its_position(kept: list[bool], start: int, limit: int) -> None:
    held = [p for p, keep in enumerate(kept, start=1) if keep]
    recent = RecentEvents()
    recent.add(0, (event(p) for p in held))
    expected = None
    if start in held:
        expected = [start]
        while len(expected) < limit and expected[-1] + 1 in held:
            expected.append(expected[-1] + 1)
    assert positions(recent.read(start, limit)) == expected


def test_events_the_database_no_longer_has_are_dropped() -> None:
    recent = RecentEvents()
    recent.add(0, (event(p) for p in (1, 2, 3)))
    recent.add(1, ())  # the next transaction found the head at 1: events 2 and 3 are gone
    assert positions(recent.read(1, 100)) == [1]
    assert recent.read(2, 100) is None


@given(
    st.lists(st.tuples(st.booleans(), st.sampled_from("ABC")), min_size=1, max_size=60),
    st.integers(1, 70),
    st.integers(1, 5),
)
def test_a_scan_is_the_held_run_from_its_position_filtered_up_to_a_full_type(
    kept: list[tuple[bool, str]], start: int, limit: int
) -> None:
    held = {p: type_ for p, (keep, type_) in enumerate(kept, start=1) if keep}
    recent = RecentEvents()
    recent.add(0, (typed(p, t) for p, t in held.items()))
    found = recent.scan(start, ("A", "B"), limit)
    if start not in held:
        assert found is None
        return
    assert found is not None
    run = [start]
    while run[-1] + 1 in held:
        run.append(run[-1] + 1)
    counts = {"A": 0, "B": 0}
    wanted, through, more = [], run[-1], False
    for p in run:
        if held[p] in counts:
            wanted.append(p)
            counts[held[p]] += 1
            if counts[held[p]] == limit:
                through, more = p, p != run[-1]
                break
    assert (positions(found.events), found.through, found.more) == (wanted, through, more)


def typed(position: int, type_: str) -> RecordedEvent:
    return RecordedEvent(position, "s", position, type_, b"{}", META, b"")


def test_where_another_processs_commits_end_is_the_next_held_position() -> None:
    recent = RecentEvents()
    assert recent.next_held(1) is None
    recent.add(2, (event(p) for p in (3, 4)))
    recent.add(6, (event(p) for p in (7, 8)))  # 5 and 6: another process's commit
    assert [recent.next_held(p) for p in range(1, 10)] == [3, 3, None, None, 7, 7, None, None, None]


def test_events_read_from_the_database_fill_the_gaps_among_those_held() -> None:
    recent = RecentEvents(capacity=7)
    recent.add(2, (event(p) for p in (3, 4)))
    recent.add(6, (event(p) for p in (7,)))  # 5 and 6: another process's commit
    recent.fill(event(p) for p in (4, 5, 6, 8, 9))
    assert positions(recent.read(3, 100)) == [3, 4, 5, 6, 7, 8, 9]
    recent.fill(event(p) for p in (1, 2))  # older than every held event of a full buffer: not kept
    assert recent.read(2, 100) is None
    recent.fill([event(10)])  # the oldest goes
    assert recent.read(3, 100) is None and positions(recent.read(4, 100)) == [4, 5, 6, 7, 8, 9, 10]
    held, others = recent.within(4, 100)
    assert (held, positions(others)) == ([4, 5, 6, 7, 8, 9, 10], [5, 6, 8, 9, 10])


def test_the_other_processes_events_held_are_told_from_this_ones_own() -> None:
    recent = RecentEvents(capacity=6)
    recent.add(0, (event(p) for p in (1, 2)))
    recent.fill(event(p) for p in (3, 4))  # another process's commit, read here
    recent.add(4, [event(5)])
    recent.fill([event(6)])
    assert recent.within(1, 100) == ([1, 2, 3, 4, 5, 6], [event(3), event(4), event(6)])
    assert recent.within(5, 100) == ([5, 6], [event(6)])
    assert recent.within(7, 100) == ([], [])
    recent.add(6, [event(7)])  # the buffer is full: the oldest goes, own or not
    recent.add(3, [event(4)])  # the database was restored under the store: what it no longer has goes
    assert recent.within(1, 100) == ([2, 3, 4], [event(3)])


@given(
    st.lists(st.sampled_from(["own", "read", "not held"]), min_size=1, max_size=16),
    st.integers(1, 18),
    st.integers(0, 8),
)
def test_a_range_is_told_by_the_positions_held_and_the_other_processes_events_among_them(
    kinds: list[str], start: int, span: int
) -> None:
    """What a read of a range takes from memory, and which positions it leaves out of its query."""
    recent = RecentEvents()
    for position, kind in enumerate(kinds, start=1):
        if kind == "own":
            recent.add(position - 1, [event(position)])
        elif kind == "read":
            recent.fill([event(position)])
    through = start + span
    inside = list(enumerate(kinds, start=1))[start - 1 : through]
    held, others = recent.within(start, through)
    assert held == [p for p, kind in inside if kind != "not held"]
    assert positions(others) == [p for p, kind in inside if kind == "read"]
    assert recent.holds(start, through) == (through <= len(kinds) and all(k != "not held" for _, k in inside))
