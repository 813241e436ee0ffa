"""Puts tournaments on a server: the manager, the results projection and ``TournamentService``."""

from __future__ import annotations

import logging

import grpc

from eventstore import AsyncEventStore
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.core.clock import Clock
from services.matches import MatchManager
from services.readmodels.lead import Lead
from services.tournament.clocks import TournamentClocks
from services.tournament.embargo import TournamentEmbargo
from services.tournament.feed import Changes
from services.tournament.listing import Listing
from services.tournament.manager import TournamentManager
from services.tournament.results import Results
from services.tournament.servicer import TournamentServicer

log = logging.getLogger(__name__)

SERVICE_NAME = tpb.DESCRIPTOR.services_by_name["TournamentService"].full_name
SETTLE_SECONDS = 10.0
"""How long a tournament call waits for the results of the matches that ended before it (on several instances,
a lease more)."""


class Tournaments:
    def __init__(
        self,
        manager: TournamentManager,
        results: Results,
        listing: Listing,
        clocks: TournamentClocks,
        changes: Changes,
        servicer: TournamentServicer,
    ) -> None:
        self.manager, self.results, self.listing, self.clocks = manager, results, listing, clocks
        self.changes = changes
        self.servicer = servicer
        """What the Connect edge serves as ``TournamentService``."""
        self.embargo = TournamentEmbargo(manager)
        """What the match service asks before it shows a stored match's replay."""

    async def stop(self) -> None:
        await self.clocks.stop()
        await self.results.stop()
        await self.listing.stop()
        await self.changes.stop()


async def attach(
    server: grpc.aio.Server,
    store: AsyncEventStore,
    matches: MatchManager,
    admin_token: str | None,
    clock: Clock | None = None,
    lead: Lead | None = None,
) -> Tournaments:
    """``clock`` runs the tournaments' deadlines (tests move one by hand); ``lead``: the results, the list and
    the deadlines follow the store only on the instance that leads the projections (None: on this one)."""
    manager = TournamentManager(store, matches)
    results = Results(store, manager, lead)
    listing = Listing(store, lead)
    clocks = TournamentClocks(store, manager, listing, clock, lead)

    # Where another instance may lead the projections, its death leaves them to a survivor within a lease.
    patience = SETTLE_SECONDS + (lead.seconds + lead.every if lead is not None and lead.leased else 0.0)

    async def settled() -> None:
        # The ends this instance is still recording first (as ListMatches does), then every end up to the head.
        await matches.ends.recorded()
        if not await results.caught_up(await store.head(), patience):
            log.warning("tournament results are more than %.0f s behind the matches; answering as they are", patience)

    changes = Changes(store)
    servicer = TournamentServicer(manager, admin_token, settled, listing, changes)
    # The generated registration function carries no annotations.
    tpb_grpc.add_TournamentServiceServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]
    await results.start()
    await listing.start()
    await clocks.start()
    return Tournaments(manager, results, listing, clocks, changes, servicer)
