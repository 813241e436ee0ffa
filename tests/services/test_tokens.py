"""Seat tokens: only hashes are kept; a token opens its own seat, a missing one is unauthenticated."""

from __future__ import annotations

import pytest

from services.core.errors import PermissionDenied, Unauthenticated
from services.matches.spectators import NONE, TOKEN, Spectators, viewer_of
from services.matches.tokens import check_admin, is_admin, new_token, seat_for, token_hash

TOKENS = [new_token() for _ in range(3)]
HASHES = [token_hash(t) for t in TOKENS]
SPECTATOR = new_token()


def viewer_for(
    token: str, hashes: list[bytes], spectators: Spectators = Spectators(), admin: bool = False
) -> int | None:
    return viewer_of(token, tuple(hashes), spectators, admin)


def test_tokens_are_fresh_and_only_their_hash_is_kept() -> None:
    assert len(set(TOKENS)) == 3 and all(len(t) >= 32 for t in TOKENS)
    assert all(len(h) == 32 and t.encode() not in h for t, h in zip(TOKENS, HASHES, strict=True))
    assert token_hash(TOKENS[0]) == HASHES[0]


@pytest.mark.parametrize("seat", range(3))
def test_a_token_opens_its_own_seat(seat: int) -> None:
    assert seat_for(TOKENS[seat], HASHES) == seat
    assert viewer_for(TOKENS[seat], HASHES) == seat


def test_no_token_is_unauthenticated_for_a_seat_and_a_spectator_for_a_read() -> None:
    with pytest.raises(Unauthenticated) as raised:
        seat_for("", HASHES)
    assert raised.value.reason == "TOKEN_MISSING"
    assert viewer_for("", HASHES) is None


@pytest.mark.parametrize("token", ["wrong", TOKENS[0] + "x", new_token()])
def test_a_token_of_no_seat_is_refused(token: str) -> None:
    for check in (seat_for, viewer_for):
        with pytest.raises(PermissionDenied) as raised:
            check(token, HASHES)
        assert raised.value.reason == "TOKEN_INVALID"


@pytest.mark.parametrize(
    ("token", "configured", "error", "reason"),
    [
        ("", "admin", Unauthenticated, "TOKEN_MISSING"),
        ("nope", "admin", PermissionDenied, "ADMIN_REQUIRED"),
        ("admin", None, PermissionDenied, "ADMIN_REQUIRED"),
    ],
)
def test_admin_actions_need_the_configured_token(
    token: str,
    configured: str | None,
    error: type[Exception],
    reason: str,
) -> None:
    with pytest.raises(error) as raised:
        check_admin(token, configured)
    assert raised.value.reason == reason  # type: ignore[attr-defined]
    check_admin("admin", "admin")


def test_only_the_configured_admin_token_is_the_admin() -> None:
    assert is_admin("secret", "secret")
    assert not is_admin("secret", None) and not is_admin("", "secret") and not is_admin("", None)
    assert not is_admin(TOKENS[0], "secret")


@pytest.mark.parametrize("policy", [TOKEN, NONE])
def test_a_seat_token_opens_its_seat_whatever_the_spectator_policy(policy: str) -> None:
    assert viewer_for(TOKENS[1], HASHES, Spectators(policy, token_hash(SPECTATOR))) == 1


def test_under_the_token_policy_only_the_spectator_token_or_the_admin_watches() -> None:
    spectators = Spectators(TOKEN, token_hash(SPECTATOR))
    assert viewer_for(SPECTATOR, HASHES, spectators) is None
    assert viewer_for("admin", HASHES, spectators, admin=True) is None
    with pytest.raises(Unauthenticated) as missing:
        viewer_for("", HASHES, spectators)
    assert missing.value.reason == "SPECTATOR_TOKEN_REQUIRED"
    with pytest.raises(PermissionDenied) as wrong:
        viewer_for(new_token(), HASHES, spectators)
    assert wrong.value.reason == "TOKEN_INVALID"


def test_under_the_none_policy_only_the_seats_and_the_admin_watch() -> None:
    spectators = Spectators(NONE)
    assert viewer_for("admin", HASHES, spectators, admin=True) is None
    with pytest.raises(PermissionDenied) as refused:
        viewer_for("", HASHES, spectators)
    assert refused.value.reason == "SPECTATORS_NONE"
    with pytest.raises(PermissionDenied) as wrong:
        viewer_for(SPECTATOR, HASHES, spectators)
    assert wrong.value.reason == "TOKEN_INVALID"
