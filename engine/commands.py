"""The engine's raw command entry: JSON bytes in, events out, checks in the contract's order.

Order: the type is read first (``UNKNOWN_COMMAND``), then the ruleset's common checks
(``MATCH_OVER``, ``NOT_YOUR_TURN``, ...), then the fields are decoded strictly (``BAD_FIELDS``), then ``decide``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine import jsonbounds
from engine.contract import Actor, Ruleset
from engine.errors import BAD_FIELDS, UNKNOWN_COMMAND, Rejected
from engine.rng import Rng

BAD_JSON = "BAD_JSON"


def read_type(ruleset: Ruleset, raw: bytes) -> tuple[str, dict[str, Any]]:
    """The command's type tag and its JSON object; rejects what is not a known command object."""
    try:
        obj = jsonbounds.decode(raw)
    except jsonbounds.OutOfBounds as exc:
        raise Rejected(BAD_JSON, f"the command {exc}") from None
    except msgspec.DecodeError as exc:
        raise Rejected(BAD_JSON, f"command is not valid JSON: {exc}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise Rejected(BAD_FIELDS, "a command is a JSON object with a string field 'type'")
    kind = obj["type"]
    if kind not in ruleset.command_types:
        raise Rejected(UNKNOWN_COMMAND, f"unknown command type {kind!r}")
    return kind, obj


def decode_command(ruleset: Ruleset, state: Any, actor: Actor, raw: bytes) -> Any:
    """The typed command for ``raw``, after the checks that the spec puts before field checks.

    A well-formed command decodes in one pass (``decide`` runs the common checks itself); only a malformed
    one takes the slow path that finds the right code in the contract's order.
    """
    if len(raw) <= jsonbounds.MAX_BYTES:
        try:
            return ruleset.command_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            pass  # read_type below says what is wrong, deep nesting included
    kind, obj = read_type(ruleset, raw)
    ruleset.precheck(state, actor, kind)
    try:
        return msgspec.convert(obj, ruleset.command_types[kind])
    except msgspec.ValidationError as exc:
        raise Rejected(BAD_FIELDS, str(exc)) from None


def decide_json(ruleset: Ruleset, state: Any, actor: Actor, raw: bytes, rng: Rng) -> Sequence[Any]:
    """Events for a command given as JSON bytes, or ``Rejected``."""
    return ruleset.decide(state, actor, decode_command(ruleset, state, actor, raw), rng)
