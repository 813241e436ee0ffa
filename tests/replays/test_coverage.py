"""What verification covers (issue 39): chain 2 hashes the times and the command records, the times check keeps
them in order and in their one form, and a file written before chain 2 verifies with its uncovered parts named."""

from __future__ import annotations

import msgspec

from replays.format import Replay, decode_replay, encode_replay, format_time, time_micros
from replays.verify import CHECKS, Verdict, verify_bytes
from tests.replays.rewritten import rechained


def _verify(replay: Replay) -> Verdict:
    return verify_bytes(encode_replay(replay))


def _with_time(replay: Replay, index: int, text: str) -> Replay:
    events = list(replay.events)
    events[index] = msgspec.structs.replace(events[index], recorded_at=text)
    return msgspec.structs.replace(replay, events=events)


def _with_command_id(replay: Replay, index: int, command_id: str) -> Replay:
    commands = list(replay.commands)
    commands[index] = msgspec.structs.replace(commands[index], command_id=command_id)
    return msgspec.structs.replace(replay, commands=commands)


def test_the_issue_s_edits_fail_the_chain_of_a_new_file_and_are_named_uncovered_in_an_old_one(
    replay_bytes: bytes, old_replay_bytes: bytes
) -> None:
    """Measured on main before chain 2: both edits left `replay verify` at "replay verified"."""
    new, old = decode_replay(replay_bytes), decode_replay(old_replay_bytes)
    assert _verify(new).uncovered == []
    backdated = "1999-01-01T00:00:00+00:00"
    for edited in (_with_time(new, 9, backdated), _with_command_id(new, 3, "c-forged")):
        failure = _verify(edited).failure
        assert failure is not None and failure.check == "chain"
    assert _verify(_with_time(new, 9, backdated)).failure.version == 10  # type: ignore[union-attr]
    assert _verify(_with_command_id(new, 3, "c-forged")).failure.version == new.commands[3].first_version  # type: ignore[union-attr]
    for edited in (old, _with_time(old, 9, backdated), _with_command_id(old, 3, "c-forged")):
        verdict = _verify(edited)
        assert verdict.ok and verdict.checks == list(CHECKS)
        assert verdict.uncovered == [
            f"recorded_at of versions 1-{len(old.events)}: chain 1 does not hash times, and no check reads them",
            f"the command records of versions 1-{len(old.events)} (command_id, actor, type, payload text): chain 1 "
            "does not hash them; re-execution checks only that their payloads and versions produce the recorded "
            "events",
        ]


def test_times_that_run_backwards_fail_the_times_check_even_with_every_hash_recomputed(replay_bytes: bytes) -> None:
    replay = decode_replay(replay_bytes)
    earlier = time_micros(replay.events[4].recorded_at)
    assert earlier is not None
    forged = rechained(_with_time(replay, 5, format_time(earlier - 1)))
    verdict = _verify(forged)
    assert verdict.failure is not None and (verdict.failure.check, verdict.failure.version) == ("times", 6)
    assert verdict.checks == ["format", "ruleset", "chain"]


def test_a_time_in_another_form_of_the_same_instant_fails_the_times_check(replay_bytes: bytes) -> None:
    """The hash covers the instant; the file shows text, which must be the one text of that instant."""
    replay = decode_replay(replay_bytes)
    text = replay.events[2].recorded_at
    for other in (text.replace("+00:00", "Z"), text.replace("+00:00", ""), text.replace("T", " ")):
        assert time_micros(other) == time_micros(text)
        verdict = _verify(_with_time(replay, 2, other))
        assert verdict.failure is not None and (verdict.failure.check, verdict.failure.version) == ("times", 3)


def test_a_match_live_across_the_upgrade_verifies_naming_only_its_chain_1_part(replay_bytes: bytes) -> None:
    """Its first commands were stored as chain 1 (before revision 0003), the rest as chain 2."""
    replay = decode_replay(replay_bytes)
    switch = replay.commands[3].first_version
    events = [e if e.version >= switch else msgspec.structs.replace(e, chain=1) for e in replay.events]
    mixed = rechained(msgspec.structs.replace(replay, events=events))
    verdict = _verify(mixed)
    assert verdict.ok and verdict.checks == list(CHECKS)
    assert [part.split(":")[0] for part in verdict.uncovered] == [
        f"recorded_at of versions 1-{switch - 1}",
        f"the command records of versions 1-{switch - 1} (command_id, actor, type, payload text)",
    ]
    late = list(mixed.events)
    late[switch] = msgspec.structs.replace(late[switch], chain=1)
    failure = _verify(rechained(msgspec.structs.replace(mixed, events=late))).failure
    assert failure is not None and (failure.check, failure.version) == ("chain", switch + 1)
    assert "never goes back" in failure.message


def test_a_format_1_file_may_not_hold_chain_2(replay_bytes: bytes) -> None:
    replay = decode_replay(replay_bytes)
    failure = _verify(msgspec.structs.replace(replay, format_version=1)).failure
    assert failure is not None and (failure.check, failure.version) == ("format", 1)
