"""Replays nested past the JSON bounds fail a named check instead of raising ``RecursionError``."""

from __future__ import annotations

import msgspec

from engine.jsonbounds import MAX_DEPTH
from replays.format import decode_replay, encode_replay
from replays.verify import verify_bytes

DEEP = "[" * 1000 + "]" * 1000


def _nested(levels: int) -> dict[str, object]:
    value: dict[str, object] = {}
    for _ in range(levels):
        value = {"a": value}
    return value


def test_a_deep_header_fails_the_format_check(replay_bytes: bytes) -> None:
    replay = decode_replay(replay_bytes)
    deep = b'{"a":' * 1000 + b"{}" + b"}" * 1000
    data = encode_replay(replay).replace(b'"config":', b'"config":' + deep + b',"config_was":', 1)
    verdict = verify_bytes(data)
    assert verdict.failure is not None and verdict.failure.check == "format"
    shallow_enough = msgspec.structs.replace(replay, config=_nested(MAX_DEPTH + 1))
    verdict = verify_bytes(encode_replay(shallow_enough))
    assert verdict.failure is not None and verdict.failure.check == "format"
    assert "deeper" in verdict.failure.message


def test_a_deep_command_payload_fails_re_execution(old_replay_bytes: bytes) -> None:
    """In a format-1 file, where command records are not hashed, the payload reaches re-execution."""
    replay = decode_replay(old_replay_bytes)
    for index in (0, 3):
        commands = list(replay.commands)
        commands[index] = msgspec.structs.replace(commands[index], payload=DEEP)
        verdict = verify_bytes(encode_replay(msgspec.structs.replace(replay, commands=commands)))
        assert verdict.failure is not None
        assert (verdict.failure.check, verdict.failure.version) == ("reexecute", commands[index].first_version)
