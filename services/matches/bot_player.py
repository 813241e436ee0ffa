"""The server playing its bot seats: when a match waits on a bot seat, its bot decides in a worker process
(``services/matches/bot_workers.py``) within its budget and the manager submits the command as that seat, an
ordinary recorded command that replays re-execute. Each decision's seconds are told to the listeners (the
``duelhall_bot_decision_seconds`` histogram); one past its budget is also logged.

The bot sees what a client of its seat receives, the seat's view and legal commands as JSON, decoded again, never
the state (``bot_workers.choose``), and never concedes while it has another command (as ``duelhall selfplay``'s
bots). Its command id is ``bot-<seat>-<version>``, the same on every instance at the same decision point (its
seed is too, ``bot_seats.decision_seed``), and it is submitted expecting that version: a second instance driving
the same seat lands on the store's idempotency, and a match that moved on while the bot thought refuses the stale
choice (the change that moved it started the next decision). A match loaded at start that waits on a bot resumes it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any, Protocol

from engine.bots import DEFAULT_SECONDS
from engine.contract import Actor, Ruleset
from engine.errors import Rejected
from eventstore import StoreError
from services.core.clock import Clock, LoopClock
from services.core.errors import ServiceError, VersionMismatch
from services.core.logs import fields
from services.core.tasks import keep
from services.matches.bot_seats import decision_seed
from services.matches.bot_workers import BotWorkers
from services.matches.hot import HotMatch

log = logging.getLogger(__name__)

BOT_COMMAND_PREFIX = "bot-"
"""A bot's command id: this, then ``<seat>-<version>``."""

RETRY = 1.0
"""Seconds before a bot's command the store could not take is decided and submitted again."""


class Drives(Protocol):
    """The part of the match manager the bot player needs."""

    async def submit(
        self, match_id: str, actor: Actor, raw: bytes, command_id: str = "", expected_version: int | None = None
    ) -> object: ...

    def loaded(self, match_id: str) -> HotMatch | None: ...


class BotPlayer:
    """Plays every loaded match's bot seats; the manager's change listener (``play``)."""

    def __init__(
        self,
        manager: Drives,
        clock: Clock | None = None,
        seconds: float = DEFAULT_SECONDS,
        workers: BotWorkers | None = None,
    ) -> None:
        self._manager = manager
        self._clock: Clock = clock or LoopClock()
        self.seconds = seconds
        """What one decision may take: each is handed it, and its level spends it (one past it is logged)."""
        self._workers = workers or BotWorkers()
        self.listeners: list[Callable[[str, str, float], None]] = []
        """Told of each decision: its ruleset's id, the bot's level and the seconds it thought (metrics)."""
        self._thinking: dict[str, int] = {}
        """The version each match's bot decision under way was started at."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False

    def play(self, hot: HotMatch) -> None:
        """Starts the decision of the first bot seat the match waits on, once per version."""
        if not hot.bots or self._closing or hot.outcome is not None:
            return
        seat = next((s for s in hot.ruleset.to_act(hot.state) if s in hot.bots), None)
        if seat is None or self._thinking.get(hot.match_id) == hot.version:
            return
        self._thinking[hot.match_id] = hot.version
        seed = decision_seed(hot.seed, seat, hot.version)
        work = self._decide(hot.match_id, hot.ruleset, hot.match.state, hot.version, seat, hot.bots[seat], seed)
        keep(self._tasks, work, f"duelhall-bot-{hot.match_id}")

    async def stop(self) -> None:
        """Starts no more decisions and lets those under way end (a decision takes at most its budget)."""
        self._closing = True
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._workers.stop()

    async def _decide(
        self, match_id: str, ruleset: Ruleset, state: Any, version: int, seat: int, level: str, seed: int
    ) -> None:
        try:
            raw, took, failure = await self._workers.think(ruleset, state, seat, level, seed, self.seconds)
            for listener in self.listeners:
                listener(ruleset.id, level, took)
            if failure:
                log.error(
                    "bot (%s) of seat %d failed at version %d: %s; its first legal command was played instead",
                    level,
                    seat,
                    version,
                    failure,
                    extra=fields(match_id=match_id),
                )
            if took > self.seconds:
                log.warning(
                    "bot decision took %.2f s, over its %.2f s budget",
                    took,
                    self.seconds,
                    extra=fields(match_id=match_id, version=version),
                )
            if self._closing:  # the next start resumes it
                return
            await self._manager.submit(
                match_id, seat, raw, command_id=f"{BOT_COMMAND_PREFIX}{seat}-{version}", expected_version=version
            )
        except VersionMismatch:
            pass  # the match moved on while the bot thought; the change that moved it started the next decision
        except (Rejected, ServiceError) as exc:
            log.warning(
                "bot of seat %d at version %d not applied: %s", seat, version, exc, extra=fields(match_id=match_id)
            )
        except StoreError as exc:
            # The id makes a retry safe whether or not the failed attempt was stored.
            log.warning("bot command not stored (%s); retrying in %.0f s", exc, RETRY, extra=fields(match_id=match_id))
            self._clock.call_later(RETRY, functools.partial(self._again, match_id))
        finally:
            if self._thinking.get(match_id) == version:
                del self._thinking[match_id]

    def _again(self, match_id: str) -> None:
        hot = self._manager.loaded(match_id)
        if hot is not None:
            self.play(hot)
