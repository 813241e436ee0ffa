"""Game results straight from finished matches: a projection of the match lifecycle with a checkpoint.

It follows the lifecycle (services/readmodels/lifecycle.py) from the position after its checkpoint; each ended match
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
from services.core.errors import ServiceError
from services.core.tasks import cancel
from services.readmodels import lifecycle
from services.tournament import decide
from services.tournament.events import Event
from services.tournament.manager import TournamentManager
from services.tournament.state import Tournament

log = logging.getLogger(__name__)

CHECKPOINTS = "tournament_results"
CHECKPOINT_KEY = "position"
RETRY_SECONDS = 1.0
"""After an unexpected failure (the database gone a moment), resume from the checkpoint this much later."""
CHECKPOINT_EVERY = 1000
"""Events read without a tournament's match ending before the checkpoint moves anyway: a restart reads at most
these again, not every event since the last tournament game."""


class Results:
    """Feeds game results into tournaments; ``start`` runs it until ``stop``."""

    def __init__(self, store: AsyncEventStore, tournaments: TournamentManager) -> None:
        self._store = store
        self._tournaments = tournaments
        self._task: asyncio.Task[None] | None = None
        self._read = 0
        """The position up to which every lifecycle change is handled, as far as this process knows."""
        self._saved = 0
        """The checkpoint as last stored."""
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

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

    async def caught_up(self, position: int, timeout: float) -> bool:
        """Returns once every match that ended at or before ``position`` is counted (or refused); False if that
        took more than ``timeout`` seconds (a long catch-up, a store outage)."""
        if self._read >= position:
            return True
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append((position, waiter))
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        finally:
            self._waiters.remove((position, waiter))
        return True

    async def _follow(self) -> None:
        """Until the store closes: each change handled, then the checkpoint moved past it."""
        self._saved = await self.checkpoint()
        self._read = self._saved  # this run re-handles what follows the checkpoint
        ended = (lifecycle.ENDED,)
        async for change in lifecycle.changes(self._store, self._saved + 1, kinds=ended, passed=self._passed):
            if "tournament" not in change.labels:
                continue
            try:
                await self.handle(change)
            except ServiceError as exc:
                log.warning("match %s not counted: %s", change.match_id, exc.message)
            await self._save(change.position)

    async def _passed(self, position: int) -> None:
        if position - self._saved >= CHECKPOINT_EVERY:
            await self._save(position)
        self._read = max(self._read, position)
        for target, waiter in self._waiters:
            if target <= position and not waiter.done():
                waiter.set_result(None)

    async def _save(self, position: int) -> None:
        await self._store.rows.put(CHECKPOINTS, CHECKPOINT_KEY, str(position).encode())
        self._saved = position

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
