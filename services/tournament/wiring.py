"""Puts tournaments on a server: the manager, the results projection and ``TournamentService``."""

from __future__ import annotations

import grpc

from eventstore import AsyncEventStore
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.manager import MatchManager
from services.tournament.manager import TournamentManager
from services.tournament.results import Results
from services.tournament.servicer import TournamentServicer

SERVICE_NAME = tpb.DESCRIPTOR.services_by_name["TournamentService"].full_name


class Tournaments:
    def __init__(self, manager: TournamentManager, results: Results) -> None:
        self.manager, self.results = manager, results

    async def stop(self) -> None:
        await self.results.stop()


async def attach(
    server: grpc.aio.Server, store: AsyncEventStore, matches: MatchManager, admin_token: str | None
) -> Tournaments:
    manager = TournamentManager(store, matches)
    results = Results(store, manager)
    # The generated registration function carries no annotations.
    tpb_grpc.add_TournamentServiceServicer_to_server(  # type: ignore[no-untyped-call]
        TournamentServicer(manager, admin_token), server
    )
    await results.start()
    return Tournaments(manager, results)
