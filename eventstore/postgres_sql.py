"""PostgreSQL's statements, compiled for asyncpg: the shared ones (``SQL``), plus the two an append is made of.

``KNOWN`` reads, for a batch, each request's last event and first result of its command id (one round
trip). ``WRITE`` is the whole write of a batch in one call of the server-side function ``duelhall_append``
(migrations 0002, 0003): it advances the head counter (which takes the head row lock, queueing writers in commit
order), inserts events, commands and secrets from arrays, and notifies ``duelhall_events`` with the new
head; its guard makes it do nothing at all unless every predecessor event the caller chained from is
stored with the hash it assumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import BigInteger, Integer, LargeBinary, SmallInteger, Text, bindparam, func, select, true
from sqlalchemy.dialects.postgresql import ARRAY

from eventstore import statements as st
from eventstore.batch import Known, Plan
from eventstore.hashing import GENESIS_HASH
from eventstore.model import AppendRequest
from eventstore.schema import commands, secrets

CHANNEL = "duelhall_events"
SQL = st.compile_for("postgresql")


def _known_statement() -> Any:
    keys = (
        func.unnest(bindparam("stream_ids", type_=ARRAY(Text)), bindparam("command_ids", type_=ARRAY(Text)))
        .table_valued("stream_id", "command_id", with_ordinality="n")
        .render_derived(name="k")
    )
    last_event = st.last_event(keys.c.stream_id).lateral("h")
    original = st.original(keys.c.stream_id, keys.c.command_id).lateral("o")
    return (
        select(last_event.c.version, last_event.c.hash, last_event.c.recorded_at, *original.c)
        .select_from(keys.outerjoin(last_event, true()).outerjoin(original, true()))
        .order_by(keys.c.n)
    )


# duelhall_append's parameters in order (migration 0003): the head's advance, then one array per column of
# the guard (p_), the events (e_), the command records (c_) and the secrets (s_).
WRITE_PARAMETERS: tuple[tuple[str, Any], ...] = (
    ("total", BigInteger),
    ("p_stream_id", ARRAY(Text)),
    ("p_version", ARRAY(Integer)),
    ("p_hash", ARRAY(LargeBinary)),
    ("e_offset", ARRAY(BigInteger)),
    ("e_stream_id", ARRAY(Text)),
    ("e_version", ARRAY(Integer)),
    ("e_type", ARRAY(Text)),
    ("e_data", ARRAY(LargeBinary)),
    ("e_command_id", ARRAY(Text)),
    ("e_actor", ARRAY(Text)),
    ("e_recorded_at", ARRAY(BigInteger)),
    ("e_hash", ARRAY(LargeBinary)),
    ("e_chain", ARRAY(SmallInteger)),
    ("c_stream_id", ARRAY(Text)),
    ("c_command_id", ARRAY(Text)),
    ("c_actor", ARRAY(Text)),
    ("c_type", ARRAY(Text)),
    ("c_payload", ARRAY(LargeBinary)),
    ("c_first_version", ARRAY(Integer)),
    ("c_last_version", ARRAY(Integer)),
    ("s_stream_id", ARRAY(Text)),
    ("s_name", ARRAY(Text)),
    ("s_value", ARRAY(LargeBinary)),
)


def _write_statement() -> Any:
    parameters = (bindparam(name, type_=type_) for name, type_ in WRITE_PARAMETERS)
    return select(func.duelhall_append(*parameters, type_=BigInteger))


def write_args(result: Plan, origin: int, prev: Sequence[tuple[str, int, bytes]] = ()) -> tuple[Any, ...]:
    """WRITE's parameters for a plan made at head ``origin``, guarded by ``prev`` (stream, version, hash)."""
    positions, stream_ids, versions, types, datas, command_ids, actors, times, hashes, chains = _columns(
        result.event_rows, 10
    )
    return WRITE.args(
        total=result.position - origin,
        e_offset=[position - origin for position in positions],
        e_stream_id=stream_ids,
        e_version=versions,
        e_type=types,
        e_data=datas,
        e_command_id=command_ids,
        e_actor=actors,
        e_recorded_at=times,
        e_hash=hashes,
        e_chain=chains,
        **_named("c", commands.c.keys(), result.command_rows),
        **_named("s", secrets.c.keys(), result.secret_rows),
        **_named("p", ["stream_id", "version", "hash"], prev),
    )


def _columns(rows: Sequence[Sequence[Any]], width: int) -> list[list[Any]]:
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in range(width)]


def _named(alias: str, names: Sequence[str], rows: Sequence[Sequence[Any]]) -> dict[str, list[Any]]:
    return {f"{alias}_{name}": column for name, column in zip(names, _columns(rows, len(names)), strict=True)}


def known(request: AppendRequest, row: Sequence[Any]) -> Known:
    """A request's facts from its row of KNOWN."""
    version, hash_, recorded_at, *original = row
    if version is None:
        return Known()
    found = None if original[0] is None else st.original_outcome(request.stream_id, original)
    return Known(version, hash_ or GENESIS_HASH, found, recorded_at)


KNOWN = st.Sql(_known_statement(), st.dialect("postgresql"))
WRITE = st.Sql(_write_statement(), st.dialect("postgresql"))
