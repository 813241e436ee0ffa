"""Any JSON a client can send is either decided or refused with ``Rejected``: never another exception."""

from __future__ import annotations

import contextlib
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import decide_json
from engine.contract import ADMIN, SYSTEM
from engine.errors import ConfigError, Rejected
from engine.registry import RULESETS
from engine.rng import Rng
from tests.engine.contract_helpers import playout, seed_bytes

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.text(max_size=12),
    st.sampled_from(["0:0", "1:3", "0-m01", "1-x01", "Mon.01a", "hand", "deck", "turn", "decision"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def field_names(kind: type) -> list[str]:
    return list(getattr(kind, "__struct_fields__", ()))


@pytest.mark.parametrize("key", sorted(RULESETS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_arbitrary_json_commands_are_decided_or_rejected(key: str, data: st.DataObject) -> None:
    ruleset = RULESETS[key]
    players = ruleset.min_seats
    steps = list(playout(ruleset, players, 9, 40))
    match, _ = steps[data.draw(st.integers(0, len(steps) - 1), label="step")]
    kind = data.draw(st.sampled_from(sorted(ruleset.command_types)), label="type")
    names = field_names(ruleset.command_types[kind])
    fields: dict[str, Any] = {
        name: data.draw(JSON, label=name) for name in names if data.draw(st.booleans(), label=f"has {name}")
    }
    raw = msgspec.json.encode({"type": kind, **fields})
    actor = data.draw(st.sampled_from([*range(players), SYSTEM, ADMIN]), label="actor")
    with contextlib.suppress(Rejected):
        decide_json(ruleset, match.state, actor, raw, Rng(seed_bytes(9), match.version + 1))


@pytest.mark.parametrize("key", sorted(RULESETS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_legal_command_with_one_odd_field_is_decided_or_rejected(key: str, data: st.DataObject) -> None:
    ruleset = RULESETS[key]
    players = ruleset.min_seats
    steps = [m for m, _ in playout(ruleset, players, 13, 40) if ruleset.outcome(m.state) is None]
    match = steps[data.draw(st.integers(0, len(steps) - 1), label="step")]
    legal = [c for seat in range(players) for c in ruleset.legal_commands(match.state, seat)]
    command = msgspec.json.decode(msgspec.json.encode(data.draw(st.sampled_from(legal), label="command")))
    names = [name for name in command if name != "type"]
    if names:
        command[data.draw(st.sampled_from(names), label="field")] = data.draw(SCALARS, label="value")
    actor = data.draw(st.sampled_from([*range(players), SYSTEM, ADMIN]), label="actor")
    with contextlib.suppress(Rejected):
        decide_json(ruleset, match.state, actor, msgspec.json.encode(command), Rng(seed_bytes(13), match.version + 1))


@pytest.mark.parametrize("key", sorted(RULESETS))
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_arbitrary_configurations_are_accepted_or_refused_with_a_code(key: str, data: st.DataObject) -> None:
    ruleset = RULESETS[key]
    option = st.sampled_from([*sorted(ruleset.options), "nonsense"])
    seat = st.one_of(
        JSON,
        st.fixed_dictionaries(
            {},
            optional={
                "deck": st.one_of(
                    JSON, st.sampled_from(sorted(ruleset.presets)), st.lists(st.text(max_size=6), max_size=20)
                )
            },
        ),
    )
    config = data.draw(
        st.one_of(
            JSON,
            st.fixed_dictionaries(
                {
                    "seats": st.lists(seat, max_size=7),
                    "options": st.one_of(JSON, st.dictionaries(option, SCALARS, max_size=3)),
                }
            ),
        ),
        label="config",
    )
    try:
        configured = ruleset.configure(config)
    except ConfigError as refused:
        assert refused.code.isupper()
        return
    assert msgspec.convert(msgspec.to_builtins(configured), ruleset.Config) == configured
