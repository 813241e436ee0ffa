"""Game results straight from finished matches: a projection of the match lifecycle with a checkpoint.

It follows the lifecycle (services/lifecycle.py) from the position after its checkpoint; each ended match
labelled with a tournament is exported with its seed and verified (replays/verify.py) off the event loop.
A match that verifies becomes the game's result; one that does not is recorded as unverified and never
counted. Appends carry the command id ``game-<match id>``, so a change handled twice, by a restart before the
checkpoint moved or by a second instance, appends nothing the second time.
"""

from __future__ import annotations

import asyncio
import logging

import msgspec

from eventstore import AsyncEventStore, StoreError
from replays import storage as replay_io
from replays.verify import verify_bytes
from services import lifecycle
from services.errors import ServiceError
from services.tasks import cancel
from services.tournament import decide
from services.tournament.events import Event
from services.tournament.manager import TournamentManager
from services.tournament.state import Tournament

log = logging.getLogger(__name__)

CHECKPOINTS = "tournament_results"
CHECKPOINT_KEY = "position"
RETRY_SECONDS = 1.0
"""After an unexpected failure (the database gone a moment), resume from the checkpoint this much later."""


class Results:
    """Feeds game results into tournaments; ``start`` runs it until ``stop``."""

    def __init__(self, store: AsyncEventStore, tournaments: TournamentManager) -> None:
        self._store = store
        self._tournaments = tournaments
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            await cancel(self._task)

    async def checkpoint(self) -> int:
        """The position of the last lifecycle change handled (0: none)."""
        stored = await self._store.rows.get(CHECKPOINTS, CHECKPOINT_KEY)
        return 0 if stored is None else int(stored)

    async def _run(self) -> None:
        while True:
            try:
                await self._follow()
            except StoreError as exc:  # the database gone a moment: no bug, no traceback
                log.warning("tournament results paused: %s; resuming from the checkpoint", exc)
                await asyncio.sleep(RETRY_SECONDS)
            except Exception:
                log.exception("tournament results stopped; resuming from the checkpoint")
                await asyncio.sleep(RETRY_SECONDS)
            else:
                return

    async def _follow(self) -> None:
        """Until the store closes: each change handled, then the checkpoint moved past it."""
        async for change in lifecycle.changes(self._store, await self.checkpoint() + 1, kinds=(lifecycle.ENDED,)):
            if "tournament" not in change.labels:
                continue
            try:
                await self.handle(change)
            except ServiceError as exc:
                log.warning("match %s not counted: %s", change.match_id, exc.message)
            await self._store.rows.put(CHECKPOINTS, CHECKPOINT_KEY, str(change.position).encode())

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
                lambda t: decide.refuse_game(
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
            return decide.record_game(state, round_, table, game, generation, change.match_id, winner)

        await self._tournaments.execute(
            tournament_id,
            "record_game",
            {"match_id": change.match_id, "outcome": msgspec.to_builtins(outcome)},
            counted,
            command_id=command_id,
        )
