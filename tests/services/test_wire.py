"""wire.py converts the service's values to protobuf messages and back, and does nothing else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from engine.contract import Outcome
from services.api import duelhall_pb2 as pb
from services.core.errors import InvalidArgument
from services.edge import wire
from services.matches.replies import Decision, RedactedEvent, Submitted, Viewed
from services.matches.watch import Update
from services.readmodels.matchrows import ENDED, RUNNING, MatchRow

AT = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=UTC)
EVENT = RedactedEvent(7, "CardDrawn", b'{"type":"CardDrawn","card":null}', "1", AT)


def test_times_are_rfc3339_in_utc_with_z() -> None:
    assert wire.timestamp(AT) == "2026-03-04T05:06:07.890123Z"
    assert wire.timestamp(AT.astimezone(timezone(timedelta(hours=2)))) == "2026-03-04T07:06:07.890123+02:00"


def test_an_event_keeps_its_redacted_data_and_carries_no_hash() -> None:
    message = wire.redacted(EVENT)
    assert (message.version, message.type, message.data_json, message.actor, message.recorded_at) == (
        7,
        "CardDrawn",
        '{"type":"CardDrawn","card":null}',
        "1",
        "2026-03-04T05:06:07.890123Z",
    )
    assert "hash" not in pb.Event.DESCRIPTOR.fields_by_name


def test_a_submission_reply() -> None:
    message = wire.submitted(Submitted([EVENT], 8, True, (0,)))
    assert ([e.version for e in message.events], message.version, message.duplicate, list(message.to_act)) == (
        [7],
        8,
        True,
        [0],
    )


def test_a_spectator_is_seat_minus_one() -> None:
    assert wire.viewed(Viewed(None, 3, b"{}", ())).seat == -1
    assert wire.viewed(Viewed(1, 3, b'{"a":1}', (1,))).view_json == '{"a":1}'


@pytest.mark.parametrize(("view", "text"), [(None, ""), (b'{"hand":[]}', '{"hand":[]}')])
def test_legal_commands_with_and_without_the_view(view: bytes | None, text: str) -> None:
    message = wire.decision(Decision(0, 5, [b'{"type":"engage"}'], view, (0,)))
    assert (list(message.commands_json), message.view_json, message.version) == (['{"type":"engage"}'], text, 5)
    turn = wire.turn(Decision(0, 5, [b'{"type":"engage"}'], view, (0,)))
    assert (turn.version, list(turn.to_act), list(turn.commands_json)) == (5, [0], ['{"type":"engage"}'])


def test_an_update() -> None:
    assert wire.update(Update(EVENT, None, False)).view_json == ""
    ended = wire.update(Update(EVENT, b"{}", True))
    assert (ended.view_json, ended.match_ended, ended.event.version) == ("{}", True, 7)


@pytest.mark.parametrize(
    ("status", "outcome", "expected"),
    [
        (RUNNING, None, (pb.MATCH_STATUS_RUNNING, "")),
        (
            ENDED,
            Outcome(winners=(1,), losers=(0,), draw=False, reason="eliminated"),
            (pb.MATCH_STATUS_ENDED, '{"winners":[1],"losers":[0],"draw":false,"reason":"eliminated"}'),
        ),
    ],
)
def test_a_match_row(status: str, outcome: Outcome | None, expected: tuple[int, str]) -> None:
    row = MatchRow("m1", "card_monsters", 1, ("a", "b"), status, 9, outcome, AT, AT + timedelta(seconds=1), "ab")
    message = wire.match(row)
    assert (message.status, message.outcome_json) == expected
    assert (message.match_id, list(message.seats), message.updated_at) == (
        "m1",
        ["a", "b"],
        "2026-03-04T05:06:08.890123Z",
    )


@pytest.mark.parametrize(("text", "value"), [("", {}), ('{"deck": "starter_a"}', {"deck": "starter_a"})])
def test_a_json_object_field(text: str, value: dict[str, str]) -> None:
    assert wire.json_object(text, "config_json") == value


@pytest.mark.parametrize("text", ["{", "[1, 2]", "3"])
def test_a_json_field_that_is_not_an_object_is_bad_json(text: str) -> None:
    with pytest.raises(InvalidArgument) as raised:
        wire.json_object(text, "options_json")
    assert raised.value.reason == "BAD_JSON" and "options_json" in raised.value.message
