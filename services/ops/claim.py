"""One server per SQLite file: an exclusive claim, taken before the server touches the file and held while it runs.

An embedded SQLite database has no follower (``eventstore.urls.is_shared``): a second server on the same file
would keep its own copy of every match, refuse commands the first one made legal ("it is not your turn") and
never show its watchers the first one's events. So the second one stops at start with ``DatabaseInUse``.

The claim is an ``flock`` on ``<database file>.serve-lock`` beside the database, which names the holder's
process id. The kernel drops the lock when the process ends, however it ends, so a killed server leaves no
claim behind; the file itself stays. The CLI's other commands (``matches``, ``replay``, ``prune``) do not
claim. PostgreSQL is served by several instances and is never claimed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os

from eventstore.urls import is_shared, sqlite_path

SUFFIX = ".serve-lock"


class DatabaseInUse(RuntimeError):
    """Another server holds the claim on this SQLite file."""


class Claim:
    """A held claim; ``release`` gives it up (once the store is closed)."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor: int | None = descriptor

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the descriptor drops the flock
            self._descriptor = None


def claim(database_url: str) -> Claim | None:
    """The claim on the URL's SQLite file; None for PostgreSQL, or where the file's directory does not exist
    (the store then refuses the URL itself, saying so)."""
    if is_shared(database_url):
        return None
    path = os.path.realpath(sqlite_path(database_url)) + SUFFIX
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(descriptor, 32).decode(errors="replace").strip()
        os.close(descriptor)
        raise DatabaseInUse(
            f"{path.removesuffix(SUFFIX)} is served by another duelhall serve"
            f"{f' (process {holder})' if holder.isdigit() else ''}: a SQLite database takes one server; "
            "stop that one first, or serve several instances on PostgreSQL"
        ) from None
    with contextlib.suppress(OSError):  # the holder's id is for the message above, not for the lock
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, str(os.getpid()).encode(), 0)
    return Claim(descriptor)
