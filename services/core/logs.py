"""Structured logs on the standard library's ``logging``: one line per record, JSON or console, on stderr.

duelhall logs through ``logging.getLogger(__name__)`` everywhere; a record's structured fields travel in
``extra=fields(...)`` and the formatters here render them: ``json`` as one JSON object per line (for log
collectors), ``console`` as the message followed by ``key=value`` pairs (for people). Every line passes
through ``services.core.secrets.scrub``.
"""

from __future__ import annotations

import copy
import logging
import os
import sys
import threading
import time
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, NamedTuple, TextIO

import msgspec

from services.core.secrets import scrub

FORMATS = ("console", "json")
FLUSH_SECONDS = 0.2
"""How long a line below warning may wait in memory before it is written."""
BATCH_LINES = 256
"""Lines waiting that are written at once, whatever the time."""
LEVELS = ("debug", "info", "warning", "error")
_FIELDS = "duelhall_fields"
_json = msgspec.json.Encoder(enc_hook=str)
_handler: BatchedHandler | None = None
_second: tuple[int, str] = (-1, "")
"""The last second a line was stamped in, and its text: the server writes many lines a second."""


def fields(**values: Any) -> dict[str, Any]:
    """The ``extra`` argument that attaches structured fields to a log record."""
    return {_FIELDS: values}


def line(logger: logging.Logger, level: int, message: str, values: dict[str, Any]) -> None:
    """``logger.log(level, message, extra=fields(**values))``, for a line written at a high rate (the server's
    ``rpc`` line, one per call). While the handler ``configure`` set is the only one, the line is queued on it as
    it is and becomes a record when its batch is written: making and dispatching a ``LogRecord`` in the middle of
    a call cost about 5 % of duelhall's own CPU per command (``bench/handlers.py``)."""
    if not logger.isEnabledFor(level):
        return
    handler, handlers = _handler, logging.root.handlers
    if (
        handler is None
        or len(handlers) != 1
        or handlers[0] is not handler
        or logger.handlers
        or logger.filters
        or logger.parent is not logging.root
        or not logger.propagate
    ):
        logger.log(level, message, extra=fields(**values))
        return
    handler.queue(_Line(time.time(), logger.name, level, message, values))


class _Line(NamedTuple):
    """A line queued by ``line``: what its record will hold."""

    created: float
    name: str
    level: int
    message: str
    values: dict[str, Any]

    def record(self) -> logging.LogRecord:
        made = logging.LogRecord(self.name, self.level, "", 0, self.message, None, None)
        made.created, made.msecs = self.created, self.created % 1 * 1000
        setattr(made, _FIELDS, self.values)
        return made


def _timestamp(record: logging.LogRecord) -> str:
    global _second
    second, millis = divmod(int(record.created * 1000), 1000)
    if second != _second[0]:
        _second = (second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{_second[1]}.{millis:03d}Z"


def _exception(formatter: logging.Formatter, record: logging.LogRecord) -> str:
    if record.exc_info and not record.exc_text:
        record.exc_text = formatter.formatException(record.exc_info)
    return record.exc_text or ""


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", ...fields, "exception"?}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(getattr(record, _FIELDS, {}))
        exception = _exception(self, record)
        if exception:
            line["exception"] = exception
        return scrub(_json.encode(line).decode())


class ConsoleFormatter(logging.Formatter):
    """``TIME LEVEL logger: message key=value ...``, with a traceback on the following lines if any."""

    def format(self, record: logging.LogRecord) -> str:
        pairs = "".join(f" {key}={_console_value(value)}" for key, value in getattr(record, _FIELDS, {}).items())
        message = record.getMessage()
        if not message.isprintable():  # a client's text in it (a parse error quotes the request) stays on the line
            message = repr(message)[1:-1]
        line = f"{_timestamp(record)} {record.levelname} {record.name}: {message}{pairs}"
        exception = _exception(self, record)
        return scrub(f"{line}\n{exception}" if exception else line)


def _console_value(value: Any) -> str:
    """The value as is, or quoted when empty or holding a space, a line break or another unprintable character
    (a field may carry a client's text, which must not end the line or forge the next one)."""
    text = str(value)
    return repr(text) if not text or " " in text or not text.isprintable() else text


class BatchedHandler(logging.StreamHandler[TextIO]):
    """Writes the lines to the stream in batches: a write per line cost the server a system call per RPC, and
    the GIL passing to another thread and back around each, about a tenth of its time per command. Records are
    formatted when their batch is written, so the lines ``line`` queues keep their places among them. A warning
    or worse is written at once, after the lines before it; the rest within ``FLUSH_SECONDS``, and at exit
    (``logging.shutdown`` flushes every handler)."""

    def __init__(self, stream: TextIO, interval: float = FLUSH_SECONDS) -> None:
        super().__init__(stream)
        self._records: list[logging.LogRecord | _Line] = []
        self._interval = interval
        self._stop = threading.Event()
        threading.Thread(target=self._flush_every, name="duelhall-log-flush", daemon=True).start()

    def emit(self, record: logging.LogRecord) -> None:
        # Under the handler's lock, as ``Handler.handle`` calls it.
        if record.args:  # the message as it reads now: an argument may change before the batch is written
            try:
                record = copy.copy(record)  # other handlers see the record as it was logged
                record.msg, record.args = record.getMessage(), None
            except Exception:
                self.handleError(record)
                return
        self._take(record, record.levelno)

    def queue(self, queued: _Line) -> None:
        """Takes a line ``line`` queued, to be made a record when its batch is written (as ``emit`` takes one)."""
        self.acquire()
        try:
            self._take(queued, queued.level)
        finally:
            self.release()

    def _take(self, entry: logging.LogRecord | _Line, level: int) -> None:
        self._records.append(entry)
        # Once closed (by ``logging.shutdown``, or by a library's logging setup) no timer writes: write now.
        if level >= logging.WARNING or len(self._records) >= BATCH_LINES or self._stop.is_set():
            self._write()

    def flush(self) -> None:
        self.acquire()
        try:
            self._write()
        finally:
            self.release()

    def close(self) -> None:
        self.flush()
        self._stop.set()
        super().close()

    def _write(self) -> None:
        records, self._records = self._records, []
        lines = []
        for entry in records:
            record = entry.record() if isinstance(entry, _Line) else entry
            try:
                lines.append(self.format(record))
            except Exception:
                self.handleError(record)
        if not lines:
            return
        text = "\n".join(lines) + "\n"
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed or gone: there is nowhere left to say so
            pass

    def _flush_every(self) -> None:
        while not self._stop.wait(self._interval):
            self.flush()


class _OneLine(logging.Filter):
    """A record's exception folded into its message, without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(error).__name__}: {error}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


_ONE_LINE = _OneLine()


def quiet_driver_retries() -> None:
    """asyncpg's pool warns once a second while it cannot reconnect (the database is down), each time with the
    traceback of its own connect path: one line each, its message and the exception's."""
    pool = logging.getLogger("asyncpg.pool")
    if _ONE_LINE not in pool.filters:
        pool.addFilter(_ONE_LINE)


def quiet_client() -> None:
    """Logging for a command that only uses the store or a server (all but ``serve`` and ``migrate``, which
    ``configure``): the driver's reconnect retries are not written at all, since a command whose database stays
    down ends with one sentence of its own (``services/cli/errors.py``); anything worse is one line."""
    quiet_driver_retries()
    logging.getLogger("asyncpg.pool").setLevel(logging.ERROR)


def configure(log_format: str = "console", level: str = "info") -> None:
    """Send every logger's records to stderr in ``log_format`` from ``level`` up (replacing an earlier call's).

    Everything the process writes to stderr then comes through here, so that a ``json`` log is all JSON: Python's
    warnings, and exceptions no code caught (in the main thread or another), become records too; ``fatal`` says
    the failure that ends a command. gRPC's C core writes lines of its own (a client's failed TLS handshake, a
    connection reset), as plain text: with ``json`` it is told to write none (``GRPC_VERBOSITY=NONE``, unless
    the environment sets it), which it reads when gRPC is imported, so the commands configure before that."""
    global _handler
    if log_format not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {log_format!r}")
    if log_format == "json":
        os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    root = logging.getLogger()
    if _handler is not None:
        root.removeHandler(_handler)
        _handler.close()
    _handler = BatchedHandler(sys.stderr)
    _handler.setFormatter(JsonFormatter() if log_format == "json" else ConsoleFormatter())
    root.addHandler(_handler)
    root.setLevel(level.upper())
    quiet_driver_retries()
    logging.getLogger("asyncpg.pool").setLevel(logging.NOTSET)  # a server says each retry (quiet_client)
    logging.captureWarnings(True)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread
    # The formatters use none of these record attributes; computing them (a stack walk for the caller's file
    # and line) was a third of the cost of a line, and the server writes one per call.
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


def fatal(message: str) -> bool:
    """Logs the failure that ends the command (``duelhall: ...``) when ``configure`` set the ``json`` format, and
    writes it out at once; False otherwise (the caller prints the sentence, as a person at a console reads it)."""
    if _handler is None or not isinstance(_handler.formatter, JsonFormatter):
        return False
    logging.getLogger("duelhall").critical(message)
    _handler.flush()
    return True


def _uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    logging.getLogger("duelhall").critical("uncaught exception", exc_info=(kind, error, trace))


def _uncaught_in_thread(hook: threading.ExceptHookArgs) -> None:
    if hook.exc_type is SystemExit or hook.exc_value is None:
        return
    logging.getLogger("duelhall").critical(
        "uncaught exception in thread %s",
        hook.thread.name if hook.thread else "?",
        exc_info=(hook.exc_type, hook.exc_value, hook.exc_traceback),
    )


def add_options(parser: Any) -> None:
    """``--log-format`` and ``--log-level`` on a command that logs."""
    parser.add_argument(
        "--log-format",
        choices=FORMATS,
        default="console",
        help="console: readable lines; json: one JSON object per line (default: console)",
    )
    parser.add_argument("--log-level", choices=LEVELS, default="info", help="lowest level written (default: info)")
