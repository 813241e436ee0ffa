"""Log lines reach stderr in batches: warnings at once, the rest within the flush interval and at exit."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections.abc import Iterator

import pytest

from services.core import logs
from services.core.logs import BATCH_LINES, BatchedHandler, ConsoleFormatter, JsonFormatter, line, quiet_driver_retries


class Stream(io.StringIO):
    """A stream that counts its writes and signals each."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0
        self.written = threading.Event()

    def write(self, text: str) -> int:
        self.writes += 1
        self.written.set()
        return super().write(text)


def record(message: str, level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("duelhall.test", level, "", 0, message, None, None)


def handler(stream: Stream, interval: float = 3600.0) -> BatchedHandler:
    batched = BatchedHandler(stream, interval)
    batched.setFormatter(ConsoleFormatter())
    return batched


def lines(stream: Stream) -> list[str]:
    return [line.split(": ", 1)[1] for line in stream.getvalue().splitlines()]


def test_a_warning_is_written_at_once_after_the_lines_before_it() -> None:
    stream = Stream()
    batched = handler(stream)
    batched.handle(record("first"))
    batched.handle(record("second"))
    assert stream.writes == 0
    batched.handle(record("careful", logging.WARNING))
    assert lines(stream) == ["first", "second", "careful"] and stream.writes == 1
    batched.close()


def test_a_line_says_what_its_arguments_were_when_it_was_logged() -> None:
    # Lines are formatted when their batch is written: an argument changed in between must not show.
    stream = Stream()
    batched = handler(stream)
    seats = ["a"]
    logged = logging.LogRecord("duelhall.test", logging.INFO, "", 0, "seats %s", (seats,), None)
    batched.handle(logged)
    assert logged.args == (seats,), "another handler of the record would see it changed"
    seats.append("b")
    batched.handle(logging.LogRecord("duelhall.test", logging.INFO, "", 0, "bad %d", ("x",), None))
    batched.close()
    assert lines(stream) == ["seats ['a']"]


def test_a_full_batch_is_written_in_one_write() -> None:
    stream = Stream()
    batched = handler(stream)
    for index in range(BATCH_LINES):
        batched.handle(record(f"line {index}"))
    assert stream.writes == 1 and len(lines(stream)) == BATCH_LINES
    batched.close()


def test_waiting_lines_are_written_at_close_and_by_the_timer() -> None:
    stream = Stream()
    batched = handler(stream)
    batched.handle(record("at close"))
    batched.close()
    assert lines(stream) == ["at close"]

    timed = Stream()
    ticking = handler(timed, interval=0.01)
    ticking.handle(record("on time"))
    assert timed.written.wait(30), "the flush thread never wrote"
    ticking.close()
    assert lines(timed) == ["on time"]


def test_a_closed_handler_writes_each_line_at_once() -> None:
    # Something else's logging setup may close it (logging.config closes every handler it finds).
    stream = Stream()
    batched = handler(stream)
    batched.close()
    batched.handle(record("after close"))
    assert lines(stream) == ["after close"]


def test_the_drivers_reconnect_retries_are_one_line_each() -> None:
    """While the database is down asyncpg's pool warns once a second that it cannot reconnect, with a traceback
    of its own connect path: its message and the exception's say everything, on one line."""
    quiet_driver_retries()
    quiet_driver_retries()  # configuring again adds nothing
    stream = Stream()
    batched = handler(stream)
    pool = logging.getLogger("asyncpg.pool")
    pool.addHandler(batched)
    # A client command run earlier in this process (``logs.quiet_client``) silences the retries altogether.
    level = pool.level
    pool.setLevel(logging.NOTSET)
    try:
        try:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")
        except OSError:
            pool.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
    finally:
        pool.setLevel(level)
        pool.removeHandler(batched)
        batched.close()
    assert len(pool.filters) == 1
    assert lines(stream) == [
        "Failed to restore the pool connection floor; retrying: ConnectionRefusedError: "
        "[Errno 111] Connect call failed ('127.0.0.1', 5432)"
    ]


@pytest.fixture
def only_handler(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Stream, BatchedHandler]]:
    """This module's handler as ``configure`` leaves it: the root logger's only one. Set in the test's own
    phase, after pytest put its capturing handlers on the root logger (which take them off)."""
    stream = Stream()
    batched = handler(stream)
    monkeypatch.setattr(logs, "_handler", batched)
    yield stream, batched
    batched.close()


def alone(monkeypatch: pytest.MonkeyPatch, batched: BatchedHandler) -> None:
    monkeypatch.setattr(logging.root, "handlers", [batched])


FIELDS = {"method": "SubmitCommand", "match_id": "a b", "code": "OK", "ms": 1.5}


@pytest.mark.parametrize("formatter", [ConsoleFormatter(), JsonFormatter()], ids=["console", "json"])
def test_a_queued_line_reads_as_the_record_would(
    only_handler: tuple[Stream, BatchedHandler], formatter: logging.Formatter, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, batched = only_handler
    batched.setFormatter(formatter)
    alone(monkeypatch, batched)
    logger = logging.getLogger("duelhall_test_queued")
    logger.setLevel(logging.INFO)
    line(logger, logging.INFO, "rpc", FIELDS)
    assert batched._records and not isinstance(batched._records[0], logging.LogRecord), "queued as a record"
    logger.info("rpc", extra=logs.fields(**FIELDS))
    batched.flush()
    queued, logged = stream.getvalue().splitlines()
    if isinstance(formatter, JsonFormatter):
        assert {**json.loads(queued), "time": ""} == {**json.loads(logged), "time": ""}
        assert json.loads(queued)["match_id"] == "a b"
    else:
        assert (
            queued.split(" ", 1)[1]
            == logged.split(" ", 1)[1]
            == ("INFO duelhall_test_queued: rpc method=SubmitCommand match_id='a b' code=OK ms=1.5")
        )


def test_a_queued_line_keeps_its_place_before_a_warning(
    only_handler: tuple[Stream, BatchedHandler], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, batched = only_handler
    alone(monkeypatch, batched)
    logger = logging.getLogger("duelhall_test_order")
    logger.setLevel(logging.INFO)
    line(logger, logging.INFO, "first", {})
    line(logger, logging.DEBUG, "below the level", {})
    assert stream.writes == 0
    logger.warning("then this")
    assert lines(stream) == ["first", "then this"] and stream.writes == 1
    line(logger, logging.WARNING, "and a queued warning, at once", {})
    assert lines(stream)[-1] == "and a queued warning, at once" and stream.writes == 2


def test_a_line_reaches_every_other_handler_as_a_record(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("duelhall.test.caught")
    with caplog.at_level(logging.INFO, logger="duelhall.test.caught"):
        line(logger, logging.INFO, "rpc", FIELDS)
    (caught,) = caplog.records
    assert caught.getMessage() == "rpc" and caught.duelhall_fields == FIELDS


def test_a_line_under_a_logger_with_a_handler_of_its_own_reaches_it(
    only_handler: tuple[Stream, BatchedHandler], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream, batched = only_handler
    alone(monkeypatch, batched)
    own = Stream()
    parent = logging.getLogger("duelhall_test_parent")
    parent.addHandler(handler(own))
    child = logging.getLogger("duelhall_test_parent.child")
    child.setLevel(logging.INFO)
    try:
        line(child, logging.INFO, "both", {})
    finally:
        for added in parent.handlers:
            parent.removeHandler(added)
            added.close()
    batched.flush()
    assert lines(own) == ["both"] and lines(stream) == ["both"]
