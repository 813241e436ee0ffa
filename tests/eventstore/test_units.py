"""Pure pieces: the hash chain's published vector, database URLs, the package's exported names."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

import eventstore
from eventstore import (
    DEFAULT_DATABASE_URL,
    GENESIS_HASH,
    CommandRecord,
    DatabaseError,
    EventMeta,
    RecordedEvent,
    chain2_hash,
    chain_hash,
    command_digest,
    database_url,
    open_store,
    verify_chain,
)
from eventstore.model import from_micros
from eventstore.urls import asyncpg_dsn, backend_of, sqlite_path, sync_url

# docs/eventstore.md "Hash chain": vectors other implementations check themselves against (computed with
# printf and sha256sum, not with this code).
V1 = "c4e7369d7b5e1b9069c26151d33df6b667cc8a3bd995d580b57090ec4d5dfb67"
V2 = "629a5003bd7e2ee000adb168d4a665e6f63b55c6f314a97cc674735b796e5a21"


def test_chain_hash_vector() -> None:
    first = chain_hash(GENESIS_HASH, 1, "MatchCreated", b'{"seats":2}')
    second = chain_hash(first, 2, "CardDrawn", b"{}")
    assert (first.hex(), second.hex()) == (V1, V2)
    assert len(GENESIS_HASH) == 32 and not any(GENESIS_HASH)


# Chain 2 (docs/eventstore.md): recorded at 2026-01-01T00:00:00Z (1767225600000000 us), command c1 by system,
# type create_match, payload {}; computed with printf, xxd and sha256sum.
COMMAND_DIGEST = "e0eaca105df70482a062e5bd2589ab7ace53c2cfa04e435d34baa40f942eb426"
V1_CHAIN_2 = "64937824a6ac0fc9896ce0907a481aab401a071ee928b428c6c013f2e0e18a06"


def test_chain_2_vector() -> None:
    digest = command_digest(CommandRecord("c1", "system", "create_match", b"{}"))
    assert digest.hex() == COMMAND_DIGEST
    assert chain2_hash(GENESIS_HASH, 1, "MatchCreated", b'{"seats":2}', 1767225600000000, digest).hex() == V1_CHAIN_2


def test_verify_chain_covers_chain_2_times_and_command_records_after_chain_1() -> None:
    """A stream live across the upgrade: chain 1, then chain 2; an edited time or command record fails."""
    record = CommandRecord("c2", "0", "play", b'{"type":"play"}')
    first = chain_hash(GENESIS_HASH, 1, "T", b"{}")
    second = chain2_hash(first, 2, "T", b"{}", 5, command_digest(record))
    stream = [
        RecordedEvent(1, "m1", 1, "T", b"{}", EventMeta("c1", "system", from_micros(0)), first, 1),
        RecordedEvent(2, "m1", 2, "T", b"{}", EventMeta("c2", "0", from_micros(5)), second, 2),
    ]
    log = [(CommandRecord("c1", "system", "create", b"{}"), 1, 1), (record, 2, 2)]
    assert verify_chain(stream, log) == second
    later = msgspec.structs.replace(stream[1], meta=EventMeta("c2", "0", from_micros(6)))
    with pytest.raises(ValueError, match="'m1' version 2"):
        verify_chain([stream[0], later], log)
    with pytest.raises(ValueError, match="'m1' version 2"):
        verify_chain(stream, [log[0], (msgspec.structs.replace(record, type="pass"), 2, 2)])
    with pytest.raises(ValueError, match="chain 1 after chain 2"):
        verify_chain([*stream, msgspec.structs.replace(stream[1], version=3, chain=1)], log)


def test_verify_chain_names_the_first_tampered_event() -> None:
    stream: list[RecordedEvent] = []
    prev = GENESIS_HASH
    for version, data in enumerate([b"{}", b'{"x":1}', b"{}"], start=1):
        prev = chain_hash(prev, version, "T", data)
        stream.append(RecordedEvent(version, "m1", version, "T", data, EventMeta("c", "0", from_micros(0)), prev))
    assert verify_chain(stream) == prev
    stream[1] = RecordedEvent(2, "m1", 2, "T", b'{"x":2}', stream[1].meta, stream[1].hash)
    with pytest.raises(ValueError, match="'m1' version 2"):
        verify_chain(stream)


def test_database_url_prefers_explicit_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUELHALL_DATABASE_URL", raising=False)
    assert database_url() == DEFAULT_DATABASE_URL == "sqlite:///duelhall.db"
    monkeypatch.setenv("DUELHALL_DATABASE_URL", "postgresql://db/duelhall")
    assert database_url() == "postgresql://db/duelhall"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_urls_pick_the_driver_per_backend() -> None:
    assert backend_of("postgres://u@h/d") == "postgresql"
    assert sync_url("postgresql://u:p@h:5433/d").drivername == "postgresql+psycopg"
    assert sync_url("sqlite:///x.db").drivername == "sqlite+pysqlite"
    assert asyncpg_dsn("postgresql+psycopg://u:p%40ss@h:5433/d") == "postgresql://u:p%40ss@h:5433/d"
    assert sqlite_path("sqlite:///dir/x.db") == "dir/x.db"
    with pytest.raises(ValueError, match="in-memory"):
        sqlite_path("sqlite://")
    with pytest.raises(ValueError, match="unsupported"):
        backend_of("mysql://h/d")


async def test_an_unreachable_server_is_a_database_error() -> None:
    with pytest.raises(DatabaseError, match="cannot connect"):
        await open_store("postgresql://postgres@127.0.0.1:1/none")


async def test_a_database_never_migrated_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="duelhall migrate"):
        await open_store(f"sqlite:///{tmp_path / 'fresh.db'}")


async def test_sqlite_durability_takes_only_known_levels(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="NORMAL, FULL, EXTRA"):
        await open_store(f"sqlite:///{tmp_path / 'x.db'}", sqlite_synchronous="OFF")


def test_exports_are_sorted_and_exist() -> None:
    def group(name: str) -> tuple[int, str]:  # isort order: CONSTANTS, Classes, functions
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert eventstore.__all__ == sorted(eventstore.__all__, key=group)
    assert all(hasattr(eventstore, name) for name in eventstore.__all__)
