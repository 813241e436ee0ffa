"""The ruleset contract, for every registered ruleset at every seat count (ARCHITECTURE.md, docs/adding-a-ruleset.md).

No exemption lists: a ruleset that is registered passes all of it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import make_bot
from engine.commands import decide_json
from engine.contract import ADMIN, CONCEDE, SYSTEM, Ruleset
from engine.dispatch import deciders
from engine.errors import Rejected
from engine.match import EventDecoder, apply, encode, fold, restore, snapshot, stored_type
from engine.registry import HOSTED
from engine.rng import Rng
from engine.selfplay import play
from tests.engine.contract_helpers import case_id, cases, config, mutations, names, playout, seed_bytes

CASES = cases()
SEEDS = st.integers(min_value=0, max_value=2**32)
PROPERTY = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ruleset_of(case: tuple[str, int, int]) -> tuple[Ruleset, int]:
    return HOSTED[case[0], case[1]], case[2]


def tag(command: Any) -> str:
    return str(command.__struct_config__.tag)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPERTY
@given(seed=SEEDS)
def test_same_seed_and_commands_give_identical_events(case: tuple[str, int], seed: int) -> None:
    ruleset, players = ruleset_of(case)
    first = [encode(e) for e in list(playout(ruleset, players, seed, 150))[-1][1]]
    second = [encode(e) for e in list(playout(ruleset, players, seed, 150))[-1][1]]
    assert first == second
    other = [encode(e) for e in list(playout(ruleset, players, seed + 1, 150))[-1][1]]
    assert other != first, "a different seed should change the shuffles"


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPERTY
@given(seed=SEEDS)
def test_folding_the_events_equals_the_incremental_state(case: tuple[str, int], seed: int) -> None:
    ruleset, players = ruleset_of(case)
    decoder = EventDecoder(ruleset)
    for match, events in playout(ruleset, players, seed, 150):  # noqa: B007 (the last one is used below)
        decoded = [decoder.decode(stored_type(ruleset, e), encode(e)) for e in events]
        assert decoded == events, "events must survive a JSON round trip unchanged"
    assert fold(ruleset, decoded) == match


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPERTY
@given(seed=SEEDS)
def test_legal_commands_are_exact(case: tuple[str, int], seed: int) -> None:
    ruleset, players = ruleset_of(case)
    checked = 0
    for step, (match, _) in enumerate(playout(ruleset, players, seed, 120)):
        if step % 3:
            continue
        state, rng_seed = match.state, seed_bytes(seed)
        legal = {seat: ruleset.legal_commands(state, seat) for seat in range(players)}
        candidates = {encode(c): c for commands in legal.values() for c in commands}
        for command in list(candidates.values()):
            for mutated in mutations(command):
                candidates.setdefault(encode(mutated), mutated)
        for seat in range(players):
            listed = {encode(c) for c in legal[seat]}
            for raw, command in candidates.items():
                rng = Rng(rng_seed, match.version + 1)
                if raw in listed:
                    events, folded = ruleset.decide_folded(state, seat, command, rng)
                    assert events, f"{raw!r} is listed for seat {seat} but produced no events"
                    assert folded == apply(ruleset, match, events).state, "decide_folded's state is the fold"
                    again = decide_json(ruleset, state, seat, raw, Rng(rng_seed, match.version + 1))
                    assert [encode(e) for e in again] == [encode(e) for e in events]
                else:
                    with pytest.raises(Rejected):
                        ruleset.decide(state, seat, command, rng)
                checked += 1
        for actor in (SYSTEM, ADMIN):
            for command in candidates.values():
                with contextlib.suppress(Rejected):
                    ruleset.decide(state, actor, command, Rng(rng_seed, match.version + 1))
    assert checked > 0


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_malformed_json_commands_are_rejected_with_codes(case: tuple[str, int]) -> None:
    ruleset, players = ruleset_of(case)
    match, _ = next(playout(ruleset, players, 7))
    seat = ruleset.to_act(match.state)[0]
    rng = Rng(seed_bytes(7), match.version + 1)
    for raw, codes in [
        (b"{not json", {"BAD_JSON"}),
        (b"[1, 2]", {"BAD_FIELDS"}),
        (b'{"type": "no_such_command"}', {"UNKNOWN_COMMAND"}),
    ]:
        with pytest.raises(Rejected) as refused:
            decide_json(ruleset, match.state, seat, raw, rng)
        assert refused.value.code in codes
    for kind, cls in ruleset.command_types.items():
        if not cls.__struct_fields__:
            continue
        raw = msgspec.json.encode({"type": kind, cls.__struct_fields__[0]: {"bad": ["shape"]}})
        with pytest.raises(Rejected):
            decide_json(ruleset, match.state, seat, raw, rng)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPERTY
@given(seed=SEEDS)
def test_views_and_redacted_events_never_hold_hidden_cards(case: tuple[str, int], seed: int) -> None:
    ruleset, players = ruleset_of(case)
    viewers = [None, *range(players)]
    secrets_seen = 0
    *_, (_, events) = playout(ruleset, players, seed, 150)
    state = fold(ruleset, events[:1]).state
    for event in events[1:]:
        # Checked after every event, as a watcher receives them, not only after every command.
        state = ruleset.evolve(state, event)
        for viewer in viewers:
            hidden = set(ruleset.hidden_cards(state, viewer))
            if not hidden:
                continue
            secrets_seen += 1
            tokens = [msgspec.json.encode(card) for card in hidden]
            assert any(t in encode(state) for t in tokens), "hidden_cards must name ids the state holds"
            seen = encode(ruleset.redact(event, viewer)) + encode(ruleset.view(state, viewer))
            assert not [t for t in tokens if t in seen], f"{tag(event)} or the view after it leaks to {viewer}"
    assert secrets_seen > 0, "a card game with hidden information must hide something"


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_finish_every_game(case: tuple[str, int], bot: str) -> None:
    ruleset, players = ruleset_of(case)
    for game in range(4):
        bots = [make_bot(bot, ruleset, game * 10 + seat) for seat in range(players)]
        played = play(ruleset, config(players), names(players), seed_bytes(game), bots)
        assert played.outcome is not None, f"game {game} did not finish in {played.commands} commands"
        outcome = played.outcome
        assert set(outcome.winners).isdisjoint(outcome.losers)
        assert outcome.draw or outcome.winners
        for seat in range(players):
            assert ruleset.legal_commands(played.match.state, seat) == []
        assert ruleset.to_act(played.match.state) == ()
        assert ruleset.deadline(played.match.state) is None


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_seats_waited_on_have_moves_and_the_clock_names_a_seat(case: tuple[str, int]) -> None:
    ruleset, players = ruleset_of(case)
    for match, _ in playout(ruleset, players, 11, 150):
        if ruleset.outcome(match.state) is not None:
            continue
        for seat in ruleset.to_act(match.state):
            assert [c for c in ruleset.legal_commands(match.state, seat) if tag(c) != CONCEDE]
        deadline = ruleset.deadline(match.state)
        if deadline is not None:
            assert deadline.seconds > 0
            events = ruleset.decide(match.state, SYSTEM, deadline.timeout, Rng(seed_bytes(11), match.version + 1))
            assert events, "the clock's timeout command must be accepted from the system"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_concede_ends_the_match(case: tuple[str, int]) -> None:
    ruleset, players = ruleset_of(case)
    match, _ = next(playout(ruleset, players, 3, options=ruleset.concede_options))
    # The seat the game waits on: a game may allow conceding only in one's own turn.
    seat = ruleset.to_act(match.state)[0]
    concede = [c for c in ruleset.legal_commands(match.state, seat) if tag(c) == CONCEDE]
    assert concede, "the seat on the move may concede while the match runs"
    events = ruleset.decide(match.state, seat, concede[0], Rng(seed_bytes(3), match.version + 1))
    state = match.state
    for event in events:
        state = ruleset.evolve(state, event)
    if players == 2:
        outcome = ruleset.outcome(state)
        assert outcome is not None and seat in outcome.losers


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_snapshots_restore_the_same_match(case: tuple[str, int]) -> None:
    ruleset, players = ruleset_of(case)
    *_, (match, events) = playout(ruleset, players, 5, 60)
    restored = restore(ruleset, events[0], snapshot(match))
    assert restored == match
    assert restore(ruleset, events[0], b'{"version": 3, "state": {"nonsense": true}}') is None


@pytest.mark.parametrize("key", sorted(HOSTED), ids="{0[0]}-v{0[1]}".format)
def test_schemas_presets_and_config_round_trip(key: tuple[str, int]) -> None:
    ruleset = HOSTED[key]
    for kind in (ruleset.Config, ruleset.Command, ruleset.Event, ruleset.View):
        assert msgspec.json.schema(kind)
    assert ruleset.presets and isinstance(ruleset.options, dict)
    assert len(ruleset.card_data_hash) == 64
    configured = ruleset.configure(config(ruleset.min_seats))
    assert msgspec.convert(msgspec.to_builtins(configured), ruleset.Config) == configured


def test_a_decide_table_must_cover_its_command_union_exactly() -> None:
    class Go(msgspec.Struct, tag="go"):
        pass

    class Stop(msgspec.Struct, tag="stop"):
        pass

    def go(*_: object) -> None:
        return None

    assert deciders(Go | Stop, [(Go, go), (Stop, go)]) == {Go: ("go", go), Stop: ("stop", go)}
    with pytest.raises(TypeError, match="Stop"):
        deciders(Go | Stop, [(Go, go)])
