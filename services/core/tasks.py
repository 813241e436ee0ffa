"""Background tasks of the server's parts (follower, match list, tournament results)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any


async def cancel(task: asyncio.Task[Any] | asyncio.Future[Any]) -> None:
    """Cancels ``task`` and waits until it has stopped (an error it ended with is still raised)."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def keep(held: set[asyncio.Task[None]], work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
    """Starts ``work`` as a task held in ``held`` until it is done (the loop keeps only weak references)."""
    task = asyncio.create_task(work, name=name)
    held.add(task)
    task.add_done_callback(held.discard)
    return task
