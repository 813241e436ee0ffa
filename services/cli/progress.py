"""A rich progress bar for the long CLI commands (bulk export, prune, replay verify/import, selfplay, the match
list's catch-up)."""

from __future__ import annotations

import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from services.cli.common import err

EVERY = 10.0
"""Seconds between the progress lines written in place of the bar off a terminal."""


class Bar:
    """A rich progress bar on stderr: one task, its total given or learnt once known (``services.ops.archive``).

    Off a terminal (a job's log) it writes a line of progress every ``EVERY`` seconds instead: a bulk export
    or prune of a large store runs for many minutes."""

    def __init__(self, description: str, total: int | None = None) -> None:
        self._description = description
        self._total = total
        self._done = 0
        self._lines = not err.is_terminal
        self._next_line = time.monotonic() + EVERY
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            # Off a terminal rich draws no live bar anyway, only a stray blank line at the end.
            disable=not err.is_terminal,
        )
        self._task = self._progress.add_task(description, total=total)

    def __enter__(self) -> Bar:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def total(self, count: int) -> None:
        self._total = count
        self._progress.update(self._task, total=count)

    def advance(self) -> None:
        self.reached(self._done + 1)

    def reached(self, done: int, total: int | None = None) -> None:
        """``done`` of the total so far (and the total, when it is learnt as it goes)."""
        if total is not None and total != self._total:
            self.total(total)
        self._done = done
        self._progress.update(self._task, completed=done)
        if self._lines and time.monotonic() >= self._next_line:
            self._next_line = time.monotonic() + EVERY
            of = f" of {self._total:,}" if self._total is not None else ""
            err.print(f"{self._description}: {self._done:,}{of}", soft_wrap=True)
