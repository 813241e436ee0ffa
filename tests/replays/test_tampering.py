"""Verification catches any change to any event and names its version (docs/replay-format.md)."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from replays.format import decode_replay, encode_replay
from replays.verify import CHECKS, verify_bytes


def test_an_untouched_replay_passes_every_check(replay_bytes: bytes) -> None:
    verdict = verify_bytes(replay_bytes)
    assert verdict.ok and verdict.checks == list(CHECKS)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_flipping_any_byte_of_any_event_fails_at_that_version(replay_bytes: bytes, data: st.DataObject) -> None:
    replay = decode_replay(replay_bytes)
    index = data.draw(st.integers(0, len(replay.events) - 1), label="event")
    event = replay.events[index]
    field = data.draw(st.sampled_from(["data", "hash", "type"]), label="field")
    text = getattr(event, field)
    offset = data.draw(st.integers(0, len(text) - 1), label="offset")
    flipped = chr(ord(text[offset]) ^ data.draw(st.sampled_from([1, 2, 4, 8, 16]), label="bit"))
    changed = text[:offset] + flipped + text[offset + 1 :]
    events = list(replay.events)
    events[index] = msgspec.structs.replace(event, **{field: changed})
    verdict = verify_bytes(encode_replay(msgspec.structs.replace(replay, events=events)))
    assert not verdict.ok
    assert verdict.failure is not None
    assert (verdict.failure.check, verdict.failure.version) == ("chain", event.version)


def test_a_changed_command_fails_its_first_event(replay_bytes: bytes, old_replay_bytes: bytes) -> None:
    """Chain 2 hashes the command record; in a format-1 file the change is caught by re-execution."""
    for data, check in ((replay_bytes, "chain"), (old_replay_bytes, "reexecute")):
        replay = decode_replay(data)
        index, command = next((i, c) for i, c in enumerate(replay.commands) if c.type == "play_monster")
        commands = list(replay.commands)
        commands[index] = msgspec.structs.replace(command, payload='{"type":"engage"}')
        verdict = verify_bytes(encode_replay(msgspec.structs.replace(replay, commands=commands)))
        assert verdict.failure is not None
        assert (verdict.failure.check, verdict.failure.version) == (check, command.first_version)


def test_a_wrong_seed_or_outcome_is_caught(replay_bytes: bytes) -> None:
    replay = decode_replay(replay_bytes)
    wrong_seed = msgspec.structs.replace(replay, seed="00" * 32)
    assert verify_bytes(encode_replay(wrong_seed)).failure.check == "seed"  # type: ignore[union-attr]
    wrong_outcome = msgspec.structs.replace(replay, outcome=None)
    assert verify_bytes(encode_replay(wrong_outcome)).failure.check == "outcome"  # type: ignore[union-attr]
    assert verify_bytes(b"{}").failure.check == "format"  # type: ignore[union-attr]


def test_a_changed_match_id_is_caught(replay_bytes: bytes) -> None:
    replay = decode_replay(replay_bytes)
    for match_id in ("someone-else", replay.match_id[:-1] + ("0" if replay.match_id[-1] != "0" else "1"), ""):
        verdict = verify_bytes(encode_replay(msgspec.structs.replace(replay, match_id=match_id)))
        assert verdict.failure is not None
        assert (verdict.failure.check, verdict.failure.version) == ("fold", 1)
