"""The shared projections run on one instance at a time (``services/readmodels/lead.py``): whichever finds the
lead free takes it, another takes it once it is given up or runs out, and the others wait on its checkpoint."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from eventstore import AsyncEventStore, RecordedEvent, migrate, open_store
from eventstore.leases import PostgresLeases, leases_of
from services.readmodels.lead import Lead
from services.readmodels.projector import CHECKPOINT_KEY, Projector
from tests.eventstore.conftest import command, events
from tests.postgres import throwaway_database

pytestmark = pytest.mark.postgres

LEASE = 30.0
EVERY = 1.0
MOMENT = 1e-6
"""Seconds: a lease that has run out by the time anyone looks."""


@pytest.fixture
def database_url() -> Iterator[str]:
    with throwaway_database("duelhall_lead") as url:
        migrate(url)
        yield url


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[AsyncEventStore]:
    opened = await open_store(database_url)
    try:
        yield opened
    finally:
        await opened.close()


def leases(store: AsyncEventStore) -> PostgresLeases:
    found = leases_of(store)
    assert found is not None
    return found


async def claimed_in_turn(store: AsyncEventStore) -> tuple[Lead, Lead]:
    """Two instances' leads, each having claimed once, the first first: it leads."""
    first, second = Lead(leases(store), LEASE, EVERY), Lead(leases(store), LEASE, EVERY)
    await first.claim(leases(store))
    await second.claim(leases(store))
    return first, second


async def test_one_instance_leads_and_another_takes_the_lead_once_it_is_given_up_or_runs_out(
    store: AsyncEventStore,
) -> None:
    first, second = await claimed_in_turn(store)
    assert (first.held, second.held) == (True, False)
    await first.claim(leases(store))  # renewed by its holder
    assert first.held
    await first.stop()  # given up
    await second.claim(leases(store))
    assert (first.held, second.held) == (False, True)
    short = Lead(leases(store), LEASE, EVERY)
    second.seconds = MOMENT  # its next renewal runs out at once: as if it had died
    await second.claim(leases(store))
    await short.claim(leases(store))
    assert short.held
    # A match's takeover never takes the lead, which names no match.
    assert await leases(store).take_over("someone", LEASE, 10) == set()


class Seen:
    """A projection of every event of type A, in memory."""

    name = "seen"
    checkpoint_table = "test_seen"
    types: tuple[str, ...] = ("A",)

    def __init__(self) -> None:
        self.positions: list[int] = []

    async def project(self, recorded: RecordedEvent) -> bool:
        self.positions.append(recorded.position)
        return False


async def test_an_instance_that_does_not_lead_projects_nothing_and_waits_on_the_leads_checkpoint(
    store: AsyncEventStore,
) -> None:
    holder, other = await claimed_in_turn(store)
    seen = Seen()
    projector = Projector(store, seen, 100, lead=other)
    await projector.catch_up()
    projector.start()
    try:
        await store.append("s", 0, events("A", "B"), command("c1"))
        head = await store.head()
        assert not await projector.caught_up(head, 0.2)  # nobody moved the stored checkpoint
        await store.rows.put(seen.checkpoint_table, CHECKPOINT_KEY, str(head).encode())  # as the lead does
        assert await projector.caught_up(head, 30)
        assert seen.positions == []
        await holder.stop()
        await other.claim(leases(store))  # the lead passes here: it resumes from the stored checkpoint
        await store.append("s", 2, events("A"), command("c2"))
        assert await projector.caught_up(await store.head(), 30)
        assert seen.positions == [await store.head()]
    finally:
        await projector.stop()
