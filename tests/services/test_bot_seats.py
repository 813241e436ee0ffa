"""How a bot seat is recorded: in the creating command's payload (a request without bots records as before bot
seats existed, so old fingerprints and replays hold), with seeds derived from the match seed."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime

import pytest

from engine import registry
from engine.match import encode
from services.matches import bot_seats
from services.matches.bot_workers import choose
from services.matches.creation import SeatEntry, created_match, creation, requested
from services.readmodels.lifecycle import request_in
from tests.engine.contract_helpers import playout


def test_a_request_without_bots_records_as_before_bot_seats() -> None:
    seats = [SeatEntry("ada", {"deck": "starter_a"}), SeatEntry("bob", {})]
    payload = encode(requested("duel", 0, seats, {}, {"t": "1"}, "public"))
    assert payload == (
        b'{"ruleset":"duel","seats":[{"name":"ada","config":{"deck":"starter_a"}},{"name":"bob","config":{}}],'
        b'"options":{},"labels":{"t":"1"}}'
    )


def test_a_bot_seat_is_recorded_with_its_level_and_has_no_token() -> None:
    seats = [SeatEntry("ada", {}), SeatEntry("hal", {}, kind=bot_seats.BOT, bot_level="greedy")]
    payload = encode(requested("duel", 0, seats, {}, {}, "public"))
    assert b'{"name":"hal","config":{},"kind":"bot","bot_level":"greedy"}' in payload
    assert request_in(payload).bots == {1: "greedy"}
    new = creation("duel", 0, seats, {}, {}, b"", (), "public", "")
    assert new.tokens[0] and new.tokens[1] == ""
    assert new.token_hashes[1] == b"" and "token:1" not in new.secrets
    assert bot_seats.stored(new.secrets) == {1: "greedy"} == new.bots


def test_a_bots_seed_follows_from_the_match_seed_and_its_decisions_from_the_version() -> None:
    seed = bytes(range(32))
    assert bot_seats.bot_seed(seed, 1) == hmac.new(seed, b"duelhall bot seat 1", hashlib.sha256).digest()
    assert bot_seats.bot_seed(seed, 0) != bot_seats.bot_seed(seed, 1)
    assert bot_seats.decision_seed(seed, 1, 7) == bot_seats.decision_seed(seed, 1, 7)
    assert bot_seats.decision_seed(seed, 1, 7) != bot_seats.decision_seed(seed, 1, 8)


def test_a_bot_chooses_a_legal_command_the_same_way_for_the_same_seed() -> None:
    ruleset = registry.get("duel")
    new = creation("duel", 0, [SeatEntry("a", {}), SeatEntry("b", {})], {}, {}, bytes(32), (), "public", "")
    hot = created_match(new, datetime.now(UTC))
    seat = ruleset.to_act(hot.state)[0]
    legal = [encode(c) for c in ruleset.legal_commands(hot.state, seat)]
    chosen = {choose(ruleset, hot.state, seat, "random", 5, 1.0) for _ in range(3)}
    assert len(chosen) == 1 and chosen <= set(legal)


@pytest.mark.parametrize("ruleset_id", sorted(registry.RULESETS))
def test_a_search_bot_seat_decides_from_the_view_as_json_within_its_budget(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    states = [match.state for match, _ in playout(ruleset, ruleset.min_seats, 3, 25)]
    state = next(s for s in reversed(states) if ruleset.outcome(s) is None and ruleset.to_act(s))
    seat = ruleset.to_act(state)[0]
    legal = {encode(c) for c in ruleset.legal_commands(state, seat)}
    assert choose(ruleset, state, seat, "search", 5, 0.05) in legal
