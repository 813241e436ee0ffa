"""``CreateMatch`` with a client ``request_id``: the same id always yields the same match and tokens.

The id is claimed durably before the match exists: the first request appends a ``MatchRequested`` event
(the match id it will create and a fingerprint of the request) at version 0 of the stream
``request:<sha256 of the id>``, with the seat tokens and the match seed (which the id is derived from,
``replays.format.match_id_for``) as secrets of that append. Appending at version 0
succeeds once across every instance sharing the database; every other attempt, concurrent or later, reads
the claim and returns that match (creating it, with the claimed id and tokens, if the first request died in
between). Tokens are kept so that a retry whose first response was lost can still play the match.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.contract import SYSTEM
from engine.match import encode, seed_commitment
from eventstore import CommandRecord, NewEvent, WrongExpectedVersion
from replays.format import match_id_for
from services.core.errors import Conflict
from services.matches.creation import SeatEntry, check, requested, seat_tokens
from services.matches.manager import MatchManager
from services.matches.replies import Created
from services.matches.spectators import TOKEN
from services.matches.tokens import new_token
from services.readmodels.matchrows import PUBLIC, row_for

REQUEST_STREAM_PREFIX = "request:"
MATCH_REQUESTED = "MatchRequested"
TOKENS_SECRET = "tokens"
SEED_SECRET = "seed"
SPECTATOR_TOKEN_SECRET = "spectator_token"
CASTER_TOKEN_SECRET = "caster_token"


class MatchRequested(msgspec.Struct, frozen=True):
    match_id: str
    fingerprint: str
    """SHA-256 of the request's ruleset, seats, options and labels: a reused id must mean the same match."""


_requested = msgspec.json.Decoder(MatchRequested)
_tokens = msgspec.json.Decoder(list[str])


async def create_once(
    matches: MatchManager,
    request_id: str,
    ruleset_id: str,
    seats: Sequence[SeatEntry],
    options: dict[str, Any],
    labels: dict[str, str],
    ruleset_version: int = 0,
    spectators: str = PUBLIC,
    caster_delay: int = 0,
) -> Created:
    """The match this request id stands for, created on first use; ``Conflict`` if the id meant another."""
    check(ruleset_id, seats, options, labels, ruleset_version, spectators, caster_delay)
    store = matches.store
    request = requested(ruleset_id, ruleset_version, seats, options, labels, spectators, caster_delay)
    fingerprint = hashlib.sha256(encode(request)).hexdigest()
    stream = _stream_of(request_id)
    seed = secrets.token_bytes(32)
    claim = MatchRequested(match_id=match_id_for(seed_commitment(seed)), fingerprint=fingerprint)
    tokens = seat_tokens(seats)
    spectator_token = new_token() if spectators == TOKEN else ""
    caster_token = new_token() if caster_delay else ""
    command = CommandRecord(command_id=uuid.uuid4().hex, actor=SYSTEM, type="request_match", payload=b"{}")
    # Read first: most uses of an id are repeats (a tournament's players each ask for their game's match), and a
    # failed append is dearer than a read, and no conflict at all.
    created = await store.read_stream(stream, 1, 1)
    if not created:
        try:
            await store.append(
                stream,
                0,
                [NewEvent(type=MATCH_REQUESTED, data=encode(claim))],
                command,
                secrets={TOKENS_SECRET: encode(tokens), SEED_SECRET: seed}
                | ({SPECTATOR_TOKEN_SECRET: spectator_token.encode()} if spectator_token else {})
                | ({CASTER_TOKEN_SECRET: caster_token.encode()} if caster_token else {}),
            )
        except WrongExpectedVersion:
            created = await store.read_stream(stream, 1, 1)
    if created:
        claim = _requested.decode(created[0].data)
        if claim.fingerprint != fingerprint:
            raise Conflict(
                f"request_id {request_id!r} was used for a different match",
                reason="REQUEST_ID_REUSED",
                match_id=claim.match_id,
            ) from None
        stored = await store.secrets.read(stream)
        tokens = _tokens.decode(stored.get(TOKENS_SECRET) or b"[]")
        seed = stored.get(SEED_SECRET) or b""
        spectator_token = (stored.get(SPECTATOR_TOKEN_SECRET) or b"").decode()
        caster_token = (stored.get(CASTER_TOKEN_SECRET) or b"").decode()
    if await store.last_version(claim.match_id) == 0:
        try:
            return await matches.create(
                ruleset_id,
                seats,
                options,
                labels,
                seed,
                tokens,
                ruleset_version,
                spectators,
                spectator_token,
                caster_delay,
                caster_token,
            )
        except WrongExpectedVersion:
            pass
    hot = await matches.get(claim.match_id)
    previous = await matches.read_model.get(claim.match_id)
    return Created(
        row=row_for(hot, created_at=None, previous=previous, labels=dict(sorted(labels.items()))),
        tokens=tokens,
        spectator_token=spectator_token,
        caster_token=caster_token,
    )


async def claimed_match(matches: MatchManager, request_id: str) -> str:
    """The id of the match this request id stands for, "" while nobody has used it; one read, no match loaded
    (what a watcher needs of every table, where ``create_once`` would load each match)."""
    claimed = await matches.store.read_stream(_stream_of(request_id), 1, 1)
    return _requested.decode(claimed[0].data).match_id if claimed else ""


def _stream_of(request_id: str) -> str:
    return REQUEST_STREAM_PREFIX + hashlib.sha256(request_id.encode()).hexdigest()
