"""Hash chain 2: ``events.chain`` names the chain each event is linked with; PostgreSQL's ``duelhall_append``
takes a time and a chain per event.

Revision ID: 0003
Revises: 0002

Every event stored before this revision is chain 1 (its hash covers type and data only); the store links every
new event with chain 2, which also covers its recorded time and its command record (docs/eventstore.md "Hash
chain"). An import keeps the time and chain of each event of its file, so the function takes them per event
instead of one time per call. Otherwise the function is 0002's.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# Written out in full: a revision must keep meaning what it meant when merged.
CREATE = """
CREATE FUNCTION duelhall_append(
    total bigint,
    p_stream_id text[], p_version integer[], p_hash bytea[],
    e_offset bigint[], e_stream_id text[], e_version integer[], e_type text[], e_data bytea[],
    e_command_id text[], e_actor text[], e_recorded_at bigint[], e_hash bytea[], e_chain smallint[],
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
    INSERT INTO events (position, stream_id, version, type, data, command_id, actor, recorded_at, hash, chain)
        SELECT base + e.o, e.s, e.v, e.t, e.d, e.c, e.a, e.r, e.h, e.n
        FROM unnest(e_offset, e_stream_id, e_version, e_type, e_data, e_command_id, e_actor, e_recorded_at, e_hash,
                    e_chain)
            AS e(o, s, v, t, d, c, a, r, h, n);
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
    bigint, text[], integer[], bytea[], bigint[], text[], integer[], text[], bytea[], text[], text[], bigint[],
    bytea[], smallint[], text[], text[], text[], text[], bytea[], integer[], integer[], text[], text[], bytea[]
)
"""

# 0002's function, dropped on the way up and put back on the way down.
CREATE_0002 = """
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

DROP_0002 = """
DROP FUNCTION duelhall_append(
    bigint, bigint, text[], integer[], bytea[], bigint[], text[], integer[], text[], bytea[], text[], text[], bytea[],
    text[], text[], text[], text[], bytea[], integer[], integer[], text[], text[], bytea[]
)
"""


def upgrade() -> None:
    # Existing rows are chain 1; the default is dropped again so that every insert names its chain.
    with op.batch_alter_table("events") as table:
        table.add_column(
            sa.Column(
                "chain",
                sa.SmallInteger,
                nullable=False,
                server_default="1",
                comment="the hash chain the event is linked with: 1 or 2",
            )
        )
    if op.get_context().dialect.name == "postgresql":
        op.alter_column("events", "chain", server_default=None)
        op.execute(DROP_0002)
        op.execute(CREATE)


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute(DROP)
        op.execute(CREATE_0002)
    with op.batch_alter_table("events") as table:
        table.drop_column("chain")
