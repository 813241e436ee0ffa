"""One server per SQLite file: an exclusive claim, taken before the server touches the file and held while it runs.

An embedded SQLite database has no follower (``eventstore.urls.is_shared``): a second server on the same file
would keep its own copy of every match, refuse commands the first one made legal ("it is not your turn") and
never show its watchers the first one's events. So the second one stops at start with ``DatabaseInUse``.

The claim is an ``flock`` on ``<database file>.serve-lock`` beside the database, which names the holder's
process id, and an open-file-description lock on one byte of the database file itself, far above the bytes
SQLite locks: the first follows the name, the second the file, so a hard link (another name of the same file)
is refused too. The kernel drops both when the process ends, however it ends, so a killed server leaves no
claim behind; the side file itself stays. The CLI's other commands (``matches``, ``replay``, ``prune``) do not
claim. PostgreSQL is served by several instances and is never claimed.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct

from eventstore.urls import is_shared, sqlite_path

SUFFIX = ".serve-lock"


class DatabaseInUse(RuntimeError):
    """Another server holds the claim on this SQLite file."""


class Claim:
    """A held claim; ``release`` gives it up (once the store is closed)."""

    def __init__(self, *descriptors: int) -> None:
        self._descriptors = list(descriptors)

    def release(self) -> None:
        while self._descriptors:
            os.close(self._descriptors.pop())  # closing a descriptor drops its lock


def claim(database_url: str) -> Claim | None:
    """The claim on the URL's SQLite file; None for PostgreSQL, or where the file's directory does not exist
    (the store then refuses the URL itself, saying so)."""
    if is_shared(database_url):
        return None
    database = os.path.realpath(sqlite_path(database_url))
    path = database + SUFFIX
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(descriptor, 32).decode(errors="replace").strip()
        os.close(descriptor)
        raise _in_use(database, f" (process {holder})" if holder.isdigit() else "") from None
    try:
        file = _file_lock(database)
    except BaseException:
        os.close(descriptor)
        raise
    with contextlib.suppress(OSError):  # the holder's id is for the message above, not for the lock
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, str(os.getpid()).encode(), 0)
    return Claim(descriptor, file)


_FILE_LOCK_BYTE = 1 << 62
"""Far above SQLite's own lock bytes (from 2^30), so the two never meet."""


def _file_lock(database: str) -> int:
    """A write lock on one byte of the database file, held by an open file description: unlike a process's
    record locks it survives SQLite closing its own descriptors of the file. An empty file is a new SQLite
    database, so creating it here changes nothing."""
    descriptor = os.open(database, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    lock = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, _FILE_LOCK_BYTE, 1, 0)
    try:
        fcntl.fcntl(descriptor, fcntl.F_OFD_SETLK, lock)
    except OSError as error:
        os.close(descriptor)
        if error.errno not in (errno.EAGAIN, errno.EACCES):
            raise
        raise _in_use(database, " under another name of the same file (a hard link)") from None
    return descriptor


def _in_use(database: str, holder: str) -> DatabaseInUse:
    return DatabaseInUse(
        f"{database} is served by another duelhall serve{holder}: a SQLite database takes one server; "
        "stop that one first, or serve several instances on PostgreSQL"
    )
