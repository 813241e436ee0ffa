"""Event store errors.

    StoreError                  base of everything the store raises on purpose
    ├── WrongExpectedVersion    append's expected version is not the stream's version (a lost race)
    ├── StreamNotFound          the stream has no event at the version asked for
    └── DatabaseError           the database failed or refused the operation; the driver's error is __cause__

Bad arguments (an empty append, a negative version) are bugs and raise ValueError.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of the store's errors."""


class WrongExpectedVersion(StoreError):
    """An append expected the stream at ``expected`` but it is at ``actual`` (0: the stream does not exist)."""

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, the append expected {expected}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual

    def __reduce__(self) -> tuple[type[WrongExpectedVersion], tuple[str, int, int]]:
        return type(self), (self.stream_id, self.expected, self.actual)


class StreamNotFound(StoreError):
    """The stream has no event at ``version`` (it is absent or shorter)."""

    def __init__(self, stream_id: str, version: int) -> None:
        super().__init__(f"stream {stream_id!r} has no version {version}")
        self.stream_id = stream_id
        self.version = version

    def __reduce__(self) -> tuple[type[StreamNotFound], tuple[str, int]]:
        return type(self), (self.stream_id, self.version)


class DatabaseError(StoreError):
    """The database failed or refused the operation (connection lost, constraint, schema not migrated)."""
