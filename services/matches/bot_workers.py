"""Where bot seats think: worker processes, so that a bot's CPU (a search bot spends its whole budget) never holds
the server's GIL, and with it the event loop.

A decision is handed to a worker as the ruleset's id and version, the state, the seat, the level, the decision's
seed and its budget in seconds (the level spends it, ``engine.bots.make_bot``); the worker finds the ruleset in its
own registry and hands back the command's JSON and the seconds it thought. The processes come from a forkserver
that has imported this module once (never a fork of the server, whose gRPC threads a fork would corrupt), start on
the first decision, and end with the server, even a killed one; as with any forkserver, the program's main module
must guard its entry point (``if __name__ == "__main__"``), which ``duelhall`` and the benches do. A pool whose
worker died is replaced. A ruleset the registry does not host as the match holds it (a test's own version) thinks
on a thread instead.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple

import msgspec

from engine import registry
from engine.bots import make_bot
from engine.contract import Ruleset
from engine.match import encode, playable

log = logging.getLogger(__name__)

WORKERS = max(1, (os.cpu_count() or 1) - 1)
"""Worker processes: a core is left to the event loop."""


class Thought(NamedTuple):
    """A bot's decision as a worker hands it back."""

    command: bytes
    """The command's JSON."""
    seconds: float
    """How long the bot thought on the worker (not counting its wait for the worker)."""
    failure: str = ""
    """The error that stopped the bot, when the seat's first legal command stands in for its choice (else empty)."""


def choose(ruleset: Ruleset, state: Any, seat: int, level: str, seed: int, seconds: float) -> bytes:
    """The command (JSON) the bot of ``level`` in ``seat`` picks. Runs on a worker; the bot is handed the seat's view
    and legal commands as a client receives them (JSON, decoded), so it cannot reach the state."""
    view: Any = msgspec.json.decode(encode(ruleset.view(state, seat)), type=ruleset.View)
    commands = _playable(ruleset, state, seat)
    return encode(make_bot(level, ruleset, seed, seconds, time.monotonic).choose(view, commands))


def _playable(ruleset: Ruleset, state: Any, seat: int) -> list[Any]:
    """The seat's legal commands as a client decodes them, concession left out while there is another."""
    return playable([ruleset.command_decoder.decode(encode(c)) for c in ruleset.legal_commands(state, seat)])


def timed(ruleset: Ruleset, state: Any, seat: int, level: str, seed: int, seconds: float) -> Thought:
    """``choose``, and the seconds it took. A bot that fails (a defect in its search, say) must not leave its seat
    waiting for ever: the seat's first legal command is played instead, and the failure handed back to be logged."""
    started = time.perf_counter()
    try:
        raw, failure = choose(ruleset, state, seat, level, seed, seconds), ""
    except Exception as exc:
        raw, failure = encode(_playable(ruleset, state, seat)[0]), f"{type(exc).__name__}: {exc}"
    return Thought(raw, time.perf_counter() - started, failure)


def _hosted(ruleset_id: str, version: int, state: Any, seat: int, level: str, seed: int, seconds: float) -> Thought:
    """``timed`` in a worker process, with the ruleset its registry hosts."""
    return timed(registry.exact(ruleset_id, version), state, seat, level, seed, seconds)


def _pool(workers: int) -> ProcessPoolExecutor:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_bound, initargs=(os.getpid(),))


def _bound(server: int) -> None:
    """Runs first in each worker: ends it when the server process ends, however it ended. A worker whose server was
    SIGKILLed (no shutdown runs) would otherwise wait for work for ever, keeping its forkserver alive, and with it
    the server's output pipe open."""
    try:
        handle = os.pidfd_open(server)
    except ProcessLookupError:  # the server is already gone
        os._exit(0)
    except (AttributeError, OSError):  # no pidfd (not Linux 5.3+): only a shutdown ends the workers
        return
    threading.Thread(target=_exit_once_readable, args=(handle,), name="duelhall-server-watch", daemon=True).start()


def _exit_once_readable(handle: int) -> None:
    """A pidfd turns readable when its process ends."""
    select.select([handle], [], [])
    os._exit(0)


class BotWorkers:
    """The worker processes (``workers`` of them), and a thread for rulesets they do not host."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._workers = workers
        self._processes = _pool(workers)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="duelhall-bot")

    async def think(self, ruleset: Ruleset, state: Any, seat: int, level: str, seed: int, seconds: float) -> Thought:
        """The bot's decision, taken on a worker."""
        loop = asyncio.get_running_loop()
        if registry.HOSTED.get((ruleset.id, ruleset.version)) is ruleset:
            work = functools.partial(_hosted, ruleset.id, ruleset.version, state, seat, level, seed, seconds)
            processes = self._processes
            try:
                result: Thought = await loop.run_in_executor(processes, work)
            except BrokenProcessPool:
                # A worker died (killed, out of memory) and the pool takes no more work: a fresh one decides.
                log.warning("a bot worker process died; starting new ones")
                if self._processes is processes:
                    self._processes = _pool(self._workers)
                    processes.shutdown(wait=False)
                result = await loop.run_in_executor(self._processes, work)
            return result
        return await loop.run_in_executor(
            self._thread, functools.partial(timed, ruleset, state, seat, level, seed, seconds)
        )

    def pids(self) -> list[int]:
        """The worker processes' ids (those started so far)."""
        return [process.pid for process in getattr(self._processes, "_processes", {}).values() if process.pid]

    async def stop(self) -> None:
        """Once no decision is under way: the processes and the thread end."""
        await asyncio.to_thread(self._processes.shutdown, True)
        self._thread.shutdown(wait=True)
