"""Game results straight from finished matches: a projection of the match lifecycle with a checkpoint.

It follows the ends of the match lifecycle (services/readmodels/lifecycle.py) through a projector
(services/readmodels/projector.py), from the position after its checkpoint; each ended match labelled with a
tournament is exported with its seed and verified (replays/verify.py) off the event loop. A match that verifies
becomes the game's result; one that does not is recorded as unverified and never counted. Appends carry the
command id ``game-<match id>``, so a change handled twice, by a restart before the checkpoint moved or by a
second instance, appends nothing the second time.
"""

from __future__ import annotations

import asyncio
import logging

import msgspec

from eventstore import AsyncEventStore, RecordedEvent
from replays import storage as replay_io
from replays.verify import verify_bytes
from services.core.errors import ServiceError
from services.readmodels import lifecycle
from services.readmodels.lead import Lead
from services.readmodels.projector import Projector
from services.tournament import series
from services.tournament.events import Event
from services.tournament.manager import TournamentManager
from services.tournament.state import Tournament

log = logging.getLogger(__name__)

CHECKPOINTS = "tournament_results"
RETRY_SECONDS = 1.0
"""After an unexpected failure (the database gone a moment), resume this much later."""
CHECKPOINT_EVERY = 1000
"""Events read without a tournament's match ending before the checkpoint moves anyway: a restart reads at most
these again, not every event since the last tournament game."""


class Results:
    """Feeds game results into tournaments (a ``Projection``); ``start`` runs it until ``stop``."""

    name = "tournament results"
    checkpoint_table = CHECKPOINTS
    types: tuple[str, ...] = (lifecycle.MATCH_ENDED,)

    def __init__(self, store: AsyncEventStore, tournaments: TournamentManager, lead: Lead | None = None) -> None:
        self._store = store
        self._tournaments = tournaments
        self._projector = Projector(store, self, CHECKPOINT_EVERY, RETRY_SECONDS, lead)

    async def start(self) -> None:
        self._projector.start()

    async def stop(self) -> None:
        await self._projector.stop()

    async def checkpoint(self) -> int:
        """The position of the last lifecycle change handled (0: none)."""
        return await self._projector.checkpoint()

    async def caught_up(self, position: int, timeout: float) -> bool:
        """Returns once every match that ended at or before ``position`` is counted (or refused); False if that
        took more than ``timeout`` seconds (a long catch-up, a store outage)."""
        return await self._projector.caught_up(position, timeout)

    async def project(self, recorded: RecordedEvent) -> bool:
        """Handles one end; True (the checkpoint moves past it at once) if it was a tournament's match: verifying
        its replay is too dear to do twice."""
        change = await lifecycle.change_of(self._store, recorded)
        if change is None or "tournament" not in change.labels:
            return False
        try:
            await self.handle(change)
        except ServiceError as exc:
            log.warning("match %s not counted: %s", change.match_id, exc.message)
        return True

    async def handle(self, change: lifecycle.Change) -> None:
        """Counts (or refuses) one ended tournament match."""
        labels = change.labels
        try:
            tournament_id = labels["tournament"]
            where = [int(labels[key]) for key in ("round", "table", "game", "pairing")]
        except (KeyError, ValueError):
            return
        round_, table, game, generation = where
        replay = await replay_io.export(self._store, change.match_id, include_seed=True)
        verdict = await asyncio.to_thread(verify_bytes, replay)
        command_id = f"game-{change.match_id}"
        if verdict.failure is not None:
            failure = verdict.failure
            await self._tournaments.execute(
                tournament_id,
                "refuse_game",
                {"match_id": change.match_id},
                lambda t: series.refuse_game(
                    t, round_, table, game, generation, change.match_id, failure.check, failure.message
                ),
                command_id=command_id,
            )
            return
        outcome = change.outcome
        assert outcome is not None

        def counted(state: Tournament) -> list[Event]:
            found = state.round(round_)
            playing = found.table(table) if found is not None else None
            if playing is None or playing.b is None or len(playing.games) < game:
                return []
            seats = playing.seats(playing.games[game - 1])
            winner = None if outcome.draw or not outcome.winners else seats[outcome.winners[0]]
            return series.record_game(state, round_, table, game, generation, change.match_id, winner)

        await self._tournaments.execute(
            tournament_id,
            "record_game",
            {"match_id": change.match_id, "outcome": msgspec.to_builtins(outcome)},
            counted,
            command_id=command_id,
        )
