"""A rich progress bar for the long CLI commands (bulk export, prune, replay verify/import, selfplay)."""

from __future__ import annotations

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from services.cli.common import err


class Bar:
    """A rich progress bar on stderr: one task, its total given or learnt once known (``services.archive``)."""

    def __init__(self, description: str, total: int | None = None) -> None:
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
        self._progress.update(self._task, total=count)

    def advance(self) -> None:
        self._progress.advance(self._task)
