"""Background tasks of the server's parts (follower, match list, tournament results)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def cancel(task: asyncio.Task[Any] | asyncio.Future[Any]) -> None:
    """Cancels ``task`` and waits until it has stopped (an error it ended with is still raised)."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
