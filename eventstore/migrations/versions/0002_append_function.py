"""PostgreSQL: the write of an append as one server-side function, ``duelhall_append`` (nothing on SQLite).

Revision ID: 0002
Revises: 0001

The function does what the single ``WRITE`` statement of 0001's store did (docs/eventstore.md "Appends on
PostgreSQL"): check the guard, advance the head counter (taking its row lock), insert the events, the
command and the secrets from arrays, notify ``duelhall_events`` with the new head, and return the old head
(NULL, having written nothing, when the guard fails). PL/pgSQL plans each statement once per session, so an
append pays no planning. Those cached plans would keep a sequential scan of ``events`` chosen while the table
was small (the guard's lookup then grows with the table, and nothing replans it without an ANALYZE), so scans
are ruled out inside the function: every statement in it is a key lookup or an insert.
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# Written out in full: a revision must keep meaning what it meant when merged.
CREATE = """
CREATE FUNCTION duelhall_append(
    total bigint, recorded_at bigint,
    p_stream_id text[], p_version integer[], p_hash bytea[],
    e_offset bigint[], e_stream_id text[], e_version integer[], e_type text[], e_data bytea[],
    e_command_id text[], e_actor text[], e_hash bytea[],
    c_stream_id text[], c_command_id text[], c_actor text[], c_type text[], c_payload bytea[],
    c_first_version integer[], c_last_version integer[],
    s_stream_id text[], s_name text[], s_value bytea[]
) RETURNS bigint LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
    base bigint;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(p_stream_id), 0) LOOP
        PERFORM FROM events WHERE stream_id = p_stream_id[i] AND version = p_version[i] AND hash = p_hash[i];
        IF NOT FOUND THEN
            RETURN NULL;
        END IF;
    END LOOP;
    UPDATE head SET position = position + total WHERE id = 1 RETURNING position - total INTO base;
    INSERT INTO events (position, stream_id, version, type, data, command_id, actor, recorded_at, hash)
        SELECT base + e.o, e.s, e.v, e.t, e.d, e.c, e.a, recorded_at, e.h
        FROM unnest(e_offset, e_stream_id, e_version, e_type, e_data, e_command_id, e_actor, e_hash)
            AS e(o, s, v, t, d, c, a, h);
    INSERT INTO commands (stream_id, command_id, actor, type, payload, first_version, last_version)
        SELECT * FROM unnest(c_stream_id, c_command_id, c_actor, c_type, c_payload, c_first_version, c_last_version);
    IF cardinality(s_stream_id) > 0 THEN
        INSERT INTO secrets (stream_id, name, value) SELECT * FROM unnest(s_stream_id, s_name, s_value);
    END IF;
    PERFORM pg_notify('duelhall_events', (base + total)::text);
    RETURN base;
END
$$
"""

DROP = """
DROP FUNCTION duelhall_append(
    bigint, bigint, text[], integer[], bytea[], bigint[], text[], integer[], text[], bytea[], text[], text[], bytea[],
    text[], text[], text[], text[], bytea[], integer[], integer[], text[], text[], bytea[]
)
"""


def upgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute(CREATE)


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute(DROP)
