"""The server playing its bot seats: when a match waits on a bot seat, its bot decides on a worker thread and the
manager submits the command as that seat, an ordinary recorded command that replays re-execute.

The bot sees what a client of its seat receives, the seat's view and legal commands as JSON, decoded again, never
the state (``choose``), and never concedes while it has another command (as ``duelhall selfplay``'s bots). Its
command id is ``bot-<seat>-<version>``, the same on every instance at the same decision point (its seed is too,
``bot_seats.decision_seed``), and it is submitted expecting that version: a second instance driving the same
seat lands on the store's idempotency, and a match that moved on while the bot thought refuses the stale choice
(the change that moved it started the next decision). A match loaded at start that waits on a bot resumes it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Protocol

import msgspec

from engine.bots import DEFAULT_SECONDS, make_bot
from engine.contract import CONCEDE, Actor, Ruleset
from engine.errors import Rejected
from engine.match import encode, type_tag
from eventstore import StoreError
from services.core.clock import Clock, LoopClock
from services.core.errors import ServiceError, VersionMismatch
from services.core.logs import fields
from services.core.tasks import keep
from services.matches.bot_seats import decision_seed
from services.matches.hot import HotMatch

log = logging.getLogger(__name__)

RETRY = 1.0
"""Seconds before a bot's command the store could not take is decided and submitted again."""


class Drives(Protocol):
    """The part of the match manager the bot player needs."""

    async def submit(
        self, match_id: str, actor: Actor, raw: bytes, command_id: str = "", expected_version: int | None = None
    ) -> object: ...

    def loaded(self, match_id: str) -> HotMatch | None: ...


def choose(ruleset: Ruleset, state: Any, seat: int, level: str, seed: int, seconds: float) -> bytes:
    """The command (JSON) the bot of ``level`` in ``seat`` picks. Runs on the worker; the bot is handed the seat's
    view and legal commands as a client receives them (JSON, decoded), so it cannot reach the state."""
    view: Any = msgspec.json.decode(encode(ruleset.view(state, seat)), type=ruleset.View)
    legal = [ruleset.command_decoder.decode(encode(c)) for c in ruleset.legal_commands(state, seat)]
    commands = [c for c in legal if type_tag(c) != CONCEDE] or legal
    return encode(make_bot(level, ruleset, seed, seconds, time.monotonic).choose(view, commands))


def timed(ruleset: Ruleset, state: Any, seat: int, level: str, seed: int, seconds: float) -> tuple[bytes, float]:
    """``choose`` and the seconds it took on the worker (not counting its wait for the worker)."""
    started = time.perf_counter()
    raw = choose(ruleset, state, seat, level, seed, seconds)
    return raw, time.perf_counter() - started


class BotPlayer:
    """Plays every loaded match's bot seats; the manager's change listener (``play``)."""

    def __init__(
        self,
        manager: Drives,
        clock: Clock | None = None,
        seconds: float = DEFAULT_SECONDS,
        executor: Executor | None = None,
    ) -> None:
        self._manager = manager
        self._clock: Clock = clock or LoopClock()
        self.seconds = seconds
        """What one decision may take (the level spends it; a decision past it is logged)."""
        # One thread: bots are CPU-bound Python, so more threads would only queue on the GIL.
        self._executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="duelhall-bot")
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
        self._executor.shutdown(wait=True)

    async def _decide(
        self, match_id: str, ruleset: Ruleset, state: Any, version: int, seat: int, level: str, seed: int
    ) -> None:
        try:
            think = functools.partial(timed, ruleset, state, seat, level, seed, self.seconds)
            raw, took = await asyncio.get_running_loop().run_in_executor(self._executor, think)
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
                match_id, seat, raw, command_id=f"bot-{seat}-{version}", expected_version=version
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
