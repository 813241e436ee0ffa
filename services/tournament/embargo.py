"""The embargo on the replays of a tournament's matches (``services/edge/embargo.py``): a match labelled with a
tournament is under it until that tournament ends or its organiser publishes the replays (``ReplaysPublished``)."""

from __future__ import annotations

from collections.abc import Mapping

from services.core.errors import NotFound
from services.tournament.manager import TournamentManager


class TournamentEmbargo:
    def __init__(self, tournaments: TournamentManager) -> None:
        self._tournaments = tournaments

    async def holds(self, labels: Mapping[str, str]) -> bool:
        tournament_id = labels.get("tournament")
        if tournament_id is None:
            return False
        try:
            state = await self._tournaments.load(tournament_id)
        except NotFound:  # a label naming no tournament of this server: nothing to protect
            return False
        return state.embargoed
